"""The card play of Palatinate Schafkopf: which cards may be played, tricks and who wins them, the contra
offered before an opponent's first card, and the end of a Du at its first lost trick.

Rules: ``docs/rules/palatinate_schafkopf.md#13-play`` and ``#16-contra``.
"""

from __future__ import annotations

import numpy as np

from schafkopf_env.trumps import CARD_POINTS, EFFECTIVE_SUIT, TRICK_POWER, TRUMP, follow_mask
from trick_core.bits import bit
from trick_core.jit import inline_njit, njit_no_refcount
from trick_core.layout import card_mask

from .doubling import may_double
from .layout import (
    S_ACTIVE,
    S_CONTRACT,
    S_DECLARER,
    S_HANDS,
    S_LEADER,
    S_NEXT,
    S_OFFERED,
    S_PENDING,
    S_PHASE,
    S_PLAYED,
    S_POINTS,
    S_SEAT_TO_ACT,
    S_TRICK_CARDS,
    S_TRICK_LOG,
    S_TRICK_NUMBER,
    S_TRICK_SIZE,
    S_TRICKS_WON,
    S_TRUMP,
    TRICK_LOG_ENTRY,
)
from .scoring import finish_hand
from .tables import CONTRACT_SOLO_DU, NUM_ACTIVE, NUM_TRICKS, PHASE_CONTRA_OFFER, PHASE_PLAY


@inline_njit
def legal_card_bits(state, seat):
    """Cards ``seat`` may play now: anything when leading, else the led effective suit if it holds any."""
    hand = card_mask(state, S_HANDS + seat)
    if state[S_TRICK_SIZE] == 0:
        return hand
    return follow_mask(state[S_TRUMP], hand, state[S_TRICK_CARDS])


@njit_no_refcount
def _is_opponent(state, seat):
    """True for a seat on the declarer's opposing side (the dealer sitting out included)."""
    return seat != state[S_DECLARER]


@njit_no_refcount
def start_play(state):
    """Forehand leads the first trick."""
    state[S_LEADER] = state[S_ACTIVE]
    state[S_TRICK_SIZE] = 0
    next_to_play(state, state[S_ACTIVE])


@njit_no_refcount
def next_to_play(state, seat):
    """``seat`` plays next; an opponent about to play their first card is offered contra first, while
    their side may double."""
    state[S_SEAT_TO_ACT] = seat
    first_card = state[S_PLAYED + seat] == 0 and state[S_OFFERED + seat] == 0
    if first_card and _is_opponent(state, seat) and may_double(state, seat):
        state[S_OFFERED + seat] = 1
        state[S_PENDING] = seat
        state[S_PHASE] = PHASE_CONTRA_OFFER
    else:
        state[S_PHASE] = PHASE_PLAY


@njit_no_refcount
def play_card(state, seat, card):
    card_bit = bit(card)
    state[S_HANDS + seat] = np.int64(card_mask(state, S_HANDS + seat) & ~card_bit)
    state[S_PLAYED + seat] = np.int64(card_mask(state, S_PLAYED + seat) | card_bit)
    size = state[S_TRICK_SIZE]
    state[S_TRICK_CARDS + size] = card
    state[S_TRICK_SIZE] = size + 1
    if size + 1 < NUM_ACTIVE:
        next_to_play(state, state[S_NEXT + seat])
    else:
        _finish_trick(state)


@njit_no_refcount
def _winning_position(state):
    """Position in playing order of the winning card of the complete trick: the highest trump, else the
    highest card of the led suit (``schafkopf_env.trumps.trick_winner_index``, read from the state)."""
    trump = state[S_TRUMP]
    best = 0
    best_card = state[S_TRICK_CARDS]
    for i in range(1, NUM_ACTIVE):
        card = state[S_TRICK_CARDS + i]
        suit = EFFECTIVE_SUIT[trump, card]
        best_suit = EFFECTIVE_SUIT[trump, best_card]
        beats_in_suit = suit == best_suit and TRICK_POWER[trump, card] > TRICK_POWER[trump, best_card]
        if beats_in_suit or (suit == TRUMP and best_suit != TRUMP):
            best = i
            best_card = card
    return best


@njit_no_refcount
def _finish_trick(state):
    """Log the trick, credit its winner, and end the hand after the tenth trick or a Du's first loss."""
    leader = state[S_LEADER]
    winner_position = _winning_position(state)
    winner = leader
    points = 0
    log = S_TRICK_LOG + state[S_TRICK_NUMBER] * TRICK_LOG_ENTRY
    state[log] = leader
    for i in range(NUM_ACTIVE):
        card = state[S_TRICK_CARDS + i]
        state[log + 1 + i] = card
        points += CARD_POINTS[card]
        if i < winner_position:
            winner = state[S_NEXT + winner]
    state[log + 4] = winner
    state[S_POINTS + winner] += points
    state[S_TRICKS_WON + winner] += 1
    state[S_TRICK_NUMBER] += 1
    state[S_TRICK_SIZE] = 0
    state[S_LEADER] = winner
    du_lost = state[S_CONTRACT] >= CONTRACT_SOLO_DU and winner != state[S_DECLARER]
    if du_lost or state[S_TRICK_NUMBER] == NUM_TRICKS:
        finish_hand(state)
    else:
        state[S_PHASE] = PHASE_PLAY
        state[S_SEAT_TO_ACT] = winner
