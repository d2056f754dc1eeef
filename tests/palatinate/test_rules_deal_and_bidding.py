"""Table-driven tests of the rules and pins of ``docs/rules/palatinate_schafkopf.md`` sections 1 and 2: the
deal and the seats, bidding, giving up (Schenken) and a fourth player (the cards, play and scoring are in
``test_rules_play_and_scoring.py``; how the tables are checked: ``helpers``)."""

from __future__ import annotations

import numpy as np
import pytest

from schafkopf_env import palatinate_v0
from schafkopf_env.palatinate import kernel, reference
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

# ------------------------------------------------------------------------------------ deal and seats


def test_forehand_is_left_of_the_dealer_and_speaks_first():
    for dealer, forehand in [(0, "player_1"), (1, "player_2"), (2, "player_0")]:
        assert to_act(new_env(example_deal(dealer=dealer))) == forehand


@pytest.mark.parametrize("players", [3, 4])
def test_a_fixed_deal_without_a_dealer_is_dealt_by_the_seat_before_player_0(players):
    """Decision P13: the last seat deals, so ``player_0`` is forehand (with four, ``player_3`` sits out)."""
    options = {key: value for key, value in example_deal().items() if key != "dealer"}
    env = new_env(options, players=players)
    state = env.unwrapped.state()
    assert state["dealer"] == players - 1
    assert to_act(env) == "player_0"
    assert env.unwrapped.game_record()["deal"]["dealer"] == players - 1
    if players == 4:
        assert state["hands"]["player_3"] == []


@pytest.mark.parametrize("seed", range(5))
def test_random_deal_gives_ten_each_and_two_to_the_skat(seed):
    for players in (3, 4):
        env = palatinate_v0.raw_env(players=players)
        env.reset(seed=seed)
        state = env.unwrapped.state()
        dealer = f"player_{state['dealer']}"
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
        assert state[kernel.S_DEALT_HANDS + seat] == FRENCH_32.mask_of(hands[seat])


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


@pytest.mark.parametrize(
    ("bids", "seed"),
    [(["pass", "pass", "pass", "simple", "discard:HQ", "discard:D7"], 5), (["solo", "pass", "pass"], 6)],
    ids=["simple-game-even-if-discarded", "solo"],
)
def test_hoch_counts_the_skat_as_the_declarers(bids, seed):
    hands = {
        "player_0": ["CQ", "SQ", "CA", "C10", "CK", "C9", "C8", "C7", "SA", "S10"],
        "player_1": ["DQ", "CJ", "SJ", "HJ", "DJ", "SK", "S9", "S8", "S7", "HA"],
        "player_2": ["H10", "HK", "H9", "H8", "H7", "DA", "D10", "DK", "D9", "D8"],
    }
    env = new_env(example_deal(hands=hands, skat=["HQ", "D7"]))
    act(env, *bids, "trump:C", "no_schenken")
    play_to_end(env, np.random.default_rng(seed), prefer=("no_double",))
    assert env.unwrapped.state()["result"]["hoch"] == 3  # CQ SQ from the hand, HQ from the skat


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


def test_schenken_refused_and_every_trick_taken_adds_schwarz():
    """The random hands above never give either side every trick; here the declarer (the six highest
    trumps, then hearts the opponents cannot hold for long) leads from the top and takes all ten, whatever
    the opponents play: schwarz is added to the refused Schenken's schneider."""
    leads = ["CQ", "SQ", "HQ", "DQ", "CJ", "SJ", "HA", "H10", "HK", "H9"]
    for seed in range(3):
        env = new_env()
        act(env, "solo", "pass", "pass", "trump:S", "schenken", "schenken", "refuse")
        rng = np.random.default_rng(seed)
        while not is_over(env):
            options = env.unwrapped.legal_action_strings()
            if "no_double" in options:
                act(env, "no_double")
            elif to_act(env) == "player_0":
                act(env, next(card for card in leads if card in options))
            else:
                act(env, options[int(rng.integers(len(options)))])
        state = env.unwrapped.state()
        assert state["tricks_won"]["player_0"] == 10 and state["result"]["declarer_won"]
        assert state["result"]["value"] == 1 + 1 + 1 + 6 + 1  # game, solo, schneider, with 6, schwarz


@pytest.mark.parametrize("kind", ["solo_du", "heart_solo_du"])
def test_no_schenken_in_a_du(kind):
    env = new_env()
    act(env, "pass", "pass", kind)
    if kind == "solo_du":
        act(env, "trump:C")
    state = env.unwrapped.state()
    assert state["phase"] == "contra_offer" and not state["schenken"]


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
