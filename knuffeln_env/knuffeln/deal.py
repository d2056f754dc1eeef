"""Dealing a hand of Knüffeln: the shuffle, 3-3-3 from forehand, twelve cards to the stock, the turn-up of
the chosen suits (four of one suit: the same dealer deals again), and the first decision of the hand —
the ten exchange, or with five players the dealer's choice to play alone or sit out.

Rules: ``docs/rules/knuffeln.md#3-deal-chosen-suits-exchanges`` and ``docs/rules/knuffeln.md#91-five-players``;
a fixed deal that needs a new deal is redealt reproducibly from its cards (decision K1).

**Deal cards** (``start_from_cards``, ``kernel.init_state``): the hands seat by seat (five players: the
four non-dealers in seat order), 9 cards each, then the 12 stock cards from the top (turned first) to the
bottom.
"""

from __future__ import annotations

import numpy as np

from trick_core.bits import popcount, rng_next, shuffle_pack, uniform_below
from trick_core.jit import inline_njit, njit, njit_no_refcount

from .exchanges import begin_ten_round
from .layout import (
    OLE_LOG_SIZE,
    S_CHECK_STOP_POSITION,
    S_CHOSEN,
    S_COMMITTED,
    S_DEALER,
    S_DEALER_MODE,
    S_DEALER_SEEN_MASK,
    S_DEALT_HANDS,
    S_DECIDER,
    S_FACE_DOWN_CARD,
    S_FACE_UP_MASK,
    S_FIRST_SUIT,
    S_FOREHAND,
    S_HANDS,
    S_LEADER,
    S_MAX_TRICKS,
    S_NEXT,
    S_NUM_ACTIVE,
    S_NUM_TURNED,
    S_OLE_ENTITLED,
    S_OLE_GIVE,
    S_OLE_LOG_GIVEN,
    S_OLE_LOG_TAKEN,
    S_OLE_LOG_TAKER,
    S_OLE_POSITION,
    S_PACK,
    S_PHASE,
    S_PLAYERS,
    S_PUBLIC_STOCK_MASK,
    S_REDEALS,
    S_SEAT_TO_ACT,
    S_SECOND_SUIT,
    S_STOCK,
    S_STOCK_MASK,
    S_STREAK_TEAM,
    S_TARGET,
    S_TEAM,
    S_TRICK_LOG,
    S_TURNED_MASK,
    S_TURNER,
    S_VARIANT,
    S_WINNER_TEAM,
    TRICK_LOG_WIDTH,
)
from .state import card_bit, clear_hand, suit_of
from .tables import (
    BOTTOM_RULE_OF_VARIANT,
    BOTTOM_THREE_FACE_UP,
    CARDS_PER_HAND,
    DEALER_PLAYS_ALONE,
    DEALER_SITS_OUT,
    MAX_SEATS,
    MAX_TRICKS,
    MAX_TURNED,
    NUM_CARDS,
    PARAM_PLAYERS,
    PHASE_DEALER_CHOICE,
    STOCK_SIZE,
)

REDEAL_SEED = 0x4B6E75666665C36C
"""Start of the stream that redeals a fixed deal whose top four stock cards share a suit (mixed with the
deal's cards, so the same deal always redeals the same way)."""


@inline_njit
def mask_of_cards(cards, start, count):
    """The card mask of ``cards[start:start + count]``."""
    mask = np.int64(0)
    for i in range(start, start + count):
        mask |= card_bit(cards[i])
    return mask


@inline_njit
def turned_count(state):
    """Cards turned from the top of the stock to choose the suits (2..4), or 0 when the first four
    share one suit and the same dealer must deal again."""
    first = suit_of(state[S_STOCK])
    k = 1
    while k < MAX_TURNED and suit_of(state[S_STOCK + k]) == first:
        k += 1
    return k + 1 if k < MAX_TURNED else 0


