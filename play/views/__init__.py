"""Views: the JSON a browser draws a table from, built on the server for one seat (or for everyone in
the replay viewer). ``table_view(env, viewer)`` is the only way game state leaves the server.

See ``play.views.common`` for the shape shared by every game and the game modules for what each seat
may see; each game module declares its games' ``GameInfo`` (``view`` and ``label`` among them), which the
game's spec names (``browser``).
"""

from __future__ import annotations

from ..catalog import game_info
from .common import ViewContext, action_entry


def table_view(env, viewer: str | None, address_viewer: bool = False) -> dict:
    """The table as ``viewer`` may see it; ``viewer=None``: every card (the replay viewer's full mode).
    ``address_viewer``: texts call the viewer "You" (the table's player)."""
    base = env.unwrapped
    if viewer is not None and viewer not in base.possible_agents:
        raise ValueError(f"unknown seat {viewer!r}; seats are {base.possible_agents}")
    context = ViewContext(base, base.state(), viewer, address_viewer=address_viewer)
    return game_info(base.game_name).view(context)


def action_control(env, action: str) -> dict:
    """How the page offers ``action`` of ``env``'s game: its verb, card and label (see ``action_entry``)."""
    base = env.unwrapped
    context = ViewContext(base, base.state(), None)
    return action_entry(context, action, lambda text: game_info(base.game_name).label(context, text))


__all__ = ["action_control", "table_view"]
