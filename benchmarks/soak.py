"""Soak and leak check for anyone who changes a kernel: many random hands of every configuration through
the batched env and the AEC env, with every invariant checked, then a summary.

    python -m benchmarks.soak                       # every game and variant, 100,000 hands each
    python -m benchmarks.soak --hands 5000 --games bavarian --json soak.json

Per configuration (each game and variant of ``trick_core.registry``):

- **batch**: ``hands`` random hands through the batched env (uniform legal actions, drawn in compiled
  code). Checked on every step of every row: the observation is finite and inside its space's bounds,
  the acting seat has a legal action, the rewards are finite and, for every hand that ends, zero-sum.
- **aec**: ``hands`` random hands through the PettingZoo AEC env (``raw_env``, ``last`` / ``step``, dead
  steps included): observation and mask of every step as above, the episode's cumulative rewards
  zero-sum and equal to the game record's result, and the resident memory of the process before and
  after (growth in MiB: a leak shows as growth that scales with the hands).
- **leak**: at ``leak_positions`` positions of random hands, the twin-deal test: a second table that
  differs from the first only in cards the acting seat cannot see (a world redealt for that seat,
  replayed through the same actions) gives that seat the same observation, in every observation type
  but ``perfect``.

Configurations are spread over ``workers`` processes; Ctrl+C or SIGTERM stops the soak at once, the
configurations in progress included (``trick_core.worker_pool``). Exits with status 1 if any check failed.
"""

from __future__ import annotations

import json
import resource
import sys
import time
from dataclasses import dataclass, field

import numpy as np

from benchmarks.timing import check_positive
from trick_core.output_paths import check_output_file
from trick_core.registry import GAME_NAMES, VARIANTS, game_spec, variant_id
from trick_core.worker_pool import map_in_workers

BATCH_ROWS = 1024


@dataclass
class Args:
    """Soak every configuration with random hands and check every invariant (module docstring)."""

    hands: int = 100_000
    """random hands per configuration, through the batched env and again through the AEC env"""
    games: tuple[str, ...] = GAME_NAMES
    """games to soak (every variant of each)"""
    leak_positions: int = 200
    """positions per configuration for the twin-deal leak test"""
    workers: int = 2
    """processes (configurations are spread over them)"""
    seed: int = 0
    json: str | None = None
    """write the summary as JSON here"""


@dataclass
class Report:
    """What one configuration's soak found."""

    configuration: str
    hands_batch: int = 0
    hands_aec: int = 0
    steps_batch: int = 0
    steps_aec: int = 0
    leak_positions: int = 0
    memory_growth_mib: float = 0.0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)

    def fail(self, message: str) -> None:
        if len(self.failures) < 20:
            self.failures.append(message)


def _observation_ok(observation: np.ndarray, high: float) -> bool:
    return bool(np.isfinite(observation).all() and observation.min() >= 0.0 and observation.max() <= high)


def soak_batch(game: str, config: dict, hands: int, seed: int, report: Report) -> None:
    rows = min(BATCH_ROWS, hands)
    env = game_spec(game).make_batch_env(rows, seed=seed, num_threads=1, **config)
    high = float(env.single_observation_space["observation"].high.max())
    step = env.reset(seed=seed)
    while report.hands_batch < hands:
        if not _observation_ok(step.observation, high):
            report.fail(f"batch step {report.steps_batch}: observation not finite or outside [0, {high}]")
        if not step.action_mask.any(axis=1).all():
            report.fail(f"batch step {report.steps_batch}: a row's seat to act has no legal action")
        step = env.step(env.sample_actions())
        report.steps_batch += rows
        if not np.isfinite(step.rewards).all():
            report.fail(f"batch step {report.steps_batch}: rewards not finite")
        ended = step.rewards[step.terminated]
        if ended.size and np.abs(ended.sum(axis=1)).max() > 1e-6:
            report.fail(f"batch step {report.steps_batch}: a hand ended with rewards not summing to zero")
        report.hands_batch += int(step.terminated.sum())


