"""The batched environment shared by every game: N hands stepped together in compiled code.

A game's ``batch`` module (``schafkopf_env.batch``, ``knuffeln_env.batch``) subclasses ``BatchEnvCore``,
whose constructor takes the user's options, and implements ``_game_rules``: one of its PettingZoo envs
built from those options (so every option is validated, and encoded, exactly as there), its kernel module
and its kernel ``params``. Everything per step happens in the
compiled loops of ``trick_core.batch_loops``; Python only validates the action array and returns views.
See ``schafkopf_env.batch`` for the user-facing documentation.
"""

from __future__ import annotations

import types
from collections.abc import Sequence
from typing import NamedTuple

import numba
import numpy as np
from gymnasium.vector.utils import batch_space

from . import batch_loops
from .aec import TrickTakingEnv
from .checks import check_seed, non_negative_int, positive_int
from .env_options import OBSERVATION_TYPES
from .state_check import checked_states


class BatchStep(NamedTuple):
    """What ``reset`` and ``step`` return; every array has one row per hand (``num_envs`` rows)."""

    observation: np.ndarray
    """``float32 (num_envs, obs_size)``: the observation of the seat to act, encoded as the AEC env's."""
    action_mask: np.ndarray
    """``int8 (num_envs, num_actions)``: its legal actions (1 = legal)."""
    current_player: np.ndarray
    """``int64 (num_envs,)``: the seat to act in each row (always a seat: ended hands are redealt)."""
    rewards: np.ndarray
    """``float32 (num_envs, num_seats)``: per seat, the settlement of a hand that ended in this step."""
    terminated: np.ndarray
    """``bool (num_envs,)``: the row's hand ended in this step (its row now holds a new hand)."""
    acting_player: np.ndarray
    """``int64 (num_envs,)``: the seat whose action this step applied in each row (-1 after ``reset`` and in
    rows set by ``load_states``). Reward credit for multi-seat learners: that seat's decision produced this
    row's transition; ``rewards[row, seat]`` of a terminated row belongs to *every* seat's last decision in
    the ended hand (not only to ``acting_player``'s), and arrives in the step that ends the hand — see
    ``trick_gym.credit.SeatTransitions``, which pairs them up."""


class BatchBuffers(NamedTuple):
    """A batch env's own arrays, for compiled extensions that advance the rows themselves (e.g.
    ``trick_gym``'s one-seat vector env). Such code must leave every row a hand in progress whose
    ``current_players``, ``action_masks`` and ``observations`` describe its seat to act."""

    kernel: types.ModuleType
    params: np.ndarray
    states: np.ndarray
    deal_rngs: np.ndarray
    action_rngs: np.ndarray
    observation_type_code: int
    observations: np.ndarray
    action_masks: np.ndarray
    current_players: np.ndarray
    rewards: np.ndarray
    settlements: np.ndarray
    parallel: bool


ENV_ONLY_OPTIONS = ("render_mode", "illegal_action", "illegal_reward")
"""AEC env options that make no sense for a batch (no rendering, illegal actions always raise)."""


def check_batch_options(game: str, config: dict) -> None:
    """``ValueError`` naming the options of ``config`` that only the AEC env has (``ENV_ONLY_OPTIONS``)."""
    bad = sorted(set(config) & set(ENV_ONLY_OPTIONS))
    if bad:
        raise ValueError(f"{game}: option(s) {bad} do not apply to the batched env")


def observation_type_code(observation_type: str) -> int:
    if observation_type not in OBSERVATION_TYPES:
        raise ValueError(f"unknown observation_type {observation_type!r}; choose from {OBSERVATION_TYPES}")
    return OBSERVATION_TYPES.index(observation_type)


def check_num_threads(num_threads) -> None:
    if num_threads is not None and (
        isinstance(num_threads, bool)
        or not isinstance(num_threads, (int, np.integer))
        or not 1 <= num_threads <= numba.config.NUMBA_NUM_THREADS
    ):
        raise ValueError(
            f"num_threads must be None (all) or 1..{numba.config.NUMBA_NUM_THREADS}, got {num_threads!r}"
        )


def kernel_params(aec_env: TrickTakingEnv, kernel_module: types.ModuleType) -> np.ndarray:
    """The kernel params of an AEC env: its rule options (``config``) through the kernel's ``make_params``."""
    return np.ascontiguousarray(kernel_module.make_params(**aec_env.config), dtype=np.int64)


def state_size(aec_env: TrickTakingEnv) -> int:
    """Length of the kernel state, read from a dealt hand (robust to a size that depends on the rules)."""
    aec_env.reset(seed=0)
    return int(aec_env.kernel_state().shape[0])


