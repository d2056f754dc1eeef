"""The exchanges before the play: a chosen ten for a turned card of its suit, then (four players) the
Oles at the bottom of the stock for the Queen (else King) of their suit.

Rules: ``docs/rules/knuffeln.md#3-deal-chosen-suits-exchanges``. Every seat is asked in turn, holding
a ten or not (decision K2), again after each exchange it makes (K3); in each Ole offer every seat is asked
from forehand and only the entitled one may take it (K5, K6, K7); the early variants offer each face-up
bottom Ole in turn (K15).
"""

from __future__ import annotations

import numpy as np

from trick_core.jit import inline_njit, njit

from . import layout
from .play import begin_play
from .state import card_bit, is_ole, suit_cards, suit_of
from .tables import (
    BOTTOM_CHECK,
    BOTTOM_RULE_OF_VARIANT,
    NUM_RANKS,
    PHASE_OLE_EXCHANGE,
    PHASE_TEN_EXCHANGE,
    RANK_EXCHANGE,
    RANK_K,
    RANK_Q,
    STOCK_SIZE,
)

# ----------------------------------------------------------------------------- the ten exchange


@inline_njit
def begin_ten_round(state, first_seat, count):
    """Ask ``count`` seats in playing order from ``first_seat`` about the ten exchange. Every seat is
    asked, holding a chosen ten or not, so that the turn order reveals nothing."""
    players = state[layout.S_PLAYERS]
    for k in range(count):
        state[layout.S_ASK_ORDER + k] = (first_seat + k) % players
    state[layout.S_ASK_LENGTH] = count
    state[layout.S_ASK_INDEX] = 0
    state[layout.S_PHASE] = PHASE_TEN_EXCHANGE
    state[layout.S_SEAT_TO_ACT] = first_seat


@inline_njit
def ten_exchange_cards(state, seat):
    """Turned cards ``seat`` may take for a chosen ten it holds (any turned card of that suit)."""
    takes = np.int64(0)
    hand = state[layout.S_HANDS + seat]
    for k in range(2):
        suit = state[layout.S_FIRST_SUIT] if k == 0 else state[layout.S_SECOND_SUIT]
        if (state[layout.S_TENS_EXCHANGED] >> suit) & 1:
            continue
        if hand & card_bit(suit * NUM_RANKS + RANK_EXCHANGE):
            takes |= state[layout.S_FACE_UP_MASK] & suit_cards(suit)
    return takes


@inline_njit
def exchange_ten(state, seat, card):
    """``seat`` gives its chosen ten for the turned ``card``; it is asked again (it may hold the other
    chosen ten too)."""
    ten = card_bit(suit_of(card) * NUM_RANKS + RANK_EXCHANGE)
    state[layout.S_HANDS + seat] = (state[layout.S_HANDS + seat] & ~ten) | card_bit(card)
    state[layout.S_FACE_UP_MASK] = (state[layout.S_FACE_UP_MASK] & ~card_bit(card)) | ten
    state[layout.S_EXCHANGED_IN + seat] |= card_bit(card)
    state[layout.S_EXCHANGED_OUT + seat] |= ten
    state[layout.S_TENS_EXCHANGED] |= np.int64(1) << suit_of(card)


@inline_njit
def next_asked(state):
    """Next seat of the running exchange round; True when the round is finished."""
    state[layout.S_ASK_INDEX] += 1
    if state[layout.S_ASK_INDEX] >= state[layout.S_ASK_LENGTH]:
        return True
    state[layout.S_SEAT_TO_ACT] = state[layout.S_ASK_ORDER + state[layout.S_ASK_INDEX]]
    return False


@inline_njit
def decline_ten(state):
    if next_asked(state):
        end_ten_round(state)


@njit
def end_ten_round(state):
    if state[layout.S_PLAYERS] == 5:
        begin_play(state)  # five players: no bottom-Ole exchange
    elif BOTTOM_RULE_OF_VARIANT[state[layout.S_VARIANT]] == BOTTOM_CHECK:
        state[layout.S_OLE_POSITION] = STOCK_SIZE - 1
        check_bottom_card(state)
    else:
        state[layout.S_OLE_POSITION] = STOCK_SIZE
        offer_next_face_up_ole(state)


# ----------------------------------------------------------------------------- the bottom Oles


