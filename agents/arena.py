"""Duplicate matches between agents: ``python -m agents.arena --game G --agents A B [...] --hands N --seed S``.

Card luck dominates single hands, so the arena plays *duplicate*: every deal is played once per seating
of the two agents, and each agent holds each seat's cards equally often. An agent's result on a deal is
the units its seats won over all seatings of the deal divided by the number of seat-hands it played;
the deal is the unit of independence, so means and 95% intervals are taken over deals (Student t,
``agents.stats``), and the difference of two agents is paired over the same deals. With more than two
agents the arena plays a round robin of pairwise matches on the same deals and adds a ratings table.

**The seatings** (``agents.seatings``): every deal is played at each seating of a scheme that is closed
under swapping the two agents and gives each agent each seat equally often (that module says why each
game's scheme is fair).

**Units per hand.** Each agent's reported ``mean_units_per_hand`` is its mean settlement per seat-hand,
centred on the table: minus the mean of both agents. Where every seat is played (all games but
Palatinate ``players=4``) the seatings give both agents the same number of seat-hands, the two results
already sum to zero and centring changes nothing; with a sitting-out dealer it removes the dealer's share.
The uncentred figure is kept as ``raw_units_per_hand``. The difference of the first two agents is
``first - second`` per deal (paired), so an agent that is 0.3 better per hand shows ``+0.3`` on the
leaderboard and ``+0.6`` as the difference.

**Deals and seeds.** Deal ``i`` of a match with seed ``S`` is ``reset(seed=d_i)`` with ``d_i`` drawn from
``SeedSequence([S, i])`` (so ``--hands 200`` extends ``--hands 100``), re-used for every seating (the arena
checks that the env deals the same cards each time). Before every hand each agent is re-seeded from
``SeedSequence([S, i, seating, position, 1])`` (``position``: its place in ``--agents``) through its
optional ``reset(seed)``, so results depend neither on the order of play nor on ``--workers``. Thrown-in
hands count as hands with zero units.

**Backends.** ``--workers N`` plays deals in N local processes; ``--backend ray`` plays them as Ray tasks,
on the local machine or a cluster (``--ray-address auto``; ``agents.ray_arena``, ``docs/scaling.md``). Either
way the JSON for a seed is the same. Ctrl+C or SIGTERM stops a run with local workers at once: the deals
still queued are dropped, and the workers end with it (``trick_core.worker_pool``).

**Outputs.** A leaderboard (rich table) and a progress bar; ``--json PATH`` writes ``{"game", "hands",
"agents": {label: {"mean_units_per_hand", "ci95": [lo, hi], ...}}, "difference": {"first_minus_second",
"ci95": [lo, hi], ...}}`` plus ``"matches"`` (one such summary per pair); ``--plot PATH`` a PNG;
``--records PATH`` every hand's ``game_record()`` as JSON lines (extra key ``"arena"`` names the deal and
the seating; ``env.unwrapped.replay(record)`` replays a line). The same agent may enter twice
(``--agents random random``): the second is labelled ``random#2``. Agent names take keyword arguments in
brackets: ``--agents "pimc[samples=20,playouts_per_sample=50]" random``.
"""

from __future__ import annotations

import itertools
import json
import multiprocessing
import sys
import time
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from trick_core.bits import derived_seed
from trick_core.checks import check_seed, positive_int
from trick_core.output_paths import check_output_file, check_plot_file
from trick_core.registry import game_spec, make_env
from trick_core.seat_view import SeatView
from trick_core.worker_pool import run_in_workers

from . import check_option_agents, make, parse_agent_spec
from .config import parse_config
from .leaderboard import json_ready, make_progress, print_leaderboard, save_plot
from .seatings import PASSIVE, seatings_for
from .stats import mean_interval, paired_difference_interval, win_record

BACKENDS = ("local", "ray")

# ---------------------------------------------------------------------------------------------- labels


def agent_labels(names: list[str]) -> list[str]:
    """Distinct labels for the agents: a repeated name gets ``#2``, ``#3``, ... (the next number not yet
    taken, so that a name that already ends in ``#2`` cannot collide with a repeat)."""
    taken: set[str] = set()
    labels = []
    for name in names:
        label, number = name, 1
        while label in taken:
            number += 1
            label = f"{name}#{number}"
        taken.add(label)
        labels.append(label)
    return labels


def display_name(spec: str, game: str) -> str:
    """A built-in agent is shown by its spec; an outside one (``module:attr``) by its ``.name`` and any
    bracket arguments, e.g. ``outside_greedy[samples=2]``."""
    base_name, _ = parse_agent_spec(spec)
    if ":" not in base_name:
        return spec
    return str(make(spec, game).name) + spec.strip()[len(base_name):]


