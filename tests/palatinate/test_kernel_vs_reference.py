"""The compiled kernel against the plain reference on thousands of seeded random hands.

At every decision both must agree on who acts and on the exact set of legal actions; after every trick on
its leader, cards and winner; at the end on the outcome (won, value) and the settlement.
"""

from __future__ import annotations

import numpy as np
import pytest

from schafkopf_env.palatinate import kernel, reference
from trick_core.cards import FRENCH_32
from trick_core.drivers import compiled as compiled_drivers

DRIVERS = compiled_drivers(kernel)

NAMES = kernel.ACTION_NAMES


def biased_choice(options: list[str], rng: np.random.Generator) -> str:
    """Random play that still reaches every branch often: passing is likely in bidding (so round two and
    simple games happen), everything else is uniform."""
    if "pass" in options and rng.random() < 0.6:
        return "pass"
    return options[int(rng.integers(len(options)))]


def play_both(seed: int, config: dict) -> reference.ReferenceHand:
    """One seeded hand through both under the rule options ``config``; returns the reference hand as
    played, for the coverage count."""
    players = config.get("players", 3)
    rng = np.random.default_rng(seed)
    dealer = int(rng.integers(players))
    cards = rng.permutation(32).astype(np.int64)
    active = [s for s in range(players) if not (players == 4 and s == dealer)]
    hands = {seat: [FRENCH_32.name_of(c) for c in cards[i * 10 : (i + 1) * 10]] for i, seat in enumerate(active)}
    skat = [FRENCH_32.name_of(c) for c in cards[30:]]
    params = kernel.make_params(**config)
    state = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
    kernel.init_state(state, params, dealer, cards)
    hand = reference.ReferenceHand(dealer, hands, skat, **config)
    mask = np.zeros(kernel.NUM_ACTIONS, dtype=np.int8)
    kernel.legal_action_mask(state, mask)
    tricks_checked = 0
    while hand.to_act is not None:
        assert kernel.current_seat(state) == hand.to_act, (seed, hand.phase)
        kernel_legal = sorted(NAMES[a] for a in np.flatnonzero(mask))
        assert kernel_legal == sorted(hand.legal_actions()), (seed, hand.phase)
        action = biased_choice(kernel_legal, rng)
        hand.act(action)
        seat = DRIVERS.advance(state, kernel.ACTION_NAMES.index(action), mask)
        assert seat == (-1 if hand.to_act is None else hand.to_act), seed
        while tricks_checked < len(hand.tricks):
            log = kernel.S_TRICK_LOG + tricks_checked * kernel.TRICK_LOG_ENTRY
            trick = hand.tricks[tricks_checked]
            assert state[log] == trick["leader"]
            assert [FRENCH_32.name_of(c) for c in state[log + 1 : log + 4]] == [c for _, c in trick["cards"]]
            assert state[log + 4] == trick["winner"], seed
            tricks_checked += 1
    assert kernel.current_seat(state) == -1
    assert not mask.any()
    settlement = np.zeros(players)
    kernel.settlement(state, settlement)
    assert settlement.tolist() == hand.settlement(), seed
    assert settlement.sum() == 0
    if not hand.thrown_in:
        won, value = hand.outcome()
        assert (bool(state[kernel.S_WON]), int(state[kernel.S_VALUE])) == (won, value), seed
        assert state[kernel.S_DECLARER_POINTS] == hand.declarer_points()
    return hand


def branches_of(hand: reference.ReferenceHand) -> set:
    """The rule branches a played hand went through: its contract, the schenken answer, doubles (two or
    more: a re), the cap reached and a thrown-in hand."""
    doublings = len(hand.doublers)
    return {
        hand.contract,
        hand.schenken_answer,
        ("doublings", min(doublings, 2)),
        ("cap reached", doublings == hand.max_doublings),
        ("thrown_in", hand.thrown_in),
    }


COMPARISONS = [
    ({"players": 3, "max_doublings": 4}, range(0, 2000)),
    ({"players": 3, "max_doublings": 1}, range(2000, 2300)),
    ({"players": 3, "max_doublings": 10}, range(2300, 2700)),
    ({"players": 4, "max_doublings": 4}, range(3000, 3700)),
]
"""(rule options, seeds) of each comparison."""
COMPARED_CONFIGS = [config for config, _ in COMPARISONS]
"""The rule configurations compared (``tests/core/test_registered_variants.py`` checks that every variant of
the registry is among them)."""


@pytest.mark.parametrize(("config", "seeds"), COMPARISONS, ids=lambda item: str(item) if isinstance(item, dict) else "")
def test_kernel_matches_reference(config, seeds):
    """Every hand agrees, and the hands compared went through every contract, both schenken answers, a
    thrown-in hand, a re (a contra under a cap of 1) and, under a cap of 1 or 4, the cap: counted on these
    very hands, so a change of the deal or of the policy that stops reaching a branch fails here."""
    max_doublings = config.get("max_doublings", 4)
    seen = set()
    for seed in seeds:
        seen |= branches_of(play_both(seed, config))
    wanted = [*reference.SOLO_KINDS, "simple", "accept", "refuse", ("thrown_in", True)]
    wanted.append(("doublings", min(max_doublings, 2)))
    if max_doublings <= 4:
        wanted.append(("cap reached", True))
    missing = [item for item in wanted if item not in seen]
    assert not missing, f"never reached: {missing}"
