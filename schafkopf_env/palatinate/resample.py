"""What a seat of Palatinate Schafkopf knows about the cards it cannot see: the constraints and the replay
behind ``resample_hidden`` (the loop itself is ``trick_core.drivers.resample_hidden``).

The holders of hidden cards are the other active seats, then one pile: the skat, or in a simple game
seen by anybody but the declarer the declarer's discards (the simple game's declarer knows both and has
no pile). A seat that failed to follow the led effective suit holds none of it. In a simple game seen
from outside, the declarer's twelve cards are redrawn with the pile: two of them become the skat and the
recorded discards are rewritten to the pile's cards. A sample is kept only if every recorded action is
legal under it.
"""

from __future__ import annotations

import numpy as np

from schafkopf_env.trumps import EFFECTIVE_SUIT, EFFECTIVE_SUIT_MASK, NUM_CARDS
from trick_core.bits import bit, lowest_bit, nth_bit, popcount, uniform_below_modulo
from trick_core.drivers import RESAMPLING_PROTOCOL
from trick_core.jit import njit
from trick_core.layout import card_mask

from .layout import (
    HISTORY_CAPACITY,
    S_ACTIVE,
    S_CONTRACT,
    S_DEALER,
    S_DEALT_HANDS,
    S_DECLARER,
    S_DISCARDS,
    S_HANDS,
    S_HISTORY_ACTIONS,
    S_HISTORY_LENGTH,
    S_LEADER,
    S_NEXT,
    S_NUM_DISCARDS,
    S_PARAMS,
    S_PLAYED,
    S_SKAT,
    S_TRICK_CARDS,
    S_TRICK_LOG,
    S_TRICK_NUMBER,
    S_TRICK_SIZE,
    S_TRUMP,
    TRICK_LOG_ENTRY,
)
from .rules import apply_action, is_legal
from .state import start_from_masks
from .tables import CONTRACT_SIMPLE, DISCARD_ACTION_BASE, FULL_DECK, MAX_SEATS, NUM_ACTIVE, PARAMS_SIZE, SKAT_SIZE

__all__ = RESAMPLING_PROTOCOL
"""The resampling protocol of ``trick_core.drivers`` (re-exported by ``kernel``)."""

MAX_HOLDERS = NUM_ACTIVE + 1
"""Holders of hidden cards: the other active seats, then the skat or the simple game's discards."""
RESAMPLE_ATTEMPTS = 100
"""Samples tried before giving up (rejections are rare: a recorded action illegal under the sample)."""
DEAL_TRIES = 100
"""Tries of ``deal_with_constraints`` per sample."""
_CONTEXT_HOLDERS, _CONTEXT_HISTORY = range(2)


@njit
def _void_allowed_mask(state, seat):
    """Cards ``seat`` may still hold given the tricks: a player who did not follow the led (effective)
    suit holds none of it."""
    allowed = FULL_DECK
    trump = state[S_TRUMP]
    if trump < 0:
        return allowed
    for t in range(state[S_TRICK_NUMBER] + 1):
        if t < state[S_TRICK_NUMBER]:
            log = S_TRICK_LOG + t * TRICK_LOG_ENTRY
            size = NUM_ACTIVE
        else:
            log = S_TRICK_CARDS - 1  # so that the cards are at log + 1 + i, as in the trick log
            size = state[S_TRICK_SIZE]
        if size == 0:
            continue
        player = state[log] if t < state[S_TRICK_NUMBER] else state[S_LEADER]
        led_suit = EFFECTIVE_SUIT[trump, state[log + 1]]
        for i in range(size):
            if i > 0 and player == seat and EFFECTIVE_SUIT[trump, state[log + 1 + i]] != led_suit:
                allowed &= ~EFFECTIVE_SUIT_MASK[trump, led_suit]
            player = state[S_NEXT + player]
    return allowed


@njit
def _two_random_cards(mask, rng):
    first = nth_bit(mask, uniform_below_modulo(rng, popcount(mask)))
    rest = mask & ~bit(first)
    second = nth_bit(rest, uniform_below_modulo(rng, popcount(rest)))
    return bit(first) | bit(second)


@njit
def _replay(out_state, params, dealer, dealt, skat, history, length):
    """Start a hand from the given cards and replay ``history``; False if any action is illegal."""
    start_from_masks(out_state, params, dealer, dealt, skat)
    for i in range(length):
        if not is_legal(out_state, history[i]):
            return False
        apply_action(out_state, history[i])
    return True


