"""Scaling on Ray with 1 and 2 workers, in one run: the arena (a long duplicate match) and self-play
collection (``experiments.ray_actors``). Prints JSON; ``docs/scaling.md`` reports and interprets it.

    python -m benchmarks.ray_scaling                   # about five minutes on two cores
    python -m benchmarks.ray_scaling --hands 100 --repeats 1 --train-iterations 3    # a quick look

Needs the ``ray`` extra. One local Ray of ``--cpus`` CPUs serves every measurement; each worker count
is timed ``--repeats`` times, alternating (1, 2, 1, 2, ...) so that a change in the machine's load hits
both, and the ratio is taken of the medians (the arena: the median timing; training: the middle run
of the ``--repeats`` sorted by samples per second, whose collection and update times go with it, so with
two repeats the faster run). The arena part also checks that every run's summary is the
local backend's (the results do not depend on the workers).

Figures: ``deals_per_second`` (wall), ``seconds_per_deal`` (wall seconds one worker spends per deal:
``workers / deals_per_second``), ``driver_cpu_ms_per_deal`` (the CPU the driver spends receiving and
merging one deal: the rate one driver can absorb is its inverse), ``worker_cpu_seconds_per_deal`` and
``worker_cpu_share`` (the CPU the Ray workers got, read from ``/proc``: on a shared machine two workers may
get much less than two cores, which the wall-clock ratio then shows; ``cpu_work_ratio_1_over_2`` compares
the work per deal, i.e. Ray's overhead, and is no speedup); for training ``samples_per_second``
(learner samples per wall second, broadcast and updates included), ``collect_samples_per_second`` (while
waiting for the actors), and ``update_ms_per_1k_samples`` (the learner's own cost). ``projection`` scales
the two-worker efficiency to a cluster: a projection from two local workers, not a measurement.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from dataclasses import dataclass

import tyro

from agents.arena import run_arena, without_timing
from benchmarks.timing import check_positive


@dataclass
class Args:
    """Scaling on Ray with 1 and 2 workers: a duplicate arena match and self-play collection."""

    game: str = "bavarian"
    agents: tuple[str, ...] = ("pimc", "rules")
    """the arena's match (a pimc match: a long one, about 0.15 CPU seconds per deal)"""
    hands: int = 400
    """deals of the long match (more than the warm-up's 4 x --cpus for the driver's marginal cost)"""
    repeats: int = 2
    """timings per worker count (alternating)"""
    cpus: int = 2
    """CPUs of the local Ray"""
    train_iterations: int = 8
    """learner iterations per training measurement"""
    num_envs: int = 256
    steps: int = 64
    nodes: int = 32
    """the projection's cluster size"""
    cores_per_node: int = 16
    """the projection's workers per node"""
    seed: int = 0


def load() -> float:
    return round(os.getloadavg()[0], 2)


def ray_worker_cpu_seconds() -> float:
    """CPU seconds (user + system) so far of the local machine's Ray worker processes (``ray::...``), from
    ``/proc`` (Linux; 0 elsewhere). Their difference over a run is the CPU the workers got, which on a
    shared machine can be much less than workers x wall time."""
    total, tick = 0, os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as file:
                if not file.read(5).startswith(b"ray::"):
                    continue
            with open(f"/proc/{entry}/stat", encoding="ascii") as file:
                fields = file.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
        except (OSError, ValueError, IndexError):
            continue
    return total / tick


def time_arena(args: Args, workers: int, backend: str) -> tuple[float, float, float, dict]:
    cpu, start, worker_cpu = time.process_time(), time.perf_counter(), ray_worker_cpu_seconds()
    summary = run_arena(args.game, list(args.agents), args.hands, args.seed, workers=workers, backend=backend)
    wall, worker_cpu = time.perf_counter() - start, ray_worker_cpu_seconds() - worker_cpu
    return wall, time.process_time() - cpu, worker_cpu, without_timing(summary)


