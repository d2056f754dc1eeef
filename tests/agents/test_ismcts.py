"""The ``ismcts`` agent (``agents.search.ismcts``): its compiled tree search, its seeding, its silence at
Knüffeln's talk turns, its checks, and that searching pays against random play."""

from __future__ import annotations

import numpy as np
import pytest

from agents import make
from agents.arena import run_matches
from agents.search.ismcts import ISMCTSAgent, compiled_ismcts
from tests.agents.test_search import _tables
from trick_core.bits import make_rng
from trick_core.registry import VARIANTS, kernel_module, make_env, variant_id

VARIANT_IDS = [variant_id(game, config) for game, config in VARIANTS]


@pytest.mark.parametrize("others_by_policy", [False, True], ids=["others-search", "others-policy"])
@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
def test_every_iteration_visits_one_legal_root_action(game, config, others_by_policy):
    """Every iteration redeals consistently and ends in exactly one root child, and every root child
    is a legal action of the seat."""
    kernel = kernel_module(game)
    search = compiled_ismcts(game)
    allowed = np.ones(kernel.MAX_ACTIONS, dtype=np.int8)
    for table in _tables(game, config, count=4, seed=3):
        agent = table.agent_selection
        world = table.resample_from_infostate(agent, 5)
        visits = np.zeros(kernel.MAX_ACTIONS, dtype=np.float64)
        failures = search(world.kernel_state(), table.possible_agents.index(agent), allowed, 60, 1.0, 1.0,
                          others_by_policy, make_rng(1), 0.4, visits)
        legal = np.zeros(kernel.MAX_ACTIONS, dtype=bool)
        legal[table.legal_actions()] = True
        assert failures == 0
        assert visits.sum() == 60
        assert np.all(visits[~legal] == 0)
        assert np.count_nonzero(visits) == min(60, int(legal.sum()))  # each root action is tried first


def test_the_same_seed_gives_the_same_decisions_and_another_seed_other_visits():
    tables = _tables("asserufen", {}, count=6, seed=8)
    differs = False
    for index, table in enumerate(tables):
        agent = table.agent_selection
        first, second = (make("ismcts", "asserufen", iterations=80, seed=index) for _ in range(2))
        values = first.action_values(table, agent)
        np.testing.assert_array_equal(values, second.action_values(table, agent))
        assert first.act(table, agent) == second.act(table, agent)
        other = make("ismcts", "asserufen", iterations=80, seed=index + 100).action_values(table, agent)
        differs |= not np.array_equal(values, other)
    assert differs


def test_act_plays_the_most_visited_root_action():
    table = _tables("bavarian", {}, count=1, seed=4)[0]
    agent = table.agent_selection
    visits = make("ismcts", "bavarian", iterations=100, seed=2).action_values(table, agent)
    chosen = make("ismcts", "bavarian", iterations=100, seed=2).act(table, agent)
    assert chosen == table.legal_actions()[int(np.argmax(visits))]


@pytest.mark.parametrize("talk", ["lexicon", "tokens:4"])
def test_it_keeps_silent_at_talk_turns(talk):
    env = make_env("knuffeln", talk=talk)
    agent = make("ismcts", "knuffeln", iterations=20, seed=0)
    random_agent = make("random", "knuffeln", seed=0)
    talk_turns = 0
    for seed in range(6):
        env.reset(seed=seed)
        while not env.terminations[env.agent_selection]:
            names = env.unwrapped.legal_action_strings()
            if "silent" in names and len(names) > 1:
                before = agent.searches
                assert env.unwrapped.action_to_string(agent.act(env, env.agent_selection)) == "silent"
                assert agent.searches == before
                # searched all the same (no card play: bid_iterations), every iteration keeps silent at the root
                values = agent.action_values(env, env.agent_selection)
                assert values.sum() == agent.bid_iterations == values[names.index("silent")]
                talk_turns += 1
            env.step(random_agent.act(env, env.agent_selection))
    assert talk_turns > 0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"iterations": 0}, "iterations must be a positive integer, got 0"),
        ({"iterations": 2.5}, "iterations must be a positive integer"),
        ({"exploration": -1.0}, "exploration must be a non-negative number, got -1.0"),
        ({"exploration": "high"}, "exploration must be a non-negative number"),
        ({"epsilon": 1.5}, "epsilon must be a number in"),
        ({"widening": float("nan")}, "widening must be a non-negative number, got nan"),
        ({"others": "rules"}, r"others must be one of \['policy', 'search'\], got 'rules'"),
        ({"bid_iterations": 0}, "bid_iterations must be a positive integer, got 0"),
        ({"seed": -3}, "seed must be a non-negative integer"),
    ],
)
def test_bad_arguments_name_themselves(kwargs, message):
    with pytest.raises(ValueError, match=message):
        make("ismcts", "bavarian", **kwargs)


def test_an_unknown_argument_names_the_agent_and_its_arguments():
    with pytest.raises(ValueError, match=r"agent 'ismcts\[samples=3\]': got an unexpected keyword argument "
                                         r"'samples'; its arguments: iterations, exploration, widening, others, "
                                         r"epsilon, bid_iterations, seed"):
        make("ismcts[samples=3]", "bavarian")


def test_make_builds_it_with_the_game_defaults():
    agent = make("ismcts[iterations=50]", "knuffeln", seed=1)
    assert isinstance(agent, ISMCTSAgent) and agent.iterations == 50 and agent.epsilon == 0.1
    assert agent.bid_iterations == 200 and agent.others == "search"
    assert make("ismcts", "bavarian").epsilon == 0.4


def test_a_small_ismcts_beats_random_in_a_duplicate_match():
    match = run_matches("bavarian", ["ismcts[iterations=60]", "random"], hands=4, seed=9)[0]
    difference = match.summary()["difference"]
    assert difference["first_minus_second"] > 10 and difference["ci95"][0] > 5
    assert difference["significant"]