@njit
def _knows_skat(state, seat):
    return state[S_CONTRACT] == CONTRACT_SIMPLE and seat == state[S_DECLARER]


@njit
def _holder_seats(state, seat, holders):
    """The seats of the holder rows in ``holders`` (-1 for the pile); returns the pile's row, or -1 when
    ``seat`` knows the skat (the simple game's declarer)."""
    holders[:] = -1
    k = 0
    for i in range(NUM_ACTIVE):
        other = state[S_ACTIVE + i]
        if other != seat:
            holders[k] = other
            k += 1
    return -1 if _knows_skat(state, seat) else k


@njit
def hidden_card_constraints(state, seat, counts, allowed, forced):
    """Per holder (``_holder_seats``): how many hidden cards it holds and which it may hold (voids shown);
    ``forced`` stays empty. Returns the cards hidden from ``seat``.

    Hidden from a seat: the other players' cards, the skat (from everybody in a solo and before the skat
    is taken; in a simple game the skat and the discards are known to the declarer only). For a simple
    game seen by someone else, the pile is the discards: the declarer's twelve cards are redrawn with them
    (``replay_sample``)."""
    simple = state[S_CONTRACT] == CONTRACT_SIMPLE
    played_all = np.uint64(0)
    for s in range(MAX_SEATS):
        played_all |= card_mask(state, S_PLAYED + s)
    known = played_all | card_mask(state, S_HANDS + seat)
    if _knows_skat(state, seat):
        known |= card_mask(state, S_DISCARDS)
    holders = np.empty(MAX_HOLDERS, dtype=np.int64)
    pile = _holder_seats(state, seat, holders)
    for k in range(MAX_HOLDERS):
        if holders[k] >= 0:
            counts[k] = popcount(card_mask(state, S_HANDS + holders[k]))
            allowed[k] = _void_allowed_mask(state, holders[k])
    if pile >= 0:
        counts[pile] = state[S_NUM_DISCARDS] if simple else SKAT_SIZE
        allowed[pile] = FULL_DECK
    return FULL_DECK & ~known


@njit
def resample_context(state, seat):
    """Row 0: the holder seats and (at ``MAX_HOLDERS``) the pile's row; row 1: the action history, whose
    discards a sample rewrites."""
    context = np.full((2, HISTORY_CAPACITY), -1, dtype=np.int64)
    context[_CONTEXT_HOLDERS, MAX_HOLDERS] = _holder_seats(state, seat, context[_CONTEXT_HOLDERS, :MAX_HOLDERS])
    length = state[S_HISTORY_LENGTH]
    context[_CONTEXT_HISTORY, :length] = state[S_HISTORY_ACTIONS : S_HISTORY_ACTIONS + length]
    return context


@njit
def replay_sample(state, seat, hands, rng, out_state, context):
    """Rebuild the deal from the sampled ``hands`` (per holder) and replay the history into ``out_state``;
    False if any action is illegal there. In a simple game seen from outside, two of the declarer's twelve
    cards are drawn as the skat and the rest of the pile becomes its discards."""
    declarer = state[S_DECLARER]
    simple = state[S_CONTRACT] == CONTRACT_SIMPLE
    holders = context[_CONTEXT_HOLDERS]
    pile = holders[MAX_HOLDERS]
    history = context[_CONTEXT_HISTORY]
    length = state[S_HISTORY_LENGTH]
    dealt = np.zeros(MAX_SEATS, dtype=np.uint64)
    for s in range(MAX_SEATS):
        dealt[s] = card_mask(state, S_DEALT_HANDS + s)
    for i in range(MAX_HOLDERS):
        if holders[i] >= 0:
            dealt[holders[i]] = hands[i] | card_mask(state, S_PLAYED + holders[i])
    skat = card_mask(state, S_SKAT)
    if pile >= 0 and not simple:
        skat = hands[pile]
    elif pile >= 0:
        # The declarer's twelve: what they hold and played, and the redrawn discards.
        twelve = dealt[declarer] | hands[pile]
        skat = _two_random_cards(twelve, rng)
        dealt[declarer] = twelve & ~skat
        discards = hands[pile]
        for i in range(length):
            if DISCARD_ACTION_BASE <= history[i] < DISCARD_ACTION_BASE + NUM_CARDS:
                card = lowest_bit(discards)
                history[i] = DISCARD_ACTION_BASE + card
                discards &= ~bit(card)
    return _replay(out_state, state[S_PARAMS : S_PARAMS + PARAMS_SIZE], state[S_DEALER], dealt, skat, history, length)
