"""The recipe of the shipped ``neural`` agents in one command: a warm start from a teacher, then
reinforcement learning from it, within one budget.

    python -m experiments.pipeline --game bavarian

With no other option this is the recipe of the network shipped for the game (``RECIPES``, ``RL_RECIPE``; the
command in ``agents/neural/checkpoints/<game>.json``): every option given on the command line overrides it.

1. ``experiments/warm_start.py``: the teacher (``rules``) plays ``teacher_decisions`` decisions in worker
   processes, and a network learns to imitate them (policy head) and to predict their returns (value
   and Q heads);
2. ``experiments/<algo>.py`` (``ppo`` by default) continues from that network until the budget is
   spent (what the warm start used is deducted, and what the third stage keeps);
3. where the recipe has it (Bavarian, Asserufen), weight averaging (``--average-decisions``): the same script continues
   the RL stage's network for that many decisions with another seed, and the network shipped is the mean of
   the weights of the RL stage's network and of the continuation's checkpoints every ``--average-every``
   decisions (``experiments/average.py``): in both games that mean beat the RL stage's network head to head.
   ``--average-rounds R`` repeats the stage, each round continuing the previous round's average (seed + 10 r);
   ``--average-later-decisions`` and ``--average-later-cpu-minutes`` give the rounds after the first their own
   length and CPU minutes.

The budget is counted in CPU minutes (this process, its threads and its finished workers): on a machine
whose cores other work shares, wall time says more about the other work than about the training. The
Palatinate recipe keeps the wall limit its shipped run had too; the Bavarian and Knüffeln networks shipped
now were trained without one (a wall limit had stopped their first runs before their CPU budgets on a loaded
machine), and Asserufen's recipe dropped it with its third stage, which a wall limit would cut:
``--budget-wall-minutes inf`` counts CPU only. The RL stage also ends at
``--total-decisions`` (30 M, the scripts' default), which ended both of those runs before their CPU budgets;
Bavarian's recipe raises it to 90 M (its curve against ``rules`` still rose at 30 M and at 60 M) and adds a
36 M-decision weight-averaging stage, within 180 CPU minutes, 55 of them kept for the third stage (the shipped
network's stages used 116 and 49); Asserufen's adds two rounds of the same stage to its 45 CPU minutes
(155 in all: the second round's average beat the first's head to head).
The run folders are ``runs_dir/{game}__pipeline__{seed}__{time}/warm``, ``.../rl`` and ``.../average``;
``python -m agents.neural.ship --checkpoint .../rl/final.pt`` (or ``.../average/average.pt``) ships the result
with its record.
"""

from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import tyro

from agents.neural.training import cpu_seconds, run_name
from experiments import average, dmc, mcpi, ppo, warm_start
from experiments.common import GameArgs, check_args, checked
from trick_core.checks import non_negative_int, positive_int

ALGORITHMS = {"ppo": ppo, "dmc": dmc, "mcpi": mcpi}


@dataclass(frozen=True)
class Recipe:
    """What a game's shipped network was trained with, where it differs between games: the warm start's
    size and passes, the budget (CPU minutes, and the wall minutes of the Palatinate run; none for Bavarian
    and Knüffeln, whose first runs a wall limit cut short on a loaded machine, nor for Asserufen's third
    stage), the RL stage's own settings (Bavarian's 90 M decisions), the weight-averaging stage (Bavarian and
    Asserufen) and the deals of each evaluation."""

    teacher_decisions: int
    warm_epochs: int
    budget_cpu_minutes: float
    budget_wall_minutes: float
    eval_hands: int
    rl: tuple[str, ...] = ()
    """the game's own ``--rl`` settings, applied after ``RL_RECIPE`` and before the command line's"""
    average_decisions: int = 0
    """decisions of the weight-averaging stage's continuation (0: no such stage)"""
    average_every: int = 9_000_000
    """decisions between the continuation's checkpoints that are averaged"""
    average_cpu_minutes: float = 0.0
    """CPU minutes of the budget kept for each round of the weight-averaging stage"""
    average_rounds: int = 1
    """rounds of weight averaging, each continuing the previous round's average"""
    average_later_decisions: int = 0
    """decisions of the continuation of each round after the first (0: ``average_decisions``)"""
    average_later_cpu_minutes: float = 0.0
    """CPU minutes kept for each round after the first (0: ``average_cpu_minutes``)"""