def check_batch_seed(seed, num_envs: int, game: str) -> int | list[int | None] | None:
    """``seed`` as given to a batch env's constructor or ``reset``: None, a non-negative integer (every row's
    streams derived from it), or Gymnasium's vector convention, a sequence of ``num_envs`` entries, one per
    row, each a non-negative integer or None (at ``reset``: that row keeps its streams). ``ValueError``
    naming ``seed`` otherwise."""
    if isinstance(seed, np.ndarray) and seed.ndim == 0:
        seed = seed.item()
    if isinstance(seed, (list, tuple, np.ndarray)):
        if len(seed) != num_envs:
            raise ValueError(
                f"{game}: a list seed gives one seed per env (Gymnasium's vector convention): expected "
                f"{num_envs} entries, got {len(seed)}"
            )
        try:
            return [None if entry is None else check_seed(entry, game) for entry in seed]
        except ValueError:
            raise ValueError(
                f"{game}: every entry of a list seed must be a non-negative integer or None, got {list(seed)!r}"
            ) from None
    if seed is None:
        return None
    try:
        return check_seed(seed, game)
    except ValueError:
        raise ValueError(
            f"{game}: seed must be None, a non-negative integer or a list of {num_envs} of them (one per env), "
            f"got {seed!r}"
        ) from None


MAX_ROWS_NAMED = 10
"""An error about illegal actions describes at most this many rows and counts the others."""


