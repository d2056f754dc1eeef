"""Contra and re in Asserufen: the offer before a player's first card, the rounds of asking after each
double, and the cap ``max_doublings``.

Rules: ``docs/rules/palatinate_schafkopf.md#16-contra`` and decisions A1, A2, A8
(``docs/rules/palatinate_schafkopf.md#decisions-asserufen``). Each player but the declarer is offered
``contra`` before their own first card while nobody has doubled (the hidden partner too, which keeps it
hidden, but it may only decline). After a double every other player, from the doubler's left, is asked
``re`` / ``no_double``; only the doubled side may say ``re``, which restarts the asking; three answers in
a row without a double, or the cap, end it, and the player who was about to play plays.
"""

from __future__ import annotations

import numpy as np

from trick_core.bits import ONE
from trick_core.jit import inline_njit

from .layout import (
    S_CONTRACT,
    S_DECLARER,
    S_DOUBLERS,
    S_DOUBLINGS,
    S_LAST_DOUBLER,
    S_PARTNER,
    S_PARTNER_KNOWN,
    S_PENDING_PLAYER,
    S_PHASE,
    S_ROUND_ANSWERS,
    S_SEAT_TO_ACT,
    S_TRICK_LEADERS,
    S_TRICK_NUMBER,
)
from .state import forehand, max_doublings, on_declarer_side
from .tables import (
    ACTION_CONTRA,
    ACTION_NO_DOUBLE,
    ACTION_RE,
    CONTRACT_ACE_CALL,
    NUM_SEATS,
    PHASE_OFFER,
    PHASE_PLAY,
    PHASE_ROUND,
)


@inline_njit
def to_play(state, seat):
    """``seat`` is about to play a card: first offer contra if this is their first card (pinned)."""
    if (
        state[S_TRICK_NUMBER] == 0
        and state[S_DOUBLINGS] == 0
        and max_doublings(state) > 0
        and seat != state[S_DECLARER]
    ):
        state[S_PHASE] = PHASE_OFFER
        state[S_PENDING_PLAYER] = seat
    else:
        state[S_PHASE] = PHASE_PLAY
    state[S_SEAT_TO_ACT] = seat


@inline_njit
def start_play(state):
    """The contract is settled: forehand leads the first trick (after its contra offer)."""
    leader = forehand(state)
    state[S_TRICK_LEADERS] = leader
    to_play(state, leader)


@inline_njit
def may_double_again(state, seat):
    """Whether ``seat`` may say ``re``: the cap is not reached and ``seat`` is on the doubled side."""
    return state[S_DOUBLINGS] < max_doublings(state) and on_declarer_side(state, seat) != on_declarer_side(
        state, state[S_LAST_DOUBLER]
    )


@inline_njit
def legal_offer_bits(state, seat):
    """At a contra offer: ``no_double``, and ``contra`` unless ``seat`` is the (hidden) partner."""
    bits = ONE << np.uint64(ACTION_NO_DOUBLE)
    if not on_declarer_side(state, seat):
        bits |= ONE << np.uint64(ACTION_CONTRA)
    return bits


@inline_njit
def legal_round_bits(state, seat):
    """In a round of asking: ``no_double``, and ``re`` where ``may_double_again``."""
    bits = ONE << np.uint64(ACTION_NO_DOUBLE)
    if may_double_again(state, seat):
        bits |= ONE << np.uint64(ACTION_RE)
    return bits


@inline_njit
def end_round(state):
    """The doubling is over: the player who was about to play plays."""
    state[S_PHASE] = PHASE_PLAY
    state[S_SEAT_TO_ACT] = state[S_PENDING_PLAYER]


@inline_njit
def double(state, seat):
    """``seat`` says contra or re: the value doubles, and everyone else is asked from its left."""
    count = state[S_DOUBLINGS]
    state[S_DOUBLERS + count] = seat
    state[S_DOUBLINGS] = count + 1
    state[S_LAST_DOUBLER] = seat
    if state[S_CONTRACT] == CONTRACT_ACE_CALL and seat == state[S_PARTNER]:
        state[S_PARTNER_KNOWN] = 1  # a partner who says re is revealed
    if count + 1 >= max_doublings(state):
        end_round(state)
    else:
        state[S_PHASE] = PHASE_ROUND
        state[S_ROUND_ANSWERS] = 0
        state[S_SEAT_TO_ACT] = (seat + 1) % NUM_SEATS


@inline_njit
def answer_offer(state, seat, action):
    if action == ACTION_CONTRA:
        double(state, seat)
    else:
        state[S_PHASE] = PHASE_PLAY


@inline_njit
def answer_in_round(state, seat, action):
    if action == ACTION_RE:
        double(state, seat)
        return
    state[S_ROUND_ANSWERS] += 1
    if state[S_ROUND_ANSWERS] == NUM_SEATS - 1:
        end_round(state)
    else:
        state[S_SEAT_TO_ACT] = (seat + 1) % NUM_SEATS


@inline_njit
def legal_doubling_bits(state, seat):
    """The legal answers of ``seat`` in either doubling phase: the offer or a round of asking."""
    if state[S_PHASE] == PHASE_OFFER:
        return legal_offer_bits(state, seat)
    return legal_round_bits(state, seat)


@inline_njit
def answer_doubling(state, seat, action):
    """``seat``'s answer in either doubling phase: to the offer or in a round of asking."""
    if state[S_PHASE] == PHASE_OFFER:
        answer_offer(state, seat, action)
    else:
        answer_in_round(state, seat, action)
