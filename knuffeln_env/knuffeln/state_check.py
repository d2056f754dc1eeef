"""What a Knüffeln kernel state must satisfy before a batch env loads it (``trick_core.state_check``).

Plain numpy over the rows, so that a corrupt or foreign state is refused with the field it breaks, before
the replay (``trick_core.state_check.replay_mismatch``) proves the rest: the seats, phase, tricks and
history in range for the configuration's players and action count, and the deal (the hands of the seats
dealt to, and the twelve stock cards in order) holding each of the 48 cards once.
"""

from __future__ import annotations

import numpy as np

from trick_core.state_check import FieldChecks

from . import tables
from .layout import layout

UNREPLAYED_FIELDS = ("redeals", "pack")
"""Fields that the deal does not reproduce, which no rule reads once the hand is dealt: how often the
dealer redealt before this deal (four stock cards of one suit turned), and the scratch of a random deal's
shuffle (``deal.shuffle_and_deal`` fills it before reading it)."""


def validate_states(states: np.ndarray, params: np.ndarray, labels: np.ndarray) -> None:
    """``ValueError`` naming the first row (its label) and field of ``states`` (``int64 (rows,
    state_size)`` under ``params``, already checked equal to every row's params block) out of range."""
    checks = FieldChecks(tables.GAME, states, layout, labels)
    players = int(params[tables.PARAM_PLAYERS])
    checks.common(players, tables.NUM_PHASES, tables.MAX_TRICKS)
    checks.history(players, tables.num_actions(params))
    checks.in_range("redeals", 0, np.iinfo(np.int64).max)
    dealer = checks.scalar("dealer")
    dealt = np.arange(tables.MAX_SEATS)[None, :] < players
    if players == tables.MAX_SEATS:  # five players: the dealer is dealt no hand (knuffeln_v0's deal order)
        dealt = dealt & (np.arange(tables.MAX_SEATS)[None, :] != dealer[:, None])
    checks.check(((checks.field("dealt_hands") == 0) | dealt).all(axis=1), "dealt_hands",
                 "must be empty for a seat not dealt to")
    checks.cards_partition(["dealt_hands"], "stock", tables.NUM_CARDS, "the hands dealt and the stock")
    for name in ("hands", "played", "exchanged_in", "exchanged_out"):
        checks.in_range(name, 0, tables.FULL_MASK)
