"""The compiled kernel against the plain-Python reference on thousands of seeded random hands.

At every step both must agree on the seat to act and on the exact set of legal actions; after every
trick on its winner; at the end on card points, tricks and the settlement. Half of the hands are
steered towards Rufer games whose called-ace holder can run away, so that the rarest rules are met
often (the test also asserts that every rule situation was actually reached).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from schafkopf_env.bavarian import kernel, reference
from tests.bavarian.helpers import deal_with_hand
from trick_core.registry import game_spec

NUM_HANDS = 3000
COMPARED_CONFIGS = list(game_spec("bavarian").variants)
"""The rule configurations compared: every variant of the registry (a new one is compared as soon as it is
registered; ``tests/core/test_registered_variants.py`` checks every game's list). The default game by this
file's random hands and situations (a thrown-in hand, the long pack's deals); an option variant (issue 32)
by the options' comparison (``tests/bavarian/test_options.py``), with its deals and situations."""
DEFAULT_CONFIGS = [config for config in COMPARED_CONFIGS if not config]
OPTION_VARIANTS = [config for config in COMPARED_CONFIGS if config]
PLAIN_RANKS = ("A", "10", "K", "9", "8", "7")


def random_deal(rng: np.random.Generator, steer: bool) -> tuple[int, list[list[str]]]:
    """A random deal; when steering, one seat gets an ace and three more plain cards of its suit."""
    pack = list(reference.PACK)
    hands: list[list[str]] = [[], [], [], []]
    if steer:
        suit = reference.CALLABLE_SUITS[rng.integers(3)]
        holder = int(rng.integers(4))
        others = [suit + rank for rank in rng.permutation(PLAIN_RANKS[1:])[: int(rng.integers(2, 5))]]
        hands[holder] = [suit + "A", *others]
        pack = [card for card in pack if card not in hands[holder]]
    order = rng.permutation(len(pack))
    rest = [pack[i] for i in order]
    for seat in range(4):
        need = 8 - len(hands[seat])
        hands[seat] += rest[:need]
        rest = rest[need:]
    return int(rng.integers(4)), hands


def choose(rng: np.random.Generator, game: reference.BavarianGame, legal: list[str], steer: bool) -> str:
    """Random: in the bidding pass half the time, else a uniform bid; otherwise uniform. When steering,
    the first seat able to bid a Rufer bids it, and leaders prefer the called suit."""
    if steer and game.phase == "bidding":
        return "rufer" if "rufer" in legal else "pass"
    if game.phase == "bidding" and (len(legal) == 1 or rng.random() < 0.5):
        return "pass"
    if game.phase == "bidding":
        return legal[1 + rng.integers(len(legal) - 1)]
    if steer and game.phase == "playing" and not game.trick and game.called_suit:
        called = [card for card in legal if game.trumps.effective_suit(card) == game.called_suit]
        if called and rng.random() < 0.7:
            return called[rng.integers(len(called))]
    return legal[rng.integers(len(legal))]


def play_both(seed: int, stats: Counter, config: dict) -> None:
    rng = np.random.default_rng(seed)
    steer = seed % 2 == 1
    dealer, hands = random_deal(rng, steer)
    play_deal(dealer, hands, lambda game, legal: choose(rng, game, legal, steer), stats, seed, config)


def play_deal(dealer: int, hands: list[list[str]], chooser, stats: Counter, seed: int,
              config: dict | None = None) -> reference.BavarianGame:
    """One deal through the kernel and the reference under the rule options ``config``, ``chooser(game,
    legal)`` picking every action; both must agree at every step and at the end."""
    game = reference.BavarianGame(dealer, hands, **(config or {}))
    state = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
    cards = np.array([reference.PACK.index(card) for hand in hands for card in hand], dtype=np.int64)
    kernel.init_state(state, kernel.make_params(**(config or {})), dealer, cards)
    mask = np.zeros(kernel.NUM_ACTIONS, dtype=np.int8)
    while True:
        expected_seat = -1 if game.to_act is None else game.to_act
        assert kernel.current_seat(state) == expected_seat, f"seed {seed}: seat to act differs"
        kernel.legal_action_mask(state, mask)
        kernel_legal = {kernel.ACTION_NAMES[a] for a in np.flatnonzero(mask)}
        legal = game.legal_actions()
        assert kernel_legal == set(legal), f"seed {seed}, history {game.history}: legal actions differ"
        if game.is_over():
            break
        action = chooser(game, legal)
        note_situation(game, action, stats)
        game.play(action)
        kernel.apply_action(state, kernel.ACTION_NAMES.index(action))
        completed = int(state[kernel.S_TRICK_NUMBER])
        assert completed == len(game.completed_tricks)
        if completed and not game.trick:
            record = kernel.S_TRICKS + (completed - 1) * kernel.TRICK_RECORD
            assert state[record + 5] == game.completed_tricks[-1]["winner"], f"seed {seed}: trick winner"
    units = np.zeros(4)
    kernel.settlement(state, units)
    assert units.tolist() == game.settlement(), f"seed {seed}: settlement differs"
    assert state[kernel.S_POINTS : kernel.S_POINTS + 4].tolist() == game.points
    assert state[kernel.S_LAUFENDE] == game.laufende()
    stats[game.contract or "thrown_in"] += 1
    if game.tout_lost:
        stats["tout_lost"] += 1
    if game.contract in ("rufer", "wenz", "solo") and game.declarer_side_tricks() in (0, 8):
        stats["schwarz"] += 1
    if game.laufende():
        stats["laufende"] += 1
    return game


