"""Table-driven tests of every rule and pin of shared/rules/palatinate_schafkopf.md sections 1 and 2.

Where a table checks a rule function, both the kernel and the plain reference are asked; where it checks
a sequence of decisions, the PettingZoo env is driven with fixed deals.
"""

from __future__ import annotations

import numpy as np
import pytest

from schafkopf_env import palatinate_kernel as kernel
from schafkopf_env import palatinate_reference as reference
from schafkopf_env import palatinate_v0
from trick_core.cards import FRENCH_32

from .helpers import (
    EXAMPLE_HANDS,
    EXAMPLE_SKAT,
    act,
    example_deal,
    is_over,
    legal,
    new_env,
    play_to_end,
    result,
    to_act,
)

SUIT_INDEX = {"C": 0, "S": 1, "H": 2, "D": 3}
CARDS = FRENCH_32.parse


def kernel_state_in_play(trump: str) -> np.ndarray:
    """A kernel state in the play phase of a solo by seat 0 with the given trump, hands to be filled."""
    state = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
    kernel.init_state(state, kernel.make_params(3, 4), 2, np.arange(32, dtype=np.int64))
    state[kernel.S_DECLARER] = 0
    state[kernel.S_CONTRACT] = kernel.CONTRACT_SOLO
    state[kernel.S_TRUMP] = SUIT_INDEX[trump]
    state[kernel.S_PHASE] = kernel.PHASE_PLAY
    state[kernel.S_OFFERED : kernel.S_OFFERED + 4] = 1
    for seat in range(4):
        state[kernel.S_HAND + seat] = 0
    return state


def kernel_trick_winner(trump: str, cards: list[str]) -> int:
    """Position in playing order of the card that wins the trick, by the kernel's own play."""
    state = kernel_state_in_play(trump)
    for card in cards:
        seat = state[kernel.S_TO_ACT]
        state[kernel.S_HAND + seat] = 1 << CARDS(card)
        kernel.apply_action(state, kernel.PLAY_BASE + CARDS(card))
    winner = state[kernel.S_TRICK_LOG + 4]
    leader = state[kernel.S_TRICK_LOG]
    return (winner - leader) % 3


def kernel_legal_cards(trump: str, hand: list[str], led: str | None) -> set[str]:
    state = kernel_state_in_play(trump)
    if led is not None:
        seat = state[kernel.S_TO_ACT]
        state[kernel.S_HAND + seat] = 1 << CARDS(led)
        kernel.apply_action(state, CARDS(led))
    state[kernel.S_HAND + state[kernel.S_TO_ACT]] = FRENCH_32.mask_of(hand)
    mask = np.zeros(kernel.NUM_ACTIONS, dtype=np.int8)
    kernel.legal_action_mask(state, mask)
    return {kernel.ACTION_NAMES[a] for a in np.flatnonzero(mask)}


# ------------------------------------------------------------------------------------ section 1: cards


def test_card_points_total_120():
    assert reference.points_of(reference.ALL_CARDS) == 120
    assert sum(kernel.CARD_POINTS) == 120
    for card in reference.ALL_CARDS:
        assert kernel.CARD_POINTS[CARDS(card)] == reference.CARD_POINTS[reference.rank_of(card)]


@pytest.mark.parametrize("trump", ["C", "S", "H", "D"])
def test_fourteen_trumps_rank_as_listed(trump):
    order = ["CQ", "SQ", "HQ", "DQ", "CJ", "SJ", "HJ", "DJ"] + [trump + r for r in ("A", "10", "K", "9", "8", "7")]
    assert reference.trumps_in_order(trump) == order
    off_suit = next(s for s in "CSHD" if s != trump) + "7"
    for high in range(len(order)):
        for low in range(high + 1, len(order)):
            cards = [order[low], order[high], off_suit]
            assert kernel_trick_winner(trump, cards) == 1, cards
            assert reference.trick_winner(cards, trump) == 1, cards


