"""The playout policy of Bavarian Schafkopf: the club player's habits of ``schafkopf_env.card_play`` in
this game's state, for the ``pimc`` agent's playouts (``trick_core.drivers.compiled_search``).

Bids: a Rufer with a base-game hand (``card_play.base_game_hand``), else pass; the called ace is of the
suit the declarer holds fewest of; the trump suit the one that makes the hand strongest.
"""

from __future__ import annotations

import numpy as np

from schafkopf_env.card_play import (
    SCRATCH_SIZE,  # noqa: F401  (the policy protocol of trick_core.drivers)
    base_game_hand,
    choose_card,
    fill_four_seat_scratch,
    mask_bits,
    random_card_action,
    random_set_index,
    strongest_trump,
    suit_count,
)
from trick_core.bits import lowest_bit, popcount, uniform01
from trick_core.jit import inline_njit, njit

from . import kernel as bk


@inline_njit
def choose_action(state, mask, scratch, rng, epsilon):
    """The playout's action: a card straight from the legal card bits (most steps), else from ``mask``."""
    if state[bk.S_PHASE] == bk.PHASE_PLAYING:
        return _card_action(state, bk.legal_card_bits(state, state[bk.S_SEAT_TO_ACT]), scratch, rng, epsilon)
    bk.legal_action_mask(state, mask)
    return _decision(state, mask, scratch, rng, epsilon)


@inline_njit
def _card_action(state, legal, scratch, rng, epsilon):
    """The card action among the ``legal`` card bits: random with probability ``epsilon``, else heuristic."""
    if epsilon > 0.0 and uniform01(rng) < epsilon:
        return random_card_action(legal, bk.CARD_ACTION_BASE, rng)
    return bk.CARD_ACTION_BASE + _card(state, legal, scratch, state[bk.S_SEAT_TO_ACT])


@njit
def _decision(state, mask, scratch, rng, epsilon):
    phase = state[bk.S_PHASE]
    seat = state[bk.S_SEAT_TO_ACT]
    if phase == bk.PHASE_PLAYING:
        return _card_action(state, mask_bits(mask, bk.CARD_ACTION_BASE, 32), scratch, rng, epsilon)
    hand = np.uint64(state[bk.S_HANDS + seat])
    if phase == bk.PHASE_BIDDING:
        if mask[bk.BID_ACTION_BASE + bk.RUFER] != 0 and base_game_hand(hand):
            return bk.BID_ACTION_BASE + bk.RUFER
        return bk.BID_ACTION_BASE + bk.PASS
    if phase == bk.PHASE_CALLING:
        best = -1
        best_count = 99
        for i in range(3):
            if mask[bk.CALL_ACTION_BASE + i] != 0:
                count = suit_count(hand, bk.CALLABLE_SUITS[i])
                if count < best_count:
                    best, best_count = bk.CALL_ACTION_BASE + i, count
        return best
    if phase == bk.PHASE_TRUMP:
        return bk.TRUMP_ACTION_BASE + strongest_trump(hand, mask_bits(mask, bk.TRUMP_ACTION_BASE, 4), 0.0)
    return random_set_index(mask, 0, bk.NUM_ACTIONS, rng)


@njit
def _card(state, legal, scratch, me):
    if popcount(legal) == 1:
        return lowest_bit(legal)
    contract = state[bk.S_CONTRACT]
    partner = state[bk.S_PARTNER] if contract == bk.RUFER else -1
    trick_cards = bk.S_TRICKS + state[bk.S_TRICK_NUMBER] * bk.TRICK_RECORD + 1
    size = state[bk.S_TRICK_SIZE]
    num_rest = fill_four_seat_scratch(state, bk.S_HANDS, trick_cards, size, me, state[bk.S_DECLARER], partner, scratch)
    tout = contract == bk.WENZ_TOUT or contract == bk.SOLO_TOUT
    return choose_card(state[bk.S_TRUMP_KIND], legal, me, size, num_rest, 3, tout, scratch)


@njit
def heuristic_action(state, rng, epsilon):
    """The action the playout policy takes in ``state`` (for tests and for stepping by hand)."""
    mask = np.zeros(bk.NUM_ACTIONS, dtype=np.int8)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    bk.legal_action_mask(state, mask)
    return _decision(state, mask, scratch, rng, epsilon)
