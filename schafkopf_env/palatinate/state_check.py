"""What a Palatinate kernel state must satisfy before a batch env loads it (``trick_core.state_check``).

Plain numpy over the rows, so that a corrupt or foreign state is refused with the field it breaks, before
the replay (``trick_core.state_check.replay_mismatch``) proves the rest: the seats, phase, tricks and
history in range for three or four players, and the hands dealt (the three active seats: with four
players the dealer sits out) and the skat partitioning the 32 cards.
"""

from __future__ import annotations

import numpy as np

from schafkopf_env.trumps import NUM_CARDS
from trick_core.state_check import FieldChecks

from . import tables
from .layout import layout

UNREPLAYED_FIELDS: tuple[str, ...] = ()
"""Every field follows from the deal and the actions."""

FULL_MASK = (1 << NUM_CARDS) - 1


def validate_states(states: np.ndarray, params: np.ndarray, labels: np.ndarray) -> None:
    """``ValueError`` naming the first row (its label) and field of ``states`` (``int64 (rows,
    state_size)`` under ``params``, already checked equal to every row's params block) out of range."""
    checks = FieldChecks(tables.GAME, states, layout, labels)
    players = int(params[tables.PARAM_PLAYERS])
    checks.common(players, tables.NUM_PHASES, tables.NUM_TRICKS)
    checks.history(players, tables.NUM_ACTIONS)
    seats = np.arange(tables.MAX_SEATS)[None, :]
    dealt = seats < players
    if players == tables.MAX_SEATS:
        dealt = dealt & (seats != checks.scalar("dealer")[:, None])
    checks.masks_partition([("dealt_hands", dealt), ("skat", None)], FULL_MASK, "the hands dealt and the skat")
    for name in ("hands", "played"):
        checks.in_range(name, 0, FULL_MASK)