def deal_seed(seed: int, deal_index: int) -> int:
    return derived_seed(seed, deal_index)


def agent_seed(seed: int, deal_index: int, seating_index: int, agent_index: int) -> int:
    """Seed of the agent at position ``agent_index`` of the arena's list, for one hand."""
    return derived_seed(seed, deal_index, seating_index, agent_index, 1)


# ---------------------------------------------------------------------------------------------- playing


@dataclass(frozen=True)
class MatchSpec:
    """Everything a worker needs to play a deal of one pairwise match (picklable)."""

    game: str
    config_json: str
    specs: tuple[str, str]
    labels: tuple[str, str]
    indices: tuple[int, int]  # positions of the two agents in the arena's list (they seed the agents)
    seed: int
    keep_records: bool = False

    @property
    def config(self) -> dict:
        return json.loads(self.config_json)


@dataclass
class DealResult:
    """One deal, all its seatings played."""

    deal_index: int
    scheme: str
    plays: int
    units: np.ndarray  # units won per slot, summed over seatings and seats
    seat_hands: np.ndarray  # seat-hands played per slot
    decisions: np.ndarray  # decisions per slot
    choices: np.ndarray  # decisions with more than one legal action per slot
    seconds: np.ndarray  # time spent in act() per slot
    thrown_in: int
    records: list = field(default_factory=list)


_TABLES: dict = {}
"""Per process: (game, config, specs) -> (env, agents), so a worker builds its table once."""


def _table(match: MatchSpec):
    """The env, the two agents and each seat's view of the table (what an agent is handed)."""
    key = (match.game, match.config_json, match.specs)
    if key not in _TABLES:
        env = make_env(match.game, **match.config)
        agents = [make(spec, match.game) for spec in match.specs]
        views = {name: SeatView(env, name) for name in env.possible_agents}
        _TABLES[key] = (env, agents, views)
    return _TABLES[key]


def play_deal(match: MatchSpec, deal_index: int) -> DealResult:
    """Play deal ``deal_index`` of ``match`` once per seating."""
    env, agents, views = _table(match)
    seed = deal_seed(match.seed, deal_index)
    env.reset(seed=seed)
    deal = env.unwrapped.game_record()["deal"]
    scheme, seatings = seatings_for(match.game, len(env.possible_agents), int(deal["dealer"]))
    result = DealResult(
        deal_index, scheme, len(seatings), *(np.zeros(2) for _ in range(5)), thrown_in=0
    )
    for seating_index, seating in enumerate(seatings):
        if seating_index:
            env.reset(seed=seed)
            if env.unwrapped.game_record()["deal"] != deal:
                raise RuntimeError(f"{match.game}: reset(seed={seed}) dealt different cards the second time")
        for slot, agent in enumerate(agents):
            if callable(getattr(agent, "reset", None)):
                agent.reset(agent_seed(match.seed, deal_index, seating_index, match.indices[slot]))
        settlement = _play_hand(env, agents, views, seating, match.labels, result)
        for seat, slot in enumerate(seating):
            if slot is not PASSIVE:
                result.units[slot] += settlement[seat]
                result.seat_hands[slot] += 1
        result.thrown_in += all(units == 0 for units in settlement)
        if match.keep_records:
            record = env.unwrapped.game_record()
            names = env.possible_agents
            seated = {names[s]: (None if slot is PASSIVE else match.labels[slot]) for s, slot in enumerate(seating)}
            record["arena"] = {"deal_index": deal_index, "deal_seed": seed, "seating": seated}
            result.records.append(record)
    return result


def _play_hand(env, agents, views, seating, labels, result: DealResult) -> list[float]:
    """Play one hand; every agent acts on its seat's view of the table, never on the env itself."""
    base = env.unwrapped
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        agent_name = env.agent_selection
        slot = seating[base.agent_name_mapping[agent_name]]
        if slot is PASSIVE:
            raise RuntimeError(f"{base.game_name}: {agent_name} must act, but the seating gives it no agent")
        choice = len(base.legal_actions()) > 1
        start = time.perf_counter()
        action = agents[slot].act(views[agent_name], agent_name)
        result.seconds[slot] += time.perf_counter() - start
        result.decisions[slot] += 1
        result.choices[slot] += choice
        try:
            env.step(action)
        except ValueError as error:
            raise RuntimeError(f"agent {labels[slot]} playing {agent_name}: {error}") from error
    settlement = base.game_record()["result"]
    if settlement is None:
        raise RuntimeError(f"{base.game_name}: the hand ended without a settlement")
    return settlement


