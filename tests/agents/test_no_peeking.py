"""No peeking: two tables that differ only in cards a seat cannot see get the same decision from the same
seeded agent (the agent's view is ``observe`` plus ``resample_from_infostate`` and ``sampled_kernel_state``,
nothing else)."""

import numpy as np
import pytest

from agents import make
from agents.neural import neural_available
from tests.tables import random_play_positions
from trick_core.registry import VARIANTS, make_env, variant_id

VARIANT_IDS = [variant_id(game, config) for game, config in VARIANTS]

AGENTS = [
    ("random", {}),
    ("pimc", {"samples": 3, "playouts_per_sample": 4}),
    ("nested_pimc", {"samples": 2, "playouts_per_sample": 3, "worlds": 2, "inner_playouts": 2}),
    ("agents.examples.outside_greedy:make_agent", {"samples": 2}),
    ("rules", {}),
    ("pimc_neural", {"samples": 3}),
    ("ismcts", {"iterations": 40}),
    ("pimc_dd", {"worlds": 3, "bid_worlds": 3}),
    ("pimc_dd", {"worlds": 3, "bid_worlds": 3, "inference": "heuristic", "fallback": False}),
    ("pimc_dd", {"worlds": 3, "bid_worlds": 3, "inference": "neural", "fallback": False}),
]


def decision_points(game, config, count, seed):
    """Tables at random moments with a real choice, each with a twin whose hidden cards differ."""
    rng = np.random.default_rng(seed)

    def table_and_twin(env, legal):
        if len(legal) > 1 and rng.random() < 0.15:
            twin = hidden_twin(env, game, config, int(rng.integers(2**31)))
            if twin is not None:
                return env.unwrapped.clone(), twin
        return None

    env = make_env(game, observation_type="information_state", **config)
    return random_play_positions(env, seed * 100, rng, count, table_and_twin, one_per_hand=True)


def hidden_twin(env, game, config, seed):
    """A table dealt differently in what the acting seat cannot see, with the same history as far as that
    seat can tell (hidden actions such as a face-down lead or a discard are the resampled world's): a fresh
    table replaying a sampled world's record, or the sampled world itself where its record does not
    replay (an env bug that ``test_a_resampled_worlds_record_replays`` reports); None when the seat already
    knows every card."""
    agent = env.agent_selection
    for attempt in range(5):
        world = env.unwrapped.resample_from_infostate(agent, seed + attempt)
        twin = replayed(world.game_record(), game, config) or world
        if twin.unwrapped.state()["hands"] != env.unwrapped.state()["hands"]:
            return twin
    return None


def replayed(record, game, config):
    """A fresh table that played ``record``'s actions from its deal, or None if they are not legal there."""
    table = make_env(game, observation_type="information_state", **config)
    table.reset(options=record["deal"])
    for actor, action_string in record["actions"]:
        action = table.unwrapped.string_to_action(action_string)
        if table.agent_selection != actor or action not in table.unwrapped.legal_actions():
            return None
        table.step(action)
    return table


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
def test_resampled_worlds_offer_the_acting_seat_the_same_choices(game, config):
    """The search agents score the seat's legal actions in sampled worlds: each world must allow exactly
    those actions and show the seat exactly its own observation."""
    rng = np.random.default_rng(31)
    env = make_env(game, observation_type="information_state", **config)
    for hand in range(40):
        env.reset(seed=3100 + hand)
        while not env.terminations[env.agent_selection]:
            agent, legal = env.agent_selection, env.unwrapped.legal_actions()
            world = env.unwrapped.resample_from_infostate(agent, int(rng.integers(2**31)))
            assert world.legal_actions() == legal, f"hand {hand}: {env.unwrapped.game_record()['actions']}"
            np.testing.assert_array_equal(world.observe(agent)["observation"], env.observe(agent)["observation"])
            env.step(int(rng.choice(legal)))


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
def test_a_resampled_worlds_record_replays(game, config):
    """A sampled world is a table in its own right: its record (deal and actions) must replay on a fresh
    table. A record that kept the real history would name hidden cards (a face-down lead, a discard, a
    card shown to a partner) that the sampled deal does not hold — and let an agent peek through it."""
    rng = np.random.default_rng(41)
    env = make_env(game, **config)
    for hand in range(25):
        env.reset(seed=4100 + hand)
        while not env.terminations[env.agent_selection]:
            agent = env.agent_selection
            record = env.unwrapped.resample_from_infostate(agent, int(rng.integers(2**31))).game_record()
            assert replayed(record, game, config) is not None, f"{agent} after {record['actions']}"
            env.step(int(rng.choice(env.unwrapped.legal_actions())))


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
def test_twin_tables_look_the_same_to_the_acting_seat(game, config):
    for table, twin in decision_points(game, config, count=10, seed=21):
        agent = table.agent_selection
        assert twin.agent_selection == agent
        seen, seen_twin = table.observe(agent), twin.observe(agent)
        np.testing.assert_array_equal(seen["action_mask"], seen_twin["action_mask"])
        np.testing.assert_array_equal(seen["observation"], seen_twin["observation"])


