"""The playout policy of Asserufen: the club player's habits of ``schafkopf_env.card_play`` in this game's
state, for the ``pimc`` agent's playouts (``trick_core.drivers.compiled_search``).

Bids: *hänge an* with a base-game hand (``card_play.base_game_hand``), else *weg*; the *hänge an* player
accepts *darf man?* holding a non-heart ace, else refuses; the called card is of the shortest suit the
declarer holds a plain card of; the trump suit the one that makes the hand strongest; never a double.
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
from trick_core.bits import ONE, ZERO, lowest_bit, popcount, uniform01
from trick_core.jit import inline_njit, njit

from . import kernel as ak

UNHELD_SUIT_KEY = 50
"""Sort key of a call in a suit the declarer holds no plain card of: after every suit it holds."""


@inline_njit
def choose_action(state, mask, scratch, rng, epsilon):
    """The playout's action: a card straight from the legal card bits (most steps), else from ``mask``."""
    if state[ak.S_PHASE] == ak.PHASE_PLAY:
        return _card_action(state, ak.legal_card_bits(state, state[ak.S_SEAT_TO_ACT]), scratch, rng, epsilon)
    ak.legal_action_mask(state, mask)
    return _decision(state, mask, scratch, rng, epsilon)


@inline_njit
def _card_action(state, legal, scratch, rng, epsilon):
    """The card action among the ``legal`` card bits: random with probability ``epsilon``, else heuristic."""
    if epsilon > 0.0 and uniform01(rng) < epsilon:
        return random_card_action(legal, ak.CARD_ACTION_BASE, rng)
    return ak.CARD_ACTION_BASE + _card(state, legal, scratch, state[ak.S_SEAT_TO_ACT])


@njit
def _decision(state, mask, scratch, rng, epsilon):
    phase = state[ak.S_PHASE]
    seat = state[ak.S_SEAT_TO_ACT]
    if phase == ak.PHASE_PLAY:
        return _card_action(state, mask_bits(mask, ak.CARD_ACTION_BASE, 32), scratch, rng, epsilon)
    hand = np.uint64(state[ak.S_HANDS + seat])
    if phase == ak.PHASE_BIDDING:
        if mask[ak.ACTION_HAENGE_AN] != 0 and base_game_hand(hand):
            return ak.ACTION_HAENGE_AN
        return ak.ACTION_WEG
    if phase == ak.PHASE_ANSWER:
        has_ace = (hand & ak.NON_TRUMP_ACES_MASK) != ZERO
        return ak.ACTION_ACCEPT if has_ace else ak.ACTION_REFUSE
    if phase == ak.PHASE_CALL:
        return _call(hand, mask)
    if phase == ak.PHASE_TRUMP:
        return _trump(hand, mask)
    if phase == ak.PHASE_OFFER or phase == ak.PHASE_ROUND:
        return ak.ACTION_NO_DOUBLE
    return random_set_index(mask, 0, ak.NUM_ACTIONS, rng)


@njit
def _call(hand, mask):
    """The legal call of the shortest suit the declarer holds a plain card of (else the first legal)."""
    best = -1
    best_key = 1 << 30
    for i in range(ak.NUM_CALL_ACTIONS):
        if mask[ak.CALL_ACTION_BASE + i] != 0:
            count = suit_count(hand, ak.CALL_CARDS[i] // 8)
            key = count if count > 0 else UNHELD_SUIT_KEY
            if key < best_key:
                best, best_key = ak.CALL_ACTION_BASE + i, key
    return best


@njit
def _trump(hand, mask):
    """The legal trump suit that makes ``hand`` strongest (``card_play.strongest_trump``)."""
    suits = ZERO
    for i in range(ak.NUM_TRUMP_ACTIONS):
        if mask[ak.TRUMP_ACTION_BASE + i] != 0:
            suits |= ONE << np.uint64(ak.TRUMP_ACTION_SUITS[i])
    suit = strongest_trump(hand, suits, 0.0)
    for i in range(ak.NUM_TRUMP_ACTIONS):
        if ak.TRUMP_ACTION_SUITS[i] == suit:
            return ak.TRUMP_ACTION_BASE + i
    return -1


@njit
def _card(state, legal, scratch, me):
    if popcount(legal) == 1:
        return lowest_bit(legal)
    contract = state[ak.S_CONTRACT]
    partner = state[ak.S_PARTNER] if contract == ak.CONTRACT_ACE_CALL else -1
    trick_cards = ak.S_TRICK_CARDS + state[ak.S_TRICK_NUMBER] * ak.NUM_SEATS
    size = state[ak.S_TRICK_SIZE]
    num_rest = fill_four_seat_scratch(state, ak.S_HANDS, trick_cards, size, me, state[ak.S_DECLARER], partner, scratch)
    du = contract == ak.CONTRACT_SOLO_DU or contract == ak.CONTRACT_HEART_SOLO_DU
    return choose_card(state[ak.S_TRUMP_KIND], legal, me, size, num_rest, 3, du, scratch)


@njit
def heuristic_action(state, rng, epsilon):
    """The action the playout policy takes in ``state`` (for tests and for stepping by hand)."""
    mask = np.zeros(ak.NUM_ACTIONS, dtype=np.int8)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    ak.legal_action_mask(state, mask)
    return _decision(state, mask, scratch, rng, epsilon)
