"""The bidding of Palatinate Schafkopf: round one (the solo kinds, each active player once), round two
(the simple game: the first to ask takes the skat and lays two cards away), naming trump.

Rules: ``docs/rules/palatinate_schafkopf.md#22-contracts`` and ``#23-bidding`` (decisions P1, P2, P3).
"""

from __future__ import annotations

import numpy as np

from schafkopf_env.trumps import HEARTS
from trick_core.bits import ZERO, bit
from trick_core.jit import inline_njit, njit_no_refcount
from trick_core.layout import card_mask

from .layout import (
    S_ACTIVE,
    S_BID_ONE,
    S_BID_TWO,
    S_CONTRACT,
    S_DECLARER,
    S_DISCARDS,
    S_HANDS,
    S_HIGH_BID,
    S_HIGH_BIDDER,
    S_NEXT,
    S_NUM_DISCARDS,
    S_PHASE,
    S_SEAT_TO_ACT,
    S_SKAT,
    S_SPOKEN,
    S_THROWN_IN,
    S_TRUMP,
)
from .schenken import after_trump
from .state import end_hand
from .tables import (
    ACTION_PASS,
    ACTION_SIMPLE,
    CONTRACT_HEART_SOLO,
    CONTRACT_HEART_SOLO_DU,
    CONTRACT_SIMPLE,
    DISCARD_ACTION_BASE,
    HIGH_WORD_BASE,
    NUM_ACTIVE,
    NUM_CONTRACTS,
    PHASE_BID_TWO,
    PHASE_DISCARD,
    PHASE_TRUMP,
    SKAT_SIZE,
    TRUMP_ACTION_BASE,
)

ROUND_TWO_BITS = np.uint64(1 << (ACTION_PASS - HIGH_WORD_BASE) | 1 << (ACTION_SIMPLE - HIGH_WORD_BASE))
"""High-word bits of round two: ``pass`` or ``simple``."""


@inline_njit
def legal_round_one_bits(state):
    """High-word bits of round one: ``pass``, or any solo kind higher than the highest named so far."""
    high = bit(ACTION_PASS - HIGH_WORD_BASE)
    for kind in range(state[S_HIGH_BID] + 1, NUM_CONTRACTS):
        high |= bit(ACTION_PASS + kind - HIGH_WORD_BASE)
    return high


@inline_njit
def legal_trump_bits(state):
    """High-word bits of naming trump: any suit in a simple game; clubs, spades or diamonds in a solo."""
    high = ZERO
    for suit in range(4):
        if suit != HEARTS or state[S_CONTRACT] == CONTRACT_SIMPLE:
            high |= bit(TRUMP_ACTION_BASE + suit - HIGH_WORD_BASE)
    return high


@inline_njit
def legal_discard_bits(state, seat):
    """Low-word bits of the simple-game declarer's discards: any card of its twelve."""
    return card_mask(state, S_HANDS + seat) << np.uint64(DISCARD_ACTION_BASE)


@njit_no_refcount
def bid_round_one(state, seat, action):
    """``pass`` or a solo kind; after the third player the highest kind wins (trump named next, except
    hearts in a heart solo) or, if all passed, round two starts."""
    kind = action - ACTION_PASS
    state[S_BID_ONE + seat] = kind
    if kind > 0:
        state[S_HIGH_BID] = kind
        state[S_HIGH_BIDDER] = seat
    state[S_SPOKEN] += 1
    if state[S_SPOKEN] < NUM_ACTIVE:
        state[S_SEAT_TO_ACT] = state[S_NEXT + seat]
        return
    if state[S_HIGH_BID] == 0:
        state[S_PHASE] = PHASE_BID_TWO
        state[S_SPOKEN] = 0
        state[S_SEAT_TO_ACT] = state[S_ACTIVE]
        return
    declarer = state[S_HIGH_BIDDER]
    state[S_DECLARER] = declarer
    state[S_CONTRACT] = state[S_HIGH_BID]
    if state[S_HIGH_BID] == CONTRACT_HEART_SOLO or state[S_HIGH_BID] == CONTRACT_HEART_SOLO_DU:
        state[S_TRUMP] = HEARTS
        after_trump(state)
    else:
        state[S_PHASE] = PHASE_TRUMP
        state[S_SEAT_TO_ACT] = declarer


@njit_no_refcount
def bid_round_two(state, seat, action):
    """``simple``: the seat is declarer and takes the skat; three passes throw the hand in."""
    if action == ACTION_SIMPLE:
        state[S_BID_TWO + seat] = 1
        state[S_DECLARER] = seat
        state[S_CONTRACT] = CONTRACT_SIMPLE
        state[S_HANDS + seat] = np.int64(card_mask(state, S_HANDS + seat) | card_mask(state, S_SKAT))
        state[S_PHASE] = PHASE_DISCARD
        return
    state[S_BID_TWO + seat] = 0
    state[S_SPOKEN] += 1
    if state[S_SPOKEN] < NUM_ACTIVE:
        state[S_SEAT_TO_ACT] = state[S_NEXT + seat]
        return
    state[S_THROWN_IN] = 1
    end_hand(state)


@njit_no_refcount
def discard(state, seat, card):
    """The simple-game declarer lays a card away; after the second, trump is named."""
    state[S_HANDS + seat] = np.int64(card_mask(state, S_HANDS + seat) & ~bit(card))
    state[S_DISCARDS] = np.int64(card_mask(state, S_DISCARDS) | bit(card))
    state[S_NUM_DISCARDS] += 1
    if state[S_NUM_DISCARDS] == SKAT_SIZE:
        state[S_PHASE] = PHASE_TRUMP


@inline_njit
def name_trump(state, suit):
    state[S_TRUMP] = suit
    after_trump(state)
