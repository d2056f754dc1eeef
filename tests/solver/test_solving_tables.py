"""The Schafkopf solve modules' card merging and table key (``schafkopf_env.solving``) against plain
walks over the pack written from their definitions: ``distinct_cards`` drops exactly the cards whose next
live card above (in their effective suit) is a legal, unpinned card of the same points, and
``relative_hands_key`` gives two positions one key exactly when their live cards read alike suit by suit
(points, holder, pinned) in trick-power order. Random card sets, many of them small (late in a hand, where
positions most often share a key)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from schafkopf_env import solving
from schafkopf_env.trumps import CARD_POINTS, EFFECTIVE_SUIT, NUM_CARDS, NUM_TRUMP_KINDS, TRICK_POWER

POWER_ORDER = solving.POWER_ORDER


def walked_distinct(kind: int, legal: int, live: int, pinned: int) -> int:
    """The merge by its definition: walk each suit from its highest card down; a legal, unpinned card of
    the same points as the legal card kept above it, with no other live card between, is dropped."""
    kept = legal
    previous = None
    group = None
    for card in POWER_ORDER[kind]:
        card = int(card)
        if EFFECTIVE_SUIT[kind, card] != group:
            group, previous = EFFECTIVE_SUIT[kind, card], None
        if legal >> card & 1 and not pinned >> card & 1:
            if previous is not None and CARD_POINTS[card] == CARD_POINTS[previous]:
                kept &= ~(1 << card)
            else:
                previous = card
        elif live >> card & 1:
            previous = None
    return kept


def read_hands(kind: int, hands: list[int], pinned: int) -> tuple:
    """The live cards suit by suit, highest first, each as (points, holder, pinned): what the key keeps."""
    live = 0
    for hand in hands:
        live |= hand
    suits = {}
    for card in POWER_ORDER[kind]:
        card = int(card)
        suit = suits.setdefault(int(EFFECTIVE_SUIT[kind, card]), [])
        if live >> card & 1:
            holder = next(s for s, hand in enumerate(hands) if hand >> card & 1)
            suit.append((int(CARD_POINTS[card]), holder, pinned >> card & 1))
    return tuple(tuple(cards) for _, cards in sorted(suits.items()))


def random_split(rng, live_count: int, seats: int) -> list[int]:
    """``live_count`` random cards dealt round the ``seats`` hands."""
    cards = rng.choice(NUM_CARDS, live_count, replace=False)
    hands = [0] * seats
    for i, card in enumerate(cards):
        hands[i % seats] |= 1 << int(card)
    return hands


def test_distinct_cards_drops_what_the_walk_drops():
    rng = np.random.default_rng(29)
    for _ in range(20000):
        kind = int(rng.integers(NUM_TRUMP_KINDS))
        live = int(rng.integers(2**32)) & int(rng.integers(2**32))
        legal = live & int(rng.integers(2**32))
        pinned = 1 << int(rng.integers(NUM_CARDS)) if rng.random() < 0.3 else 0
        args = (kind, np.uint64(legal), np.uint64(live), np.uint64(pinned))
        assert int(solving.distinct_cards(*args)) == walked_distinct(kind, legal, live, pinned), args


@pytest.mark.parametrize("seats", [3, 4])
def test_one_key_exactly_for_hands_that_read_alike(seats):
    rng = np.random.default_rng(seats)
    state = np.zeros(seats, dtype=np.int64)
    for kind in range(NUM_TRUMP_KINDS):
        keys = {}
        for _ in range(3000):
            hands = random_split(rng, seats * int(rng.integers(1, 3)), seats)
            pinned = 0
            if rng.random() < 0.3:
                pinned = 1 << int(rng.choice([c for c in range(NUM_CARDS) if hands[0] >> c & 1]))
            state[:] = hands
            key = int(solving.relative_hands_key(state, 0, seats, kind, np.uint64(pinned)))
            keys.setdefault(key, set()).add(read_hands(kind, hands, pinned))
        readings = [reading for group in keys.values() for reading in group]
        assert all(len(group) == 1 for group in keys.values())  # one key never holds two readings
        assert len(readings) == len(set(readings))  # nor one reading two keys
        assert len(readings) < 3000  # positions did share keys: the check compared something


def test_a_played_card_swapped_for_its_equal_live_neighbour_keeps_the_key():
    """Of two cards of one suit, adjacent in trick power and of the same points, which one is still live
    does not matter: the key is the same."""
    rng = np.random.default_rng(7)
    state = np.zeros(4, dtype=np.int64)
    swaps = 0
    for kind, (low, high) in itertools.product(range(NUM_TRUMP_KINDS), itertools.combinations(range(NUM_CARDS), 2)):
        neighbours = EFFECTIVE_SUIT[kind, low] == EFFECTIVE_SUIT[kind, high] and CARD_POINTS[low] == CARD_POINTS[high]
        if not neighbours or int(solving.BETWEEN[kind, min(low, high, key=lambda c: TRICK_POWER[kind, c]),
                                                  max(low, high, key=lambda c: TRICK_POWER[kind, c])]):
            continue
        others = [c for c in range(NUM_CARDS) if c not in (low, high)]
        hands = [0] * 4
        for i, card in enumerate(rng.choice(others, 11, replace=False)):
            hands[i % 4] |= 1 << int(card)
        holder = int(rng.integers(4))
        keys = []
        for live in (low, high):
            state[:] = hands
            state[holder] |= 1 << live
            keys.append(int(solving.relative_hands_key(state, 0, 4, kind, np.uint64(0))))
        assert keys[0] == keys[1], (kind, low, high)
        swaps += 1
    assert swaps > 50
