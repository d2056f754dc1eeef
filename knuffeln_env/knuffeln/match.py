"""Ladder scoring (match play, ``match=True``): the rule that turns the results of hands into a match, in
compiled code, used by the env (``knuffeln_v0``) and the batch env alike; ``reference`` writes it again in
plain Python, and the tests compare the two.

Rules: ``docs/rules/knuffeln.md#94-ladder-scoring-match-play``. Each team has four rungs. A plain win wipes
one of the winners' rungs, a Jann two, each accepted turn one more; a march and a failed march wipe all
(decision K20); a fled turn counts as the turner's plain win (K20); a team never wipes more rungs than it
has left. The first team to wipe all its rungs wins the match: +1 to each winner and -1 to each loser
(Knüppel), or ±2 when the winners wiped all four rungs in one hand (Brille, K21). The deal passes to the
left from hand to hand (K22).

A **ladder** is an ``int64`` array of ``LADDER_SIZE``: team 0's rungs left, team 1's rungs left, hands
played. The observation of a seat in a match ends with ``MATCH_FEATURES`` entries: its team's rungs left,
the other team's, hands played.
"""

from __future__ import annotations

import numpy as np

from trick_core.jit import inline_njit, njit

from .layout import S_ACCEPTED, S_DEALER, S_PLAYERS, S_RESULT_KIND, S_WINNER_TEAM
from .tables import RESULT_FAILED_MARCH, RESULT_JANN, RESULT_MARCH

LADDER_RUNGS = 4
TEAM_0_RUNGS, TEAM_1_RUNGS, HANDS_PLAYED = range(3)
"""Entries of a ladder array."""
LADDER_SIZE = 3
MATCH_FEATURES = 3
"""Entries the match appends to each observation: rungs left mine, theirs, hands played."""
KNUEPPEL_POINTS = 1.0
BRILLE_POINTS = 2.0


def new_ladder() -> np.ndarray:
    """The ladder of a match about to begin."""
    ladder = np.zeros(LADDER_SIZE, dtype=np.int64)
    reset_ladder(ladder)
    return ladder


@inline_njit
def reset_ladder(ladder):
    ladder[TEAM_0_RUNGS] = LADDER_RUNGS
    ladder[TEAM_1_RUNGS] = LADDER_RUNGS
    ladder[HANDS_PLAYED] = 0


@inline_njit
def rungs_to_wipe(kind, accepted_turns):
    """Rungs a hand's winners wipe (before the floor of the rungs they have left)."""
    if kind == RESULT_MARCH or kind == RESULT_FAILED_MARCH:
        return LADDER_RUNGS
    return (2 if kind == RESULT_JANN else 1) + accepted_turns


@njit
def score_hand_on_ladder(state, ladder):
    """Wipe the winners' rungs for the hand over in ``state`` and count it; return the match points of
    the winners if that ended the match (``BRILLE_POINTS`` when they wiped all four rungs in this hand,
    else ``KNUEPPEL_POINTS``), or 0 when the match goes on."""
    winners = state[S_WINNER_TEAM]
    before = ladder[winners]
    ladder[winners] = max(0, before - rungs_to_wipe(state[S_RESULT_KIND], state[S_ACCEPTED]))
    ladder[HANDS_PLAYED] += 1
    if ladder[winners] > 0:
        return 0.0
    return BRILLE_POINTS if before == LADDER_RUNGS else KNUEPPEL_POINTS


@njit
def finish_hand_of_match(state, ladder, rewards):
    """The hand in ``state`` is over: score it on the ladder (``score_hand_on_ladder``). True if that ended
    the match, with every seat's match reward in ``rewards`` (the winners' points, the losers' loss of as
    much); False if the match goes on (``rewards`` untouched), its next hand dealt by ``next_dealer``. The
    one sequencing of a match, shared by the env and the batch env (which deal the next hand each from
    its own random stream)."""
    points = score_hand_on_ladder(state, ladder)
    if points == 0.0:
        return False
    winners = state[S_WINNER_TEAM]
    for seat in range(rewards.shape[0]):
        rewards[seat] = points if seat % 2 == winners else -points
    return True


@inline_njit
def next_dealer(state):
    """The dealer of the next hand of the match: the deal passes to the left."""
    return (state[S_DEALER] + 1) % state[S_PLAYERS]


@inline_njit
def write_match_features(ladder, seat, out, offset):
    """The match features of ``seat``'s observation at ``out[offset:]`` (its team's rungs first)."""
    team = seat % 2
    out[offset] = ladder[team]
    out[offset + 1] = ladder[1 - team]
    out[offset + 2] = ladder[HANDS_PLAYED]