RECIPES = {
    "bavarian": Recipe(1_000_000, 4, 180.0, float("inf"), 600, ("total_decisions=90000000",),
                       average_decisions=36_000_000, average_cpu_minutes=55.0),
    "palatinate": Recipe(1_000_000, 4, 45.0, 100.0, 600),
    "asserufen": Recipe(1_000_000, 4, 155.0, float("inf"), 400, average_decisions=36_000_000, average_cpu_minutes=55.0,
                        average_rounds=2),
    "knuffeln": Recipe(500_000, 3, 80.0, float("inf"), 1000),
}
"""The pipeline's defaults per game: those of the shipped runs (their records' commands), except
``eval_hands``, raised after them so that an evaluation's interval is narrower than the changes it tracks
(about +-0.1 units per hand in the Schafkopf games and +-0.25 in Knüffeln, at 24 to 33 CPU seconds an
evaluation, ``docs/training.md``; the shipped runs evaluated on 100 deals, +-0.12 to +-0.8).
``tests/experiments/test_pipeline_recipe.py`` holds them to the records."""

RL_RECIPE = {"ppo": {"learning_rate": "1e-4", "anchor_share": "0.5", "opponent_fraction": "0.3"}}
"""The RL stage's defaults of the shipped runs, under ``--rl``: fine-tuning the warm start at a lower step
size than PPO's from-scratch 2.5e-4, opponents in 30% of the hands, half of those played by the warm start
itself (its imitation of ``rules`` keeps the policy from forgetting how to beat it). A ``--rl key=value``
overrides its key only."""


@dataclass
class Args(GameArgs):
    """The recipe of the shipped neural agents: a warm start, then reinforcement learning, in one budget."""

    budget_cpu_minutes: float | None = None
    """CPU minutes for both stages together (default: the game's recipe, RECIPES)"""
    budget_wall_minutes: float | None = None
    """also stop at this many wall minutes, both stages (default: the game's recipe; inf: no wall limit)"""
    teacher_decisions: int | None = None
    """decisions the teacher plays for the warm start (default: the game's recipe)"""
    warm_epochs: int | None = None
    """passes of the warm start over the teacher's decisions (default: the game's recipe)"""
    workers: int = 1
    """teacher processes (each plays its own seeded share of the hands, so the count changes the data)"""
    hidden: tuple[int, ...] = (256, 256, 256)
    """widths of the network's torso (the warm start builds it; the RL stage continues with it)"""
    algo: str = "ppo"
    """the reinforcement-learning stage: ppo, dmc or mcpi"""
    rl: list[str] = field(default_factory=list)
    """further arguments of the RL stage as key=value, each overriding its key of RL_RECIPE (e.g.
    learning_rate=3e-4 ent_coef=0.02)"""
    eval_every: int = 3_000_000
    """decisions between evaluations against rules in the RL stage (and between its checkpoints, where the
    envs are reseeded: part of the recipe)"""
    eval_hands: int | None = None
    """deals of each evaluation against rules, the same deals every time (the warm start's final one too;
    0: none; default: the game's recipe)"""
    average_decisions: int | None = None
    """3. weight averaging: continue the RL stage's network this many more decisions (seed + 10, its other
    settings the RL stage's), then ship the mean of the weights of the RL stage's network and of the
    continuation's checkpoint every ``average_every`` decisions (``experiments/average.py``); 0: no such stage
    (default: the game's recipe)"""
    average_every: int | None = None
    """decisions between the averaged checkpoints of the continuation (default: the game's recipe)"""
    average_cpu_minutes: float | None = None
    """CPU minutes of ``budget_cpu_minutes`` kept for each round of the weight-averaging stage (the RL stage
    ends that much earlier per round; the last round then has what is left; default: the game's recipe)"""
    average_rounds: int | None = None
    """rounds of weight averaging: round r continues the previous round's average (the first: the RL stage's
    network) with seed + 10 r and averages it with that continuation's checkpoints, in ``average`` (round 1)
    or ``average_r`` (default: the game's recipe)"""
    average_later_decisions: int | None = None
    """decisions of the continuation of each round after the first (0: ``average_decisions``; default: the
    game's recipe)"""
    average_later_cpu_minutes: float | None = None
    """CPU minutes kept for each round after the first (0: ``average_cpu_minutes``; default: the game's
    recipe)"""
    progress: bool = True
    """show progress bars"""


