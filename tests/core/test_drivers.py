"""The drivers of ``trick_core.drivers``, compiled once per game, checked on every game and variant
against the step-by-step loops they stand for."""

from __future__ import annotations

import numpy as np
import pytest

from trick_core import drivers
from trick_core.bits import make_rng
from trick_core.registry import VARIANTS, game_spec, variant_id

VARIANT_IDS = [variant_id(game, config) for game, config in VARIANTS]


def _positions(game: str, config: dict, hands: int, seed: int):
    """(env, seat to act) at every decision of ``hands`` random hands, as independent clones."""
    env = game_spec(game).make_env(**config)
    rng = np.random.default_rng(seed)
    for hand in range(hands):
        env.reset(seed=seed * 100 + hand)
        while not all(env.terminations.values()):
            agent = env.agent_selection
            yield env.unwrapped.clone(), env.agent_name_mapping[agent]
            env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
def test_advance_is_apply_then_mask(game, config):
    kernel = game_spec(game).kernel()
    advance = drivers.compiled(kernel).advance
    for env, _ in _positions(game, config, hands=3, seed=1):
        state = env.kernel_state()
        other = state.copy()
        mask = np.zeros(env.num_actions, np.int8)
        expected = np.zeros(env.num_actions, np.int8)
        action = int(env.legal_actions()[0])
        seat = advance(state, action, mask)
        kernel.apply_action(other, action)
        assert np.array_equal(state, other) and seat == kernel.current_seat(other)
        if seat >= 0:
            kernel.legal_action_mask(other, expected)
            assert np.array_equal(mask, expected)


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
def test_play_random_hands_is_the_deal_playout_settle_loop(game, config):
    spec = game_spec(game)
    kernel = spec.kernel()
    compiled = drivers.compiled(kernel)
    params = spec.make_env(**config).unwrapped._params
    state = np.zeros(kernel.STATE_SIZE, np.int64)
    units = np.zeros(kernel.MAX_SEATS)
    rng = make_rng(9)
    total = 0.0
    for _ in range(100):
        kernel.deal_random(state, params, rng)
        compiled.random_playout(state, rng)
        assert kernel.current_seat(state) == -1
        kernel.settlement(state, units)
        assert abs(units.sum()) < 1e-9
        total += units[0]
    assert compiled.play_random_hands(params, 100, 9) == total


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
def test_playout_values_are_copy_apply_playout_settle(game, config):
    kernel = game_spec(game).kernel()
    random_playout = drivers.compiled(kernel).random_playout
    for index, (env, _) in enumerate(_positions(game, config, hands=1, seed=2)):
        if index % 5:
            continue
        legal = env.legal_actions()
        values = env.playout_values(legal, 3, seed=index)
        rng = make_rng(index)
        expected = np.zeros((len(legal), env.num_seats))
        units = np.zeros(kernel.MAX_SEATS)
        state = env.kernel_state()
        for i, action in enumerate(legal):
            for _ in range(3):
                work = state.copy()
                kernel.apply_action(work, action)
                random_playout(work, rng)
                kernel.settlement(work, units)
                expected[i] += units[: env.num_seats]
        assert np.array_equal(values, expected)
        assert np.array_equal(env.playout_values([env.action_to_string(a) for a in legal], 3, seed=index), values)


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
def test_resampled_worlds_look_the_same_to_the_seat(game, config):
    """A world redealt for a seat is consistent with all it knows: its information state (perfect recall
    of everything it saw) is the same as at the real table, and the same seed gives the same world."""
    spec = game_spec(game)
    kernel = spec.kernel()
    resample = drivers.compiled(kernel).resample_hidden
    sizes = [spec.make_env(**config, observation_type=kind).unwrapped.obs_size
             for kind in ("observation", "information_state")]
    for index, (env, seat) in enumerate(_positions(game, config, hands=2, seed=3)):
        if index % 3:
            continue
        state = env.kernel_state()
        world, again = np.empty_like(state), np.empty_like(state)
        assert resample(state, seat, make_rng(index), world)
        assert resample(state, seat, make_rng(index), again)
        assert np.array_equal(world, again)
        for observation_type, size in enumerate(sizes):
            real, seen = np.empty(size, np.float32), np.empty(size, np.float32)
            kernel.observe(state, seat, observation_type, real)
            kernel.observe(world, seat, observation_type, seen)
            assert np.array_equal(real, seen), (index, observation_type)


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
def test_heuristic_playouts_play_legal_hands_to_the_end(game, config):
    spec = game_spec(game)
    kernel = spec.kernel()
    policy_playout = drivers.compiled_search(kernel, spec.policy()).policy_playout
    for index, (env, _) in enumerate(_positions(game, config, hands=2, seed=4)):
        if index % 4:
            continue
        state = env.kernel_state()
        policy_playout(state, make_rng(index), 0.3)
        assert kernel.current_seat(state) == -1
        units = np.zeros(kernel.MAX_SEATS)
        kernel.settlement(state, units)
        assert abs(units.sum()) < 1e-9