# ---------------------------------------------------------------------------------------------- matches


@dataclass
class MatchResult:
    spec: MatchSpec
    deals: list[DealResult]

    @property
    def per_deal_raw(self) -> np.ndarray:
        """(deals, 2): units per seat-hand of each agent on each deal."""
        return np.array([d.units / d.seat_hands for d in self.deals])

    @property
    def per_deal(self) -> np.ndarray:
        """(deals, 2): the centred results (see the module docstring)."""
        raw = self.per_deal_raw
        return raw - raw.mean(axis=1, keepdims=True)

    def summary(self) -> dict:
        per_deal, raw = self.per_deal, self.per_deal_raw
        decisions = sum(d.decisions for d in self.deals)
        choices = sum(d.choices for d in self.deals)
        seconds = sum(d.seconds for d in self.deals)
        agents, timing = {}, {}
        for slot, label in enumerate(self.spec.labels):
            interval = mean_interval(per_deal[:, slot])
            wins = win_record(per_deal[:, slot], per_deal[:, 1 - slot])
            agents[label] = {
                "agent": self.spec.specs[slot],
                "mean_units_per_hand": interval.mean,
                "ci95": interval.as_list(),
                "significant": interval.excludes_zero(),
                "raw_units_per_hand": float(raw[:, slot].mean()),
                "deals_won": wins.wins,
                "deals_tied": wins.ties,
                "deals_lost": wins.losses,
                "deal_win_rate": wins.win_rate,
                "decisions": int(decisions[slot]),
                "choices": int(choices[slot]),
            }
            timing[label] = {
                "ms_per_decision": _milliseconds(seconds[slot], decisions[slot]),
                "ms_per_choice": _milliseconds(seconds[slot], choices[slot]),
            }
        difference = paired_difference_interval(per_deal[:, 0], per_deal[:, 1])
        return {
            "game": self.spec.game,
            "config": self.spec.config,
            "hands": len(self.deals),
            "hands_played": int(sum(d.plays for d in self.deals)),
            "seatings_per_deal": sorted({d.plays for d in self.deals}),
            "scheme": sorted({d.scheme for d in self.deals}),
            "thrown_in": int(sum(d.thrown_in for d in self.deals)),
            "seed": self.spec.seed,
            "agents": agents,
            "difference": {
                "first": self.spec.labels[0],
                "second": self.spec.labels[1],
                "first_minus_second": difference.mean,
                "ci95": difference.as_list(),
                "significant": difference.excludes_zero(),
            },
            "timing": timing,
        }


def _milliseconds(seconds: float, count: float) -> float | None:
    return 1000.0 * float(seconds) / float(count) if count else None


def _worker_context():
    """Workers start from a fork server (a fresh interpreter with the arena preloaded), not from a fork of
    this process: a parent that has already run OpenMP or numba thread pools (torch, a neural agent's
    compiled features) leaves a forked child waiting forever on those pools' locks."""
    context = multiprocessing.get_context("forkserver")
    main_spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    if main_spec is None or main_spec.name != __name__:  # under ``python -m agents.arena`` the fork server
        context.set_forkserver_preload([__name__])  # runs this module as __main__ anyway; preloading it too warns
    return context


def run_matches(
    game: str,
    specs: list[str],
    hands: int,
    seed: int,
    config: dict | None = None,
    workers: int | None = 1,
    keep_records: bool = False,
    progress=None,
    backend: str = "local",
    ray_options=None,
) -> list[MatchResult]:
    """Round robin of pairwise duplicate matches of ``specs`` on the same ``hands`` deals.

    ``backend="local"`` plays on the local machine (``workers`` processes); ``"ray"`` on the connected Ray
    session, or one started here (``agents.ray_arena``: ``ray_options`` is its ``RayOptions``; ``workers``
    caps the deals played at once, ``None``: every CPU of the cluster). The results are the same."""
    check_match_inputs(game, specs, hands, seed, config, workers, backend)
    labels = agent_labels([display_name(spec, game) for spec in specs])
    config_json = json.dumps(config or {}, sort_keys=True)
    matches = [
        MatchSpec(game, config_json, (specs[i], specs[j]), (labels[i], labels[j]), (i, j), seed, keep_records)
        for i, j in itertools.combinations(range(len(specs)), 2)
    ]
    jobs = [(m, d) for m in range(len(matches)) for d in range(hands)]
    results: dict[tuple[int, int], DealResult] = {}
    task = progress.add_task(f"{game}", total=len(jobs)) if progress is not None else None

    def done(job, deal_result):
        results[job] = deal_result
        if progress is not None:
            progress.advance(task)

    if backend == "ray":
        from .ray_arena import connect, play_on_ray

        started = connect(getattr(ray_options, "address", None), workers)
        try:
            play_on_ray(matches, jobs, done, play_deal, workers, ray_options)
        finally:
            if started:
                import ray

                ray.shutdown()
    elif workers is None or workers <= 1:
        for m, d in jobs:
            done((m, d), play_deal(matches[m], d))
    else:
        run_in_workers(play_deal, [(matches[m], d) for m, d in jobs], workers,
                       lambda index, deal_result: done(jobs[index], deal_result),
                       mp_context=_worker_context())
    return [MatchResult(match, [results[(m, d)] for d in range(hands)]) for m, match in enumerate(matches)]


