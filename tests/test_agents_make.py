"""``agents.make``: built-in names, bracket arguments, outside agents, the rules registry, bad input."""

import sys

import pytest

import agents
from agents import make, parse_agent_spec, rules_available
from agents.games import GAMES, make_env, parse_config


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
    with pytest.raises(TypeError):
        make("random", "bavarian", temperature=1.0)


@pytest.mark.parametrize("game", GAMES)
def test_rules_come_from_the_registry_or_fail_clearly(game):
    if rules_available(game):
        assert callable(make("rules", game).act)
    else:
        with pytest.raises(ValueError, match=f"agents.rules_{game}"):
            make("rules", game)


def test_rules_registry_finds_a_new_module(monkeypatch, tmp_path):
    (tmp_path / "rules_fake.py").write_text(
        "from agents.random_agent import RandomAgent\n\nclass RulesAgent(RandomAgent):\n    name = 'rules'\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(agents, "RULES_MODULE", "rules_{game}")
    monkeypatch.delitem(sys.modules, "rules_fake", raising=False)
    monkeypatch.setitem(agents.games.GAME_MODULES, "fake", "schafkopf_env.bavarian_v0")
    assert make("rules", "fake").name == "rules"


def test_pimc_does_not_search_a_forced_move():
    env = make_env("bavarian")
    agent = make("pimc", "bavarian", samples=2, playouts_per_sample=2, seed=0)
    env.reset(seed=5)
    while len(env.unwrapped.legal_actions()) > 1:
        env.step(make("random", "bavarian", seed=1).act(env, env.agent_selection))
    if not env.terminations[env.agent_selection]:
        assert agent.act(env, env.agent_selection) == env.unwrapped.legal_actions()[0]
        assert agent.searches == 0


def test_parse_config_converts_values():
    assert parse_config(["players=4", "talk=lexicon", "x=1.5", "flag=true", "none=None"]) == {
        "players": 4, "talk": "lexicon", "x": 1.5, "flag": True, "none": None
    }
    with pytest.raises(ValueError, match="key=value"):
        parse_config(["players"])
