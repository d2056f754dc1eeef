"""The card play of Bavarian Schafkopf: which cards may be played, tricks and who wins them, and the
called ace's special rules in a Rufer.

Rules: ``docs/rules/bavarian_schafkopf.md#4-play``.
"""

from __future__ import annotations

import numpy as np

from schafkopf_env.trumps import CARD_POINTS, EFFECTIVE_SUIT, EFFECTIVE_SUIT_MASK, winning_position
from trick_core.bits import ZERO, bit, popcount
from trick_core.jit import inline_njit
from trick_core.layout import card_mask

from .doubling import to_play
from .layout import (
    S_CALLED_DONE,
    S_CALLED_SUIT,
    S_CONTRACT,
    S_DECLARER,
    S_HANDS,
    S_PARTNER_KNOWN,
    S_POINTS,
    S_SEAT_TO_ACT,
    S_TOUT_LOST,
    S_TRICK_NUMBER,
    S_TRICK_SIZE,
    S_TRICKS,
    S_TRICKS_WON,
    S_TRUMP_KIND,
    TRICK_RECORD,
)
from .scoring import is_tout
from .state import end_hand, hand_size
from .tables import ACE_OF_SUIT, NUM_SEATS, PLAIN_SUIT_MASK, RUFER


@inline_njit
def follow_mask(kind, hand_mask, led_card):
    """The cards of the led effective suit if any, else the whole hand."""
    same = hand_mask & EFFECTIVE_SUIT_MASK[kind, EFFECTIVE_SUIT[kind, led_card]]
    return same if same != ZERO else hand_mask


@inline_njit
def legal_card_bits(state, seat):
    """Cards ``seat`` may play now: follow the effective suit, plus the called-ace rules of a Rufer."""
    hand = card_mask(state, S_HANDS + seat)
    kind = state[S_TRUMP_KIND]
    trick = S_TRICKS + state[S_TRICK_NUMBER] * TRICK_RECORD
    restricted = False
    ace = ZERO
    called = state[S_CALLED_SUIT]
    if state[S_CONTRACT] == RUFER and state[S_CALLED_DONE] == 0:
        ace = bit(ACE_OF_SUIT[called])
        restricted = (hand & ace) != ZERO
    if state[S_TRICK_SIZE] == 0:
        if restricted:
            suit_cards = hand & PLAIN_SUIT_MASK[called]
            if popcount(suit_cards) < 4:  # fewer than three others: no running away, lead the ace
                return hand & ~(suit_cards & ~ace)
        return hand
    led_card = state[trick + 1]
    allowed = follow_mask(kind, hand, led_card)
    if restricted:
        if EFFECTIVE_SUIT[kind, led_card] == called:
            return ace  # the called suit is led: the ace must go, trumped or not
        if popcount(hand) > 1:
            allowed &= ~ace  # no discarding the called ace before its suit is led, unless last card
    return allowed


@inline_njit
def play_card(state, seat, card):
    state[S_HANDS + seat] = np.int64(card_mask(state, S_HANDS + seat) & ~bit(card))
    trick = S_TRICKS + state[S_TRICK_NUMBER] * TRICK_RECORD
    size = state[S_TRICK_SIZE]
    state[trick + 1 + size] = card
    state[S_TRICK_SIZE] = size + 1
    if state[S_CONTRACT] == RUFER and card == ACE_OF_SUIT[state[S_CALLED_SUIT]]:
        state[S_PARTNER_KNOWN] = 1
    if size < NUM_SEATS - 1:
        to_play(state, (seat + 1) % NUM_SEATS)  # a contra offer first, in the first trick (doubling)
        return
    complete_trick(state, trick)


@inline_njit
def complete_trick(state, trick):
    kind = state[S_TRUMP_KIND]
    leader = state[trick]
    winner = (leader + winning_position(state, kind, trick + 1, NUM_SEATS)) % NUM_SEATS
    state[trick + 5] = winner
    points = 0
    for i in range(NUM_SEATS):
        points += CARD_POINTS[state[trick + 1 + i]]
    state[S_POINTS + winner] += points
    state[S_TRICKS_WON + winner] += 1
    state[S_TRICK_NUMBER] += 1
    state[S_TRICK_SIZE] = 0
    contract = state[S_CONTRACT]
    if (
        contract == RUFER
        and state[S_CALLED_DONE] == 0
        and EFFECTIVE_SUIT[kind, state[trick + 1]] == state[S_CALLED_SUIT]
    ):
        state[S_CALLED_DONE] = 1  # the ace fell in this trick, or its holder ran away
        state[S_PARTNER_KNOWN] = 1
    if is_tout(contract) and winner != state[S_DECLARER]:
        state[S_TOUT_LOST] = 1  # a Tout ends at once when a trick is lost
        end_hand(state)
        return
    if state[S_TRICK_NUMBER] == hand_size(state):
        end_hand(state)
        return
    state[S_SEAT_TO_ACT] = winner
    state[trick + TRICK_RECORD] = winner
