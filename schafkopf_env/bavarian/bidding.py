"""The bidding of Bavarian Schafkopf: one round of bids up the ladder, then the called ace or the trump
suit, then the start of play (the Laufende are counted from the dealt hands).

Rules: ``docs/rules/bavarian_schafkopf.md#3-bidding-and-contracts``.
"""

from __future__ import annotations

import numpy as np

from schafkopf_env.trumps import HEARTS, NUM_SUITS, TRUMP_WENZ
from trick_core.bits import ONE, ZERO, bit
from trick_core.jit import inline_njit
from trick_core.layout import card_mask

from .layout import (
    S_BIDS,
    S_CALLED_SUIT,
    S_CONTRACT,
    S_DEALER,
    S_DEALT_HANDS,
    S_DECLARER,
    S_HIGHEST_BID,
    S_LAUFENDE,
    S_PARTNER,
    S_PHASE,
    S_SEAT_TO_ACT,
    S_TRICKS,
    S_TRUMP_KIND,
)
from .scoring import counted_laufende
from .state import end_hand, forehand
from .tables import (
    ACE_OF_SUIT,
    BID_ACTION_BASE,
    CALLABLE_SUITS,
    NUM_BIDS,
    NUM_SEATS,
    OBER_UNTER_MASK,
    PASS,
    PHASE_CALLING,
    PHASE_PLAYING,
    PHASE_TRUMP,
    PLAIN_SUIT_MASK,
    RUFER,
    SIE,
    SIE_LAUFENDE,
    SOLO,
    SOLO_TOUT,
)


@inline_njit
def legal_call_bits(hand):
    """Call actions a Rufer declarer with ``hand`` may take, as bits over the three callable suits:
    the ace not held and a plain card of its suit held."""
    bits = ZERO
    for i in range(3):
        suit = CALLABLE_SUITS[i]
        if (hand & bit(ACE_OF_SUIT[suit])) == ZERO and (hand & PLAIN_SUIT_MASK[suit]) != ZERO:
            bits |= ONE << np.uint64(i)
    return bits


@inline_njit
def legal_trump_bits(hand):
    """Trump suits a Solo declarer may name: those of which the hand holds a plain card."""
    bits = ZERO
    for suit in range(NUM_SUITS):
        if (hand & PLAIN_SUIT_MASK[suit]) != ZERO:
            bits |= ONE << np.uint64(suit)
    return bits


@inline_njit
def can_bid(hand, contract):
    """Whether a hand may bid a contract at all (before comparing with the highest bid)."""
    if contract == RUFER:
        return legal_call_bits(hand) != ZERO
    if contract == SOLO or contract == SOLO_TOUT:
        return legal_trump_bits(hand) != ZERO
    if contract == SIE:
        return (hand & OBER_UNTER_MASK) == OBER_UNTER_MASK
    return True


@inline_njit
def legal_bid_bits(state, hand):
    """Bid actions (as action bits) of a seat holding ``hand``: pass, or any higher contract it may bid."""
    bits = ONE << np.uint64(BID_ACTION_BASE + PASS)
    for contract in range(state[S_HIGHEST_BID] + 1, NUM_BIDS):
        if can_bid(hand, contract):
            bits |= ONE << np.uint64(BID_ACTION_BASE + contract)
    return bits


@inline_njit
def bid(state, seat, contract):
    state[S_BIDS + seat] = contract
    if contract > state[S_HIGHEST_BID]:
        state[S_HIGHEST_BID] = contract
        state[S_DECLARER] = seat
    if contract == SIE:  # wins at once without play; nobody can bid higher
        state[S_CONTRACT] = SIE
        state[S_LAUFENDE] = SIE_LAUFENDE
        end_hand(state)
        return
    if seat != state[S_DEALER]:  # the dealer bids last
        state[S_SEAT_TO_ACT] = (seat + 1) % NUM_SEATS
        return
    contract = state[S_HIGHEST_BID]
    if contract == PASS:  # four passes: thrown in
        end_hand(state)
        return
    state[S_CONTRACT] = contract
    state[S_SEAT_TO_ACT] = state[S_DECLARER]
    if contract == RUFER:
        state[S_PHASE] = PHASE_CALLING
    elif contract == SOLO or contract == SOLO_TOUT:
        state[S_PHASE] = PHASE_TRUMP
    else:
        state[S_TRUMP_KIND] = TRUMP_WENZ
        start_play(state)


@inline_njit
def call_ace(state, suit):
    state[S_CALLED_SUIT] = suit
    state[S_TRUMP_KIND] = HEARTS
    ace = bit(ACE_OF_SUIT[suit])
    for seat in range(NUM_SEATS):
        if card_mask(state, S_DEALT_HANDS + seat) & ace:
            state[S_PARTNER] = seat
    start_play(state)


@inline_njit
def name_trump(state, suit):
    state[S_TRUMP_KIND] = suit
    start_play(state)


@inline_njit
def start_play(state):
    """Count the Laufende from the dealt hands, then forehand leads the first trick."""
    contract = state[S_CONTRACT]
    declarer = state[S_DECLARER]
    side = card_mask(state, S_DEALT_HANDS + declarer)
    if contract == RUFER:
        side |= card_mask(state, S_DEALT_HANDS + state[S_PARTNER])
    state[S_LAUFENDE] = counted_laufende(contract, state[S_TRUMP_KIND], side)
    state[S_PHASE] = PHASE_PLAYING
    leader = forehand(state)
    state[S_SEAT_TO_ACT] = leader
    state[S_TRICKS] = leader
