"""Counting deals exactly: the ways to deal groups of interchangeable cards to the four seats of a
Schafkopf table, filling every seat's free places, with at least so many "tracked" cards at one seat.

``distribute`` runs a compiled dynamic programme over the seats' free places (``_distribute_compiled``);
``distribute_reference`` is the plain memoised recursion it is tested against. ``signalling.partners``
counts the deals consistent with an ace-call hand's record with it."""

from __future__ import annotations

import math
from functools import cache

import numba
import numpy as np

NUM_SEATS = 4
CARDS_PER_SEAT = 8


@cache
def _compositions(total: int, limits: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every way to write ``total`` as a sum of len(limits) parts, part i at most limits[i]."""
    if not limits:
        return ((),) if total == 0 else ()
    head, rest = limits[0], limits[1:]
    room = sum(rest)
    return tuple((first, *tail) for first in range(max(0, total - room), min(head, total) + 1)
                 for tail in _compositions(total - first, rest))


@cache
def _multinomial(total: int, parts: tuple[int, ...]) -> int:
    result = math.factorial(total)
    for part in parts:
        result //= math.factorial(part)
    return result

def distribute(groups: tuple, capacity: tuple[int, ...], tracked_seat: int | None, need: int) -> int:
    """Ways to deal the groups' cards ``(size, allowed seats, tracked)`` (cards of a group are
    interchangeable for the rules) filling every seat's free places exactly, with at least ``need`` tracked
    cards at ``tracked_seat``. Compiled (``_distribute_compiled``); ``distribute_reference`` is the plain
    recursion it is tested against."""
    sizes = np.array([g[0] for g in groups], dtype=np.int64)
    allowed = np.array([sum(1 << seat for seat in g[1]) for g in groups], dtype=np.int64)
    tracked = np.array([int(g[2]) for g in groups], dtype=np.int64)
    seat = -1 if tracked_seat is None else tracked_seat
    return int(_distribute_compiled(sizes, allowed, tracked, np.array(capacity, dtype=np.int64), seat, need))


def _binomials(size: int) -> np.ndarray:
    table = np.zeros((size + 1, size + 1), dtype=np.int64)
    for n in range(size + 1):
        for k in range(n + 1):
            table[n, k] = math.comb(n, k)
    return table


BINOMIAL = _binomials(32)
RADIX = CARDS_PER_SEAT + 1  # free places 0..8 per seat, one base-9 digit each


@numba.njit(cache=True)
def _distribute_compiled(sizes, allowed, tracked, capacity, tracked_seat, need):
    """``distribute`` over arrays: a dynamic programme over groups whose state is the seats' free places
    and the tracked count so far (saturating at ``need``). Every partial count is at most the number of
    unrestricted deals of the cards (below 1e17 for 32 cards), so int64 is exact."""
    haves = need + 1
    states = RADIX**4
    current = np.zeros(states * haves, dtype=np.int64)
    start = ((capacity[0] * RADIX + capacity[1]) * RADIX + capacity[2]) * RADIX + capacity[3]
    current[start * haves] = 1
    for g in range(sizes.shape[0]):
        m = sizes[g]
        mask = allowed[g]
        following = np.zeros(states * haves, dtype=np.int64)
        for index in range(states * haves):
            weight = current[index]
            if weight == 0:
                continue
            state = index // haves
            have = index % haves
            f3 = state % RADIX
            f2 = (state // RADIX) % RADIX
            f1 = (state // (RADIX * RADIX)) % RADIX
            f0 = state // (RADIX * RADIX * RADIX)
            top0 = min(f0, m) if mask & 1 else 0
            for p0 in range(top0 + 1):
                r0 = m - p0
                top1 = min(f1, r0) if mask & 2 else 0
                for p1 in range(top1 + 1):
                    r1 = r0 - p1
                    top2 = min(f2, r1) if mask & 4 else 0
                    for p2 in range(top2 + 1):
                        p3 = r1 - p2
                        if p3 > 0 and (not mask & 8 or p3 > f3):
                            continue
                        ways = BINOMIAL[m, p0] * BINOMIAL[r0, p1] * BINOMIAL[r1, p2]
                        gained = 0
                        if tracked[g] == 1 and tracked_seat >= 0:
                            gained = (p0, p1, p2, p3)[tracked_seat]
                        new_have = min(need, have + gained)
                        new_state = (((f0 - p0) * RADIX + (f1 - p1)) * RADIX + (f2 - p2)) * RADIX + (f3 - p3)
                        following[new_state * haves + new_have] += weight * ways
        current = following
    return current[need]


def distribute_reference(groups: tuple, capacity: tuple[int, ...], tracked_seat: int | None, need: int) -> int:
    """Plain-Python twin of ``distribute`` (exact integers, memoised recursion over the groups)."""

    @cache
    def count(g: int, free: tuple[int, ...], have: int) -> int:
        if g == len(groups):
            return 1 if have >= need and not any(free) else 0
        size, seats, tracked = groups[g]
        total = 0
        for parts in _compositions(size, tuple(free[s] for s in seats)):
            new_free = list(free)
            for seat, part in zip(seats, parts, strict=True):
                new_free[seat] -= part
            gained = parts[seats.index(tracked_seat)] if tracked and tracked_seat in seats else 0
            total += _multinomial(size, parts) * count(g + 1, tuple(new_free), min(need, have + gained))
        return total

    return count(0, tuple(capacity), 0)
