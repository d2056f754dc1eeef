"""Hot-path companions of ``trick_core.jit``: decorators that keep numba's cache from costing speed, and
the bit and random-number helpers in a form numba inlines.

Why. Every kernel is compiled with ``cache=True``. A function loaded from the cache is linked as machine
code and called through a pointer: LLVM cannot inline it. And every call that passes an array (the state)
to a compiled function costs atomic reference-count updates around it. On a random playout, where each
step is a few dozen instructions, these two costs were about half of the time. Hence:

- ``inline_njit``: numba inlines the function into each caller in its own IR (``inline="always"``), which
  survives the cache. For small helpers on the hot path.
- ``njit_no_refcount``: compiled without numba's reference counting (``_nrt=False``). For entry points
  that allocate nothing (stepping, legal actions, random play, observing). Arguments are borrowed, so these
  mix freely with ``njit`` callers and are called from Python like any kernel function. A function that
  allocates an array (``np.empty`` ...) cannot use it: numba refuses to compile it.

The helpers below compute exactly what their namesakes in ``trick_core.jit`` compute (same bits, same
random stream); ``rng_below_small`` / ``random_bit_small`` are the multiply-shift draws the Schafkopf
kernels use (not ``jit.rng_below``'s modulo, which gives other numbers).

Caveat (numba's, not ours): a cache entry is invalidated only when the file that defines the cached
function changes. A kernel that inlines a helper from here keeps stale machine code when only this file
changes; clear ``__pycache__`` (or touch the kernel) after editing this file.
"""

from __future__ import annotations

import numba
import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from .jit import SELECT_IN_BYTE

inline_njit = numba.njit(cache=True, nogil=True, inline="always")
"""Decorator for small hot-path helpers: inlined by numba into every caller (survives ``cache=True``)."""

njit_no_refcount = numba.njit(cache=True, nogil=True, _nrt=False)
"""Decorator for entry points that allocate nothing: no reference counting around the state array."""

_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_L8 = np.uint64(0x0101010101010101)
_H8 = np.uint64(0x8080808080808080)


@inline_njit
def popcount(mask):
    """Number of set bits of a mask (SWAR; LLVM turns it into one ``popcnt`` where the CPU has it)."""
    x = np.uint64(mask)
    x = x - ((x >> np.uint64(1)) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return np.int64((x * _L8) >> np.uint64(56))


@inline_njit
def lowest_bit(mask):
    """Index of the lowest set bit of a non-zero mask (one ``tzcnt``; 64 for an empty mask, as in ``jit``)."""
    return np.int64(trailing_zeros(np.uint64(mask)))


@inline_njit
def nth_bit(mask, n):
    """Index of the n-th (0-based) set bit of mask, counting from bit 0 (branch-free broadword select,
    as ``jit.nth_bit``)."""
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


@inline_njit
def rng_next(rng):
    """Next 64 random bits (splitmix64); advances ``rng[0]`` in place (as ``jit.rng_next``)."""
    z = rng[0] + np.uint64(0x9E3779B97F4A7C15)
    rng[0] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@inline_njit
def rng_below_small(rng, n):
    """Uniform integer in ``[0, n)`` for small ``n`` by multiply-shift (Lemire) on the top 32 random bits:
    no division (the bias is below n / 2**32)."""
    return np.int64(((rng_next(rng) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@inline_njit
def random_bit_small(rng, mask):
    """A uniformly chosen set bit of a non-zero mask, drawn with ``rng_below_small``."""
    return nth_bit(mask, rng_below_small(rng, popcount(mask)))
