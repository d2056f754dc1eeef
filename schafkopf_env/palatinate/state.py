"""Starting and ending a hand of Palatinate Schafkopf: the seats taking part, the deal (the kernel's
``init_state`` and ``deal_random``), the cleared state (``clear_hand``), a hand started from its dealt hands
(``start_from_masks``, the resampling's).

Rules: ``docs/rules/palatinate_schafkopf.md#21-deal`` and ``#26-a-fourth-player``.
"""

from __future__ import annotations

import numpy as np

from schafkopf_env.trumps import NUM_CARDS
from trick_core.bits import ZERO, bit, shuffle_pack, uniform_below_modulo
from trick_core.jit import inline_njit, njit, njit_no_refcount
from trick_core.layout import card_mask

from .layout import (
    S_ACTIVE,
    S_BID_ONE,
    S_BID_TWO,
    S_CONTRACT,
    S_DEALER,
    S_DEALT_HANDS,
    S_DECLARER,
    S_DOUBLED_AT,
    S_DOUBLER,
    S_HANDS,
    S_HIGH_BIDDER,
    S_HISTORY_SEATS,
    S_LEADER,
    S_NEXT,
    S_PARAMS,
    S_PENDING,
    S_PHASE,
    S_SCHENKEN,
    S_SEAT_TO_ACT,
    S_SKAT,
    S_TRUMP,
)
from .tables import (
    CONTRACT_NONE,
    HAND_SIZE,
    MAX_DOUBLINGS_LIMIT,
    MAX_SEATS,
    NOT_ASKED,
    NUM_ACTIVE,
    PARAM_PLAYERS,
    PARAMS_SIZE,
    PHASE_BID_ONE,
    PHASE_OVER,
    SKAT_SIZE,
)

DEAL_PACKETS = (3, 0, 4, 3)
"""Cards per active seat in each round of the deal; 0 stands for the two cards to the skat."""


@njit_no_refcount
def clear_hand(state, params, dealer):
    """Everything of a fresh hand except the cards: the whole state cleared (so that it is a function of
    the rule options ``params``, the deal and the actions alone), the active seats and who follows whom."""
    # Two slices of under 2 KiB each: above 2 KiB glibc's memset switches to ``rep stosb``, which many
    # CPUs run several times slower at this size, and clearing is a large part of a random deal.
    state[:S_HISTORY_SEATS] = 0
    state[S_HISTORY_SEATS:] = 0
    for i in range(PARAMS_SIZE):
        state[S_PARAMS + i] = params[i]
    players = params[PARAM_PLAYERS]
    state[S_DEALER] = dealer
    for i in range(NUM_ACTIVE):
        # Three seats from forehand: with three players the dealer is the last, with four they sit out.
        state[S_ACTIVE + i] = (dealer + 1 + i) % players
    if players == 4:
        state[S_NEXT + dealer] = state[S_ACTIVE]
    for i in range(NUM_ACTIVE):
        state[S_NEXT + state[S_ACTIVE + i]] = state[S_ACTIVE + (i + 1) % NUM_ACTIVE]
    for seat in range(MAX_SEATS):
        state[S_BID_ONE + seat] = NOT_ASKED
        state[S_BID_TWO + seat] = NOT_ASKED
        state[S_SCHENKEN + seat] = NOT_ASKED
    state[S_HIGH_BIDDER] = -1
    state[S_DECLARER] = -1
    state[S_CONTRACT] = CONTRACT_NONE
    state[S_TRUMP] = -1
    state[S_PENDING] = -1
    for k in range(MAX_DOUBLINGS_LIMIT):
        state[S_DOUBLER + k] = -1
        state[S_DOUBLED_AT + k] = -1


@njit_no_refcount
def start_bidding(state):
    """The cards are in place: forehand opens the first bidding round."""
    for seat in range(MAX_SEATS):
        state[S_HANDS + seat] = state[S_DEALT_HANDS + seat]
    state[S_PHASE] = PHASE_BID_ONE
    state[S_SEAT_TO_ACT] = state[S_ACTIVE]
    state[S_LEADER] = state[S_ACTIVE]


@inline_njit
def current_seat(state):
    """The seat to act, ``-1`` once the hand is over."""
    return state[S_SEAT_TO_ACT]


@inline_njit
def end_hand(state):
    state[S_PHASE] = PHASE_OVER
    state[S_SEAT_TO_ACT] = -1


@njit_no_refcount
def start_from_masks(state, params, dealer, hand_masks, skat):
    """Start a hand (bidding) from the hands dealt, ``hand_masks`` seat by seat (0 for a seat dealt none),
    and the ``skat`` mask."""
    clear_hand(state, params, dealer)
    for seat in range(MAX_SEATS):
        state[S_DEALT_HANDS + seat] = np.int64(hand_masks[seat])
    state[S_SKAT] = np.int64(skat)
    start_bidding(state)


@njit
def init_state(state, params, dealer, deal_cards):
    """Start a hand from a fixed deal: ``deal_cards`` = the ten cards of each active seat in increasing
    seat number, then the two skat cards (the env validates deals before calling this)."""
    players = params[PARAM_PLAYERS]
    clear_hand(state, params, dealer)
    index = 0
    for seat in range(players):
        if players == 4 and seat == dealer:
            continue
        hand = ZERO
        for _ in range(HAND_SIZE):
            hand |= bit(deal_cards[index])
            index += 1
        state[S_DEALT_HANDS + seat] = np.int64(hand)
    skat = ZERO
    for _ in range(SKAT_SIZE):
        skat |= bit(deal_cards[index])
        index += 1
    state[S_SKAT] = np.int64(skat)
    start_bidding(state)


@njit
def deal_random(state, params, rng):
    """Draw the dealer, shuffle (Fisher-Yates, ``uniform_below_modulo`` of the splitmix64 ``rng``), deal as
    the rules say — from forehand clockwise three cards each, two to the skat, four each, three each — and
    start the hand."""
    players = params[PARAM_PLAYERS]
    dealer = uniform_below_modulo(rng, players)
    clear_hand(state, params, dealer)
    deck = np.empty(NUM_CARDS, dtype=np.int64)
    shuffle_pack(deck, 0, NUM_CARDS, rng, True)
    top = 0
    for packet in DEAL_PACKETS:
        if packet == 0:
            state[S_SKAT] = np.int64(bit(deck[top]) | bit(deck[top + 1]))
            top += SKAT_SIZE
            continue
        for i in range(NUM_ACTIVE):
            seat = state[S_ACTIVE + i]
            hand = card_mask(state, S_DEALT_HANDS + seat)
            for _ in range(packet):
                hand |= bit(deck[top])
                top += 1
            state[S_DEALT_HANDS + seat] = np.int64(hand)
    start_bidding(state)