@pytest.mark.parametrize(("name", "kwargs"), AGENTS,
                         ids=[name.split(":")[-1] + "".join(f"-{v}" for k, v in kwargs.items() if k == "inference")
                              for name, kwargs in AGENTS])
@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
def test_agent_decides_the_same_on_twin_tables(game, config, name, kwargs):
    if (name == "pimc_neural" or kwargs.get("inference") == "neural") and (config or not neural_available(game)):
        pytest.skip(f"{name} {kwargs.get('inference', '')} reads a network: the configurations with a shipped one")
    for index, (table, twin) in enumerate(decision_points(game, config, count=8, seed=22)):
        agent = table.agent_selection
        first = make(name, game, seed=index, **kwargs)
        second = make(name, game, seed=index, **kwargs)
        if name in ("pimc", "pimc_neural", "ismcts", "pimc_dd"):
            np.testing.assert_array_equal(first.action_values(table, agent), second.action_values(twin, agent))
        assert first.act(table, agent) == second.act(twin, agent)


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
def test_sampled_kernel_state_is_the_same_on_twin_tables(game, config):
    """The search agents' world (``sampled_kernel_state``): two tables that differ only in cards the acting
    seat cannot see give the same array for the same seed or generator, and it is the kernel state of
    ``resample_from_infostate``'s world, drawn from the generator alike (so the agents' choices are those
    they made on that world)."""
    redealt = 0
    for index, (table, twin) in enumerate(decision_points(game, config, count=8, seed=23)):
        agent = table.agent_selection
        state = table.unwrapped.sampled_kernel_state(agent, index)
        np.testing.assert_array_equal(state, twin.unwrapped.sampled_kernel_state(agent, index))
        np.testing.assert_array_equal(state, table.unwrapped.resample_from_infostate(agent, index).kernel_state())
        generators = [np.random.default_rng(index) for _ in range(3)]
        from_table = table.unwrapped.sampled_kernel_state(agent, generators[0])
        np.testing.assert_array_equal(from_table, twin.unwrapped.sampled_kernel_state(agent, generators[1]))
        world = table.unwrapped.resample_from_infostate(agent, generators[2])
        np.testing.assert_array_equal(from_table, world.kernel_state())
        assert len({int(g.integers(2**62)) for g in generators}) == 1, "the three generators were drawn unlike"
        redealt += not np.array_equal(state, table.unwrapped.kernel_state())
    assert redealt > 0, "every sampled state was the real table's: the comparison above proves nothing"


def test_pimc_values_do_depend_on_what_the_seat_knows():
    """The twin test above could pass vacuously if pimc ignored the table; its values must change with
    the seat's own cards."""
    game = "bavarian"
    env = make_env(game)
    agent_values = []
    for seed in range(3):
        env.reset(seed=seed)
        agent = env.agent_selection
        agent_values.append(make("pimc", game, seed=0, samples=3, playouts_per_sample=20).action_values(env, agent))
    assert not all(np.array_equal(agent_values[0], v) for v in agent_values[1:])