@inline_njit
def shuffle_and_deal(state, rng):
    """Shuffle the pack and deal 3-3-3 clockwise from forehand (the dealer receives no cards with five
    players); the 12 cards left form the stock, top first."""
    shuffle_pack(state, S_PACK, NUM_CARDS, rng, False)
    players = state[S_PLAYERS]
    dealer = state[S_DEALER]
    for s in range(MAX_SEATS):
        state[S_DEALT_HANDS + s] = 0
    position = 0
    for _round in range(3):
        for k in range(1, 5):
            seat = (dealer + k) % players
            for _ in range(3):
                state[S_DEALT_HANDS + seat] |= card_bit(state[S_PACK + position])
                position += 1
    for k in range(STOCK_SIZE):
        state[S_STOCK + k] = state[S_PACK + position + k]


@inline_njit
def redeal_until_suits_are_chosen(state, rng):
    """Deal again (same dealer) while the top four stock cards share a suit."""
    while turned_count(state) == 0:
        shuffle_and_deal(state, rng)
        state[S_REDEALS] += 1


@inline_njit
def start_from_cards(state, params, dealer, deal_cards):
    """Start a hand from a fixed deal (the module docstring gives the order of ``deal_cards``).

    If the first four stock cards share one suit the rules call for a new deal by the same dealer: the
    hand is redealt pseudo-randomly, seeded from the given cards, so the same input always gives the
    same hand (``S_REDEALS`` counts the redeals)."""
    clear_hand(state, params, dealer)
    players = params[PARAM_PLAYERS]
    position = 0
    for seat in range(players):
        if not (players == 5 and seat == dealer):  # five players: the dealer is dealt no hand
            state[S_DEALT_HANDS + seat] = mask_of_cards(deal_cards, position, CARDS_PER_HAND)
            position += CARDS_PER_HAND
    for k in range(STOCK_SIZE):
        state[S_STOCK + k] = deal_cards[position + k]
    if turned_count(state) == 0:
        rng = np.zeros(1, dtype=np.uint64)
        rng[0] = np.uint64(REDEAL_SEED)
        for k in range(NUM_CARDS):
            rng[0] ^= np.uint64(deal_cards[k] + 64 * k)
            rng_next(rng)
        redeal_until_suits_are_chosen(state, rng)
    setup_hand(state)


@inline_njit
def deal_at_random(state, params, rng):
    """Draw the dealer, shuffle and deal (again while four of one suit are turned), start the hand."""
    clear_hand(state, params, uniform_below(rng, params[PARAM_PLAYERS]))
    shuffle_and_deal(state, rng)
    redeal_until_suits_are_chosen(state, rng)
    setup_hand(state)


@njit_no_refcount
def deal_random(state, params, rng):
    """The contract's random deal: the dealer and the cards drawn from the splitmix64 ``rng`` (dealing
    again while four of one suit are turned), the hand started."""
    deal_at_random(state, params, rng)


@njit  # not njit_no_refcount: a caller's deal given as a Python list needs reference counting
def init_state(state, params, dealer, deal_cards):
    """The contract's fixed deal (order: the module docstring). Four stock cards of one suit turned:
    redealt reproducibly from the given cards (decision K1)."""
    start_from_cards(state, params, dealer, deal_cards)


