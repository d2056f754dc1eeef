"""Every agent chooses only legal actions, as a plain ``int``, over many hands of every game and variant."""

import numpy as np
import pytest

from agents import make
from trick_core.registry import VARIANTS, make_env, variant_id

VARIANT_IDS = [variant_id(game, config) for game, config in VARIANTS]


def play_checked_hand(env, seat_agents, seed):
    """One hand; every action must be legal under the acting seat's own action mask."""
    env.reset(seed=seed)
    steps = 0
    while not env.terminations[env.agent_selection]:
        agent = env.agent_selection
        mask = env.observe(agent)["action_mask"].copy()
        action = seat_agents[env.possible_agents.index(agent)].act(env, agent)
        assert isinstance(action, int) and not isinstance(action, bool), f"{action!r} is not an int"
        assert mask[action] == 1, f"{agent} chose illegal {env.unwrapped.action_to_string(action)}"
        env.step(action)
        steps += 1
    assert env.unwrapped.game_record()["result"] is not None
    return steps


def play_many(game, config, agents, hands, seed):
    env = make_env(game, **config)
    rng = np.random.default_rng(seed)
    for hand in range(hands):
        seat_agents = [agents[int(i)] for i in rng.integers(len(agents), size=len(env.possible_agents))]
        for agent in agents:
            agent.reset(seed + hand)
        play_checked_hand(env, seat_agents, seed=seed * 1000 + hand)


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
def test_random_agent_plays_only_legal_actions(game, config):
    play_many(game, config, [make("random", game, seed=1)], hands=300, seed=11)


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
def test_pimc_agent_plays_only_legal_actions(game, config):
    agents = [
        make("pimc", game, samples=4, playouts_per_sample=1, seed=2),
        make("rules", game, seed=9),
        make("random", game, seed=3),
    ]
    play_many(game, config, agents, hands=100, seed=12)


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
def test_nested_pimc_agent_plays_only_legal_actions(game, config):
    nested = make("nested_pimc", game, samples=2, playouts_per_sample=2, worlds=2, inner_playouts=2, seed=7)
    play_many(game, config, [nested, make("random", game, seed=8)], hands=6, seed=15)


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
def test_ismcts_agent_plays_only_legal_actions(game, config):
    agents = [
        make("ismcts", game, iterations=12, seed=2),
        make("ismcts", game, iterations=12, others="policy", seed=4),
        make("random", game, seed=3),
    ]
    play_many(game, config, agents, hands=10, seed=16)


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
def test_outside_greedy_agent_plays_only_legal_actions(game, config):
    agents = [make("agents.examples.outside_greedy:make_agent", game, samples=2, seed=4), make("random", game)]
    play_many(game, config, agents, hands=5, seed=13)


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
def test_rules_agent_plays_only_legal_actions(game, config):
    agents = [make("rules", game, seed=5), make("random", game, seed=6)]
    play_many(game, config, agents, hands=100, seed=14)
