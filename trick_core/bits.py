"""Bit tricks on card masks and the project's one random-number stream, for compiled code.

Every helper is ``inline_njit`` (``trick_core.jit``): numba inlines it into each caller, so the hot loops
pay nothing for the call. A hand is a bit mask (bit ``i`` = card ``i``, ``trick_core.cards``), held as
``uint64`` in compiled code and as ``int64`` in the kernels' state arrays.

**The random-number stream.** Kernels never draw from numba's hidden global generator: they take an
explicit ``rng`` state, a ``uint64[1]`` array advanced by splitmix64 (``rng_next``), so results are
reproducible from a seed and threads never share state. ``make_rng(seed)`` builds one.

Two reductions of the stream to "uniform below n" exist, and each is defined once here:

- ``uniform_below`` — multiply-shift (Lemire) on the top 32 random bits: no division (the bias is below
  ``n / 2**32``, far under anything a card game can measure). The hot paths (shuffles, random playouts,
  heuristic playouts) use it.
- ``uniform_below_modulo`` — the same 64 random bits reduced modulo ``n`` (bias below ``2**-50`` for card
  game sizes). The constrained dealer of ``trick_core.sampling``, the batch envs' action sampler and the
  Palatinate kernel were written with it. Switching them to ``uniform_below`` would change every seeded
  deal, search and arena result of those paths, so both stay, under names that say which is which.
"""

from __future__ import annotations

import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from .jit import inline_njit

_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_L8 = np.uint64(0x0101010101010101)
_H8 = np.uint64(0x8080808080808080)
ONE = np.uint64(1)
ZERO = np.uint64(0)

SELECT_IN_BYTE = np.array(
    [
        [i for i in range(8) if byte >> i & 1][rank] if rank < bin(byte).count("1") else 8
        for rank in range(8)
        for byte in range(256)
    ],
    dtype=np.int64,
)
"""``SELECT_IN_BYTE[rank * 256 + byte]``: position of the rank-th set bit of ``byte`` (8 if none)."""


@inline_njit
def bit(card):
    """The mask of one card (``uint64``)."""
    return ONE << np.uint64(card)


@inline_njit
def has_card(mask, card):
    """Whether ``card`` is in ``mask``."""
    return (np.uint64(mask) >> np.uint64(card)) & ONE != ZERO


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
    """Index of the lowest set bit of a mask (one ``tzcnt``; 64 for an empty mask)."""
    return np.int64(trailing_zeros(np.uint64(mask)))


@inline_njit
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


def rng_state(seed: int) -> int:
    """The splitmix64 state of any Python integer seed (its low 64 bits): what ``make_rng`` holds."""
    return int(seed) & 0xFFFFFFFFFFFFFFFF


def make_rng(seed: int) -> np.ndarray:
    """A fresh splitmix64 state for the kernels, from any Python integer seed."""
    return np.array([np.uint64(rng_state(seed))], dtype=np.uint64)


def derived_seed(*parts: int) -> int:
    """A seed for one purpose and moment of a seeded run, from the run's seed and integers naming them (the
    arena's deal ``k`` of seed ``s`` is ``derived_seed(s, k)``); numpy's ``SeedSequence``, plain Python."""
    return int(np.random.SeedSequence([int(p) for p in parts]).generate_state(1)[0])


@inline_njit
def rng_next(rng):
    """Next 64 random bits (splitmix64); advances ``rng[0]`` in place."""
    z = rng[0] + np.uint64(0x9E3779B97F4A7C15)
    rng[0] = z
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@inline_njit
def uniform_below(rng, n):
    """Uniform integer in ``[0, n)`` (``n >= 1``) by multiply-shift on the top 32 random bits."""
    return np.int64(((rng_next(rng) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@inline_njit
def uniform_below_modulo(rng, n):
    """Uniform integer in ``[0, n)`` (``n >= 1``): the random bits modulo ``n`` (module docstring)."""
    return np.int64(rng_next(rng) % np.uint64(n))


@inline_njit
def uniform01(rng):
    """A float in ``[0, 1)`` from the top 53 random bits."""
    return np.float64(rng_next(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@inline_njit
def random_bit(rng, mask):
    """A uniformly chosen set bit (card) of a non-zero mask, drawn with ``uniform_below``."""
    return nth_bit(mask, uniform_below(rng, popcount(mask)))


@inline_njit
def shuffle_pack(pack, at, num_cards, rng, modulo):
    """Lay the cards ``0 .. num_cards - 1`` out at ``pack[at:]`` and shuffle them in place: Fisher-Yates from
    the top down, each swap drawn with ``uniform_below_modulo`` if ``modulo`` (a constant at every call,
    so the branch folds away), else with ``uniform_below`` (the module docstring says which path uses which).
    The Schafkopf and Knüffeln kernels shuffle inside the state array (``pack`` is the state, ``at`` a
    scratch field), so that dealing allocates nothing."""
    for i in range(num_cards):
        pack[at + i] = i
    for i in range(num_cards - 1, 0, -1):
        j = uniform_below_modulo(rng, i + 1) if modulo else uniform_below(rng, i + 1)
        pack[at + i], pack[at + j] = pack[at + j], pack[at + i]


@inline_njit
def write_action_mask(bits, out, num_actions):
    """Fill the int8 action mask ``out[:num_actions]`` from the legal actions held as the bits of one
    ``uint64`` (bit ``a`` set: action ``a`` legal): the ``legal_action_mask`` of a game whose actions fit
    one word (Bavarian, Asserufen)."""
    for action in range(num_actions):
        out[action] = (bits >> np.uint64(action)) & ONE


@inline_njit
def nth_set_index(mask, start, stop, n):
    """Index of the ``n``-th (0-based) non-zero entry of the array ``mask`` in ``[start, stop)``, counting
    from ``start``; -1 if there are fewer."""
    for i in range(start, stop):
        if mask[i] != 0:
            if n == 0:
                return i
            n -= 1
    return -1


@inline_njit
def random_legal_action(mask, rng):
    """A uniformly chosen legal action of an ``int8`` action mask (entries 0 or 1, at least one 1), drawn
    with ``uniform_below_modulo``: the batch envs' action sampler."""
    count = 0
    for action in range(mask.shape[0]):
        count += mask[action]
    return nth_set_index(mask, 0, mask.shape[0], uniform_below_modulo(rng, count))