def illegal_rows(actions: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
    """Indices of every row whose action is out of range or not legal there (numpy: for error messages,
    after the compiled ``first_illegal_row`` has found one)."""
    num_actions = action_masks.shape[1]
    in_range = (actions >= 0) & (actions < num_actions)
    legal = np.zeros(actions.shape[0], dtype=bool)
    rows = np.flatnonzero(in_range)
    legal[rows] = action_masks[rows, actions[rows]] != 0
    return np.flatnonzero(~legal)


def illegal_actions_message(
    bad_rows: np.ndarray, actions: np.ndarray, action_masks: np.ndarray, current_players: np.ndarray,
    action_names: Sequence[str], who: str = "",
) -> str:
    """The error message (to follow the game's name) naming the illegal action of every row in ``bad_rows``
    (the first ``MAX_ROWS_NAMED``; the others counted), the seat to act there and its legal actions.
    ``who``: e.g. " the learner", said before the seat."""
    num_actions = action_masks.shape[1]

    def describe(row: int, separator: str) -> str:
        action = int(actions[row])
        legal = [action_names[a] for a in np.flatnonzero(action_masks[row])]
        name = action_names[action] if 0 <= action < num_actions else "out of range"
        seat = f"player_{current_players[row]}"
        return f"{action} ({name}) in row {row} for{who} {seat}{separator} legal there: {', '.join(legal)}"

    if bad_rows.size == 1:
        return f"illegal action {describe(int(bad_rows[0]), ';')}"
    named = "; ".join(f"action {describe(int(row), ',')}" for row in bad_rows[:MAX_ROWS_NAMED])
    more = f"; and {bad_rows.size - MAX_ROWS_NAMED} more rows" if bad_rows.size > MAX_ROWS_NAMED else ""
    return f"illegal actions in {bad_rows.size} rows: {named}{more}"


PARALLEL_MIN_ENVS = 256
"""With ``num_threads=None``, a batch smaller than this runs the serial loop: waking threads for a few rows
costs more than it saves (and far more on a machine whose cores are busy with other work)."""

RANDOM_HAND_CHUNKS = 64
"""``RandomHandPlayer.play`` splits the hands into this many independent random streams, whatever the
number of threads, so that its result depends on the seed alone."""


class RandomHandPlayer:
    """Deals and plays uniformly random whole hands of one game and configuration in compiled code,
    without returning to Python between hands (the benchmark kernel, multi-threaded)."""

    def __init__(
        self, game: str, aec_env: TrickTakingEnv, kernel_module: types.ModuleType, params: np.ndarray | None = None
    ) -> None:
        self.game = game
        self.num_seats = aec_env.num_seats
        self._kernel = kernel_module
        self._params = kernel_params(aec_env, kernel_module) if params is None else params
        self._state_size = state_size(aec_env)

    def play(self, num_hands: int, seed: int = 0, num_threads: int | None = None) -> np.ndarray:
        """Play ``num_hands`` hands over ``num_threads`` numba threads (None: all); return the settlement
        summed per seat. The hands depend on ``seed`` only, not on the number of threads."""
        num_hands = non_negative_int(num_hands, "num_hands")
        check_num_threads(num_threads)
        seed = check_seed(seed, self.game)
        loops = batch_loops.specialise(self._kernel, self.game, num_threads != 1)
        sums = np.zeros((RANDOM_HAND_CHUNKS, self.num_seats), dtype=np.float64)
        batch_loops.set_threads(num_threads)
        seeds = batch_loops.row_seeds(seed, RANDOM_HAND_CHUNKS)
        loops.play_random_hands(self._params, int(num_hands), seeds, self._state_size, sums)
        return sums.sum(axis=0)


class BatchEnvCore:
    """N hands of one game, stepped together (see ``schafkopf_env.batch`` for the API). A game's batch
    module subclasses it and implements ``_game_rules``.

    Spaces, related as in Gymnasium's vector envs (``observation_space == batch_space(single_observation_space,
    num_envs)``): ``single_observation_space`` is one row's, the AEC env's per-seat ``Dict(action_mask=Box(0,
    1, (num_actions,), int8), observation=Box(0, high, (obs_size,), float32))``; ``observation_space`` is
    that ``Dict`` batched, each key with a leading ``num_envs`` axis. A ``BatchStep`` carries the two keys as
    separate fields: ``out.observation`` is an element of ``observation_space["observation"]`` (what a
    policy network reads) and ``out.action_mask`` of ``observation_space["action_mask"]``.
    ``single_action_space`` is ``Discrete(num_actions)``, ``action_space`` its batch, ``MultiDiscrete``.
    """

    def __init__(
        self,
        game: str,
        num_envs: int,
        seed: int | None = None,
        observation_type: str = "observation",
        num_threads: int | None = None,
        copy: bool = True,
        **config,
    ) -> None:
        """The batch env of the options documented in ``schafkopf_env.batch``; ``config`` holds the game's
        rule options, those of its PettingZoo env."""
        aec_env, kernel_module, params = self._game_rules(game, config, observation_type)
        positive_int(num_envs, "num_envs")
        check_num_threads(num_threads)
        self.game = game
        self.num_envs = int(num_envs)
        self.num_threads = None if num_threads is None else int(num_threads)
        self.copy = bool(copy)
        self.observation_type = observation_type
        self._obs_type = observation_type_code(observation_type)
        self._aec_env = aec_env
        self._kernel = kernel_module
        self._params = kernel_params(aec_env, kernel_module) if params is None else params
        self.num_seats = aec_env.num_seats
        self.num_actions = aec_env.num_actions
        self.num_cards = aec_env.deck.num_cards
        self.obs_size = aec_env.obs_size
        self.action_names = aec_env.action_names
        self.possible_agents = list(aec_env.possible_agents)
        self.single_observation_space = aec_env.observation_space(aec_env.possible_agents[0])
        self.single_action_space = aec_env.action_space(aec_env.possible_agents[0])
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._state_size = state_size(aec_env)
        self.parallel = self.num_threads != 1 and (self.num_threads is not None or self.num_envs >= PARALLEL_MIN_ENVS)
        self._loops = batch_loops.specialise(kernel_module, game, self.parallel)
        self._sample = (
            batch_loops.sample_legal_actions_parallel if self.parallel else batch_loops.sample_legal_actions
        )
        n = self.num_envs
        self._states = np.zeros((n, self._state_size), dtype=np.int64)
        self._deal_rngs = np.zeros((n, 1), dtype=np.uint64)
        self._action_rngs = np.zeros((n, 1), dtype=np.uint64)
        self._observations = np.zeros((n, self.obs_size), dtype=np.float32)
        self._action_masks = np.zeros((n, self.num_actions), dtype=np.int8)
        self._current_players = np.zeros(n, dtype=np.int64)
        self._rewards = np.zeros((n, self.num_seats), dtype=np.float32)
        self._terminated = np.zeros(n, dtype=bool)
        self._settlements = np.zeros((n, self.num_seats), dtype=np.float64)
        self._actions = np.zeros(n, dtype=np.int64)
        self._acting_players = np.full(n, -1, dtype=np.int64)
        self._has_reset = False
        self._seed(check_batch_seed(seed, self.num_envs, game), keep_unseeded_rows=False)
        self.config = dict(config)

    def _game_rules(self, game: str, config: dict, observation_type: str):
        """``(aec_env, kernel_module, params)``: the game's PettingZoo env built with the user's options
        (its spaces, action names and rule ``config`` define the batch; ``ValueError`` naming a bad
        option), the game's kernel, and its kernel params (None: ``make_params(**aec_env.config)``)."""
        raise NotImplementedError

    def _seed(self, seed: int | list[int | None] | None, keep_unseeded_rows: bool) -> None:
        """Seed the rows' streams from a ``check_batch_seed`` seed. A list seeds row ``i`` from its entry ``i``
        alone (so a row's hands do not depend on the other rows or on ``num_envs``); its None entries keep
        their rows' streams with ``keep_unseeded_rows``, else draw fresh entropy."""
        n = self.num_envs
        if not isinstance(seed, list):
            seeds = batch_loops.row_seeds(seed, 2 * n)
            self._deal_rngs[:, 0] = seeds[:n]
            self._action_rngs[:, 0] = seeds[n:]
            return
        for row, row_seed in enumerate(seed):
            if row_seed is None and keep_unseeded_rows:
                continue
            self._deal_rngs[row, 0], self._action_rngs[row, 0] = batch_loops.row_seeds(row_seed, 2)

    # ------------------------------------------------------------------ the vector-env API

    def reset(self, seed: int | list[int | None] | None = None) -> BatchStep:
        """Deal a new hand in every row (reproducibly from ``seed`` when given: one integer for the batch, or
        a list of ``num_envs`` integers or Nones, one per row, as in Gymnasium's vector envs)."""
        seed = check_batch_seed(seed, self.num_envs, self.game)
        if seed is not None:
            self._seed(seed, keep_unseeded_rows=True)
        batch_loops.set_threads(self.num_threads)
        self._reset_rows()
        self._terminated[:] = False
        self._acting_players[:] = -1
        self._has_reset = True
        return self._result()

    def step(self, actions) -> BatchStep:
        """Apply one action per row (for that row's seat to act); rows whose hand ends are settled into
        ``rewards``, flagged in ``terminated`` and dealt a new hand."""
        self._require_reset()
        actions = self._checked_actions(actions)
        self._acting_players[:] = self._current_players
        batch_loops.set_threads(self.num_threads)
        self._step_rows(actions)
        return self._result()

    def sample_actions(self) -> np.ndarray:
        """A uniformly random legal action per row, drawn in compiled code from a per-row stream that is
        separate from the deals' (seeded by ``reset(seed)``/the constructor)."""
        self._require_reset()
        out = np.empty(self.num_envs, dtype=np.int64)
        batch_loops.set_threads(self.num_threads)
        self._sample(self._action_masks, self._action_rngs, out)
        return out

    def observe_all(self) -> np.ndarray:
        """``float32 (num_envs, num_seats, obs_size)``: every seat's observation of its row's hand (e.g.
        for a centralised critic), in the constructor's ``observation_type``."""
        self._require_reset()
        out = np.zeros((self.num_envs, self.num_seats, self.obs_size), dtype=np.float32)
        batch_loops.set_threads(self.num_threads)
        self._observe_rows(out)
        return out

    def held_cards(self) -> np.ndarray:
        """``int64 (num_envs, num_seats)``: the cards each seat still holds in its row's hand, as masks (bit
        ``c`` for card ``c`` of the deck): the hidden information, e.g. for a perfect-information critic in
        training (``agents.neural.critic``); never for an agent's decisions."""
        self._require_reset()
        hands = self._kernel.S_HANDS
        return self._states[:, hands : hands + self.num_seats].copy()

    # ------------------------------------------------------------------ kernel states

    def kernel_states(self) -> np.ndarray:
        """A copy of the ``int64 (num_envs, state_size)`` kernel states (one hand per row)."""
        return self._states.copy()

    def load_states(self, states, rows=None, *, _from_this_process: bool = False) -> BatchStep:
        """Set hands from kernel states (e.g. ``aec_env.unwrapped.kernel_state()`` of envs reset to fixed
        deals): every row, or the rows listed in ``rows`` (``states`` then has one row per entry). Each
        must be a hand in progress of this game and configuration: each is checked before any compiled
        code reads it (``trick_core.state_check``: its params, its fields in range, and the position its
        own deal and action history make), and a state that fails is refused with a ``ValueError`` naming
        the row and the field. In the returned step the loaded rows have zero rewards and ``terminated``
        False; other rows are as the last step left them.

        ``_from_this_process`` is for the project's own search and rollout code only, which loads states
        that this process's kernels have just made (sampled worlds, rollout positions) many times per
        decision: it keeps the shape and configuration checks and skips the field checks and the replay
        (about 0.1 ms a state, several times the cost of playing the hand out)."""
        rows = np.arange(self.num_envs) if rows is None else self._checked_rows(rows)
        if _from_this_process:
            loaded = np.ascontiguousarray(states, dtype=np.int64)
            params = self._aec_env._params
            if loaded.shape != (rows.shape[0], self._kernel.STATE_SIZE) or not (
                loaded[:, self._kernel.S_PARAMS : self._kernel.S_PARAMS + params.shape[0]] == params
            ).all():
                raise ValueError(f"{self.game}: states of another shape or configuration than this env's")
        else:
            loaded = checked_states(self._aec_env, states, rows)
        finished = self._loops.first_finished_row(loaded)
        if finished >= 0:
            raise ValueError(f"{self.game}: the hand given for row {rows[finished]} is already over")
        self._states[rows] = loaded
        self._refresh_rows(rows)
        self._rewards[rows] = 0.0
        self._terminated[rows] = False
        self._acting_players[rows] = -1
        self._has_reset = True
        return self._result()

    def _checked_rows(self, rows) -> np.ndarray:
        array = np.asarray(rows)
        if array.ndim != 1 or not np.issubdtype(array.dtype, np.integer):
            raise ValueError(f"{self.game}: rows must be a 1-D integer array, got {array.dtype} {array.shape}")
        if array.size and (array.min() < 0 or array.max() >= self.num_envs):
            raise ValueError(f"{self.game}: rows must lie in 0..{self.num_envs - 1}, got {array.tolist()}")
        if np.unique(array).size != array.size:
            raise ValueError(f"{self.game}: rows must not repeat, got {array.tolist()}")
        if not self._has_reset and array.size != self.num_envs:
            raise RuntimeError(f"{self.game}: reset() (or loading every row) must come before loading some rows")
        return array.astype(np.int64)

    def buffers(self) -> BatchBuffers:
        """The env's own arrays and compiled rules (not copies), for compiled extensions (see ``BatchBuffers``)."""
        return BatchBuffers(
            self._kernel, self._params, self._states, self._deal_rngs, self._action_rngs, self._obs_type,
            self._observations, self._action_masks, self._current_players, self._rewards, self._settlements,
            self.parallel,
        )

    def action_to_string(self, action: int) -> str:
        return self._aec_env.action_to_string(action)

    def string_to_action(self, text: str) -> int:
        return self._aec_env.string_to_action(text)

    # ------------------------------------------------------------------ the compiled loops (a game's
    # batch env may override these four to add episode structure around hands, e.g. Knüffeln matches)

    def _reset_rows(self) -> None:
        self._loops.reset_rows(
            self._states, self._params, self._deal_rngs, self._obs_type, self._observations,
            self._action_masks, self._current_players, self._rewards, self._settlements,
        )

    def _step_rows(self, actions: np.ndarray) -> None:
        self._loops.step_rows(
            self._states, self._params, self._deal_rngs, actions, self._obs_type, self._observations,
            self._action_masks, self._current_players, self._rewards, self._terminated, self._settlements,
        )

    def _observe_rows(self, out: np.ndarray) -> None:
        self._loops.observe_rows(self._states, self._obs_type, out)

    def _refresh_rows(self, rows: np.ndarray) -> None:
        self._loops.refresh_rows(
            self._states, rows, self._obs_type, self._observations, self._action_masks, self._current_players
        )

    # ------------------------------------------------------------------ helpers

    def _require_reset(self) -> None:
        if not self._has_reset:
            raise RuntimeError(f"{self.game}: reset() must be called before step()")

    def _checked_actions(self, actions) -> np.ndarray:
        array = np.asarray(actions)
        if array.shape != (self.num_envs,):
            raise ValueError(f"{self.game}: actions must have shape ({self.num_envs},), got {array.shape}")
        if not np.issubdtype(array.dtype, np.integer):
            raise ValueError(f"{self.game}: actions must be integers, got dtype {array.dtype}")
        self._actions[:] = array
        if batch_loops.first_illegal_row(self._actions, self._action_masks) >= 0:
            self._raise_illegal(self._actions)
        return self._actions

    def _raise_illegal(self, actions: np.ndarray) -> None:
        """``ValueError`` describing every row whose action is illegal (the first ``MAX_ROWS_NAMED``; the
        others counted)."""
        bad = illegal_rows(actions, self._action_masks)
        message = illegal_actions_message(bad, actions, self._action_masks, self._current_players, self.action_names)
        raise ValueError(f"{self.game}: {message}")

    def _result(self) -> BatchStep:
        arrays = (
            self._observations, self._action_masks, self._current_players, self._rewards, self._terminated,
            self._acting_players,
        )
        if self.copy:
            arrays = tuple(a.copy() for a in arrays)
        return BatchStep(*arrays)
