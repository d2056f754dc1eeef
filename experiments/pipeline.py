"""The recipe of the shipped ``neural`` agents in one command: a warm start from a teacher, then
reinforcement learning from it, within one budget.

    python -m experiments.pipeline --game bavarian --budget-cpu-minutes 110 --seed 1

1. ``experiments/warm_start.py``: the teacher (``rules``) plays ``teacher_decisions`` decisions in worker
   processes, and a network learns to imitate them (policy head) and to predict their returns (value
   and Q heads);
2. ``experiments/<algo>.py`` (``ppo`` by default) continues from that network until the budget is
   spent (what the warm start used is deducted).

The budget is counted in CPU minutes (this process, its threads and its finished workers): on a machine
whose cores other work shares, wall time says more about the other work than about the training. Two
idle cores give about ``2 x wall minutes``, so 110 CPU minutes is under an hour of such a machine; the
wall time is reported beside it. The run folders are ``runs_dir/{game}__pipeline__{seed}__{time}/warm``
and ``.../rl``; ``python -m agents.neural.ship --checkpoint .../rl/final.pt`` ships the result with its record.
"""

from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import tyro

from agents.neural.training import cpu_seconds, run_name
from experiments import dmc, mcpi, ppo, warm_start
from experiments.common import GameArgs, check_args, checked

ALGORITHMS = {"ppo": ppo, "dmc": dmc, "mcpi": mcpi}


@dataclass
class Args(GameArgs):
    """The recipe of the shipped neural agents: a warm start, then reinforcement learning, in one budget."""

    budget_cpu_minutes: float = 110.0
    """CPU minutes for both stages together"""
    budget_wall_minutes: float | None = None
    """also stop at this many wall minutes (both stages)"""
    teacher_decisions: int = 600_000
    """decisions the teacher plays for the warm start"""
    warm_epochs: int = 6
    """passes of the warm start over the teacher's decisions"""
    workers: int = 2
    """teacher processes"""
    hidden: tuple[int, ...] = (256, 256, 256)
    """widths of the network's torso (the warm start builds it; the RL stage continues with it)"""
    algo: str = "ppo"
    """the reinforcement-learning stage: ppo, dmc or mcpi"""
    rl: list[str] = field(default_factory=list)
    """further arguments of the RL stage as key=value (e.g. learning_rate=1e-4 opponent_fraction=0.3)"""
    eval_every: int = 4_000_000
    """decisions between evaluations against rules in the RL stage"""
    eval_hands: int = 100
    """deals of each evaluation against rules (the warm start's final one too; 0: none)"""
    progress: bool = True
    """show progress bars"""


def rl_args(args: Args, run_dir: Path, init_from: str | None, cpu_minutes: float, wall_minutes: float | None):
    """The RL stage's ``Args``: the pipeline's options, what is left of the budget, and ``--rl`` (each key
    checked to be an option of the stage: ``ValueError`` naming an unknown one)."""
    module = ALGORITHMS[args.algo]
    command = [
        f"--game={args.game}", f"--seed={args.seed}", f"--run-dir={run_dir}",
        f"--eval-every={args.eval_every if args.eval_hands else 0}", f"--eval-hands={max(args.eval_hands, 1)}",
        f"--save-every={args.eval_every}", f"--cpu-limit-minutes={max(cpu_minutes, 0.0)}",
    ]
    if init_from is not None:
        command.append(f"--init-from={init_from}")
    if wall_minutes is not None:
        command.append(f"--time-limit-minutes={max(wall_minutes, 0.0)}")
    if not args.progress:
        command.append("--no-progress")
    if args.config:
        command += ["--config", *args.config]
    options = {field.name for field in dataclasses.fields(module.Args)}
    for item in args.rl:
        key, sep, value = item.partition("=")
        if not sep or key not in options:
            raise ValueError(f"--rl {item!r} is not key=value of an option of experiments.{args.algo} "
                             f"(e.g. learning_rate=1e-4; its options: {sorted(options)})")
        command.append(f"--{key.replace('_', '-')}={value}")
    return tyro.cli(module.Args, args=command)


def check_pipeline(args: Args) -> None:
    """The pipeline's options and those of both stages, checked before the warm start plays its first hand
    (``ValueError`` naming the first bad one)."""
    if args.algo not in ALGORITHMS:
        raise ValueError(f"algo must be one of {sorted(ALGORITHMS)}, got {args.algo!r}")
    check_args(args)
    rl = rl_args(args, Path(args.runs_dir) / "rl", None, args.budget_cpu_minutes, args.budget_wall_minutes)
    check_args(rl, ALGORITHMS[args.algo].ALGO, warm_started=True)


def main(args: Args) -> dict:
    check_pipeline(args)
    root = Path(args.runs_dir) / run_name(args.game, "pipeline", args.seed)
    start_wall, start_cpu = time.perf_counter(), cpu_seconds()
    warm = warm_start.main(warm_start.Args(
        game=args.game, config=args.config, seed=args.seed, run_dir=str(root / "warm"),
        decisions=args.teacher_decisions, epochs=args.warm_epochs, workers=args.workers, eval_hands=args.eval_hands,
        hidden=args.hidden, progress=args.progress,
    ))
    spent_cpu = (cpu_seconds() - start_cpu) / 60
    spent_wall = (time.perf_counter() - start_wall) / 60
    wall_left = None if args.budget_wall_minutes is None else args.budget_wall_minutes - spent_wall
    rl = rl_args(args, root / "rl", warm["final"], args.budget_cpu_minutes - spent_cpu, wall_left)
    result = ALGORITHMS[args.algo].main(rl)
    summary = {
        "game": args.game, "warm_start": warm["final"], "final": result["final"],
        "cpu_minutes": (cpu_seconds() - start_cpu) / 60, "wall_minutes": (time.perf_counter() - start_wall) / 60,
        "last_evaluation": result["last_evaluation"],
    }
    print(json.dumps(summary))
    return summary


if __name__ == "__main__":
    from trick_core.command_line import command_prog

    main(checked(tyro.cli(Args, prog=command_prog()), check=check_pipeline))
