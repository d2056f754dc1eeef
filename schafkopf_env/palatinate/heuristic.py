"""The playout policy of Palatinate Schafkopf: the club player's habits of ``schafkopf_env.card_play`` in
this game's state, for the ``pimc`` agent's playouts (``trick_core.drivers.compiled_search``).

Bids: ``pass`` in round one; in round two ``simple`` when the best trump suit (hearts +``HEARTS_BONUS``)
makes the hand as strong as the rule-based players require (``SIMPLE_GAME_STRENGTH``), so that passing at
the root is valued knowing another seat may then play. A simple-game declarer discards unguarded tens,
Kings and small cards of short suits, never an ace, a Queen or a Jack while it has another card
(``DISCARD_PREFERENCE``), and names the trump suit that makes its hand strongest. ``no_schenken``,
``accept`` an offer, ``no_double``.
"""

from __future__ import annotations

import numpy as np

from schafkopf_env import card_play
from schafkopf_env.card_play import SCRATCH_SIZE  # the policy protocol of trick_core.drivers
from schafkopf_env.trumps import HEARTS
from trick_core.bits import ONE, ZERO, lowest_bit, popcount, uniform01
from trick_core.jit import inline_njit, njit

from . import kernel as pk


@inline_njit
def choose_action(state, mask, scratch, rng, epsilon):
    """The playout's action: a card straight from the legal card bits (most steps), else a decision taken
    from ``mask``."""
    seat = state[pk.S_SEAT_TO_ACT]
    if state[pk.S_PHASE] != pk.PHASE_PLAY:
        pk.legal_action_mask(state, mask)
        return _decision(state, seat, mask, rng)
    legal = pk.legal_card_bits(state, seat)
    if epsilon > 0.0 and uniform01(rng) < epsilon:  # explore: a uniformly random legal card
        return card_play.random_card_action(legal, pk.CARD_ACTION_BASE, rng)
    return pk.CARD_ACTION_BASE + _card(state, legal, scratch, seat)


@njit
def _decision(state, seat, mask, rng):
    """Every decision other than a card play (module docstring)."""
    phase = state[pk.S_PHASE]
    hand = np.uint64(state[pk.S_HANDS + seat])
    if phase == pk.PHASE_BID_TWO:
        return pk.ACTION_SIMPLE if _wants_simple_game(hand) else pk.ACTION_PASS
    if phase == pk.PHASE_BID_ONE:
        return pk.ACTION_PASS
    if phase == pk.PHASE_TRUMP:
        suits = card_play.mask_bits(mask, pk.TRUMP_ACTION_BASE, 4)
        return pk.TRUMP_ACTION_BASE + card_play.strongest_trump(hand, suits, card_play.HEARTS_BONUS)
    if phase == pk.PHASE_DISCARD:
        return pk.DISCARD_ACTION_BASE + _discard(hand)
    if phase == pk.PHASE_SCHENKEN:
        return pk.ACTION_NO_SCHENKEN
    if phase == pk.PHASE_SCHENKEN_ANSWER:
        return pk.ACTION_ACCEPT
    if phase == pk.PHASE_CONTRA_OFFER or phase == pk.PHASE_DOUBLING:
        return pk.ACTION_NO_DOUBLE
    return card_play.random_set_index(mask, 0, pk.NUM_ACTIONS, rng)


@njit
def _wants_simple_game(hand):
    """Round two: the best trump suit (hearts +``HEARTS_BONUS``, being worth a point more) is as strong as
    ``SIMPLE_GAME_STRENGTH``."""
    best = 0.0
    for suit in range(4):
        bonus = card_play.HEARTS_BONUS if suit == HEARTS else 0.0
        best = max(best, card_play.suit_game_strength(hand, suit) + bonus)
    return best >= card_play.SIMPLE_GAME_STRENGTH


DISCARD_PREFERENCE = np.array([-50, 60, 30, 0, 0, 20, 20, 20], dtype=np.int64)
"""By rank (A 10 K Q J 9 8 7): how gladly a simple-game declarer lays a card away. A ten is banked (unless
its ace guards it), a King next, small cards to make a suit void; aces win tricks of their own."""


@njit
def _discard(hand):
    """The card a simple-game declarer lays away (``DISCARD_PREFERENCE``, short suits first); never a
    Queen or Jack while another card is left."""
    best = -1
    best_key = -(1 << 30)
    cards = hand & ~card_play.OU_MASK
    if cards == ZERO:
        cards = hand
    while cards != ZERO:
        card = lowest_bit(cards)
        cards &= cards - ONE
        suit, rank = card // 8, card % 8
        key = DISCARD_PREFERENCE[rank] - 5 * card_play.suit_count(hand, suit)
        if rank == 1 and (hand >> np.uint64(suit * 8)) & ONE:
            key = 10 - 5 * card_play.suit_count(hand, suit)  # a ten beside its ace is safe: keep it
        if key > best_key:
            best, best_key = card, key
    return best


@njit
def _card(state, legal, scratch, me):
    """The heuristic card (``card_play.choose_card``) with the scratch filled for three active seats: the
    sitting-out dealer has no team and is never among the seats to play."""
    if popcount(legal) == 1:
        return lowest_bit(legal)
    declarer = state[pk.S_DECLARER]
    for seat in range(4):
        scratch[card_play.X_HANDS + seat] = state[pk.S_HANDS + seat]
        scratch[card_play.X_TEAM + seat] = -1
    for i in range(pk.NUM_ACTIVE):
        seat = state[pk.S_ACTIVE + i]
        scratch[card_play.X_TEAM + seat] = 1 if seat == declarer else 0
    size = state[pk.S_TRICK_SIZE]
    for i in range(size):
        scratch[card_play.X_TRICK_CARDS + i] = state[pk.S_TRICK_CARDS + i]
    num_rest = pk.NUM_ACTIVE - size - 1
    seat = me
    for i in range(pk.NUM_ACTIVE - 1):
        seat = state[pk.S_NEXT + seat]
        scratch[card_play.X_OTHERS + i] = seat
        if i < num_rest:
            scratch[card_play.X_REST_SEATS + i] = seat
    du = state[pk.S_CONTRACT] >= pk.CONTRACT_SOLO_DU
    return card_play.choose_card(state[pk.S_TRUMP], legal, me, size, num_rest, pk.NUM_ACTIVE - 1, du, scratch)


@njit
def heuristic_action(state, rng, epsilon):
    """The action the playout policy takes in ``state`` (for tests and for stepping by hand)."""
    mask = np.zeros(pk.NUM_ACTIONS, dtype=np.int8)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    return choose_action(state, mask, scratch, rng, epsilon)
