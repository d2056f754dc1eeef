"""The bidding of Bavarian Schafkopf: one round of bids up the ladder, then the called ace or the trump
suit, then the start of play (the Laufende are counted from the dealt hands; ``doubling.to_play`` offers
forehand its contra first).

Rules: ``docs/rules/bavarian_schafkopf.md#3-bidding-and-contracts``.
"""

from __future__ import annotations

import numpy as np

from schafkopf_env.trumps import HEARTS, NUM_SUITS, TRUMP_BETTEL, TRUMP_FARBWENZ, TRUMP_GEIER, TRUMP_WENZ
from trick_core.bits import ONE, ZERO, bit
from trick_core.jit import inline_njit
from trick_core.layout import card_mask

from .doubling import to_play
from .layout import (
    S_BIDS,
    S_CALLED_SUIT,
    S_CONTRACT,
    S_DEALER,
    S_DEALT_HANDS,
    S_DECLARER,
    S_HIGHEST_BID,
    S_LAUFENDE,
    S_PARAMS,
    S_PARTNER,
    S_PHASE,
    S_SEAT_TO_ACT,
    S_TRICKS,
    S_TRUMP_KIND,
)
from .ramsch import start_ramsch
from .scoring import state_laufende
from .state import end_hand, forehand, hand_size, sie_mask
from .tables import (
    ACE_OF_SUIT,
    BETTEL,
    BID_ACTION_BASE,
    CALLABLE_SUITS,
    CONTRACT_OPTION_BIT,
    EXTRA_BID_ACTION_BASE,
    FARBWENZ,
    FARBWENZ_TOUT,
    GEIER,
    GEIER_TOUT,
    LADDER,
    LADDER_RANK,
    NUM_BIDS,
    NUM_SEATS,
    PARAM_CONTRACTS,
    PARAM_RAMSCH,
    PASS,
    PHASE_CALLING,
    PHASE_TRUMP,
    PLAIN_SUIT_MASK,
    RUFER,
    SIE,
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
def is_farbwenz(contract):
    return contract == FARBWENZ or contract == FARBWENZ_TOUT


@inline_njit
def legal_farbwenz_bits(hand):
    """Suits a Farbwenz declarer may name (decision B19): those of which the hand holds a card other than the
    Unter (a card that is a trump only in that Farbwenz)."""
    bits = ZERO
    for suit in range(NUM_SUITS):
        if (hand & (PLAIN_SUIT_MASK[suit] | bit(suit * 8 + 3))) != ZERO:
            bits |= ONE << np.uint64(suit)
    return bits


@inline_njit
def bid_action(contract):
    """The action that bids ``contract``: ``BID_ACTION_BASE + contract`` for the default game's, the extra bids
    after the Klopfen actions for the options' (``EXTRA_BID_ACTION_BASE``)."""
    return BID_ACTION_BASE + contract if contract < NUM_BIDS else EXTRA_BID_ACTION_BASE + contract - GEIER


@inline_njit
def can_bid(hand, contract, sie_cards):
    """Whether a hand may bid a contract at all (before comparing with the highest bid); a Sie needs the
    cards ``sie_cards`` (``state.sie_mask``)."""
    if contract == RUFER:
        return legal_call_bits(hand) != ZERO
    if contract == SOLO or contract == SOLO_TOUT:
        return legal_trump_bits(hand) != ZERO
    if contract == SIE:
        return hand == sie_cards
    if is_farbwenz(contract):
        return legal_farbwenz_bits(hand) != ZERO
    return True


@inline_njit
def legal_bid_bits(state, hand):
    """Bid actions (as action bits) of a seat holding ``hand``: pass, or any contract higher on the ladder
    (``LADDER_RANK``) it may bid, of those the options offer."""
    bits = ONE << np.uint64(BID_ACTION_BASE + PASS)
    sie_cards = sie_mask(state)
    offered = state[S_PARAMS + PARAM_CONTRACTS]
    for rank in range(LADDER_RANK[state[S_HIGHEST_BID]] + 1, LADDER.shape[0]):
        contract = LADDER[rank]
        needs = CONTRACT_OPTION_BIT[contract]
        if (needs == 0 or (offered & needs) != 0) and can_bid(hand, contract, sie_cards):
            bits |= ONE << np.uint64(bid_action(contract))
    return bits


@inline_njit
def bid(state, seat, contract):
    state[S_BIDS + seat] = contract
    if LADDER_RANK[contract] > LADDER_RANK[state[S_HIGHEST_BID]]:
        state[S_HIGHEST_BID] = contract
        state[S_DECLARER] = seat
    if contract == SIE:  # wins at once without play; nobody can bid higher
        state[S_CONTRACT] = SIE
        state[S_LAUFENDE] = hand_size(state)
        end_hand(state)
        return
    if seat != state[S_DEALER]:  # the dealer bids last
        state[S_SEAT_TO_ACT] = (seat + 1) % NUM_SEATS
        return
    contract = state[S_HIGHEST_BID]
    if contract == PASS and state[S_PARAMS + PARAM_RAMSCH]:  # four passes: Ramsch (ramsch)
        start_ramsch(state)
        leader = forehand(state)
        state[S_TRICKS] = leader
        to_play(state, leader)
        return
    if contract == PASS:  # four passes: thrown in
        end_hand(state)
        return
    state[S_CONTRACT] = contract
    state[S_SEAT_TO_ACT] = state[S_DECLARER]
    if contract == RUFER:
        state[S_PHASE] = PHASE_CALLING
    elif contract == SOLO or contract == SOLO_TOUT or is_farbwenz(contract):
        state[S_PHASE] = PHASE_TRUMP
    else:
        if contract == GEIER or contract == GEIER_TOUT:
            state[S_TRUMP_KIND] = TRUMP_GEIER
        elif contract == BETTEL:
            state[S_TRUMP_KIND] = TRUMP_BETTEL
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
    """The suit of a Solo (trump kind ``suit``) or of a Farbwenz (``TRUMP_FARBWENZ + suit``)."""
    state[S_TRUMP_KIND] = TRUMP_FARBWENZ + suit if is_farbwenz(state[S_CONTRACT]) else suit
    start_play(state)


@inline_njit
def legal_suit_bits(state, hand):
    """The suits the declarer may name now: a Solo's (``legal_trump_bits``) or a Farbwenz's."""
    if is_farbwenz(state[S_CONTRACT]):
        return legal_farbwenz_bits(hand)
    return legal_trump_bits(hand)


@inline_njit
def start_play(state):
    """Count the Laufende from the dealt hands, then forehand leads the first trick."""
    contract = state[S_CONTRACT]
    declarer = state[S_DECLARER]
    side = card_mask(state, S_DEALT_HANDS + declarer)
    if contract == RUFER:
        side |= card_mask(state, S_DEALT_HANDS + state[S_PARTNER])
    state[S_LAUFENDE] = state_laufende(state, contract, state[S_TRUMP_KIND], side)
    leader = forehand(state)
    state[S_TRICKS] = leader
    to_play(state, leader)  # the card play, after forehand's contra offer (doubling)
