"""The playout policy of Asserufen: the club player's habits of ``schafkopf_env.card_play`` in this game's
state, for the ``pimc`` agent's playouts (``trick_core.drivers.compiled_search``; the game-independent
part of the policy is ``schafkopf_env.playout_policy``).

Bids: *hänge an* with a base-game hand (``card_play.base_game_hand``), else *weg*; the *hänge an* player
accepts *darf man?* holding a non-heart ace, else refuses; the called card is of the shortest suit the
declarer holds a plain card of; the trump suit the one that makes the hand strongest; never a double.
"""

from __future__ import annotations

import sys

import numpy as np

from schafkopf_env.card_play import (
    SCRATCH_SIZE,  # noqa: F401  (the policy protocol of trick_core.drivers)
    base_game_or_pass,
    choose_card,
    fill_four_seat_scratch,
    random_set_index,
    strongest_trump,
    suit_count,
)
from schafkopf_env.playout_policy import compiled_policy
from trick_core.bits import ONE, ZERO, lowest_bit, popcount
from trick_core.jit import njit

from . import kernel

UNHELD_SUIT_KEY = 50
"""Sort key of a call in a suit the declarer holds no plain card of: after every suit it holds."""


CARD_PHASE = kernel.PHASE_PLAY
"""The phase in which the seat to act plays a card (the protocol of ``schafkopf_env.playout_policy``)."""


@njit
def decision(state, hand, mask, rng):
    """Every action but a card: the bid, the answer to darf man, the call, the trump suit, no double."""
    phase = state[kernel.S_PHASE]
    if phase == kernel.PHASE_BIDDING:
        return base_game_or_pass(hand, mask, kernel.ACTION_HAENGE_AN, kernel.ACTION_WEG)
    if phase == kernel.PHASE_ANSWER:
        has_ace = (hand & kernel.NON_TRUMP_ACES_MASK) != ZERO
        return kernel.ACTION_ACCEPT if has_ace else kernel.ACTION_REFUSE
    if phase == kernel.PHASE_CALL:
        return _call(hand, mask)
    if phase == kernel.PHASE_TRUMP:
        return _trump(hand, mask)
    if phase == kernel.PHASE_OFFER or phase == kernel.PHASE_ROUND:
        return kernel.ACTION_NO_DOUBLE
    return random_set_index(mask, 0, kernel.NUM_ACTIONS, rng)


@njit
def _call(hand, mask):
    """The legal call of the shortest suit the declarer holds a plain card of (else the first legal)."""
    best = -1
    best_key = 1 << 30
    for i in range(kernel.NUM_CALL_ACTIONS):
        if mask[kernel.CALL_ACTION_BASE + i] != 0:
            count = suit_count(hand, kernel.CALL_CARDS[i] // 8)
            key = count if count > 0 else UNHELD_SUIT_KEY
            if key < best_key:
                best, best_key = kernel.CALL_ACTION_BASE + i, key
    return best


@njit
def _trump(hand, mask):
    """The legal trump suit that makes ``hand`` strongest (``card_play.strongest_trump``)."""
    suits = ZERO
    for i in range(kernel.NUM_TRUMP_ACTIONS):
        if mask[kernel.TRUMP_ACTION_BASE + i] != 0:
            suits |= ONE << np.uint64(kernel.TRUMP_ACTION_SUITS[i])
    suit = strongest_trump(hand, suits, 0.0)
    for i in range(kernel.NUM_TRUMP_ACTIONS):
        if kernel.TRUMP_ACTION_SUITS[i] == suit:
            return kernel.TRUMP_ACTION_BASE + i
    return -1


@njit
def card(state, legal, scratch, me):
    """The heuristic card of ``me`` among the ``legal`` card bits (``card_play.choose_card``; every hand
    is known in a playout, and so is the partner)."""
    if popcount(legal) == 1:
        return lowest_bit(legal)
    contract = state[kernel.S_CONTRACT]
    partner = state[kernel.S_PARTNER] if contract == kernel.CONTRACT_ACE_CALL else -1
    trick_cards = kernel.S_TRICK_CARDS + state[kernel.S_TRICK_NUMBER] * kernel.NUM_SEATS
    size = state[kernel.S_TRICK_SIZE]
    declarer = state[kernel.S_DECLARER]
    num_rest = fill_four_seat_scratch(state, kernel.S_HANDS, trick_cards, size, me, declarer, partner, scratch)
    du = contract == kernel.CONTRACT_SOLO_DU or contract == kernel.CONTRACT_HEART_SOLO_DU
    return choose_card(state[kernel.S_TRUMP_KIND], legal, me, size, num_rest, 3, du, scratch)


_POLICY = compiled_policy(sys.modules[__name__], kernel)
choose_action = _POLICY.choose_action
"""The playout's action (the policy protocol of ``trick_core.drivers``; ``schafkopf_env.playout_policy``)."""
heuristic_action = _POLICY.heuristic_action
"""The action the playout policy takes in ``state`` (for tests and for stepping by hand)."""
