"""Rule tables shared by the three Schafkopf games (Bavarian, Palatinate, Asserufen).

Both 32-card packs share one layout (``trick_core.cards``): suit ``s`` in ``E G H S`` = ``C S H D``,
rank ``r`` in ``A 10 K O U 9 8 7`` = ``A 10 K Q J 9 8 7``, card ``s * 8 + r``. Obers and Queens are
rank 3, Unters and Jacks rank 4, so one set of tables serves both rule sets.

A contract's trumps are one of these *trump kinds* (an index into every table here):

| kind | trumps | used by |
|---|---|---|
| 0..3 | all Obers, all Unters, then suit ``kind`` (``A 10 K 9 8 7``) | Rufer (hearts), Solo, every Palatinate game |
| 4 (``TRUMP_WENZ``) | the four Unters only; Obers rank in their suits ``A 10 K O 9 8 7`` | Wenz, Wenz Tout |
| 5..8 (``TRUMP_FARBWENZ + s``) | the four Unters, then suit ``s`` ``A 10 K O 9 8 7``; Obers in their suits | Farbwenz |
| 9 (``TRUMP_GEIER``) | the four Obers only; Unters rank in their suits ``A 10 K U 9 8 7`` | Geier, Geier Tout |
| 10 (``TRUMP_BETTEL``) | none; every suit ranks ``A K O U 10 9 8 7`` (openschafkopf's Bettel) | Bettel |

``NUM_TRUMP_KINDS`` (5) counts the kinds 0..4 every game has; the tables hold ``NUM_ALL_TRUMP_KINDS`` (11) rows,
those of kinds 0..4 unchanged by the later ones (Bavarian options ``farbwenz``, ``geier``, ``bettel``).

Tables (all numpy arrays, usable inside ``@njit`` code as globals):

- ``EFFECTIVE_SUIT[kind, card]``: 0..3 the plain suit a card belongs to, ``TRUMP`` (4) for a trump.
- ``EFFECTIVE_SUIT_MASK[kind, effective_suit]``: bit mask of the cards of each effective suit.
- ``TRICK_POWER[kind, card]``: trumps above 100 (higher wins), plain cards 1..7 by rank in their suit.
- ``TRUMP_ORDER[kind, i]``: the trumps from highest down (-1 padded); ``NUM_TRUMPS[kind]``.
- ``CARD_POINTS[card]``: A 11, 10 10, K 4, O 3, U 2, else 0.

Every game's observation has a ``voids`` block (``VOID_SUITS`` entries per relative seat: the four suits, then
trumps): a seat that did not follow the led effective suit has shown it holds none of it (everyone must
follow), which the ``played`` block alone, without the order of play, cannot tell (``mark_shown_void``).

The trick's winner: ``trick_winner_index`` (from an array of cards) and ``winning_position`` (inline, from
a kernel's state array).
"""

from __future__ import annotations

import numpy as np

from trick_core.cards import CARD_POINTS_32
from trick_core.jit import inline_njit, njit

NUM_CARDS = 32
NUM_SUITS = 4
NUM_RANKS = 8
TRUMP = 4
TRUMP_WENZ = 4
NUM_TRUMP_KINDS = 5
TRUMP_FARBWENZ = 5
"""Farbwenz with suit ``s`` is kind ``TRUMP_FARBWENZ + s``."""
TRUMP_GEIER = 9
TRUMP_BETTEL = 10
NUM_ALL_TRUMP_KINDS = 11
VOID_SUITS = NUM_SUITS + 1
"""Entries per seat of an observation's ``voids`` block: the effective suits E G H S, then trumps."""
RANK_A, RANK_10, RANK_K, RANK_O, RANK_U, RANK_9, RANK_8, RANK_7 = range(8)
HEARTS = 2

CARD_POINTS = np.array([CARD_POINTS_32[c % 8] for c in range(NUM_CARDS)], dtype=np.int64)

_PLAIN_ORDER = (RANK_A, RANK_10, RANK_K, RANK_9, RANK_8, RANK_7)
_PLAIN_ORDER_WENZ = (RANK_A, RANK_10, RANK_K, RANK_O, RANK_9, RANK_8, RANK_7)
_PLAIN_ORDER_GEIER = (RANK_A, RANK_10, RANK_K, RANK_U, RANK_9, RANK_8, RANK_7)
_PLAIN_ORDER_BETTEL = (RANK_A, RANK_K, RANK_O, RANK_U, RANK_10, RANK_9, RANK_8, RANK_7)


def _card(suit: int, rank: int) -> int:
    return suit * NUM_RANKS + rank


def _trump_order(kind: int) -> list[int]:
    if kind == TRUMP_WENZ:
        return [_card(s, RANK_U) for s in range(NUM_SUITS)]
    if TRUMP_FARBWENZ <= kind < TRUMP_FARBWENZ + NUM_SUITS:
        suit = kind - TRUMP_FARBWENZ
        return [_card(s, RANK_U) for s in range(NUM_SUITS)] + [_card(suit, r) for r in _PLAIN_ORDER_WENZ]
    if kind == TRUMP_GEIER:
        return [_card(s, RANK_O) for s in range(NUM_SUITS)]
    if kind == TRUMP_BETTEL:
        return []
    obers = [_card(s, RANK_O) for s in range(NUM_SUITS)]
    unters = [_card(s, RANK_U) for s in range(NUM_SUITS)]
    return obers + unters + [_card(kind, r) for r in _PLAIN_ORDER]


