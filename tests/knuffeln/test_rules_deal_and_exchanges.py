"""Knüffeln rules, table-driven and by scripted hands: the deal and chosen suits of section 3, every
exchange pin (ten exchange, bottom-Ole exchange) and the 1924 / 1938 bottom three. Trick winner, Jann,
march, turning, payments, variants, five players and talk are in ``test_rules_play_and_scoring.py``."""

from __future__ import annotations

import numpy as np
import pytest

from trick_core.cards import KNUFFELN_48, KNUFFELN_48_FIVES

from .helpers import (
    act,
    act_as,
    build_deal,
    legal,
    make_env,
    obs_offset,
    phase,
    reference_replay,
)

# ----------------------------------------------------------------------------- section 3: deal and chosen suits


def test_deal_sizes_and_chosen_suits():
    env = make_env(build_deal({}, ["H3", "S7"]))
    st = env.unwrapped.state()
    assert env.unwrapped.chosen_suits() == ("H", "S")
    assert st["turned"] == ["H3", "S7"] and sorted(st["face_up"]) == ["H3", "S7"]
    assert all(len(h) == 9 for h in st["hands"].values()) and len(st["stock"]) == 10
    assert st["forehand"] == 0 and env.agent_selection == "player_0"


@pytest.mark.parametrize(
    ("top", "turned", "chosen"),
    [(["H3", "HK", "S7"], ["H3", "HK", "S7"], ("H", "S")),
     (["D3", "DK", "DQ", "C2"], ["D3", "DK", "DQ", "C2"], ("D", "C")),
     (["H2", "C4"], ["H2", "C4"], ("H", "C"))],
    ids=["two of the first suit", "three of the first suit", "Oles count by their printed suit"],
)
def test_turning_the_chosen_suits(top, turned, chosen):
    env = make_env(build_deal({}, top))
    assert env.unwrapped.state()["turned"] == turned
    assert env.unwrapped.chosen_suits() == chosen


def test_four_of_one_suit_means_a_reproducible_redeal():
    deal = build_deal({}, ["H3", "HK", "HQ", "H4"])
    first = make_env(deal)
    again = make_env(deal)
    st = first.unwrapped.state()
    assert st["redeals"] >= 1 and st["dealer"] == 3  # the same dealer deals again
    assert len({c[0] for c in st["turned"][:-1]}) == 1 and st["turned"][-1][0] != st["turned"][0][0]
    assert st["stock_order"][:4] != deal["stock"][:4]
    assert np.array_equal(first.unwrapped.kernel_state(), again.unwrapped.kernel_state())
    assert all(len(h) == 9 for h in st["hands"].values())


# ----------------------------------------------------------------------------- ten exchange


def test_ten_exchange_any_turned_card_of_the_first_suit_and_both_tens():
    deal = build_deal({1: ["H10", "S10"]}, ["H3", "HK", "S7"])
    env = make_env(deal)
    act_as(env, "player_0", "decline")  # every seat is asked, holding a ten or not
    assert sorted(legal(env)) == ["decline", "exchange:H3", "exchange:HK", "exchange:S7"]
    act_as(env, "player_1", "exchange:HK")
    st = env.unwrapped.state()
    assert "HK" in st["hands"]["player_1"] and "H10" not in st["hands"]["player_1"]
    assert sorted(st["face_up"]) == ["H10", "H3", "S7"]  # the ten takes the turned card's place
    assert st["exchanges"] == [{"agent": "player_1", "kind": "ten", "gave": "H10", "took": "HK"}]
    assert legal(env) == ["exchange:S7", "decline"]  # asked again: the other ten
    act_as(env, "player_1", "exchange:S7")
    act_as(env, "player_1", "decline")
    act_as(env, "player_2", "decline")
    act_as(env, "player_3", "decline")
    assert phase(env) == "play" and env.agent_selection == "player_0"


def test_ten_exchange_round_asks_every_seat_from_forehand():
    env = make_env(build_deal({}, ["C3", "D3"], dealer=1))
    asked = []
    while phase(env) == "ten_exchange":
        asked.append(env.agent_selection)
        act(env, "decline")
    assert asked == ["player_2", "player_3", "player_0", "player_1"]


# ----------------------------------------------------------------------------- bottom-Ole exchange


def _to_ole_offer(env):
    while phase(env) == "ten_exchange":
        act(env, "decline")


def _offer_round(env) -> list[tuple[str, list[str]]]:
    """Who is asked about the Ole on offer and what each may do, declining all (the reference agreeing)."""
    seen = []
    while phase(env) == "ole_exchange":
        seen.append((env.agent_selection, legal(env)))
        assert set(reference_replay(env).legal_actions()) == set(legal(env))
        act(env, "decline")
    return seen


def test_queen_holder_takes_the_bottom_ole_then_the_next_from_the_bottom():
    deal = build_deal({1: ["HQ"], 2: ["HK", "DQ"]}, ["C3", "D3"], ["D9", "H2", "H9"])
    env = make_env(deal)
    _to_ole_offer(env)
    assert phase(env) == "ole_exchange"
    act_as(env, "player_0", "decline")
    assert legal(env) == ["take_ole", "decline"]
    act_as(env, "player_1", "take_ole")
    st = env.unwrapped.state()
    assert "H9" in st["hands"]["player_1"] and "HQ" not in st["hands"]["player_1"]
    assert st["out_of_play"] == ["HQ"] and "HQ" not in st["stock"] + sum(st["hands"].values(), [])
    # next from the bottom: H2; the Queen is out of play, so the King holder has the right
    assert phase(env) == "ole_exchange"
    act(env, "decline", "decline")
    act_as(env, "player_2", "take_ole")
    # third: D9, for the diamond Queen
    act(env, "decline", "decline")
    act_as(env, "player_2", "take_ole")
    st = env.unwrapped.state()
    assert [(e["agent"], e["gave"], e["took"]) for e in st["exchanges"]] == [
        ("player_1", "HQ", "H9"), ("player_2", "HK", "H2"), ("player_2", "DQ", "D9")]
    assert phase(env) == "play"  # at most three Oles