TRICKS = [
    # trump, cards in playing order, winning position
    ("H", ["DJ", "HA", "H10"], 0),  # a Jack beats the trump ace
    ("H", ["HA", "DJ", "CQ"], 2),
    ("C", ["HA", "H10", "HQ"], 2),  # HQ is a trump, not a heart
    ("C", ["HK", "HA", "C7"], 2),  # the smallest trump beats the led suit
    ("S", ["DA", "D10", "DK"], 0),
    ("S", ["D10", "DA", "H7"], 1),  # a card off the led suit never wins
    ("S", ["D10", "H7", "DA"], 2),
    ("D", ["DA", "DJ", "D10"], 1),
    ("H", ["CJ", "SJ", "DQ"], 2),  # Queens beat Jacks
    ("H", ["C9", "CA", "C10"], 1),
    ("C", ["CA", "SQ", "C10"], 1),
    ("D", ["SA", "S10", "DQ"], 2),
    ("H", ["S7", "S9", "S8"], 1),
    ("H", ["SK", "S10", "S9"], 1),  # ten between ace and king
    ("C", ["SJ", "DQ", "HQ"], 2),
    ("D", ["H7", "C7", "S7"], 0),  # nobody follows, nobody trumps: the leader wins
]


@pytest.mark.parametrize(("trump", "cards", "winner"), TRICKS)
def test_trick_winner_table(trump, cards, winner):
    assert kernel_trick_winner(trump, cards) == winner
    assert reference.trick_winner(cards, trump) == winner


FOLLOW = [
    # trump, hand, led card, cards that may be played
    ("C", ["HQ", "HK", "S7"], "HA", ["HK"]),  # HQ is a trump: it does not follow hearts
    ("C", ["HQ", "S7"], "HA", ["HQ", "S7"]),  # no heart: anything, no duty to trump
    ("H", ["HA", "DQ", "C7"], "CJ", ["HA", "DQ"]),  # trump led: trumps, Queens included
    ("H", ["CQ", "CJ", "S9"], "C7", ["CQ", "CJ", "S9"]),  # the clubs Queen and Jack are not clubs
    ("D", ["SJ", "D7", "HA"], "DA", ["SJ", "D7"]),
    ("S", ["SA", "S10", "CA"], "SQ", ["SA", "S10"]),
    ("S", ["HA", "H7", "SQ"], "H10", ["HA", "H7"]),  # no duty to beat
    ("H", ["CA", "SA"], None, ["CA", "SA"]),  # the leader plays anything
]


@pytest.mark.parametrize(("trump", "hand", "led", "allowed"), FOLLOW)
def test_follow_suit_table(trump, hand, led, allowed):
    assert kernel_legal_cards(trump, hand, led) == set(allowed)
    assert set(reference.may_play(hand, [led] if led else [], trump)) == set(allowed)


HOCH = [
    # trump, declarer's cards (dealt hand plus skat), count
    ("H", ["CQ", "SQ", "HQ"], 3),  # "with 3"
    ("H", ["CQ", "SQ", "DQ"], 0),  # "with 2" does not count
    ("H", ["CQ", "SQ", "HQ", "DQ", "CJ", "SJ"], 6),
    ("C", ["SJ", "HJ"], 5),  # highest trump SJ: the other side is 5 mal hoch
    ("C", ["HQ"], 0),  # "without 2"
    ("D", ["DQ"], 3),  # "without 3"
    ("S", ["CA", "HA", "DA"], 14),  # no trump at all: "without 14"
    ("H", ["CQ", "SQ", "HQ", "DQ", "CJ", "SJ", "HJ", "DJ", "HA", "H10", "HK", "H9"], 12),  # "with 12"
    ("C", ["CQ", "SQ", "HQ", "DQ", "CJ", "SJ", "HJ", "DJ", "CA", "C10", "C9"], 10),
]


@pytest.mark.parametrize(("trump", "cards", "count"), HOCH)
def test_hoch_table(trump, cards, count):
    assert reference.top_trumps_in_sequence(set(cards), trump) == count
    state = kernel_state_in_play(trump)
    state[kernel.S_DEALT + 0] = FRENCH_32.mask_of(cards)
    state[kernel.S_SKAT] = 0
    assert kernel.hoch_count(state) == count


