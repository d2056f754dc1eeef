"""What the exact solver (``trick_core.solver``) shares across the three Schafkopf games: merging the
cards of one hand that are equivalent in what remains, so that the search tries only one of them.

Two cards of the seat to act are *equivalent* when they belong to the same effective suit, carry the same
card points and no card between them in trick power is still live (held by any seat, or lying in the
trick in progress): whichever of the two is played, every trick goes to the same side for the same
points, now and later. Cards that the rules treat apart (the called ace while its suit has not been led)
are never merged.
"""

from __future__ import annotations

import numpy as np

from schafkopf_env.trumps import (
    CARD_POINTS,
    EFFECTIVE_SUIT,
    NUM_CARDS,
    NUM_TRUMP_KINDS,
    NUM_TRUMPS,
    TRICK_POWER,
    TRUMP_ORDER,
)
from trick_core.jit import inline_njit


def _power_order() -> np.ndarray:
    """``POWER_ORDER[kind]``: every card, grouped by effective suit, each group from the highest trick
    power down."""
    order = np.zeros((NUM_TRUMP_KINDS, NUM_CARDS), dtype=np.int64)
    for kind in range(NUM_TRUMP_KINDS):
        cards = sorted(range(NUM_CARDS), key=lambda c: (EFFECTIVE_SUIT[kind, c], -TRICK_POWER[kind, c]))
        order[kind] = cards
    return order


POWER_ORDER = _power_order()


@inline_njit
def distinct_cards(kind, legal, live, pinned):
    """``legal`` with every card dropped that is equivalent (module docstring) to a higher card kept;
    ``live`` holds the cards still held by any seat or lying in the trick, ``pinned`` cards never
    merged."""
    kept = legal
    previous = -1
    group = -1
    for i in range(NUM_CARDS):
        card = POWER_ORDER[kind, i]
        if EFFECTIVE_SUIT[kind, card] != group:
            group = EFFECTIVE_SUIT[kind, card]
            previous = -1
        card_bit = np.uint64(1) << np.uint64(card)
        if (legal & card_bit) != np.uint64(0) and (pinned & card_bit) == np.uint64(0):
            if previous >= 0 and CARD_POINTS[card] == CARD_POINTS[previous]:
                kept &= ~card_bit
            else:
                previous = card
        elif (live & card_bit) != np.uint64(0):
            previous = -1
    return kept


@inline_njit
def trick_cards_mask(state, first_card_at, size):
    """The cards lying in the trick in progress (``size`` of them from ``state[first_card_at]``)."""
    cards = np.uint64(0)
    for i in range(size):
        cards |= np.uint64(1) << np.uint64(state[first_card_at + i])
    return cards


_KEY_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_KEY_MIX_2 = np.uint64(0x94D049BB133111EB)
_KEY_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@inline_njit
def _key_mix(h, value):
    """One step of ``relative_hands_key``: splitmix64's finaliser over ``h`` and ``value``."""
    z = (h ^ np.uint64(value)) + _KEY_GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _KEY_MIX_1
    z = (z ^ (z >> np.uint64(27))) * _KEY_MIX_2
    return z ^ (z >> np.uint64(31))


def _point_codes() -> np.ndarray:
    """``POINT_CODE[card]``: the card's points as a small number (its rank among the point values)."""
    values = sorted(set(int(p) for p in CARD_POINTS))
    return np.array([values.index(int(p)) for p in CARD_POINTS], dtype=np.int64)


POINT_CODE = _point_codes()
_GROUP_END = np.uint64(63)
"""The token closing an effective suit in ``relative_hands_key`` (no card's token is as high)."""


@inline_njit
def relative_hands_key(state, hands_at, seats, kind, pinned):
    """A 64-bit key of the hands ``state[hands_at:hands_at + seats]`` (at most four) at a trick boundary
    that forgets which cards are already played: per effective suit, its live cards in trick-power order,
    each as (card points, holder, whether ``pinned``), six bits a card packed nine or ten to a word. Two
    positions with the same key play alike card for card (a card's power relative to the live cards of
    its suit, its points and its holder are all that the tricks still to come depend on), so the
    solver's table shares one entry between them."""
    odd_seat = np.uint64(0)  # holder bit 0
    high_seat = np.uint64(0)  # holder bit 1
    live = np.uint64(0)
    for s in range(seats):
        hand = np.uint64(state[hands_at + s])
        live |= hand
        if s & 1:
            odd_seat |= hand
        if s & 2:
            high_seat |= hand
    h = np.uint64(seats)
    word = np.uint64(0)
    packed = 0
    group = EFFECTIVE_SUIT[kind, POWER_ORDER[kind, 0]]
    for i in range(NUM_CARDS):
        if packed >= 9:  # room for two more tokens in 60 bits; the count marks where a word ends
            h = _key_mix(h, word ^ (np.uint64(packed) << np.uint64(60)))
            word = np.uint64(0)
            packed = 0
        card = POWER_ORDER[kind, i]
        if EFFECTIVE_SUIT[kind, card] != group:
            group = EFFECTIVE_SUIT[kind, card]
            word = (word << np.uint64(6)) | _GROUP_END
            packed += 1
        shift = np.uint64(card)
        if (live >> shift) & np.uint64(1):
            token = (np.uint64(POINT_CODE[card]) << np.uint64(3)) | ((pinned >> shift) & np.uint64(1))
            token |= ((high_seat >> shift) & np.uint64(1)) << np.uint64(2)
            token |= ((odd_seat >> shift) & np.uint64(1)) << np.uint64(1)
            word = (word << np.uint64(6)) | token
            packed += 1
    return _key_mix(h, word ^ (np.uint64(packed) << np.uint64(60)))


@inline_njit
def sure_trump_points(kind, side_cards, live):
    """The card points a side is sure to take at a trick boundary, and whether it is sure of a trick:
    the live trumps from the highest down while ``side_cards`` hold them (each can be beaten only by a
    higher one, of the same side), whoever leads and however the rest is played (a hand that ends early
    takes the other side fewer points still). ``live``: every card still held."""
    points = 0
    held = 0
    for i in range(NUM_TRUMPS[kind]):
        card_bit = np.uint64(1) << np.uint64(TRUMP_ORDER[kind, i])
        if (live & card_bit) == np.uint64(0):
            continue
        if (side_cards & card_bit) == np.uint64(0):
            break
        points += CARD_POINTS[TRUMP_ORDER[kind, i]]
        held += 1
    return points, 1 if held > 0 else 0
