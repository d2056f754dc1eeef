"""Dealing, shared by the Schafkopf kernels that shuffle with ``uniform_below`` (Bavarian, Asserufen)."""

from __future__ import annotations

from trick_core.bits import uniform_below
from trick_core.jit import inline_njit


@inline_njit
def shuffle_pack(state, at, num_cards, rng):
    """Lay the cards ``0 .. num_cards - 1`` out at ``state[at:]`` and shuffle them in place (Fisher-Yates,
    from the top down, each swap drawn with ``uniform_below``): the kernels shuffle inside the state
    array, so that dealing allocates nothing."""
    for i in range(num_cards):
        state[at + i] = i
    for i in range(num_cards - 1, 0, -1):
        j = uniform_below(rng, i + 1)
        state[at + i], state[at + j] = state[at + j], state[at + i]