AVERAGE_SEED_OFFSET = 10
"""The continuation of the weight-averaging stage plays other hands than the RL stage: its seed is the
pipeline's plus this (the Bavarian continuation that first showed the gain: seed 11 after seed 1)."""


def with_recipe(args: Args) -> Args:
    """``args`` with every option left at its default (None) set from the game's recipe (``RECIPES``; an
    unknown game takes Bavarian's until ``check_args`` names it)."""
    recipe = RECIPES.get(args.game, RECIPES["bavarian"])
    return dataclasses.replace(args, **{name: getattr(recipe, name) for name in Recipe.__dataclass_fields__
                                        if name != "rl" and getattr(args, name) is None})


def rl_settings(args: Args) -> dict[str, str]:
    """The RL stage's own options: ``RL_RECIPE`` of its algorithm, then ``--rl`` (each key checked to be an
    option of the stage: ``ValueError`` naming an unknown one or an item that is not key=value)."""
    options = {field.name for field in dataclasses.fields(ALGORITHMS[args.algo].Args)}
    settings = dict(RL_RECIPE.get(args.algo, {}))
    recipe = RECIPES.get(args.game, RECIPES["bavarian"]).rl if args.algo == "ppo" else ()
    for item in (*recipe, *args.rl):
        key, sep, value = item.partition("=")
        if not sep or key not in options:
            raise ValueError(f"--rl {item!r} is not key=value of an option of experiments.{args.algo} "
                             f"(e.g. learning_rate=1e-4; its options: {sorted(options)})")
        settings[key] = value
    return settings


def rl_args(args: Args, run_dir: Path, init_from: str | None, cpu_minutes: float, wall_minutes: float | None):
    """The RL stage's ``Args``: the pipeline's options (``args`` with its recipe filled in), what is left of
    the budget, and ``rl_settings``."""
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
    command += [f"--{key.replace('_', '-')}={value}" for key, value in rl_settings(args).items()]
    return tyro.cli(module.Args, args=command)


def average_args(args: Args, run_dir: Path, init_from: str | None, cpu_minutes: float, wall_minutes: float | None,
                 round_number: int = 1):
    """The continuation of a round of the weight-averaging stage: the RL stage's ``Args`` from ``init_from``
    (the network the round starts from), with its own seed, length, checkpoints and budget."""
    stage = rl_args(args, run_dir, init_from, cpu_minutes, wall_minutes)
    return dataclasses.replace(stage, seed=args.seed + AVERAGE_SEED_OFFSET * round_number,
                               total_decisions=round_decisions(args, round_number), eval_every=args.average_every)


def round_decisions(args: Args, round_number: int) -> int:
    """Decisions of round ``round_number``'s continuation: ``average_decisions`` in the first round,
    ``average_later_decisions`` (where set) in the others."""
    return args.average_later_decisions if round_number > 1 and args.average_later_decisions else (
        args.average_decisions)


def round_cpu_minutes(args: Args, round_number: int) -> float:
    """CPU minutes kept for round ``round_number`` (``average_cpu_minutes``, or ``average_later_cpu_minutes``
    after the first round where set)."""
    return args.average_later_cpu_minutes if round_number > 1 and args.average_later_cpu_minutes else (
        args.average_cpu_minutes)


def reserved_cpu_minutes(args: Args, after_round: int) -> float:
    """CPU minutes kept for the rounds after ``after_round`` (0: all of them)."""
    rounds = args.average_rounds if args.average_decisions else 0
    return sum(round_cpu_minutes(args, r) for r in range(after_round + 1, rounds + 1))


def average_folder(root: Path, round_number: int) -> Path:
    """Where a round of weight averaging runs: ``average`` for the first (the folder of one-round recipes),
    ``average_r`` for round r after it."""
    return root / ("average" if round_number == 1 else f"average_{round_number}")


def check_pipeline(args: Args) -> None:
    """The pipeline's options and those of its stages, checked before the warm start plays its first hand
    (``ValueError`` naming the first bad one)."""
    if args.algo not in ALGORITHMS:
        raise ValueError(f"algo must be one of {sorted(ALGORITHMS)}, got {args.algo!r}")
    args = with_recipe(args)
    check_args(args)
    rl = rl_args(args, Path(args.runs_dir) / "rl", None, args.budget_cpu_minutes, args.budget_wall_minutes)
    check_args(rl, ALGORITHMS[args.algo].ALGO, warm_started=True)
    check_average(args)


