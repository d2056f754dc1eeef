"""A world from ``resample_from_infostate`` holds nothing its seat could not know: not the real deal, not
the real table's generator, no array carried over from it — in every game and variant."""

from __future__ import annotations

import numpy as np
import pytest

from tests.tables import table_after_random_steps
from trick_core.registry import VARIANTS, game_spec, variant_id

VARIANT_IDS = [variant_id(game, config) for game, config in VARIANTS]


def _twin(env, agent: str, seed: int):
    """Another real table on which ``agent`` has seen exactly the same: the deal of a world redealt for
    ``agent``, replayed through the same actions."""
    world = env.unwrapped.resample_from_infostate(agent, seed)
    record = world.game_record()
    twin = type(env.unwrapped)(**env.unwrapped.config)
    twin.replay({**record, "result": None})
    return twin


def _same(a, b) -> bool:
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b)
    if isinstance(a, np.random.Generator):
        return a.bit_generator.state == b.bit_generator.state
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a is b or a == b


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
def test_a_sampled_world_cannot_reproduce_the_real_deal(game, config):
    """The issue's reproducer: resetting a sampled world does not predict the real table's next deal."""
    env = game_spec(game).make_env(**config)
    env.reset(seed=1)
    for agent in env.possible_agents:
        world = env.unwrapped.resample_from_infostate(agent, 7)
        world.reset()
        env.reset()
        assert world.state()["hands"] != env.unwrapped.state()["hands"], agent


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
def test_twin_tables_give_identical_worlds(game, config):
    """Two real tables that differ only in cards ``agent`` cannot see give byte-identical worlds for the
    same seed — every attribute, array and generator — so nothing of the real hidden cards reaches one."""
    checked = 0
    for seed in range(6):
        env = table_after_random_steps(game, config, seed, steps=3 + 4 * seed)
        if all(env.terminations.values()):
            continue
        for agent in env.possible_agents:
            twin = _twin(env, agent, 100 + seed)
            if twin.state()["hands"] == env.unwrapped.state()["hands"]:
                continue  # nothing hidden from this seat differs: no evidence either way
            first = env.unwrapped.resample_from_infostate(agent, 5)
            second = twin.resample_from_infostate(agent, 5)
            differing = [k for k in first.__dict__ if not _same(first.__dict__[k], second.__dict__.get(k))]
            assert not differing, (seed, agent, differing)
            checked += 1
    assert checked >= 3


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
def test_a_world_after_an_illegal_move_offers_no_action(game, config):
    env = game_spec(game).make_env(**config, illegal_action="terminate")
    env.reset(seed=3)
    legal = set(env.unwrapped.legal_actions())
    illegal = next(a for a in range(env.unwrapped.num_actions) if a not in legal)
    with pytest.warns(UserWarning, match=rf"{game}: illegal action {illegal} .*\. Terminating with reward "):
        env.step(illegal)
    assert all(env.terminations.values())
    world = env.unwrapped.resample_from_infostate(env.possible_agents[0], 1)
    assert world.legal_actions() == []
    assert not world.observe(world.agent_selection)["action_mask"].any()


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
def test_a_world_draws_the_stream_of_its_own_seed_and_its_clones_continue_it(game, config):
    """A world builds its generator from its seed only when it first draws (a search never does), so a
    clone taken before that draws the same stream, and after a seeded reset the seed's stream wins."""
    env = table_after_random_steps(game, config, 0, steps=5)
    world = env.unwrapped.resample_from_infostate(env.possible_agents[0], 11)
    early_clone = world.clone()
    expected = np.random.default_rng(11).integers(2**62, size=4)
    assert np.array_equal(world._generator().integers(2**62, size=4), expected)
    assert np.array_equal(early_clone._generator().integers(2**62, size=4), expected)
    undrawn = env.unwrapped.resample_from_infostate(env.possible_agents[0], 12)
    undrawn.reset(seed=3)
    late_clone = undrawn.clone()
    undrawn.reset()
    late_clone.reset()
    fresh = game_spec(game).make_env(**config)
    fresh.reset(seed=3)
    fresh.reset()
    assert late_clone.state()["hands"] == undrawn.state()["hands"] == fresh.unwrapped.state()["hands"]
