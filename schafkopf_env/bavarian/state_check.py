"""What a Bavarian kernel state must satisfy before a batch env loads it (``trick_core.state_check``).

Plain numpy over the rows, so that a corrupt or foreign state is refused with the field it breaks, before
the replay (``trick_core.state_check.replay_mismatch``) proves the rest: the seats, phase, tricks and
history in range, and the four dealt hands partitioning the 32 cards.
"""

from __future__ import annotations

import numpy as np

from trick_core.state_check import FieldChecks

from . import tables
from .layout import layout

UNREPLAYED_FIELDS: tuple[str, ...] = ()
"""Every field follows from the deal and the actions."""


def validate_states(states: np.ndarray, params: np.ndarray, labels: np.ndarray) -> None:
    """``ValueError`` naming the first row (its label) and field of ``states`` (``int64 (rows,
    state_size)``) out of range."""
    checks = FieldChecks(tables.GAME, states, layout, labels)
    checks.common(tables.NUM_SEATS, tables.NUM_PHASES, tables.NUM_TRICKS)
    checks.history(tables.NUM_SEATS, tables.NUM_ACTIONS)
    checks.masks_partition([("dealt_hands", None)], int(tables.FULL_MASK), "the four hands dealt")
    checks.in_range("hands", 0, int(tables.FULL_MASK))