VALUES = [
    # contract, trump, hoch, declarer points, declarer tricks, opponent tricks, doublings, schenken,
    # declarer won, value
    ("simple", "C", 0, 61, 5, 5, 0, None, True, 1),
    ("simple", "C", 0, 60, 5, 5, 0, None, False, 1),  # the opponents win with 60
    ("simple", "H", 0, 61, 5, 5, 0, None, True, 2),  # hearts +1
    ("simple", "C", 0, 91, 8, 2, 0, None, True, 2),  # opponents 29: schneider
    ("simple", "C", 0, 90, 8, 2, 0, None, True, 1),  # exactly 30 is out of schneider
    ("simple", "C", 0, 120, 10, 0, 0, None, True, 3),  # schwarz
    ("simple", "C", 0, 29, 2, 8, 0, None, False, 2),  # the declarer is schneider
    ("simple", "C", 0, 30, 2, 8, 0, None, False, 1),
    ("simple", "C", 0, 11, 0, 10, 0, None, False, 3),  # no trick (the discards counted 11): schwarz
    ("solo", "S", 0, 61, 5, 5, 0, None, True, 2),  # solo +1
    ("heart_solo", "H", 0, 61, 5, 5, 0, None, True, 3),
    ("simple", "C", 3, 61, 5, 5, 0, None, True, 4),  # with 3
    ("solo", "D", 5, 40, 3, 7, 0, None, False, 7),  # without 5
    ("solo_du", "C", 0, 120, 10, 0, 0, None, True, 8),  # (1 + schneider + schwarz + solo) x 2
    ("heart_solo_du", "H", 6, 120, 10, 0, 0, None, True, 22),  # the source's example
    ("solo_du", "S", 0, 100, 1, 1, 0, None, False, 8),  # lost Du: schneider and schwarz still count
    ("heart_solo_du", "H", 14, 0, 0, 1, 0, None, False, 38),
    ("simple", "C", 0, 61, 5, 5, 1, None, True, 2),  # contra x2
    ("simple", "C", 0, 61, 5, 5, 2, None, True, 4),  # rekontra x4
    ("heart_solo_du", "H", 6, 120, 10, 0, 1, None, True, 44),
    ("solo", "C", 0, 0, 0, 0, 0, "accept", True, 2),  # schenken accepted: no schneider or schwarz
    ("heart_solo", "H", 4, 0, 0, 0, 0, "accept", True, 7),
    ("simple", "S", 0, 11, 0, 0, 0, "accept", True, 1),
    ("solo", "C", 0, 91, 8, 2, 0, "refuse", True, 3),  # refused: schneider point included
    ("solo", "C", 0, 90, 8, 2, 0, "refuse", False, 3),  # opponents took 30: the declarer loses
    ("solo", "C", 0, 120, 10, 0, 0, "refuse", True, 4),  # plus schwarz if achieved
    ("simple", "C", 0, 50, 4, 6, 0, "refuse", False, 2),
    ("solo", "C", 0, 15, 0, 10, 0, "refuse", False, 4),  # the declarer took no trick
    ("solo", "C", 3, 95, 9, 1, 1, "refuse", True, 12),
]


@pytest.mark.parametrize(
    ("contract", "trump", "hoch", "points", "tricks", "opp_tricks", "doublings", "schenken", "won", "value"),
    VALUES,
)
def test_value_table(contract, trump, hoch, points, tricks, opp_tricks, doublings, schenken, won, value):
    schenken_code = {None: kernel.SCHENKEN_NONE, "accept": kernel.SCHENKEN_ACCEPTED, "refuse": kernel.SCHENKEN_REFUSED}
    got = kernel.hand_value(
        kernel.CONTRACT_NAMES.index(contract),
        SUIT_INDEX[trump],
        hoch,
        points,
        tricks,
        opp_tricks,
        doublings,
        schenken_code[schenken],
    )
    assert (bool(got[0]), int(got[1])) == (won, value)
    assert reference.game_value(contract, trump, hoch, points, tricks, opp_tricks, doublings, schenken) == (won, value)


# ------------------------------------------------------------------------------------ the source's example


