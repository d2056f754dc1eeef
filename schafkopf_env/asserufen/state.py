"""Starting and ending a hand of Asserufen: the deal (packets of four from forehand), the cleared state
(``clear_hand``), a hand started from its dealt hands (``start_from_masks``) or cards (``start_from_cards``),
small readers of it.

Rules: ``docs/rules/palatinate_schafkopf.md#31-deal``. The hot path is written as small ``inline_njit``
helpers that numba inlines into the entry points of ``kernel`` (``trick_core.jit`` explains why).
"""

from __future__ import annotations

import numpy as np

from schafkopf_env.trumps import NUM_CARDS
from trick_core.bits import bit, shuffle_pack, uniform_below
from trick_core.jit import inline_njit, njit, njit_no_refcount
from trick_core.layout import card_mask

from .layout import (
    S_ANSWER,
    S_BIDS,
    S_CALLED_CARD,
    S_CONTRACT,
    S_DEALER,
    S_DEALT_HANDS,
    S_DECLARER,
    S_HAENGE_AN_SEAT,
    S_HANDS,
    S_HIGHEST_BID,
    S_HIGHEST_BIDDER,
    S_LAST_DOUBLER,
    S_PARAMS,
    S_PARTNER,
    S_PENDING_PLAYER,
    S_PHASE,
    S_SEAT_TO_ACT,
    S_TRUMP_KIND,
    SHUFFLE_SCRATCH,
)
from .tables import (
    CONTRACT_ACE_CALL,
    CONTRACT_HEART_SOLO_DU,
    CONTRACT_SOLO,
    CONTRACT_SOLO_DU,
    HAND_SIZE,
    NOT_SPOKEN,
    NUM_SEATS,
    PARAM_MAX_DOUBLINGS,
    PARAMS_SIZE,
    PHASE_BIDDING,
    PHASE_OVER,
)

PACKET = 4
"""Cards are dealt in packets of four, from forehand round the table twice."""


@inline_njit
def max_doublings(state):
    """The rule option ``max_doublings`` of the hand in ``state``."""
    return state[S_PARAMS + PARAM_MAX_DOUBLINGS]


@inline_njit
def forehand(state):
    """The seat left of the dealer: it speaks first and leads the first trick."""
    return (state[S_DEALER] + 1) % NUM_SEATS


@inline_njit
def current_seat(state):
    """The seat to act, -1 once the hand is over."""
    return state[S_SEAT_TO_ACT]


@inline_njit
def is_solo(contract):
    """Solo, Heart Solo and the two Du: the declarer plays alone."""
    return contract >= CONTRACT_SOLO


@inline_njit
def is_du(contract):
    return contract == CONTRACT_SOLO_DU or contract == CONTRACT_HEART_SOLO_DU


@inline_njit
def on_declarer_side(state, seat):
    """Whether ``seat`` plays with the declarer (the declarer, or the holder of the called card)."""
    return seat == state[S_DECLARER] or (state[S_CONTRACT] == CONTRACT_ACE_CALL and seat == state[S_PARTNER])


@inline_njit
def end_hand(state):
    state[S_PHASE] = PHASE_OVER
    state[S_SEAT_TO_ACT] = -1


@inline_njit
def clear_hand(state, params, dealer):
    """Everything of a fresh hand but its cards (``give`` deals them): the whole state cleared (so that it
    is a function of the rule options ``params``, the deal and the actions alone), forehand to bid."""
    state[:] = 0
    for i in range(PARAMS_SIZE):
        state[S_PARAMS + i] = params[i]
    state[S_DEALER] = dealer
    for seat in range(NUM_SEATS):
        state[S_BIDS + seat] = NOT_SPOKEN
    for field in (
        S_HIGHEST_BID,
        S_HIGHEST_BIDDER,
        S_HAENGE_AN_SEAT,
        S_ANSWER,
        S_DECLARER,
        S_TRUMP_KIND,
        S_CALLED_CARD,
        S_PARTNER,
        S_LAST_DOUBLER,
        S_PENDING_PLAYER,
    ):
        state[field] = -1
    state[S_PHASE] = PHASE_BIDDING
    state[S_SEAT_TO_ACT] = (dealer + 1) % NUM_SEATS


@inline_njit
def give(state, seat, card):
    """Deal ``card`` to ``seat``."""
    card_bit = bit(card)
    state[S_DEALT_HANDS + seat] = np.int64(card_mask(state, S_DEALT_HANDS + seat) | card_bit)
    state[S_HANDS + seat] = np.int64(card_mask(state, S_HANDS + seat) | card_bit)


@inline_njit
def start_from_cards(state, params, dealer, deal_cards):
    """Start a hand from a fixed deal: 32 card indices, seat 0's eight first."""
    clear_hand(state, params, dealer)
    for seat in range(NUM_SEATS):
        for i in range(HAND_SIZE):
            give(state, seat, deal_cards[seat * HAND_SIZE + i])


@inline_njit
def start_from_masks(state, params, dealer, hand_masks):
    """Start a hand from the four hands dealt, ``hand_masks`` seat by seat."""
    clear_hand(state, params, dealer)
    for seat in range(NUM_SEATS):
        state[S_DEALT_HANDS + seat] = np.int64(hand_masks[seat])
        state[S_HANDS + seat] = np.int64(hand_masks[seat])


@inline_njit
def deal_random_with(state, params, rng, dealer):
    """Shuffle (Fisher-Yates) and deal packets of four from forehand round the table twice; ``dealer``
    -1 draws the dealer first (before the shuffle)."""
    if dealer < 0:
        dealer = uniform_below(rng, NUM_SEATS)
    clear_hand(state, params, dealer)
    pack = SHUFFLE_SCRATCH
    shuffle_pack(state, pack, NUM_CARDS, rng, False)
    for packet in range(NUM_CARDS // PACKET):
        seat = (dealer + 1 + packet) % NUM_SEATS
        for k in range(PACKET):
            give(state, seat, state[pack + packet * PACKET + k])
    for i in range(NUM_CARDS):
        state[pack + i] = 0


@njit  # not njit_no_refcount: a caller's deal given as a Python list needs reference counting
def init_state(state, params, dealer, deal_cards):
    """The contract's fixed deal: start a hand from ``deal_cards``, 32 card indices, seat 0's eight first"""
    start_from_cards(state, params, dealer, deal_cards)


@njit_no_refcount
def deal_random(state, params, rng):
    """The contract's random deal from the splitmix64 ``rng``: the dealer drawn first, then the pack
    shuffled and dealt in packets of four from forehand (``deal_random_with``)."""
    deal_random_with(state, params, rng, -1)


@njit_no_refcount
def deal_random_for_dealer(state, params, rng, dealer):
    """The deal of a ``reset``, for ``dealer``: no dealer drawn, so the shuffle takes the stream's first draw."""
    deal_random_with(state, params, rng, dealer)
