"""The bots' tournament (``make run``): duplicate round robins of ``random``, ``rules``, ``pimc`` and
``pimc_dd`` on every game — and the trained ``neural`` agent in the games a network is shipped for — with leaderboards.

``python -m agents.tournament`` plays, for each of Knüffeln, Bavarian Schafkopf, Palatinate Schafkopf and
Asserufen, a round robin of pairwise duplicate matches (``agents.arena``: every deal at every seating,
95% intervals over deals) and prints each game's leaderboard, then one table of all games. Defaults
are sized to finish in two to three minutes on two cores (``tournament_deals`` of each game's record in
``trick_core.registry``); ``--hands`` and ``--pimc`` trade time for precision. ``neural`` enters a game
only where ``agents/neural/checkpoints/<game>.pt`` is shipped (``--no-neural`` leaves it out). ``pimc_dd``
enters at its defaults except where the game's record names another entrant (``tournament_agents``):
Bavarian's solves five exact tricks here instead of its default seven, whose decisions cost several times
as much (``docs/results.md``, "pimc_dd": about 25-40 ms a choice against a few ms) and would lengthen the
tournament by several minutes (``--pimc-dd "pimc_dd[exact_tricks=7]"`` enters the default setting).
``--backend ray`` plays the deals on a Ray cluster (``--ray-address auto``; ``agents.ray_arena``) with the
same results.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from trick_core.checks import check_seed, positive_int
from trick_core.extras import MissingExtraError, require
from trick_core.output_paths import check_output_file, check_output_folder
from trick_core.registry import GAME_NAMES, game_spec

from . import check_option_agents, make
from .arena import default_workers, ray_options, run_arena, without_timing
from .leaderboard import json_ready, print_leaderboard, save_plot
from .neural import neural_available

DEFAULT_PIMC = "pimc"
DEFAULT_PIMC_DD = "pimc_dd"



@dataclass
class Args:
    """Duplicate round robins of the bots on every game."""

    games: list[str] = field(default_factory=lambda: list(GAME_NAMES))
    """games to play"""
    hands: int | None = None
    """deals per match (each is played at every seating: 2 to 6 hands per deal); default: per game, the
    registry's tournament_deals (knuffeln 600, bavarian 120, palatinate 120, asserufen 240): about a minute
    each on two cores, enough for pimc against rules to be significant in each"""
    seed: int = 0
    """seed of the deals and the agents"""
    pimc: str = DEFAULT_PIMC
    """the pimc entrant, with its arguments"""
    pimc_dd: str = DEFAULT_PIMC_DD
    """the exact-solver search entrant (agents.search.pimc_dd), with its arguments"""
    neural: bool = True
    """enter the trained neural agent in the games a checkpoint is shipped for"""
    extra: list[str] = field(default_factory=list)
    """more entrants, e.g. agents.examples.outside_greedy:make_agent"""
    workers: int | None = None
    """deals played in parallel: local processes (default 2), or Ray tasks at once (default: every CPU of
    the Ray cluster)"""
    backend: Literal["local", "ray"] = "local"
    """local: processes on the local machine; ray: tasks on a Ray cluster (agents.ray_arena), the same results"""
    ray_address: str | None = None
    """with --backend ray: None starts Ray on the local machine; "auto" joins the cluster of this node; or the
    cluster's address"""
    json: str | None = None
    """write every game's summary here"""
    plot_dir: str | None = None
    """write one PNG per game into this folder (created when missing)"""
    progress: bool = True
    """show progress bars"""


def entrants(pimc: str, extra: list[str], game: str | None = None, neural: bool = True,
             pimc_dd: str = DEFAULT_PIMC_DD) -> list[str]:
    """The agents of ``game``'s round robin: ``neural`` joins where a checkpoint is shipped for it; the default
    ``pimc_dd`` is the game's ``tournament_agents`` entry where it has one (Bavarian's defaults solve seven
    tricks, whose decisions cost several times as much: it enters with five)."""
    shipped = neural and game is not None and neural_available(game)
    if pimc_dd == DEFAULT_PIMC_DD and game is not None:
        pimc_dd = game_spec(game).tournament_agents.get("pimc_dd", pimc_dd)
    return ["random", "rules", pimc, pimc_dd, *(["neural"] if shipped else []), *extra]