def _plain_order(kind: int) -> tuple[int, ...]:
    if kind == TRUMP_WENZ or TRUMP_FARBWENZ <= kind < TRUMP_FARBWENZ + NUM_SUITS:
        return _PLAIN_ORDER_WENZ
    if kind == TRUMP_GEIER:
        return _PLAIN_ORDER_GEIER
    if kind == TRUMP_BETTEL:
        return _PLAIN_ORDER_BETTEL
    return _PLAIN_ORDER


def _build_tables():
    effective_suit = np.zeros((NUM_ALL_TRUMP_KINDS, NUM_CARDS), dtype=np.int64)
    power = np.zeros((NUM_ALL_TRUMP_KINDS, NUM_CARDS), dtype=np.int64)
    trump_order = np.full((NUM_ALL_TRUMP_KINDS, 14), -1, dtype=np.int64)
    num_trumps = np.zeros(NUM_ALL_TRUMP_KINDS, dtype=np.int64)
    suit_mask = np.zeros((NUM_ALL_TRUMP_KINDS, 5), dtype=np.uint64)
    for kind in range(NUM_ALL_TRUMP_KINDS):
        order = _trump_order(kind)
        num_trumps[kind] = len(order)
        trump_order[kind, : len(order)] = order
        plain_order = _plain_order(kind)
        for card in range(NUM_CARDS):
            suit, rank = divmod(card, NUM_RANKS)
            if card in order:
                effective_suit[kind, card] = TRUMP
                power[kind, card] = 100 + len(order) - order.index(card)
            else:
                effective_suit[kind, card] = suit
                power[kind, card] = len(plain_order) - plain_order.index(rank)
            suit_mask[kind, effective_suit[kind, card]] |= np.uint64(1 << card)
    return effective_suit, power, trump_order, num_trumps, suit_mask


EFFECTIVE_SUIT, TRICK_POWER, TRUMP_ORDER, NUM_TRUMPS, EFFECTIVE_SUIT_MASK = _build_tables()


@njit
def trick_winner_index(kind, cards, num_played):
    """Position (0-based, in playing order) of the card that wins a trick of ``num_played`` cards.

    The highest trump wins, else the highest card of the led effective suit.
    """
    led_suit = EFFECTIVE_SUIT[kind, cards[0]]
    best = 0
    best_key = TRICK_POWER[kind, cards[0]]
    for i in range(1, num_played):
        card = cards[i]
        suit = EFFECTIVE_SUIT[kind, card]
        if suit == TRUMP or suit == led_suit:
            key = TRICK_POWER[kind, card]
            if EFFECTIVE_SUIT[kind, cards[best]] != TRUMP and suit == TRUMP:
                best, best_key = i, key
            elif suit == EFFECTIVE_SUIT[kind, cards[best]] and key > best_key:
                best, best_key = i, key
    return best


@inline_njit
def winning_position(state, kind, start, num_cards):
    """Position in playing order of the card that wins the ``num_cards`` cards at ``state[start:]``: the
    highest trump, else the highest card of the led suit (``trick_winner_index`` read straight from a
    kernel's state array: the array view it takes costs more reference counting than the trick)."""
    led_suit = EFFECTIVE_SUIT[kind, state[start]]
    best = 0
    best_trump = led_suit == TRUMP
    best_power = TRICK_POWER[kind, state[start]]
    for i in range(1, num_cards):
        card = state[start + i]
        suit = EFFECTIVE_SUIT[kind, card]
        power = TRICK_POWER[kind, card]
        if suit == TRUMP:
            if not best_trump or power > best_power:
                best, best_trump, best_power = i, True, power
        elif suit == led_suit and not best_trump and power > best_power:
            best, best_power = i, power
    return best


@inline_njit
def mark_shown_void(out, at, kind, led_card, card, position):
    """``out[at + position * VOID_SUITS + s] = 1`` when ``card``, played by the seat at relative ``position``
    to a trick led by ``led_card``, is not of the led effective suit ``s``: that seat holds none of it."""
    led_suit = EFFECTIVE_SUIT[kind, led_card]
    if EFFECTIVE_SUIT[kind, card] != led_suit:
        out[at + position * VOID_SUITS + led_suit] = 1.0


@njit
def follow_mask(kind, hand_mask, led_card):
    """Cards of ``hand_mask`` that may be played to a trick led by ``led_card`` (follow the effective
    suit if possible, otherwise anything); the called-ace rules are the games' own."""
    same = hand_mask & EFFECTIVE_SUIT_MASK[kind, EFFECTIVE_SUIT[kind, led_card]]
    return same if same != np.uint64(0) else hand_mask


@njit
def consecutive_top_trumps(kind, side_mask):
    """Laufende / hoch: how many consecutive trumps from the top one side held, counted for the side
    that holds the highest trump (``side_mask`` is one side's cards; the count is the same "with" or
    "without")."""
    top = TRUMP_ORDER[kind, 0]
    with_top = (side_mask >> np.uint64(top)) & np.uint64(1)
    count = 0
    for i in range(NUM_TRUMPS[kind]):
        held = (side_mask >> np.uint64(TRUMP_ORDER[kind, i])) & np.uint64(1)
        if held != with_top:
            break
        count += 1
    return count
