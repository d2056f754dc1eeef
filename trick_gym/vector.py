"""The one-seat vector env: ``num_envs`` one-seat envs stepped together in compiled code.

A ``gymnasium.vector.VectorEnv`` over the game's batch env (``schafkopf_env.batch`` / ``knuffeln_env.batch``):
row ``i`` is one hand in which the learner holds one seat (fixed, or drawn per hand with ``seat="random"``)
and the other seats are played by

- ``opponents="random"``: uniformly random legal actions, played inside the compiled step (``trick_gym.loops``), or
- a batched policy callable ``(observations, action_masks) -> actions`` (``float32 (n, obs_size)``,
  ``int8 (n, num_actions)`` -> ``(n,)`` ints) for the ``n`` rows where an opponent is to act; each
  observation is the acting opponent's own (e.g. a frozen copy of the learner, for self-play). It is
  called a few times per step, once per round of opponent moves.

    import gymnasium, trick_gym

    envs = gymnasium.make_vec("Bavarian-v0", num_envs=1024, vectorization_mode="vector_entry_point", seed=0)
    observations, infos = envs.reset(seed=0)
    actions = policy(observations, infos["action_mask"])
    observations, rewards, terminations, truncations, infos = envs.step(actions)

**Spaces and outputs.** As ``OneSeatEnv``: ``single_observation_space`` is the learner's observation
``Box`` (``observation_mode="vector"``) or ``Dict(observations, action_mask)`` (``"dict"``);
``single_action_space`` is ``Discrete(num_actions)``. ``rewards`` is ``float64 (num_envs,)``, the learner's
settlement of a hand that ended in this step (0 otherwise); ``truncations`` is always False. ``infos``
holds ``"action_mask"`` (``bool (num_envs, num_actions)``, the learner's legal actions for the returned
observation), ``"seat"`` (the learner's seat per row) and, in rows whose hand ended, ``"settlement"``
(``float32 (num_envs, num_seats)``, every seat's units), each with Gymnasium's ``"_key"`` row mask.
``action_masks()`` returns the same masks (SB3-contrib's name).

**Autoreset** (``metadata["autoreset_mode"]``, constructor ``autoreset_mode``):

- ``AutoresetMode.SAME_STEP`` (default): the step that ends a row's hand deals the next one at once and
  returns its first observation (the learner to act, with a legal mask); the ended hand's last
  observation of the learner is in ``infos["final_obs"]`` (an object array, ``None`` in other rows) and
  its ``"seat"`` in ``infos["final_info"]``. Default because every observation returned then has a legal
  action, which a masked policy needs.
- ``AutoresetMode.NEXT_STEP`` (Gymnasium's default; needed by Gymnasium's vector observation wrappers):
  the ending step returns the learner's final observation with an all-zero mask; the next step ignores
  that row's action, deals and returns the new hand's first observation with reward 0.

A hand in which the learner takes no decision is played out and skipped (``hands_skipped()``).
Illegal learner actions raise ``ValueError`` naming the row, the action and the legal ones; so do
illegal opponent actions from a policy callable. Seeding: ``seed=`` (constructor) or ``reset(seed=...)``
fix the deals, the random opponents' moves and drawn seats; results never depend on ``num_threads``. A
seed is an integer, or (Gymnasium's vector convention) a list of ``num_envs`` integers or Nones, one per
row: row ``i`` then depends on its own entry alone (a None entry at ``reset`` leaves the row's streams as
they are); anything else raises ``ValueError`` naming ``seed``.
``match=True`` (Knüffeln matches) is not supported here; use ``OneSeatEnv``.
"""

from __future__ import annotations

from collections.abc import Callable

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from trick_core import batch_loops
from trick_core.batch_env import check_batch_seed, illegal_actions_message, illegal_rows

from . import loops
from .games import check_game, make_batch_env
from .one_seat import check_seat, observation_spaces
from .opponents import batch_policy_of

AUTORESET_MODES = (AutoresetMode.SAME_STEP, AutoresetMode.NEXT_STEP)


