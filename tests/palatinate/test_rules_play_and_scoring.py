"""Table-driven tests of the rules and pins of ``docs/rules/palatinate_schafkopf.md`` sections 1 and 2: the
cards, trumps, tricks, hoch and values, the source's example, contra and Du (the deal and bidding are in
``test_rules_deal_and_bidding.py``; how the tables are checked: ``helpers``)."""

from __future__ import annotations

import numpy as np
import pytest

from schafkopf_env.palatinate import kernel, reference
from trick_core.cards import FRENCH_32

from .helpers import CARDS, act, example_deal, is_over, legal, new_env, play_to_end, result, to_act

SUIT_INDEX = {"C": 0, "S": 1, "H": 2, "D": 3}


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
        state[kernel.S_HANDS + seat] = 0
    return state


def kernel_trick_winner(trump: str, cards: list[str]) -> int:
    """Position in playing order of the card that wins the trick, by the kernel's own play."""
    state = kernel_state_in_play(trump)
    for card in cards:
        seat = state[kernel.S_SEAT_TO_ACT]
        state[kernel.S_HANDS + seat] = 1 << CARDS(card)
        kernel.apply_action(state, kernel.CARD_ACTION_BASE + CARDS(card))
    winner = state[kernel.S_TRICK_LOG + 4]
    leader = state[kernel.S_TRICK_LOG]
    return (winner - leader) % 3


def kernel_legal_cards(trump: str, hand: list[str], led: str | None) -> set[str]:
    state = kernel_state_in_play(trump)
    if led is not None:
        seat = state[kernel.S_SEAT_TO_ACT]
        state[kernel.S_HANDS + seat] = 1 << CARDS(led)
        kernel.apply_action(state, CARDS(led))
    state[kernel.S_HANDS + state[kernel.S_SEAT_TO_ACT]] = FRENCH_32.mask_of(hand)
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
    state[kernel.S_DEALT_HANDS + 0] = FRENCH_32.mask_of(cards)
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


# ------------------------------------------------------------------------------------ contra


SOLO_CLUBS = ("solo", "pass", "pass", "trump:C", "no_schenken")


def solo_clubs_by_player_0(**config):
    env = new_env(**config)
    act(env, *SOLO_CLUBS)
    return env


def reference_solo_clubs(*actions: str, max_doublings: int = 4) -> reference.ReferenceHand:
    """The plain reference on the example deal: the solo of ``solo_clubs_by_player_0``, then ``actions``."""
    deal = example_deal()
    hands = {int(player.split("_")[1]): cards for player, cards in deal["hands"].items()}
    hand = reference.ReferenceHand(deal["dealer"], hands, deal["skat"], max_doublings=max_doublings)
    for action in SOLO_CLUBS + actions:
        hand.act(action)
    return hand


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


@pytest.mark.parametrize("config", [{"max_doublings": 4}, {}], ids=["cap 4", "default cap (pinned: 4)"])
def test_doubling_stops_at_the_cap(config):
    env = solo_clubs_by_player_0(**config)
    act(env, "CQ", "contra", "no_double", "re", "re")  # 1 player_1, 2 player_0, 3 player_1
    assert to_act(env) == "player_2" and legal(env) == {"no_double"}
    act(env, "no_double", "re")  # 4 player_0: the cap, nobody is asked again
    assert to_act(env) == "player_1" and "HJ" in legal(env)
    hand = reference_solo_clubs("CQ", "contra", "no_double", "re", "re", "no_double", "re")
    assert hand.to_act == 1 and "HJ" in hand.legal_actions() and len(hand.doublers) == 4
    assert env.unwrapped.state()["doublers"] == ["player_1", "player_0", "player_1", "player_0"]


@pytest.mark.parametrize("cap", [0, 1])
def test_small_caps(cap):
    env = solo_clubs_by_player_0(max_doublings=cap)
    act(env, "CQ")
    if cap == 0:
        assert "contra" not in legal(env) and "no_double" not in legal(env)
        assert not {"contra", "no_double"} & set(reference_solo_clubs("CQ", max_doublings=0).legal_actions())
        return
    act(env, "contra")  # reaches the cap: no round of asking, no offer to player_2
    assert to_act(env) == "player_1" and "HJ" in legal(env)
    act(env, "HJ")
    assert to_act(env) == "player_2" and "no_double" not in legal(env)
    hand = reference_solo_clubs("CQ", "contra", "HJ", max_doublings=1)
    assert hand.to_act == 2 and "no_double" not in hand.legal_actions()


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
