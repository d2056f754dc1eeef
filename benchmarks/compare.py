"""Side-by-side benchmark of this project against OpenSpiel, RLCard and PettingZoo, in one run.

    python -m benchmarks.compare [--quick] [--json PATH] [--plot PATH]

Measured on the machine it runs on, in one process (start-up in fresh subprocesses):

- random whole hands/s of our compiled driver (``play_random_hands``), on 1 thread and on all of
  numba's threads, for every game; the same rules' plain-Python reference (its ``reference.py``);
  OpenSpiel ``skat`` and ``hearts`` with C++ random bots (``pyspiel.evaluate_bots``) and driven from
  Python; RLCard ``bridge`` with random agents;
- AEC env turns/s of our ``env()`` and PettingZoo classic ``leduc_holdem_v4`` / ``texas_holdem_v4``
  (the ``pettingzoo.test.performance_benchmark`` loop), and plain steps/s of ``raw_env()``;
- steps/s of our batched env (4096 hands, random legal actions sampled in compiled code);
- PIMC decisions/s (``agents.make("pimc", game)`` with its defaults);
- cold start (import + env + reset + first step, empty numba cache) and warm start, peak memory;
- scaling of the batched env over batch sizes and threads, and of the driver over threads (PNG).

The JSON holds every raw figure, ``"ratios"`` (defined in ``docs/benchmarks.md``; ``*_batch_vs_*`` are
per core: our driver on one thread against the anchor's single thread) and ``"targets"`` (the issue's
goals, measured against). OpenSpiel and RLCard are optional (``pip install -e '.[bench]'``): without
them their rows are listed under ``"skipped"``. ``--quick`` shortens every window (and skips the slow
cold-cache starts) to finish in under two minutes with a warm numba cache.
"""

from __future__ import annotations

import json
import os
import platform
import time
from dataclasses import dataclass
from pathlib import Path

import numba

from trick_core.output_paths import check_output_file, check_plot_file

from . import anchors, ours, reference_hands, scaling, startup
from .timing import GAMES, check_games, machine

TARGETS = {
    "bavarian_batch_vs_openspiel_skat_cxx": 20.0,
    "bavarian_batch_vs_reference": 50.0,
    "knuffeln_batch_vs_reference": 50.0,
    "bavarian_env_vs_pettingzoo_leduc": 3.0,
    "bavarian_batch_env_steps_per_second_all_threads": 1_000_000.0,
}
BATCH_SIZE = 4096
CHECKOUT = Path(__file__).resolve().parent.parent
PLOT = CHECKOUT / "benchmarks" / "scaling.png"
"""The full run's scaling plot: the figure of ``docs/benchmarks.md``, tracked in git (in the checkout the
code runs from, wherever the command is started)."""


def default_plot(quick: bool) -> Path | None:
    """Where a run writes its scaling plot when ``--plot`` is not given: ``PLOT`` on a full run from a source
    checkout (whose ``docs/benchmarks.md`` shows it); none on a ``--quick`` run (its short sweep would
    replace the figure) or from an installed package (no docs page to refresh; ``--plot PATH`` asks)."""
    if quick or not (CHECKOUT / "docs" / "benchmarks.md").is_file():
        return None
    return PLOT


@dataclass
class Args:
    """Benchmark this project side by side with the anchors (see the module docstring)."""

    quick: bool = False
    """short windows, no cold start: under two minutes with a warm numba cache"""
    json: str | None = None
    """write every figure, the ratios and the targets as JSON here"""
    plot: str | None = None
    """write the scaling plot (PNG) here; empty to skip (default on a full run from a source checkout: its
    benchmarks/scaling.png, the figure of docs/benchmarks.md; none on a --quick run, whose short sweep would
    replace it, or from an installed package)"""
    markdown: str | None = None
    """write the tables of docs/benchmarks.md here"""
    games: tuple[str, ...] = GAMES
    """games to measure (bavarian, palatinate, asserufen, knuffeln)"""


