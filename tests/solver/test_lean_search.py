"""The lean search of the Schafkopf card play (``schafkopf_env/lean_solve.py``, what the solver runs wherever a
Schafkopf hand is solved) against the general search over the kernel's own state (``trick_core.solver.
compiled_solver(..., lean=False)``: the kernel's legality and ``apply_action``, so the rules have one source),
from deeper in the hand than the plain minimax of ``test_exactness.py`` reaches: on seeded random positions
of every Schafkopf variant of the registry and every Bavarian option set of ``test_bavarian_options.py``
(random deals, bids steered to the option's contracts, random play to four to eight cards in hand, some
mid-trick), the same settlement for a random seat, on a table shared over the positions and a fresh one.
Every position but a Ramsch's must be taken by the lean search (``lean_position``), and the positions must
reach several settlements."""

from __future__ import annotations

import zlib

import numba
import numpy as np
import pytest

from schafkopf_env.bavarian import kernel as bavarian
from trick_core import solver
from trick_core.registry import VARIANTS, game_spec, make_env, variant_id

from .brute_force import BruteForce
from .test_bavarian_options import OPTIONS, steered_endgame
from .test_exactness import random_endgame

pytestmark = pytest.mark.xdist_group("lean_search")  # one worker compiles the general search of each game once

POSITIONS = 60
SCHAFKOPF_VARIANTS = [(game, config) for game, config in VARIANTS if game != "knuffeln"]


class LeanAgainstGeneral:
    """Solves positions of one game with the lean and the general search and compares them."""

    def __init__(self, game: str) -> None:
        spec = game_spec(game)
        self.lean = solver.compiled_solver(spec.kernel(), spec.policy())
        self.general = solver.compiled_solver(spec.kernel(), spec.policy(), lean=False)
        self.table = self.lean.new_table(16)
        self.nodes = np.zeros(1, dtype=np.int64)
        module = BruteForce(game).solve_module
        self.scratch = np.zeros(module.LEAN_SIZE, dtype=np.int64)
        self.takes = numba.njit(lambda state, seat, lean: module.lean_position(state, seat, lean))

    def check(self, state: np.ndarray, seat: int, label) -> tuple[float, bool]:
        """The settlement of ``seat`` (asserting both searches agree, on the shared table and a fresh one),
        and whether the lean search took the position."""
        before = state.copy()
        expected = self.general.solve(state, seat)
        assert self.lean.solve(state, seat) == expected, (label, seat)
        assert self.lean.solve_tricks(state, seat, 99, *self.table, self.nodes) == expected, (label, seat)
        assert np.array_equal(state, before), "the solve changed the state it was given"
        return expected, bool(self.takes(state, seat, self.scratch))


def cards_in_hand(rng: np.random.Generator) -> int:
    return int(rng.choice([4, 5, 6, 8], p=[0.3, 0.35, 0.3, 0.05]))


@pytest.mark.parametrize(("game", "config"), SCHAFKOPF_VARIANTS, ids=[variant_id(g, c) for g, c in SCHAFKOPF_VARIANTS])
def test_lean_search_matches_the_general_search(game, config):
    checker = LeanAgainstGeneral(game)
    brute = BruteForce(game)
    rng = np.random.default_rng(zlib.crc32(("lean-" + variant_id(game, config)).encode()))
    env = make_env(game, **config)
    outcomes = set()
    solved = 0
    while solved < POSITIONS:
        state = random_endgame(env, brute, rng, cards_in_hand(rng))
        if state is None:
            continue
        value, taken = checker.check(state, int(rng.integers(brute.kernel.MAX_SEATS)), solved)
        ramsch = game == "bavarian" and state[bavarian.S_CONTRACT] == bavarian.RAMSCH
        assert taken != ramsch, (solved, "a Ramsch goes to the general search, every other hand to the lean one")
        outcomes.add(value)
        solved += 1
    assert len(outcomes) >= 3, outcomes


@pytest.mark.parametrize("option", [name for name in OPTIONS if "ramsch" not in name])
def test_lean_search_matches_the_general_search_on_the_option(option):
    config, contracts = OPTIONS[option]
    checker = LeanAgainstGeneral("bavarian")
    brute = BruteForce("bavarian")
    rng = np.random.default_rng(zlib.crc32(("lean-" + option).encode()))
    env = make_env("bavarian", **config)
    outcomes = set()
    seen = set()
    solved = 0
    while solved < POSITIONS:
        state = steered_endgame(env, brute, rng, contracts, cards_in_hand(rng))
        if state is None:
            continue
        value, taken = checker.check(state, int(rng.integers(bavarian.MAX_SEATS)), solved)
        assert taken, solved
        outcomes.add(value)
        seen.add(int(state[bavarian.S_CONTRACT]))
        solved += 1
    assert len(outcomes) >= 2, outcomes
    assert len(seen) >= min(2, len(contracts)), seen
