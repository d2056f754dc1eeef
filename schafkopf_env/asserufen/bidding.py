"""The bidding of Asserufen: one pass of *weg* or a higher bid (*ich hänge an*, *darf man?*, the solos),
the answer to *darf man?*, the called ace (ten, King) or the trump suit, then the start of play.

Rules: ``docs/rules/palatinate_schafkopf.md#33-bidding`` and ``#34-calling-the-ace`` (decision A4: "a suit
in which they hold a card" counts plain cards only).
"""

from __future__ import annotations

import numpy as np

from schafkopf_env.trumps import EFFECTIVE_SUIT_MASK, RANK_A
from trick_core.bits import ONE, ZERO, bit, has_card
from trick_core.jit import inline_njit
from trick_core.layout import card_mask

from .doubling import start_play
from .layout import (
    S_ANSWER,
    S_BIDS,
    S_CALLED_CARD,
    S_CONTRACT,
    S_DECLARER,
    S_HAENGE_AN_SEAT,
    S_HANDS,
    S_HIGHEST_BID,
    S_HIGHEST_BIDDER,
    S_NUM_SPOKEN,
    S_PARTNER,
    S_PHASE,
    S_SEAT_TO_ACT,
    S_TRUMP_KIND,
)
from .state import end_hand
from .tables import (
    ACTION_ACCEPT,
    ACTION_DARF_MAN,
    ACTION_HAENGE_AN,
    ACTION_HEART_SOLO,
    ACTION_HEART_SOLO_DU,
    ACTION_SOLO,
    ACTION_WEG,
    CALL_ACTION_BASE,
    CALL_CARDS,
    CONTRACT_ACE_CALL,
    CONTRACT_NONE,
    NON_HEART_SUITS,
    NON_TRUMP_ACES_MASK,
    NON_TRUMP_KINGS_MASK,
    NON_TRUMP_TENS_MASK,
    NUM_CALL_ACTIONS,
    NUM_SEATS,
    NUM_TRUMP_ACTIONS,
    PHASE_ANSWER,
    PHASE_CALL,
    PHASE_TRUMP,
    SUIT_H,
    TRUMP_ACTION_BASE,
    TRUMP_ACTION_SUITS,
)


@inline_njit
def plain_cards_of(hand_mask, suit):
    """The cards of a non-heart ``suit`` in ``hand_mask`` under hearts trumps (its Queen and Jack are
    trumps, not cards of the suit)."""
    return hand_mask & EFFECTIVE_SUIT_MASK[SUIT_H, suit]


@inline_njit
def may_say_darf_man(hand_mask):
    """Pinned: the player holds a non-heart plain card of a suit whose ace they do not hold."""
    for i in range(3):
        suit = NON_HEART_SUITS[i]
        ace = suit * 8 + RANK_A
        if not has_card(hand_mask, ace) and plain_cards_of(hand_mask, suit) != ZERO:
            return True
    return False


@inline_njit
def callable_cards(hand_mask):
    """Cards the declarer of an ace-call game may call (bit mask).

    The ace of a non-trump suit not held, of a suit in which the declarer holds a card if there is one;
    with all three aces a ten not held; with all three aces and tens a King not held."""
    if hand_mask & NON_TRUMP_ACES_MASK != NON_TRUMP_ACES_MASK:
        preferred = ZERO
        allowed = ZERO
        for i in range(3):
            suit = NON_HEART_SUITS[i]
            ace = suit * 8 + RANK_A
            if not has_card(hand_mask, ace):
                allowed |= bit(ace)
                if plain_cards_of(hand_mask, suit) != ZERO:
                    preferred |= bit(ace)
        return preferred if preferred != ZERO else allowed
    if hand_mask & NON_TRUMP_TENS_MASK != NON_TRUMP_TENS_MASK:
        return NON_TRUMP_TENS_MASK & ~hand_mask
    return NON_TRUMP_KINGS_MASK & ~hand_mask