@dataclass(frozen=True)
class Budget:
    """How long each measurement runs, and which of the slow ones run at all."""

    window: float
    """seconds per timed window (best of three)"""
    env_window: float
    """seconds per window of the AEC env loops"""
    pimc_window: float
    pimc_games: int
    """PIMC is measured for the first this many games"""
    cold_cases: tuple[tuple[str, str], ...]
    """(case, game) pairs whose start-up is also measured with a cold numba cache"""
    startup_games: int
    """start-up (warm, and cold where listed) is measured for the first this many games"""
    scaling_sizes: tuple[int, ...]
    scaling_window: float


QUICK = Budget(0.2, 0.25, 1.0, 1, (), 1, (1, 16, 256, 4096), 0.1)
FULL = Budget(
    1.5, 2.0, 4.0, len(GAMES),
    tuple((case, game) for case in ("aec_env", "batch_env") for game in GAMES), len(GAMES),
    (1, 4, 16, 64, 256, 1024, 4096, 16384), 0.5,
)
SMOKE = Budget(0.01, 0.02, 0.05, 1, (), 0, (1, 4), 0.01)
"""For the smoke test: every code path but start-up, with meaningless figures."""


def _optional(skipped: dict, name: str, measure):
    """Run an anchor measurement; record it as skipped when its library is missing."""
    try:
        return measure()
    except anchors.Skipped as reason:
        skipped[name] = str(reason)
        return None


_STARTED = time.perf_counter()


def _say(text: str) -> None:
    print(f"[{time.perf_counter() - _STARTED:6.1f}s] {text}", flush=True)


def check(args: Args) -> None:
    """The options, checked before anything is measured: ``ValueError`` naming the first bad one."""
    check_games(args.games, GAMES)
    for name in ("json", "markdown"):
        if getattr(args, name) is not None:
            check_output_file(getattr(args, name), f"--{name}")
    plot = plot_path(args)
    if plot is not None:
        check_plot_file(plot, "--plot" if args.plot else "the default --plot")


def plot_path(args: Args) -> str | Path | None:
    """The scaling plot's path: ``--plot`` (empty: none), else ``default_plot``."""
    return (args.plot or None) if args.plot is not None else default_plot(args.quick)


