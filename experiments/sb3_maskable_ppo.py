"""SB3-contrib MaskablePPO on one seat of a game: train, save, and enter the arena as a plug-in agent.

    python -m experiments.sb3_maskable_ppo --game bavarian --total-timesteps 2000000 --save-path runs/ppo.zip
    python -m agents.arena --game bavarian --hands 400 --seed 1 \\
        --agents "experiments.sb3_maskable_ppo:make_agent[model_path=runs/ppo.zip]" random

Two ways to feed it, both with the learner's settlement as reward (``trick_gym``):

- ``--env vector`` (default): ``trick_gym.sb3.SB3VecEnv``, the compiled one-seat vector env (random
  opponents played in compiled code);
- ``--env single``: ``--num-envs`` one-seat Gymnasium envs (``gymnasium.make("Bavarian-v0", ...)``) in
  SB3's ``DummyVecEnv``; any ``agents.make`` opponent (``--opponents rules``).

``make_agent(game, model_path=...)`` loads a saved model as an arena agent that reads only its seat's
observation and action mask (``env.observe(agent)``).

Needs the ``sb3`` extra: ``pip install -e '.[sb3]'``.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass

import numpy as np
import torch
import tyro

from agents.neural.training import set_threads
from experiments.common import OneSeatArgs, check_args, checked
from trick_core.output_paths import check_output_file_in_new_folder


@dataclass
class Args(OneSeatArgs):
    """SB3-contrib MaskablePPO on one seat of a game, saved as an arena plug-in agent."""

    env: str = "vector"
    """'vector' (compiled one-seat vector env: random opponents only) or 'single' (one-seat Gymnasium envs)"""
    num_envs: int = 64
    """parallel hands"""
    total_timesteps: int = 200_000
    """learner decisions to train on"""
    n_steps: int = 128
    """rollout length per env between updates"""
    batch_size: int = 1024
    """minibatch size"""
    n_epochs: int = 4
    """optimisation epochs per update"""
    ent_coef: float = 0.01
    """entropy bonus"""
    hidden: int = 256
    """units of each of the two hidden layers of the policy and of the value network"""
    numba_threads: int = 1
    """numba threads of the compiled env"""
    save_path: str = "runs/sb3_maskable_ppo.zip"
    """where the trained model is saved (empty: not saved)"""
    max_minutes: float = 0.0
    """stop training after this many minutes of wall time (0: no limit)"""

    def check_options(self, config: dict) -> None:
        """The recipe's own checks (``check_args`` runs them after the shared ones)."""
        if self.save_path:
            check_output_file_in_new_folder(self.save_path, "--save-path")
        if self.env not in ("vector", "single"):
            raise ValueError(f"env must be 'vector' or 'single', got {self.env!r}")
        if self.env == "vector" and self.opponents != "random":
            raise ValueError(f"opponents {self.opponents!r} need --env single: the compiled vector env plays only "
                             "'random' opponents")
        if self.batch_size < 2:  # the advantages are normalised per minibatch: one decision gives NaN
            raise ValueError(f"batch_size must be at least 2 (advantages are normalised per minibatch), "
                             f"got {self.batch_size}")


def make_training_env(args: Args):
    """The SB3 VecEnv the model learns on (see the module docstring)."""
    if args.env == "vector":
        from trick_gym.sb3 import SB3VecEnv

        return SB3VecEnv(
            args.game, args.num_envs, opponents=args.opponents, seat=args.learner_seat, seed=args.seed,
            num_threads=args.numba_threads,
        )
    if args.env == "single":
        import gymnasium
        from stable_baselines3.common.vec_env import DummyVecEnv

        import trick_gym

        gym_id = trick_gym.GYM_IDS[args.game]
        factories = [
            lambda: gymnasium.make(gym_id, opponents=args.opponents, seat=args.learner_seat)
            for _ in range(args.num_envs)
        ]
        vec_env = DummyVecEnv(factories)
        vec_env.seed(args.seed)
        return vec_env
    raise ValueError(f"env must be 'vector' or 'single', got {args.env!r}")


class StopAfterMinutes:
    """SB3 callback: stop training after a wall-time budget."""

    def __new__(cls, minutes: float):
        from stable_baselines3.common.callbacks import BaseCallback

        class _Stop(BaseCallback):
            def _on_step(self) -> bool:
                return minutes <= 0 or time.perf_counter() - started < 60.0 * minutes

        started = time.perf_counter()
        return _Stop()


