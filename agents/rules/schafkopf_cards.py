"""Card tables and bit-mask helpers the three rule-based Schafkopf players share (``agents.rules.schafkopf_common``).

Both 32-card packs share one layout (``trick_core.cards``): card ``suit * 8 + rank``, ranks
``A 10 K O/Q U/J 9 8 7``, and a hand is an int bit mask. The trump tables of ``schafkopf_env.trumps``
(trump kinds 0..3: Obers, Unters, then that suit; 4: Wenz; 5..8 Farbwenz, 9 Geier, 10 Bettel) are copied here as
plain Python tuples."""

from __future__ import annotations

from schafkopf_env.trumps import (
    CARD_POINTS,
    EFFECTIVE_SUIT,
    EFFECTIVE_SUIT_MASK,
    NUM_ALL_TRUMP_KINDS,
    NUM_TRUMPS,
    RANK_O,
    RANK_U,
    TRICK_POWER,
    TRUMP,
    TRUMP_FARBWENZ,
    TRUMP_GEIER,
    TRUMP_ORDER,
)

NUM_CARDS = 32
NUM_SUITS = 4
NUM_KINDS = NUM_ALL_TRUMP_KINDS
FULL_MASK = (1 << NUM_CARDS) - 1

# Python copies of the numpy rule tables (plain ints are much faster in this per-decision code).
POINTS = tuple(int(p) for p in CARD_POINTS)
EFFECTIVE = tuple(tuple(int(s) for s in row) for row in EFFECTIVE_SUIT)
POWER = tuple(tuple(int(p) for p in row) for row in TRICK_POWER)
SUIT_MASK = tuple(tuple(int(m) for m in row) for row in EFFECTIVE_SUIT_MASK)
TRUMP_MASK = tuple(row[TRUMP] for row in SUIT_MASK)
TRUMPS_HIGH_FIRST = tuple(tuple(int(c) for c in TRUMP_ORDER[k, : NUM_TRUMPS[k]]) for k in range(NUM_KINDS))
TRUMP_STRENGTH = tuple(
    {card: len(order) - 1 - i for i, card in enumerate(order)} for order in TRUMPS_HIGH_FIRST
)
"""``TRUMP_STRENGTH[kind][card]``: 0 for the lowest trump, up to 13 (Solo) or 3 (Wenz) for the top one."""


def _above_masks(kind: int) -> tuple[int, ...]:
    """Per card: the cards of the same effective suit that beat it."""
    out = []
    for card in range(NUM_CARDS):
        suit = EFFECTIVE[kind][card]
        higher = [
            c for c in range(NUM_CARDS) if EFFECTIVE[kind][c] == suit and POWER[kind][c] > POWER[kind][card]
        ]
        out.append(sum(1 << c for c in higher))
    return tuple(out)


ABOVE = tuple(_above_masks(k) for k in range(NUM_KINDS))
SUIT_PLAIN_CARDS = tuple(
    sum(1 << (s * 8 + r) for r in range(8) if r not in (RANK_O, RANK_U)) for s in range(NUM_SUITS)
)
"""The cards of each printed suit other than its Ober and Unter (Queen and Jack)."""


TRUMP_SUIT_OF_KIND = tuple(kind if kind < NUM_SUITS else kind - TRUMP_FARBWENZ if TRUMP_FARBWENZ <= kind < TRUMP_GEIER
                           else -1 for kind in range(NUM_KINDS))
"""The suit that is trump under each kind (-1: none, Wenz, Geier, Bettel)."""
PLAIN_SUITS = tuple(tuple(s for s in range(NUM_SUITS) if s != TRUMP_SUIT_OF_KIND[kind]) for kind in range(NUM_KINDS))
"""``PLAIN_SUITS[kind]``: the suits that are not trump under ``kind`` (all four in a Wenz, Geier, Bettel)."""


def cards_of(mask: int) -> list[int]:
    """Card indices of a bit mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def popcount(mask: int) -> int:
    return mask.bit_count()


def mask_of(indices) -> int:
    mask = 0
    for index in indices:
        mask |= 1 << index
    return mask


def first_or_none(indices) -> int | None:
    return indices[0] if indices else None


def pick_best(candidates, score, rng):
    """The candidate with the highest ``score``; ties are broken by the seeded ``rng``."""
    best, best_score = [], None
    for candidate in candidates:
        value = score(candidate)
        if best_score is None or value > best_score + 1e-9:
            best, best_score = [candidate], value
        elif abs(value - best_score) <= 1e-9:
            best.append(candidate)
    if len(best) == 1:
        return best[0]
    return best[int(rng.integers(len(best)))]
