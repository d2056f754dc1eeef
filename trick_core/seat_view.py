"""``SeatView``: the table as one seat may see it — what the arena (and the browser table) hands an agent
instead of the live env, so that no agent, built-in or plug-in, can read another seat's cards.

An agent is called as ``agent.act(view, agent_name)`` with the contract of the public API: it may call

| call | gives |
|---|---|
| ``view.observe(agent_name)`` | its own observation and action mask (another seat: ``PermissionError``) |
| ``view.agent_selection``, ``view.possible_agents``, ``view.terminations`` ... | the public turn state |
| ``view.observation_space(a)``, ``view.action_space(a)`` | the spaces |
| ``view.unwrapped.action_to_string(a)``, ``string_to_action(s)`` | the fixed action strings |
| ``view.unwrapped.legal_actions()``, ``legal_action_strings()`` | its legal actions (when it is to act) |
| ``view.unwrapped.public_record()`` | the hand as its seat knows it: cards it did not see as ``turn:?`` ... |
| ``view.unwrapped.resample_from_infostate(agent_name, rng)`` | a world consistent with what its seat knows |
| ``view.unwrapped.sampled_kernel_state(agent_name, rng)`` | that world's kernel state alone (for compiled search) |
| ``view.unwrapped.game_name``, ``config``, ``num_actions``, ``num_seats``, ``deck`` ... | the table's public settings |

Everything else — ``state()``, ``kernel_state()``, ``game_record()``, ``clone()``, another seat's
observation, sampled world or sampled kernel state, private attributes, and the observation of a table
built with ``observation_type="perfect"`` (it holds every hand) — raises ``PermissionError`` naming what
is allowed.
``SeatView(env, agent, on_refusal=record)`` also calls ``record(agent, what)`` before each refusal, so that
a test (``tests/agents/test_no_peeking_proxy.py``) sees every attempt, even one an agent catches and ignores.

The live env is kept in a closure, not as an attribute, so ``vars(view)`` or ``view.unwrapped.__dict__``
hold nothing of it; the methods handed out are plain functions, not the table's bound methods (whose
``__self__`` is the table); the public dicts come as read-only mappings and the lists as copies, so that an
agent cannot rewrite, say, ``agent_name_mapping`` to have its own name observe another seat; and a sampled
world shares no container with the table. (Python cannot sandbox code running in the same process:
introspection of closures, frames, the garbage collector or the arena's own module would still reach the
table. A plug-in that must be kept out for certain belongs in another process.)
"""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType

PUBLIC_ENV_ATTRIBUTES = frozenset(
    {
        "agent_selection", "agents", "possible_agents", "terminations", "truncations", "rewards",
        "_cumulative_rewards", "infos", "num_agents", "max_num_agents", "metadata", "agent_name_mapping",
    }
)
"""Attributes of the env every seat may read (turn order, who is done, rewards handed out)."""
PUBLIC_TABLE_ATTRIBUTES = frozenset(
    {
        "game_name", "config", "num_actions", "num_seats", "deck", "action_names", "observation_type",
        "obs_size", "possible_agents", "agent_name_mapping", "agent_selection", "metadata",
    }
)
"""Public settings of the table readable through ``view.unwrapped``."""


class _ReadOnlyView:
    """What both views share: every attribute is looked up by the closure ``_access`` (which holds the table),
    and none can be set or deleted (``_refuse`` raises, after telling ``on_refusal``)."""

    __slots__ = ("_access", "_refuse")

    def __getattr__(self, name: str):
        return object.__getattribute__(self, "_access")(name)

    def __setattr__(self, name: str, value) -> None:
        object.__getattribute__(self, "_refuse")(f"setting {name}", "an agent's view of the table is read-only")

    def __delattr__(self, name: str) -> None:
        object.__getattribute__(self, "_refuse")(f"deleting {name}", "an agent's view of the table is read-only")


