"""Hand evaluation of the rule-based Schafkopf players (``agents.rules.schafkopf_common``).

**Hand evaluation** (``suit_game_strength``, ``wenz_strength``, ``wins_every_trick``, ``trump_stopper``):
weighted counts of Obers/Queens, Unters/Jacks, trumps, aces, tens beside aces and voids, the usual
club rules of thumb in numeric form; the thresholds belong to each game's agent.

``best_call`` picks the ace to call in an ace-call game.
"""

from __future__ import annotations

from schafkopf_env.trumps import RANK_10, RANK_A, RANK_O, RANK_U, TRUMP_WENZ

from .schafkopf_cards import (
    FULL_MASK,
    NUM_SUITS,
    PLAIN_SUITS,
    POINTS,
    POWER,
    SUIT_MASK,
    TRUMP_MASK,
    TRUMP_STRENGTH,
    TRUMPS_HIGH_FIRST,
    cards_of,
    pick_best,
    popcount,
)

OBER_WEIGHT = (3.0, 2.5, 2.2, 2.0)
"""Obers / Queens by suit (E/C highest): the backbone of every suit game."""
UNTER_WEIGHT = (1.8, 1.6, 1.5, 1.4)
WENZ_UNTER_WEIGHT = (2.5, 2.0, 1.7, 1.5)


def suit_game_strength(hand: int, kind: int) -> float:
    """Strength of ``hand`` as the declaring side of a game with trump kind ``kind`` (0..3): weighted
    trumps (Obers, Unters, then the trump suit) plus aces, tens beside them and voids."""
    trumps = hand & TRUMP_MASK[kind]
    score = 0.0
    for card in cards_of(trumps):
        suit, rank = divmod(card, 8)
        if rank == RANK_O:
            score += OBER_WEIGHT[suit]
        elif rank == RANK_U:
            score += UNTER_WEIGHT[suit]
        else:
            score += 1.3 if rank == RANK_A else 1.1 if rank == RANK_10 else 1.0
    num_trumps = popcount(trumps)
    for suit in PLAIN_SUITS[kind]:
        held = hand & SUIT_MASK[kind][suit]
        if not held:
            score += 0.5 if num_trumps >= 4 else 0.0
            continue
        if held >> (suit * 8 + RANK_A) & 1:
            score += 1.0
            if held >> (suit * 8 + RANK_10) & 1:
                score += 0.6
        elif held >> (suit * 8 + RANK_10) & 1 and popcount(held) == 1:
            score -= 0.3  # a blank ten is a present for the opponents
    return score


def wenz_strength(hand: int) -> float:
    """Strength of ``hand`` for a Wenz: weighted Unters, then per suit the sure tricks of its top
    sequence (``A``, ``A 10``, ``A 10 K``), a bonus for length behind an ace, a penalty per loser."""
    kind = TRUMP_WENZ
    score = 0.0
    for card in cards_of(hand & TRUMP_MASK[kind]):
        score += WENZ_UNTER_WEIGHT[card // 8]
    for suit in range(NUM_SUITS):
        held = hand & SUIT_MASK[kind][suit]
        length = popcount(held)
        top = _top_sequence_length(held, kind, suit)
        score += 1.3 * top
        if top and length >= 4:
            score += 0.5 * (length - 3)
        losers = length - top
        if top == 0 and length >= 4:
            losers -= 1  # a long suit without the ace still makes a trick eventually
        score -= 0.4 * max(losers, 0)
    return score


def _plain_order(kind: int, suit: int) -> list[int]:
    """The plain cards of ``suit`` under ``kind``, highest first."""
    suit_cards = cards_of(SUIT_MASK[kind][suit])
    return sorted(suit_cards, key=lambda c: -POWER[kind][c])


def _top_sequence_length(held: int, kind: int, suit: int, gone: int = 0) -> int:
    """How many of ``held`` form an unbroken sequence from the top of the suit (cards in ``gone`` are
    out of play and do not break it)."""
    length = 0
    for card in _plain_order(kind, suit):
        if held >> card & 1:
            length += 1
        elif not gone >> card & 1:
            break
    return length


def wins_every_trick(hand: int, kind: int, leads_first: bool, others: int | None = None) -> bool:
    """Whether ``hand`` takes every trick whatever the others hold (Tout, Du, Sie): enough top trumps in
    sequence to draw all the others' trumps (one more when an opponent leads first and might force a
    ruff), and every plain card in a top sequence of its suit. ``others`` are the cards that may be
    against the declarer (default: all cards not in ``hand``)."""
    others = (FULL_MASK & ~hand) if others is None else others
    trumps = hand & TRUMP_MASK[kind]
    outstanding = popcount(others & TRUMP_MASK[kind])
    top = 0
    for card in TRUMPS_HIGH_FIRST[kind]:
        if hand >> card & 1:
            top += 1
        elif others >> card & 1:
            break
    has_void = any(not hand & SUIT_MASK[kind][s] for s in PLAIN_SUITS[kind])
    needed = outstanding + (0 if leads_first or not has_void or outstanding == 0 else 1)
    if outstanding and (not trumps or top < needed):
        return False
    gone = FULL_MASK & ~hand & ~others
    for suit in PLAIN_SUITS[kind]:
        held = hand & SUIT_MASK[kind][suit]
        if _top_sequence_length(held, kind, suit, gone) != popcount(held):
            return False
    return True


def trump_stopper(hand: int, kind: int) -> bool:
    """Whether ``hand`` is sure to win a trick against a declarer who must take them all: some trump
    with at least as many lower trumps beside it as there are trumps above it (it becomes master
    before it can be drawn)."""
    trumps = [c for c in TRUMPS_HIGH_FIRST[kind] if hand >> c & 1]
    for index, card in enumerate(TRUMPS_HIGH_FIRST[kind]):
        if hand >> card & 1:
            above = index
            below_mine = sum(1 for c in trumps if TRUMP_STRENGTH[kind][c] < TRUMP_STRENGTH[kind][card])
            if below_mine >= above:
                return True
    return False

def best_call(hand: int, callable_suits: list[int], rng, kind: int = 2) -> int:
    """The suit whose ace to call: the one where the caller holds the fewest plain cards (a short suit
    lets the partner's ace take the trick and the caller trump the next round), then the fewest points
    there (a ten beside a called ace is at risk), ties at random."""

    def score(suit: int) -> float:
        held = hand & SUIT_MASK[kind][suit]
        return -10.0 * popcount(held) - sum(POINTS[c] for c in cards_of(held)) / 11.0

    return pick_best(callable_suits, score, rng)