def arena(args: Args) -> dict:
    run_arena(args.game, list(args.agents), 4, args.seed)  # warm up this process
    small = 4 * args.cpus
    cpu = time.process_time()
    run_arena(args.game, list(args.agents), small, args.seed, workers=args.cpus, backend="ray")  # and Ray's
    small_driver_cpu = time.process_time() - cpu
    timings: dict[int, list[dict]] = {1: [], 2: []}
    summaries = []
    for _ in range(args.repeats):
        for workers in (1, 2):
            before = load()
            wall, cpu, worker_cpu, summary = time_arena(args, workers, "ray")
            summaries.append(json.dumps(summary))
            timings[workers].append({"wall_seconds": round(wall, 2), "driver_cpu_seconds": round(cpu, 2),
                                     "worker_cpu_seconds": round(worker_cpu, 2),
                                     "load_before": before, "load_after": load()})
            print(f"arena, {workers} worker(s): {timings[workers][-1]}", file=sys.stderr, flush=True)
    local_wall, local_cpu, _, local_summary = time_arena(args, 1, "local")
    pairs = len(args.agents) * (len(args.agents) - 1) // 2
    deals, extra_deals = args.hands * pairs, (args.hands - small) * pairs
    rows = {}
    for workers, runs in timings.items():
        wall = statistics.median(run["wall_seconds"] for run in runs)
        cpu = statistics.median(run["driver_cpu_seconds"] for run in runs)
        worker_cpu = statistics.median(run["worker_cpu_seconds"] for run in runs)
        rows[workers] = {"runs": runs, "deals_per_second": round(deals / wall, 2),
                         "seconds_per_deal": round(workers * wall / deals, 4),
                         "worker_cpu_seconds_per_deal": round(worker_cpu / deals, 4),
                         "worker_cpu_share": round(worker_cpu / (workers * wall), 3),
                         "driver_cpu_ms_per_deal": round(1000 * cpu / deals, 2)}
    return {
        "game": args.game, "agents": list(args.agents), "deals": deals,
        "workers": rows,
        "local_one_process": {"wall_seconds": round(local_wall, 2), "seconds_per_deal": round(local_wall / deals, 4),
                              "cpu_seconds_per_deal": round(local_cpu / deals, 4)},
        "speedup_2_over_1": round(rows[2]["deals_per_second"] / rows[1]["deals_per_second"], 3),
        # not a measured speedup: what two workers would give with a whole core each (work per deal only)
        "cpu_work_ratio_1_over_2": round(
            rows[1]["worker_cpu_seconds_per_deal"] / max(rows[2]["worker_cpu_seconds_per_deal"], 1e-9), 3),
        "results_identical_to_local": all(s == json.dumps(local_summary) for s in summaries),
        # the driver's CPU per extra deal (slope between the warm-up run and the long ones: setup excluded);
        # None when the long match is no longer than the warm-up's (no slope to take)
        "driver_marginal_cpu_ms_per_deal": round(1000 * max(
            statistics.median(run["driver_cpu_seconds"] for run in timings[2]) - small_driver_cpu, 0.0)
            / extra_deals, 3) if extra_deals > 0 else None,
    }