@njit_no_refcount
def setup_hand(state):
    """Everything after the cards lie dealt: turn the chosen suits, then the first decision."""
    players = state[S_PLAYERS]
    dealer = state[S_DEALER]
    state[S_FOREHAND] = (dealer + 1) % players
    turned = turned_count(state)
    state[S_NUM_TURNED] = turned
    state[S_FIRST_SUIT] = suit_of(state[S_STOCK])
    state[S_SECOND_SUIT] = suit_of(state[S_STOCK + turned - 1])
    state[S_CHOSEN] = (1 << state[S_FIRST_SUIT]) | (1 << state[S_SECOND_SUIT])
    turned_mask = np.int64(0)
    for k in range(turned):
        turned_mask |= card_bit(state[S_STOCK + k])
    stock_mask = np.int64(0)
    for k in range(turned, STOCK_SIZE):
        stock_mask |= card_bit(state[S_STOCK + k])
    state[S_TURNED_MASK] = turned_mask
    state[S_FACE_UP_MASK] = turned_mask
    state[S_STOCK_MASK] = stock_mask
    for seat in range(MAX_SEATS):
        state[S_HANDS + seat] = state[S_DEALT_HANDS + seat]
        state[S_TEAM + seat] = -1
        state[S_NEXT + seat] = (seat + 1) % players
    for t in range(MAX_TRICKS):
        for k in range(TRICK_LOG_WIDTH):
            state[S_TRICK_LOG + t * TRICK_LOG_WIDTH + k] = -1
    for k in range(OLE_LOG_SIZE):
        state[S_OLE_LOG_TAKER + k] = -1
        state[S_OLE_LOG_GIVEN + k] = -1
        state[S_OLE_LOG_TAKEN + k] = -1
    state[S_FACE_DOWN_CARD] = -1
    state[S_TURNER] = -1
    state[S_DECIDER] = -1
    state[S_COMMITTED] = -1
    state[S_STREAK_TEAM] = -1
    state[S_WINNER_TEAM] = -1
    state[S_CHECK_STOP_POSITION] = -1
    state[S_OLE_ENTITLED] = -1
    state[S_OLE_GIVE] = -1
    state[S_OLE_POSITION] = -1
    state[S_TARGET] = 5
    state[S_TARGET + 1] = 5
    state[S_MAX_TRICKS] = MAX_TRICKS
    if BOTTOM_RULE_OF_VARIANT[state[S_VARIANT]] == BOTTOM_THREE_FACE_UP:
        for k in range(STOCK_SIZE - 3, STOCK_SIZE):
            state[S_PUBLIC_STOCK_MASK] |= card_bit(state[S_STOCK + k])
    if players == 4:
        state[S_NUM_ACTIVE] = 4
        for seat in range(4):
            state[S_TEAM + seat] = seat % 2
        state[S_LEADER] = state[S_FOREHAND]
        begin_ten_round(state, state[S_FOREHAND], 4)
    else:
        state[S_DEALER_SEEN_MASK] = stock_mask
        state[S_PHASE] = PHASE_DEALER_CHOICE
        state[S_SEAT_TO_ACT] = dealer


@njit
def choose_dealer_game(state, alone):
    """Five players: the dealer plays alone with the stock, or sits out and the four play."""
    dealer = state[S_DEALER]
    if alone:
        state[S_DEALER_MODE] = DEALER_PLAYS_ALONE
        state[S_HANDS + dealer] = state[S_STOCK_MASK]
        state[S_STOCK_MASK] = 0
        state[S_NUM_ACTIVE] = 5
        for seat in range(5):
            state[S_TEAM + seat] = 0 if seat == dealer else 1
        state[S_TARGET] = 4
        state[S_TARGET + 1] = 5
        state[S_MAX_TRICKS] = min(MAX_TRICKS, popcount(state[S_HANDS + dealer]))
        state[S_LEADER] = (dealer + 3) % 5  # second to the dealer's right: the dealer plays third
        begin_ten_round(state, (dealer + 1) % 5, 5)
    else:
        state[S_DEALER_MODE] = DEALER_SITS_OUT
        state[S_NUM_ACTIVE] = 4
        for k in range(1, 5):
            seat = (dealer + k) % 5
            state[S_TEAM + seat] = (k - 1) % 2
            state[S_NEXT + seat] = (dealer + k + 1) % 5 if k < 4 else (dealer + 1) % 5
        state[S_LEADER] = (dealer + 1) % 5
        begin_ten_round(state, (dealer + 1) % 5, 4)