def heart_solo_du_by_forehand(env, rng, contra_by_player_1: bool = False) -> None:
    act(env, "heart_solo_du", "pass", "pass")
    leads = ["CQ", "SQ", "HQ", "DQ", "CJ", "SJ", "HA", "H10", "HK", "H9"]
    while not is_over(env):
        options = env.unwrapped.legal_action_strings()
        if "contra" in options:
            choice = "contra" if contra_by_player_1 else "no_double"
        elif "no_double" in options:
            choice = "no_double"
        elif to_act(env) == "player_0":
            choice = next(c for c in leads if c in options)
        else:
            choice = options[int(rng.integers(len(options)))]
        act(env, choice)


@pytest.mark.parametrize("seed", range(5))
def test_source_example_heart_solo_du_is_worth_22(seed):
    env = new_env()
    heart_solo_du_by_forehand(env, np.random.default_rng(seed))
    state = env.unwrapped.state()
    assert state["result"]["value"] == 22
    assert state["result"]["hoch"] == 6
    assert state["tricks_won"]["player_0"] == 10
    assert result(env) == [44.0, -22.0, -22.0]  # each opponent pays 22
    assert [env.rewards[a] for a in env.possible_agents] == [44.0, -22.0, -22.0]


def test_source_example_with_contra_doubles_the_value():
    env = new_env()
    heart_solo_du_by_forehand(env, np.random.default_rng(0), contra_by_player_1=True)
    assert env.unwrapped.state()["doublings"] == 1
    assert result(env) == [88.0, -44.0, -44.0]


def test_source_example_with_a_sitting_out_dealer():
    env = new_env(example_deal(dealer=3), players=4)
    heart_solo_du_by_forehand(env, np.random.default_rng(1))
    assert result(env) == [66.0, -22.0, -22.0, -22.0]  # the dealer pays as an opponent


# ------------------------------------------------------------------------------------ deal and seats


def test_forehand_is_left_of_the_dealer_and_speaks_first():
    for dealer, forehand in [(0, "player_1"), (1, "player_2"), (2, "player_0")]:
        assert to_act(new_env(example_deal(dealer=dealer))) == forehand


@pytest.mark.parametrize("seed", range(5))
def test_random_deal_gives_ten_each_and_two_to_the_skat(seed):
    for players in (3, 4):
        env = palatinate_v0.raw_env(players=players)
        env.reset(seed=seed)
        state = env.unwrapped.state()
        dealer = state["dealer"]
        sizes = {agent: len(cards) for agent, cards in state["hands"].items()}
        for agent, size in sizes.items():
            assert size == (0 if players == 4 and agent == dealer else 10)
        assert len(state["skat"]) == 2
        all_cards = [c for cards in state["hands"].values() for c in cards] + state["skat"]
        assert sorted(all_cards) == sorted(reference.ALL_CARDS)


