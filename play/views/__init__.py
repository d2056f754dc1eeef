"""Views: the JSON a browser draws a table from, built on the server for one seat (or for everyone in
the replay viewer). ``table_view(env, viewer)`` is the only way game state leaves the server.

See ``play.views.common`` for the shape shared by every game and the game modules for what each seat
may see.
"""

from __future__ import annotations

from .common import ViewContext, action_entry
from .knuffeln import knuffeln_label, knuffeln_view
from .schafkopf import asserufen_label, asserufen_view, bavarian_label, bavarian_view, palatinate_label, palatinate_view

VIEW_BUILDERS = {
    "bavarian": bavarian_view,
    "palatinate": palatinate_view,
    "asserufen": asserufen_view,
    "knuffeln": knuffeln_view,
}

ACTION_LABELS = {
    "bavarian": bavarian_label,
    "palatinate": palatinate_label,
    "asserufen": asserufen_label,
    "knuffeln": knuffeln_label,
}
"""The text of every action string of each game (buttons and the log)."""


def table_view(env, viewer: str | None, address_viewer: bool = False) -> dict:
    """The table as ``viewer`` may see it; ``viewer=None``: every card (the replay viewer's full mode).
    ``address_viewer``: texts call the viewer "You" (the table's player)."""
    base = env.unwrapped
    if viewer is not None and viewer not in base.possible_agents:
        raise ValueError(f"unknown seat {viewer!r}; seats are {base.possible_agents}")
    context = ViewContext(base, base.state(), viewer, address_viewer=address_viewer)
    return VIEW_BUILDERS[base.game_name](context)


def action_control(env, action: str) -> dict:
    """How the page offers ``action`` of ``env``'s game: its verb, card and label (see ``action_entry``)."""
    base = env.unwrapped
    context = ViewContext(base, base.state(), None)
    return action_entry(context, action, lambda text: ACTION_LABELS[base.game_name](context, text))


__all__ = ["ACTION_LABELS", "VIEW_BUILDERS", "action_control", "table_view"]
