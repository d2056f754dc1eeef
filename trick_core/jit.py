"""Numba settings in one place, bit tricks and the project's explicit random-number generator.

Every compiled kernel in the project is declared with ``@njit`` from here (``cache=True`` so that a warm
start costs no compilation). Kernels never draw from numba's hidden global RNG: they take an explicit
``rng`` state (a ``uint64[1]`` array, splitmix64), so results are reproducible from a seed and threads
never share state.

**The on-disk cache is keyed by the source.** Numba invalidates a cached function only when the file
that defines it changes, not when a function it calls (inlined into its machine code) changes in another
file: after editing a kernel, the search loop of ``agents/search.py`` or a batch loop would silently run
stale machine code. So this module points numba's cache at ``<base>/<fingerprint>``, the fingerprint
hashing every source file with compiled code (``COMPILED_SOURCES``): any edit selects a fresh folder.
``<base>`` is ``$NUMBA_CACHE_DIR`` if set, else ``.numba_cache`` beside the packages (or the temp folder
where that is not writable). Old folders are left behind; delete ``.numba_cache`` to reclaim the space.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import numba
import numpy as np

PROJECT_ROOT = Path(__file__).resolve().parent.parent
COMPILED_SOURCES = (
    "trick_core/*.py", "schafkopf_env/*.py", "knuffeln_env/*.py", "agents/search.py", "trick_gym/loops.py",
)
"""Source files whose functions are compiled (or inlined into compiled functions), relative to the root."""


def source_fingerprint(root: Path = PROJECT_ROOT) -> str:
    """A hash of the names and contents of every file of ``COMPILED_SOURCES``."""
    digest = hashlib.sha256()
    for pattern in COMPILED_SOURCES:
        for path in sorted(root.glob(pattern)):
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _cache_base() -> Path:
    configured = os.environ.get("NUMBA_CACHE_DIR")
    if configured:
        return Path(configured)
    local = PROJECT_ROOT / ".numba_cache"
    try:
        local.mkdir(exist_ok=True)
    except OSError:
        return Path(tempfile.gettempdir()) / "german_tricks_numba_cache"
    return local if os.access(local, os.W_OK) else Path(tempfile.gettempdir()) / "german_tricks_numba_cache"


CACHE_DIR = _cache_base() / source_fingerprint()
"""Where numba caches this process's compiled functions (module docstring)."""
numba.config.CACHE_DIR = str(CACHE_DIR)

njit = numba.njit(cache=True, nogil=True)
"""Decorator for every kernel: ``@njit``."""

njit_parallel = numba.njit(cache=True, nogil=True, parallel=True)
"""Decorator for the multi-threaded batch kernels (``numba.prange`` inside)."""

_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


@njit
def popcount(mask):
    """Number of set bits of a uint64 mask (SWAR, branch-free)."""
    x = np.uint64(mask)
    x = x - ((x >> np.uint64(1)) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return np.int64((x * _H01) >> np.uint64(56))


@njit
def lowest_bit(mask):
    """Index of the lowest set bit of a non-zero mask."""
    x = np.uint64(mask)
    return popcount((x & (~x + np.uint64(1))) - np.uint64(1))


_L8 = np.uint64(0x0101010101010101)
_H8 = np.uint64(0x8080808080808080)
SELECT_IN_BYTE = np.array(
    [
        [i for i in range(8) if byte >> i & 1][rank] if rank < bin(byte).count("1") else 8
        for rank in range(8)
        for byte in range(256)
    ],
    dtype=np.int64,
)
"""``SELECT_IN_BYTE[rank * 256 + byte]``: position of the rank-th set bit of ``byte``."""


@njit
def nth_bit(mask, n):
    """Index of the n-th (0-based) set bit of mask, counting from bit 0.

    Branch-free (Vigna's broadword select): a random card draw must not cost a mispredicted loop.
    """
    x = np.uint64(mask)
    s = x - ((x >> np.uint64(1)) & _M1)
    s = (s & _M2) + ((s >> np.uint64(2)) & _M2)
    s = (s + (s >> np.uint64(4))) & _M4
    byte_sums = s * _L8
    k_step8 = np.uint64(n) * _L8
    geq_k_step8 = ((k_step8 | _H8) - byte_sums) & _H8
    place = np.uint64((((geq_k_step8 >> np.uint64(7)) * _L8) >> np.uint64(56)) * np.uint64(8))
    byte_rank = np.int64(n) - np.int64(((byte_sums << np.uint64(8)) >> place) & np.uint64(0xFF))
    return np.int64(place) + SELECT_IN_BYTE[byte_rank * 256 + np.int64((x >> place) & np.uint64(0xFF))]


def make_rng(seed: int) -> np.ndarray:
    """A fresh splitmix64 state for the kernels, from any Python integer seed."""
    return np.array([np.uint64(int(seed) & 0xFFFFFFFFFFFFFFFF)], dtype=np.uint64)


@njit
def rng_next(rng):
    """Next 64 random bits (splitmix64); advances ``rng[0]`` in place."""
    rng[0] += np.uint64(0x9E3779B97F4A7C15)
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit
def rng_below(rng, n):
    """Uniform integer in ``[0, n)`` (n >= 1); the modulo bias is below 2**-50 for card-game sizes."""
    return np.int64(rng_next(rng) % np.uint64(n))


@njit
def random_bit(rng, mask):
    """A uniformly chosen set bit (card) of a non-zero mask."""
    return nth_bit(mask, rng_below(rng, popcount(mask)))


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
            pick = rng_below(rng, total)
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
