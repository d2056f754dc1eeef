"""The card layout and notation shared by every game: round trips and clear errors."""

import numpy as np
import pytest

from trick_core.cards import (
    CARD_POINTS_32,
    FRENCH_32,
    GERMAN_32,
    KNUFFELN_48,
    KNUFFELN_48_FIVES,
    parse_card_list,
)
from trick_core.deal import DealBuilder, parse_dealer, parse_hands

ALL_DECKS = [GERMAN_32, FRENCH_32, KNUFFELN_48, KNUFFELN_48_FIVES]


@pytest.mark.parametrize("deck", ALL_DECKS, ids=lambda d: d.name)
def test_every_card_round_trips(deck):
    names = [deck.name_of(i) for i in range(deck.num_cards)]
    assert len(set(names)) == deck.num_cards
    assert [deck.parse(n) for n in names] == list(range(deck.num_cards))
    assert [deck.parse(n.lower()) for n in names] == list(range(deck.num_cards))


@pytest.mark.parametrize("deck", ALL_DECKS, ids=lambda d: d.name)
def test_layout_is_suit_major(deck):
    for i in range(deck.num_cards):
        assert deck.name_of(i) == deck.suits[i // deck.num_ranks] + deck.ranks[i % deck.num_ranks]
    assert deck.suit_mask(1) == ((1 << deck.num_ranks) - 1) << deck.num_ranks


@pytest.mark.parametrize(
    ("deck", "text", "index"),
    [
        (GERMAN_32, "EA", 0),
        (GERMAN_32, "EO", 3),
        (GERMAN_32, "G10", 9),
        (GERMAN_32, "S7", 31),
        (FRENCH_32, "CQ", 3),
        (FRENCH_32, "DJ", 28),
        (KNUFFELN_48, "H2", 35),
        (KNUFFELN_48, "C4", 9),
        (KNUFFELN_48, "S8", 18),
        (KNUFFELN_48_FIVES, "D5", 40),
    ],
)
def test_known_indices(deck, text, index):
    assert deck.parse(text) == index
    assert deck.name_of(index) == text


def test_the_two_32_card_packs_share_one_layout():
    pairs = {"EO": "CQ", "GU": "SJ", "HA": "HA", "S10": "D10"}
    for german, french in pairs.items():
        assert GERMAN_32.parse(german) == FRENCH_32.parse(french)


@pytest.mark.parametrize("bad", ["E5", "X7", "", "10", "EOO", "C5"])
def test_unknown_cards_raise_naming_the_card(bad):
    deck = GERMAN_32 if bad != "C5" else KNUFFELN_48
    with pytest.raises(ValueError, match="unknown card"):
        deck.parse(bad)


def test_index_out_of_pack_raises():
    with pytest.raises(ValueError, match="not in the"):
        GERMAN_32.name_of(32)


def test_masks_round_trip():
    rng = np.random.default_rng(0)
    for _ in range(200):
        cards = sorted(rng.choice(48, size=int(rng.integers(0, 49)), replace=False).tolist())
        mask = KNUFFELN_48.mask_of(cards)
        assert KNUFFELN_48.cards_of(mask) == cards
        assert KNUFFELN_48.mask_of(KNUFFELN_48.names_of(mask)) == mask


def test_card_points_total_120():
    assert sum(CARD_POINTS_32[GERMAN_32.rank_of(c)] for c in range(32)) == 120


def test_parse_card_list_rejects_non_lists_and_non_strings():
    with pytest.raises(ValueError, match="must be a list"):
        parse_card_list(GERMAN_32, "EO", "hand")
    with pytest.raises(ValueError, match="written as a string"):
        parse_card_list(GERMAN_32, [3], "hand")


def test_deal_builder_names_duplicates_counts_and_missing_cards():
    builder = DealBuilder(GERMAN_32, "test")
    builder.take(["EO", "GO"], "hand of player_0", 2)
    with pytest.raises(ValueError, match="duplicate card EO"):
        builder.take(["EO"], "hand of player_1")
    with pytest.raises(ValueError, match="must have 3 cards, got 1"):
        DealBuilder(GERMAN_32, "test").take(["EO"], "hand", 3)
    with pytest.raises(ValueError, match="missing"):
        builder.require_complete()


def test_parse_hands_and_dealer_errors():
    builder = DealBuilder(GERMAN_32, "test")
    agents = ["player_0", "player_1"]
    with pytest.raises(ValueError, match="missing \\['player_1'\\]"):
        parse_hands(builder, {"hands": {"player_0": ["EO"]}}, agents, 1)
    with pytest.raises(ValueError, match="dealer must be a seat"):
        parse_dealer({"dealer": 4}, 4, "test", 3)
    with pytest.raises(ValueError, match="dealer must be a seat"):
        parse_dealer({"dealer": True}, 4, "test", 3)
    assert parse_dealer({}, 4, "test", 3) == 3
