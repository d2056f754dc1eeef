"""The solver's entry points beyond the exact value of an endgame (``tests/solver/test_exactness.py``):
a state before the card play is played up to it by the playout policy, Knüffeln's default depth plays the
policy first, and ``solve_outcomes`` redeals, applies each candidate and marks what it cannot value."""

from __future__ import annotations

import numpy as np

from agents.search.outcomes import solver_function
from trick_core.bits import make_rng
from trick_core.registry import game_spec


def policy_played(game: str, state, until) -> np.ndarray:
    """``state`` advanced by the playout policy (with the solver's fixed stream) while ``until`` is false."""
    spec = game_spec(game)
    kernel, policy = spec.kernel(), spec.policy()
    state = state.copy()
    rng = np.array([0x5EED], dtype=np.uint64)
    while kernel.current_seat(state) >= 0 and not until(kernel, state):
        kernel.apply_action(state, policy.heuristic_action(state, rng, 0.0))
    return state


def dealt(game: str, seed: int) -> np.ndarray:
    kernel = game_spec(game).kernel()
    state = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
    kernel.deal_random(state, kernel.make_params(), make_rng(seed))
    return state


def test_a_state_before_the_card_play_is_bid_by_the_policy_then_solved():
    solver = solver_function("bavarian")
    keys, bounds, version = solver.new_table()
    nodes = np.zeros(1, dtype=np.int64)
    for seed in range(3):
        state = dealt("bavarian", seed)
        in_play = policy_played("bavarian", state, lambda k, s: s[k.S_PHASE] == k.PHASE_PLAYING)
        solved = solver.solve_tricks(state, 0, 99, keys, bounds, version, nodes)
        assert solved == solver.solve_tricks(in_play, 0, 99, keys, bounds, version, nodes)


def test_knuffeln_solves_its_last_exact_tricks_after_the_policy():
    solver = solver_function("knuffeln")
    assert solver.exact_tricks == 4
    for seed in range(5):
        state = dealt("knuffeln", seed)

        def late(k, s):
            playing = s[k.S_PHASE] in (k.PHASE_PLAY, k.PHASE_TALK)
            return playing and s[k.S_MAX_TRICKS] - s[k.S_TRICK_NUMBER] <= solver.exact_tricks

        assert solver.solve(state, 1) == solver.solve(policy_played("knuffeln", state, late), 1)


def test_solve_outcomes_values_legal_candidates_and_marks_the_rest():
    game = "asserufen"
    solver = solver_function(game)
    kernel = game_spec(game).kernel()
    state = policy_played(game, dealt(game, 3), lambda k, s: s[k.S_PHASE] == k.PHASE_PLAY and s[k.S_TRICK_NUMBER] == 4)
    seat = kernel.current_seat(state)
    mask = np.zeros(kernel.MAX_ACTIONS, dtype=np.int8)
    kernel.legal_action_mask(state, mask)
    legal = np.flatnonzero(mask)
    illegal = int(np.flatnonzero(mask == 0)[0])
    actions = np.array([*legal, illegal], dtype=np.int64)
    first = np.empty((6, actions.size))
    solver.solve_outcomes(state, seat, actions, 6, make_rng(11), first)
    again = np.empty_like(first)
    solver.solve_outcomes(state, seat, actions, 6, make_rng(11), again)
    assert np.array_equal(first, again, equal_nan=True)  # the same stream, the same worlds and values
    assert np.isnan(first[:, -1]).all()  # never legal
    assert np.isfinite(first[:, :-1]).all()  # the seat's own cards are legal in every world