class SeatView(_ReadOnlyView):
    """The env as seen from one seat (module docstring)."""

    __slots__ = ()

    def __init__(self, env, agent: str, on_refusal: Callable[[str, str], None] | None = None) -> None:
        table = env.unwrapped
        if agent not in table.possible_agents:
            raise ValueError(f"unknown agent {agent!r}; the table seats {table.possible_agents}")
        refuse = _refuser(agent, on_refusal)
        offered = {
            "unwrapped": _TableView(table, agent, refuse),
            "observe": _observer(table, agent, refuse),
            "observation_space": lambda who: table.observation_space(who),
            "action_space": lambda who: table.action_space(who),
        }
        object.__setattr__(self, "_access", _gatekeeper(table, agent, offered, PUBLIC_ENV_ATTRIBUTES, refuse))
        object.__setattr__(self, "_refuse", refuse)

    def __repr__(self) -> str:
        return f"SeatView({self.unwrapped.game_name}, {self.unwrapped.seat_agent})"


class _TableView(_ReadOnlyView):
    """``SeatView.unwrapped``: the public methods of the table for one seat."""

    __slots__ = ("seat_agent",)

    def __init__(self, table, agent: str, refuse) -> None:
        def legal_actions() -> list[int]:
            return table.legal_actions() if table.agent_selection == agent else []

        offered = {
            "action_to_string": lambda action: table.action_to_string(action),
            "string_to_action": lambda text: table.string_to_action(text),
            "legal_actions": legal_actions,
            "legal_action_strings": lambda: [table.action_to_string(a) for a in legal_actions()],
            "public_record": lambda: table.public_record(agent),
            "resample_from_infostate": lambda who, rng: table.resample_from_infostate(
                _own(who, agent, "resample_from_infostate", refuse), rng),
            "sampled_kernel_state": lambda who, rng: table.sampled_kernel_state(
                _own(who, agent, "sampled_kernel_state", refuse), rng),
            "observe": _observer(table, agent, refuse),
        }
        object.__setattr__(self, "_access", _gatekeeper(table, agent, offered, PUBLIC_TABLE_ATTRIBUTES, refuse))
        object.__setattr__(self, "_refuse", refuse)
        object.__setattr__(self, "seat_agent", agent)

    @property
    def unwrapped(self) -> _TableView:
        return self


def _gatekeeper(table, agent: str, offered: dict, public_attributes: frozenset, refuse):
    """The ``_access`` of a view: what it offers by name, the table's public attributes read-only, and a
    ``PermissionError`` naming what is allowed for anything else."""

    def access(name: str):
        if name in offered:
            return offered[name]
        if name in public_attributes:
            return _read_only(getattr(table, name))
        refuse(name, _refusal(name, agent))

    return access


def _refuser(agent: str, on_refusal):
    """``refuse(what, message)``: tell ``on_refusal(agent, what)`` (if given), then raise ``PermissionError``."""

    def refuse(what: str, message: str):
        if on_refusal is not None:
            on_refusal(agent, what)
        raise PermissionError(message)

    return refuse


def _observer(table, agent: str, refuse):
    """``observe(who)`` of a view: the seat's own observation only, and never a perfect one (every hand)."""

    def observe(who: str):
        _own(who, agent, "observe", refuse)
        if table.observation_type == "perfect":
            refuse("perfect observation", f"{agent}'s view of the table cannot observe: the table gives "
                   "perfect observations (every seat's cards); build it with another observation_type")
        return table.observe(who)

    return observe


def _read_only(value):
    """A public container of the table as an agent gets it: a dict as a read-only view of it, a list as a
    copy (immutable values as they are)."""
    if isinstance(value, dict):
        return MappingProxyType(value)
    if isinstance(value, list):
        return list(value)
    return value


def _own(who: str, agent: str, what: str, refuse) -> str:
    if who != agent:
        refuse(f"{what} for another seat", f"{agent}'s view of the table cannot {what} for {who!r}: only for "
               f"{agent!r}")
    return who


def _refusal(name: str, agent: str) -> str:
    allowed = "observe, observation_space, action_space, " + ", ".join(sorted(PUBLIC_ENV_ATTRIBUTES))
    return (
        f"{name!r} is not available through {agent}'s view of the table (it could show cards the seat "
        f"cannot see). Allowed: {allowed}; on .unwrapped: action_to_string, string_to_action, legal_actions, "
        f"legal_action_strings, public_record, resample_from_infostate, sampled_kernel_state, "
        + ", ".join(sorted(PUBLIC_TABLE_ATTRIBUTES))
    )
