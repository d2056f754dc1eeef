"""Drehen und Sehen: leading a card face down, and the opponent's answer (accept: the stake rises by one
and the card is played; flee: the hand ends, the fleeing team pays).

Rules: ``docs/rules/knuffeln.md#6-drehen-und-sehen-turning``; Hattstedt has no drehen, Bernhard 1924
limits it (decision K17); a face-down card stays hidden from all but its turner until accepted (K8); a
committed team may still turn, and the opponents' flight then makes the march fail (pinned).
"""

from __future__ import annotations

from trick_core.jit import inline_njit

from .layout import (
    S_ACCEPTED,
    S_ACCEPTED_BY,
    S_COMMITTED,
    S_DECIDER,
    S_FACE_DOWN_CARD,
    S_NEXT,
    S_PHASE,
    S_PLAYED,
    S_RESULT_BY_FLEE,
    S_SEAT_TO_ACT,
    S_TEAM,
    S_TEAM_TRICKS,
    S_TRICK_FACE_DOWN,
    S_TRICK_LOG,
    S_TRICK_NUMBER,
    S_TURNER,
    S_VARIANT,
    TRICK_LOG_WIDTH,
)
from .scoring import end_hand, march_value, stake
from .state import card_bit, next_opponent
from .tables import DREHEN_ANY_LEAD, DREHEN_NONE, DREHEN_OF_VARIANT, PHASE_ANSWER, RESULT_FAILED_MARCH, RESULT_FLED
from .talk import begin_card_turn


@inline_njit
def may_turn(state, seat):
    """Whether ``seat``, leading, may lead face down."""
    rule = DREHEN_OF_VARIANT[state[S_VARIANT]]
    if rule == DREHEN_NONE:
        return False
    if rule == DREHEN_ANY_LEAD:
        return True
    team = state[S_TEAM + seat]  # Bernhard: the k-th turn of a team needs 2k tricks won
    return state[S_TEAM_TRICKS + team] >= 2 * (state[S_ACCEPTED_BY + team] + 1)


@inline_njit
def lay_face_down(state, seat, card):
    """The lead lies face down: the next opponent in playing order answers."""
    state[S_TRICK_FACE_DOWN] = 1
    state[S_FACE_DOWN_CARD] = card
    state[S_TURNER] = seat
    decider = next_opponent(state, seat)
    state[S_DECIDER] = decider
    state[S_PHASE] = PHASE_ANSWER
    state[S_SEAT_TO_ACT] = decider


@inline_njit
def accept(state):
    """The face-down card is turned up and played; the stake rises; the next seat follows."""
    turner = state[S_TURNER]
    card = state[S_FACE_DOWN_CARD]
    state[S_TRICK_FACE_DOWN] = 0
    state[S_FACE_DOWN_CARD] = -1
    state[S_PLAYED + turner] |= card_bit(card)
    state[S_ACCEPTED] += 1
    state[S_ACCEPTED_BY + state[S_TEAM + turner]] += 1
    state[S_TRICK_LOG + state[S_TRICK_NUMBER] * TRICK_LOG_WIDTH + 2] = 1
    begin_card_turn(state, state[S_NEXT + turner])


@inline_njit
def flee(state):
    """The hand ends; the face-down card stays hidden. Fleeing a committed march makes it fail."""
    turner_team = state[S_TEAM + state[S_TURNER]]
    state[S_RESULT_BY_FLEE] = 1
    if state[S_COMMITTED] == turner_team:
        end_hand(state, 1 - turner_team, march_value(state), RESULT_FAILED_MARCH)
    else:
        end_hand(state, turner_team, stake(state), RESULT_FLED)
