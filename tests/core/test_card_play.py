"""The shortcuts that make the Schafkopf heuristic playouts (``schafkopf_env.card_play``) fast decide exactly
as the plain loops they replace: ``_can_beat`` by masks as card-by-card following and beating, and the
epsilon-random card drawn from the legal card bits as ``random_set_index`` draws it from the action mask
(same card, same random numbers used). ``tests/agents/test_playouts.py`` checks the whole playout against the
policy stepped by hand through the action mask."""

from __future__ import annotations

import numpy as np
import pytest

from schafkopf_env import card_play
from schafkopf_env.trumps import EFFECTIVE_SUIT, EFFECTIVE_SUIT_MASK, TRICK_POWER, TRUMP
from trick_core.bits import make_rng

CASES_PER_KIND = 3000


def _beats_by_hand(kind: int, card: int, best: int, led_suit: int) -> bool:
    suit, best_suit = EFFECTIVE_SUIT[kind, card], EFFECTIVE_SUIT[kind, best]
    higher = TRICK_POWER[kind, card] > TRICK_POWER[kind, best]
    if suit == TRUMP:
        return bool(best_suit != TRUMP or higher)
    return bool(suit == led_suit and best_suit != TRUMP and higher)


def _can_beat_by_hand(kind: int, hand: int, best: int, led_card: int) -> bool:
    """The plain loop: the cards the hand may play on the led card, any of them beating ``best``."""
    led_suit = EFFECTIVE_SUIT[kind, led_card]
    allowed = hand & int(EFFECTIVE_SUIT_MASK[kind, led_suit]) or hand
    return any(_beats_by_hand(kind, card, best, led_suit) for card in range(32) if allowed >> card & 1)


@pytest.mark.parametrize("kind", range(TRICK_POWER.shape[0]))
def test_can_beat_by_masks_matches_the_card_by_card_loop(kind):
    choice = np.random.default_rng(kind)
    agreed_true = 0
    for _ in range(CASES_PER_KIND):
        hand = int(choice.integers(0, 2**32)) & int(choice.integers(0, 2**32))  # about eight cards
        led_card, other = (int(c) for c in choice.integers(0, 32, size=2))
        # as the playouts ask: the led card itself, or a card that beats it (a trump or the led suit)
        best = other if _beats_by_hand(kind, other, led_card, EFFECTIVE_SUIT[kind, led_card]) else led_card
        expected = _can_beat_by_hand(kind, hand, best, led_card)
        assert card_play._can_beat(kind, np.uint64(hand), best, led_card) == expected, (hand, best, led_card)
        agreed_true += expected
    assert 0 < agreed_true < CASES_PER_KIND  # both answers were exercised


@pytest.mark.parametrize("base", [0, 24])
def test_random_card_from_bits_is_the_mask_draw(base):
    choice = np.random.default_rng(base)
    for seed in range(2000):
        legal = int(choice.integers(1, 2**32)) & int(choice.integers(0, 2**32)) or 1 << int(seed % 32)
        mask = np.zeros(base + 32, dtype=np.int8)
        for card in range(32):
            mask[base + card] = legal >> card & 1
        rng_mask, rng_bits = make_rng(seed), make_rng(seed)
        expected = card_play.random_set_index(mask, base, base + 32, rng_mask)
        assert card_play.random_card_action(np.uint64(legal), base, rng_bits) == expected
        assert np.array_equal(rng_mask, rng_bits)