def check_match_inputs(game: str, specs: list[str], hands: int, seed: int, config: dict | None, workers: int | None,
                       backend: str = "local") -> None:
    """Everything ``run_matches`` is given, checked before a deal is played (agents built once here, in this
    process): ``ValueError`` naming the first problem."""
    game_spec(game)
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}; choose from {list(BACKENDS)}")
    if len(specs) < 2:
        raise ValueError(f"a match needs at least two agents, got {specs}")
    positive_int(hands, "hands")
    check_seed(seed, game)
    if workers is not None:
        positive_int(workers, "workers")
    for spec in dict.fromkeys(specs):
        make(spec, game)
    make_env(game, **(config or {}))


def summarize(game: str, specs: list[str], matches: list[MatchResult]) -> dict:
    """The arena's JSON: ratings of every agent over its matches, the first two agents' difference, and
    every match's own summary."""
    labels = [""] * len(specs)
    for match in matches:
        for index, label in zip(match.spec.indices, match.spec.labels, strict=True):
            labels[index] = label
    summaries = [match.summary() for match in matches]
    per_agent_deals: dict[str, list[np.ndarray]] = {label: [] for label in labels}
    for match in matches:
        per_deal = match.per_deal
        for slot, label in enumerate(match.spec.labels):
            per_agent_deals[label].append(per_deal[:, slot])
    agents, timing = {}, {}
    for label, spec in zip(labels, specs, strict=True):
        rating = mean_interval(np.mean(per_agent_deals[label], axis=0))
        own = [s["agents"][label] for s in summaries if label in s["agents"]]
        own_timing = [s["timing"][label] for s in summaries if label in s["timing"]]
        agents[label] = {
            "agent": spec,
            "mean_units_per_hand": rating.mean,
            "ci95": rating.as_list(),
            "significant": rating.excludes_zero(),
            "deal_win_rate": float(np.mean([a["deal_win_rate"] for a in own])),
            "decisions": sum(a["decisions"] for a in own),
            "choices": sum(a["choices"] for a in own),
        }
        timing[label] = {
            "ms_per_decision": _weighted_ms(own, own_timing, "decisions", "ms_per_decision"),
            "ms_per_choice": _weighted_ms(own, own_timing, "choices", "ms_per_choice"),
        }
    first = summaries[0]
    return {
        "game": game,
        "config": first["config"],
        "hands": first["hands"],
        "seed": first["seed"],
        "scheme": first["scheme"],
        "seatings_per_deal": first["seatings_per_deal"],
        "agents": agents,
        "difference": first["difference"],
        "matches": summaries,
        "timing": timing,
    }


def _weighted_ms(own: list[dict], own_timing: list[dict], count_key: str, key: str) -> float | None:
    pairs = [(a[count_key], t[key]) for a, t in zip(own, own_timing, strict=True) if t[key] is not None]
    count = sum(n for n, _ in pairs)
    return sum(n * ms for n, ms in pairs) / count if count else None


def without_timing(summary: dict) -> dict:
    """The summary less its wall-clock figures: what the same seed reproduces exactly."""
    clean = {k: v for k, v in summary.items() if k != "timing"}
    if "matches" in clean:
        clean["matches"] = [without_timing(match) for match in clean["matches"]]
    return clean


def write_records(matches: list[MatchResult], path: str) -> int:
    """Every hand's game record as one JSON line, in match, deal and seating order."""
    count = 0
    with open(path, "w", encoding="utf-8") as out:
        for match in matches:
            for deal in match.deals:
                for record in deal.records:
                    out.write(json.dumps(record, separators=(",", ":")) + "\n")
                    count += 1
    return count