def run_tournament(args: Args, console: Console | None = None) -> dict:
    console = console or Console()
    workers = default_workers(args, 2)
    check_entries(args)
    options = ray_options(args)
    started_ray = False
    if args.backend == "ray":  # one Ray session for every game
        from .ray_arena import connect

        started_ray = connect(args.ray_address, workers)
    try:
        return _play_games(args, console, workers, options)
    finally:
        if started_ray:
            import ray

            ray.shutdown()


def check_entries(args: Args) -> None:
    """Every game, entrant and size of the tournament, checked before the first deal is played (a bad name
    found only when its game comes up would cost the games played before it): ``ValueError`` naming it."""
    if args.json is not None:
        check_output_file(args.json, "--json")
    if args.plot_dir is not None:
        check_output_folder(args.plot_dir, "--plot-dir")
        require("plot", "matplotlib", "--plot-dir")
    if args.hands is not None:
        positive_int(args.hands, "hands")
    check_seed(args.seed, "tournament")
    if args.backend == "ray":
        from .ray_arena import check_ray_installed

        check_ray_installed("--backend ray")
    for game in args.games:
        chosen = entrants(args.pimc, args.extra, game, args.neural, args.pimc_dd)
        pimc_dd = chosen[3]  # the game's own where the default is asked (``entrants``)
        check_option_agents("pimc", [args.pimc], game)
        check_option_agents("pimc_dd", [pimc_dd], game)
        check_option_agents("extra", args.extra, game)
        for name in set(chosen) - {args.pimc, pimc_dd, *args.extra}:
            try:
                make(name, game)  # the fixed entrants: random, rules, and neural where shipped
            except MissingExtraError as error:  # neural without torch: say how to play without it too
                raise ValueError(f"{error}; or play without it: --no-neural") from None


def _play_games(args: Args, console: Console, workers: int | None, options) -> dict:
    results = {}
    for game in args.games:
        spec = game_spec(game)
        agents = entrants(args.pimc, args.extra, game, args.neural, args.pimc_dd)
        start = time.perf_counter()
        hands = args.hands if args.hands is not None else spec.tournament_deals
        summary = run_arena(
            game, agents, hands, args.seed, workers=workers, show_progress=args.progress, backend=args.backend,
            ray_options=options,
        )
        seconds = time.perf_counter() - start
        print_leaderboard(summary, console)
        console.print(f"{game}: {seconds:.0f} s\n")
        results[game] = summary
        if args.plot_dir:
            Path(args.plot_dir).mkdir(parents=True, exist_ok=True)
            save_plot(summary, str(Path(args.plot_dir) / f"{game}.png"))
    console.print(overview_table(results))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(json_ready({g: without_timing(s) for g, s in results.items()}), out, indent=2)
    return results


def overview_table(results: dict) -> Table:
    """Units per hand of every agent in every game (blank: not entered). An agent's column is headed by its
    name without arguments where that names one entrant in every game (Bavarian's ``pimc_dd[exact_tricks=5]``
    shares the ``pimc_dd`` column; each game's leaderboard above shows the arguments), else by the full label."""
    labels = list(dict.fromkeys(label for summary in results.values() for label in summary["agents"]))
    per_game = [[label.split("[")[0] for label in summary["agents"]] for summary in results.values()]
    if all(len(set(names)) == len(names) for names in per_game):
        headers = list(dict.fromkeys(label.split("[")[0] for label in labels))
        column_of = {label: headers.index(label.split("[")[0]) for label in labels}
    else:
        headers = labels
        column_of = {label: i for i, label in enumerate(labels)}
    table = Table(title="all games: units per hand (duplicate, * significant at 95%)", title_justify="left")
    table.add_column("game")
    for header in headers:
        table.add_column(escape(header), justify="right")
    for game, summary in results.items():
        cells = [""] * len(headers)
        for label, row in summary["agents"].items():
            cells[column_of[label]] = _cell(row)
        table.add_row(f"{game} ({summary['hands']} deals)", *cells)
    return table


def _cell(row: dict | None) -> str:
    if row is None:
        return ""
    return f"{row['mean_units_per_hand']:+.2f}" + ("*" if row["significant"] else "")


if __name__ == "__main__":
    import tyro

    from trick_core.command_line import checked, command_prog

    run_tournament(checked(tyro.cli(Args, prog=command_prog()), check_entries))
