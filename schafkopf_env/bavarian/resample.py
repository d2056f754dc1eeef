"""What a seat of Bavarian Schafkopf knows about the cards it cannot see: the constraints and the replay
behind ``resample_hidden`` (the loop itself is ``trick_core.drivers.resample_hidden``).

The holders of hidden cards are the four seats (the observer's own row holds nothing). A seat that failed
to follow a suit holds none of it; the declarer never holds the ace it called, and once the holder of the
called ace is known to the observer nobody else holds it; in a Sie the declarer holds every Ober and Unter
(the six highest trumps in the short pack); the cards outside the pack are nobody's.
A sample is kept only if every recorded action (bids and calls included) is legal under it.
"""

from __future__ import annotations

import numpy as np

from schafkopf_env.trumps import EFFECTIVE_SUIT, EFFECTIVE_SUIT_MASK
from trick_core.bits import ONE, ZERO, bit, popcount
from trick_core.drivers import RESAMPLING_PROTOCOL
from trick_core.jit import inline_njit, njit, njit_no_refcount
from trick_core.layout import card_mask

from .doubling import in_card_play
from .layout import (
    S_CALLED_SUIT,
    S_CONTRACT,
    S_DEALER,
    S_DEALT_HANDS,
    S_DECLARER,
    S_FIRST_CARDS,
    S_HANDS,
    S_HISTORY_ACTIONS,
    S_HISTORY_LENGTH,
    S_PARAMS,
    S_PHASE,
    S_TRICK_NUMBER,
    S_TRICK_SIZE,
    S_TRICKS,
    S_TRUMP_KIND,
    TRICK_RECORD,
)
from .observe import partner_known_to
from .rules import apply, legal_action_bits
from .state import hand_size, pack_mask, sie_mask, start_from_masks
from .tables import (
    ACE_OF_SUIT,
    NUM_SEATS,
    NUM_TRICKS,
    PARAM_KLOPFEN,
    PARAMS_SIZE,
    PHASE_KLOPFEN,
    RUFER,
    SIE,
)

__all__ = RESAMPLING_PROTOCOL
"""The resampling protocol of ``trick_core.drivers`` (re-exported by ``kernel``)."""

MAX_HOLDERS = NUM_SEATS
RESAMPLE_ATTEMPTS = 1000
"""Samples tried before giving up (rejections are rare: a bid or call illegal under the sample)."""
DEAL_TRIES = 100
"""Tries of ``deal_with_constraints`` per sample."""


@inline_njit
def played_mask(state, seat):
    """Cards ``seat`` has played so far (public)."""
    return card_mask(state, S_DEALT_HANDS + seat) & ~card_mask(state, S_HANDS + seat)


@njit
def hidden_card_constraints(state, observer, counts, allowed, forced):
    """Fill, per seat ``s``, ``counts[s]`` (cards hidden from ``observer`` it holds) and ``allowed[s]``
    (the unseen cards it may hold as far as ``observer`` can tell from public play: shown voids, the
    revealed holder of the called ace, a Sie; the cards outside the pack are nobody's); ``forced`` stays
    empty. Returns the mask of cards ``observer`` cannot see."""
    klopfen = state[S_PHASE] == PHASE_KLOPFEN  # the observer has seen the first half of its hand only
    own = card_mask(state, S_FIRST_CARDS + observer) if klopfen else card_mask(state, S_HANDS + observer)
    unseen = pack_mask(state) & ~own
    for s in range(NUM_SEATS):
        unseen &= ~played_mask(state, s)
    for s in range(NUM_SEATS):
        held = popcount(card_mask(state, S_HANDS + s))
        allowed[s] = unseen if s != observer or klopfen else ZERO
        counts[s] = held if s != observer else held - popcount(own)
    kind = state[S_TRUMP_KIND]
    tricks_seen = state[S_TRICK_NUMBER] + (1 if in_card_play(state[S_PHASE]) else 0)
    for t in range(min(tricks_seen, NUM_TRICKS)):
        trick = S_TRICKS + t * TRICK_RECORD
        leader = state[trick]
        size = NUM_SEATS if t < state[S_TRICK_NUMBER] else state[S_TRICK_SIZE]
        if size == 0:
            continue
        led_suit = EFFECTIVE_SUIT[kind, state[trick + 1]]
        for i in range(1, size):
            if EFFECTIVE_SUIT[kind, state[trick + 1 + i]] != led_suit:  # failed to follow: void
                s = (leader + i) % NUM_SEATS
                allowed[s] &= ~EFFECTIVE_SUIT_MASK[kind, led_suit]
    if state[S_CONTRACT] == RUFER:
        ace = bit(ACE_OF_SUIT[state[S_CALLED_SUIT]])
        allowed[state[S_DECLARER]] &= ~ace  # a declarer never holds the ace it called
        partner = partner_known_to(state, observer)
        if partner >= 0:
            for s in range(NUM_SEATS):
                if s != partner:
                    allowed[s] &= ~ace
    if state[S_CONTRACT] == SIE:
        for s in range(NUM_SEATS):
            if s != state[S_DECLARER]:
                allowed[s] &= ~sie_mask(state)
    return unseen


@inline_njit
def lowest_cards(mask, count):
    """The ``count`` lowest-indexed cards of ``mask``."""
    out = ZERO
    for _ in range(count):
        low = mask & (ZERO - mask)
        out |= low
        mask &= ~low
    return out


@njit
def resample_context(state, observer):
    """Nothing to prepare: a sample is checked by replaying the history alone."""
    return np.zeros((0, 0), dtype=np.int64)


@njit_no_refcount
def legal_action_bits_called(state):
    """``legal_action_bits`` as a function that is called, not inlined (the replay is not hot)."""
    return legal_action_bits(state)


@njit_no_refcount
def apply_called(state, action):
    apply(state, action)


@njit
def replay_sample(state, observer, dealt, rng, out_state, context):
    """Complete the sample (the observer's own cards; every seat's played cards) in ``dealt`` and
    replay ``state``'s history from it into ``out_state``; False if any action is illegal there."""
    klopfen = state[S_PHASE] == PHASE_KLOPFEN
    for s in range(NUM_SEATS):
        current = dealt[s]
        if s == observer:
            current = card_mask(state, S_FIRST_CARDS + s) | dealt[s] if klopfen else card_mask(state, S_HANDS + s)
        dealt[s] = current | played_mask(state, s)
    start_from_masks(out_state, state[S_PARAMS : S_PARAMS + PARAMS_SIZE], state[S_DEALER], dealt)
    if state[S_PARAMS + PARAM_KLOPFEN]:  # the first cards: the observer's own, another seat's the lowest half
        half = hand_size(state) // 2
        for s in range(NUM_SEATS):
            first = card_mask(state, S_FIRST_CARDS + s) if s == observer else lowest_cards(dealt[s], half)
            out_state[S_FIRST_CARDS + s] = np.int64(first)
    for i in range(state[S_HISTORY_LENGTH]):
        action = state[S_HISTORY_ACTIONS + i]
        if ((legal_action_bits_called(out_state) >> np.uint64(action)) & ONE) == ZERO:
            return False
        apply_called(out_state, action)
    return True
