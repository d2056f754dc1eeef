"""How every benchmark of the project measures a rate: warm up, then time repeated windows.

``measure_rate(run, min_seconds, repeats)`` calls ``run(count)`` (which performs ``count`` units of
work — hands, steps, decisions — and may return the number it actually did) with a count grown until one
call lasts at least ``min_seconds``, then times ``repeats`` such windows and reports the best and the
median rate. The best window is the headline figure (like ``timeit``): on a shared machine every
disturbance only slows a window down, so the fastest one is the closest to the code's own speed.
"""

from __future__ import annotations

import os
import platform
import statistics
import time
from collections.abc import Callable

from trick_core.registry import GAME_NAMES

GAMES = GAME_NAMES
"""The games the benchmarks measure: every registered game, in the registry's order (``GAME_PACKAGES``)."""


def measure_rate(run: Callable[[int], int | None], min_seconds: float, repeats: int = 3, start: int = 1) -> dict:
    """Units per second of ``run``; see the module docstring. Returns ``{"best", "median", "units",
    "seconds"}`` (``units``/``seconds`` of the best window)."""
    count = max(1, int(start))
    run(count)  # warm-up: compilation, caches, first allocations
    while True:  # a chunk of about a tenth of a window
        began = time.perf_counter()
        run(count)
        elapsed = time.perf_counter() - began
        if elapsed >= min_seconds / 20 or count >= 1 << 40:
            break
        count *= 2
    windows = []
    for _ in range(repeats):
        units = 0
        began = time.perf_counter()
        while True:
            done = run(count)
            units += count if done is None else done
            elapsed = time.perf_counter() - began
            if elapsed >= min_seconds:
                break
        windows.append((units, elapsed))
    rates = [units / seconds for units, seconds in windows]
    best = max(range(len(rates)), key=rates.__getitem__)
    return {
        "best": rates[best],
        "median": statistics.median(rates),
        "units": windows[best][0],
        "seconds": windows[best][1],
    }


def measure_for(run_until: Callable[[float], int], seconds: float, repeats: int = 3) -> dict:
    """Like ``measure_rate`` for loops that run themselves for a wall-clock budget: ``run_until(t)``
    works for ``t`` seconds and returns the units done (the PettingZoo ``performance_benchmark`` way)."""
    run_until(min(0.2, seconds))  # warm-up
    windows = []
    for _ in range(repeats):
        began = time.perf_counter()
        units = run_until(seconds)
        windows.append((units, time.perf_counter() - began))
    rates = [units / elapsed for units, elapsed in windows]
    best = max(range(len(rates)), key=rates.__getitem__)
    return {"best": rates[best], "median": statistics.median(rates), "units": windows[best][0],
            "seconds": windows[best][1]}


def machine() -> dict:
    """The machine the figures come from: CPU model (``lscpu``'s model name), cores, Python, libraries."""
    model = platform.processor() or "unknown"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    import numba
    import numpy

    return {
        "cpu_model": model,
        "cores": os.cpu_count(),
        "numba_threads": numba.config.NUMBA_NUM_THREADS,
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "numba": numba.__version__,
        "platform": platform.platform(),
    }


def check_positive(args, *names: str, zero_allowed: tuple[str, ...] = ()) -> None:
    """``ValueError`` naming the first of the options ``names`` of ``args`` (each a number or a list of
    numbers) that is not positive (those in ``zero_allowed``: negative). Checked before anything runs: such a
    value would otherwise time nothing, report zero, or fail minutes later deep inside a measurement."""
    for name in names:
        value = getattr(args, name)
        zero = name in zero_allowed
        for item in value if isinstance(value, (list, tuple)) else [value]:
            if isinstance(item, bool) or not isinstance(item, (int, float)) or not (item >= 0 if zero else item > 0):
                raise ValueError(f"--{name.replace('_', '-')} must be {'at least 0' if zero else 'positive'}, "
                                 f"got {value!r}")


def check_games(games, known) -> None:
    """``ValueError`` naming the games of ``--games`` that the benchmark does not know (or saying that none
    was given): checked before anything runs."""
    if not games:
        raise ValueError(f"--games: give at least one of {list(known)}")
    if unknown := sorted(set(games) - set(known)):
        raise ValueError(f"--games: unknown game(s) {unknown}; choose from {list(known)}")


def print_json_command(arguments, run: Callable[..., dict]) -> None:
    """The output of a benchmark printing JSON: ``run(arguments)``'s result (``arguments`` parsed and
    passed through ``trick_core.command_line.checked`` by the command itself) printed as indented JSON and
    written to ``--json`` where given (one shape for every benchmark table the docs quote)."""
    import json

    text = json.dumps(run(arguments), indent=1)
    print(text)
    if arguments.json:
        with open(arguments.json, "w", encoding="utf-8") as out:
            out.write(text + "\n")