@njit
def check_bottom_card(state):
    """Bohmstedt/Hattstedt: the dealer looks at the next card from the bottom; an Ole is shown and
    offered, anything else ends the checking (at most three Oles in all)."""
    if state[layout.S_OLES_TAKEN] >= 3:
        begin_play(state)
        return
    position = state[layout.S_OLE_POSITION]
    card = state[layout.S_STOCK + position]
    state[layout.S_DEALER_SEEN_MASK] |= card_bit(card)
    if not is_ole(card):
        state[layout.S_CHECK_STOP_POSITION] = position
        begin_play(state)
        return
    state[layout.S_PUBLIC_STOCK_MASK] |= card_bit(card)
    offer_ole(state, card)


@njit
def offer_next_face_up_ole(state):
    """1924/1938: offer the next Ole among the three face-up bottom cards, bottom first."""
    position = state[layout.S_OLE_POSITION] - 1
    while position >= STOCK_SIZE - 3:
        if is_ole(state[layout.S_STOCK + position]):
            state[layout.S_OLE_POSITION] = position
            offer_ole(state, state[layout.S_STOCK + position])
            return
        position -= 1
    begin_play(state)


@njit
def offer_ole(state, ole):
    """The holder of the Queen of the Ole's suit may exchange it; if no player holds that Queen, the
    King holder. A Queen or King got through the ten exchange cannot be used (no double exchange), and
    then nobody may take the Ole. Every seat is asked in turn from forehand, so that a decline by the
    entitled player looks like anyone's."""
    suit = suit_of(ole)
    queen = suit * NUM_RANKS + RANK_Q
    king = suit * NUM_RANKS + RANK_K
    holder = -1
    give = -1
    for seat in range(state[layout.S_PLAYERS]):
        if state[layout.S_HANDS + seat] & card_bit(queen):
            holder = seat
            give = queen
    if holder < 0:
        for seat in range(state[layout.S_PLAYERS]):
            if state[layout.S_HANDS + seat] & card_bit(king):
                holder = seat
                give = king
    if holder >= 0 and state[layout.S_EXCHANGED_IN + holder] & card_bit(give):
        holder = -1
    state[layout.S_OLE_ENTITLED] = holder
    state[layout.S_OLE_GIVE] = give
    forehand = state[layout.S_FOREHAND]
    for k in range(4):
        state[layout.S_ASK_ORDER + k] = (forehand + k) % 4
    state[layout.S_ASK_LENGTH] = 4
    state[layout.S_ASK_INDEX] = 0
    state[layout.S_PHASE] = PHASE_OLE_EXCHANGE
    state[layout.S_SEAT_TO_ACT] = forehand


@njit
def take_ole(state, seat):
    ole = state[layout.S_STOCK + state[layout.S_OLE_POSITION]]
    give = state[layout.S_OLE_GIVE]
    state[layout.S_HANDS + seat] = (state[layout.S_HANDS + seat] & ~card_bit(give)) | card_bit(ole)
    state[layout.S_STOCK_MASK] &= ~card_bit(ole)
    state[layout.S_OUT_MASK] |= card_bit(give)
    state[layout.S_EXCHANGED_IN + seat] |= card_bit(ole)
    state[layout.S_EXCHANGED_OUT + seat] |= card_bit(give)
    taken = state[layout.S_OLES_TAKEN]
    state[layout.S_OLE_LOG_TAKER + taken] = seat
    state[layout.S_OLE_LOG_GIVEN + taken] = give
    state[layout.S_OLE_LOG_TAKEN + taken] = ole
    state[layout.S_OLES_TAKEN] = taken + 1
    state[layout.S_OLE_ENTITLED] = -1
    if BOTTOM_RULE_OF_VARIANT[state[layout.S_VARIANT]] == BOTTOM_CHECK:
        state[layout.S_OLE_POSITION] -= 1
        check_bottom_card(state)
    else:
        offer_next_face_up_ole(state)


@njit
def decline_ole(state):
    if not next_asked(state):
        return
    state[layout.S_OLE_ENTITLED] = -1
    if BOTTOM_RULE_OF_VARIANT[state[layout.S_VARIANT]] == BOTTOM_CHECK:
        begin_play(state)  # nobody took the Ole: the checking ends
    else:
        offer_next_face_up_ole(state)
