"""What the arena shows: the leaderboard and pairwise tables (rich), the PNG plot, the progress bar, and
the JSON-ready summary."""

from __future__ import annotations

import math

import numpy as np


def leaderboard_tables(summary: dict):
    """The rich tables of a summary: ratings, then one row per pairwise match."""
    from rich.markup import escape
    from rich.table import Table

    config = ", ".join(f"{k}={v}" for k, v in summary["config"].items())
    title = f"{summary['game']}{f' ({config})' if config else ''}: {summary['hands']} deals, duplicate"
    ratings = Table(title=title, title_justify="left")
    for column in ("#", "agent", "units/hand", "95% CI", "deal win rate", "ms/choice"):
        ratings.add_column(column, justify="left" if column == "agent" else "right", no_wrap=column != "agent")
    ranked = sorted(summary["agents"].items(), key=lambda item: -item[1]["mean_units_per_hand"])
    timing = summary.get("timing", {})
    for rank, (label, row) in enumerate(ranked, 1):
        ms = timing.get(label, {}).get("ms_per_choice")
        ratings.add_row(
            str(rank),
            escape(label),
            f"{row['mean_units_per_hand']:+.3f}" + (" *" if row["significant"] else ""),
            _format_interval(row["ci95"]),
            f"{row['deal_win_rate']:.1%}",
            "-" if ms is None else f"{ms:.2f}",
        )
    pairs = Table(title="pairwise matches (difference = first - second, per hand)", title_justify="left")
    for column in ("first", "second", "difference", "95% CI", "won/tied/lost"):
        left = column in ("first", "second")
        pairs.add_column(column, justify="left" if left else "right", no_wrap=not left)
    for match in summary["matches"]:
        diff = match["difference"]
        first = match["agents"][diff["first"]]
        pairs.add_row(
            escape(diff["first"]),
            escape(diff["second"]),
            f"{diff['first_minus_second']:+.3f}" + (" *" if diff["significant"] else ""),
            _format_interval(diff["ci95"]),
            f"{first['deals_won']}/{first['deals_tied']}/{first['deals_lost']}",
        )
    return ratings, pairs


def _format_interval(interval: list) -> str:
    low, high = interval
    return "n/a" if low is None else f"[{low:+.3f}, {high:+.3f}]"


def print_leaderboard(summary: dict, console=None) -> None:
    from rich.console import Console

    console = console or Console()
    ratings, pairs = leaderboard_tables(summary)
    console.print(ratings)
    console.print(pairs)
    console.print(
        "* significant at 95% (the interval excludes zero); intervals are over deals; "
        "ms/choice: time per decision with more than one legal action"
    )


def save_plot(summary: dict, path: str) -> None:
    """A PNG: every agent's units per hand with its 95% interval, and every pairwise difference."""
    from trick_core.extras import require

    matplotlib = require("plot", "matplotlib", "a plot of the results")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = list(summary["agents"])
    means = [summary["agents"][a]["mean_units_per_hand"] for a in labels]
    errors = [_error_bar(summary["agents"][a]) for a in labels]
    matches = summary["matches"]
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 0.6 * max(len(labels), len(matches)) + 2.5))
    left.barh(labels, means, xerr=np.array(errors).T, color="tab:blue", alpha=0.8, capsize=4)
    left.axvline(0.0, color="black", linewidth=0.8)
    left.set_xlabel("units per hand (95% CI over deals)")
    left.set_title("ratings")
    left.invert_yaxis()
    names = [f"{m['difference']['first']} - {m['difference']['second']}" for m in matches]
    differences = [m["difference"]["first_minus_second"] for m in matches]
    difference_errors = [_error_bar({"mean_units_per_hand": m["difference"]["first_minus_second"],
                                     "ci95": m["difference"]["ci95"]}) for m in matches]
    right.barh(names, differences, xerr=np.array(difference_errors).T, color="tab:orange", alpha=0.8, capsize=4)
    right.axvline(0.0, color="black", linewidth=0.8)
    right.set_xlabel("difference per hand (95% CI, paired over deals)")
    right.set_title("pairwise matches")
    right.invert_yaxis()
    figure.suptitle(f"{summary['game']}: {summary['hands']} duplicate deals, seed {summary['seed']}")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def _error_bar(row: dict) -> tuple[float, float]:
    low, high = row["ci95"]
    if low is None:
        return (0.0, 0.0)
    return (row["mean_units_per_hand"] - low, high - row["mean_units_per_hand"])


def json_ready(value):
    """Replace NaN and infinities (not JSON) with ``None``, recursively."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(v) for v in value]
    return value


def make_progress(console=None):
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("deals"),
        TimeElapsedColumn(),
        console=console or Console(stderr=True),
        transient=True,
    )
