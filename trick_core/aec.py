"""The PettingZoo AEC machinery shared by every game, written once.

``TrickTakingEnv`` owns everything that is not a rule: agents and turn order, the safety that PettingZoo's
stock wrappers would add (turn order, bounds, legality — built in, because the wrappers cost about ten
times a lean step), illegal-move handling, rewards and dead steps, seeding, fixed deals and game records,
replay, cloning and rendering. A game subclass supplies the rules through a handful of hooks, each
backed by its compiled kernel:

| hook | what it does |
|---|---|
| ``_random_deal(rng)`` | a deal drawn from a ``numpy.random.Generator`` (game's own representation) |
| ``_parse_deal(options)`` | a deal from ``reset`` options; ``ValueError`` naming any problem |
| ``_deal_options(deal)`` | the ``reset`` options that recreate a deal (cards written out) |
| ``_start(deal)`` | set up the kernel state for a new hand |
| ``_current_seat()`` | the seat to act, or -1 when the hand is over |
| ``_fill_action_mask(out)`` | legal actions of the seat to act, into an int8 array |
| ``_apply(action)`` | apply a legal action |
| ``_advance(action)`` | optional: apply, refill ``self._action_mask``, return the next seat (one kernel call) |
| ``_settlement()`` | units per seat once the hand is over (zero-sum; all zeros when thrown in) |
| ``_fill_observation(seat, out)`` | that seat's observation into ``out`` (fresh float32, uninitialised: write all) |
| ``_render_text()`` | the table as text |

Subclasses also set ``game_name``, ``deck``, ``action_names`` (index = action) and call
``_setup_spaces``. Their constructors take the game's rule options by name and the options every env
shares as ``**options: Unpack[EnvOptions]`` (``trick_core.env_options``).

Speed: a step of the AEC loop costs a few microseconds, so the per-step path is kept lean. ``step``
handles the common case (the hand goes on) inline and calls ``_after_action`` only when the hand is over;
``observe`` allocates with prebuilt dtypes and hands ``_fill_observation`` only its own fresh float32 array
(so the envs may call the kernel's compiled entry point there);
``last``, ``agent_iter`` and ``_was_dead_step`` are PettingZoo's, rewritten without their per-call
overhead (same semantics); and kernels are called through ``CompiledKernel``
(``trick_core.compiled_kernel``), which skips numba's per-call type dispatch (0.15-0.4 us a call).
"""

from __future__ import annotations

import copy
import json
from typing import Any, Unpack

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from . import visibility
from .checks import check_seed as check_seed  # re-exported: its home before trick_core.checks
from .env_options import OBSERVATION_TYPES as OBSERVATION_TYPES  # re-exported: their home before env_options
from .env_options import EnvOptions, checked_env_options
from .env_options import UnknownRenderModeError as UnknownRenderModeError
from .registry import DEAL_KEYS

DEAL_OPTION_KEYS = frozenset({"dealer", "hands", "record", *DEAL_KEYS})  # DEAL_KEYS: the games' own (GameSpec)
IGNORED_RESET_KEYS = frozenset({"options"})
"""PettingZoo's ``api_test`` calls ``reset(options={"options": 1})``; that key alone is tolerated."""


_PER_HAND_CONTAINERS = ("agents", "rewards", "_cumulative_rewards", "terminations", "truncations", "_action_history")
"""The mutable containers a hand changes; ``clone`` copies these (and every numpy array)."""
_TABLE_CONTAINERS = (
    "possible_agents", "agent_name_mapping", "config", "_string_to_action", "_all_zero", "_all_false",
    "action_spaces", "observation_spaces",
)
"""The containers the table sets up once and never changes; ``clone`` copies these too (shallow), so that
whoever holds a clone (an agent's sampled world) cannot change the original through them."""


FLOAT32 = np.dtype(np.float32)
INT8 = np.dtype(np.int8)
"""dtype objects: ``np.empty(n, np.float32)`` spends about 0.2 us resolving the type, once per observation."""


class IllegalActionError(ValueError):
    """An action that is out of range, not legal now, or taken out of turn."""


class ActionTypeError(IllegalActionError, TypeError):
    """An action that is not an integer index (a float, a bool, an array of shape ``(1,)``...): a programming
    error, raised whatever ``illegal_action`` says; still an ``IllegalActionError``, as every rejected step."""


