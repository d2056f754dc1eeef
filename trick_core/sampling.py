"""Dealing hidden cards under constraints: the sampler behind every ``resample_hidden``.

A search agent redeals the cards its seat cannot see, consistently with everything the seat knows: how
many cards each other seat holds, and which cards each may hold (voids shown in play, a revealed partner,
what a bid implies). ``deal_with_constraints`` deals such a world; the game kernels compute the
constraints and replay the recorded actions under the sample (``trick_core.drivers.resample_hidden``).
"""

from __future__ import annotations

import numpy as np

from .bits import popcount, uniform_below_modulo
from .jit import njit


@njit
def _place_forced_seats(allowed_masks, free, remaining, out_masks):
    """Give every seat that can only just be filled all the remaining cards it may hold (a seat whose
    eligible cards number its free places must take them all). False on a dead end."""
    changed = True
    while changed:
        changed = False
        for s in range(free.shape[0]):
            if free[s] == 0:
                continue
            eligible = allowed_masks[s] & remaining
            count = popcount(eligible)
            if count < free[s]:
                return False
            if count == free[s]:
                out_masks[s] |= eligible
                remaining &= ~eligible
                free[s] = 0
                changed = True
    return True


@njit
def deal_with_constraints(unknown_mask, counts, allowed_masks, rng, out_masks, max_tries):
    """Deal the cards of ``unknown_mask`` to seats: seat s gets exactly ``counts[s]`` cards, each from
    ``allowed_masks[s]``. Writes the hands into ``out_masks`` and returns True, or False when no
    deal was found in ``max_tries`` attempts (the constraints may be unsatisfiable).

    Used to resample hidden cards consistently with what one seat knows (voids shown, cards seen).
    Cards are dealt one at a time, those with the fewest eligible seats first (a card only one seat may
    hold goes there before anything can fill that seat), each to an eligible seat with probability
    proportional to the seat's free places; a seat left with exactly as many eligible cards as free places
    takes them all at once. Without constraints this is exactly uniform over deals;
    with them it is close to uniform (the usual PIMC practice) and dead ends are rare.
    """
    seats = counts.shape[0]
    num_cards = 64
    order = np.empty(num_cards, dtype=np.int64)
    eligible_count = np.empty(num_cards, dtype=np.int64)
    n = 0
    for card in range(num_cards):
        bit = np.uint64(1) << np.uint64(card)
        if np.uint64(unknown_mask) & bit:
            k = 0
            for s in range(seats):
                if allowed_masks[s] & bit and counts[s] > 0:
                    k += 1
            order[n] = card
            eligible_count[n] = k
            n += 1
    # insertion sort by eligibility: at most 64 cards
    for i in range(1, n):
        card, k = order[i], eligible_count[i]
        j = i - 1
        while j >= 0 and eligible_count[j] > k:
            order[j + 1], eligible_count[j + 1] = order[j], eligible_count[j]
            j -= 1
        order[j + 1], eligible_count[j + 1] = card, k
    free = np.empty(seats, dtype=np.int64)
    for _ in range(max_tries):
        for s in range(seats):
            free[s] = counts[s]
            out_masks[s] = np.uint64(0)
        ok = True
        remaining = np.uint64(unknown_mask)
        for i in range(n):
            bit = np.uint64(1) << np.uint64(order[i])
            if not remaining & bit:
                continue  # already placed by a forced seat
            if not _place_forced_seats(allowed_masks, free, remaining, out_masks):
                ok = False
                break
            remaining = np.uint64(unknown_mask)
            for s in range(seats):
                remaining &= ~out_masks[s]
            if not remaining & bit:
                continue
            total = 0
            for s in range(seats):
                if allowed_masks[s] & bit:
                    total += free[s]
            if total == 0:
                ok = False
                break
            pick = uniform_below_modulo(rng, total)
            for s in range(seats):
                if allowed_masks[s] & bit:
                    if pick < free[s]:
                        out_masks[s] |= bit
                        free[s] -= 1
                        remaining &= ~bit
                        break
                    pick -= free[s]
        if ok:
            for s in range(seats):
                if free[s] != 0:
                    ok = False
            if ok:
                return True
    return False