def training(args: Args) -> dict:
    from experiments import ray_selfplay

    rows = {}
    common = {"game": args.game, "iterations": args.train_iterations, "num_envs": args.num_envs,
              "steps": args.steps, "seed": args.seed, "log": False, "backend": "ray"}
    ray_selfplay.train(ray_selfplay.Args(**{**common, "iterations": 1}, num_actors=args.cpus))  # warm up
    runs: dict[int, list[dict]] = {1: [], 2: []}
    for _ in range(args.repeats):
        for actors in (1, 2):
            before = load()
            summary = ray_selfplay.train(ray_selfplay.Args(**common, num_actors=actors))
            runs[actors].append({key: summary[key] for key in (
                "samples", "wall_seconds", "collect_seconds", "update_seconds", "samples_per_second")}
                | {"load_before": before, "load_after": load()})
            print(f"training, {actors} actor(s): {runs[actors][-1]}", file=sys.stderr, flush=True)
    for actors, measured in runs.items():
        best = sorted(measured, key=lambda run: run["samples_per_second"])[len(measured) // 2]
        rows[actors] = {
            "runs": measured,
            "samples_per_second": best["samples_per_second"],
            "collect_samples_per_second": round(best["samples"] / best["collect_seconds"], 1),
            "actor_ms_per_1k_samples": round(1000 * actors * best["collect_seconds"] / best["samples"] * 1000, 2),
            "update_ms_per_1k_samples": round(1000 * best["update_seconds"] / best["samples"] * 1000, 2),
        }
    return {
        "game": args.game, "num_envs": args.num_envs, "steps": args.steps, "iterations": args.train_iterations,
        "actors": rows,
        "speedup_2_over_1": round(rows[2]["samples_per_second"] / rows[1]["samples_per_second"], 3),
        "collect_speedup_2_over_1": round(
            rows[2]["collect_samples_per_second"] / rows[1]["collect_samples_per_second"], 3),
    }


def projection(args: Args, arena_result: dict, train_result: dict) -> dict:
    """A projection, not a measurement: every worker of ``nodes x cores_per_node`` is assumed to get a
    whole core as fast as these, doing the work per deal (or per sample) measured here with Ray's
    overhead included; one driver (one learner) caps the rate at its own measured cost per deal (sample).
    Network transfer, scheduling at scale and stragglers are not modelled."""
    workers = args.nodes * args.cores_per_node
    per_deal = arena_result["workers"][2]["worker_cpu_seconds_per_deal"]
    driver_ms = arena_result["driver_marginal_cpu_ms_per_deal"]
    if not driver_ms or driver_ms <= 0:  # none, or too noisy to separate from the setup: the whole driver CPU
        # per deal, an upper bound
        driver_ms = max(arena_result["workers"][2]["driver_cpu_ms_per_deal"], 1e-3)
    actors = train_result["actors"]
    per_sample = actors[1]["actor_ms_per_1k_samples"] / 1e6  # an actor's wall seconds per sample, one actor
    learner_cap = 1e6 / max(actors[2]["update_ms_per_1k_samples"], 1e-3)
    return {
        "note": "projection from the local machine's per-worker costs, not a measurement",
        "nodes": args.nodes, "cores_per_node": args.cores_per_node, "workers": workers,
        "arena_workers_deals_per_second": round(workers / per_deal, 1),
        "arena_driver_cap_deals_per_second": round(1000 / driver_ms, 1),
        "arena_deals_per_second": round(min(workers / per_deal, 1000 / driver_ms), 1),
        "training_actors_samples_per_second": round(workers / per_sample, 1),
        "training_learner_cap_samples_per_second": round(learner_cap, 1),
        "training_samples_per_second": round(min(workers / per_sample, learner_cap), 1),
    }


def check(args: Args) -> None:
    """The options, checked before Ray starts: ``ValueError`` naming the first bad one (the match's agents are
    built once here; the game is named by ``game_spec``)."""
    from agents import check_option_agents
    from agents.arena import check_match_inputs
    from agents.ray_arena import check_ray_installed

    check_positive(args, "hands", "repeats", "cpus", "train_iterations", "num_envs", "steps", "nodes",
                   "cores_per_node")
    check_option_agents("agents", args.agents, args.game)
    check_match_inputs(args.game, list(args.agents), args.hands, args.seed, None, args.cpus)
    check_ray_installed("this benchmark")


def main(args: Args) -> dict:
    import ray

    from agents.ray_arena import connect

    check(args)
    started = time.perf_counter()
    load_at_start = load()
    connect(None, args.cpus)
    try:
        arena_result = arena(args)
        train_result = training(args)
    finally:
        ray.shutdown()
    return {
        "machine": {"cpus": os.cpu_count(), "ray_cpus": args.cpus, "load_at_start": load_at_start,
                    "load_at_end": load(), "seconds": round(time.perf_counter() - started, 1)},
        "arena": arena_result,
        "training": train_result,
        "projection": projection(args, arena_result, train_result),
    }


if __name__ == "__main__":
    from trick_core.command_line import checked, command_prog

    print(json.dumps(main(checked(tyro.cli(Args, prog=command_prog()), check)), indent=2))
