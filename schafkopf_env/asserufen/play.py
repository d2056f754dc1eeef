"""The card play of Asserufen: which cards may be played (the called card's rules 1-4), tricks and who
wins them, the partnership revealed.

Rules: ``docs/rules/palatinate_schafkopf.md#13-play`` and ``#35-playing-with-a-called-ace`` (decisions A3,
A5). The called card's rules bind only its holder, and only until the first trick led in the called suit
is complete.
"""

from __future__ import annotations

import numpy as np

from schafkopf_env.trumps import CARD_POINTS, EFFECTIVE_SUIT, EFFECTIVE_SUIT_MASK, winning_position
from trick_core.bits import ZERO, bit, popcount
from trick_core.jit import inline_njit
from trick_core.layout import card_mask

from .doubling import to_play
from .layout import (
    S_CALLED_CARD,
    S_CALLED_SUIT_DONE,
    S_CONTRACT,
    S_DECLARER,
    S_DU_LOST,
    S_HANDS,
    S_PARTNER,
    S_PARTNER_KNOWN,
    S_PLAYED_BY,
    S_POINTS,
    S_RAN_AWAY,
    S_TRICK_CARDS,
    S_TRICK_LEADERS,
    S_TRICK_NUMBER,
    S_TRICK_SIZE,
    S_TRICK_WINNERS,
    S_TRICKS_WON,
    S_TRUMP_KIND,
    S_VOID_SUITS,
)
from .state import end_hand, is_du
from .tables import CONTRACT_ACE_CALL, NUM_SEATS, NUM_TRICKS

RUN_AWAY_LENGTH = 4
"""Cards of the called suit (the called card included) with which its holder may run away (rule 4)."""


@inline_njit
def legal_card_bits(state, seat):
    """Cards ``seat`` may play now: follow the led effective suit if possible, plus rules 1-3 of the
    called card while the first trick led in the called suit is not complete."""
    kind = state[S_TRUMP_KIND]
    hand = card_mask(state, S_HANDS + seat)
    trick_start = S_TRICK_CARDS + state[S_TRICK_NUMBER] * NUM_SEATS
    leading = state[S_TRICK_SIZE] == 0
    if leading:
        legal = hand
    else:
        led_suit = EFFECTIVE_SUIT[kind, state[trick_start]]
        legal = hand & EFFECTIVE_SUIT_MASK[kind, led_suit]
        if legal == ZERO:
            legal = hand
    if state[S_CONTRACT] != CONTRACT_ACE_CALL or state[S_CALLED_SUIT_DONE] == 1 or seat != state[S_PARTNER]:
        return legal
    called = state[S_CALLED_CARD]
    called_bit = bit(called)
    called_suit_mask = EFFECTIVE_SUIT_MASK[kind, called // 8]
    if leading:
        # Rule 2: a called-suit lead must be the called card unless holding four or more of the suit.
        if popcount(hand & called_suit_mask) < RUN_AWAY_LENGTH:
            legal = (hand & ~called_suit_mask) | (hand & called_bit)
        return legal
    if EFFECTIVE_SUIT[kind, state[trick_start]] == called // 8:
        return called_bit  # Rule 1: the first trick led in the called suit by another player.
    # Rule 3: not discarded to another suit, unless it is the last card.
    without_called = legal & ~called_bit
    return without_called if without_called != ZERO else legal


@inline_njit
def play_card(state, seat, card):
    card_bit = bit(card)
    kind = state[S_TRUMP_KIND]
    state[S_HANDS + seat] = np.int64(card_mask(state, S_HANDS + seat) & ~card_bit)
    state[S_PLAYED_BY + seat] = np.int64(card_mask(state, S_PLAYED_BY + seat) | card_bit)
    start = S_TRICK_CARDS + state[S_TRICK_NUMBER] * NUM_SEATS
    count = state[S_TRICK_SIZE]
    if count > 0:
        led_suit = EFFECTIVE_SUIT[kind, state[start]]
        if EFFECTIVE_SUIT[kind, card] != led_suit:
            state[S_VOID_SUITS + seat] |= 1 << led_suit
    state[start + count] = card
    if card == state[S_CALLED_CARD]:
        state[S_PARTNER_KNOWN] = 1
    state[S_TRICK_SIZE] = count + 1
    if count + 1 < NUM_SEATS:
        to_play(state, (seat + 1) % NUM_SEATS)
    else:
        complete_trick(state)


@inline_njit
def complete_trick(state):
    kind = state[S_TRUMP_KIND]
    trick = state[S_TRICK_NUMBER]
    start = S_TRICK_CARDS + trick * NUM_SEATS
    leader = state[S_TRICK_LEADERS + trick]
    winner = (leader + winning_position(state, kind, start, NUM_SEATS)) % NUM_SEATS
    points = 0
    for i in range(NUM_SEATS):
        points += CARD_POINTS[state[start + i]]
    state[S_POINTS + winner] += points
    state[S_TRICKS_WON + winner] += 1
    state[S_TRICK_WINNERS + trick] = winner
    if (
        state[S_CONTRACT] == CONTRACT_ACE_CALL
        and state[S_CALLED_SUIT_DONE] == 0
        and EFFECTIVE_SUIT[kind, state[start]] == state[S_CALLED_CARD] // 8
    ):
        end_called_suit_rules(state, start)
    state[S_TRICK_NUMBER] = trick + 1
    state[S_TRICK_SIZE] = 0
    if is_du(state[S_CONTRACT]) and winner != state[S_DECLARER]:
        state[S_DU_LOST] = 1  # a lost Du ends as soon as the opponents win a trick
        end_hand(state)
    elif trick + 1 == NUM_TRICKS:
        end_hand(state)
    else:
        state[S_TRICK_LEADERS + trick + 1] = winner
        to_play(state, winner)


@inline_njit
def end_called_suit_rules(state, start):
    """The first trick led in the called suit is complete: rules 1-3 end; without the called card in it,
    its leader ran away and is publicly the partner (rule 4, decision A3)."""
    state[S_CALLED_SUIT_DONE] = 1
    called_played = False
    for i in range(NUM_SEATS):
        if state[start + i] == state[S_CALLED_CARD]:
            called_played = True
    if not called_played:
        state[S_RAN_AWAY] = 1
        state[S_PARTNER_KNOWN] = 1