def train(args: Args) -> dict:
    """Train MaskablePPO as ``args`` says; return a summary (steps, wall and CPU seconds, steps/s)."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import Logger

    check_args(args)  # every option before an env is built or a file written (0 timesteps: an untrained model)
    set_threads(args.torch_threads, args.numba_threads)
    env = make_training_env(args)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.n_epochs,
        learning_rate=args.learning_rate,
        ent_coef=args.ent_coef,
        gamma=args.gamma,
        gae_lambda=1.0,
        policy_kwargs={"net_arch": [args.hidden, args.hidden]},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    model.set_logger(Logger(folder=None, output_formats=[]))  # SB3's own would open a folder in the temp dir
    wall, cpu = time.perf_counter(), time.process_time()
    model.learn(total_timesteps=args.total_timesteps, callback=StopAfterMinutes(args.max_minutes))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if args.save_path:
        os.makedirs(os.path.dirname(args.save_path) or ".", exist_ok=True)
        model.save(args.save_path)
    env.close()
    return {
        "game": args.game,
        "env": args.env,
        "timesteps": int(model.num_timesteps),
        "wall_seconds": round(wall, 1),
        "cpu_seconds": round(cpu, 1),
        "steps_per_second": round(model.num_timesteps / wall, 1),
        "save_path": args.save_path,
    }


class MaskablePPOAgent:
    """An arena agent playing a saved MaskablePPO model from its seat's observation and mask only. The model
    must have been trained on ``game`` (the recipe trains a game's default table): another game's model, or a
    table whose observation or actions differ from the model's, is a ``ValueError`` naming both."""

    def __init__(self, game: str, model_path: str, deterministic: bool = True, name: str = "maskable_ppo") -> None:
        from sb3_contrib import MaskablePPO

        from trick_core.registry import make_env

        self.game = game
        self.name = name
        self.deterministic = bool(deterministic)
        self.model_path = model_path
        self.model = MaskablePPO.load(model_path, device="cpu")
        table = make_env(game).unwrapped
        seat = table.possible_agents[0]
        self._check_shapes(table.observation_space(seat)["observation"].shape, table.action_space(seat).n,
                           f"the {game} table")

    def _check_shapes(self, observation_shape: tuple, num_actions: int, what: str) -> None:
        trained = (self.model.observation_space.shape, int(self.model.action_space.n))
        if trained != (tuple(observation_shape), int(num_actions)):
            raise ValueError(
                f"model {self.model_path!r} was trained on a table with observation {trained[0]} and {trained[1]} "
                f"actions; {what} has observation {tuple(observation_shape)} and {num_actions} actions: train "
                f"one on it (python -m experiments.sb3_maskable_ppo --game {self.game})"
            )

    def act(self, env, agent: str) -> int:
        seen = env.observe(agent)
        if seen["observation"].shape != self.model.observation_space.shape:
            self._check_shapes(seen["observation"].shape, seen["action_mask"].shape[0], "this table")
        action, _ = self.model.predict(
            seen["observation"], action_masks=seen["action_mask"].astype(bool), deterministic=self.deterministic
        )
        return int(action)


def make_agent(game: str, model_path: str = "runs/sb3_maskable_ppo.zip", deterministic: bool = True, **kwargs):
    """``agents.make("experiments.sb3_maskable_ppo:make_agent[model_path=...]", game)``."""
    torch.set_num_threads(1)
    return MaskablePPOAgent(game, model_path, deterministic, **kwargs)


def frozen_policy(model_path: str, deterministic: bool = False):
    """A saved model as a batched opponent callable ``(observations, masks) -> actions`` (self-play against a
    frozen copy: ``OneSeatVectorEnv(..., opponents=frozen_policy(path))``)."""
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(model_path, device="cpu")

    def policy(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        actions, _ = model.predict(observations, action_masks=masks.astype(bool), deterministic=deterministic)
        return np.asarray(actions, dtype=np.int64)

    return policy


if __name__ == "__main__":
    from trick_core.command_line import command_prog

    print(json.dumps(train(checked(tyro.cli(Args, prog=command_prog())))))