def run(args: Args, budget: Budget | None = None) -> dict:
    budget = budget or (QUICK if args.quick else FULL)
    check(args)
    began = time.time()
    result: dict = {
        "mode": "quick" if args.quick else "full",
        "date": time.strftime("%Y-%m-%d %H:%M:%S"),
        "machine": machine(),
        "method": f"warm-up first, then the best of 3 windows of >= {budget.window}s "
        f"(AEC env loops: {budget.env_window}s)",
        "skipped": {},
    }
    skipped = result["skipped"]
    threads = numba.config.NUMBA_NUM_THREADS

    _say("compiled random hands (ours) and plain-Python references ...")
    result["compiled_random_hands"] = {}
    result["reference_random_hands"] = {}
    for game in args.games:
        one = ours.compiled_hands_per_second(game, 1, budget.window)
        every = ours.compiled_hands_per_second(game, None, budget.window)
        result["compiled_random_hands"][game] = {
            "one_thread": one["best"], "all_threads": every["best"], "threads": threads,
            "one_thread_median": one["median"], "all_threads_median": every["median"],
        }
        result["reference_random_hands"][game] = reference_hands.reference_hands_per_second(game, budget.window)

    _say("OpenSpiel and RLCard ...")
    result["openspiel"] = {}
    for game in ("skat", "hearts"):
        cxx = _optional(skipped, f"openspiel_{game}_cxx",
                        lambda g=game: anchors.openspiel_cxx_games_per_second(g, budget.window))
        python = _optional(skipped, f"openspiel_{game}_python",
                           lambda g=game: anchors.openspiel_python_games_per_second(g, budget.window))
        if cxx or python:
            result["openspiel"][game] = {"cxx": cxx, "python": python}
    result["rlcard"] = {}
    bridge = _optional(skipped, "rlcard_bridge", lambda: anchors.rlcard_games_per_second("bridge", budget.window))
    if bridge:
        result["rlcard"]["bridge"] = bridge

    _say("AEC envs: ours and PettingZoo classic ...")
    result["aec"] = {"ours": {}, "pettingzoo": {}}
    for game in args.games:
        result["aec"]["ours"][game] = {
            "env_turns": ours.env_turns_per_second(game, budget.env_window),
            "raw_env_steps": ours.raw_env_steps_per_second(game, budget.env_window),
        }
    for name in ("leduc_holdem_v4", "texas_holdem_v4"):
        module = _optional(skipped, f"pettingzoo_{name}", lambda n=name: anchors.pettingzoo_classic(n))
        if module is not None:
            result["aec"]["pettingzoo"][name] = {
                "env_turns": anchors.performance_turns(module.env(), budget.env_window),
                "raw_env_steps": anchors.raw_steps(module.raw_env(), budget.env_window),
            }

    _say("batched envs ...")
    result["batch_env"] = {}
    for game in args.games:
        one = ours.batch_steps_per_second(game, BATCH_SIZE, 1, budget.window)
        result["batch_env"][game] = {
            "num_envs": BATCH_SIZE,
            "one_thread": one["best"],
            "all_threads": ours.batch_steps_per_second(game, BATCH_SIZE, None, budget.window)["best"],
            "all_threads_copy": ours.batch_steps_per_second(game, BATCH_SIZE, None, budget.window, copy=True)["best"],
            "threads": threads,
            "decisions_per_random_hand": one["steps_per_hand"],
        }

    _say("PIMC ...")
    result["pimc"] = {}
    for game in args.games[: budget.pimc_games]:
        measured = ours.pimc_decisions_per_second(game, budget.pimc_window)
        result["pimc"][game] = {"decisions_per_second": measured["best"], "agent": measured["agent"]}

    _say("start-up in fresh processes ...")
    result["startup"] = {}
    for case in ("aec_env", "batch_env"):
        for game in args.games[: budget.startup_games]:
            cold = (case, game) in budget.cold_cases
            result["startup"][f"{case}:{game}"] = startup.cold_and_warm_start(case, game, cold=cold)

    _say("scaling ...")
    scaling_game = "bavarian" if "bavarian" in args.games else args.games[0]
    result["scaling"] = scaling.sweep(scaling_game, list(budget.scaling_sizes), budget.scaling_window)
    plot = plot_path(args)
    if plot:
        cpu = result["machine"]
        label = f"{cpu['cpu_model']}, {cpu['cores']} cores, Python {platform.python_version()}"
        scaling.plot(result["scaling"], plot, label)
        result["plot"] = str(plot)

    result["machine"]["threading_layer"] = numba.threading_layer()
    result["machine"]["omp_wait_policy"] = os.environ.get("OMP_WAIT_POLICY")  # set by trick_core.batch_loops
    result["ratios"] = ratios(result)
    # a target whose figure was not measured (its anchor not installed, its game not asked for) is neither
    # met nor missed: "met" is None
    result["targets"] = {
        name: {"target": goal, "measured": _target_value(result, name),
               "met": None if _target_value(result, name) is None else _target_value(result, name) >= goal}
        for name, goal in TARGETS.items()
    }
    result["seconds"] = time.time() - began
    return result


def _best(entry) -> float | None:
    if entry is None:
        return None
    return entry["best"] if isinstance(entry, dict) else float(entry)


