"""The compiled determinized search (``agents.search.outcomes``) and the Knüffeln search agent's
turning and answering (``agents.search.knuffeln``).

- ``search_outcomes`` is exactly "redeal the hidden cards with ``resample_hidden``, apply the action, play
  the heuristic playout, read the seat's settlement", sample after sample, in every game and variant;
- from a real table it never meets an inconsistent world (no NaN);
- the Knüffeln agent turns only when the rules let it and its search says its side is winning, never
  while a Jann is still possible for its side; it answers by the likelihood-weighted comparison.
"""

from __future__ import annotations

import numpy as np
import pytest

from agents import make
from agents.search.knuffeln import KnuffelnPIMCAgent
from agents.search.outcomes import HEURISTIC_PLAYOUTS, RANDOM_PLAYOUTS, search_function
from agents.search.pimc_random import nan_mean
from knuffeln_env.knuffeln import kernel as K
from tests.tables import random_play_positions
from trick_core import drivers
from trick_core.bits import make_rng
from trick_core.registry import VARIANTS, game_spec, kernel_module, make_env, variant_id

VARIANT_IDS = [variant_id(game, config) for game, config in VARIANTS]


def _heuristic_playout(game: str):
    spec = game_spec(game)
    return drivers.compiled_search(spec.kernel(), spec.policy()).policy_playout


def _tables(game: str, config: dict, count: int, seed: int):
    """Tables reached by random play at moments with more than one legal action."""
    rng = np.random.default_rng(seed)

    def pick(env, legal):
        return env.unwrapped.clone() if len(legal) > 1 and rng.random() < 0.2 else None

    return random_play_positions(make_env(game, **config), seed * 1000, rng, count, pick)[:count]


@pytest.mark.parametrize("policy", [HEURISTIC_PLAYOUTS, RANDOM_PLAYOUTS], ids=["heuristic", "random"])
@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
def test_search_outcomes_is_resample_then_playout(game, config, policy):
    kernel = kernel_module(game)
    if policy == HEURISTIC_PLAYOUTS:
        heuristic = _heuristic_playout(game)

        def playout(state, rng):
            heuristic(state, rng, 0.0)  # epsilon 0: the heuristic draws nothing from the rng
    else:
        random_playout = drivers.compiled(kernel).random_playout

        def playout(state, rng):
            random_playout(state, rng)
    for index, table in enumerate(_tables(game, config, count=6, seed=5)):
        state = table.kernel_state()
        seat = table.possible_agents.index(table.agent_selection)
        actions = np.array(table.legal_actions(), dtype=np.int64)
        samples, playouts = 3, 2
        out = np.empty((samples, actions.size, playouts))
        search_function(game, policy)(state, seat, actions, samples, playouts, make_rng(index), 0.0, out)
        assert not np.isnan(out).any()
        # the same loop by hand
        rng = make_rng(index)
        sampled = np.empty_like(state)
        units = np.zeros(table.num_seats)
        for sample in range(samples):
            assert drivers.compiled(kernel).resample_hidden(state, seat, rng, sampled)
            for i, action in enumerate(actions):
                for p in range(playouts):
                    work = sampled.copy()
                    kernel.apply_action(work, action)
                    playout(work, rng)
                    units[:] = 0.0
                    kernel.settlement(work, units)
                    assert out[sample, i, p] == units[seat], (game, config, index, sample, i, p)


@pytest.mark.parametrize("name", ["pimc", "pimc_random"])
@pytest.mark.parametrize("game", ["bavarian", "palatinate", "asserufen", "knuffeln"])
def test_search_is_reproducible_and_consistent(game, name):
    for table in _tables(game, {}, count=4, seed=9):
        agent_name = table.agent_selection
        first = make(name, game, samples=8, playouts_per_sample=2, seed=3)
        second = make(name, game, samples=8, playouts_per_sample=2, seed=3)
        legal = np.array(table.legal_actions())
        values = first.action_values(table, agent_name, legal)
        np.testing.assert_array_equal(values, second.action_values(table, agent_name, legal))
        assert np.isfinite(values).all()
        assert first.stats()["inconsistent_worlds"] == 0


def test_nan_mean_skips_missing_worlds():
    outcomes = np.array([[1.0, np.nan, np.nan], [3.0, 4.0, np.nan]])
    np.testing.assert_array_equal(nan_mean(outcomes), [2.0, 4.0, -np.inf])


# ------------------------------------------------------------------ Knüffeln: turning and answering


def _table(**kwargs):
    """A decoded-table stand-in with the fields ``_turns`` reads."""
    from types import SimpleNamespace

    return SimpleNamespace(**{"march_mine": False, "tricks_theirs": 1, **kwargs})


