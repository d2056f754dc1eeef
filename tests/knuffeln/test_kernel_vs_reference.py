"""The compiled kernel against the plain-Python reference on thousands of seeded random hands: at every
decision the same seat and the same legal actions, every trick the same leader and winner, and the same
result and payments."""

from __future__ import annotations

import collections

import numpy as np
import pytest

from knuffeln_env.knuffeln import kernel
from knuffeln_env.knuffeln.reference import RedealNeeded, ReferenceHand
from trick_core.bits import make_rng
from trick_core.cards import KNUFFELN_48, KNUFFELN_48_FIVES
from trick_core.drivers import compiled as compiled_drivers

from .helpers import RULE_CONFIGS, biased_action, config_id

DRIVERS = compiled_drivers(kernel)

COMPARED_CONFIGS = [*RULE_CONFIGS, {"talk": "tokens:3"}, {"talk": "tokens:4"}]
"""The configurations compared (``tests/core/test_registered_variants.py`` checks that every variant of the
registry is among them)."""
HANDS_PER_POLICY = 300


def _compare(config: dict, hands: int, seed: int, biased: bool) -> collections.Counter:
    params = kernel.make_params(**config)
    deck = KNUFFELN_48_FIVES if config.get("variant") == "bernhard1924" else KNUFFELN_48
    names = kernel.action_names(params, deck)
    index = {name: i for i, name in enumerate(names)}
    players = config.get("players", 4)
    rng = make_rng(seed)
    choice = np.random.default_rng(seed)
    state = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
    mask = np.zeros(len(names), dtype=np.int8)
    seen = collections.Counter()
    for hand in range(hands):
        kernel.deal_random(state, params, rng)
        dealer = int(state[kernel.S_DEALER])
        dealt = {s: deck.names_of(int(state[kernel.S_DEALT_HANDS + s])) for s in range(players)}
        stock = [deck.name_of(int(state[kernel.S_STOCK + k])) for k in range(kernel.STOCK_SIZE)]
        ref = ReferenceHand(**config)
        ref.start(dealer, dealt, stock)
        kernel.legal_action_mask(state, mask)
        while True:
            seat = int(kernel.current_seat(state))
            assert seat == ref.current_player, (config, hand, ref.history)
            if seat < 0:
                break
            kernel_legal = sorted(names[a] for a in np.flatnonzero(mask))
            assert kernel_legal == ref.legal_actions(), (config, hand, ref.history[-4:])
            action = biased_action(kernel_legal, choice) if biased else kernel_legal[choice.integers(len(kernel_legal))]
            seen[action.split(":")[0] if ":" in action else ("card" if deck.is_card(action) else action)] += 1
            ref.apply(action)
            DRIVERS.advance(state, index[action], mask)
        assert int(state[kernel.S_TRICK_NUMBER]) == len(ref.tricks)
        for t, trick in enumerate(ref.tricks):
            log = kernel.S_TRICK_LOG + t * kernel.TRICK_LOG_WIDTH
            assert (int(state[log]), int(state[log + 1])) == (trick.leader, trick.winner), (config, hand, t)
            assert bool(state[log + 2] == 1) == trick.face_down_accepted
        assert [int(state[kernel.S_SETTLEMENT + s]) for s in range(players)] == ref.settlement, (config, hand)
        assert kernel.RESULT_NAMES[int(state[kernel.S_RESULT_KIND])] == ref.result[0]
        seen["result:" + ref.result[0]] += 1
    return seen


@pytest.mark.parametrize("config", COMPARED_CONFIGS, ids=config_id)
def test_kernel_matches_reference_on_random_hands(config):
    uniform = _compare(config, HANDS_PER_POLICY, seed=101, biased=False)
    long_hands = _compare(config, HANDS_PER_POLICY, seed=202, biased=True)
    seen = uniform + long_hands
    assert seen["card"] > 0 and seen["decline"] > 0 and seen["exchange"] > 0
    assert seen["result:plain"] > 0 and seen["result:jann"] > 0 and seen["result:failed_march"] > 0
    if config.get("variant") != "hattstedt":
        assert seen["accept"] > 0 and seen["result:fled"] > 0
    if config.get("players") == 5:
        assert seen["play_alone"] > 0 and seen["sit_out"] > 0
    else:
        assert seen["take_ole"] > 0
    if config.get("talk") == "lexicon":
        assert seen["say"] > 0 and seen["show"] > 0 and seen["silent"] > 0
    if config.get("talk", "").startswith("tokens"):
        assert seen["token"] > 0


def test_march_results_are_reached_and_agree():
    seen = _compare({"variant": "hattstedt"}, 1500, seed=7, biased=True)
    assert seen["result:march"] > 0


def test_reference_and_kernel_both_redeal_four_of_a_suit():
    stock = ["H3", "HK", "HQ", "H4"]
    cards = [c for c in KNUFFELN_48.names_of(KNUFFELN_48.full_mask) if c not in stock]
    hands = {s: cards[9 * s: 9 * s + 9] for s in range(4)}
    full_stock = stock + cards[36:]
    ref = ReferenceHand()
    with pytest.raises(RedealNeeded):
        ref.start(3, hands, full_stock)
    state = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
    order = [c for s in range(4) for c in hands[s]] + full_stock
    deal = np.array([KNUFFELN_48.parse(c) for c in order], dtype=np.int64)
    kernel.init_state(state, kernel.make_params(), 3, deal)
    assert state[kernel.S_REDEALS] >= 1 and state[kernel.S_DEALER] == 3
