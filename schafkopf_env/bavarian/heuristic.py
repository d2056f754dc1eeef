"""The playout policy of Bavarian Schafkopf: the club player's habits of ``schafkopf_env.card_play`` in
this game's state, for the ``pimc`` agent's playouts (``trick_core.drivers.compiled_search``; the
game-independent part of the policy is ``schafkopf_env.playout_policy``).

Bids: a Rufer with a base-game hand (``card_play.base_game_hand``), else pass; the called ace is of the
suit the declarer holds fewest of; the trump suit the one that makes the hand strongest; no knock, no double.
"""

from __future__ import annotations

import sys

from schafkopf_env.card_play import (
    SCRATCH_SIZE,  # noqa: F401  (the policy protocol of trick_core.drivers)
    base_game_or_pass,
    choose_card,
    fill_four_seat_scratch,
    mask_bits,
    random_set_index,
    strongest_trump,
    suit_count,
)
from schafkopf_env.playout_policy import compiled_policy
from schafkopf_env.trumps import CARD_POINTS
from trick_core.bits import ONE, lowest_bit, popcount
from trick_core.jit import njit

from . import kernel as bk

CARD_PHASE = bk.PHASE_PLAYING
"""The phase in which the seat to act plays a card (the protocol of ``schafkopf_env.playout_policy``)."""


@njit
def decision(state, hand, mask, rng):
    """Every action but a card: the bid, the called ace, the trump suit; never a knock or a double."""
    phase = state[bk.S_PHASE]
    if phase == bk.PHASE_BIDDING:
        return base_game_or_pass(hand, mask, bk.BID_ACTION_BASE + bk.RUFER, bk.BID_ACTION_BASE + bk.PASS)
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
    if phase == bk.PHASE_CONTRA_OFFER or phase == bk.PHASE_DOUBLING_ROUND:
        return bk.ACTION_NO_DOUBLE
    if phase == bk.PHASE_KLOPFEN:
        return bk.ACTION_NO_KNOCK
    return random_set_index(mask, 0, bk.NUM_ACTIONS, rng)


@njit
def fewest_points(legal):
    """The legal card worth the fewest card points (the lowest index among equals)."""
    best = -1
    cards = legal
    while cards:
        c = lowest_bit(cards)
        cards &= cards - ONE
        if best < 0 or CARD_POINTS[c] < CARD_POINTS[best]:
            best = c
    return best


@njit
def card(state, legal, scratch, me):
    """The heuristic card of ``me`` among the ``legal`` card bits (``card_play.choose_card``)."""
    if popcount(legal) == 1:
        return lowest_bit(legal)
    contract = state[bk.S_CONTRACT]
    if contract == bk.RAMSCH:  # everyone for itself: the card with the fewest points
        return fewest_points(legal)
    partner = state[bk.S_PARTNER] if contract == bk.RUFER else -1
    trick_cards = bk.S_TRICKS + state[bk.S_TRICK_NUMBER] * bk.TRICK_RECORD + 1
    size = state[bk.S_TRICK_SIZE]
    num_rest = fill_four_seat_scratch(state, bk.S_HANDS, trick_cards, size, me, state[bk.S_DECLARER], partner, scratch)
    tout = (contract == bk.WENZ_TOUT or contract == bk.SOLO_TOUT or contract == bk.GEIER_TOUT
            or contract == bk.FARBWENZ_TOUT)
    return choose_card(state[bk.S_TRUMP_KIND], legal, me, size, num_rest, 3, tout, scratch)


_POLICY = compiled_policy(sys.modules[__name__], bk)
choose_action = _POLICY.choose_action
"""The playout's action (the policy protocol of ``trick_core.drivers``; ``schafkopf_env.playout_policy``)."""
heuristic_action = _POLICY.heuristic_action
"""The action the playout policy takes in ``state`` (for tests and for stepping by hand)."""
