"""Starting and ending a hand of Bavarian Schafkopf: the deal, the cleared state (``clear_hand``), a hand
started from its dealt hands (``start_from_masks``) or cards (``start_from_cards``), small readers.

The hot path (one random hand is ~37 steps of a few dozen instructions each) is written as small
``inline_njit`` helpers that numba inlines into the entry points of ``kernel`` (``trick_core.jit``
explains why).
"""

from __future__ import annotations

import numpy as np

from schafkopf_env.trumps import NUM_CARDS, NUM_RANKS, NUM_SUITS
from trick_core.bits import ZERO, bit, shuffle_pack, uniform_below
from trick_core.jit import inline_njit, njit, njit_no_refcount

from . import layout
from .tables import (
    FULL_MASK,
    HAND_SIZE,
    NUM_SEATS,
    NUM_TRICKS,
    OBER_UNTER_MASK,
    PARAM_HAND_SIZE,
    PARAM_KLOPFEN,
    PARAMS_SIZE,
    PASS,
    PHASE_BIDDING,
    PHASE_KLOPFEN,
    PHASE_OVER,
    SHORT_PACK_MASK,
    SHORT_SIE_MASK,
)


@inline_njit
def forehand(state):
    """The seat after the dealer: it bids first and leads the first trick."""
    return (state[layout.S_DEALER] + 1) % NUM_SEATS


@inline_njit
def current_seat(state):
    """The seat to act, -1 once the hand is over."""
    return state[layout.S_SEAT_TO_ACT]


@inline_njit
def hand_size(state):
    """Cards dealt to each seat: 8 with the long pack, 6 with the short one (``pack``); also the tricks of a
    hand."""
    return state[layout.S_PARAMS + PARAM_HAND_SIZE]


@inline_njit
def pack_mask(state):
    """The cards of the pack the hand is played with."""
    return FULL_MASK if hand_size(state) == HAND_SIZE else SHORT_PACK_MASK


@inline_njit
def sie_mask(state):
    """The cards a Sie holds: every Ober and Unter; in the short pack the six highest trumps (decision B13)."""
    return OBER_UNTER_MASK if hand_size(state) == HAND_SIZE else SHORT_SIE_MASK


@inline_njit
def end_hand(state):
    state[layout.S_PHASE] = PHASE_OVER
    state[layout.S_SEAT_TO_ACT] = -1


@inline_njit
def hands_of(cards, offset, size):
    """The four hand masks of the ``4 * size`` card indices at ``cards[offset:]``, seat 0's ``size`` cards
    first."""
    return leading_cards_of(cards, offset, size, size)


@inline_njit
def leading_cards_of(cards, offset, size, count):
    """The masks of each seat's first ``count`` of its ``size`` cards at ``cards[offset:]`` (seat order)."""
    h0 = h1 = h2 = h3 = ZERO
    for i in range(count):
        h0 |= bit(cards[offset + i])
        h1 |= bit(cards[offset + size + i])
        h2 |= bit(cards[offset + 2 * size + i])
        h3 |= bit(cards[offset + 3 * size + i])
    return h0, h1, h2, h3


@inline_njit
def clear_hand(state, params, dealer):
    """Everything of a fresh hand but its cards: the whole state cleared (so that it is a function of the
    rule options ``params``, the deal and the actions alone), ``dealer`` set, forehand to bid."""
    state[:] = 0
    for i in range(PARAMS_SIZE):
        state[layout.S_PARAMS + i] = params[i]
    state[layout.S_DEALER] = dealer
    state[layout.S_PHASE] = PHASE_KLOPFEN if params[PARAM_KLOPFEN] else PHASE_BIDDING
    state[layout.S_SEAT_TO_ACT] = (dealer + 1) % NUM_SEATS
    state[layout.S_HIGHEST_BID] = PASS
    state[layout.S_DECLARER] = -1
    state[layout.S_CONTRACT] = PASS
    state[layout.S_TRUMP_KIND] = -1
    state[layout.S_CALLED_SUIT] = -1
    state[layout.S_PARTNER] = -1
    for seat in range(NUM_SEATS):
        state[layout.S_BIDS + seat] = -1
    for i in range(NUM_TRICKS * layout.TRICK_RECORD):
        state[layout.S_TRICKS + i] = -1


