"""Milliseconds per exact solve (``trick_core.solver``), printed as JSON (the solver table of
``docs/benchmarks.md``).

Positions: hands dealt at random (seeds 0, 1, ...) whose bids, calls, doubles and exchanges, and every
card before the measured trick, are played by the game's playout policy (``heuristic_action``: the
contracts the ``pimc`` agent's playouts reach; a hand thrown in is skipped). At the start of trick
``t`` the rest of the hand is solved exactly for the seat to lead (``solve_tricks`` with one table
reused, as ``solve_outcomes`` does). Every position is solved once untimed (compilation and a warm
cache), then each is timed alone (``time.perf_counter``; the solver is single-threaded: one core).

Schafkopf rows solve the whole rest of the hand from tricks 1, 3 and 5, with the lean search the solver
runs (``schafkopf_env.lean_solve``) and, interleaved on the same positions (``--general``, default on),
with the general search over the kernel's state: the ratio of the two (``speedup_median``,
``speedup_total``) is measured in one run, and the values must agree (``value_disagreements`` 0).
Knüffeln's free play is wider: its rows solve exactly from every trick (``--knuffeln-tricks``), which
shows from which trick on a full solve stays within ``--budget-ms`` (median), the depth behind its ``EXACT_TRICKS``.

**Shared table** (``--sharing-positions N``): from the start of ``--sharing-trick`` (default 5), every legal
action of the seat to lead valued by ``solve_actions`` (the root's card plays sharing one table version),
by ``solve_tricks`` per action on one table and on fresh tables: the values must agree (``disagreements``
0), and the first two are timed (``sharing``).

``python -m benchmarks.solver [--positions 200] [--games ...] [--sharing-positions 300] [--json PATH]``
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from agents.search.outcomes import solver_function
from benchmarks.timing import check_games, check_positive, print_json_command
from trick_core import solver
from trick_core.output_paths import check_output_file
from trick_core.registry import GAME_NAMES, game_spec

SCHAFKOPF_TRICKS = (1, 3, 5)
"""The tricks from which the Schafkopf rows solve the rest of the hand."""


@dataclass
class Args:
    """Milliseconds per exact solve."""

    games: list[str] = field(default_factory=lambda: list(GAME_NAMES))
    positions: int = 200
    """positions per game and trick"""
    knuffeln_tricks: list[int] = field(default_factory=lambda: [9, 8, 7, 6, 5, 4])
    """Knüffeln: the tricks from which a full solve is timed"""
    budget_ms: float = 1.0
    """Knüffeln: the median a full solve must stay within"""
    sharing_positions: int = 0
    """positions per game of the shared-table check (``sharing``; 0: none)"""
    sharing_trick: int = 5
    """the trick (1-based) whose start the shared-table check solves from"""
    general: bool = True
    """Schafkopf: also time the general search (over the kernel's state) on the same positions, interleaved"""
    json: str | None = None
    """also write the result here"""


def positions(game: str, trick: int, count: int) -> list[np.ndarray]:
    """Kernel states at the start of ``trick`` (1-based) of hands played by the playout policy."""
    spec = game_spec(game)
    kernel, policy = spec.kernel(), spec.policy()
    params = kernel.make_params()
    rng = np.empty(1, dtype=np.uint64)
    state = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
    found = []
    seed = 0
    while len(found) < count:
        rng[0] = np.uint64(seed)
        seed += 1
        kernel.deal_random(state, params, rng)
        while kernel.current_seat(state) >= 0:
            at_trick = state[kernel.S_TRICK_NUMBER] == trick - 1 and state[kernel.S_TRICK_SIZE] == 0
            if at_trick and _in_card_play(kernel, state):
                found.append(state.copy())
                break
            kernel.apply_action(state, policy.heuristic_action(state, rng, 0.0))
    return found


def _in_card_play(kernel, state) -> bool:
    """Whether the card play has begun (bids, calls, doubling offers and exchanges come before it)."""
    play_phase = getattr(kernel, "PHASE_PLAYING", getattr(kernel, "PHASE_PLAY", None))
    return state[kernel.S_PHASE] == play_phase


def solved_in_part(game: str) -> bool:
    """Whether the game's solver solves less than a whole hand by default (its ``EXACT_TRICKS`` is below
    the tricks of a hand: Knüffeln, whose free play is too wide). Such a game's rows time full solves from
    each trick of ``--knuffeln-tricks`` and say from which one a solve stays within ``--budget-ms``."""
    kernel = game_spec(game).kernel()
    state = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
    kernel.deal_random(state, kernel.make_params(), np.zeros(1, dtype=np.uint64))
    dealt = state[kernel.S_DEALT_HANDS:kernel.S_DEALT_HANDS + kernel.MAX_SEATS].view(np.uint64)
    tricks_of_a_hand = max(bin(int(hand)).count("1") for hand in dealt)
    return solver_function(game).exact_tricks < tricks_of_a_hand


def time_solves(game: str, states: list[np.ndarray], exact_tricks: int, against_general: bool = False) -> dict:
    """Median and 95th-percentile milliseconds per solve, solves per second and positions per solve. With
    ``against_general``, each position is also solved by the general search (``compiled_solver(...,
    lean=False)``, the kernel's state), interleaved with the lean one so that both see the same machine:
    its row under ``general``, the ratios of the two (``speedup_*``) and the values that differ (must be 0)."""
    spec = game_spec(game)
    kernel = spec.kernel()
    solvers = {"lean": solver_function(game)}
    if against_general:
        solvers["general"] = solver.compiled_solver(kernel, spec.policy(), lean=False)
    tables = {name: compiled.new_table() for name, compiled in solvers.items()}
    nodes = {name: np.zeros(1, dtype=np.int64) for name in solvers}
    for state in states:  # compile, warm up
        for name, compiled in solvers.items():
            compiled.solve_tricks(state, kernel.current_seat(state), exact_tricks, *tables[name], nodes[name])
    seconds = {name: [] for name in solvers}
    values = {name: [] for name in solvers}
    for counter in nodes.values():
        counter[0] = 0
    for state in states:
        seat = kernel.current_seat(state)
        for name, compiled in solvers.items():
            start = time.perf_counter()
            values[name].append(compiled.solve_tricks(state, seat, exact_tricks, *tables[name], nodes[name]))
            seconds[name].append(time.perf_counter() - start)
    row = _timing_row(seconds["lean"], nodes["lean"][0])
    if against_general:
        row["general"] = _timing_row(seconds["general"], nodes["general"][0])
        row["speedup_median"] = round(row["general"]["median_ms"] / row["median_ms"], 3)
        row["speedup_total"] = round(float(np.sum(seconds["general"]) / np.sum(seconds["lean"])), 3)
        row["value_disagreements"] = int(np.sum(np.array(values["lean"]) != np.array(values["general"])))
    return row


def _timing_row(seconds: list[float], positions_searched: int) -> dict:
    milliseconds = 1000.0 * np.array(seconds)
    return {
        "median_ms": round(float(np.median(milliseconds)), 4),
        "p95_ms": round(float(np.percentile(milliseconds, 95)), 4),
        "max_ms": round(float(milliseconds.max()), 3),
        "solves_per_s": round(len(seconds) / float(np.sum(seconds)), 1),
        "positions_per_solve": round(float(positions_searched) / len(seconds), 1),
        "solves": len(seconds),
    }


def sharing(game: str, states: list[np.ndarray], exact_tricks: int) -> dict:
    """Every legal action of each position valued three ways: ``solve_actions`` (one table version for
    the root's card plays), ``solve_tricks`` per action on one table (a version each: what ``pimc_dd``
    did) and ``solve_tricks`` per action on a fresh table. Counts the values where the first or second
    differ from the fresh ones (must be 0), and times the first two (milliseconds per position)."""
    solver = solver_function(game)
    kernel = game_spec(game).kernel()
    mask = np.zeros(kernel.MAX_ACTIONS, dtype=np.int8)
    nodes = np.zeros(1, dtype=np.int64)
    shared_table, separate_table = solver.new_table(), solver.new_table()
    warm = np.empty(1)
    solver.solve_actions(states[0], 0, np.zeros(1, dtype=np.int64), exact_tricks, *solver.new_table(12), nodes, warm)
    compared = disagreements = 0
    shared_seconds = separate_seconds = 0.0
    for state in states:
        seat = kernel.current_seat(state)
        kernel.legal_action_mask(state, mask)
        actions = np.flatnonzero(mask).astype(np.int64)
        start = time.perf_counter()
        shared = np.empty(actions.size)
        solver.solve_actions(state, seat, actions, exact_tricks, *shared_table, nodes, shared)
        shared_seconds += time.perf_counter() - start
        children = list(_children(kernel, state, actions))
        start = time.perf_counter()  # the solves alone: the children are made before
        separate = np.array([solver.solve_tricks(child, seat, exact_tricks, *separate_table, nodes)
                             for child in children])
        separate_seconds += time.perf_counter() - start
        fresh = np.array([solver.solve_tricks(child, seat, exact_tricks, *solver.new_table(16), nodes)
                          for child in children])
        compared += actions.size
        disagreements += int(np.sum(shared != fresh) + np.sum(separate != fresh))
    return {
        "positions": len(states),
        "values_compared": compared,
        "disagreements": disagreements,
        "shared_ms_per_position": round(1000.0 * shared_seconds / len(states), 4),
        "separate_ms_per_position": round(1000.0 * separate_seconds / len(states), 4),
        "speedup": round(separate_seconds / shared_seconds, 3),
    }


def _children(kernel, state: np.ndarray, actions: np.ndarray):
    """``state`` after each of ``actions``."""
    for action in actions:
        child = state.copy()
        kernel.apply_action(child, int(action))
        yield child


def check(args: Args) -> None:
    """The options, checked before anything runs: ``ValueError`` naming the first bad one."""
    if args.json is not None:
        check_output_file(args.json, "--json")
    check_positive(args, "positions", "knuffeln_tricks", "budget_ms", "sharing_trick", "sharing_positions",
                   zero_allowed=("sharing_positions",))
    check_games(args.games, GAME_NAMES)


def run(args: Args) -> dict:
    check(args)
    result = {"positions": args.positions, "budget_ms": args.budget_ms}
    for game in args.games:
        rows = {}
        in_part = solved_in_part(game)
        if in_part:
            for trick in args.knuffeln_tricks:
                rows[f"from_trick_{trick}"] = time_solves(game, positions(game, trick, args.positions), 99)
            within = [t for t in args.knuffeln_tricks if rows[f"from_trick_{t}"]["median_ms"] <= args.budget_ms]
            rows["full_solve_within_budget_from_trick"] = min(within) if within else None
            rows["exact_tricks_default"] = solver_function(game).exact_tricks
        else:
            for trick in SCHAFKOPF_TRICKS:
                rows[f"from_trick_{trick}"] = time_solves(game, positions(game, trick, args.positions), 99,
                                                          against_general=args.general)
        if args.sharing_positions:
            exact = solver_function(game).exact_tricks if in_part else 99
            rows[f"sharing_from_trick_{args.sharing_trick}"] = sharing(
                game, positions(game, args.sharing_trick, args.sharing_positions), exact)
        result[game] = rows
    return result


if __name__ == "__main__":
    import tyro

    from trick_core.command_line import checked, command_prog

    print_json_command(checked(tyro.cli(Args, prog=command_prog()), check), run)
