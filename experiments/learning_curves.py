"""Learning curves (PNG) from the evaluations logged during training: units per hand against the fixed
opponent (``rules``), with 95% intervals, over the wall-clock minutes of the whole pipeline.

    python -m experiments.learning_curves --records agents/neural/checkpoints/*.json --out docs/training/curves.png

Each record (written by ``python -m agents.neural.ship``, or a run's ``final.pt``, whose ``--init-from``
chain is followed while its files exist) lists the training stages (e.g. a warm start, then PPO) and the
evaluations of each; a stage's minutes start where the previous stage's ended, so the x axis is the
budget spent. One panel per record.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from agents.neural.ship import stages  # noqa: E402
from trick_core.output_paths import check_plot_file  # noqa: E402


@dataclass
class Args:
    """Learning curves (PNG) from the evaluations logged during training."""

    records: list[str]
    """shipped records (<game>.json) or checkpoints (a run's final.pt) whose training to plot"""
    out: str = "training_curves.png"
    """the PNG to write"""


def check_options(args: Args) -> None:
    """The records exist and the PNG's folder too, before anything is read or drawn: ``ValueError`` naming
    the first that does not."""
    if not args.records:
        raise ValueError("records: give at least one record or checkpoint")
    for path in args.records:
        if not Path(path).is_file():
            raise ValueError(f"records: no file at {path!r}")
    check_plot_file(args.out, "--out")


def load_stages(path: str) -> tuple[str, list[dict]]:
    """(game, stages) of a shipped record or a checkpoint."""
    if path.endswith(".json"):
        record = json.loads(Path(path).read_text(encoding="utf-8"))
        return record["game"], record["stages"]
    from agents.neural.checkpoint import load_checkpoint

    return load_checkpoint(path)["game"], stages(path)


def curve(history: list[dict]) -> tuple[str, list[dict]]:
    """(title, points): every evaluation of every stage, with the stage offsets added to its minutes."""
    points, offset = [], 0.0
    for stage in history:
        for evaluation in stage["evaluations"]:
            seconds = evaluation.get("wall_seconds", stage["wall_seconds"] or 0.0)
            points.append({"minutes": (offset + seconds) / 60, "stage": stage["algo"], **evaluation})
        offset += stage["wall_seconds"] or 0.0
    title = " + ".join(str(stage["algo"]) for stage in history)
    return title, points


def main(args: Args) -> None:
    check_options(args)
    figure, axes = plt.subplots(1, len(args.records), figsize=(4.2 * len(args.records), 3.6), squeeze=False)
    for axis, path in zip(axes[0], args.records, strict=True):
        game, history = load_stages(path)
        title, points = curve(history)
        for stage in dict.fromkeys(point["stage"] for point in points):
            chosen = [p for p in points if p["stage"] == stage]
            minutes = [p["minutes"] for p in chosen]
            means = [p["units_per_hand"] for p in chosen]
            lows = [p["ci95"][0] if p["ci95"][0] is not None else p["units_per_hand"] for p in chosen]
            highs = [p["ci95"][1] if p["ci95"][1] is not None else p["units_per_hand"] for p in chosen]
            axis.plot(minutes, means, marker="o", label=stage)
            axis.fill_between(minutes, lows, highs, alpha=0.2)
        axis.axhline(0.0, color="black", linewidth=0.8)
        opponent = points[0]["opponent"] if points else "rules"
        axis.set_title(f"{game}: {title}", fontsize=10)
        axis.set_xlabel("wall minutes (all stages)")
        axis.set_ylabel(f"units per hand vs {opponent}")
        axis.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(args.out, dpi=110)
    print(args.out)


if __name__ == "__main__":
    import tyro

    from trick_core.command_line import checked, command_prog

    main(checked(tyro.cli(Args, prog=command_prog()), check_options))
