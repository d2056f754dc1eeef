"""The trained token-talking population: five Knüffeln networks of ``talk="tokens:8"``, one per training
seed, shipped in ``signalling/population/`` for the cross-play matrix (``signalling.crossplay``).

Each ``tokens8_seed{k}.pt`` is a ``neural`` checkpoint (``agents.neural.checkpoint``) with a record
``tokens8_seed{k}.json`` beside it: the exact training command of every stage, its seed, commit,
decisions and wall/CPU seconds, and the file's size and hash (written by ``python -m
signalling.population``, the way ``agents.neural.ship`` records the shipped agents). The recipe and its
results are in ``docs/signalling.md``.

Plug-in (an arena spec that names no path, so results and reports stay free of where the repository
lies): ``"signalling.population:trained[seed=3]"`` is the ``neural`` agent of seed 3.

    python -m signalling.population --checkpoint runs/signal/knuffeln__pipeline__3__<time>/rl/final.pt

**Recipe** (one seed ``k`` at a time; ``experiments.pipeline``: a warm start imitating ``rules``, which
speaks through its fixed token code, then PPO self-play). The 64-64 torso keeps a checkpoint near
1.2 MB (the 2505-wide input makes a 128-128 one 1.9 MB):

    python -m experiments.pipeline --game knuffeln --config talk=tokens:8 --seed k --runs-dir runs/signal \
        --teacher-decisions 30000 --warm-epochs 3 --workers 1 --hidden 64 64 --budget-cpu-minutes 2 \
        --eval-every 1000000000 --eval-hands 0 --no-progress \
        --rl learning_rate=1e-4 anchor_share=0.5 opponent_fraction=0.3
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

POPULATION_DIR = Path(__file__).resolve().parent / "population"
"""Where the population's checkpoints and records lie."""
TALK = "tokens:8"
SEEDS = (1, 2, 3, 4, 5)
"""The training seeds of the shipped population."""


def file_name(seed: int) -> str:
    return f"tokens{TALK.split(':')[1]}_seed{seed}.pt"


def checkpoint_path(seed: int) -> Path:
    """``signalling/population/tokens8_seed{seed}.pt`` (``ValueError`` if that seed is not shipped)."""
    if seed not in shipped_seeds():
        raise ValueError(f"no population checkpoint for seed {seed!r} (shipped seeds: {shipped_seeds()})")
    return POPULATION_DIR / file_name(seed)


def trained(game: str, seed: int, **kwargs):
    """Plug-in entry point: the ``neural`` agent of the population's ``seed`` (its greedy policy)."""
    from agents.neural.agent import NeuralAgent

    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be an int, got {seed!r}")
    return NeuralAgent(game, path=str(checkpoint_path(seed)), **kwargs)


def population_specs(seeds=SEEDS) -> list[str]:
    """Arena specs of the population's agents."""
    return [f"signalling.population:trained[seed={seed}]" for seed in seeds]


def record_summary(seed: int) -> dict:
    """The training of one seed in brief, from its record: network, decisions per stage, CPU and wall time."""
    record = json.loads(checkpoint_path(seed).with_suffix(".json").read_text(encoding="utf-8"))
    return {"seed": seed, "hidden": record["hidden"], "parameters": record["parameters"], "bytes": record["bytes"],
            "decisions": {stage["algo"]: stage["decisions"] for stage in record["stages"]},
            "cpu_seconds": record["cpu_seconds"], "wall_seconds": record["wall_seconds"],
            "command": record["command"][-1]}


def shipped_seeds() -> list[int]:
    """The population's seeds whose checkpoints are present."""
    return [seed for seed in SEEDS if (POPULATION_DIR / file_name(seed)).is_file()]


# --------------------------------------------------------------------------------------- shipping


@dataclass
class Args:
    """Ship one trained network into the token-talking Knüffeln population, with its record."""

    checkpoint: str
    """the run's final.pt to ship (its --init-from chain is recorded too)"""
    out_dir: str = str(POPULATION_DIR)
    """where to write tokens8_seed{k}.pt and its record"""
    note: str = ""
    """what else ran on the machine meanwhile (the wall seconds depend on it)"""


def check(args: Args) -> dict:
    """The checkpoint to ship, checked before anything is written (``ValueError`` naming the problem): a
    network of the population's game and talk, and an output folder that is not a file."""
    from agents.neural.checkpoint import load_checkpoint

    checkpoint = load_checkpoint(args.checkpoint)
    if checkpoint["game"] != "knuffeln" or checkpoint["config"].get("talk") != TALK:
        raise ValueError(f"the population plays knuffeln with talk={TALK}, not {checkpoint['game']} "
                         f"{checkpoint['config']}")
    if Path(args.out_dir).exists() and not Path(args.out_dir).is_dir():
        raise ValueError(f"--out-dir {args.out_dir!r} is a file, not a folder")
    return checkpoint


def main(args: Args) -> dict:
    """Copy a trained network (no resume state) into the population with its record."""
    from agents.neural.checkpoint import save_checkpoint
    from agents.neural.ship import stages

    checkpoint = check(args)
    history = stages(args.checkpoint)
    seed = history[-1]["seed"]
    checkpoint["resume"] = None
    target = Path(args.out_dir) / file_name(seed)
    save_checkpoint(target, checkpoint)
    for stage in history:
        stage["checkpoint"] = Path(stage["checkpoint"]).name  # run folders are local; the name says which stage
    record = {
        "game": "knuffeln", "config": checkpoint["config"], "seed": seed, "algo": checkpoint["algo"],
        "head": checkpoint["head"], "hidden": checkpoint["hidden"],
        "parameters": sum(value.numel() for key, value in checkpoint["network"].items()
                          if key not in ("input_scale", "action_features")),
        "file": target.name, "bytes": target.stat().st_size,
        "sha256": hashlib.sha256(target.read_bytes()).hexdigest(),
        "command": [stage["command"] for stage in history], "commit": [stage["commit"] for stage in history],
        "stages": history,
        "wall_seconds": sum(stage["wall_seconds"] or 0.0 for stage in history),
        "cpu_seconds": sum(stage["cpu_seconds"] or 0.0 for stage in history),
        "note": args.note,
    }
    target.with_suffix(".json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    print(json.dumps({key: record[key] for key in ("file", "bytes", "parameters", "wall_seconds", "cpu_seconds")}))
    return record


if __name__ == "__main__":
    import tyro

    from trick_core.command_line import checked, command_prog

    main(checked(tyro.cli(Args, prog=command_prog()), check))