@inline_njit
def legal_bid_bits(state, hand):
    """Bid actions of a seat holding ``hand``: weg, or a bid higher than any before (haenge_an only as the
    first bid, darf_man only directly over haenge_an and only with ``may_say_darf_man``)."""
    bits = ONE << np.uint64(ACTION_WEG)
    highest = state[S_HIGHEST_BID]
    if highest == -1:
        bits |= ONE << np.uint64(ACTION_HAENGE_AN)
    if highest == ACTION_HAENGE_AN and may_say_darf_man(hand):
        bits |= ONE << np.uint64(ACTION_DARF_MAN)
    for bid in range(max(ACTION_SOLO, highest + 1), ACTION_HEART_SOLO_DU + 1):
        bits |= ONE << np.uint64(bid)
    return bits


@inline_njit
def legal_call_bits(hand):
    """Call actions of the ace-call declarer holding ``hand`` (as action bits)."""
    callable_mask = callable_cards(hand)
    bits = ZERO
    for i in range(NUM_CALL_ACTIONS):
        if has_card(callable_mask, CALL_CARDS[i]):
            bits |= ONE << np.uint64(CALL_ACTION_BASE + i)
    return bits


@inline_njit
def legal_trump_bits():
    """Trump actions of a Solo or Solo Du declarer: any of clubs, spades, diamonds."""
    bits = ZERO
    for i in range(NUM_TRUMP_ACTIONS):
        bits |= ONE << np.uint64(TRUMP_ACTION_BASE + i)
    return bits


@inline_njit
def bid(state, seat, action):
    state[S_BIDS + seat] = action
    if action != ACTION_WEG:
        state[S_HIGHEST_BID] = action
        state[S_HIGHEST_BIDDER] = seat
        if action == ACTION_HAENGE_AN:
            state[S_HAENGE_AN_SEAT] = seat
    state[S_NUM_SPOKEN] += 1
    if state[S_NUM_SPOKEN] < NUM_SEATS:
        state[S_SEAT_TO_ACT] = (seat + 1) % NUM_SEATS
    else:
        end_bidding(state)


@inline_njit
def end_bidding(state):
    """Everyone has spoken: thrown in, the answer to darf_man, the ace-call game or a solo."""
    highest = state[S_HIGHEST_BID]
    if highest == -1:
        state[S_CONTRACT] = CONTRACT_NONE  # all four said weg: thrown in
        end_hand(state)
    elif highest == ACTION_DARF_MAN:
        state[S_PHASE] = PHASE_ANSWER
        state[S_SEAT_TO_ACT] = state[S_HAENGE_AN_SEAT]
    elif highest == ACTION_HAENGE_AN:
        declare_ace_call(state, state[S_HIGHEST_BIDDER])
    else:
        state[S_CONTRACT] = highest - 1  # solo 3 -> 2, ..., heart_solo_du 6 -> 5
        state[S_DECLARER] = state[S_HIGHEST_BIDDER]
        if highest == ACTION_HEART_SOLO or highest == ACTION_HEART_SOLO_DU:
            state[S_TRUMP_KIND] = SUIT_H
            start_play(state)
        else:
            state[S_PHASE] = PHASE_TRUMP
            state[S_SEAT_TO_ACT] = state[S_DECLARER]


@inline_njit
def answer_darf_man(state, action):
    """The haenge_an player accepts (the darf_man bidder declares) or refuses (declares itself)."""
    state[S_ANSWER] = action
    declarer = state[S_HIGHEST_BIDDER] if action == ACTION_ACCEPT else state[S_HAENGE_AN_SEAT]
    declare_ace_call(state, declarer)


@inline_njit
def declare_ace_call(state, declarer):
    state[S_CONTRACT] = CONTRACT_ACE_CALL
    state[S_DECLARER] = declarer
    state[S_TRUMP_KIND] = SUIT_H
    state[S_PHASE] = PHASE_CALL
    state[S_SEAT_TO_ACT] = declarer


@inline_njit
def call_card(state, action):
    """The declarer calls a card; its holder is the (secret) partner."""
    card = CALL_CARDS[action - CALL_ACTION_BASE]
    state[S_CALLED_CARD] = card
    for seat in range(NUM_SEATS):
        if has_card(card_mask(state, S_HANDS + seat), card):
            state[S_PARTNER] = seat
    start_play(state)


@inline_njit
def name_trump(state, action):
    state[S_TRUMP_KIND] = TRUMP_ACTION_SUITS[action - TRUMP_ACTION_BASE]
    start_play(state)