def test_turn_decision_follows_the_threshold_and_the_jann_rule():
    agent = KnuffelnPIMCAgent(turn_threshold=0.6)
    winning = np.array([2.0, 2.0, -2.0, 2.0, np.nan])  # 3 of 4 valid playouts won: 0.75
    losing = np.array([2.0, -2.0, -2.0, 2.0])  # 0.5
    assert agent._turns(_table(), winning)
    assert not agent._turns(_table(), losing)
    assert not agent._turns(_table(tricks_theirs=0), winning)  # a Jann is still possible for my side
    assert not agent._turns(_table(march_mine=True), winning)
    assert not agent._turns(_table(), np.array([np.nan, np.nan]))


def test_answer_weighs_the_turners_winning_worlds_more():
    candidates = np.array([K.ACTION_ACCEPT, K.ACTION_FLEE])
    # accept: half the playouts won (+4), half lost (-4); flee: -2 for certain
    outcomes = np.array([[4.0, -2.0], [-4.0, -2.0], [4.0, -2.0], [-4.0, -2.0]])
    naive = KnuffelnPIMCAgent(turn_likelihood=1.0)
    assert naive._answer(candidates, outcomes) == K.ACTION_ACCEPT  # mean 0 > -2
    # a turner is assumed 4x likelier to turn when it wins: accept is worth (0.25*4 - 4)/1.25 = -2.4 < -2
    wary = KnuffelnPIMCAgent(turn_likelihood=0.25)
    assert wary._answer(candidates, outcomes) == K.ACTION_FLEE
    # turn_likelihood 0 and every world won after accepting: no weight left, the plain mean decides
    certain = np.array([[4.0, -2.0], [4.0, -2.0]])
    assert KnuffelnPIMCAgent(turn_likelihood=0.0)._answer(candidates, certain) == K.ACTION_ACCEPT


def test_options_are_checked():
    with pytest.raises(ValueError, match="turn_threshold"):
        KnuffelnPIMCAgent(turn_threshold=1.5)
    with pytest.raises(ValueError, match="turn_likelihood"):
        KnuffelnPIMCAgent(turn_likelihood=-0.1)
    with pytest.raises(ValueError, match="knuffeln"):
        KnuffelnPIMCAgent("bavarian")
    assert isinstance(make("pimc", "knuffeln"), KnuffelnPIMCAgent)


def _play(config: dict, hands: int, seed: int):
    """Hands of pimc (seats 0, 2) against rules (seats 1, 3); yields (record, pimc agent)."""
    env = make_env("knuffeln", **config)
    pimc = make("pimc", "knuffeln", samples=24, seed=seed)
    rules = make("rules", "knuffeln")
    for hand in range(hands):
        env.reset(seed=seed * 1000 + hand)
        for name in env.agent_iter():
            _, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            player = pimc if name in ("player_0", "player_2") else rules
            action = player.act(env, name)
            assert env.observe(name)["action_mask"][action] == 1
            env.step(action)
        yield env.unwrapped.game_record(), pimc


def test_pimc_turns_and_answers_in_real_hands():
    turns = answers = 0
    for record, pimc in _play({}, hands=40, seed=2):
        tricks = {0: 0, 1: 0}  # tricks won by each team so far, replayed from the record
        table = make_env("knuffeln")
        table.reset(options=record["deal"])
        for actor, action in record["actions"]:
            seat = int(actor[-1])
            if action.startswith("turn:") and seat % 2 == 0:
                turns += 1
                assert tricks[1] > 0, "pimc turned while a Jann was still possible for its team"
            if action in ("accept", "flee") and seat % 2 == 0:
                answers += 1
            table.step(table.unwrapped.string_to_action(action))
            won = table.unwrapped.state()["tricks_won"]
            tricks = {0: won[0], 1: won[1]}
        assert pimc.stats()["inconsistent_worlds"] == 0
    assert turns > 0 and answers > 0


def test_pimc_stays_silent_when_talk_is_on():
    """At every talk turn of its seats (0 and 2) pimc says ``silent``; the rule players at seats 1 and 3 do
    talk, so the hands have talk turns and the words looked for are the ones a talker uses."""
    for record, _ in _play({"talk": "lexicon"}, hands=3, seed=4):
        by_team = {0: [], 1: []}
        for actor, action in record["actions"]:
            by_team[int(actor[-1]) % 2].append(action)
        assert [a for a in by_team[0] if a.startswith(("say:", "show:"))] == []
        assert "silent" in by_team[0]
        assert any(a.startswith(("say:", "show:")) for a in by_team[1])
