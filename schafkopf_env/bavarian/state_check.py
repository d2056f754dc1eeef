"""What a Bavarian kernel state must satisfy before a batch env loads it (``trick_core.state_check``): the
checks of every four-hand Schafkopf game (``schafkopf_env.state_checks``) by this game's tables."""

from __future__ import annotations

import functools

from schafkopf_env.state_checks import validate_four_hand_states

from . import tables
from .layout import layout

UNREPLAYED_FIELDS: tuple[str, ...] = ()
"""Every field follows from the deal and the actions."""

validate_states = functools.partial(validate_four_hand_states, tables, layout)
"""``validate_states(states, params, labels)``: ``ValueError`` naming the first row and field out of range."""
