"""A short distributed self-play run: one learner, ``--num-actors`` batch-env actors on Ray (or in-process).

    python -m experiments.ray_selfplay --game bavarian --num-actors 2 --backend ray [--ray-address auto]

The smallest learner that exercises ``experiments.ray_actors``: every iteration the learner broadcasts its
weights, each actor plays ``--steps`` steps of its batch env with them (one policy at every seat) and
returns the decisions of the hands that ended, each labelled with its seat's settlement; the learner
concatenates the batches in actor order and takes one policy-gradient step (REINFORCE with a learned
value baseline and an entropy bonus). It is a demonstration of the plumbing, not a strong bot: the
training scripts of ``experiments/`` plug their own collectors and updates into the same pool (see the
hook in ``experiments.ray_actors``). ``--backend local`` runs the same actors in this process, one after
the other; for a seed both backends log the same numbers and end with the same weights (``weights_sha256``).

Prints one JSON line per iteration (``--log``) and a JSON summary: samples per actor, the throughput
(``samples_per_second``: learner samples per wall second, updates included; ``collect_seconds``: waiting
for experience; ``update_seconds``: the learner's own time).
"""

from __future__ import annotations

import functools
import hashlib
import json
import time
from dataclasses import dataclass
from typing import Literal

import torch
import tyro

from experiments.common import LibraryArgs, check_args, checked
from experiments.ray_actors import ActorConfig, ActorPool, concatenate, make_masked_policy


@dataclass
class Args(LibraryArgs):
    """A short distributed self-play run: one learner, batch-env actors on Ray or in this process."""

    num_actors: int = 2
    """experience actors (Ray actor processes with --backend ray)"""
    backend: Literal["local", "ray"] = "ray"
    """ray: actors on Ray workers; local: the same actors in this process"""
    ray_address: str | None = None
    """None: start Ray on the local machine; "auto": join the cluster of this node; or the cluster's address"""
    iterations: int = 10
    """learner updates"""
    num_envs: int = 64
    """rows of each actor's batch env"""
    steps: int = 32
    """batch env steps per actor and iteration"""
    hidden: int = 64
    learning_rate: float = 1e-3
    ent_coef: float = 0.01
    """entropy bonus"""
    vf_coef: float = 0.5
    """weight of the value loss"""
    log: bool = True
    """print one JSON line per iteration"""


def update(policy, optimizer, batch: dict, args: Args) -> dict:
    observation = torch.from_numpy(batch["observation"])
    mask = torch.from_numpy(batch["action_mask"])
    action = torch.from_numpy(batch["action"]).long()
    returns = torch.from_numpy(batch["return"])
    logits, value = policy(observation, mask)
    log_probs = torch.log_softmax(logits, dim=-1)
    chosen = log_probs.gather(-1, action[:, None]).squeeze(-1)
    advantage = (returns - value).detach()
    advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
    entropy = -(log_probs.exp() * log_probs.clamp(min=-30)).sum(-1).mean()
    policy_loss = -(advantage * chosen).mean()
    value_loss = ((returns - value) ** 2).mean()
    loss = policy_loss + args.vf_coef * value_loss - args.ent_coef * entropy
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return {
        "policy_loss": policy_loss.item(), "value_loss": value_loss.item(), "entropy": entropy.item(),
        "mean_abs_return": float(returns.abs().mean()),
    }


def weights_digest(policy) -> str:
    digest = hashlib.sha256()
    for name, tensor in sorted(policy.state_dict().items()):
        digest.update(name.encode())
        digest.update(tensor.detach().cpu().numpy().tobytes())
    return digest.hexdigest()


def train(args: Args) -> dict:
    """Run as ``args`` say (checked first: ``ValueError`` naming a bad option before Ray or an env starts)."""
    check_args(args)
    torch.set_num_threads(args.torch_threads)
    config = ActorConfig(args.game, args.num_envs, args.steps, args.seed, torch_threads=args.torch_threads)
    make_policy = functools.partial(make_masked_policy, hidden=args.hidden, seed=args.seed)
    started = time.perf_counter()
    pool = ActorPool(args.num_actors, config, make_policy, backend=args.backend, ray_address=args.ray_address)
    setup_seconds = time.perf_counter() - started
    with pool:
        learner = make_masked_policy(pool_env_shape(args), hidden=args.hidden, seed=args.seed)
        optimizer = torch.optim.Adam(learner.parameters(), lr=args.learning_rate)
        samples_per_actor = [0] * args.num_actors
        collect_seconds = update_seconds = 0.0
        logs = []
        run_start = time.perf_counter()
        for iteration in range(args.iterations):
            start = time.perf_counter()
            pool.broadcast(learner.state_dict(), version=iteration)
            batches = pool.collect()
            collect_seconds += time.perf_counter() - start
            if any(b["version"] != iteration for b in batches):
                raise RuntimeError("an actor acted with stale weights")
            for b in batches:
                samples_per_actor[b["actor"]] += int(b["samples"])
            start = time.perf_counter()
            metrics = update(learner, optimizer, concatenate(batches), args)
            update_seconds += time.perf_counter() - start
            line = {"iteration": iteration, "samples": sum(int(b["samples"]) for b in batches),
                    "hands": sum(int(b["hands"]) for b in batches), **metrics}
            logs.append(line)
            if args.log:
                print(json.dumps(line))
        wall = time.perf_counter() - run_start
    samples = sum(samples_per_actor)
    return {
        "game": args.game, "backend": args.backend, "num_actors": args.num_actors, "iterations": args.iterations,
        "samples": samples, "samples_per_actor": samples_per_actor,
        "env_steps": args.iterations * args.num_actors * args.num_envs * args.steps,
        "setup_seconds": round(setup_seconds, 3), "wall_seconds": round(wall, 3),
        "collect_seconds": round(collect_seconds, 3), "update_seconds": round(update_seconds, 3),
        "samples_per_second": round(samples / wall, 1) if wall > 0 else None,
        "weights_sha256": weights_digest(learner), "logs": logs,
    }


@functools.cache
def _shapes(game: str) -> tuple[int, int]:
    from trick_core.registry import game_spec

    env = game_spec(game).make_batch_env(1, num_threads=1)
    return env.obs_size, env.num_actions


def pool_env_shape(args: Args):
    """An object with the env's ``obs_size`` and ``num_actions`` (for the learner's copy of the policy)."""
    obs_size, num_actions = _shapes(args.game)
    return type("Shape", (), {"obs_size": obs_size, "num_actions": num_actions})()


if __name__ == "__main__":
    from trick_core.command_line import command_prog

    summary = train(checked(tyro.cli(Args, prog=command_prog())))
    summary.pop("logs")
    print(json.dumps(summary))
