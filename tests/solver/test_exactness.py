"""The exact solver against a plain minimax (``tests/solver/brute_force.py``) on seeded random endgames of
every game and every registered variant: random deals, random bids, calls, doubles and turns, played at
random until two or three tricks are left (some mid-trick), then solved for a random seat. Every endgame
is solved twice: with a table shared over the variant's endgames (stale entries must never match) and
with a fresh one."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from trick_core.bits import popcount
from trick_core.registry import VARIANTS, make_env, variant_id

from .brute_force import BruteForce, SolveChecker

ENDGAMES_PER_VARIANT = 250
THREE_CARD_SHARE = {"knuffeln": 0.25}
"""Share of endgames from three cards in hand (the rest from two); Knüffeln's free play makes a three-card
minimax in plain Python slow, so fewer of them."""


def random_endgame(env, brute: BruteForce, rng: np.random.Generator, cards_left: int):
    """A kernel state of ``env``'s game in the card play with at most ``cards_left`` cards in the hand of
    the seat to act (every earlier action uniformly random), or None when the hand ended before."""
    kernel = brute.kernel
    env.reset(seed=int(rng.integers(2**31)))
    state = env.unwrapped.kernel_state().copy()
    mask = np.zeros(kernel.MAX_ACTIONS, dtype=np.int8)
    while kernel.current_seat(state) >= 0:
        seat = kernel.current_seat(state)
        if brute.searched(state) and popcount(np.uint64(state[kernel.S_HANDS + seat])) <= cards_left:
            return state
        kernel.legal_action_mask(state, mask)
        kernel.apply_action(state, int(rng.choice(np.flatnonzero(mask))))
    return None


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=[variant_id(g, c) for g, c in VARIANTS])
def test_solver_matches_plain_minimax(game, config):
    brute = BruteForce(game)
    kernel = brute.kernel
    checker = SolveChecker(game, brute)
    rng = np.random.default_rng(zlib.crc32(variant_id(game, config).encode()))
    solved = 0
    outcomes = set()
    env = make_env(game, **config)
    while solved < ENDGAMES_PER_VARIANT:
        cards_left = 3 if rng.random() < THREE_CARD_SHARE.get(game, 0.5) else 2
        state = random_endgame(env, brute, rng, cards_left)
        if state is None:
            continue
        outcomes.add(checker.check(state, int(rng.integers(kernel.MAX_SEATS)), solved))
        solved += 1
    assert len(outcomes) >= 3, outcomes  # the endgames reach several different settlements
