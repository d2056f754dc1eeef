"""Small readers and writers of a Knüffeln state shared by the rules' modules: card masks, suits, teams,
clearing a state for a fresh hand (``clear_hand``), the action history.

Card masks are ``int64`` here (``card_bit``), not the ``uint64`` of ``trick_core.bits.bit``: the state array
is ``int64`` and every mask of this kernel is computed in ``int64``; mixing the two in numba would turn the
results into ``float64``. The bit helpers that take any integer (``popcount``, ``lowest_bit``, ``nth_bit``,
``random_bit``) come from ``trick_core.bits``.
"""

from __future__ import annotations

import numpy as np

from trick_core.jit import inline_njit

from .layout import (
    S_DEALER,
    S_NEXT,
    S_PARAMS,
    S_REDEALS,
    S_SEAT_TO_ACT,
    S_TEAM,
)
from .tables import NUM_RANKS, OLE_MASK, PARAMS_SIZE


@inline_njit
def current_seat(state):
    """The seat to act, -1 once the hand is over."""
    return state[S_SEAT_TO_ACT]


@inline_njit
def card_bit(card):
    """The ``int64`` mask of one card."""
    return np.int64(1) << np.int64(card)


@inline_njit
def suit_of(card):
    return card // NUM_RANKS


@inline_njit
def is_ole(card):
    return (np.int64(OLE_MASK) >> np.int64(card)) & 1 == 1


@inline_njit
def suit_cards(suit):
    """The mask of the twelve cards of ``suit``."""
    return np.int64(0xFFF) << np.int64(suit * NUM_RANKS)


@inline_njit
def teammates(state, a, b):
    return state[S_TEAM + a] >= 0 and state[S_TEAM + a] == state[S_TEAM + b]


@inline_njit
def next_opponent(state, seat):
    """The next player of the other team in playing order (answers a face-down lead)."""
    team = state[S_TEAM + seat]
    other = state[S_NEXT + seat]
    while state[S_TEAM + other] == team:
        other = state[S_NEXT + other]
    return other


@inline_njit
def clear_hand(state, params, dealer):
    """Everything of a fresh hand but its cards: the whole state zeroed (so that it is a function of the
    rule options ``params``, the deal and the actions alone), the options copied in, ``dealer`` set
    (``deal.setup_hand`` sets the rest once the cards lie dealt)."""
    state[:] = 0
    for i in range(PARAMS_SIZE):
        state[S_PARAMS + i] = params[i]
    state[S_DEALER] = dealer


@inline_njit
def copy_deal_setting(source, target):
    """Copy what a hand is dealt under (the options, the dealer, the redeals) from ``source`` into the
    cleared ``target``."""
    for i in range(PARAMS_SIZE):
        target[S_PARAMS + i] = source[S_PARAMS + i]
    target[S_DEALER] = source[S_DEALER]
    target[S_REDEALS] = source[S_REDEALS]

