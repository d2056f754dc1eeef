"""The exact solver on Bavarian's rule options (``schafkopf_env/bavarian/solve.py``): Geier, Farbwenz and their
Touts, Bettel (the declarer minimises), the short pack (six tricks) and Ramsch (the paranoid value: the seat
solved for against the other three), each against the plain minimax (``tests/solver/brute_force.py``) on
seeded random endgames of that contract: random deals and random play, the bidding steered to the contract
(one of its bids or pass, at random; all pass for a Ramsch), two or three cards left (some mid-trick),
solved for a random seat with a table shared over the endgames and with a fresh one."""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from agents.search.outcomes import solver_function
from schafkopf_env.bavarian import kernel as bavarian
from schafkopf_env.bavarian.solve import RAMSCH_EXACT_TRICKS
from trick_core.bits import popcount
from trick_core.registry import make_env

from .brute_force import BruteForce, SolveChecker

ENDGAMES_PER_OPTION = 250
SHORT_OPTIONS = {"geier": True, "farbwenz": True, "bettel": True}
OPTION_CONTRACTS = tuple(range(bavarian.GEIER, bavarian.BETTEL + 1))
RAMSCH_TARIFF = {"ramsch": {"base": 1, "durchmarsch": 61, "jungfrau": "double_individually_multiple"}}
ALONE = (bavarian.WENZ, bavarian.SOLO, bavarian.WENZ_TOUT, bavarian.SOLO_TOUT, bavarian.SIE)
OPTIONS = {
    "geier": ({"geier": True}, (bavarian.GEIER, bavarian.GEIER_TOUT)),
    "farbwenz": ({"farbwenz": True, "tariff": "sauspiel"}, (bavarian.FARBWENZ, bavarian.FARBWENZ_TOUT)),
    "bettel": ({"bettel": True, "doubling": True}, (bavarian.BETTEL,)),
    "ramsch": ({"ramsch": True, "klopfen": True}, (bavarian.RAMSCH,)),
    "ramsch-jungfrau-multiple": ({"ramsch": True, "tariff": RAMSCH_TARIFF}, (bavarian.RAMSCH,)),
    "short": ({"pack": "short"}, (bavarian.RUFER,) + ALONE),
    "short-geier-farbwenz-bettel": ({"pack": "short", **SHORT_OPTIONS}, OPTION_CONTRACTS),
    "short-ramsch": ({"pack": "short", "ramsch": True, "tariff": "sauspiel"}, (bavarian.RAMSCH,)),
}


def bid_action(contract: int) -> int:
    """The bid of ``contract`` (the default game's from ``BID_ACTION_BASE``, the options' from
    ``EXTRA_BID_ACTION_BASE``)."""
    if contract >= bavarian.GEIER:
        return bavarian.EXTRA_BID_ACTION_BASE + contract - bavarian.GEIER
    return bavarian.BID_ACTION_BASE + contract


def steered_endgame(env, brute: BruteForce, rng: np.random.Generator, contracts, cards_left: int):
    """A card-play state of one of ``contracts`` with at most ``cards_left`` cards in the hand of the seat to
    act, or None (another contract, or the hand ended): in the bidding a legal bid of ``contracts`` or pass,
    uniformly; every other action uniformly random."""
    env.reset(seed=int(rng.integers(2**31)))
    state = env.unwrapped.kernel_state().copy()
    mask = np.zeros(bavarian.MAX_ACTIONS, dtype=np.int8)
    bids = [bid_action(c) for c in contracts if c != bavarian.RAMSCH]
    passing = bid_action(bavarian.PASS)
    while bavarian.current_seat(state) >= 0:
        seat = bavarian.current_seat(state)
        if brute.searched(state):
            if state[bavarian.S_CONTRACT] not in contracts:
                return None
            if popcount(np.uint64(state[bavarian.S_HANDS + seat])) <= cards_left:
                return state
        bavarian.legal_action_mask(state, mask)
        legal = np.flatnonzero(mask)
        if state[bavarian.S_PHASE] == bavarian.PHASE_BIDDING:
            wanted = [a for a in bids if mask[a]] + ([passing] if mask[passing] else [])
            action = int(rng.choice(wanted)) if wanted else int(rng.choice(legal))
        else:
            action = int(rng.choice(legal))
        bavarian.apply_action(state, action)
    return None


@pytest.mark.parametrize("option", list(OPTIONS))
def test_solver_matches_plain_minimax_on_the_option(option):
    config, contracts = OPTIONS[option]
    brute = BruteForce("bavarian")
    checker = SolveChecker("bavarian", brute)
    rng = np.random.default_rng(zlib.crc32(option.encode()))
    env = make_env("bavarian", **config)
    solved = 0
    outcomes = set()
    seen = set()
    while solved < ENDGAMES_PER_OPTION:
        state = steered_endgame(env, brute, rng, contracts, 3 if rng.random() < 0.5 else 2)
        if state is None:
            continue
        outcomes.add(checker.check(state, int(rng.integers(bavarian.MAX_SEATS)), solved))
        seen.add(int(state[bavarian.S_CONTRACT]))
        solved += 1
    assert len(outcomes) >= (2 if option == "bettel" else 3), outcomes  # several settlements reached
    assert set(contracts) - seen <= {bavarian.SIE}, seen  # each of the option's contracts (a Sie is rare)


@pytest.mark.parametrize("option", ["short-geier-farbwenz-bettel", "short-ramsch", "bettel"])
def test_whole_hands_of_the_option_are_solved_from_the_first_card(option):
    """From the first card (every trick exact; a Ramsch from its last ``RAMSCH_EXACT_TRICKS``, the most of it
    solved exactly) the solve ends and gives one of the seat's settlements: the minimax of a zero-sum game of
    two sides is the negated value of the other side (a Ramsch's paranoid values need not sum to zero, but no
    seat's is above what the rules can pay)."""
    config, contracts = OPTIONS[option]
    solver = solver_function("bavarian")
    brute = BruteForce("bavarian")
    rng = np.random.default_rng(zlib.crc32(("whole-" + option).encode()))
    env = make_env("bavarian", **config)
    solved = 0
    while solved < 3:
        state = steered_endgame(env, brute, rng, contracts, RAMSCH_EXACT_TRICKS if "ramsch" in option else 8)
        if state is None:
            continue
        values = [solver.solve(state, seat) for seat in range(bavarian.MAX_SEATS)]
        if state[bavarian.S_CONTRACT] == bavarian.RAMSCH:
            assert sum(values) <= 0, values  # each seat's paranoid value is at most its share of a zero sum
        else:
            declarer = int(state[bavarian.S_DECLARER])
            others = [values[s] for s in range(bavarian.MAX_SEATS) if s != declarer]
            assert others == [others[0]] * 3 and values[declarer] == -3 * others[0], values
        solved += 1
