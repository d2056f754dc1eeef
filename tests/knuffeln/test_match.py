"""Ladder scoring (``knuffeln_env.knuffeln.match``) against the plain-Python ``ReferenceLadder``: for every
result, winning team, number of accepted turns and ladder; and whole matches of the env, hand by hand,
against the reference hand and ladder driven with the same actions."""

from __future__ import annotations

import collections
import itertools

import numpy as np
import pytest

from knuffeln_env import knuffeln_v0
from knuffeln_env.knuffeln import kernel, match
from knuffeln_env.knuffeln.reference import ReferenceHand, ReferenceLadder

from .helpers import biased_action

RESULTS = ("plain", "jann", "march", "failed_march", "fled")


def test_ladder_rule_is_the_reference_for_every_result_and_ladder():
    state = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
    checked = 0
    for kind, winners, accepted, rungs_0, rungs_1, played in itertools.product(
        RESULTS, (0, 1), range(7), range(1, 5), range(1, 5), (0, 5)
    ):
        state[kernel.S_RESULT_KIND] = kernel.RESULT_NAMES.index(kind)
        state[kernel.S_WINNER_TEAM] = winners
        state[kernel.S_ACCEPTED] = accepted
        ladder = np.array([rungs_0, rungs_1, played], dtype=np.int64)
        points = match.score_hand_on_ladder(state, ladder)
        reference = ReferenceLadder()
        reference.rungs = {0: rungs_0, 1: rungs_1}
        reference.hands_played = played
        reference.score(kind, winners, accepted)
        assert ladder.tolist() == [reference.rungs[0], reference.rungs[1], reference.hands_played]
        expected = reference.rewards()
        assert points == (expected[winners] if reference.winner is not None else 0.0)
        checked += 1
    assert checked == 5 * 2 * 7 * 4 * 4 * 2


@pytest.mark.parametrize(("kind", "accepted", "rungs_before", "rungs_after", "points"), [
    ("plain", 0, 4, 3, 0.0),
    ("plain", 2, 4, 1, 0.0),  # each accepted turn wipes one more
    ("fled", 1, 4, 2, 0.0),  # a fled turn: the turner's plain win, with the turns accepted before it
    ("jann", 0, 4, 2, 0.0),
    ("jann", 2, 4, 0, 2.0),  # all four rungs in one hand: Brille
    ("march", 0, 4, 0, 2.0),  # pinned: a march wipes all
    ("failed_march", 0, 4, 0, 2.0),
    ("march", 0, 1, 0, 1.0),  # the last rung: Knueppel
    ("plain", 3, 2, 0, 1.0),  # never below zero
])
def test_ladder_by_hand(kind, accepted, rungs_before, rungs_after, points):
    """Hand-written cases of the ladder (docs/rules/knuffeln.md, section 9.4 and K20-K21), for the compiled
    rule and the reference alike: the winners (team 1 here) wipe rungs; the other team's stay."""
    state = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
    state[kernel.S_RESULT_KIND] = kernel.RESULT_NAMES.index(kind)
    state[kernel.S_WINNER_TEAM] = 1
    state[kernel.S_ACCEPTED] = accepted
    ladder = np.array([3, rungs_before, 5], dtype=np.int64)
    assert match.score_hand_on_ladder(state, ladder) == points
    assert ladder.tolist() == [3, rungs_after, 6]
    reference = ReferenceLadder()
    reference.rungs = {0: 3, 1: rungs_before}
    reference.score(kind, 1, accepted)
    assert reference.rungs == {0: 3, 1: rungs_after}
    assert (reference.rewards()[1] if reference.winner is not None else 0.0) == points


def test_match_features_and_next_dealer():
    ladder = np.array([3, 1, 7], dtype=np.int64)
    out = np.zeros(5, dtype=np.float32)
    for seat in range(4):
        match.write_match_features(ladder, seat, out, 2)
        mine, theirs = (3, 1) if seat % 2 == 0 else (1, 3)
        assert out.tolist() == [0, 0, mine, theirs, 7]
    assert match.new_ladder().tolist() == [4, 4, 0]
    env = knuffeln_v0.env()
    env.reset(options={"dealer": 3})
    assert match.next_dealer(env.unwrapped.kernel_state()) == 0


def _reference_hand(env) -> ReferenceHand:
    """The reference hand of the env's current deal (after any redeal)."""
    st = env.unwrapped.state()
    hands = {seat: st["dealt_hands"][agent] for seat, agent in enumerate(env.possible_agents)}
    hand = ReferenceHand(variant=st["config"]["variant"], talk=st["config"]["talk"])
    hand.start(st["dealer"], hands, st["stock_order"])
    return hand


def test_env_matches_follow_the_reference_ladder():
    """Whole matches: after every hand the env's ladder is the reference ladder fed with the reference
    hand's result, and the match ends with the reference's rewards."""
    rng = np.random.default_rng(5)
    results = collections.Counter()
    for seed, config in enumerate([{}, {"variant": "hattstedt"}, {"variant": "gruenberg1938"}] * 4):
        env = knuffeln_v0.env(match=True, **config)
        env.reset(seed=seed)
        ladder = ReferenceLadder()
        hand = _reference_hand(env)
        while True:
            agent = env.agent_selection
            assert env.agent_name_mapping[agent] == hand.current_player
            legal = env.unwrapped.legal_action_strings()
            assert legal == hand.legal_actions() or sorted(legal) == hand.legal_actions()
            action = biased_action(legal, rng)
            hand.apply(action)
            env.step(env.unwrapped.string_to_action(action))
            if not hand.over:
                continue
            kind, winners, _units = hand.result
            results[kind] += 1
            ladder.score(kind, winners, hand.accepted)
            st = env.unwrapped.state()["match"]
            assert st["rungs_left"] == [ladder.rungs[0], ladder.rungs[1]] and st["hands_played"] == ladder.hands_played
            if ladder.winner is not None:
                assert all(env.terminations.values())
                assert [env.rewards[a] for a in env.possible_agents] == ladder.rewards()
                break
            hand = _reference_hand(env)
    assert results["plain"] > 0 and results["jann"] > 0 and results["fled"] > 0