def note_situation(game: reference.BavarianGame, action: str, stats: Counter) -> None:
    """Count the called-ace situations met, to prove the comparison reached them."""
    if game.phase != "playing" or not game.called_ace_rules_apply(game.to_act):
        return
    ace = game.called_ace()
    if not game.trick and game.trumps.effective_suit(action) == game.called_suit and action != ace:
        stats["ran_away"] += 1
    elif not game.trick and action == ace:
        stats["led_called_ace"] += 1
    elif game.trick and action == ace and game.trumps.is_trump(game.trick[-1][1]):
        stats["ace_into_trumped_trick"] += 1
    elif game.trick and game.trumps.effective_suit(game.trick[0][1]) != game.called_suit:
        led_suit = game.trumps.effective_suit(game.trick[0][1])
        hand = game.hands[game.to_act]
        if all(game.trumps.effective_suit(card) != led_suit for card in hand):  # void: free to discard
            stats["ace_discarded_as_last_card" if len(hand) == 1 else "ace_kept_when_void"] += 1


@pytest.mark.parametrize("config", OPTION_VARIANTS, ids=lambda config: ",".join(map(str, config.items())))
def test_kernel_matches_reference_on_the_option_variants(config):
    from tests.bavarian.test_options import test_kernel_matches_reference_under_each_option

    test_kernel_matches_reference_under_each_option(config)


@pytest.mark.parametrize("config", DEFAULT_CONFIGS, ids=lambda config: ",".join(map(str, config.items())) or "default")
@pytest.mark.parametrize("block", range(4))
def test_kernel_matches_reference_on_random_hands(block, config):
    stats: Counter = Counter()
    per_block = NUM_HANDS // 4
    for seed in range(block * per_block, (block + 1) * per_block):
        play_both(seed, stats, config)
    for situation in (
        "rufer",
        "wenz",
        "solo",
        "wenz_tout",
        "solo_tout",
        "thrown_in",
        "tout_lost",
        "schwarz",
        "laufende",
        "ran_away",
        "led_called_ace",
        "ace_into_trumped_trick",
        "ace_kept_when_void",
    ):
        assert stats[situation] > 0, f"no {situation} among {dict(stats)}"


UNBEATABLE_TOUTS = {
    "wenz_tout": ["EU", "GU", "HU", "SU", "EA", "GA", "HA", "SA"],  # every trump and every ace
    "solo_tout": ["EO", "GO", "HO", "SO", "EU", "GU", "HU", "HA"],  # the seven highest trumps and the heart ace
}
"""Tout hands that take every trick when the declarer leads its highest trump first: random play never
wins a Tout, so the comparison of a won Tout's settlement needs hands like these
(``docs/rules/bavarian_schafkopf.md``: a Tout is won only with all eight tricks)."""


def highest_trump_first(game: reference.BavarianGame, legal: list[str]) -> str:
    trumps = [card for card in reference.trumps_high_to_low(game.contract, game.trump_suit) if card in legal]
    return trumps[0] if trumps else legal[0]


def tout_chooser(contract: str, declarer: int, rng: np.random.Generator):
    """The declarer (forehand) bids ``contract`` and leads its highest trump; every other choice is random."""

    def chooser(game: reference.BavarianGame, legal: list[str]) -> str:
        if game.phase == "bidding":
            return contract if contract in legal else "pass"
        if game.to_act == declarer and not game.trick and game.phase == "playing":
            return highest_trump_first(game, legal)
        return legal[rng.integers(len(legal))]

    return chooser


@pytest.mark.parametrize("contract", sorted(UNBEATABLE_TOUTS))
def test_kernel_matches_reference_on_won_touts(contract):
    """Both implementations on Touts the declarer wins: the other cards dealt at random and played at
    random, the declarer bids first and leads its highest trump."""
    stats: Counter = Counter()
    for seed in range(60):
        rng = np.random.default_rng(seed)
        declarer, hands = deal_with_hand(rng, reference.PACK, UNBEATABLE_TOUTS[contract])
        game = play_deal((declarer - 1) % 4, hands, tout_chooser(contract, declarer, rng), stats, seed)
        assert game.contract == contract and game.declarer == declarer
        assert not game.tout_lost and game.declarer_side_tricks() == 8
        assert game.settlement()[declarer] > 0
