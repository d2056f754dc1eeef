"""``agents.make``: built-in names, bracket arguments, outside agents, the rules registry, bad input."""

import dataclasses
import sys

import numpy as np
import pytest

from agents import check_option_agents, make, parse_agent_spec
from agents.config import parse_config
from trick_core import registry
from trick_core.registry import GAME_NAMES as GAMES
from trick_core.registry import make_env


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("name", ["random", "pimc", "agents.examples.outside_greedy:make_agent"])
def test_make_returns_an_agent_with_name_and_act(game, name):
    agent = make(name, game)
    assert isinstance(agent.name, str) and agent.name
    assert callable(agent.act)


def test_bracket_arguments_reach_the_agent():
    assert parse_agent_spec("pimc[samples=3, playouts_per_sample=7]") == (
        "pimc", {"samples": 3, "playouts_per_sample": 7}
    )
    agent = make("pimc[samples=3,playouts_per_sample=7]", "bavarian", seed=1)
    assert (agent.samples, agent.playouts_per_sample) == (3, 7)
    assert make("pimc[samples=3]", "bavarian", samples=5).samples == 5  # keyword arguments win


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("alphazero", "unknown agent"),
        ("", "non-empty"),
        ("pimc[samples=3", "brackets"),
        ("pimc[3]", "key=value"),
        ("no_such_module_xyz:make", "cannot import"),
        ("agents.examples.outside_greedy:nothing", "no attribute"),
        ("agents.examples.outside_greedy:CAUTIOUS_ACTIONS", "not callable"),
    ],
)
def test_bad_agent_names_raise_value_error(name, message):
    with pytest.raises(ValueError, match=message):
        make(name, "bavarian")


def test_bad_game_and_bad_arguments_raise_value_error():
    with pytest.raises(ValueError, match="unknown game"):
        make("random", "skat")
    with pytest.raises(ValueError, match="samples"):
        make("pimc", "bavarian", samples=0)
    with pytest.raises(ValueError, match="playouts_per_sample"):
        make("pimc", "bavarian", playouts_per_sample=2.5)
    with pytest.raises(ValueError, match=r"agent 'random': got an unexpected keyword argument 'temperature'; "
                                         r"its arguments: seed"):
        make("random", "bavarian", temperature=1.0)


@pytest.mark.parametrize(("name", "message"), [
    ("pimc[nosuch=1]", r"agent 'pimc\[nosuch=1\]': got an unexpected keyword argument 'nosuch'; its arguments: "
                       r"samples, playouts_per_sample, .*seed"),
    ("neural[x=1]", "its arguments: path, head, seed"),
    ("rules[x=1]", "unknown option 'x'"),
    ("random[seed=abc]", r"seed must be a non-negative integer \(or None\), got 'abc'"),
    ("random[seed=-1]", "seed must be a non-negative integer"),
    ("pimc[samples=2][x=1]", "one pair of brackets"),
    ("tests.agents.test_make:failing_factory", r"failing_factory\('bavarian', \*\*\{\}\) raised RuntimeError: broken"),
])
def test_bad_agent_arguments_name_the_agent_and_what_it_takes(name, message):
    with pytest.raises(ValueError, match=message):
        make(name, "bavarian")


def failing_factory(game, **kwargs):
    raise RuntimeError("broken")


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_its_rules_agent(game):
    agent = make("rules", game, seed=0)
    assert agent.name == "rules" and callable(agent.act)


def test_a_new_registry_record_brings_its_rules_agent(monkeypatch, tmp_path):
    """Adding a game is one registry record: ``make("rules", game)`` finds the agent it names."""
    (tmp_path / "fake_rules.py").write_text(
        "from agents.random_agent import RandomAgent\n\nclass FakeRules(RandomAgent):\n    name = 'rules'\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "fake_rules", raising=False)
    fake = dataclasses.replace(registry.GAMES["bavarian"], name="fake", rules_agent="fake_rules:FakeRules")
    monkeypatch.setitem(registry.GAMES, "fake", fake)
    assert type(make("rules", "fake")).__name__ == "FakeRules"


def test_pimc_does_not_search_a_forced_move():
    env = make_env("bavarian")
    agent = make("pimc", "bavarian", samples=2, playouts_per_sample=2, seed=0)
    env.reset(seed=5)
    while len(env.unwrapped.legal_actions()) > 1:
        env.step(make("random", "bavarian", seed=1).act(env, env.agent_selection))
    assert not env.terminations[env.agent_selection], "the hand ended before a forced move"
    assert agent.act(env, env.agent_selection) == env.unwrapped.legal_actions()[0]
    assert agent.searches == 0


def test_parse_config_converts_values():
    assert parse_config(["players=4", "talk=lexicon", "x=1.5", "flag=true", "none=None"]) == {
        "players": 4, "talk": "lexicon", "x": 1.5, "flag": True, "none": None
    }
    with pytest.raises(ValueError, match="key=value"):
        parse_config(["players"])


def test_neural_plays_only_the_configuration_it_was_trained_on():
    agent = make("neural", "knuffeln")
    env = make_env("knuffeln", variant="hattstedt")
    env.reset(seed=1)
    with pytest.raises(ValueError, match="was trained on knuffeln with config"):
        agent.act(env, env.agent_selection)
    trained = make_env("knuffeln", **agent.config)
    trained.reset(seed=1)
    assert agent.act(trained, trained.agent_selection) in np.flatnonzero(
        trained.observe(trained.agent_selection)["action_mask"])


def test_check_option_agents_names_the_option_of_a_bad_agent():
    """A command with several agent options (a run's --opponents, --eval-opponent, --eval-also) says which
    one holds the bad name; a bad game is named on its own, not blamed on the option."""
    check_option_agents("eval_also", ["random", "rules"], "bavarian")
    with pytest.raises(ValueError, match=r"^--eval-also: unknown agent 'nobody'; choose from \["):
        check_option_agents("eval_also", ["random", "nobody"], "bavarian")
    with pytest.raises(ValueError, match=r"^--opponents: agent 'pimc\[bogus=1\]': got an unexpected keyword"):
        check_option_agents("opponents", ["pimc[bogus=1]"], "bavarian")
    with pytest.raises(ValueError, match=r"^unknown game 'chess'"):
        check_option_agents("opponents", ["random"], "chess")
