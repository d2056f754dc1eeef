"""What the exact solver (``trick_core.solver``) shares across the three Schafkopf games: merging the
cards of one hand that are equivalent in what remains, so that the search tries only one of them, and the
pieces of each game's solve module that differ only in state offsets, seat count, the declarer side's seats
(a bitmask) and the trump kind (``score_bounds``, ``class_values``, ``live_distinct``, ``power_first``...),
which each game calls with its own; ``card_action`` and ``extra_action`` are imported as they are.

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
    NUM_ALL_TRUMP_KINDS,
    NUM_CARDS,
    NUM_TRUMPS,
    TRICK_POWER,
    TRUMP_ORDER,
)
from trick_core.bits import lowest_bit, popcount
from trick_core.jit import inline_njit


def _power_order() -> np.ndarray:
    """``POWER_ORDER[kind]``: every card, grouped by effective suit, each group from the highest trick
    power down; every trump kind of ``schafkopf_env.trumps`` (Bavarian's Farbwenz, Geier and Bettel too)."""
    order = np.zeros((NUM_ALL_TRUMP_KINDS, NUM_CARDS), dtype=np.int64)
    for kind in range(NUM_ALL_TRUMP_KINDS):
        cards = sorted(range(NUM_CARDS), key=lambda c: (EFFECTIVE_SUIT[kind, c], -TRICK_POWER[kind, c]))
        order[kind] = cards
    return order


POWER_ORDER = _power_order()


def _merge_tables() -> tuple[np.ndarray, np.ndarray]:
    """``SAME_CLASS_ABOVE[kind, card]``: the cards of ``card``'s effective suit with its points and more
    trick power; ``BETWEEN[kind, low, high]``: the cards of their effective suit strictly between the two
    in trick power (``distinct_cards``)."""
    same_class_above = np.zeros((NUM_ALL_TRUMP_KINDS, NUM_CARDS), dtype=np.uint64)
    between = np.zeros((NUM_ALL_TRUMP_KINDS, NUM_CARDS, NUM_CARDS), dtype=np.uint64)
    for kind in range(NUM_ALL_TRUMP_KINDS):
        suit, power = EFFECTIVE_SUIT[kind], TRICK_POWER[kind]
        for low in range(NUM_CARDS):
            for high in range(NUM_CARDS):
                if suit[high] != suit[low] or power[high] <= power[low]:
                    continue
                if CARD_POINTS[high] == CARD_POINTS[low]:
                    same_class_above[kind, low] |= np.uint64(1 << high)
                for card in range(NUM_CARDS):
                    if suit[card] == suit[low] and power[low] < power[card] < power[high]:
                        between[kind, low, high] |= np.uint64(1 << card)
    return same_class_above, between


SAME_CLASS_ABOVE, BETWEEN = _merge_tables()


@inline_njit
def distinct_cards(kind, legal, live, pinned):
    """``legal`` with every card dropped that is equivalent (module docstring) to a higher card kept;
    ``live`` holds the cards still held by any seat or lying in the trick, ``pinned`` cards never
    merged. A card goes where the next live card above it in its effective suit is a legal card of the
    same points, not pinned (``BETWEEN`` empty of live cards): a chain of such cards keeps its highest.
    Over the legal cards only, so it costs a few steps where a walk over the pack costs 32."""
    mergeable = legal & ~pinned
    kept = legal
    rest = mergeable
    while rest != np.uint64(0):
        card = lowest_bit(rest)
        rest &= rest - np.uint64(1)
        above = mergeable & SAME_CLASS_ABOVE[kind, card]
        while above != np.uint64(0):
            higher = lowest_bit(above)
            above &= above - np.uint64(1)
            if (live & BETWEEN[kind, card, higher]) == np.uint64(0):
                kept &= ~(np.uint64(1) << np.uint64(card))
                break
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
def key_mix(h, value):
    """One step of a table key (``relative_hands_key``, the lean search's ``boundary_key``): splitmix64's
    finaliser over ``h`` and ``value``."""
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
            h = key_mix(h, word ^ (np.uint64(packed) << np.uint64(60)))
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
    return key_mix(h, word ^ (np.uint64(packed) << np.uint64(60)))


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


@inline_njit
def sure_side_score(state, hands_at, seats, side, kind, per_point):
    """``per_point`` x the card points + the trick that the seats in the bitmask ``side`` are sure of at a
    trick boundary from their top trumps (``sure_trump_points``): a lower bound on what the rest of the
    hand adds to their score, where the hand cannot end early (a Tout or Du stops at a lost trick, before
    those trumps are played)."""
    own = np.uint64(0)
    live = np.uint64(0)
    for s in range(seats):
        live |= np.uint64(state[hands_at + s])
        if (side >> s) & 1:
            own |= np.uint64(state[hands_at + s])
    points, trick = sure_trump_points(kind, own, live)
    return float(per_point * points + trick)


@inline_njit
def card_action(card):
    """The action that plays ``card`` where card actions are numbered as the cards (Bavarian, Palatinate)."""
    return card


@inline_njit
def searched_tricks(state, exact_tricks):
    """A game's ``searched_tricks`` where no hand is capped (Palatinate, Asserufen): every trick asked is
    solved exactly."""
    return exact_tricks


@inline_njit
def extra_action(state):
    """The card play has no other searched choice (every game's ``extra_action``)."""
    return -1


@inline_njit
def lone_card(cards):
    """The only card of ``cards``, or -1 where there are several (``first_card`` then asks the policy)."""
    return lowest_bit(cards) if popcount(cards) == 1 else -1


@inline_njit
def power_first(kind, card):
    """Every game's ``card_order``: high cards first (trick power, then points)."""
    return TRICK_POWER[kind, card] * 16 + CARD_POINTS[card]


@inline_njit
def pinned_card(kept_apart, card):
    """``card`` as a bit where ``kept_apart`` (a called card whose suit has not been led), else none."""
    return np.uint64(1) << np.uint64(card) if kept_apart else np.uint64(0)


@inline_njit
def live_distinct(state, cards, kind, trick_at, trick_size, hands_at, seats, pinned):
    """``distinct_cards`` with the live cards read from the state: the trick in progress (``trick_size``
    cards from ``state[trick_at]``) and the ``seats`` hands from ``state[hands_at]``."""
    live = trick_cards_mask(state, trick_at, trick_size)
    for s in range(seats):
        live |= np.uint64(state[hands_at + s])
    return distinct_cards(kind, cards, live, pinned)


@inline_njit
def side_seats(declarer, partner, partnered):
    """The declarer side's seats as a bitmask: the declarer, and ``partner`` where ``partnered``."""
    seats = 1 << declarer
    if partnered and partner >= 0:
        seats |= 1 << partner
    return seats


@inline_njit
def points_out(state, points_at, seats, total):
    """The card points not yet taken: ``total`` less the ``seats`` counts from ``state[points_at]``."""
    out = total
    for s in range(seats):
        out -= state[points_at + s]
    return out


@inline_njit
def score_bounds(state, now, out, tricks_left, per_point, hands_at, seats, side, kind, cut_top_trumps):
    """A game's ``value_bounds``: from the score ``now``, the declarer's side takes none or all of the
    ``out`` points and ``tricks_left`` tricks (scored ``per_point`` x points + tricks); where
    ``cut_top_trumps`` (a trick boundary), less the points and trick the other side (seats not in the
    bitmask ``side``) is sure of from its top trumps (``sure_trump_points``)."""
    lost_points = 0
    lost_trick = 0
    if cut_top_trumps:
        others = np.uint64(0)
        live = np.uint64(0)
        for s in range(seats):
            live |= np.uint64(state[hands_at + s])
            if not (side >> s) & 1:
                others |= np.uint64(state[hands_at + s])
        lost_points, lost_trick = sure_trump_points(kind, others, live)
    rest = per_point * (out - lost_points) + tricks_left - lost_trick
    return now, now + float(rest)


@inline_njit
def side_bounds(state, now, out, tricks_left, per_point, hands_at, seats, side, kind, boundary, may_end_early):
    """A four-seat game's ``value_bounds``: ``score_bounds`` (the other side's top trumps cut at a trick
    ``boundary``), and at a boundary, unless the hand ``may_end_early`` (a Tout or Du stops at a lost trick),
    the lowest raised by what the declarer's side is sure of from its own top trumps (``sure_side_score``)."""
    low, high = score_bounds(state, now, out, tricks_left, per_point, hands_at, seats, side, kind, boundary)
    if boundary and not may_end_early:
        low += sure_side_score(state, hands_at, seats, side, kind, per_point)
    return low, high


@inline_njit
def class_values(class_totals, per_point, values):
    """Writes each settlement class's lowest score (``per_point`` x its points + tricks, from the rows of
    ``class_totals``) into ``values``; the number of classes."""
    for i in range(class_totals.shape[0]):
        values[i] = float(per_point * class_totals[i, 0] + class_totals[i, 1])
    return class_totals.shape[0]


@inline_njit
def side_score(state, points_at, tricks_at, seats, side, per_point):
    """``per_point`` x the card points + the tricks of the seats in the bitmask ``side`` (the counts of
    the ``seats`` seats from ``state[points_at]`` and ``state[tricks_at]``)."""
    points = 0
    tricks = 0
    for seat in range(seats):
        if (side >> seat) & 1:
            points += state[points_at + seat]
            tricks += state[tricks_at + seat]
    return float(per_point * points + tricks)


def settlement_classes(schneider_below: int, all_tricks: int) -> np.ndarray:
    """``CLASS_TOTALS`` of a game of two sides and 120 points: the lowest (points, tricks) of the declarer
    side in each settlement class, i.e. schwarz lost, schneider lost (under ``schneider_below``), lost,
    won (61), schneider won (91), schwarz won (120 points and ``all_tricks``)."""
    return np.array([[0, 0], [0, 1], [schneider_below, 1], [61, 1], [91, 1], [120, all_tricks]], dtype=np.int64)
