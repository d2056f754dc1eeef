"""Named fields of a kernel's state array: one way to lay out every game's state.

A kernel keeps the whole game state in one flat ``int64`` array (``docs/architecture.md``), so copying a
state is ``state.copy()`` and a batch is a 2-D array. Its layout is built with ``StateLayout``, one named
field after another::

    layout = StateLayout("bavarian")
    S_DEALER = layout.field("dealer")
    S_HANDS = layout.field("hands", NUM_SEATS)
    ...
    STATE_SIZE = layout.size

Every game declares the fields of ``COMMON_FIELDS`` under these names (constants ``S_<NAME>``), so that
the generic code (the env base, the drivers, the tests) reads the dealer, the seat to act, the hands and
the action history of any game the same way; ``record_action`` appends to that history in every kernel.

The observation vector is laid out by blocks: every kernel's ``observation_layout(params, obs_type)``
lists ``(name, size)`` in the order ``observe`` writes them (the docs tables, the rules agents and the
derived features find a block by its name: ``block_starts``).
"""

from __future__ import annotations

import numpy as np

from .jit import inline_njit

COMMON_FIELDS = {
    "params": "the rule options (the kernel's params array), copied in when a hand starts",
    "dealer": "the dealer's seat",
    "phase": "the phase of the hand (each game's PHASE_* constants; PHASE_OVER once it is over)",
    "seat_to_act": "the seat to act, -1 once the hand is over",
    "dealt_hands": "per seat: the hand as dealt (mask), the record of the deal",
    "hands": "per seat: the cards still held (mask)",
    "trick_number": "completed tricks",
    "trick_size": "cards on the table in the trick in progress",
    "points": "per seat: card points (or tricks, where only tricks count) taken",
    "tricks_won": "per seat: tricks taken",
    "history_length": "actions taken so far",
    "history_seats": "per action: the seat that took it",
    "history_actions": "per action: the action",
}
"""Fields every game's state has, with the meaning of each (constant ``S_<NAME>`` in its layout module)."""


class StateLayout:
    """Allocates named fields of a flat ``int64`` state array, in order."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.fields: dict[str, tuple[int, int]] = {}
        self.size = 0

    def field(self, name: str, size: int = 1) -> int:
        """Allocate ``size`` entries under ``name``; return the offset of the first."""
        if name in self.fields:
            raise ValueError(f"{self.game}: state field {name!r} is declared twice")
        if size < 1:
            raise ValueError(f"{self.game}: state field {name!r} needs a positive size, got {size}")
        offset = self.size
        self.fields[name] = (offset, size)
        self.size += size
        return offset

    def offset(self, name: str) -> int:
        return self.fields[name][0]

    def table(self) -> list[tuple[str, int, int]]:
        """``(name, offset, size)`` of every field, for documentation and debugging."""
        return [(name, offset, size) for name, (offset, size) in self.fields.items()]

    def view(self, state) -> dict[str, object]:
        """The fields of one state array by name (an int for a one-entry field, else a list)."""
        return {
            name: int(state[offset]) if size == 1 else [int(x) for x in state[offset : offset + size]]
            for name, (offset, size) in self.fields.items()
        }


def block_starts(blocks) -> dict[str, int]:
    """The start of each named block of an observation laid out as ``(name, size)`` blocks in order (the
    form of every kernel's ``observation_layout``)."""
    starts, at = {}, 0
    for name, size in blocks:
        starts[name] = at
        at += size
    return starts


def fixed_observation_layout(blocks_by_type):
    """``observation_layout(params, obs_type)`` and ``observation_size(params, obs_type)`` of a game whose
    observation does not depend on its rule options: ``blocks_by_type[k]`` the ``(name, size)`` blocks
    observation type ``k`` appends to the one before (Bavarian, Asserufen)."""

    def observation_layout(params, obs_type: int) -> list[tuple[str, int]]:
        """The observation vector as ``(name, size)`` blocks in the order ``observe`` writes them (the same
        for every configuration)."""
        return [block for blocks in blocks_by_type[: obs_type + 1] for block in blocks]

    def observation_size(params, obs_type: int) -> int:
        """Entries of the observation vector (the sum of ``observation_layout``)."""
        return sum(size for _, size in observation_layout(params, obs_type))

    return observation_layout, observation_size


@inline_njit
def card_mask(state, offset):
    """The card mask stored at ``state[offset]`` (a hand, a trick's cards ...) as ``uint64``: a state array
    holds int64, the bit helpers work on uint64."""
    return np.uint64(state[offset])


@inline_njit
def record_action(state, seat, action, history_length, history_seats, history_actions):
    """Append ``(seat, action)`` to the action history of a kernel state, given the offsets of the game's
    ``S_HISTORY_LENGTH``, ``S_HISTORY_SEATS`` and ``S_HISTORY_ACTIONS`` (the game's capacity holds its
    longest hand)."""
    length = state[history_length]
    state[history_seats + length] = seat
    state[history_actions + length] = action
    state[history_length] = length + 1