def test_at_most_three_oles_are_checked():
    deal = build_deal({0: ["CQ", "SQ", "HQ", "DQ"]}, ["C3", "D3"], ["S8", "D9", "C4", "H9"])
    env = make_env(deal)
    _to_ole_offer(env)
    for _ in range(3):
        act_as(env, "player_0", "take_ole")
    assert phase(env) == "play" and "S8" in env.unwrapped.state()["stock"]


def test_a_declined_ole_ends_the_checking():
    deal = build_deal({1: ["HQ", "DQ"]}, ["C3", "D3"], ["D9", "H9"])
    env = make_env(deal)
    _to_ole_offer(env)
    round_ = _offer_round(env)
    assert [a for a, _ in round_] == ["player_0", "player_1", "player_2", "player_3"]
    assert [legal_ for a, legal_ in round_ if "take_ole" in legal_] == [["take_ole", "decline"]]
    assert phase(env) == "play" and "D9" in env.unwrapped.state()["stock"]  # D9 never offered


def test_a_non_ole_at_the_bottom_ends_the_checking_at_once():
    env = make_env(build_deal({}, ["C3", "D3"], ["H9", "C2"]))
    _to_ole_offer(env)
    assert phase(env) == "play"
    dealer_obs = env.observe("player_3")["observation"]
    other_obs = env.observe("player_0")["observation"]
    known_stock = obs_offset("stock_known")
    c2 = KNUFFELN_48.parse("C2")
    assert dealer_obs[known_stock + c2] == 1 and other_obs[known_stock + c2] == 0


@pytest.mark.parametrize("queen_where", ["stock", "turned"])
def test_king_holder_when_no_player_holds_the_queen(queen_where):
    top = ["HQ", "S3"] if queen_where == "turned" else ["C3", "D3"]
    bottom = ["H9"] if queen_where == "turned" else ["HQ", "H9"]
    env = make_env(build_deal({2: ["HK"]}, top, bottom))
    _to_ole_offer(env)
    takers = [a for a, legal_ in _offer_round(env) if "take_ole" in legal_]
    assert takers == ["player_2"]


def test_nobody_takes_an_ole_when_queen_and_king_are_not_held():
    env = make_env(build_deal({}, ["C3", "D3"], ["HQ", "HK", "D9", "H9"]))
    _to_ole_offer(env)
    assert all("take_ole" not in legal_ for _, legal_ in _offer_round(env))
    assert phase(env) == "play" and "D9" in env.unwrapped.state()["stock"]


def test_no_double_exchange():
    """A Queen got through the ten exchange cannot take an Ole of its suit: nobody takes it, the
    checking ends (even though another player holds the King)."""
    env = make_env(build_deal({2: ["H10"], 3: ["HK"]}, ["HQ", "S3"], ["D9", "H9"]))
    act(env, "decline", "decline")
    act_as(env, "player_2", "exchange:HQ")
    act(env, "decline", "decline")
    assert all("take_ole" not in legal_ for _, legal_ in _offer_round(env))
    assert phase(env) == "play" and "D9" in env.unwrapped.state()["stock"]


# ----------------------------------------------------------------------------- 1924 / 1938 bottom three


@pytest.mark.parametrize("variant", ["bernhard1924", "gruenberg1938"])
def test_early_variants_lay_the_bottom_three_face_up_and_offer_each_ole(variant):
    fives = variant == "bernhard1924"
    deck = KNUFFELN_48_FIVES if fives else KNUFFELN_48
    deal = build_deal({0: ["HQ"], 3: ["CK"]}, ["D3", "S3"], ["CQ", "C4", "D2", "H9"], fives=fives)
    env = make_env(deal, variant=variant)
    observation = env.observe("player_1")["observation"]
    shown = obs_offset("stock_shown_to_all")
    assert [int(observation[shown + deck.parse(c)]) for c in ("CQ", "C4", "D2", "H9")] == [0, 1, 1, 1]
    _to_ole_offer(env)
    asked = []
    for _ in range(4):  # H9 (bottom) first: only the heart Queen's holder may take it; all refuse
        asked.append((env.agent_selection, "take_ole" in legal(env)))
        act(env, "decline")
    assert asked == [("player_0", True), ("player_1", False), ("player_2", False), ("player_3", False)]
    assert phase(env) == "ole_exchange"  # a refusal does not end the offers: C4 follows
    act(env, "decline", "decline", "decline")  # the club Queen sleeps in the stock: the King holder's turn
    assert legal(env) == ["take_ole", "decline"]
    act_as(env, "player_3", "take_ole")
    st = env.unwrapped.state()
    assert "C4" in st["hands"]["player_3"] and st["out_of_play"] == ["CK"] and phase(env) == "play"


def test_bernhard_pack_has_fives_and_the_five_is_the_exchange_card():
    env = make_env(build_deal({0: ["H5"]}, ["H3", "S3"], fives=True), variant="bernhard1924")
    assert legal(env) == ["exchange:H3", "decline"]
    act(env, "exchange:H3")
    assert env.unwrapped.state()["exchanges"][0]["gave"] == "H5"
    with pytest.raises(ValueError, match="unknown card"):
        make_env(build_deal({}, ["H10", "S3"]), variant="bernhard1924")
