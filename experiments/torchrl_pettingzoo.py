"""TorchRL: the PettingZoo env through ``PettingZooWrapper(use_mask=True)``, one masked policy for every seat.

    python -m experiments.torchrl_pettingzoo --game bavarian --episodes 2000

TorchRL wraps a PettingZoo AEC env with one group per seat (``player_0`` ... ``player_3``). Each step,
every group's tensordict carries ``"mask"`` (True for the seat to act) and ``"action_mask"`` (its legal
actions; all True for the seats not acting, so that a masked distribution stays defined there); the
wrapper applies only the acting seat's action. The policy is one MLP shared by all seats (observations are
seat-relative), read through ``MaskedCategorical`` with each group's ``action_mask``.

Training is self-play REINFORCE with the rewards credited per seat: each seat's return is the sum of *its
own* rewards over the hand (``("next", seat, "reward")``), applied to the log-probabilities of the steps
where *that* seat acted (``(seat, "mask")``). No baseline is subtracted: in self-play of a zero-sum game the
seats' returns already average to zero. Needs the ``torchrl`` extra.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

import torch
import tyro
from tensordict.nn import TensorDictModule, TensorDictSequential
from torch import nn
from torchrl.envs.libs.pettingzoo import PettingZooWrapper
from torchrl.modules import MaskedCategorical, ProbabilisticActor

from agents.neural.training import set_threads
from experiments.common import LibraryArgs, check_args, checked
from trick_gym.games import make_aec_env


@dataclass
class Args(LibraryArgs):
    """TorchRL on the PettingZoo env (PettingZooWrapper with masks), one masked policy for every seat."""

    episodes: int = 200
    """hands of self-play to train on (a whole number of updates: the rest of a division is not played)"""
    episodes_per_update: int = 8
    """hands per gradient step (at most ``episodes``)"""
    learning_rate: float = 1e-3

    def check_options(self, config: dict) -> None:
        """The recipe's own check (``check_args`` runs it after the shared ones)."""
        if self.episodes < self.episodes_per_update:
            raise ValueError(f"episodes ({self.episodes}) must be at least episodes_per_update "
                             f"({self.episodes_per_update}): fewer would train on nothing")


def make_env(game: str, seed: int) -> PettingZooWrapper:
    return PettingZooWrapper(env=make_aec_env(game), use_mask=True, categorical_actions=True, seed=seed)


def make_policy(env: PettingZooWrapper, hidden: int) -> tuple[TensorDictSequential, nn.Module]:
    """One MLP for every seat's group; a ``MaskedCategorical`` actor per group reading its ``action_mask``."""
    group = next(iter(env.group_map))
    obs_size = env.observation_spec[group, "observation", "observation"].shape[-1]
    num_actions = env.full_action_spec[group, "action"].space.n
    network = nn.Sequential(nn.Linear(obs_size, hidden), nn.Tanh(), nn.Linear(hidden, num_actions))
    actors = []
    for group in env.group_map:
        logits = TensorDictModule(
            network, in_keys=[(group, "observation", "observation")], out_keys=[(group, "logits")]
        )
        actors.append(
            ProbabilisticActor(
                logits,
                in_keys={"logits": (group, "logits"), "mask": (group, "action_mask")},
                out_keys=[(group, "action")],
                distribution_class=MaskedCategorical,
                return_log_prob=True,
                log_prob_key=(group, "log_prob"),
            )
        )
    return TensorDictSequential(*actors), network


def seat_loss(rollout, groups) -> torch.Tensor:
    """REINFORCE loss of one hand: each seat's own return on its own decisions."""
    loss = torch.zeros(())
    for group in groups:
        acted = rollout[group, "mask"].reshape(-1)
        seat_return = rollout["next", group, "reward"].sum()
        log_probs = rollout[group, "log_prob"].reshape(-1)
        loss = loss - seat_return * log_probs[acted].sum()
    return loss


def train(args: Args) -> dict:
    check_args(args)  # every option before the env is built
    set_threads(args.torch_threads, 1)
    torch.manual_seed(args.seed)
    env = make_env(args.game, args.seed)
    policy, network = make_policy(env, args.hidden)
    optimiser = torch.optim.Adam(network.parameters(), lr=args.learning_rate)
    groups = list(env.group_map)
    steps, losses = 0, []
    started, cpu_started = time.perf_counter(), time.process_time()
    for _ in range(args.episodes // args.episodes_per_update):
        optimiser.zero_grad()
        total = torch.zeros(())
        for _ in range(args.episodes_per_update):
            rollout = env.rollout(max_steps=1000, policy=policy, break_when_any_done=True)
            steps += rollout.batch_size[0]
            total = total + seat_loss(rollout, groups) / args.episodes_per_update
        total.backward()
        optimiser.step()
        losses.append(total.item())
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    return {
        "game": args.game,
        "episodes": (args.episodes // args.episodes_per_update) * args.episodes_per_update,
        "env_steps": steps,
        "steps_per_second": round(steps / wall, 1),
        "steps_per_cpu_second": round(steps / cpu, 1),
        "last_loss": losses[-1] if losses else None,
    }


if __name__ == "__main__":
    from trick_core.command_line import command_prog

    print(json.dumps(train(checked(tyro.cli(Args, prog=command_prog())))))
