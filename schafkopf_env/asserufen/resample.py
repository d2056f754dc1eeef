"""What a seat of Asserufen knows about the cards it cannot see: the constraints and the replay behind
``resample_hidden`` (the loop itself is ``trick_core.drivers.resample_hidden``).

The holders of hidden cards are the four seats (the observer's own row holds nothing). A seat that failed
to follow a suit holds none of it. In an ace-call game the declarer never holds the called card, and while
the partner is hidden neither does anyone who doubled (a doubler is an opponent then); once the partner is
public it must hold the called card. A called ten means the declarer holds all three aces, a called King
the tens too: those the observer cannot see are *forced* into the declarer's hand. A sample is kept only
if every recorded action is taken by the same seat and legal under it (bids, calls and doubles included).
Rules: ``docs/rules/palatinate_schafkopf.md#engine-model-asserufen_v0`` (decision A12).
"""

from __future__ import annotations

import numpy as np

from schafkopf_env.trumps import EFFECTIVE_SUIT_MASK, RANK_A, RANK_K, TRUMP
from trick_core.bits import ZERO, bit, has_card, popcount
from trick_core.drivers import RESAMPLING_PROTOCOL
from trick_core.jit import inline_njit, njit, njit_no_refcount
from trick_core.layout import card_mask

from .layout import (
    S_CALLED_CARD,
    S_CONTRACT,
    S_DEALER,
    S_DEALT_HANDS,
    S_DECLARER,
    S_DOUBLERS,
    S_DOUBLINGS,
    S_HANDS,
    S_HISTORY_ACTIONS,
    S_HISTORY_LENGTH,
    S_HISTORY_SEATS,
    S_PARAMS,
    S_PARTNER,
    S_PARTNER_KNOWN,
    S_PLAYED_BY,
    S_SEAT_TO_ACT,
    S_TRUMP_KIND,
    S_VOID_SUITS,
)
from .rules import apply, is_legal
from .state import start_from_masks
from .tables import (
    CONTRACT_ACE_CALL,
    FULL_MASK,
    NON_TRUMP_ACES_MASK,
    NON_TRUMP_TENS_MASK,
    NUM_SEATS,
    PARAMS_SIZE,
)

__all__ = RESAMPLING_PROTOCOL
"""The resampling protocol of ``trick_core.drivers`` (re-exported by ``kernel``)."""

MAX_HOLDERS = NUM_SEATS
RESAMPLE_ATTEMPTS = 4000
"""Samples tried before giving up (rejections: an action illegal or out of turn under the sample)."""
DEAL_TRIES = 16
"""Tries of ``deal_with_constraints`` per sample."""


@inline_njit
def void_cards(state, seat):
    """Cards ``seat`` cannot hold: those of every effective suit it has failed to follow."""
    voids = state[S_VOID_SUITS + seat]
    mask = ZERO
    if state[S_TRUMP_KIND] < 0:
        return mask
    for suit in range(TRUMP + 1):
        if voids >> suit & 1:
            mask |= EFFECTIVE_SUIT_MASK[state[S_TRUMP_KIND], suit]
    return mask


@njit
def called_card_constraints(state, viewer, unknown, allowed, forced):
    """What ``viewer`` knows about the called card and the declarer's hand in an ace-call game."""
    if state[S_CONTRACT] != CONTRACT_ACE_CALL or state[S_CALLED_CARD] < 0:
        return
    declarer = state[S_DECLARER]
    called = state[S_CALLED_CARD]
    if viewer != declarer:
        # A ten is called only holding all three aces; a King, holding the tens too.
        if called % 8 != RANK_A:
            forced[declarer] |= NON_TRUMP_ACES_MASK & unknown
        if called % 8 == RANK_K:
            forced[declarer] |= NON_TRUMP_TENS_MASK & unknown
    if not has_card(unknown, called):
        return
    if state[S_PARTNER_KNOWN] == 1:
        forced[state[S_PARTNER]] |= bit(called)
        return
    allowed[declarer] &= ~bit(called)
    for k in range(state[S_DOUBLINGS]):
        allowed[state[S_DOUBLERS + k]] &= ~bit(called)  # doublers are opponents while the partner is hidden


@njit
def hidden_card_constraints(state, viewer, counts, allowed, forced):
    """Per seat: how many hidden cards it holds, which it may hold (voids shown, the called card's
    rules, doublings) and which it must hold (a revealed partner's called card; the aces or tens a
    ten or King call implies); returns the cards ``viewer`` cannot see."""
    unknown = FULL_MASK & ~card_mask(state, S_HANDS + viewer)
    for seat in range(NUM_SEATS):
        unknown &= ~card_mask(state, S_PLAYED_BY + seat)
    for seat in range(NUM_SEATS):
        if seat != viewer:
            counts[seat] = popcount(card_mask(state, S_HANDS + seat))
            allowed[seat] = unknown & ~void_cards(state, seat)
    called_card_constraints(state, viewer, unknown, allowed, forced)
    return unknown


@njit
def resample_context(state, viewer):
    """Nothing to prepare: a sample is checked by replaying the history alone."""
    return np.zeros((0, 0), dtype=np.int64)


@njit_no_refcount
def is_legal_called(state, action):
    """``is_legal`` as a function that is called, not inlined (the replay is not hot)."""
    return is_legal(state, action)


@njit_no_refcount
def apply_called(state, action):
    apply(state, action)


@njit_no_refcount
def replay_history(state, hand_masks, out_state):
    """Start ``out_state`` from ``hand_masks`` and replay ``state``'s history; False at the first action
    that is out of turn or illegal there."""
    start_from_masks(out_state, state[S_PARAMS : S_PARAMS + PARAMS_SIZE], state[S_DEALER], hand_masks)
    for i in range(state[S_HISTORY_LENGTH]):
        action = state[S_HISTORY_ACTIONS + i]
        if out_state[S_SEAT_TO_ACT] != state[S_HISTORY_SEATS + i] or not is_legal_called(out_state, action):
            return False
        apply_called(out_state, action)
    return True


@njit
def replay_sample(state, viewer, hand_masks, rng, out_state, context):
    """Complete the sample (the viewer's dealt hand, every seat's played cards) and replay the history
    into ``out_state``; False at the first action that is out of turn or illegal there."""
    for seat in range(NUM_SEATS):
        if seat == viewer:
            hand_masks[seat] = card_mask(state, S_DEALT_HANDS + seat)
        else:
            hand_masks[seat] |= card_mask(state, S_PLAYED_BY + seat)
    return replay_history(state, hand_masks, out_state)
