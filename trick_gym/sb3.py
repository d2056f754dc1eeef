"""The one-seat vector env as a Stable-Baselines3 ``VecEnv`` (SB3 has its own vector API, not Gymnasium's).

    from sb3_contrib import MaskablePPO
    from trick_gym.sb3 import SB3VecEnv

    model = MaskablePPO("MlpPolicy", SB3VecEnv("bavarian", num_envs=64, seed=0), n_steps=128)

SB3's conventions, which are Gymnasium's same-step autoreset: a row whose hand ended reports ``done`` with
its final observation in ``infos[row]["terminal_observation"]`` and already holds the next hand.
``env_method("action_masks")`` (what SB3-contrib's maskable algorithms call) returns each row's legal
actions. Needs ``stable-baselines3`` (the ``sb3`` extra).

Where the rows cannot behave as SB3's separate envs, ``SB3VecEnv`` says so rather than guess:

- ``step`` takes ``num_envs`` integer actions (shape ``(num_envs,)`` or ``(num_envs, 1)``); floats are
  rejected (``ActionTypeError``, a ``TypeError``), not truncated.
- Every row is reset together, so ``set_options(dict)`` (one dict for every row) is honoured by the next
  ``reset``, which passes it to ``OneSeatVectorEnv.reset`` (e.g. ``{"states": ...}``); a list of per-row
  dicts raises ``NotImplementedError``. Likewise ``seed(s)`` seeds the next ``reset`` with ``s``.
- ``get_attr`` returns per-row values, as SB3's ``DummyVecEnv`` does: ``"observation_space"`` and
  ``"action_space"`` are the vector env's ``single_*`` spaces; other attributes are the vector env's own.
- ``autoreset_mode`` is always same-step (SB3's convention); another is refused.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from trick_core.aec import ActionTypeError

from .vector import OneSeatVectorEnv, check_autoreset_mode

PER_ROW_ATTRIBUTES = {"observation_space": "single_observation_space", "action_space": "single_action_space"}
"""The vector env's batched attributes, and the per-row ones that ``get_attr`` returns for them."""


class SB3VecEnv(VecEnv):
    """``OneSeatVectorEnv(game, num_envs, **kwargs)`` behind SB3's ``VecEnv`` API (vector observations)."""

    def __init__(self, game: str = "bavarian", num_envs: int = 64, **kwargs) -> None:
        if kwargs.get("observation_mode", "vector") != "vector":
            raise ValueError("SB3VecEnv serves vector observations; masks come from env_method('action_masks')")
        if check_autoreset_mode(kwargs.get("autoreset_mode", AutoresetMode.SAME_STEP)) is not AutoresetMode.SAME_STEP:
            raise ValueError(
                f"SB3VecEnv follows SB3's same-step autoreset; autoreset_mode={kwargs['autoreset_mode']!r} cannot "
                "be honoured (leave it out)"
            )
        kwargs["autoreset_mode"] = AutoresetMode.SAME_STEP
        self.env = OneSeatVectorEnv(game, num_envs, **kwargs)
        self.render_mode = None
        super().__init__(self.env.num_envs, self.env.single_observation_space, self.env.single_action_space)
        self._actions: np.ndarray | None = None
        self._masks = np.zeros((self.num_envs, self.env.single_action_space.n), dtype=bool)
        self._reset_options: dict | None = None

    def reset(self) -> np.ndarray:
        seed, options = self._seeds[0], self._reset_options
        self._reset_seeds()  # seeds and options serve one reset, as in SB3, even one that raises
        self._reset_options = None
        observations, infos = self.env.reset(seed=seed, options=options)
        self._masks = infos["action_mask"]
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return observations

    def set_options(self, options: list[dict] | dict | None = None) -> None:
        """Options for the next ``reset`` only, as in SB3: one dict, passed to ``OneSeatVectorEnv.reset``
        (which resets every row together; unknown keys raise there). Per-row lists are refused unless every
        entry is empty (no options)."""
        if isinstance(options, (list, tuple)) and not any(options):
            options = None
        if options is not None and not isinstance(options, dict):
            raise NotImplementedError(
                "SB3VecEnv resets all rows together with one options dict (OneSeatVectorEnv.reset's, e.g. "
                f"{{'states': ...}}); per-row options are not supported, got {type(options).__name__}"
            )
        self._reset_options = dict(options) if options else None

    def step_async(self, actions: np.ndarray) -> None:
        array = np.asarray(actions)
        if not np.issubdtype(array.dtype, np.integer):
            raise ActionTypeError(
                f"SB3VecEnv: actions must be integer indices, got an array of dtype {array.dtype} (floats are not "
                "truncated)"
            )
        if array.shape not in ((self.num_envs,), (self.num_envs, 1)):
            raise ValueError(
                f"SB3VecEnv: expected {self.num_envs} actions, one per env (shape ({self.num_envs},)), got an "
                f"array of shape {array.shape}"
            )
        self._actions = array.reshape(self.num_envs).astype(np.int64)

    def step_wait(self):
        observations, rewards, terminated, truncated, infos = self.env.step(self._actions)
        self._masks = infos["action_mask"]
        dones = terminated | truncated
        step_infos: list[dict] = [{} for _ in range(self.num_envs)]
        for row in np.flatnonzero(dones):
            step_infos[row]["terminal_observation"] = infos["final_obs"][row]
            step_infos[row]["TimeLimit.truncated"] = bool(truncated[row] and not terminated[row])
        return observations, rewards.astype(np.float32), dones, step_infos

    def action_masks(self) -> np.ndarray:
        return self._masks

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list:
        if method_name != "action_masks":
            raise AttributeError(f"SB3VecEnv offers env_method('action_masks') only, not {method_name!r}")
        return list(self._masks[self._indices(indices)])

    def get_attr(self, attr_name: str, indices=None) -> list:
        if attr_name == "render_mode":
            return [None] * len(self._indices(indices))
        value = getattr(self.env, PER_ROW_ATTRIBUTES.get(attr_name, attr_name))
        return [value] * len(self._indices(indices))

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks" or hasattr(self.env, attr_name)

    def set_attr(self, attr_name: str, value, indices=None) -> None:
        raise AttributeError("SB3VecEnv rows share one compiled env: set attributes on .env instead")

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def close(self) -> None:
        self.env.close()

    def _indices(self, indices) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return list(indices)