def ratios(result: dict) -> dict:
    """The ratios of ``docs/benchmarks.md`` from the raw figures (absent where an anchor was skipped)."""
    out = {}
    openspiel = result.get("openspiel", {})
    anchor_rates = {
        "openspiel_skat_cxx": _best(openspiel.get("skat", {}).get("cxx")),
        "openspiel_hearts_cxx": _best(openspiel.get("hearts", {}).get("cxx")),
        "openspiel_skat_python": _best(openspiel.get("skat", {}).get("python")),
        "openspiel_hearts_python": _best(openspiel.get("hearts", {}).get("python")),
        "rlcard_bridge": _best(result.get("rlcard", {}).get("bridge")),
    }
    anchor_decisions = {
        name: (openspiel.get(name.split("_")[1], {}).get("python") or {}).get("decisions_per_game")
        for name in ("openspiel_skat_cxx", "openspiel_hearts_cxx")
    }
    for game, figures in result["compiled_random_hands"].items():
        ours_per_core = figures["one_thread"]
        out[f"{game}_batch_vs_reference"] = ours_per_core / _best(result["reference_random_hands"][game])
        for name, rate in anchor_rates.items():
            if rate:
                out[f"{game}_batch_vs_{name}"] = ours_per_core / rate
        our_decisions = result.get("batch_env", {}).get(game, {}).get("decisions_per_random_hand")
        for name, their_decisions in anchor_decisions.items():
            if anchor_rates[name] and their_decisions and our_decisions:
                out[f"{game}_batch_vs_{name}_per_decision"] = (
                    ours_per_core * our_decisions / (anchor_rates[name] * their_decisions)
                )
    pettingzoo = result["aec"]["pettingzoo"]
    for game, figures in result["aec"]["ours"].items():
        for anchor, short in (("leduc_holdem_v4", "leduc"), ("texas_holdem_v4", "texas")):
            if anchor in pettingzoo:
                out[f"{game}_env_vs_pettingzoo_{short}"] = (
                    _best(figures["env_turns"]) / _best(pettingzoo[anchor]["env_turns"])
                )
                out[f"{game}_raw_env_vs_pettingzoo_{short}_raw"] = (
                    _best(figures["raw_env_steps"]) / _best(pettingzoo[anchor]["raw_env_steps"])
                )
    return out


def _target_value(result: dict, name: str) -> float | None:
    if name == "bavarian_batch_env_steps_per_second_all_threads":
        return result["batch_env"].get("bavarian", {}).get("all_threads")
    return result["ratios"].get(name)


def _format(value: float | None) -> str:
    if value is None:
        return "skipped"
    return f"{value:,.0f}" if value >= 100 else f"{value:,.2f}"


def print_summary(result: dict) -> None:
    rows = [("game", "compiled 1 thread", "compiled all", "reference", "env() turns/s", "raw_env steps/s",
             f"batch {BATCH_SIZE} all threads")]
    for game in result["compiled_random_hands"]:
        rows.append((
            game,
            _format(result["compiled_random_hands"][game]["one_thread"]),
            _format(result["compiled_random_hands"][game]["all_threads"]),
            _format(_best(result["reference_random_hands"][game])),
            _format(_best(result["aec"]["ours"][game]["env_turns"])),
            _format(_best(result["aec"]["ours"][game]["raw_env_steps"])),
            _format(result["batch_env"][game]["all_threads"]),
        ))
    for name, figures in result["aec"]["pettingzoo"].items():
        rows.append((f"pettingzoo {name}", "", "", "", _format(_best(figures["env_turns"])),
                     _format(_best(figures["raw_env_steps"])), ""))
    for game, figures in result["openspiel"].items():
        rows.append((f"openspiel {game} (games/s)", _format(_best(figures["cxx"])), "",
                     _format(_best(figures["python"])) + " (python)", "", "", ""))
    for game, figures in result["rlcard"].items():
        rows.append((f"rlcard {game} (games/s)", "", "", _format(_best(figures)) + " (python)", "", "", ""))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=True)))
    print("\nratios:")
    for name, value in sorted(result["ratios"].items()):
        print(f"  {name:48s} {value:10.2f}")
    print("\ntargets:")
    for name, target in result["targets"].items():
        print(f"  {name:48s} measured {_format(target['measured']):>12s}  target {_format(target['target']):>10s}"
              f"  {'not measured' if target['met'] is None else 'met' if target['met'] else 'MISSED'}")
    for name, reason in result["skipped"].items():
        print(f"skipped {name}: {reason}")


