"""Doubling in Palatinate Schafkopf: contra offered to an opponent at their first card, then rounds of
asking in which the sides double alternately (``re``), up to ``max_doublings``.

Rules: ``docs/rules/palatinate_schafkopf.md#16-contra`` (decisions P5, P6, P7).
"""

from __future__ import annotations

from trick_core.bits import bit
from trick_core.jit import inline_njit, njit_no_refcount

from .layout import (
    S_ASK_LEFT,
    S_DECLARER,
    S_DOUBLED_AT,
    S_DOUBLER,
    S_DOUBLINGS,
    S_MAX_DOUBLINGS,
    S_NEXT,
    S_PENDING,
    S_PHASE,
    S_SEAT_TO_ACT,
    S_TRICK_SIZE,
)
from .tables import (
    ACTION_CONTRA,
    ACTION_NO_DOUBLE,
    ACTION_RE,
    HIGH_WORD_BASE,
    NUM_ACTIVE,
    PHASE_DOUBLING,
    PHASE_PLAY,
)


@njit_no_refcount
def may_double(state, seat):
    """Doubles alternate between the sides: after an even number the opponents, after an odd number the
    declarer; the opponents double first (contra)."""
    if state[S_DOUBLINGS] >= state[S_MAX_DOUBLINGS]:
        return False
    declarer_turn = state[S_DOUBLINGS] % 2 == 1
    return (seat == state[S_DECLARER]) == declarer_turn


@inline_njit
def legal_doubling_bits(state, seat):
    """High-word bits of a seat asked to double: ``no_double``, and ``contra`` or ``re`` if it may."""
    high = bit(ACTION_NO_DOUBLE - HIGH_WORD_BASE)
    if may_double(state, seat):
        double = ACTION_CONTRA if state[S_DOUBLINGS] == 0 else ACTION_RE
        high |= bit(double - HIGH_WORD_BASE)
    return high


@njit_no_refcount
def double(state, seat):
    """A double: every other active player is then asked in turn, starting left of the doubler."""
    k = state[S_DOUBLINGS]
    state[S_DOUBLER + k] = seat
    state[S_DOUBLED_AT + k] = state[S_TRICK_SIZE]
    state[S_DOUBLINGS] = k + 1
    if k + 1 >= state[S_MAX_DOUBLINGS]:
        end_doubling(state)
        return
    state[S_PHASE] = PHASE_DOUBLING
    state[S_ASK_LEFT] = NUM_ACTIVE - 1
    state[S_SEAT_TO_ACT] = state[S_NEXT + seat]


@njit_no_refcount
def end_doubling(state):
    """The waiting first card is played."""
    state[S_PHASE] = PHASE_PLAY
    state[S_SEAT_TO_ACT] = state[S_PENDING]


@inline_njit
def answer_contra_offer(state, seat, action):
    """An opponent at their first card doubles or plays it."""
    if action == ACTION_NO_DOUBLE:
        state[S_PHASE] = PHASE_PLAY
    else:
        double(state, seat)


@inline_njit
def answer_doubling_round(state, seat, action):
    """A player asked in a round doubles, or declines; a full round without a double ends the doubling."""
    if action == ACTION_NO_DOUBLE:
        state[S_ASK_LEFT] -= 1
        if state[S_ASK_LEFT] == 0:
            end_doubling(state)
        else:
            state[S_SEAT_TO_ACT] = state[S_NEXT + seat]
    else:
        double(state, seat)
