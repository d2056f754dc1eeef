"""What each seat may see of every action: the vocabulary of the games' tables, and the one function that
applies them.

Most actions are public: every seat sees a bid, a call, a card played face up. A few name a card that
only some seats see. Each game's env says which in one table, its class attribute ``action_visibility``:
for each *kind* of action (the part of its string before ``:``) whose card not every seat sees, who does
see it. A kind the table does not name is public.

| value | who sees the card | example |
|---|---|---|
| ``SEEN_BY_ACTOR`` | the seat that acted, nobody else | Palatinate ``discard:C`` (laid away unseen) |
| ``SEEN_BY_ACTOR_TEAM`` | the actor and its teammates (``env._teammates``) | Knüffeln ``show:C`` (half-shown) |
| ``SEEN_BY_ACTOR_UNTIL_ACCEPTED`` | the actor; everyone once the next action is ``accept`` | Knüffeln ``turn:C`` |

A seat that may not see an action's card still sees that the action happened: it reads ``<kind>:?``
(``turn:?``, ``show:?``, ``discard:?``). ``public_actions`` is the only place the tables are applied: the
public record an agent may read (``TrickTakingEnv.public_record``, what ``SeatView`` hands out) and the
browser's views (``play.views``) both take the actions from it, so the two cannot disagree. The compiled
resampling keeps its own copy of Knüffeln's rule (``knuffeln_env.knuffeln.resample.hidden_from``); the
twin-table tests check that all of them hide the same cards (``tests/arena/test_public_record.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

SEEN_BY_ACTOR = "actor"
"""Only the seat that took the action sees its card."""
SEEN_BY_ACTOR_TEAM = "actor's team"
"""The actor and its teammates see the card; the other seats do not."""
SEEN_BY_ACTOR_UNTIL_ACCEPTED = "actor until accepted"
"""Only the actor sees the card, unless the next action of the history is ``accept`` (then everyone)."""
VISIBILITIES = (SEEN_BY_ACTOR, SEEN_BY_ACTOR_TEAM, SEEN_BY_ACTOR_UNTIL_ACCEPTED)

HIDDEN = "?"
"""What stands for the card of an action a seat did not see: ``turn:?``."""
ACCEPT = "accept"


def hidden_form(action: str) -> str:
    """``action`` as a seat that did not see its card reads it: ``"turn:H2"`` -> ``"turn:?"``."""
    return action.partition(":")[0] + ":" + HIDDEN


def is_hidden(action: str) -> bool:
    """Whether an action string is the hidden form of another (``"turn:?"``)."""
    return action.endswith(":" + HIDDEN)


def seat_sees(visibility: dict[str, str], history: Sequence[tuple[int, str]], index: int, viewer: int,
              teammates: Callable[[int, int], bool]) -> bool:
    """Whether seat ``viewer`` sees the card of action ``history[index]`` (``(seat, action string)``
    pairs), by the game's table ``visibility``; ``teammates(a, b)`` says whether two seats are partners."""
    actor, action = history[index]
    kind, colon, _ = action.partition(":")
    rule = visibility.get(kind) if colon else None
    if rule is None or actor == viewer:
        return True
    if rule == SEEN_BY_ACTOR:
        return False
    if rule == SEEN_BY_ACTOR_TEAM:
        return teammates(actor, viewer)
    if rule == SEEN_BY_ACTOR_UNTIL_ACCEPTED:
        return index + 1 < len(history) and history[index + 1][1] == ACCEPT
    raise ValueError(f"unknown visibility {rule!r} of action kind {kind!r}; known: {VISIBILITIES}")


def public_actions(visibility: dict[str, str], history: Sequence[tuple[int, str]], viewer: int | None,
                   teammates: Callable[[int, int], bool]) -> list[str]:
    """Every action string of ``history`` as seat ``viewer`` saw it: the cards it did not see written as
    ``<kind>:?``. ``viewer=None``: every action as it was (a view that sees every card)."""
    if viewer is None:
        return [action for _, action in history]
    return [action if seat_sees(visibility, history, index, viewer, teammates) else hidden_form(action)
            for index, (_, action) in enumerate(history)]


def check_visibility(visibility: dict[str, str], action_names: Sequence[str], game: str) -> None:
    """A game's table names only kinds of its own actions that carry a card (``kind:...``), with known
    values: ``ValueError`` naming the entry otherwise (a misspelt kind would leave its cards public)."""
    kinds = {name.partition(":")[0] for name in action_names if ":" in name}
    for kind, rule in visibility.items():
        if kind not in kinds:
            raise ValueError(f"{game}: action_visibility names {kind!r}, which is no kind of its actions "
                             f"({sorted(kinds)})")
        if rule not in VISIBILITIES:
            raise ValueError(f"{game}: action_visibility[{kind!r}] is {rule!r}; known: {VISIBILITIES}")
