"""Weight averaging: one network whose every weight is the mean of the same weight in several checkpoints of
one training line (a "model soup", Wortsman et al. 2022; "stochastic weight averaging", Izmailov et al. 2018).

    python -m experiments.average --checkpoints runs/.../rl/final.pt runs/.../average/eval/decisions_*.pt --out soup.pt

Networks a few million decisions apart on one line of fine-tuning lie in one basin of the loss, and their
mean sits nearer its centre than any of them: in Bavarian the mean of a 90 M-decision PPO network and four
checkpoints of a 36 M-decision continuation beat that network head to head, where no single checkpoint of
the continuation did (``docs/training.md``, "Bavarian: the weight average"; it is the network shipped now).
The pipeline's last stage (``--average-decisions``) runs that continuation and this average.

The result is an ordinary checkpoint: the first ingredient's format, game, features, head and algorithm,
the averaged ``network``, and a ``training`` record (``algo`` ``average``, the ingredients, the command) whose
``init_from`` is the last ingredient, so ``agents.neural.ship`` follows the chain of stages behind it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import torch

from agents.neural.checkpoint import load_checkpoint, save_checkpoint
from agents.neural.training import command_line, cpu_seconds, git_commit

MUST_AGREE = ("game", "config", "obs_size", "features", "num_actions", "action_names", "hidden", "head")
"""What makes two checkpoints the same network shape on the same table: averaging needs all of it equal."""


@dataclass
class Args:
    """Average the weights of checkpoints of one network (same game, table and shape) into one checkpoint."""

    checkpoints: list[str]
    """the checkpoints to average, oldest first (at least two)"""
    out: str
    """where to write the averaged checkpoint"""


def check(args: Args) -> list[dict]:
    """The ingredients, loaded and checked (``ValueError`` naming the first that does not fit the first)."""
    if len(args.checkpoints) < 2:
        raise ValueError(f"averaging needs at least two checkpoints, got {len(args.checkpoints)}")
    if len(set(args.checkpoints)) != len(args.checkpoints):
        raise ValueError(f"a checkpoint is named twice in {args.checkpoints}")
    if Path(args.out).resolve() in {Path(path).resolve() for path in args.checkpoints}:
        raise ValueError(f"out {args.out!r} would overwrite an ingredient")
    ingredients = [load_checkpoint(path) for path in args.checkpoints]
    first = ingredients[0]
    for path, checkpoint in zip(args.checkpoints[1:], ingredients[1:], strict=True):
        for key in MUST_AGREE:
            if checkpoint.get(key) != first.get(key):
                raise ValueError(f"{path!r} differs from {args.checkpoints[0]!r} in {key}: "
                                 f"{checkpoint.get(key)!r} != {first.get(key)!r}")
        if checkpoint["network"].keys() != first["network"].keys():
            raise ValueError(f"{path!r} has other network tensors than {args.checkpoints[0]!r}")
    return ingredients


def averaged_weights(networks: list[dict]) -> dict:
    """The mean of every floating-point tensor; the others (integer tables of the network) must be equal in
    every ingredient and are taken as they are (``ValueError`` naming one that differs)."""
    result = {}
    for key, first in networks[0].items():
        tensors = [network[key] for network in networks]
        if first.is_floating_point():
            result[key] = torch.stack([tensor.double() for tensor in tensors]).mean(dim=0).to(first.dtype)
        elif all(torch.equal(first, tensor) for tensor in tensors):
            result[key] = first.clone()
        else:
            raise ValueError(f"the non-float tensor {key!r} differs between the checkpoints: it cannot be averaged")
    return result


def main(args: Args) -> dict:
    """Write the averaged checkpoint; returns a summary (the ingredients and the output)."""
    start_wall, start_cpu = time.perf_counter(), cpu_seconds()
    ingredients = check(args)
    soup = {key: value for key, value in ingredients[0].items() if key not in ("training", "resume")}
    soup["network"] = averaged_weights([checkpoint["network"] for checkpoint in ingredients])
    soup["resume"] = None
    soup["training"] = {
        "algo": "average",
        "args": {"checkpoints": list(args.checkpoints), "out": args.out, "init_from": args.checkpoints[-1],
                 "seed": None},
        "ingredients": list(args.checkpoints),
        "command": command_line(),
        "commit": git_commit(),
        "decisions": 0,
        "wall_seconds": time.perf_counter() - start_wall,
        "cpu_seconds": cpu_seconds() - start_cpu,
        "evaluations": [],
    }
    path = save_checkpoint(args.out, soup)
    summary = {"out": str(path), "ingredients": list(args.checkpoints)}
    print(summary)
    return summary


if __name__ == "__main__":
    import tyro

    from trick_core.command_line import checked, command_prog

    main(checked(tyro.cli(Args, prog=command_prog()), check))
