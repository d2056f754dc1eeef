"""RLlib: PPO self-play on the PettingZoo env through ``PettingZooEnv``, with RLlib's action-masking model.

    python -m experiments.rllib_pettingzoo --game bavarian --iterations 20

RLlib's ``PettingZooEnv`` steps the AEC table; when a hand ends it walks every seat through its final
``last()``, so each seat's own settlement reaches that seat's episode (the credit is right on the full
table). Every seat maps to one shared policy (observations are seat-relative), an
``ActionMaskingTorchRLModule`` (from RLlib's examples), which wants a ``Dict`` observation with the keys
``"observations"`` and ``"action_mask"``: ``trick_gym.pettingzoo.RenamedObservation`` renames PettingZoo's
``"observation"``. RLlib checks the env with an unmasked random action first, so the table is built with
``illegal_action="terminate"`` (the default, raising, would stop the check).

Needs the ``rllib`` extra. Ray pins gymnasium exactly (``ray[rllib]==2.60.0`` wants ``gymnasium==1.2.2``),
so install it in its own virtual environment rather than beside the other extras.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

import tyro
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
from ray.tune.registry import register_env

from agents.neural.training import set_threads
from experiments.common import LibraryArgs, check_args, checked
from trick_gym.games import make_aec_env
from trick_gym.pettingzoo import RenamedObservation

SHARED_POLICY = "shared"


@dataclass
class Args(LibraryArgs):
    """RLlib PPO self-play on the PettingZoo env with RLlib's action-masking model."""

    iterations: int = 2
    """PPO training iterations"""
    train_batch_size: int = 1000
    """env steps per iteration"""
    minibatch_size: int = 250
    """PPO minibatch size"""

    def check_options(self, config: dict) -> None:
        """The recipe's own check (``check_args`` runs it after the shared ones)."""
        if self.minibatch_size > self.train_batch_size:
            raise ValueError(f"minibatch_size ({self.minibatch_size}) must be at most train_batch_size "
                             f"({self.train_batch_size})")


def make_env(game: str) -> PettingZooEnv:
    # RLlib's env pre-check steps one unmasked random action; "terminate" ends that hand with -1 for the
    # mover instead of raising (the masked module itself never picks an illegal action).
    return PettingZooEnv(RenamedObservation(make_aec_env(game, illegal_action="terminate"), key="observations"))


def make_config(args: Args) -> PPOConfig:
    env_name = f"trick_gym_{args.game}"
    register_env(env_name, lambda _config: make_env(args.game))
    return (
        PPOConfig()
        .environment(env_name)
        .env_runners(num_env_runners=0, num_envs_per_env_runner=1)
        .learners(num_learners=0)
        .multi_agent(policies={SHARED_POLICY}, policy_mapping_fn=lambda agent_id, *_, **__: SHARED_POLICY)
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    SHARED_POLICY: RLModuleSpec(
                        module_class=ActionMaskingTorchRLModule,
                        model_config={"head_fcnet_hiddens": [args.hidden, args.hidden]},
                    )
                }
            )
        )
        .training(
            train_batch_size_per_learner=args.train_batch_size,
            minibatch_size=args.minibatch_size,
            num_epochs=2,
            lr=args.learning_rate,
            gamma=1.0,
        )
        .debugging(seed=args.seed)
    )


def train(args: Args) -> dict:
    import ray

    check_args(args)  # every option before Ray starts
    set_threads(args.torch_threads, 1)
    ray.init(num_cpus=1, include_dashboard=False, ignore_reinit_error=True, log_to_driver=False)
    algorithm = make_config(args).build_algo()
    started, cpu_started = time.perf_counter(), time.process_time()
    steps = 0
    for _ in range(args.iterations):
        result = algorithm.train()
        steps = int(result["env_runners"]["num_env_steps_sampled_lifetime"])
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    algorithm.stop()
    return {
        "game": args.game,
        "env_steps": steps,
        "steps_per_second": round(steps / wall, 1),
        "steps_per_cpu_second": round(steps / cpu, 1),
    }


if __name__ == "__main__":
    from trick_core.command_line import command_prog

    print(json.dumps(train(checked(tyro.cli(Args, prog=command_prog())))))