class TrickTakingEnv(AECEnv):
    """Base class of every environment of the project (see the module docstring)."""

    metadata = {"render_modes": ["ansi", "human"], "is_parallelizable": False, "render_fps": 1}
    game_name = "abstract"
    deck = None
    action_names: tuple[str, ...] = ()
    _clone_containers: tuple[str, ...] = ()
    """Subclasses name here the extra lists/dicts a hand mutates in place, so that ``clone`` copies them."""
    _clone_copies_rng = False
    """True for envs that draw from ``_np_random`` during an episode (not only at reset)."""

    def __init__(self, num_seats: int, config: dict, **options: Unpack[EnvOptions]) -> None:
        """``config``: the game's rule options as the game record states them; ``options``: ``EnvOptions``."""
        super().__init__()
        options = checked_env_options(self.game_name, options, self.metadata["render_modes"])
        self.render_mode = options["render_mode"]
        self.observation_type = options["observation_type"]
        self.illegal_action = options["illegal_action"]
        self.illegal_reward = options["illegal_reward"]
        self.config = dict(config)
        self.num_seats = num_seats
        self.possible_agents = [f"player_{i}" for i in range(num_seats)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self._all_zero = dict.fromkeys(self.possible_agents, 0.0)
        self._all_false = dict.fromkeys(self.possible_agents, False)
        self._string_to_action = {s: i for i, s in enumerate(self.action_names)}
        if len(self._string_to_action) != len(self.action_names):
            raise RuntimeError(f"{self.game_name}: action strings are not unique")
        self._np_random = None
        self._started = False
        # agent_name_mapping from the first reset on, empty before: observe's one dict lookup of a seat
        # also catches a call before reset
        self._seat_once_dealt: dict[str, int] = {}
        self.agents: list[str] = []

    # ----------------------------------------------------------------- spaces

    def _setup_spaces(self, obs_size: int, obs_high: float) -> None:
        """Create the spaces once; PettingZoo requires the same object on every call."""
        self.num_actions = len(self.action_names)
        self.obs_size = obs_size
        observation = gymnasium.spaces.Box(0.0, obs_high, (obs_size,), np.float32)
        mask = gymnasium.spaces.Box(0, 1, (self.num_actions,), np.int8)
        obs_space = gymnasium.spaces.Dict({"observation": observation, "action_mask": mask})
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(self.num_actions) for a in self.possible_agents}
        self._action_mask = np.zeros(self.num_actions, dtype=np.int8)

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    # ----------------------------------------------------------------- strings

    def action_to_string(self, action: int) -> str:
        """The fixed string of an action index (each env's docs page lists them); a non-integer is refused as
        ``step`` refuses it."""
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise ActionTypeError(f"{self.game_name}: action must be an integer index, got {type(action).__name__} "
                                  f"{action!r}")
        if not 0 <= int(action) < len(self.action_names):
            raise ValueError(f"{self.game_name}: action {action!r} is not in 0..{len(self.action_names) - 1}")
        return self.action_names[int(action)]

    def string_to_action(self, text: str) -> int:
        """The action index of a fixed string; cards are matched case-insensitively."""
        action = self._string_to_action.get(text)
        if action is None and isinstance(text, str):
            action = self._string_to_action.get(self._normalise_action_string(text))
        if action is None:
            raise ValueError(f"{self.game_name}: unknown action string {text!r}")
        return action

    def _normalise_action_string(self, text: str) -> str:
        if ":" in text:
            head, tail = text.split(":", 1)
            return f"{head.strip().lower()}:{tail.strip().upper()}"
        stripped = text.strip()
        return stripped.upper() if self.deck is not None and self.deck.is_card(stripped) else stripped.lower()

    def _seat_of(self, agent) -> int:
        """The seat of an agent name; ``ValueError`` naming the agents for anything else."""
        seat = self.agent_name_mapping.get(agent) if isinstance(agent, str) else None
        if seat is None:
            raise ValueError(f"{self.game_name}: unknown agent {agent!r}; agents are {self.possible_agents}")
        return seat

    def _require_reset(self, what: str) -> None:
        """``RuntimeError`` telling to call ``reset`` first when no hand has been dealt yet."""
        if not self._started:
            raise RuntimeError(f"{self.game_name}: call reset() before {what}()")

    def legal_actions(self) -> list[int]:
        """Legal action indices of the agent to act (empty once the hand is over)."""
        if not self._started or self._current_seat() < 0:
            return []
        return np.flatnonzero(self._action_mask).tolist()

    def legal_action_strings(self) -> list[str]:
        return [self.action_names[a] for a in self.legal_actions()]

    # ----------------------------------------------------------------- reset

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._np_random = np.random.default_rng(check_seed(seed, self.game_name))
            self.__dict__.pop("_rng_seed_to_restore", None)
            self.__dict__.pop("_rng_state_to_restore", None)
        deal = self._deal_from_options(options)
        self.agents = self.possible_agents[:]
        self.rewards = self._all_zero.copy()  # copying a template: a third of dict.fromkeys's cost
        self._cumulative_rewards = self._all_zero.copy()
        self.terminations = self._all_false.copy()
        self.truncations = self._all_false.copy()
        self.infos = {a: {} for a in self.agents}
        self._deal = deal
        self._action_history: list[tuple[int, int]] = []
        self._illegal_seat = -1
        self._start(deal)
        self._started = True
        self._seat_once_dealt = self.agent_name_mapping
        seat = self._current_seat()
        if seat >= 0:
            self._fill_action_mask(self._action_mask)
        self._after_action(seat)

    def _generator(self) -> np.random.Generator:
        """The env's generator. A clone or a sampled world builds its own on first use: building one costs
        10-90 us, a large share of a search's resample, and most of them never draw."""
        if self._np_random is None:
            self._np_random = self._restored_generator()
        return self._np_random

    def _restored_generator(self) -> np.random.Generator:
        """A clone continues its original's random stream, a sampled world starts the stream of its own seed
        (``_rng_seed_to_restore``), a fresh env starts an unseeded one."""
        seed = self.__dict__.pop("_rng_seed_to_restore", None)
        state = self.__dict__.pop("_rng_state_to_restore", None)
        if seed is not None:
            return np.random.default_rng(seed)
        generator = np.random.default_rng()
        if state is not None:
            generator.bit_generator.state = state
        return generator

    def _deal_from_options(self, options: dict | None):
        if not options:
            return self._random_deal(self._generator())
        if not isinstance(options, dict):
            raise ValueError(f"reset options must be a dict, got {type(options).__name__}")
        unknown = set(options) - DEAL_OPTION_KEYS - IGNORED_RESET_KEYS
        if unknown:
            raise ValueError(
                f"{self.game_name}: unknown reset option(s) {sorted(unknown)}; known: {sorted(DEAL_OPTION_KEYS)}"
            )
        if "record" in options:
            others = sorted(set(options) & DEAL_OPTION_KEYS - {"record"})
            if others:
                raise ValueError(
                    f"{self.game_name}: reset option 'record' restores the record's own deal; it cannot be "
                    f"combined with {others}"
                )
            return self._deal_from_record(options["record"])
        if not set(options) & DEAL_OPTION_KEYS:
            return self._random_deal(self._generator())
        return self._parse_deal(options)

    def _deal_from_record(self, record: dict):
        if not isinstance(record, dict):
            raise ValueError(f"{self.game_name}: a game record must be a dict, got {type(record).__name__}")
        if not isinstance(record.get("deal"), dict):
            raise ValueError(f"{self.game_name}: the record has no 'deal' (a dict of reset options), got "
                             f"{record.get('deal')!r}")
        if record.get("game") != self.game_name:
            raise ValueError(f"record is of game {record.get('game')!r}, this env plays {self.game_name!r}")
        if unknown := sorted(map(str, set(record["deal"]) - (DEAL_OPTION_KEYS - {"record"}))):  # as reset() does
            raise ValueError(f"{self.game_name}: the record's deal has unknown key(s) {unknown}")
        rules_config = self._record_config()
        if record.get("config", rules_config) != rules_config:
            raise ValueError(f"record config {record.get('config')} differs from this env's {rules_config}")
        return self._parse_deal(record["deal"])

    def _record_config(self) -> dict:
        """The options that change the rules (for records); observation settings do not."""
        return json.loads(json.dumps(self.config))

    # ----------------------------------------------------------------- step

    def step(self, action) -> None:
        if not self._started:
            raise RuntimeError(f"{self.game_name}: reset() must be called before step()")
        agent = self.agent_selection
        try:  # free on the common path; a KeyError only once every agent has left
            done = self.terminations[agent] or self.truncations[agent]
        except KeyError:
            self._raise_all_removed("step")
        if done:
            if action is not None:
                raise IllegalActionError(f"{agent} is done; step(None) is the only move left, got {action!r}")
            self._was_dead_step(action)
            return
        if type(action) is not int:
            if not isinstance(action, np.integer):  # a 0-d integer array, or ActionTypeError
                action = integer_action(action, self.game_name, self.legal_action_strings())
            action = int(action)
        if not 0 <= action < self.num_actions or not self._action_mask[action]:
            self._illegal(agent, action)
            return
        self._action_history.append((self.agent_name_mapping[agent], action))
        self._cumulative_rewards[agent] = 0.0
        seat = self._advance(action)
        if seat >= 0:  # the hand goes on: the common case, inline
            self.agent_selection = self.possible_agents[seat]
        else:
            self._after_action(seat)

    def _advance(self, action: int) -> int:
        """Apply ``action``, refill ``self._action_mask`` for the next seat, return it (-1: over).
        Kernels override this with their one-call ``advance``."""
        self._apply(action)
        seat = self._current_seat()
        if seat >= 0:
            self._fill_action_mask(self._action_mask)
        return seat

    def _after_action(self, seat: int) -> None:
        """Select ``seat`` to act, or settle the hand (``seat`` -1). ``reset`` calls it with any seat,
        ``step`` only with -1 (it selects a next seat itself)."""
        if seat >= 0:
            self.agent_selection = self.possible_agents[seat]
            return
        self._action_mask[:] = 0
        for agent, units in zip(self.possible_agents, self._settlement(), strict=True):
            self.rewards[agent] = float(units)
            self._cumulative_rewards[agent] += float(units)
            self.terminations[agent] = True
        self.agent_selection = self.possible_agents[self._first_seat_after_end()]

    def _raise_all_removed(self, what: str) -> None:  # PettingZoo's loop ends on empty agents; then only reset
        raise RuntimeError(f"{self.game_name}: every agent is done and removed; call reset() before {what}()")

    def _first_seat_after_end(self) -> int:
        return 0

    def _illegal(self, agent: str, action) -> None:
        legal = ", ".join(self.legal_action_strings())
        try:
            name = repr(self.action_to_string(action))
        except ValueError:
            name = "out of range"
        message = f"{self.game_name}: illegal action {action!r} ({name}) by {agent}; legal now: {legal}"
        if self.illegal_action == "raise":
            raise IllegalActionError(message)
        gymnasium.logger.warn(f"{message}. Terminating with reward {self.illegal_reward} for {agent}.")
        self._illegal_seat = self.agent_name_mapping[agent]
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
            self.terminations[a] = True
        self.rewards[agent] = self.illegal_reward
        self._accumulate_rewards()
        self._action_mask[:] = 0

    # ----------------------------------------------------------------- observe

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """Fresh arrays every call (the caller may keep them). The observation starts uninitialised:
        ``_fill_observation`` writes every entry (the kernels zero it first)."""
        try:  # the common case at the cost of one dict lookup; anything else is named below
            seat = self._seat_once_dealt[agent]
        except (KeyError, TypeError):
            self._seat_of(agent)  # an unknown agent
            self._require_reset("observe")  # or no hand dealt yet
            raise
        observation = np.empty(self.obs_size, FLOAT32)
        self._fill_observation(seat, observation)
        if agent == self.agent_selection and not self.terminations[agent]:
            mask = self._action_mask.copy()
        else:
            mask = np.zeros(self.num_actions, INT8)
        return {"observation": observation, "action_mask": mask}

    def last(self, observe: bool = True):
        """PettingZoo's ``last`` (observation, cumulative reward, termination, truncation, info of the
        agent to act); an explicit error instead of its ``assert``."""
        if not self.agents:
            self._require_reset("last")
            self._raise_all_removed("last")
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def agent_iter(self, max_iter: int = 2**63) -> _AgentIterable:
        """PettingZoo's ``agent_iter``: yields ``agent_selection`` while agents remain, at most
        ``max_iter`` times; each ``iter()`` starts afresh. A generator, cheaper per turn than
        ``AECIterator.__next__``."""
        return _AgentIterable(self, max_iter)

    def _was_dead_step(self, action) -> None:
        """PettingZoo's ``AECEnv._was_dead_step`` with the same effects, without its per-call overhead:
        remove the done agent; select the next done agent (remembering the live one to come back to) or,
        when none is left, that live one; set every remaining reward to 0."""
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")
        agent = self.agent_selection
        terminations = self.terminations
        truncations = self.truncations
        del terminations[agent], truncations[agent], self.rewards[agent]
        del self._cumulative_rewards[agent], self.infos[agent]
        self.agents.remove(agent)
        skip = getattr(self, "_skip_agent_selection", None)
        for other in self.agents:
            if terminations[other] or truncations[other]:
                if skip is None:
                    self._skip_agent_selection = agent
                self.agent_selection = other
                break
        else:
            if skip is not None:
                self.agent_selection = skip
            self._skip_agent_selection = None
        rewards = self.rewards
        for other in rewards:
            rewards[other] = 0

    # ----------------------------------------------------------------- records

    def game_record(self) -> dict[str, Any]:
        """JSON-serialisable record: game, config, deal (reset options), actions, result."""
        self._require_reset("game_record")
        actions = [[self.possible_agents[seat], self.action_names[a]] for seat, a in self._action_history]
        over = self._started and self._current_seat() < 0 and self._illegal_seat < 0
        result = [float(u) for u in self._settlement()] if over else None
        return {"game": self.game_name, "config": self._record_config(), "deal": self._deal_options(self._deal),
                "actions": actions, "result": result}

    action_visibility: dict[str, str] = {}
    """Each env's table of who sees the card of which kind of action (``trick_core.visibility``)."""

    def public_actions(self, agent: str | None) -> list[list[str]]:
        """Every action so far as ``[agent, action string]``, as ``agent``'s seat saw it: the cards it could
        not see written ``"<kind>:?"`` (``action_visibility``); ``None``: every card (the replay viewer)."""
        self._require_reset("public_actions")
        viewer = None if agent is None else self._seat_of(agent)
        history = [(seat, self.action_names[action]) for seat, action in self._action_history]
        shown = visibility.public_actions(self.action_visibility, history, viewer, self._teammates)
        return [[self.possible_agents[seat], name] for (seat, _), name in zip(history, shown, strict=True)]

    def _teammates(self, seat: int, other: int) -> bool:
        """Whether two seats are partners, for ``SEEN_BY_ACTOR_TEAM`` (a game with such actions overrides it)."""
        return False

    def public_record(self, agent: str) -> dict[str, Any]:
        """The record of the hand as ``agent``'s seat knows it: the dealer and its own cards as dealt in the
        hand being played (``state()``'s ``dealer`` and ``dealt_hands``), every action with the cards it could
        not see written as ``"<kind>:?"`` (``"turn:?"``, ``"discard:?"``, ``"show:?"``: ``public_actions``),
        and the result once the hand is over. What an agent may read (``SeatView``)."""
        self._seat_of(agent)  # an unknown agent: ValueError naming it
        self._require_reset("public_record")
        record, state = self.game_record(), self.state()
        return {"game": record["game"], "config": record["config"], "agent": agent,
                "dealer": state["dealer"], "hand": self._seen_dealt_hand(agent, state),
                "actions": self.public_actions(agent), "result": record["result"]}

    def _seen_dealt_hand(self, agent: str, state: dict) -> list[str]:
        """``agent``'s dealt hand as its seat has seen it: all of it, unless a game shows a hand in parts
        (Bavarian's Klopfen overrides this), so that the public record never names a card not yet shown."""
        return list(state["dealt_hands"][agent])

    def replay(self, record: dict) -> None:
        """Reset to the record's deal and play its actions; raise ``ValueError`` naming the first entry
        that is malformed or does not fit (wrong agent, unknown or illegal action, another result)."""
        actions = record.get("actions") if isinstance(record, dict) else None
        if not isinstance(actions, list):
            raise ValueError(f"{self.game_name}: the record has no 'actions' list, got {actions!r}")
        self.reset(options={"record": record})
        for index, entry in enumerate(actions):
            if not (isinstance(entry, (list, tuple)) and len(entry) == 2 and all(isinstance(x, str) for x in entry)):
                raise ValueError(f"{self.game_name}: record action {index} must be [agent, action string], got "
                                 f"{entry!r}")
            agent, action_string = entry
            if agent != self.agent_selection:
                raise ValueError(f"{self.game_name}: record action {index} expects {agent} to act, but it is "
                                 f"{self.agent_selection}'s turn")
            try:
                self.step(self.string_to_action(action_string))
            except ValueError as error:
                where = f"record action {index} ({agent}, {action_string!r})"
                raise ValueError(f"{self.game_name}: {where}: {error}") from None
        expected = record.get("result")
        numbers = isinstance(expected, list) and all(type(x) in (int, float) for x in expected)  # JSON's numbers
        if expected is not None and not (numbers and len(expected) == self.num_seats):
            raise ValueError(f"{self.game_name}: the record's result must be None or a list of {self.num_seats} "
                             f"numbers (one per seat), got {expected!r}")
        if expected is not None and self.game_record()["result"] != [float(x) for x in expected]:
            raise ValueError(f"replayed result {self.game_record()['result']} differs from record {expected}")

    # ----------------------------------------------------------------- inspection

    def clone(self) -> TrickTakingEnv:
        """An independent copy of the env at this moment: every array and container copied (the space
        objects themselves shared), so that nothing done to the copy reaches the original."""
        self._require_reset("clone")
        new = self._copy_with_arrays(np.copy)
        # Copying a numpy Generator costs ~40-90 us, most of a resample; the clone only needs it if it is
        # reset without a seed, so it keeps the generator's state and rebuilds it then.
        if self._clone_copies_rng:
            new._np_random = copy.deepcopy(self._np_random)
        else:
            new._np_random = None
            if self._np_random is not None:
                new._rng_state_to_restore = self._np_random.bit_generator.state
        return new

    def _copy_with_arrays(self, array_copy) -> TrickTakingEnv:
        """A copy of the env whose arrays are ``array_copy(array)`` and whose per-hand containers are copies
        (spaces and the generator shared: the caller decides about the generator)."""
        new = object.__new__(type(self))
        state = self.__dict__.copy()
        for key, value in state.items():
            if type(value) is np.ndarray:
                state[key] = array_copy(value)
        for key in _PER_HAND_CONTAINERS + _TABLE_CONTAINERS + self._clone_containers:
            if key in state:
                state[key] = copy.copy(state[key])
        if self._seat_once_dealt is self.agent_name_mapping:
            state["_seat_once_dealt"] = state["agent_name_mapping"]
        new.__dict__ = state
        new.infos = {a: dict(i) for a, i in self.infos.items()}
        return new

    # ----------------------------------------------------------------- render

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; use render_mode='ansi' or 'human'")
            return None
        text = self._render_text() if self._started else f"{self.game_name}: not started (call reset)"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return f"{self.game_name}_v0"

    # ----------------------------------------------------------------- hooks

    def _random_deal(self, rng: np.random.Generator):
        raise NotImplementedError

    def _parse_deal(self, options: dict):
        raise NotImplementedError

    def _deal_options(self, deal) -> dict:
        raise NotImplementedError

    def _start(self, deal) -> None:
        raise NotImplementedError

    def _current_seat(self) -> int:
        raise NotImplementedError

    def _fill_action_mask(self, out: np.ndarray) -> None:
        raise NotImplementedError

    def _apply(self, action: int) -> None:
        raise NotImplementedError

    def _settlement(self):
        raise NotImplementedError

    def _fill_observation(self, seat: int, out: np.ndarray) -> None:
        raise NotImplementedError

    def _render_text(self) -> str:
        raise NotImplementedError


class _AgentIterable:
    """What ``agent_iter`` returns: iterable any number of times, like PettingZoo's ``AECIterable``."""

    __slots__ = ("env", "max_iter")

    def __init__(self, env: TrickTakingEnv, max_iter: int) -> None:
        self.env = env
        self.max_iter = max_iter

    def __iter__(self):
        env = self.env
        remaining = self.max_iter
        while env.agents and remaining > 0:
            remaining -= 1
            yield env.agent_selection


def integer_action(action, game: str, legal: list[str]) -> int:
    """``action`` as an int if it is an integer index (an int or numpy integer, not a bool, or a 0-d integer
    array), else ``ActionTypeError`` naming its type or shape and the ``legal`` actions; range and legality
    are the caller's to check."""
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        action = action.item()
    if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
        return int(action)
    array = isinstance(action, np.ndarray)
    got = f"an array of shape {action.shape} (dtype {action.dtype})" if array else f"{type(action).__name__} {action!r}"
    raise ActionTypeError(f"{game}: action must be an integer index, got {got}; legal now: {', '.join(legal)}")