def test_kernel_deal_follows_the_packets_three_two_four_three():
    """With splitmix64 the same shuffle is reproduced in Python and dealt 3-2-4-3 from forehand."""
    from trick_core.bits import make_rng
    from trick_core.bits import uniform_below_modulo as rng_below

    params = kernel.make_params(3, 4)
    state = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
    kernel.deal_random(state, params, make_rng(77))
    rng = make_rng(77)
    dealer = rng_below(rng, 3)
    deck = list(range(32))
    for i in range(31, 0, -1):
        j = rng_below(rng, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    order = [(dealer + k) % 3 for k in (1, 2, 3)]
    hands = {seat: [] for seat in order}
    top = 0
    for packet in (3, 0, 4, 3):
        if packet == 0:
            skat = deck[top : top + 2]
            top += 2
            continue
        for seat in order:
            hands[seat] += deck[top : top + packet]
            top += packet
    assert state[kernel.S_DEALER] == dealer
    assert state[kernel.S_SKAT] == FRENCH_32.mask_of(skat)
    for seat in order:
        assert state[kernel.S_DEALT + seat] == FRENCH_32.mask_of(hands[seat])


# ------------------------------------------------------------------------------------ bidding


BID_ONE = [
    # bids from forehand, (declarer, contract, trump or None, next phase)
    (["pass", "solo", "pass"], ("player_1", "solo", None, "trump")),
    (["solo", "heart_solo", "pass"], ("player_1", "heart_solo", "H", "schenken")),
    (["solo", "pass", "solo_du"], ("player_2", "solo_du", None, "trump")),
    (["heart_solo", "pass", "pass"], ("player_0", "heart_solo", "H", "schenken")),
    (["pass", "pass", "heart_solo_du"], ("player_2", "heart_solo_du", "H", "contra_offer")),
    (["solo", "heart_solo", "heart_solo_du"], ("player_2", "heart_solo_du", "H", "contra_offer")),
    (["heart_solo_du", "pass", "pass"], ("player_0", "heart_solo_du", "H", "play")),
    (["pass", "pass", "pass"], (None, None, None, "bid_two")),
]


@pytest.mark.parametrize(("bids", "expected"), BID_ONE)
def test_round_one_table(bids, expected):
    env = new_env()
    ladder = ["solo", "heart_solo", "solo_du", "heart_solo_du"]
    highest = -1
    for seat, bid in enumerate(bids):
        assert to_act(env) == f"player_{seat}"  # one pass in seat order from forehand
        assert legal(env) == {"pass", *ladder[highest + 1 :]}  # only higher kinds
        act(env, bid)
        if bid != "pass":
            highest = ladder.index(bid)
    state = env.unwrapped.state()
    assert (state["declarer"], state["contract"], state["trump"], state["phase"]) == expected


@pytest.mark.parametrize("kind", ["solo", "solo_du"])
def test_solo_and_solo_du_name_clubs_spades_or_diamonds(kind):
    env = new_env()
    act(env, "pass", kind, "pass")
    assert to_act(env) == "player_1"
    assert legal(env) == {"trump:C", "trump:S", "trump:D"}  # (pinned) not hearts
    act(env, "trump:S")
    assert env.unwrapped.state()["trump"] == "S"


def test_every_player_speaks_once_even_after_the_highest_bid():
    env = new_env()
    act(env, "heart_solo_du")
    assert legal(env) == {"pass"}
    act(env, "pass")
    assert legal(env) == {"pass"}


ROUND_TWO = [
    # round-two answers from forehand, (declarer or None, thrown in)
    (["simple"], ("player_0", False)),
    (["pass", "simple"], ("player_1", False)),  # the third player is never asked
    (["pass", "pass", "simple"], ("player_2", False)),
    (["pass", "pass", "pass"], (None, True)),
]


@pytest.mark.parametrize(("answers", "expected"), ROUND_TWO)
def test_round_two_table(answers, expected):
    env = new_env()
    act(env, "pass", "pass", "pass")
    for seat, answer in enumerate(answers):
        assert to_act(env) == f"player_{seat}"
        assert legal(env) == {"pass", "simple"}
        act(env, answer)
    state = env.unwrapped.state()
    assert state["declarer"] == expected[0]
    assert (state["phase"] == "over") == expected[1]
    if expected[1]:
        assert state["result"]["thrown_in"]
        assert all(env.rewards[a] == 0.0 and env.terminations[a] for a in env.possible_agents)
    else:
        assert state["contract"] == "simple"
        assert state["phase"] == "discard"


def test_simple_game_takes_the_skat_discards_two_and_names_any_trump():
    env = new_env()
    act(env, "pass", "pass", "pass", "pass", "simple")
    twelve = EXAMPLE_HANDS["player_1"] + EXAMPLE_SKAT
    assert sorted(env.unwrapped.state()["hands"]["player_1"]) == sorted(twelve)
    assert legal(env) == {f"discard:{c}" for c in twelve}
    act(env, "discard:D8")  # one of the cards just taken
    assert legal(env) == {f"discard:{c}" for c in twelve if c != "D8"}
    act(env, "discard:CA")
    assert legal(env) == {"trump:C", "trump:S", "trump:H", "trump:D"}
    act(env, "trump:H")
    state = env.unwrapped.state()
    assert state["discards"] == ["CA", "D8"]
    assert len(state["hands"]["player_1"]) == 10
    assert state["phase"] == "schenken" and to_act(env) == "player_2"


def test_discards_count_for_the_simple_declarer():
    env = new_env()
    act(env, "pass", "pass", "pass", "pass", "simple", "discard:CA", "discard:C10", "trump:C", "no_schenken")
    play_to_end(env, np.random.default_rng(3), prefer=("no_double",))
    state = env.unwrapped.state()
    assert state["result"]["declarer_card_points"] == state["points"]["player_1"] + 21


def test_solo_skat_counts_for_the_declarer_but_is_never_taken():
    skat = ["DA", "D10"]
    hands = dict(EXAMPLE_HANDS)
    hands["player_2"] = ["SA", "S10", "SK", "S9", "S8", "S7", "D8", "D7", "DK", "D9"]
    env = new_env(example_deal(hands=hands, skat=skat))
    act(env, "solo", "pass", "pass", "trump:D", "no_schenken")
    assert len(env.unwrapped.state()["hands"]["player_0"]) == 10
    play_to_end(env, np.random.default_rng(4), prefer=("no_double",))
    state = env.unwrapped.state()
    assert state["result"]["declarer_card_points"] == state["points"]["player_0"] + 21


def test_simple_game_hoch_counts_hand_plus_skat_even_if_discarded():
    hands = {
        "player_0": ["CQ", "SQ", "CA", "C10", "CK", "C9", "C8", "C7", "SA", "S10"],
        "player_1": ["DQ", "CJ", "SJ", "HJ", "DJ", "SK", "S9", "S8", "S7", "HA"],
        "player_2": ["H10", "HK", "H9", "H8", "H7", "DA", "D10", "DK", "D9", "D8"],
    }
    env = new_env(example_deal(hands=hands, skat=["HQ", "D7"]))
    act(env, "pass", "pass", "pass", "simple", "discard:HQ", "discard:D7", "trump:C", "no_schenken")
    play_to_end(env, np.random.default_rng(5), prefer=("no_double",))
    assert env.unwrapped.state()["result"]["hoch"] == 3  # CQ SQ from the hand, HQ from the skat


def test_solo_hoch_counts_the_skat_as_the_declarers():
    hands = {
        "player_0": ["CQ", "SQ", "CA", "C10", "CK", "C9", "C8", "C7", "SA", "S10"],
        "player_1": ["DQ", "CJ", "SJ", "HJ", "DJ", "SK", "S9", "S8", "S7", "HA"],
        "player_2": ["H10", "HK", "H9", "H8", "H7", "DA", "D10", "DK", "D9", "D8"],
    }
    env = new_env(example_deal(hands=hands, skat=["HQ", "D7"]))
    act(env, "solo", "pass", "pass", "trump:C", "no_schenken")
    play_to_end(env, np.random.default_rng(6), prefer=("no_double",))
    assert env.unwrapped.state()["result"]["hoch"] == 3


# ------------------------------------------------------------------------------------ schenken


def test_schenken_first_opponent_declines_and_the_second_is_not_asked():
    env = new_env()
    act(env, "solo", "pass", "pass", "trump:C")
    assert to_act(env) == "player_1" and legal(env) == {"schenken", "no_schenken"}
    act(env, "no_schenken")
    state = env.unwrapped.state()
    assert state["phase"] == "play" and state["schenken"] == {"player_1": "no_schenken"}
    assert to_act(env) == "player_0"  # forehand leads


def test_schenken_second_opponent_declines():
    env = new_env()
    act(env, "pass", "heart_solo", "pass")  # declarer player_1: asked from player_2, then player_0
    assert to_act(env) == "player_2"
    act(env, "schenken")
    assert to_act(env) == "player_0" and legal(env) == {"schenken", "no_schenken"}
    act(env, "no_schenken")
    assert env.unwrapped.state()["phase"] in ("contra_offer", "play")


def test_schenken_accepted_wins_without_play_and_without_schneider():
    env = new_env()
    act(env, "solo", "pass", "pass", "trump:C", "schenken", "schenken")
    assert to_act(env) == "player_0" and legal(env) == {"accept", "refuse"}
    act(env, "accept")
    state = env.unwrapped.state()
    assert state["phase"] == "over" and not state["tricks"]
    assert state["result"]["value"] == 1 + 1 + 6  # game, solo, with 6
    assert result(env) == [16.0, -8.0, -8.0]


def test_schenken_refused_commits_the_declarer_to_schneider():
    for seed in range(6):
        env = new_env()
        act(env, "solo", "pass", "pass", "trump:S", "schenken", "schenken", "refuse")
        assert env.unwrapped.state()["phase"] in ("play", "contra_offer")
        play_to_end(env, np.random.default_rng(seed), prefer=("no_double",))
        state = env.unwrapped.state()
        opponent_points = 120 - state["result"]["declarer_card_points"]
        assert state["result"]["declarer_won"] == (opponent_points < 30)
        schwarz = 1 if 0 in (state["tricks_won"]["player_0"], 10 - state["tricks_won"]["player_0"]) else 0
        assert state["result"]["value"] == 1 + 1 + 1 + 6 + schwarz  # game, solo, schneider, with 6


@pytest.mark.parametrize("kind", ["solo_du", "heart_solo_du"])
def test_no_schenken_in_a_du(kind):
    env = new_env()
    act(env, "pass", "pass", kind)
    if kind == "solo_du":
        act(env, "trump:C")
    state = env.unwrapped.state()
    assert state["phase"] == "contra_offer" and not state["schenken"]


# ------------------------------------------------------------------------------------ contra


def solo_clubs_by_player_0(**config):
    env = new_env(**config)
    act(env, "solo", "pass", "pass", "trump:C", "no_schenken")
    return env


def test_contra_is_offered_to_each_opponent_at_their_first_card_only():
    env = solo_clubs_by_player_0()
    assert to_act(env) == "player_0" and "no_double" not in legal(env)  # the declarer is not offered
    act(env, "CQ")
    assert to_act(env) == "player_1" and legal(env) == {"contra", "no_double"}
    act(env, "no_double")
    assert to_act(env) == "player_1" and "HJ" in legal(env)  # now plays the card
    act(env, "HJ")
    assert to_act(env) == "player_2" and legal(env) == {"contra", "no_double"}
    act(env, "no_double", "SA")
    assert "no_double" not in legal(env)  # no offers after the first cards
    play_to_end(env)
    assert env.unwrapped.state()["doublings"] == 0


def test_doubling_round_asks_from_left_of_the_doubler_and_only_the_doubled_side_may_double():
    env = solo_clubs_by_player_0()
    act(env, "CQ", "no_double", "HJ")
    act(env, "contra")  # player_2 at their first card
    assert to_act(env) == "player_0" and legal(env) == {"re", "no_double"}
    act(env, "re")  # the declarer doubles back: asking restarts left of player_0
    assert to_act(env) == "player_1" and legal(env) == {"re", "no_double"}
    act(env, "no_double")
    assert to_act(env) == "player_2" and legal(env) == {"re", "no_double"}
    act(env, "no_double")  # a full round without a double: player_2 plays the waiting card
    assert to_act(env) == "player_2" and "SA" in legal(env)
    state = env.unwrapped.state()
    assert state["doublings"] == 2 and state["doublers"] == ["player_2", "player_0"]


def test_a_player_of_the_side_that_doubled_is_asked_but_may_only_decline():
    env = solo_clubs_by_player_0()
    act(env, "CQ", "contra")
    assert to_act(env) == "player_2" and legal(env) == {"no_double"}
    act(env, "no_double")
    assert to_act(env) == "player_0" and legal(env) == {"re", "no_double"}
    act(env, "no_double")
    assert to_act(env) == "player_1" and "HJ" in legal(env)
    act(env, "HJ")
    # player_2's own first card: their side doubled last, so there is nothing to offer.
    assert to_act(env) == "player_2" and "no_double" not in legal(env)


def test_second_opponent_may_redouble_at_their_first_card_after_the_declarers_re():
    env = solo_clubs_by_player_0()
    act(env, "CQ", "contra", "no_double", "re", "no_double", "no_double", "HJ")
    assert to_act(env) == "player_2" and legal(env) == {"re", "no_double"}
    act(env, "re")
    assert env.unwrapped.state()["doublings"] == 3


def test_doubling_stops_at_the_cap():
    env = solo_clubs_by_player_0(max_doublings=4)
    act(env, "CQ", "contra", "no_double", "re", "re")  # 1 player_1, 2 player_0, 3 player_1
    assert to_act(env) == "player_2" and legal(env) == {"no_double"}
    act(env, "no_double", "re")  # 4 player_0: the cap, nobody is asked again
    assert to_act(env) == "player_1" and "HJ" in legal(env)
    assert env.unwrapped.state()["doublers"] == ["player_1", "player_0", "player_1", "player_0"]


@pytest.mark.parametrize("cap", [0, 1])
def test_small_caps(cap):
    env = solo_clubs_by_player_0(max_doublings=cap)
    act(env, "CQ")
    if cap == 0:
        assert "contra" not in legal(env) and "no_double" not in legal(env)
        return
    act(env, "contra")  # reaches the cap: no round of asking, no offer to player_2
    assert to_act(env) == "player_1" and "HJ" in legal(env)
    act(env, "HJ")
    assert to_act(env) == "player_2" and "no_double" not in legal(env)


def test_each_double_doubles_the_settlement():
    def settle(doubles: list[str]) -> list[float]:
        env = solo_clubs_by_player_0()
        act(env, "CQ", *doubles)
        play_to_end(env, prefer=("no_double",))
        return result(env)

    plain = settle(["no_double"])
    assert settle(["contra", "no_double", "no_double"]) == [2 * x for x in plain]
    assert settle(["contra", "no_double", "re", "no_double", "no_double"]) == [4 * x for x in plain]


def test_players_who_passed_may_double():
    env = new_env()
    act(env, "pass", "heart_solo", "pass")  # player_0 and player_2 passed
    act(env, "no_schenken")
    assert to_act(env) == "player_0" and legal(env) == {"contra", "no_double"}


# ------------------------------------------------------------------------------------ Du


def test_lost_du_ends_when_the_opponents_win_a_trick():
    env = new_env()
    act(env, "pass", "pass", "heart_solo_du")  # player_2 holds no trump at all
    act(env, "no_double", "CQ", "no_double")
    play_to_end(env)
    state = env.unwrapped.state()
    assert len(state["tricks"]) == 1 and state["tricks"][0]["winner"] == "player_0"
    # game, hearts, schneider, schwarz, solo, without 14 (player_2 and the skat hold no trump): 19 x 2.
    assert state["result"]["value"] == 38 and not state["result"]["declarer_won"]
    assert result(env) == [38.0, 38.0, -76.0]


def test_won_du_needs_every_trick():
    env = new_env()
    act(env, "solo_du", "pass", "pass", "trump:C")  # player_1 holds all clubs: player_0 loses a trick
    play_to_end(env, np.random.default_rng(0), prefer=("no_double",))
    state = env.unwrapped.state()
    assert not state["result"]["declarer_won"]
    assert state["tricks"][-1]["winner"] != "player_0"
    assert all(t["winner"] == "player_0" for t in state["tricks"][:-1])


# ------------------------------------------------------------------------------------ four players


def test_four_players_dealer_sits_out():
    hands = dict(zip(["player_2", "player_3", "player_0"], EXAMPLE_HANDS.values(), strict=True))
    env = new_env(example_deal(dealer=1, hands=hands), players=4)
    assert to_act(env) == "player_2"  # forehand: left of the dealer
    seen = set()
    while not is_over(env):
        seen.add(to_act(env))
        options = env.unwrapped.legal_action_strings()
        preferred = [a for a in ("heart_solo", "no_schenken", "no_double") if a in options]
        act(env, preferred[0] if preferred else options[0])
    assert seen == {"player_0", "player_2", "player_3"}  # the dealer never acts
    state = env.unwrapped.state()
    assert state["hands"]["player_1"] == [] and state["declarer"] == "player_2"
    value = state["result"]["value"]
    sign = 1 if state["result"]["declarer_won"] else -1
    assert result(env) == [-sign * value, -sign * value, 3 * sign * value, -sign * value]


def test_thrown_in_with_four_players_scores_nothing():
    env = new_env(example_deal(dealer=3), players=4)
    act(env, *["pass"] * 6)
    assert is_over(env) and result(env) == [0.0] * 4
