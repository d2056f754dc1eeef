"""What a Bavarian kernel state must satisfy before a batch env loads it (``trick_core.state_check``): the
checks of every four-hand Schafkopf game (``schafkopf_env.state_checks``) by this game's tables, the pack
(whose cards the four dealt hands partition) read from the env's ``params``."""

from __future__ import annotations

import types

import numpy as np

from schafkopf_env.state_checks import validate_four_hand_states

from . import tables
from .layout import layout

UNREPLAYED_FIELDS: tuple[str, ...] = ()
"""Every field follows from the deal and the actions."""


def validate_states(states: np.ndarray, params: np.ndarray, labels: np.ndarray) -> None:
    """``ValueError`` naming the first row and field out of range (the hands partitioning the pack of
    ``params``: 32 cards, or 24 with ``pack="short"``)."""
    short = int(params[tables.PARAM_HAND_SIZE]) == tables.SHORT_HAND_SIZE
    pack = types.SimpleNamespace(**{name: getattr(tables, name) for name in dir(tables) if name.isupper()})
    pack.FULL_MASK = tables.SHORT_PACK_MASK if short else tables.FULL_MASK
    validate_four_hand_states(pack, layout, states, params, labels)