def markdown_report(result: dict) -> str:
    """The tables of ``docs/benchmarks.md`` from one run's result."""
    cpu = result["machine"]
    lines = [
        f"Machine: {cpu['cpu_model']}, {cpu['cores']} cores ({cpu['numba_threads']} numba threads), "
        f"Python {cpu['python']}, numpy {cpu['numpy']}, numba {cpu['numba']}; {result['mode']} run of "
        f"{result['date']} ({result['seconds']:.0f} s). {result['method']}.",
        "",
        "| game | compiled hands/s, 1 thread | all threads | decisions per random hand | reference hands/s "
        "| env() turns/s | raw_env steps/s | batch steps/s, 1 thread | all threads |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for game, hands in result["compiled_random_hands"].items():
        batch = result["batch_env"][game]
        aec = result["aec"]["ours"][game]
        lines.append(
            f"| {game} | {_format(hands['one_thread'])} | {_format(hands['all_threads'])} "
            f"| {batch['decisions_per_random_hand']:.1f} | {_format(_best(result['reference_random_hands'][game]))} "
            f"| {_format(_best(aec['env_turns']))} | {_format(_best(aec['raw_env_steps']))} "
            f"| {_format(batch['one_thread'])} | {_format(batch['all_threads'])} |"
        )
    lines += ["", "| anchor | games/s (1 thread) | decisions per game |", "|---|---|---|"]
    for game, figures in result["openspiel"].items():
        python = figures.get("python") or {}
        decisions = python.get("decisions_per_game", float("nan"))
        chance = python.get("chance_steps_per_game", float("nan"))
        lines.append(f"| OpenSpiel {game}, C++ random bots | {_format(_best(figures.get('cxx')))} "
                     f"| {decisions:.1f} (+ {chance:.0f} chance steps) |")
        lines.append(f"| OpenSpiel {game}, Python loop | {_format(_best(figures.get('python')))} | |")
    for game, figures in result["rlcard"].items():
        lines.append(f"| RLCard {game}, random agents | {_format(_best(figures))} | |")
    for name, figures in result["aec"]["pettingzoo"].items():
        lines.append(f"| PettingZoo {name}: env() turns/s, raw_env() steps/s | {_format(_best(figures['env_turns']))}, "
                     f"{_format(_best(figures['raw_env_steps']))} | |")
    lines += ["", "| ratio | measured | target |", "|---|---|---|"]
    for name, value in sorted(result["ratios"].items()):
        goal = TARGETS.get(name)
        lines.append(f"| `{name}` | {value:,.1f} | {'≥ ' + _format(goal) if goal else ''} |")
    steps = result["targets"]["bavarian_batch_env_steps_per_second_all_threads"]
    lines.append(f"| bavarian batched env steps/s, all threads | {_format(steps['measured'])} | ≥ 1,000,000 |")
    lines += ["", "| start-up (import + env + reset + first step) | cold numba cache | warm | peak RSS (warm) |",
              "|---|---|---|---|"]
    for name, figures in result["startup"].items():
        cold = f"{figures['cold']['seconds']:.1f} s" if "cold" in figures else "not measured"
        lines.append(f"| {name} | {cold} | {figures['warm']['seconds']:.1f} s "
                     f"| {figures['warm']['peak_rss_mb']:.0f} MB |")
    lines += ["", "| PIMC (agents.make('pimc', game), defaults) | decisions/s |", "|---|---|"]
    for game, figures in result["pimc"].items():
        lines.append(f"| {game}: {figures['agent']} | {figures['decisions_per_second']:.1f} |")
    return "\n".join(lines) + "\n"


def main(args: Args) -> dict:
    return main_with_budget(args, None)


def main_with_budget(args: Args, budget: Budget | None) -> dict:
    """``main`` with an explicit ``Budget`` (the smoke test's tiny one); None: by ``args.quick``."""
    result = run(args, budget)
    print_summary(result)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(result, out, indent=2)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as out:
            out.write(markdown_report(result))
    return result


if __name__ == "__main__":
    import tyro

    from trick_core.command_line import checked, command_prog

    main(checked(tyro.cli(Args, prog=command_prog()), check))
