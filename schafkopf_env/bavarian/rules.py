"""The rules of Bavarian Schafkopf by phase, joined: the legal actions of the seat to act and the effect
of an action, as inline functions (the bodies live in ``bidding`` and ``play``).

Legal actions are computed as the bits of one ``uint64`` (all 56 actions fit), so that a random playout draws
an action with one popcount and one select (``random_step``).
"""

from __future__ import annotations

import numpy as np

from trick_core.bits import ZERO, random_bit, write_action_mask
from trick_core.jit import inline_njit, njit_no_refcount
from trick_core.layout import card_mask, record_action

from .bidding import bid, call_ace, legal_bid_bits, legal_call_bits, legal_suit_bits, name_trump
from .doubling import answer_doubling, answer_klopfen, legal_doubling_bits, legal_klopfen_bits
from .layout import S_HANDS, S_HISTORY_ACTIONS, S_HISTORY_LENGTH, S_HISTORY_SEATS, S_PHASE, S_SEAT_TO_ACT
from .play import legal_card_bits, play_card
from .tables import (
    BID_ACTION_BASE,
    CALL_ACTION_BASE,
    CALLABLE_SUITS,
    CARD_ACTION_BASE,
    EXTRA_BID_ACTION_BASE,
    GEIER,
    NUM_ACTIONS,
    PHASE_BIDDING,
    PHASE_CALLING,
    PHASE_CONTRA_OFFER,
    PHASE_DOUBLING_ROUND,
    PHASE_KLOPFEN,
    PHASE_PLAYING,
    PHASE_TRUMP,
    TRUMP_ACTION_BASE,
)

EXTRA_BID_OFFSET = EXTRA_BID_ACTION_BASE - GEIER


@inline_njit
def legal_action_bits(state):
    """Legal actions of the seat to act as bits of a ``uint64``; 0 once over."""
    phase = state[S_PHASE]
    seat = state[S_SEAT_TO_ACT]
    if phase == PHASE_PLAYING:
        return legal_card_bits(state, seat)  # card actions are the card indices
    hand = card_mask(state, S_HANDS + seat)
    if phase == PHASE_BIDDING:
        return legal_bid_bits(state, hand)
    if phase == PHASE_CALLING:
        return legal_call_bits(hand) << np.uint64(CALL_ACTION_BASE)
    if phase == PHASE_TRUMP:
        return legal_suit_bits(state, hand) << np.uint64(TRUMP_ACTION_BASE)
    if phase == PHASE_CONTRA_OFFER or phase == PHASE_DOUBLING_ROUND:
        return legal_doubling_bits(state, seat)
    if phase == PHASE_KLOPFEN:
        return legal_klopfen_bits(state)
    return ZERO


@inline_njit
def apply(state, action):
    """Apply a legal action of the seat to act, recording it in the history; each kind of action counts
    from its own base (``CARD_ACTION_BASE``, ``BID_ACTION_BASE``, ...)."""
    seat = state[S_SEAT_TO_ACT]
    record_action(state, seat, action, S_HISTORY_LENGTH, S_HISTORY_SEATS, S_HISTORY_ACTIONS)
    phase = state[S_PHASE]
    if phase == PHASE_PLAYING:
        play_card(state, seat, action - CARD_ACTION_BASE)
    elif phase == PHASE_BIDDING:  # the options' bids follow the Klopfen actions: contract = action - 43
        bid(state, seat, action - BID_ACTION_BASE if action < CALL_ACTION_BASE else action - EXTRA_BID_OFFSET)
    elif phase == PHASE_CALLING:
        call_ace(state, CALLABLE_SUITS[action - CALL_ACTION_BASE])
    elif phase == PHASE_TRUMP:
        name_trump(state, action - TRUMP_ACTION_BASE)
    elif phase == PHASE_CONTRA_OFFER or phase == PHASE_DOUBLING_ROUND:
        answer_doubling(state, seat, action)
    elif phase == PHASE_KLOPFEN:
        answer_klopfen(state, seat, action)


@inline_njit
def random_step(state, rng):
    """Apply a uniformly random legal action (drawn with ``uniform_below`` over the legal bits)."""
    apply(state, random_bit(rng, legal_action_bits(state)))


@njit_no_refcount
def legal_action_mask(state, out):
    """The contract's legal actions: the int8 ``out`` over its actions (cards, bids, aces to call, solo
    suits, and with ``doubling`` the doublings: the env's 46 or 49, or ``NUM_ACTIONS``), from the one word of
    ``legal_action_bits``; zeros once over."""
    write_action_mask(legal_action_bits(state), out, min(out.shape[0], NUM_ACTIONS))


@njit_no_refcount
def apply_action(state, action):
    """The contract's step, for callers outside the playouts' inlined ``random_step`` (the env, the replay, the
    solver): ``apply`` compiled on its own, unchecked (callers check legality with the mask)."""
    apply(state, action)