def check_autoreset_mode(given) -> AutoresetMode:
    """``given`` (an ``AutoresetMode`` or its value, e.g. ``"NextStep"``) as one of ``AUTORESET_MODES``, or
    ``ValueError`` naming them."""
    try:
        mode = AutoresetMode(given) if isinstance(given, str) else given
    except ValueError:
        mode = None
    if mode not in AUTORESET_MODES:
        raise ValueError(f"autoreset_mode must be one of {[m.value for m in AUTORESET_MODES]}, got {given!r}")
    return mode


class OneSeatVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` one-seat hands of ``game`` stepped in compiled code (see the module docstring).

    ``OneSeatVectorEnv(game="bavarian", num_envs=256, opponents="random", seat=0, observation_mode="vector",
    observation_type="observation", autoreset_mode=AutoresetMode.SAME_STEP, num_threads=None, seed=None,
    **config)``; ``config`` holds the game's rule options as for its PettingZoo env.
    """

    def __init__(
        self,
        game: str = "bavarian",
        num_envs: int = 256,
        opponents: str | Callable = "random",
        seat: int | str = 0,
        observation_mode: str = "vector",
        observation_type: str = "observation",
        autoreset_mode: AutoresetMode | str = AutoresetMode.SAME_STEP,
        num_threads: int | None = None,
        seed: int | list[int | None] | None = None,
        **config,
    ) -> None:
        check_game(game)
        if config.get("match"):
            raise ValueError(f"{game}: match=True is not supported by the vector env; use OneSeatEnv")
        self.game = game
        self.autoreset_mode = check_autoreset_mode(autoreset_mode)
        self.metadata = {"autoreset_mode": self.autoreset_mode, "render_modes": []}
        self.render_mode = None
        self._policy = batch_policy_of(opponents)
        self.batch = make_batch_env(
            game, num_envs, seed=seed, observation_type=observation_type, num_threads=num_threads, copy=False,
            **config,
        )
        """The underlying batch env (``schafkopf_env.batch.BatchEnv`` / ``knuffeln_env.batch.BatchEnv``)."""
        self.num_envs = self.batch.num_envs
        self.num_seats = self.batch.num_seats
        seat = check_seat(seat, self.num_seats)
        self.observation_mode = observation_mode
        self.single_observation_space = observation_spaces(self.batch.single_observation_space, observation_mode)
        self.single_action_space = self.batch.single_action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._buffers = self.batch.buffers()
        self._loops = loops.specialise(self._buffers.kernel, game, self._buffers.parallel)
        self._row_info = np.zeros((self.num_envs, loops.ROW_INFO_COLUMNS), dtype=np.int64)
        self._row_info[:, loops.LEARNER_SEAT] = 0 if seat == "random" else seat
        self._row_info[:, loops.RANDOM_SEAT] = seat == "random"
        self._seat_rngs = np.zeros((self.num_envs, 1), dtype=np.uint64)
        self._final_observations = np.zeros((self.num_envs, self.batch.obs_size), dtype=np.float32)
        self._learner_rewards = np.zeros(self.num_envs, dtype=np.float64)
        self._terminated = np.zeros(self.num_envs, dtype=bool)
        self._actions = np.zeros(self.num_envs, dtype=np.int64)
        self._seed_seats(check_batch_seed(seed, self.num_envs, game), keep_unseeded_rows=False)
        self._has_reset = False

    # ------------------------------------------------------------------ gymnasium API

    def reset(self, *, seed: int | list[int | None] | None = None, options: dict | None = None):
        """Deal a new hand in every row and carry it on to the learner's first decision.

        ``options={"states": states}`` starts the rows from given hands instead: an ``int64 (num_envs,
        state_size)`` array of kernel states, e.g. ``aec_env.unwrapped.kernel_state()`` of AEC envs reset to
        fixed deals (later hands are dealt at random)."""
        options = dict(options or {})
        states = options.pop("states", None)
        if options:
            raise ValueError(f"{self.game}: unknown reset option(s) {sorted(options)}; known: ['states']")
        seed = check_batch_seed(seed, self.num_envs, self.game)
        if seed is not None:
            self._seed_seats(seed, keep_unseeded_rows=True)
        self.batch.reset(seed=seed)
        if states is not None:
            self.batch.load_states(states)
        b = self._buffers
        batch_loops.set_threads(self.batch.num_threads)
        self._loops.reset_rows(
            b.states, b.params, b.deal_rngs, b.action_rngs, self._seat_rngs, self._row_info, self._policy is None,
            b.observation_type_code, b.observations, b.action_masks, b.current_players, b.rewards, b.settlements,
            self._final_observations,
        )
        self._learner_rewards[:] = 0.0
        self._terminated[:] = False
        self._play_policy_opponents()
        self._has_reset = True
        return self._observations(), self._infos()

    def step(self, actions):
        if not self._has_reset:
            raise RuntimeError(f"{self.game}: reset() must be called before step()")
        self._check_learner_actions(actions)
        b = self._buffers
        batch_loops.set_threads(self.batch.num_threads)
        self._loops.learner_step_rows(
            b.states, b.params, b.deal_rngs, b.action_rngs, self._seat_rngs, self._row_info, self._actions,
            self._policy is None, self.autoreset_mode is AutoresetMode.NEXT_STEP, b.observation_type_code,
            b.observations, b.action_masks, b.current_players, b.rewards, b.settlements, self._final_observations,
            self._learner_rewards, self._terminated,
        )
        self._play_policy_opponents()
        infos = self._infos()
        terminated = self._terminated.copy()
        if terminated.any():
            infos["settlement"] = b.rewards.copy()
            infos["_settlement"] = terminated.copy()
            if self.autoreset_mode is AutoresetMode.SAME_STEP:
                self._add_final_infos(infos, terminated)
        truncated = np.zeros(self.num_envs, dtype=bool)
        return self._observations(), self._learner_rewards.copy(), terminated, truncated, infos

    def action_masks(self) -> np.ndarray:
        """``bool (num_envs, num_actions)``: the learner's legal actions in each row (all False in a row
        that awaits its next-step reset)."""
        return self._buffers.action_masks.astype(bool)

    def learner_seats(self) -> np.ndarray:
        """``int64 (num_envs,)``: the learner's seat in each row's current hand."""
        return self._row_info[:, loops.LEARNER_SEAT].copy()

    def hands_skipped(self) -> np.ndarray:
        """``int64 (num_envs,)``: hands per row in which the learner took no decision (played out, no episode)."""
        return self._row_info[:, loops.HANDS_SKIPPED].copy()

    def close_extras(self, **kwargs) -> None:
        pass

    # ------------------------------------------------------------------ opponents

    def _play_policy_opponents(self) -> None:
        """With a policy callable: ask it for every row where an opponent is to act, until none is."""
        if self._policy is None:
            return
        b = self._buffers
        learner_seats = self._row_info[:, loops.LEARNER_SEAT]
        while True:
            rows = np.flatnonzero((b.current_players >= 0) & (b.current_players != learner_seats))
            if rows.size == 0:
                return
            actions = self._checked_opponent_actions(rows, self._policy(b.observations[rows], b.action_masks[rows]))
            self._loops.opponent_step_rows(
                b.states, b.params, b.deal_rngs, b.action_rngs, self._seat_rngs, self._row_info, rows, actions,
                self.autoreset_mode is AutoresetMode.NEXT_STEP, b.observation_type_code, b.observations,
                b.action_masks, b.current_players, b.rewards, b.settlements, self._final_observations,
                self._learner_rewards, self._terminated,
            )

    def _checked_opponent_actions(self, rows: np.ndarray, actions) -> np.ndarray:
        array = np.asarray(actions)
        if array.shape != rows.shape or not np.issubdtype(array.dtype, np.integer):
            raise ValueError(
                f"{self.game}: the opponent policy must return one integer action per row asked ({rows.size}), "
                f"got {array.dtype} {array.shape}"
            )
        array = np.ascontiguousarray(array, dtype=np.int64)
        masks = self._buffers.action_masks
        if batch_loops.first_illegal_row(array, masks[rows]) >= 0:
            actions_by_row = np.zeros(self.num_envs, dtype=np.int64)
            actions_by_row[rows] = array
            bad = rows[illegal_rows(array, masks[rows])]
            message = illegal_actions_message(
                bad, actions_by_row, masks, self._buffers.current_players, self.batch.action_names
            )
            raise ValueError(f"{self.game}: the opponent policy chose {message}")
        return array

    # ------------------------------------------------------------------ helpers

    def _seed_seats(self, seed: int | list[int | None] | None, keep_unseeded_rows: bool) -> None:
        """The drawn seats' streams, from a ``check_batch_seed`` seed (a list: row by row, as the batch env)."""
        if not isinstance(seed, list):
            sequence = np.random.SeedSequence(seed).spawn(1)[0]
            self._seat_rngs[:, 0] = sequence.generate_state(self.num_envs, dtype=np.uint64)
            return
        for row, row_seed in enumerate(seed):
            if row_seed is not None or not keep_unseeded_rows:
                self._seat_rngs[row, 0] = np.random.SeedSequence(row_seed).spawn(1)[0].generate_state(1, np.uint64)[0]

    def _check_learner_actions(self, actions) -> None:
        array = np.asarray(actions)
        if array.shape != (self.num_envs,) or not np.issubdtype(array.dtype, np.integer):
            raise ValueError(
                f"{self.game}: actions must be an integer array of shape ({self.num_envs},), "
                f"got {array.dtype} {array.shape}"
            )
        self._actions[:] = array
        if loops.first_illegal_learner_row(self._actions, self._buffers.action_masks, self._row_info) >= 0:
            self._raise_illegal_learner_actions()

    def _raise_illegal_learner_actions(self) -> None:
        """``ValueError`` naming every row (the first ``MAX_ROWS_NAMED``) whose learner action is illegal."""
        masks = self._buffers.action_masks
        bad = illegal_rows(self._actions, masks)
        bad = bad[self._row_info[bad, loops.AWAITING_RESET] == 0]  # rows awaiting a reset take any action
        message = illegal_actions_message(
            bad, self._actions, masks, self._row_info[:, loops.LEARNER_SEAT], self.batch.action_names,
            who=" the learner",
        )
        raise ValueError(f"{self.game}: {message}. Mask the policy with infos['action_mask'] or action_masks()")

    def _observations(self):
        observations = self._buffers.observations.copy()
        if self.observation_mode == "vector":
            return observations
        return {"observations": observations, "action_mask": self._buffers.action_masks.copy()}

    def _infos(self) -> dict:
        everywhere = np.ones(self.num_envs, dtype=bool)
        return {
            "action_mask": self.action_masks(),
            "_action_mask": everywhere,
            "seat": self.learner_seats(),
            "_seat": everywhere.copy(),
        }

    def _add_final_infos(self, infos: dict, terminated: np.ndarray) -> None:
        """Gymnasium's same-step convention: ``final_obs`` an object array of the ended rows' last
        observations, ``final_info`` their infos (here the learner's seat in the ended hand)."""
        final_obs = np.full(self.num_envs, None, dtype=object)
        zero_mask = np.zeros(self.batch.num_actions, dtype=np.int8)
        for row in np.flatnonzero(terminated):
            observation = self._final_observations[row].copy()
            if self.observation_mode == "dict":
                observation = {"observations": observation, "action_mask": zero_mask.copy()}
            final_obs[row] = observation
        infos["final_obs"] = final_obs
        infos["_final_obs"] = terminated.copy()
        infos["final_info"] = {
            "seat": np.where(terminated, self._row_info[:, loops.FINAL_SEAT], 0),
            "_seat": terminated.copy(),
        }
