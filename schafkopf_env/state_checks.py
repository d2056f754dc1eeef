"""What a kernel state of a four-hand Schafkopf game (Bavarian, Asserufen) must satisfy before a batch env
loads it, written once for both games' ``state_check`` modules (``trick_core.state_check``).

Plain numpy over the rows, so that a corrupt or foreign state is refused with the field it breaks, before
the replay (``trick_core.state_check.replay_mismatch``) proves the rest: the seats, phase, tricks and
history in range, and the four dealt hands partitioning the 32 cards.
"""

from __future__ import annotations

import types

import numpy as np

from trick_core.layout import StateLayout
from trick_core.state_check import FieldChecks


def validate_four_hand_states(tables: types.ModuleType, layout: StateLayout, states: np.ndarray,
                              params: np.ndarray, labels: np.ndarray) -> None:
    """``ValueError`` naming the first row (its label) and field of ``states`` (``int64 (rows,
    state_size)``; ``params``: the env's, already checked equal to every row's) out of range, by the
    game's ``tables`` (its seats, phases, tricks, actions and pack) and state ``layout``; each game's
    ``state_check.validate_states`` binds the first two."""
    checks = FieldChecks(tables.GAME, states, layout, labels)
    checks.common(tables.NUM_SEATS, tables.NUM_PHASES, tables.NUM_TRICKS)
    checks.history(tables.NUM_SEATS, tables.NUM_ACTIONS)
    checks.masks_partition([("dealt_hands", None)], int(tables.FULL_MASK), "the four hands dealt")
    checks.in_range("hands", 0, int(tables.FULL_MASK))
