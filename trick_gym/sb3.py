"""The one-seat vector env as a Stable-Baselines3 ``VecEnv`` (SB3 has its own vector API, not Gymnasium's).

    from sb3_contrib import MaskablePPO
    from trick_gym.sb3 import SB3VecEnv

    model = MaskablePPO("MlpPolicy", SB3VecEnv("bavarian", num_envs=64, seed=0), n_steps=128)

SB3's conventions, which are Gymnasium's same-step autoreset: a row whose hand ended reports ``done`` with
its final observation in ``infos[row]["terminal_observation"]`` and already holds the next hand.
``env_method("action_masks")`` (what SB3-contrib's maskable algorithms call) returns each row's legal
actions. Needs ``stable-baselines3`` (the ``sb3`` extra).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from .vector import OneSeatVectorEnv


class SB3VecEnv(VecEnv):
    """``OneSeatVectorEnv(game, num_envs, **kwargs)`` behind SB3's ``VecEnv`` API (vector observations)."""

    def __init__(self, game: str = "bavarian", num_envs: int = 64, **kwargs) -> None:
        if kwargs.get("observation_mode", "vector") != "vector":
            raise ValueError("SB3VecEnv serves vector observations; masks come from env_method('action_masks')")
        kwargs["autoreset_mode"] = AutoresetMode.SAME_STEP
        self.env = OneSeatVectorEnv(game, num_envs, **kwargs)
        self.render_mode = None
        super().__init__(self.env.num_envs, self.env.single_observation_space, self.env.single_action_space)
        self._actions: np.ndarray | None = None
        self._masks = np.zeros((self.num_envs, self.env.single_action_space.n), dtype=bool)

    def reset(self) -> np.ndarray:
        seed = self._seeds[0]
        observations, infos = self.env.reset(seed=seed)
        self._reset_seeds()
        self._masks = infos["action_mask"]
        self.reset_infos = [{} for _ in range(self.num_envs)]
        return observations

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

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
        value = getattr(self.env, attr_name)
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
