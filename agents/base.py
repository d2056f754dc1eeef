"""What every agent is: a ``name`` and ``act(env, agent) -> int``, plus the few helpers agents share.

An agent is called when ``agent`` (a seat name such as ``"player_2"``) is to act in the wrapped PettingZoo
``env``. It may look at the table only through

- ``env.observe(agent)`` (the seat's observation and its ``action_mask``),
- ``env.unwrapped.resample_from_infostate(agent, rng)``: a cloned env whose hidden cards are a sample
  consistent with everything that seat knows. The clone's own-seat information is exact, so an agent may
  read the clone's ``state()`` or kernel for what its own seat knows; what the clone shows of other seats
  is a guess. A clone holds none of the real table's hidden cards, so redealing the clone's hidden cards
  again draws from the same worlds, and
- ``env.unwrapped.sampled_kernel_state(agent, rng)``: that clone's kernel state alone (the same array for
  the same ``rng``), without the env around it. A search that hands the world to compiled code, which
  redeals it at once (``pimc``, ``ismcts``, ``pimc_neural``: ``agents.search``), asks for this: building
  the clone cost more than the redeal.

It never reads the real env's hidden state (``state()``, ``kernel_state()``, other seats' observations).
The no-peeking tests check this for the built-in agents: two tables that differ only in cards a seat
cannot see get the same decision from the same seeded agent.

Seeding: the arena calls ``agent.reset(seed)`` before every hand, when the agent has such a method, so
that matches are reproducible whatever the order in which hands are played (and in parallel).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from trick_core.checks import check_seed, positive_int, probability  # noqa: F401 (agents import the last two here)
from trick_core.registry import game_spec


class Agent:
    """Base class of the built-in agents (outside agents only need ``name`` and ``act``)."""

    name = "agent"

    def __init__(self, game: str, seed: int | None = None) -> None:
        self.game = game_spec(game).name
        self.rng = np.random.default_rng(_checked_seed(seed, self))
        self.decisions = 0

    def reset(self, seed: int | None = None) -> None:
        """Re-seed the agent's random stream (called by the arena before each hand)."""
        self.rng = np.random.default_rng(_checked_seed(seed, self))

    def act(self, env, agent: str) -> int:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}(game={self.game!r})"


class ActionValueAgent(Agent):
    """An agent that values each legal action (``action_values``) and plays the best one, the lower index
    on a tie; a forced move is played without valuing it. The search agents are of this kind."""

    def act(self, env, agent: str) -> int:
        self.check_table(env)
        legal = legal_actions(env, agent)
        self.decisions += 1
        if legal.size == 1:
            return int(legal[0])
        values = self.action_values(env, agent, legal)
        return int(legal[int(np.argmax(values))])

    def check_table(self, env) -> None:
        """Raise ``ValueError`` if the agent cannot play this table (default: it can play any)."""

    def action_values(self, env, agent: str, legal: np.ndarray | None = None) -> np.ndarray:
        """The value of each legal action for ``agent``'s seat, in the order of ``legal``."""
        raise NotImplementedError


def _checked_seed(seed, agent: Agent):
    if seed is not None:
        check_seed(seed, agent.name)
    return seed


def legal_actions(env, agent: str) -> np.ndarray:
    """Legal action indices of ``agent`` from its own observation's ``action_mask``."""
    mask = env.observe(agent)["action_mask"]
    legal = np.flatnonzero(mask)
    if legal.size == 0:
        raise ValueError(f"{agent} has no legal action: it is not its turn or the hand is over")
    return legal


_ACTION_MASKS: dict[tuple, np.ndarray] = {}


def actions_named(env, kind: str, test: Callable[[str], bool]) -> np.ndarray:
    """Which action indices of ``env`` have a name that passes ``test``, as a bool array; cached per
    ``kind`` (the name of the test) and action list, so a search agent asks it at every decision."""
    names = env.unwrapped.action_names
    key = (kind, names)
    mask = _ACTION_MASKS.get(key)
    if mask is None:
        mask = _ACTION_MASKS[key] = np.array([test(name) for name in names], dtype=bool)
    return mask


def card_actions(env) -> np.ndarray:
    """Which action indices of ``env`` play a card: face up, or face down (the game's ``face_down_actions``)."""
    deck, spec = env.unwrapped.deck, game_spec(env.unwrapped.game_name)
    return actions_named(env, f"card {spec.name}", lambda name: deck.is_card(name) or spec.plays_face_down(name))


def turn_actions(env) -> np.ndarray:
    """Which action indices of ``env`` play a card face down (the game's ``face_down_actions``, Knüffeln's
    ``turn:C``); none in most games."""
    spec = game_spec(env.unwrapped.game_name)
    return actions_named(env, f"turn {spec.name}", spec.plays_face_down)


def talk_actions(env) -> np.ndarray:
    """Which action indices of ``env`` are table talk (the game's ``talk_actions``); none in most games."""
    spec = game_spec(env.unwrapped.game_name)
    return actions_named(env, f"talk {spec.name}", spec.is_talk)


def seat_of(env, agent: str) -> int:
    """Seat index of an agent name (``player_i`` sits at seat ``i``)."""
    try:
        return env.unwrapped.possible_agents.index(agent)
    except ValueError:
        raise ValueError(f"unknown agent {agent!r}; the table seats {env.unwrapped.possible_agents}") from None