def run_arena(
    game: str,
    specs: list[str],
    hands: int,
    seed: int = 0,
    config: dict | None = None,
    workers: int | None = 1,
    records_path: str | None = None,
    show_progress: bool = False,
    backend: str = "local",
    ray_options=None,
) -> dict:
    """Play the matches and return the JSON summary (writing records when asked); ``backend`` and
    ``ray_options`` as in ``run_matches``."""
    keep = records_path is not None
    if show_progress:
        with make_progress() as progress:
            matches = run_matches(game, specs, hands, seed, config, workers, keep, progress, backend, ray_options)
    else:
        matches = run_matches(game, specs, hands, seed, config, workers, keep, None, backend, ray_options)
    if records_path is not None:
        write_records(matches, records_path)
    return json_ready(summarize(game, specs, matches))


# ---------------------------------------------------------------------------------------------- CLI


@dataclass
class Args:
    """Duplicate matches between agents (see the module docstring for the seating scheme)."""

    game: str
    """knuffeln, bavarian, palatinate or asserufen"""
    agents: list[str]
    """two or more agents: random, rules, pimc, pimc_random, nested_pimc, neural, pimc_neural, ismcts,
    pimc_dd, package.module:attr; arguments in brackets, e.g. pimc[samples=20]"""
    hands: int = 100
    """deals per match (each is played once per seating)"""
    seed: int = 0
    """seed of the deals and of the agents"""
    config: list[str] = field(default_factory=list)
    """env options as key=value, e.g. players=4"""
    json: str | None = None
    """write the summary as JSON here"""
    plot: str | None = None
    """write a PNG plot of the results here"""
    records: str | None = None
    """write every hand's game record here (JSON lines)"""
    workers: int | None = None
    """deals played in parallel: local processes (default 1), or Ray tasks at once (default: every CPU of
    the Ray cluster)"""
    backend: Literal["local", "ray"] = "local"
    """local: processes on the local machine; ray: tasks on a Ray cluster (agents.ray_arena), the same results"""
    ray_address: str | None = None
    """with --backend ray: None starts Ray on the local machine; "auto" joins the cluster of this node; or the
    cluster's address"""
    progress: bool = True
    """show a progress bar"""
    timing: bool = False
    """also write the wall-clock timings into the JSON (which is otherwise reproducible from the seed)"""


def default_workers(args, local_default: int) -> int | None:
    """``args.workers``, or its default: ``local_default`` processes, or (Ray) every CPU of the cluster."""
    if args.workers is not None:
        return args.workers
    return local_default if args.backend == "local" else None


def ray_options(args):
    """The Ray backend's options for ``--ray-address`` (``agents.ray_arena.RayOptions``); None on the local
    backend, where a ``--ray-address`` is a ``ValueError`` (it would be ignored: the run would stay local)."""
    if args.backend != "ray":
        if args.ray_address is not None:
            raise ValueError(f"--ray-address {args.ray_address!r} needs --backend ray (the backend is "
                             f"{args.backend!r}, which would ignore it)")
        return None
    from .ray_arena import RayOptions

    return RayOptions(address=args.ray_address)


def check_outputs(args: Args) -> None:
    """``--json``, ``--records`` and ``--plot`` checked before the first deal (their folders exist and are
    writable; ``--plot`` also needs the ``plot`` extra), so that a long match is not lost at the end."""
    for option, path in (("--json", args.json), ("--records", args.records)):
        if path is not None:
            check_output_file(path, option)
    if args.plot is not None:
        check_plot_file(args.plot, "--plot")


def main(args: Args) -> dict:
    check_outputs(args)
    summary = run_arena(
        args.game, args.agents, args.hands, args.seed, parse_config(args.config), default_workers(args, 1),
        args.records, args.progress, args.backend, ray_options(args),
    )
    print_leaderboard(summary)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(summary if args.timing else without_timing(summary), out, indent=2)
    if args.plot:
        save_plot(summary, args.plot)
    return summary


if __name__ == "__main__":
    import tyro

    from trick_core.command_line import checked, command_prog

    def check(args: Args) -> None:
        check_outputs(args)
        check_option_agents("agents", args.agents, args.game)
        if args.backend == "ray":
            from .ray_arena import check_ray_installed

            check_ray_installed("--backend ray")
        check_match_inputs(args.game, args.agents, args.hands, args.seed, parse_config(args.config),
                           default_workers(args, 1), args.backend)

    main(checked(tyro.cli(Args, prog=command_prog()), check))
