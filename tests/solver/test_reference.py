"""The exact solver against a minimax over the plain-Python rules reference (``schafkopf_env.bavarian.
reference``): no kernel inside the expected value, so a settlement or legality the solver got from the
kernel is checked against the rules as written a second time. Bavarian endgames from random hands (random
bids: every contract), two or three tricks left."""

from __future__ import annotations

import copy

import numpy as np

from agents.search.outcomes import solver_function
from schafkopf_env.bavarian import kernel, reference
from trick_core.bits import popcount

ENDGAMES = 300


def reference_value(game: reference.BavarianGame, seat: int) -> float:
    """Plain minimax of the card play over the reference hand (the declarer's side against the rest)."""
    if game.is_over():
        return float(game.settlement()[seat])
    side = game.declarer_side()
    values = []
    for action in game.legal_actions():
        child = copy.deepcopy(game)
        child.play(action)
        values.append(reference_value(child, seat))
    return max(values) if (game.to_act in side) == (seat in side) else min(values)


def replayed(state) -> reference.BavarianGame:
    """The kernel state's hand replayed in the reference, from its deal and its action history."""
    hands = [[kernel.ACTION_NAMES[c] for c in range(32) if (int(state[kernel.S_DEALT_HANDS + s]) >> c) & 1]
             for s in range(4)]
    game = reference.BavarianGame(int(state[kernel.S_DEALER]), hands)
    for i in range(int(state[kernel.S_HISTORY_LENGTH])):
        game.play(kernel.ACTION_NAMES[int(state[kernel.S_HISTORY_ACTIONS + i])])
    return game


def test_solver_matches_a_minimax_over_the_reference():
    solver = solver_function("bavarian")
    rng = np.random.default_rng(29)
    params = kernel.make_params()
    stream = np.empty(1, dtype=np.uint64)
    state = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
    mask = np.zeros(kernel.NUM_ACTIONS, dtype=np.int8)
    contracts = set()
    solved = 0
    while solved < ENDGAMES:
        stream[0] = np.uint64(rng.integers(2**62))
        kernel.deal_random(state, params, stream)
        cards_left = int(rng.integers(2, 4))
        while kernel.current_seat(state) >= 0:
            seat = kernel.current_seat(state)
            playing = state[kernel.S_PHASE] == kernel.PHASE_PLAYING
            if playing and popcount(np.uint64(state[kernel.S_HANDS + seat])) <= cards_left:
                break
            kernel.legal_action_mask(state, mask)
            kernel.apply_action(state, int(rng.choice(np.flatnonzero(mask))))
        if kernel.current_seat(state) < 0:
            continue
        seat = int(rng.integers(4))
        game = replayed(state)
        assert solver.solve(state, seat) == reference_value(game, seat), solved
        contracts.add(game.contract)
        solved += 1
    assert contracts >= {"rufer", "wenz", "solo"}, contracts