def check_average(args: Args) -> None:
    """The weight-averaging stage's options (``args`` with its recipe filled in)."""
    non_negative_int(args.average_decisions, "average_decisions")
    positive_int(args.average_every, "average_every")
    positive_int(args.average_rounds, "average_rounds")
    non_negative_int(args.average_later_decisions, "average_later_decisions")
    if not args.average_decisions:
        return
    if args.average_cpu_minutes < 0 or args.average_later_cpu_minutes < 0 or not (
            reserved_cpu_minutes(args, 0) < args.budget_cpu_minutes):
        raise ValueError(f"the CPU minutes kept for the averaging rounds (average_cpu_minutes, "
                         f"average_later_cpu_minutes) must be >= 0 and their sum below budget_cpu_minutes="
                         f"{args.budget_cpu_minutes}, got {reserved_cpu_minutes(args, 0)!r}")
    if not args.eval_hands:
        raise ValueError("the weight-averaging stage averages the checkpoints its evaluations write: "
                         "eval_hands must be positive when average_decisions is")
    for round_number in range(1, args.average_rounds + 1):
        if args.average_every > round_decisions(args, round_number):
            raise ValueError(f"average_every ({args.average_every}) exceeds the decisions of averaging round "
                             f"{round_number} ({round_decisions(args, round_number)}): there would be one "
                             "checkpoint to average")
    stage = average_args(args, Path(args.runs_dir) / "average", None, args.average_cpu_minutes, None)
    check_args(stage, ALGORITHMS[args.algo].ALGO, warm_started=True)


def averaged_checkpoints(run_dir: Path) -> list[Path]:
    """A run's evaluated checkpoints (``eval/decisions_N.pt``), in the order of N."""
    return sorted((run_dir / "eval").glob("decisions_*.pt"), key=lambda path: int(path.stem.split("_")[1]))


def average_round(args: Args, run_dir: Path, start: str, cpu_minutes: float, wall_minutes: float | None,
                  round_number: int) -> str:
    """One round of weight averaging: continue ``start``, then average it with the continuation's evaluated
    checkpoints; returns the average's path (``run_dir/average.pt``)."""
    ALGORITHMS[args.algo].main(average_args(args, run_dir, start, cpu_minutes, wall_minutes, round_number))
    ingredients = [start, *map(str, averaged_checkpoints(run_dir))]
    return average.main(average.Args(checkpoints=ingredients, out=str(run_dir / "average.pt")))["out"]


def main(args: Args) -> dict:
    check_pipeline(args)
    args = with_recipe(args)
    root = Path(args.runs_dir) / run_name(args.game, "pipeline", args.seed)
    start_wall, start_cpu = time.perf_counter(), cpu_seconds()
    warm = warm_start.main(warm_start.Args(
        game=args.game, config=args.config, seed=args.seed, run_dir=str(root / "warm"),
        decisions=args.teacher_decisions, epochs=args.warm_epochs, workers=args.workers, eval_hands=args.eval_hands,
        hidden=args.hidden, progress=args.progress,
    ))
    rounds = args.average_rounds if args.average_decisions else 0

    def left() -> tuple[float, float | None]:
        spent_cpu = (cpu_seconds() - start_cpu) / 60
        spent_wall = (time.perf_counter() - start_wall) / 60
        return args.budget_cpu_minutes - spent_cpu, (
            None if args.budget_wall_minutes is None else args.budget_wall_minutes - spent_wall)

    cpu_left, wall_left = left()
    result = ALGORITHMS[args.algo].main(rl_args(args, root / "rl", warm["final"],
                                                cpu_left - reserved_cpu_minutes(args, 0), wall_left))
    final = result["final"]
    for round_number in range(1, rounds + 1):
        cpu_left, wall_left = left()
        final = average_round(args, average_folder(root, round_number), final,
                              cpu_left - reserved_cpu_minutes(args, round_number), wall_left, round_number)
    summary = {
        "game": args.game, "warm_start": warm["final"], "rl": result["final"], "final": final,
        "cpu_minutes": (cpu_seconds() - start_cpu) / 60, "wall_minutes": (time.perf_counter() - start_wall) / 60,
        "last_evaluation": result["last_evaluation"],
    }
    print(json.dumps(summary))
    return summary


if __name__ == "__main__":
    from trick_core.command_line import command_prog

    main(checked(tyro.cli(Args, prog=command_prog()), check=check_pipeline))
