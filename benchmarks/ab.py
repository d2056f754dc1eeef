"""Old code against new code, row by row: the compare's own measurements, paired and interleaved.

    python -m benchmarks.ab --old OLD_CHECKOUT [--new NEW_CHECKOUT] [--rounds 10] [--json PATH]

Timing two versions of the code in two whole ``benchmarks.compare`` runs, one after the other, measures
the machine as much as the code: on a shared machine a row's speed drifts over seconds and minutes, so
two runs a minute apart can differ by a factor of two in any row. This script keeps one worker process per
checkout alive (each imports its own checkout's code: the worker runs in that folder, and says which
files it imported) and, for each row, asks the two workers in turn for the same measurement — the
functions of ``benchmarks.ours`` and ``benchmarks.reference_hands`` with ``--quick``'s windows, exactly
what ``benchmarks.compare --quick`` reports. The two measurements of a pair are taken back to back, so a
slow stretch of the machine falls on both; the side that goes first alternates from round to round.

Per row it reports the ratio new/old of every round's pair, their median (the headline) with a 95%
confidence interval that assumes nothing about the pairs' distribution (order statistics of the sorted
ratios; from 6 rounds on), and the ratio of the two sides' best windows. On a noisy machine a pair's
ratio can range from 0.5 to 2, so settling a few percent takes many rounds; ``--window-scale`` shortens
the windows to fit more of them in the same time. Both checkouts must provide these functions with
today's signatures (the code since the redesign, and the code before it, do).
"""

from __future__ import annotations

import json
import math
import os
import statistics
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from trick_core.output_paths import check_output_file

from .compare import QUICK
from .timing import GAMES, check_games

ROWS = (
    "compiled hands, 1 thread",
    "compiled hands, all threads",
    "batch 4096, 1 thread",
    "batch 4096, all threads",
    "batch 4096, all threads, copy",
    "env() turns/s",
    "raw_env steps/s",
    "reference hands/s",
    "pimc decisions/s",
)
"""The rows of the compare's table, in its order (``benchmarks.compare --quick``'s figures)."""

WORKER = r"""
import json, os, sys
from benchmarks import ours, reference_hands
import trick_core

windows = json.loads(sys.argv[1])
MEASURE = {
    "compiled hands, 1 thread": lambda g: ours.compiled_hands_per_second(g, 1, windows["window"]),
    "compiled hands, all threads": lambda g: ours.compiled_hands_per_second(g, None, windows["window"]),
    "batch 4096, 1 thread": lambda g: ours.batch_steps_per_second(g, 4096, 1, windows["window"]),
    "batch 4096, all threads": lambda g: ours.batch_steps_per_second(g, 4096, None, windows["window"]),
    "batch 4096, all threads, copy": lambda g: ours.batch_steps_per_second(
        g, 4096, None, windows["window"], copy=True),
    "env() turns/s": lambda g: ours.env_turns_per_second(g, windows["env_window"]),
    "raw_env steps/s": lambda g: ours.raw_env_steps_per_second(g, windows["env_window"]),
    "reference hands/s": lambda g: reference_hands.reference_hands_per_second(g, windows["window"]),
    "pimc decisions/s": lambda g: ours.pimc_decisions_per_second(g, windows["pimc_window"]),
}
checkout = os.path.dirname(os.path.dirname(os.path.abspath(trick_core.__file__)))
print(json.dumps({"imported_from": checkout, "rows": list(MEASURE)}), flush=True)
for line in sys.stdin:
    row, game = json.loads(line)
    print(json.dumps(MEASURE[row](game)["best"]), flush=True)
"""


@dataclass
class Args:
    """Time the compare's rows in two checkouts, paired and interleaved (see the module docstring)."""

    old: str
    """the checkout measured as "old" (a folder with knuffeln_env/, schafkopf_env/, trick_core/, benchmarks/)"""
    new: str = "."
    """the checkout measured as "new" (default: this one)"""
    rounds: int = 10
    """pairs of measurements per row"""
    games: tuple[str, ...] = GAMES
    """games to measure"""
    rows: tuple[str, ...] = ROWS
    """rows to measure (names as in ROWS)"""
    window_scale: float = 1.0
    """multiplies every measuring window of --quick's (e.g. 0.25: four times the rounds in the same time)"""
    json: str | None = None
    """write every round's figures and the summary here"""


class Worker:
    """One checkout's measuring process: send (row, game), receive units per second."""

    def __init__(self, checkout: str, windows: dict):
        self.checkout = Path(checkout).resolve()
        self.process = subprocess.Popen(
            [sys.executable, "-c", WORKER, json.dumps(windows)], cwd=self.checkout, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(self.checkout)},  # the checkout's code before an installed one
        )
        hello = self._read()
        imported = Path(hello["imported_from"])
        if imported != self.checkout:
            self.close()
            raise RuntimeError(f"the worker for {self.checkout} imported the code of {imported}")
        assert tuple(hello["rows"]) == ROWS, "WORKER's MEASURE and ROWS name different rows"

    def _read(self):
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the worker for {self.checkout} stopped (exit code {self.process.wait()})")
        return json.loads(line)

    def measure(self, row: str, game: str) -> float:
        self.process.stdin.write(json.dumps([row, game]) + "\n")
        self.process.stdin.flush()
        return float(self._read())

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait()


