"""CPU milliseconds per decision of the search agents, printed as JSON (the speed table of
``docs/results.md``).

Positions: ``clone()``s of tables reached by the ``rules`` agents at every seat (hands seeded 1000, 1001,
...; a position is kept with probability 0.3 when the seat to act has more than one legal action). For
each agent spec, ``agents.make(name, game, seed=1, **kwargs)`` decides once (compilation), then its
``act`` on every position is timed with ``time.process_time()`` (CPU time: other load on a shared machine
counts less than in wall time). Per game, each agent spec's mean (its own key, the figure of the tables),
and under ``median_ms`` and ``p95_ms`` the median and 95th percentile of its decisions (a search agent's
decisions differ in cost by far: the mean alone hides whether most are cheap and a few slow).

``python -m benchmarks.agent_speed [--positions 80] [--games ...] [--agents ...] [--json PATH]``
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

import agents
from benchmarks.timing import check_games, check_positive, print_json_command
from trick_core.output_paths import check_output_file
from trick_core.registry import GAME_NAMES as GAMES
from trick_core.registry import make_env

DEFAULT_AGENTS = (
    "pimc",
    "pimc[samples=1000,playouts_per_sample=1]",
    "pimc[samples=100,playouts_per_sample=10]",
    "pimc_random[samples=10,playouts_per_sample=100]",
    "pimc_random[samples=1000,playouts_per_sample=1]",
)


@dataclass
class Args:
    """Milliseconds per decision of the search agents."""

    games: list[str] = field(default_factory=lambda: list(GAMES))
    agents: list[str] = field(default_factory=lambda: list(DEFAULT_AGENTS))
    positions: int = 80
    """positions per game"""
    json: str | None = None
    """also write the result here"""


def positions(game: str, count: int, seed: int = 0) -> list:
    """Tables with a choice, reached by the rule-based agents."""
    env = make_env(game)
    rules = agents.make("rules", game)
    rng = np.random.default_rng(seed)
    found, hand = [], 0
    while len(found) < count:
        env.reset(seed=1000 + hand)
        hand += 1
        for name in env.agent_iter():
            _, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            if len(env.unwrapped.legal_actions()) > 1 and rng.random() < 0.3 and len(found) < count:
                found.append(env.unwrapped.clone())
            env.step(rules.act(env, name))
    return found


def milliseconds_per_decision(game: str, spec: str, tables: list) -> np.ndarray:
    """CPU milliseconds of each decision of ``spec`` on ``tables`` (after one warm-up decision)."""
    name, kwargs = agents.parse_agent_spec(spec)
    agent = agents.make(name, game, seed=1, **kwargs)
    agent.act(tables[0], tables[0].agent_selection)  # compile / warm up
    times = []
    for table in tables:
        start = time.process_time()
        agent.act(table, table.agent_selection)
        times.append(time.process_time() - start)
    return 1000.0 * np.array(times)


def check(args: Args) -> None:
    """The options, checked before a position is played: ``ValueError`` naming the first bad one (every agent
    is built once for every game here; none decides)."""
    if args.json is not None:
        check_output_file(args.json, "--json")
    check_positive(args, "positions")
    check_games(args.games, GAMES)
    for game in args.games:
        for spec in args.agents:
            agents.make(spec, game)


def run(args: Args) -> dict:
    check(args)
    result = {}
    for game in args.games:
        tables = positions(game, args.positions)
        row = {"legal_actions_mean": round(float(np.mean([len(t.legal_actions()) for t in tables])), 2),
               "median_ms": {}, "p95_ms": {}}
        for spec in args.agents:
            times = milliseconds_per_decision(game, spec, tables)
            row[spec] = round(float(times.mean()), 2)
            row["median_ms"][spec] = round(float(np.median(times)), 2)
            row["p95_ms"][spec] = round(float(np.percentile(times, 95)), 2)
        result[game] = row
    return result


if __name__ == "__main__":
    import tyro

    from trick_core.command_line import checked, command_prog

    print_json_command(checked(tyro.cli(Args, prog=command_prog()), check), run)
