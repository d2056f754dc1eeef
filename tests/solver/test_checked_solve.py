"""The solver's checked entry point (``trick_core.checked_solve.solve_position``): a card-play position
gives the compiled solver's value; a state that is malformed, outside the card play or of another
configuration, a seat the table does not have and a bad ``exact_tricks`` are refused with a
``ValueError`` naming the problem, before any compiled code reads them."""

from __future__ import annotations

import numpy as np
import pytest

import agents
from agents.search.outcomes import solver_function
from trick_core.checked_solve import solve_position
from trick_core.registry import make_env


def card_play_env(game: str, seed: int = 3, **config):
    """An env of ``game`` played by the ``rules`` agents until the first trick's second card is due (the
    next seed while a hand is thrown in)."""
    rules = agents.make("rules", game)
    env = make_env(game, **config)
    while True:
        env.reset(seed=seed)
        seed += 1
        table = env.unwrapped
        kernel = table.kernel
        while not any(env.terminations.values()):
            state = table.kernel_state()
            if kernel.PHASE_NAMES[int(state[kernel.S_PHASE])] in ("play", "playing") and state[kernel.S_TRICK_SIZE]:
                return env
            env.step(rules.act(env, env.agent_selection))


@pytest.mark.parametrize("game", ["bavarian", "asserufen", "palatinate"])
def test_a_card_play_position_gets_the_solvers_value(game):
    env = card_play_env(game)
    state = env.unwrapped.kernel_state().copy()
    solver = solver_function(game)
    keys, bounds, version = solver.new_table(12)
    for seat in range(3):
        expected = solver.solve_tricks(state, seat, 99, keys, bounds, version, np.zeros(1, dtype=np.int64))
        assert solve_position(env, seat) == expected
        assert solve_position(game, seat, state) == expected  # a game name: its default configuration


def test_a_state_before_the_card_play_is_refused():
    env = make_env("bavarian")
    env.reset(seed=1)
    with pytest.raises(ValueError, match="card-play positions .* phase 'bidding'"):
        solve_position(env, 0)


@pytest.mark.parametrize(("change", "complaint"), [
    (lambda s: s[:-1], "integer array of shape"),
    (lambda s: s.astype(np.float64), "integer array of shape"),
    (lambda s: np.stack([s, s]), "integer array of shape"),
])
def test_a_malformed_state_is_refused(change, complaint):
    env = card_play_env("bavarian")
    with pytest.raises(ValueError, match=complaint):
        solve_position(env, 0, change(env.unwrapped.kernel_state().copy()))


def test_a_field_changed_by_hand_is_refused():
    env = card_play_env("asserufen")
    kernel = env.unwrapped.kernel
    state = env.unwrapped.kernel_state().copy()
    seat = int(state[kernel.S_SEAT_TO_ACT])
    state[kernel.S_HANDS + seat] = state[kernel.S_HANDS + (seat + 1) % 4]  # a card held twice
    with pytest.raises(ValueError, match="refused"):
        solve_position(env, 0, state)


def test_a_state_of_another_configuration_is_refused():
    state = card_play_env("palatinate", players=4).unwrapped.kernel_state().copy()
    with pytest.raises(ValueError, match="params"):
        solve_position(make_env("palatinate"), 0, state)


@pytest.mark.parametrize("seat", [-1, 4, 2.0, "0"])
def test_a_bad_seat_is_refused(seat):
    with pytest.raises(ValueError, match="seat must be"):
        solve_position(card_play_env("bavarian"), seat)


def test_a_seat_the_three_player_table_lacks_is_refused():
    with pytest.raises(ValueError, match=r"seat must be in 0\.\.2"):
        solve_position(card_play_env("palatinate"), 3)


@pytest.mark.parametrize("exact_tricks", [0, 2.5, True])
def test_a_bad_exact_tricks_is_refused(exact_tricks):
    with pytest.raises(ValueError, match="exact_tricks must be"):
        solve_position(card_play_env("bavarian"), 0, exact_tricks=exact_tricks)