def median_interval(values: list[float], confidence: float = 0.95) -> tuple[float, float] | None:
    """A distribution-free confidence interval of the median: the k-th smallest and k-th largest value,
    k the largest with P(Binomial(n, 1/2) < k) <= (1 - confidence) / 2. ``None`` when n is too small for
    any k (fewer than 6 values at 95%)."""
    n = len(values)
    tail = (1 - confidence) / 2
    below, k = 0.0, 0
    while k < n and below + math.comb(n, k) / 2**n <= tail:
        below += math.comb(n, k) / 2**n
        k += 1
    if k == 0:
        return None
    ordered = sorted(values)
    return ordered[k - 1], ordered[n - k]


def summarise(old: list[float], new: list[float]) -> dict:
    """The pairs' ratios new/old, their median with its confidence interval and their spread, and the
    ratio of the best windows."""
    paired = [n / o for o, n in zip(old, new, strict=True)]
    interval = median_interval(paired)
    return {
        "old": old, "new": new, "paired_ratios": paired,
        "median_ratio": statistics.median(paired),
        "median_ci95": list(interval) if interval else None,
        "min_ratio": min(paired), "max_ratio": max(paired),
        "best_ratio": max(new) / max(old),
    }


def check(args: Args) -> None:
    """The options, checked before a worker starts: ``ValueError`` naming the first bad one."""
    if args.json is not None:
        check_output_file(args.json, "--json")
    for side in ("old", "new"):
        if not Path(getattr(args, side)).is_dir():
            raise ValueError(f"--{side} {getattr(args, side)!r} is not a folder (a checkout to measure)")
    check_games(args.games, GAMES)
    if unknown := sorted(set(args.rows) - set(ROWS)):
        raise ValueError(f"unknown row(s) {unknown}; choose from {list(ROWS)}")
    if args.rounds < 1:
        raise ValueError(f"rounds must be at least 1, got {args.rounds}")
    if not args.window_scale > 0:
        raise ValueError(f"window_scale must be positive, got {args.window_scale}")


def run(args: Args, windows: dict | None = None) -> dict:
    check(args)
    windows = windows or {
        name: args.window_scale * seconds
        for name, seconds in (("window", QUICK.window), ("env_window", QUICK.env_window),
                              ("pimc_window", QUICK.pimc_window))
    }
    workers: dict[str, Worker] = {}
    try:
        for side, checkout in (("old", args.old), ("new", args.new)):
            workers[side] = Worker(checkout, windows)
        cases = [(row, game) for game in args.games for row in args.rows]
        for row, game in cases:  # warm-up: compilation or the numba cache, first allocations
            for worker in workers.values():
                worker.measure(row, game)
        figures = {case: {"old": [], "new": []} for case in cases}
        for round_number in range(args.rounds):
            order = ("old", "new") if round_number % 2 == 0 else ("new", "old")
            for case in cases:
                for side in order:
                    figures[case][side].append(workers[side].measure(*case))
            print(f"round {round_number + 1}/{args.rounds} done", file=sys.stderr, flush=True)
    finally:
        for worker in workers.values():
            worker.close()
    rows = [{"game": game, "row": row, **summarise(**figures[row, game])} for row, game in cases]
    return {"old": str(workers["old"].checkout), "new": str(workers["new"].checkout), "rounds": args.rounds,
            "windows": windows, "rows": rows,
            "rows_below_0_95": sum(entry["median_ratio"] < 0.95 for entry in rows),
            "rows_whose_interval_reaches_below_0_95": sum(
                entry["median_ci95"] is None or entry["median_ci95"][0] < 0.95 for entry in rows)}


def markdown(result: dict) -> str:
    lines = ["| game | row | new/old (median of pairs) | its 95% interval | pairs min-max | best new / best old |",
             "|---|---|---|---|---|---|"]
    for entry in result["rows"]:
        interval = entry["median_ci95"]
        shown = f"{interval[0]:.3f}-{interval[1]:.3f}" if interval else "(too few rounds)"
        lines.append(f"| {entry['game']} | {entry['row']} | {entry['median_ratio']:.3f} | {shown} | "
                     f"{entry['min_ratio']:.2f}-{entry['max_ratio']:.2f} | {entry['best_ratio']:.3f} |")
    return "\n".join(lines)


def main(args: Args) -> dict:
    result = run(args)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2))
    print(markdown(result))
    print(json.dumps({"rows": len(result["rows"]), "rows_below_0_95": result["rows_below_0_95"],
                      "rows_whose_interval_reaches_below_0_95": result["rows_whose_interval_reaches_below_0_95"]}))
    return result


if __name__ == "__main__":
    import tyro

    from trick_core.command_line import checked, command_prog

    main(checked(tyro.cli(Args, prog=command_prog()), check))
