"""The search agents: what they search, when they simulate, and that searching pays."""

import numpy as np
import pytest

from agents import make
from agents.arena import run_matches
from agents.search.pimc_random import action_family
from trick_core.registry import game_spec, make_env


@pytest.mark.parametrize(
    ("name", "is_card", "family"),
    [
        ("EO", True, "card"),
        ("pass", False, "pass"),
        ("solo", False, "solo"),
        ("call:E", False, "call:"),
        ("trump:H", False, "trump:"),
        ("turn:C4", False, "turn:"),
        ("discard:CA", False, "discard:"),
        ("silent", False, "talk"),
        ("say:12", False, "talk"),
        ("show:H2", False, "talk"),
        ("token:3", False, "talk"),
    ],
)
def test_action_families(name, is_card, family):
    """Talk is what the game's spec calls talk (Knüffeln's ``talk_actions``)."""
    assert action_family(name, is_card, game_spec("knuffeln").is_talk(name)) == family


def test_pimc_values_cover_every_legal_action_from_the_own_seat():
    env = make_env("bavarian")
    env.reset(seed=4)
    agent = make("pimc_random", "bavarian", samples=3, playouts_per_sample=10, seed=1)
    legal = env.unwrapped.legal_actions()
    values = agent.action_values(env, env.agent_selection)
    assert values.shape == (len(legal),) and np.all(np.isfinite(values))
    # act plays the argmax of the values a same-seeded agent computes
    fresh = make("pimc_random", "bavarian", samples=3, playouts_per_sample=10, seed=1)
    twin = make("pimc_random", "bavarian", samples=3, playouts_per_sample=10, seed=1)
    assert fresh.act(env, env.agent_selection) == legal[int(np.argmax(twin.action_values(env, env.agent_selection)))]


def test_nested_pimc_simulates_bids_but_not_card_play():
    env = make_env("bavarian")
    env.reset(seed=4)
    agent = make("nested_pimc", "bavarian", samples=2, playouts_per_sample=4, worlds=2, inner_playouts=2, seed=0)
    assert env.unwrapped.state()["phase"] == "bidding" and len(env.unwrapped.legal_actions()) > 1
    env.step(agent.act(env, env.agent_selection))
    assert agent.simulations == 1
    random_agent = make("random", "bavarian", seed=0)
    while env.unwrapped.state()["phase"] != "playing" and not env.terminations[env.agent_selection]:
        env.step(random_agent.act(env, env.agent_selection))
    while not env.terminations[env.agent_selection] and len(env.unwrapped.legal_actions()) < 2:
        env.step(random_agent.act(env, env.agent_selection))
    if not env.terminations[env.agent_selection]:
        before = agent.simulations
        agent.act(env, env.agent_selection)
        assert agent.simulations == before and agent.searches >= 1


@pytest.mark.parametrize("game", ["bavarian", "palatinate"])
def test_a_small_pimc_beats_random_in_a_duplicate_match(game):
    match = run_matches(game, ["pimc_random[samples=3,playouts_per_sample=12]", "random"], hands=4, seed=9)[0]
    summary = match.summary()
    assert summary["difference"]["first_minus_second"] > 0
    assert summary["difference"]["significant"]


def test_nested_pimc_can_simulate_card_play_too():
    env = make_env("knuffeln")
    agent = make("nested_pimc[simulate_cards=true,samples=2,playouts_per_sample=2,worlds=2,inner_playouts=2]",
                 "knuffeln", seed=0)
    random_agent = make("random", "knuffeln", seed=0)
    for seed in range(20):
        env.reset(seed=seed)
        while not env.terminations[env.agent_selection]:
            names = env.unwrapped.legal_action_strings()
            if len(names) > 1 and all(env.unwrapped.deck.is_card(n) for n in names):
                agent.act(env, env.agent_selection)
                assert agent.simulations == 1
                return
            env.step(random_agent.act(env, env.agent_selection))
    pytest.fail("no card decision with a choice in 20 hands")


def test_nested_pimc_rejects_bad_options():
    with pytest.raises(ValueError, match="worlds"):
        make("nested_pimc", "bavarian", worlds=0)
    with pytest.raises(ValueError, match="simulate_cards"):
        make("nested_pimc", "bavarian", simulate_cards="yes")