def soak_aec(game: str, config: dict, hands: int, seed: int, report: Report) -> None:
    env = game_spec(game).env_module().raw_env(**config)
    high = float(env.observation_space(env.possible_agents[0])["observation"].high.max())
    rng = np.random.default_rng(seed)
    memory_before = _resident_mib()
    for hand in range(hands):
        env.reset(seed=seed * 1_000_003 + hand)
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            observation, reward, termination, truncation, _ = env.last()
            totals[agent] += reward
            report.steps_aec += 1
            if termination or truncation:
                env.step(None)
                continue
            mask = observation["action_mask"]
            if not _observation_ok(observation["observation"], high) or not mask.any():
                report.fail(f"aec hand {hand}: bad observation or no legal action for {agent}")
            legal = np.flatnonzero(mask)
            env.step(int(legal[rng.integers(legal.size)]))
        result = env.game_record()["result"]
        if abs(sum(totals.values())) > 1e-6 or result != [totals[a] for a in env.possible_agents]:
            report.fail(f"aec hand {hand}: rewards {totals} are not zero-sum or differ from the record {result}")
        report.hands_aec += 1
    report.memory_growth_mib = _resident_mib() - memory_before


def soak_leaks(game: str, config: dict, positions: int, seed: int, report: Report) -> None:
    """The twin-deal test at ``positions`` random positions (module docstring)."""
    spec = game_spec(game)
    kinds = [kind for kind in ("observation", "information_state")]
    envs = {kind: spec.env_module().raw_env(**config, observation_type=kind) for kind in kinds}
    rng = np.random.default_rng(seed)
    hand = 0
    while report.leak_positions < positions:
        hand += 1
        reference = envs["observation"]
        reference.reset(seed=seed + hand)
        stop = int(rng.integers(0, 40))
        for _ in range(stop):
            if all(reference.terminations.values()):
                break
            reference.step(int(rng.choice(reference.legal_actions())))
        if all(reference.terminations.values()):
            continue
        agent = reference.agent_selection
        twin_record = reference.resample_from_infostate(agent, int(rng.integers(2**31))).game_record()
        record = reference.game_record()
        for kind, env in envs.items():
            twin = spec.env_module().raw_env(**config, observation_type=kind)
            twin.replay({**twin_record, "result": None})
            env.replay({**record, "result": None})
            if not np.array_equal(env.observe(agent)["observation"], twin.observe(agent)["observation"]):
                report.fail(f"leak: {agent}'s {kind} differs between twin tables (hand {hand}, {stop} steps)")
        report.leak_positions += 1


def soak_configuration(item: tuple[str, dict, int, int, int]) -> Report:
    game, config, hands, leak_positions, seed = item
    report = Report(variant_id(game, config))
    start = time.perf_counter()
    soak_batch(game, config, hands, seed, report)
    soak_aec(game, config, hands, seed, report)
    soak_leaks(game, config, leak_positions, seed, report)
    report.seconds = time.perf_counter() - start
    return report


def _resident_mib() -> float:
    """Resident memory of this process now (MiB), from /proc where it exists, else the peak."""
    try:
        with open("/proc/self/statm") as statm:
            pages = int(statm.read().split()[1])
        return pages * resource.getpagesize() / 2**20
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def check(args: Args) -> None:
    """The options, checked before a hand is played: ``ValueError`` naming the first bad one."""
    if args.json is not None:
        check_output_file(args.json, "--json")
    check_positive(args, "hands", "leak_positions", "workers", zero_allowed=("leak_positions",))
    for game in args.games:
        game_spec(game)


def run(args: Args) -> list[Report]:
    check(args)
    items = [(g, c, args.hands, args.leak_positions, args.seed) for g, c in VARIANTS if g in args.games]
    if args.workers > 1:
        return map_in_workers(soak_configuration, [(item,) for item in items], args.workers)
    return [soak_configuration(item) for item in items]


def print_summary(reports: list[Report], seconds: float) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"soak: {len(reports)} configurations in {seconds:.0f} s", title_justify="left")
    for column in ("configuration", "batch hands", "aec hands", "leak positions", "memory growth", "s", "result"):
        table.add_column(column, justify="left" if column in ("configuration", "result") else "right",
                         overflow="fold")
    for r in reports:
        table.add_row(r.configuration, f"{r.hands_batch:,}", f"{r.hands_aec:,}", str(r.leak_positions),
                      f"{r.memory_growth_mib:+.1f} MiB", f"{r.seconds:.0f}",
                      "ok" if not r.failures else f"FAILED: {r.failures[0]}")
    Console().print(table)


def main(args: Args) -> int:
    start = time.perf_counter()
    reports = run(args)
    seconds = time.perf_counter() - start
    print_summary(reports, seconds)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"seconds": seconds, "reports": [vars(r) for r in reports]}, out, indent=2)
    return 1 if any(r.failures for r in reports) else 0


if __name__ == "__main__":
    import tyro

    from trick_core.command_line import checked, command_prog

    sys.exit(main(checked(tyro.cli(Args, prog=command_prog()), check)))