@inline_njit
def start_from_masks(state, params, dealer, hand_masks):
    """Start a hand (bidding) from the four hands dealt, ``hand_masks`` seat by seat (an array or a tuple)."""
    clear_hand(state, params, dealer)
    state[layout.S_DEALT_HANDS] = state[layout.S_HANDS] = np.int64(hand_masks[0])
    state[layout.S_DEALT_HANDS + 1] = state[layout.S_HANDS + 1] = np.int64(hand_masks[1])
    state[layout.S_DEALT_HANDS + 2] = state[layout.S_HANDS + 2] = np.int64(hand_masks[2])
    state[layout.S_DEALT_HANDS + 3] = state[layout.S_HANDS + 3] = np.int64(hand_masks[3])


@inline_njit
def set_first_cards(state, first):
    """Record ``first`` (``first_halves``): what a seat has seen when it decides on Klopfen (with
    ``klopfen`` only: otherwise the field stays empty, and a state is what its dealt hands make)."""
    if state[layout.S_PARAMS + PARAM_KLOPFEN] == 0:
        return
    for seat in range(NUM_SEATS):
        state[layout.S_FIRST_CARDS + seat] = np.int64(first[seat])


@inline_njit
def first_halves(cards, offset, size):
    """The first half of each seat's cards at ``cards[offset:]`` (``4 * size`` in seat order), as masks."""
    return leading_cards_of(cards, offset, size, size // 2)


@inline_njit
def start_from_cards(state, params, dealer, deal_cards):
    """Start a hand from a fixed deal: the pack's card indices, seat 0's cards first, then seat 1's..."""
    size = params[PARAM_HAND_SIZE]
    start_from_masks(state, params, dealer, hands_of(deal_cards, 0, size))
    set_first_cards(state, first_halves(deal_cards, 0, size))


@inline_njit
def deal_random_with(state, params, rng, dealer):
    """Shuffle (Fisher-Yates), deal, start; ``dealer`` -1 draws the dealer too (after the shuffle). The
    short pack shuffles its 24 places and maps place ``p`` to the card of suit ``p // 6``, rank ``p % 6``."""
    pack = layout.SHUFFLE_SCRATCH
    size = params[PARAM_HAND_SIZE]
    if size == HAND_SIZE:
        shuffle_pack(state, pack, NUM_CARDS, rng, False)
    else:
        cards = NUM_SEATS * size
        ranks = cards // NUM_SUITS  # the lowest ranks of every suit are left out
        shuffle_pack(state, pack, cards, rng, False)
        for i in range(cards):
            place = state[pack + i]
            state[pack + i] = (place // ranks) * NUM_RANKS + place % ranks
    if dealer < 0:
        dealer = uniform_below(rng, NUM_SEATS)
    first = first_halves(state, pack, size)  # read before the start clears the pack from the history
    start_from_masks(state, params, dealer, hands_of(state, pack, size))
    set_first_cards(state, first)


@njit  # not njit_no_refcount: a caller's deal given as a Python list needs reference counting
def init_state(state, params, dealer, deal_cards):
    """The contract's fixed deal: start a hand from ``deal_cards``, the pack's card indices (32, or 24 with
    the short pack), seat 0's cards first, then seat 1's..."""
    start_from_cards(state, params, dealer, deal_cards)


@njit_no_refcount
def deal_random(state, params, rng):
    """The contract's random deal from the splitmix64 ``rng``: the pack shuffled, then the dealer drawn, the
    cards of each seat in pack order."""
    deal_random_with(state, params, rng, -1)


@njit_no_refcount
def deal_random_for_dealer(state, params, rng, dealer):
    """The deal of a ``reset``: as ``deal_random``, for ``dealer`` (the same shuffle: no dealer draw)."""
    deal_random_with(state, params, rng, dealer)
