"""The phases of an Asserufen hand joined into the two functions every step needs: which actions the
seat to act may take (``legal_action_bits``) and what an action does (``apply``). Both are inline; the
rules of each phase live in ``bidding``, ``doubling`` and ``play``.

The legal actions are the set bits of one ``uint64`` (all 56 actions fit), so the random playouts pick
one with a single popcount and select (``random_step``) and the env's mask is written from the same bits.
"""

from __future__ import annotations

import numpy as np

from trick_core.bits import ONE, ZERO, has_card, random_bit, write_action_mask
from trick_core.jit import inline_njit, njit_no_refcount
from trick_core.layout import card_mask, record_action

from .bidding import answer_darf_man, bid, call_card, legal_bid_bits, legal_call_bits, legal_trump_bits, name_trump
from .doubling import answer_doubling, legal_doubling_bits
from .layout import S_HANDS, S_HISTORY_ACTIONS, S_HISTORY_LENGTH, S_HISTORY_SEATS, S_PHASE, S_SEAT_TO_ACT
from .play import legal_card_bits, play_card
from .tables import (
    ACTION_ACCEPT,
    ACTION_REFUSE,
    CARD_ACTION_BASE,
    NUM_ACTIONS,
    PHASE_ANSWER,
    PHASE_BIDDING,
    PHASE_CALL,
    PHASE_OFFER,
    PHASE_PLAY,
    PHASE_ROUND,
    PHASE_TRUMP,
)


@inline_njit
def legal_action_bits(state):
    """The legal actions of the seat to act as the bits of a ``uint64`` (0 once over): its cards (from
    ``CARD_ACTION_BASE``) in play, the bids its hand allows, the answers of darf man and of doubling."""
    phase = state[S_PHASE]
    seat = state[S_SEAT_TO_ACT]
    if phase == PHASE_PLAY:
        return legal_card_bits(state, seat) << np.uint64(CARD_ACTION_BASE)
    if phase == PHASE_BIDDING:
        return legal_bid_bits(state, card_mask(state, S_HANDS + seat))
    if phase == PHASE_ANSWER:
        return (ONE << np.uint64(ACTION_ACCEPT)) | (ONE << np.uint64(ACTION_REFUSE))
    if phase == PHASE_CALL:
        return legal_call_bits(card_mask(state, S_HANDS + seat))
    if phase == PHASE_TRUMP:
        return legal_trump_bits()
    if phase == PHASE_OFFER or phase == PHASE_ROUND:
        return legal_doubling_bits(state, seat)
    return ZERO


@inline_njit
def is_legal(state, action):
    """Whether ``action`` (any integer) is legal for the seat to act."""
    if action < 0 or action >= NUM_ACTIONS:
        return False
    return has_card(legal_action_bits(state), action)


@inline_njit
def apply(state, action):
    """Apply a legal action of the seat to act, recording it in the history."""
    phase = state[S_PHASE]
    seat = state[S_SEAT_TO_ACT]
    record_action(state, seat, action, S_HISTORY_LENGTH, S_HISTORY_SEATS, S_HISTORY_ACTIONS)
    if phase == PHASE_PLAY:  # the phases by how often a hand visits them
        play_card(state, seat, action - CARD_ACTION_BASE)
    elif phase == PHASE_BIDDING:
        bid(state, seat, action)
    elif phase == PHASE_OFFER or phase == PHASE_ROUND:
        answer_doubling(state, seat, action)
    elif phase == PHASE_ANSWER:
        answer_darf_man(state, action)
    elif phase == PHASE_CALL:
        call_card(state, action)
    elif phase == PHASE_TRUMP:
        name_trump(state, action)


@inline_njit
def random_step(state, rng):
    """Apply a uniformly random legal action (drawn with ``uniform_below`` over the legal bits)."""
    apply(state, random_bit(rng, legal_action_bits(state)))


@njit_no_refcount
def legal_action_mask(state, out):
    """The contract's legal actions: the int8 ``out`` over all 56 actions (bids and answers, calls, trumps,
    doubles, then the cards from ``CARD_ACTION_BASE``), from one ``uint64`` word; zeros once over."""
    write_action_mask(legal_action_bits(state), out, NUM_ACTIONS)


@njit_no_refcount
def apply_action(state, action):
    """Apply a legal action of the seat to act and record it (the contract's step; ``random_step`` inlines
    ``apply`` instead). Unchecked: callers check legality with the mask or ``is_legal``."""
    apply(state, action)
