"""``pimc_neural``: the PIMC search with a shipped network playing the playouts (no peeking is checked
with the other agents in ``test_no_peeking``)."""

import numpy as np
import pytest

from agents import make
from agents.neural import neural_available
from tests.tables import random_play_positions
from trick_core.registry import make_env

GAMES = [game for game in ("bavarian", "knuffeln") if neural_available(game)]


@pytest.mark.parametrize("game", GAMES)
def test_pimc_neural_plays_whole_hands_legally(game):
    env = make_env(game)
    agents = {name: make("pimc_neural", game, seed=i, samples=2) for i, name in enumerate(env.possible_agents)}
    for hand in range(2):
        env.reset(seed=70 + hand)
        for name in env.agent_iter():
            _, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            action = agents[name].act(env, name)
            assert action in env.unwrapped.legal_actions()
            env.step(action)
    searched = sum(agent.stats()["searches"] for agent in agents.values())
    assert searched > 0
    assert all(agent.stats()["inconsistent_worlds"] == 0 for agent in agents.values())


def choice_positions(game, count, seed):
    """Tables where the seat to act has more than one legal action, reached by random play."""
    rng = np.random.default_rng(seed)

    def pick(env, legal):
        return env.unwrapped.clone() if len(legal) > 1 and rng.random() < 0.2 else None

    return random_play_positions(make_env(game), seed, rng, count, pick, one_per_hand=True)


@pytest.mark.parametrize("game", GAMES)
def test_pimc_neural_is_deterministic_for_a_seed(game):
    tables = choice_positions(game, 4, seed=90)
    differs = False
    for index, table in enumerate(tables):
        agent = table.agent_selection
        first = make("pimc_neural", game, seed=index, samples=4).action_values(table, agent)
        second = make("pimc_neural", game, seed=index, samples=4).action_values(table, agent)
        np.testing.assert_array_equal(first, second)
        assert np.isfinite(first).all() and first.size == len(table.legal_actions())
        other = make("pimc_neural", game, seed=index + 100, samples=4).action_values(table, agent)
        differs |= not np.array_equal(first, other)
    assert differs, "another seed samples other worlds, so some values must change"


def test_pimc_neural_rejects_a_table_it_was_not_trained_on():
    if "knuffeln" not in GAMES:
        pytest.skip("no checkpoint shipped for knuffeln")
    agent = make("pimc_neural", "knuffeln", samples=2)
    env = make_env("knuffeln", talk="lexicon")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="trained on knuffeln"):
        agent.act(env, env.agent_selection)
    with pytest.raises(ValueError, match="samples"):
        make("pimc_neural", "knuffeln", samples=0)
    with pytest.raises(ValueError, match="search must be one of"):
        make("pimc_neural", "knuffeln", search="bids")


@pytest.mark.parametrize("game", GAMES)
def test_search_cards_leaves_decisions_without_a_card_play_to_the_network(game):
    neural = make("neural", game)
    agent = make("pimc_neural", game, samples=2, search="cards")
    env = make_env(game)
    left_to_network = searched = 0
    for seed in range(6):
        env.reset(seed=seed)
        while not env.terminations[env.agent_selection] and not (left_to_network and searched > 2):
            seat = env.agent_selection
            names = env.unwrapped.legal_action_strings()
            with_card = any(env.unwrapped.deck.is_card(name) or name.startswith("turn:") for name in names)
            searches = agent.searches
            action = agent.act(env, seat)
            if len(names) > 1 and not with_card:
                assert action == neural.act(env, seat) and agent.searches == searches
                left_to_network += 1
            elif len(names) > 1:
                assert agent.searches == searches + 1
                searched += 1
            env.step(action)
    assert left_to_network > 0 and searched > 0


@pytest.mark.parametrize("game", GAMES)
def test_candidates_limit_the_search_to_the_networks_best_actions(game):
    """``candidates=1`` is the network itself (no search); ``candidates=k`` plays one of the network's k
    best legal actions, searching only where the position has more than k."""
    neural = make("neural", game)
    only_best = make("pimc_neural", game, samples=2, candidates=1)
    top_two = make("pimc_neural", game, samples=2, candidates=2)
    compared = 0
    for table in choice_positions(game, 6, seed=91):
        seat = table.agent_selection
        legal = np.asarray(table.legal_actions())
        assert only_best.act(table, seat) == neural.act(table, seat)
        scores = top_two._network_scores(table, seat)[legal]
        best_two = set(legal[np.argsort(-scores, kind="stable")[:2]].tolist())
        assert top_two.act(table, seat) in best_two
        compared += 1
    assert compared == 6 and only_best.searches == 0
    with pytest.raises(ValueError, match="candidates"):
        make("pimc_neural", game, candidates=-1)


def test_the_game_spec_gives_the_defaults_and_arguments_override_them():
    if "knuffeln" not in GAMES:
        pytest.skip("no checkpoint shipped for knuffeln")
    from trick_core.registry import game_spec

    defaults = game_spec("knuffeln").agent_options("pimc_neural")
    agent = make("pimc_neural", "knuffeln")
    assert defaults and all(getattr(agent, key) == value for key, value in defaults.items())
    assert make("pimc_neural", "knuffeln", candidates=0).candidates == 0
