"""A transposition table shared by many solves (as ``pimc_dd`` and ``solve_outcomes`` share one) must not
change any answer: each solve's entries are versioned, and an entry of an earlier solve never matches.

A Bavarian Rufer once solved to 1 or 2 units depending on the table's version number (``mix(version,
seat)`` hashed ``version ^ seat``: version 4 with one leader met version 5 with another). Every position
here is solved again and again on one table, its versions advancing, and must give what a fresh table
gives."""

from __future__ import annotations

import numpy as np
import pytest

from agents.search.outcomes import solver_function
from benchmarks.solver import positions
from trick_core.registry import game_spec

REPEATS = 10


def fresh_solve(solver, state, seat) -> float:
    keys, bounds, version = solver.new_table(12)
    return solver.solve_tricks(state, seat, 99, keys, bounds, version, np.zeros(1, dtype=np.int64))


def repeated_solves(solver, state, seat, table) -> list[float]:
    keys, bounds, version = table
    nodes = np.zeros(1, dtype=np.int64)
    return [solver.solve_tricks(state, seat, 99, keys, bounds, version, nodes) for _ in range(REPEATS)]


def test_the_rufer_that_depended_on_the_version_solves_alike_every_time():
    solver = solver_function("bavarian")
    kernel = game_spec("bavarian").kernel()
    start = positions("bavarian", 3, 13)[12]
    seat = kernel.current_seat(start)
    state = start.copy()
    kernel.apply_action(state, 10)
    expected = fresh_solve(solver, state, seat)
    assert repeated_solves(solver, state, seat, solver.new_table()) == [expected] * REPEATS


@pytest.mark.parametrize("game", ["bavarian", "asserufen", "palatinate"])
def test_one_table_over_many_solves_gives_what_fresh_tables_give(game):
    solver = solver_function(game)
    table = solver.new_table()
    for state in positions(game, 5, 6):
        for seat in range(3):  # seats every one of these games has
            expected = fresh_solve(solver, state, seat)
            assert repeated_solves(solver, state, seat, table) == [expected] * REPEATS


@pytest.mark.parametrize("game", ["bavarian", "asserufen", "palatinate", "knuffeln"])
def test_the_card_plays_of_one_world_sharing_a_table_version_give_what_fresh_tables_give(game):
    solver = solver_function(game)
    kernel = game_spec(game).kernel()
    exact = solver.exact_tricks
    table = solver.new_table()
    mask = np.zeros(kernel.MAX_ACTIONS, dtype=np.int8)
    nodes = np.zeros(1, dtype=np.int64)
    for state in positions(game, 6 if game == "knuffeln" else 5, 8):
        seat = kernel.current_seat(state)
        kernel.legal_action_mask(state, mask)
        actions = np.array([*np.flatnonzero(mask), kernel.MAX_ACTIONS - 1 if not mask[-1] else -1], dtype=np.int64)
        shared = np.empty(actions.size)
        solver.solve_actions(state, seat, actions, exact, *table, nodes, shared)
        for action, value in zip(actions[:-1], shared[:-1], strict=True):
            child = state.copy()
            kernel.apply_action(child, int(action))
            keys, bounds, version = solver.new_table(12)
            assert value == solver.solve_tricks(child, seat, exact, keys, bounds, version, nodes)
        assert np.isnan(shared[-1])  # not a legal action: not valued


def test_the_solver_benchmark_checks_the_shared_table_and_finds_no_disagreement():
    from benchmarks.solver import Args, run

    result = run(Args(games=["asserufen"], positions=2, sharing_positions=6))
    rows = result["asserufen"]
    assert {"from_trick_1", "from_trick_3", "from_trick_5"} <= set(rows)
    sharing = rows["sharing_from_trick_5"]
    assert sharing["positions"] == 6 and sharing["values_compared"] >= 6
    assert sharing["disagreements"] == 0
    assert sharing["shared_ms_per_position"] > 0 and sharing["separate_ms_per_position"] > 0
