"""The rules of Palatinate Schafkopf by phase, joined: the legal actions of the seat to act and the effect
of an action (the bodies live in ``bidding``, ``schenken``, ``doubling`` and ``play``).

Legal actions are two ``uint64`` bit words (81 actions do not fit in one; ``tables.HIGH_WORD_BASE``), so
that a random playout draws an action with two popcounts and one select (``random_step``).
"""

from __future__ import annotations

import numpy as np

from trick_core.bits import ONE, ZERO, lowest_bit, nth_bit, popcount, uniform_below_modulo
from trick_core.jit import inline_njit, njit, njit_no_refcount
from trick_core.layout import record_action

from .bidding import (
    ROUND_TWO_BITS,
    bid_round_one,
    bid_round_two,
    discard,
    legal_discard_bits,
    legal_round_one_bits,
    legal_trump_bits,
    name_trump,
)
from .doubling import answer_contra_offer, answer_doubling_round, legal_doubling_bits
from .layout import S_HISTORY_ACTIONS, S_HISTORY_LENGTH, S_HISTORY_SEATS, S_PHASE, S_SEAT_TO_ACT
from .play import legal_card_bits, play_card
from .schenken import ANSWER_BITS, OFFER_BITS, answer_offer, answer_schenken
from .tables import (
    CARD_ACTION_BASE,
    DISCARD_ACTION_BASE,
    HIGH_WORD_BASE,
    NUM_ACTIONS,
    PHASE_BID_ONE,
    PHASE_BID_TWO,
    PHASE_CONTRA_OFFER,
    PHASE_DISCARD,
    PHASE_DOUBLING,
    PHASE_PLAY,
    PHASE_SCHENKEN,
    PHASE_SCHENKEN_ANSWER,
    PHASE_TRUMP,
    TRUMP_ACTION_BASE,
)


@njit_no_refcount
def legal_action_bits(state):
    """Legal actions of the seat to act as two bit words: bit ``a`` of ``low`` is action ``a`` (0..63),
    bit ``a`` of ``high`` is action ``HIGH_WORD_BASE + a``. Both zero once over."""
    phase = state[S_PHASE]
    seat = state[S_SEAT_TO_ACT]
    low = ZERO
    high = ZERO
    if phase == PHASE_PLAY:
        low = legal_card_bits(state, seat)  # card actions are the card indices
    elif phase == PHASE_BID_ONE:
        high = legal_round_one_bits(state)
    elif phase == PHASE_BID_TWO:
        high = ROUND_TWO_BITS
    elif phase == PHASE_TRUMP:
        high = legal_trump_bits(state)
    elif phase == PHASE_DISCARD:
        low = legal_discard_bits(state, seat)
    elif phase == PHASE_SCHENKEN:
        high = OFFER_BITS
    elif phase == PHASE_SCHENKEN_ANSWER:
        high = ANSWER_BITS
    elif phase == PHASE_CONTRA_OFFER or phase == PHASE_DOUBLING:
        high = legal_doubling_bits(state, seat)
    return low, high


@njit
def legal_action_mask(state, out):
    """Fill the int8 ``out[NUM_ACTIONS]`` with the legal actions of the seat to act (zeros once over)."""
    out[:] = 0
    if state[S_SEAT_TO_ACT] < 0:
        return
    low, high = legal_action_bits(state)
    while low != ZERO:
        out[lowest_bit(low)] = 1
        low &= low - ONE
    while high != ZERO:
        out[HIGH_WORD_BASE + lowest_bit(high)] = 1
        high &= high - ONE


@njit
def is_legal(state, action):
    """Whether ``action`` is legal for the seat to act (False once the hand is over)."""
    if state[S_SEAT_TO_ACT] < 0 or action < 0 or action >= NUM_ACTIONS:
        return False
    low, high = legal_action_bits(state)
    if action < HIGH_WORD_BASE:
        return (low >> np.uint64(action)) & ONE == ONE
    return (high >> np.uint64(action - HIGH_WORD_BASE)) & ONE == ONE


@njit_no_refcount
def apply_action(state, action):
    """Apply a legal ``action`` of the seat to act (callers check legality with the mask) and record it in
    the history: a card play (most actions) or another decision."""
    seat = state[S_SEAT_TO_ACT]
    record_action(state, seat, action, S_HISTORY_LENGTH, S_HISTORY_SEATS, S_HISTORY_ACTIONS)
    if state[S_PHASE] == PHASE_PLAY:
        play_card(state, seat, action - CARD_ACTION_BASE)
    else:
        _decide(state, seat, action)


@njit_no_refcount
def _decide(state, seat, action):
    """Every decision other than a card play, by phase."""
    phase = state[S_PHASE]
    if phase == PHASE_BID_ONE:
        bid_round_one(state, seat, action)
    elif phase == PHASE_BID_TWO:
        bid_round_two(state, seat, action)
    elif phase == PHASE_TRUMP:
        name_trump(state, action - TRUMP_ACTION_BASE)
    elif phase == PHASE_DISCARD:
        discard(state, seat, action - DISCARD_ACTION_BASE)
    elif phase == PHASE_SCHENKEN:
        answer_schenken(state, seat, action)
    elif phase == PHASE_SCHENKEN_ANSWER:
        answer_offer(state, action)
    elif phase == PHASE_CONTRA_OFFER:
        answer_contra_offer(state, seat, action)
    elif phase == PHASE_DOUBLING:
        answer_doubling_round(state, seat, action)


@njit_no_refcount
def _random_action(state, rng):
    """A uniformly random legal action: one ``uniform_below_modulo`` draw over both bit words."""
    low, high = legal_action_bits(state)
    count_low = popcount(low)
    pick = uniform_below_modulo(rng, count_low + popcount(high))
    if pick < count_low:
        return nth_bit(low, pick)
    return HIGH_WORD_BASE + nth_bit(high, pick - count_low)


@inline_njit
def random_step(state, rng):
    """Apply a uniformly random legal action (drawn with ``uniform_below_modulo``)."""
    apply_action(state, _random_action(state, rng))
