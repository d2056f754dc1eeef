"""Knüffeln rules, table-driven and by scripted hands: section 4's trick winner row by row, Jann, march,
turning, the payments of section 8 (with the source's checks), each variant, five players and talk. The
deal and the exchanges are in ``test_rules_deal_and_exchanges.py``."""

from __future__ import annotations

import numpy as np
import pytest

from knuffeln_env.knuffeln import kernel, reference
from trick_core.cards import KNUFFELN_48, KNUFFELN_48_FIVES

from .helpers import (
    act,
    act_as,
    build_deal,
    decline_exchanges,
    is_card_action,
    legal,
    make_env,
    obs_offset,
    phase,
    reference_replay,
    settlement,
)

# ----------------------------------------------------------------------------- section 4: trick winner

# (chosen suits, cards in playing order, position of the winner, why)
BOHMSTEDT_TRICKS = [
    ("HS", ["D4", "S3", "DA", "C8"], 1, "source example 1: a chosen 3 beats an unchosen 4; the ace can't beat it"),
    ("HS", ["D4", "C8", "DA", "S3"], 2, "source example 2: the ace beats the 4 of its suit; a 3 is too low for it"),
    ("HS", ["SA", "SJ", "HA", "S6"], 0, "Ole/beater led: the other chosen ace ties, and ties never beat"),
    ("HS", ["S4", "S3", "H3", "S2"], 3, "beaters rank A J 6 2 3 4: 3 beats 4, the other 3 ties, 2 beats 3"),
    ("HS", ["HJ", "D9", "C4", "H2"], 3, "each Ole beats every beater and the lower Oles"),
    ("HS", ["S8", "H9", "D9", "SA"], 0, "de Dulle beats the lower Oles and every beater"),
    ("HS", ["HA", "D9"], 1, "the lowest Ole beats the highest beater"),
    ("HS", ["S7", "H2", "C4", "SA"], 0, "a led chosen 7 is unbeatable, even by de Beste"),
    ("HS", ["DJ", "S7", "H8", "S9"], 0, "a chosen 7, 8 or 9 that is not led never takes over"),
    ("HS", ["S9", "S6", "H6", "S2"], 0, "a led free card: a 6 or 2 is too low"),
    ("HS", ["H8", "S6", "SJ", "HA"], 3, "a chosen J beats a led free card, then the A beats the J"),
    ("HS", ["S9", "D9"], 1, "an Ole beats a led free card"),
    ("HS", ["CA", "S2", "SA", "C8"], 2, "an unchosen ace: a chosen 2 is too low, a chosen A beats it"),
    ("HS", ["CA", "H6"], 1, "a chosen 6 beats an unchosen ace"),
    ("HS", ["C7", "CA", "S2", "S6"], 3, "the ace takes over a lower card of its suit; then a 6 beats it, a 2 not"),
    ("HS", ["DA", "CA"], 0, "an ace of another unchosen suit has no power"),
    ("HS", ["CK", "S3", "S2", "D9"], 3, "a led K: a 3 is too low, a 2 beats it, then an Ole"),
    ("HS", ["CK", "CA", "H3"], 1, "the ace of an unchosen K's suit beats it"),
    ("HS", ["SK", "S3", "HQ"], 0, "a led chosen K: a 3 is too low"),
    ("HS", ["SK", "S2"], 1, "a chosen 2 beats a chosen K"),
    ("HS", ["DQ", "S4", "S3", "DA"], 2, "a led Q: a 4 is too low, a 3 beats it; the ace can't beat the 3"),
    ("HS", ["DQ", "S4", "DA", "S3"], 2, "the ace of the Q's suit takes over; a 3 can't beat the ace"),
    ("HS", ["HQ", "H4", "H3"], 2, "a led chosen Q: a 4 is too low, a 3 beats it"),
    ("HS", ["DJ", "H4", "S4"], 1, "an unchosen J: any beater beats it; the other 4 ties"),
    ("HS", ["S10", "CA", "SK", "S7"], 0, "a led chosen 10: no beater or Ole came, nothing beats it"),
    ("HS", ["H10", "H4"], 1, "a chosen 10 loses to the lowest beater"),
    ("HS", ["C10", "CJ", "CK", "CQ"], 0, "Bohmstedt: unchosen cards other than the ace have no rank"),
    ("HS", ["C2", "C3"], 0, "Bohmstedt: not even the low cards rank"),
    ("HS", ["CK", "C4"], 1, "an Ole in an unchosen suit is an Ole"),
    ("HS", ["C4", "CA"], 0, "the ace of an Ole's suit cannot beat the Ole"),
    ("CD", ["C3", "C4"], 1, "clubs chosen: C4 stays an Ole (clubs have no Veerhack)"),
    ("CD", ["D9", "DA"], 0, "diamonds chosen: D9 stays an Ole above the chosen ace"),
    ("CD", ["D8", "D6", "DJ"], 2, "D8 is diamonds' only free card: a 6 is too low, a J beats it"),
    ("HS", ["H8", "H6"], 0, "hearts chosen: H8 is the one free card of hearts"),
    ("CS", ["SA", "CA"], 0, "the aces of the two chosen suits tie"),
]

HATTSTEDT_TRICKS = [
    ("HS", ["D4", "S3", "DA", "C8"], 1, "source example 1 holds in Hattstedt too"),
    ("HS", ["D4", "C8", "DA", "S3"], 2, "source example 2 holds in Hattstedt too"),
    ("HS", ["C10", "CJ", "CK", "CQ"], 2, "an unchosen card beats the lower cards of its own suit"),
    ("HS", ["C2", "C3"], 1, "down to the lowest: 3 over 2"),
    ("HS", ["C3", "D7"], 0, "and nothing of another suit"),
    ("HS", ["CJ", "CA", "S2"], 1, "the unchosen ace keeps its defence: a chosen 2 is too low"),
    ("HS", ["C9", "CK", "CQ", "S3"], 1, "K over 9; the Q is lower; a chosen 3 cannot beat a K"),
    ("HS", ["C6", "C7", "C8", "S4"], 3, "each higher club takes over, then any beater beats a plain card"),
    ("HS", ["C3", "C4"], 1, "C4 is an Ole, not the clubs 4"),
    ("HS", ["D8", "D10"], 1, "the 10 ranks above the 8"),
    ("HS", ["S3", "SK"], 0, "chosen suits keep their own order: a K is no beater"),
    ("HS", ["S7", "H2"], 0, "a led chosen 7 stays unbeatable"),
    ("HS", ["CK", "CA", "H6"], 2, "the ace beats its K, a chosen 6 beats the ace"),
]

FIVES_TRICKS = [
    ("HS", ["D5", "D6"], 1, "1924: the 5 ranks below the 6 in an unchosen suit"),
    ("HS", ["D5", "D4"], 0, "and above the 4"),
    ("HS", ["H5", "H4"], 1, "a chosen 5 (the exchange card) has no power"),
    ("HS", ["DJ", "DQ", "DK"], 2, "the rest of the unchosen order as in Hattstedt"),
]


def _kernel_winner(cards: list[str], chosen: str, variant: str) -> int:
    deck = KNUFFELN_48_FIVES if variant == "bernhard1924" else KNUFFELN_48
    chosen_mask = sum(1 << "CSHD".index(s) for s in chosen)
    ranking = kernel.RANKING_OF_VARIANT[kernel.VARIANTS.index(variant)]
    indices = np.array([deck.parse(c) for c in cards], dtype=np.int64)
    return int(kernel.trick_winner_position(ranking, chosen_mask, indices, len(cards)))


@pytest.mark.parametrize(
    ("variant", "case"),
    [("bohmstedt", c) for c in BOHMSTEDT_TRICKS]
    + [("hattstedt", c) for c in HATTSTEDT_TRICKS]
    + [("gruenberg1938", c) for c in HATTSTEDT_TRICKS]
    + [("bernhard1924", c) for c in FIVES_TRICKS],
    ids=lambda x: x if isinstance(x, str) else " ".join(x[1]),
)
def test_trick_winner_table(variant, case):
    chosen, cards, expected, why = case
    assert _kernel_winner(cards, chosen, variant) == expected, why
    assert reference.trick_winner(cards, set(chosen), variant) == expected, why


def test_card_roles_as_data():
    """Oles are Oles in every pair of chosen suits; chosen beaters rank A J 6 2 3 4 (attack 6..1)."""
    for chosen_mask in range(16):
        for card, power in kernel.OLE_ATTACK.items():
            assert kernel.ATTACK[chosen_mask, card] == power == kernel.DEFENCE[chosen_mask, card]
    hs = (1 << kernel.HEARTS) | (1 << kernel.SPADES)
    spades = {r: KNUFFELN_48.parse("S" + r) for r in ("A", "J", "6", "2", "3", "4", "7", "9", "K", "Q", "10")}
    assert [int(kernel.ATTACK[hs, spades[r]]) for r in ("A", "J", "6", "2", "3", "4")] == [6, 5, 4, 3, 2, 1]
    assert kernel.DEFENCE[hs, spades["7"]] == kernel.UNBEATABLE
    assert [int(kernel.DEFENCE[hs, spades[r]]) for r in ("9", "K", "Q", "10")] == [4, 2, 1, 0]
    clubs_ace = KNUFFELN_48.parse("CA")
    assert kernel.ATTACK[hs, clubs_ace] == 0 and kernel.DEFENCE[hs, clubs_ace] == 3


# ----------------------------------------------------------------------------- Jann, march, turning

JANN_HAND = ["H2", "C4", "S8", "H9", "D9", "HA", "SA", "HJ", "SJ"]


def _jann_env(variant="bohmstedt", seat0=JANN_HAND, seat1=("H6",), talk="off"):
    fives = variant == "bernhard1924"
    env = make_env(build_deal({0: list(seat0), 1: list(seat1)}, ["H3", "S7"], ["D2"], fives=fives),
                   variant=variant, talk=talk)
    decline_exchanges(env)
    return env


def _follow(env, count=3):
    """The other players throw their first cards."""
    for _ in range(count):
        if env.unwrapped.state()["phase"] == "talk":
            act(env, "silent")
        act(env, next(a for a in legal(env) if is_card_action(env, a)))


def _win_first_five(env, leads=("H2", "C4", "S8", "H9", "D9")):
    for card in leads:
        act_as(env, "player_0", card)
        _follow(env)


def test_jann_stop():
    env = _jann_env()
    _win_first_five(env)
    st = env.unwrapped.state()
    assert st["jann_pending"] and st["tricks_won"] == [5, 0] and env.agent_selection == "player_0"
    assert "stop" in legal(env)
    act(env, "stop")
    assert env.unwrapped.state()["result"]["kind"] == "jann"
    assert settlement(env) == [20, -20, 20, -20]  # 10 units from each loser to each winner


def test_march_won():
    env = _jann_env()
    _win_first_five(env)
    act(env, "HA")
    assert env.unwrapped.state()["committed_team"] == 0
    _follow(env)
    for card in ("SA", "HJ", "SJ"):
        act(env, card)
        _follow(env)
    assert env.unwrapped.state()["result"]["kind"] == "march"
    assert len(env.unwrapped.state()["tricks"]) == 9 and settlement(env) == [60, -60, 60, -60]


def _march_after_one_accepted_turn(variant="bohmstedt"):
    """Team 0 turns H2 (accepted), wins the first five tricks and marches through the other four."""
    env = _jann_env(variant)
    act(env, "turn:H2")
    act_as(env, "player_1", "accept")
    _follow(env)
    _win_first_five(env, ("C4", "S8", "H9", "D9"))
    for card in ("HA", "SA", "HJ", "SJ"):
        act(env, card)
        _follow(env)
    assert env.unwrapped.state()["result"]["kind"] == "march"
    return env


@pytest.mark.parametrize(("variant", "units"), [("bohmstedt", 31), ("gruenberg1938", 21)])
def test_march_pays_the_march_plus_accepted_turns(variant, units):
    env = _march_after_one_accepted_turn(variant)  # 30 (Gruenberg: 20) + 1 accepted turn
    assert env.unwrapped.state()["accepted_turns"] == 1
    assert settlement(env) == [2 * units, -2 * units, 2 * units, -2 * units]
    assert reference_replay(env).settlement == settlement(env)


def test_march_failed_by_losing_a_trick():
    env = _jann_env(seat0=JANN_HAND[:-1] + ["DK"], seat1=("H6", "SJ"))
    _win_first_five(env)
    act(env, "DK")  # leading trick 6 commits; player_1 beats the King with the chosen 6
    act_as(env, "player_1", "H6")
    _follow(env, 2)
    st = env.unwrapped.state()
    assert st["result"]["kind"] == "failed_march" and st["result"]["winning_team"] == 1
    assert len(st["tricks"]) == 6 and settlement(env) == [-60, 60, -60, 60]


def test_march_failed_by_fleeing_a_turn():
    env = _jann_env()
    _win_first_five(env)
    act(env, "turn:HA")
    act_as(env, "player_1", "flee")
    st = env.unwrapped.state()
    assert st["result"]["kind"] == "failed_march" and settlement(env) == [-60, 60, -60, 60]


def test_jann_with_two_accepted_turns_is_twelve_units():
    env = _jann_env()
    for card in ("H2", "C4"):
        act(env, f"turn:{card}")
        act_as(env, "player_1", "accept")
        _follow(env)
    _win_first_five(env, ("S8", "H9", "D9"))
    act(env, "stop")
    assert env.unwrapped.state()["accepted_turns"] == 2 and settlement(env) == [24, -24, 24, -24]


def test_two_turns_fled_on_the_second_is_two_units():
    env = _jann_env()
    act(env, "turn:H2")
    act_as(env, "player_1", "accept")
    _follow(env)
    act(env, "turn:C4")
    act_as(env, "player_1", "flee")
    st = env.unwrapped.state()
    assert st["result"]["kind"] == "fled" and st["result"]["units"] == 2
    assert settlement(env) == [4, -4, 4, -4]
    my_face_down = obs_offset("my_face_down")
    for agent in ("player_1", "player_2", "player_3"):  # the fled card stays hidden
        assert env.observe(agent)["observation"][my_face_down + KNUFFELN_48.parse("C4")] == 0
    assert env.observe("player_0")["observation"][my_face_down + KNUFFELN_48.parse("C4")] == 1


# A 5-4 hand with a turn accepted at every one of the nine tricks: the leader turns a worthless card, the
# next player (who answers) accepts and wins with a beater, so the lead goes round the table.
FIVE_FOUR_HANDS = {
    0: ["C2", "C3", "D2", "HA", "HJ", "CK", "CQ", "DK", "DQ"],
    1: ["C6", "D3", "SA", "SJ", "H6", "CJ", "DJ", "C10", "D10"],
    2: ["C7", "D4", "S6", "S2", "HK", "HQ", "H10", "H7", "H8"],
    3: ["C8", "D6", "S3", "S4", "SK", "SQ", "S10", "S7", "C9"],
}
FIVE_FOUR_STOCK = ["H3", "S9", "CA", "C4", "DA", "D9", "D8", "H2", "H9", "H4", "S8", "D7"]
FIVE_FOUR_LEADS = {0: ["C2", "C3", "D2"], 1: ["C6", "D3"], 2: ["C7", "D4"], 3: ["C8", "D6"]}
FIVE_FOUR_BEATERS = {1: ["SA", "SJ", "H6"], 2: ["S6", "S2"], 3: ["S3", "S4"], 0: ["HA", "HJ"]}
FIVE_FOUR_THROWS = {0: ["CK", "CQ", "DK", "DQ"], 1: ["CJ", "DJ", "C10", "D10"],
                    2: ["HK", "HQ", "H10", "H7", "H8"], 3: ["SK", "SQ", "S10", "S7", "C9"]}


def _play_five_four(variant):
    deal = {"dealer": 3, "hands": {f"player_{s}": h for s, h in FIVE_FOUR_HANDS.items()}, "stock": FIVE_FOUR_STOCK}
    env = make_env(deal, variant=variant)
    decline_exchanges(env)
    leads = {s: list(c) for s, c in FIVE_FOUR_LEADS.items()}
    beaters = {s: list(c) for s, c in FIVE_FOUR_BEATERS.items()}
    throws = {s: list(c) for s, c in FIVE_FOUR_THROWS.items()}
    for trick in range(9):
        leader = trick % 4
        act_as(env, f"player_{leader}", f"turn:{leads[leader].pop(0)}")
        act_as(env, f"player_{(leader + 1) % 4}", "accept")
        act_as(env, f"player_{(leader + 1) % 4}", beaters[(leader + 1) % 4].pop(0))
        for k in (2, 3):
            act_as(env, f"player_{(leader + k) % 4}", throws[(leader + k) % 4].pop(0))
        assert env.unwrapped.state()["tricks"][-1]["winner"] == f"player_{(leader + 1) % 4}"
    return env


def test_five_four_win_with_nine_accepted_turns_is_ten_units():
    env = _play_five_four("bohmstedt")
    st = env.unwrapped.state()
    assert st["tricks_won"] == [4, 5] and st["accepted_turns"] == 9 and st["stake"] == 10
    assert all(t["face_down_accepted"] for t in st["tricks"])
    assert st["result"]["kind"] == "plain" and settlement(env) == [-20, 20, -20, 20]


def test_first_team_to_five_wins_and_the_rest_is_not_played():
    env = _jann_env(seat0=JANN_HAND[:-1] + ["DK"], seat1=("H6", "SJ"))
    act(env, "DK")
    act_as(env, "player_1", "H6")
    _follow(env, 2)
    assert env.unwrapped.state()["tricks"][0]["winner"] == "player_1"
    act_as(env, "player_1", "CA")
    _follow(env, 2)
    act_as(env, "player_0", "H2")
    _win_first_five(env, ("C4", "S8", "H9", "D9"))
    st = env.unwrapped.state()
    assert st["tricks_won"] == [5, 1] and not st["jann_pending"]  # five tricks, but not the first five
    assert st["result"]["kind"] == "plain" and len(st["tricks"]) == 6 and settlement(env) == [2, -2, 2, -2]


# ----------------------------------------------------------------------------- variants


def test_hattstedt_has_no_drehen_and_pays_two_and_four():
    env = _jann_env("hattstedt")
    assert not any(a.startswith("turn:") for a in legal(env))
    _win_first_five(env)
    act(env, "stop")
    assert settlement(env) == [4, -4, 4, -4]
    env = _jann_env("hattstedt")
    _win_first_five(env)
    for card in ("HA", "SA", "HJ", "SJ"):
        act(env, card)
        _follow(env)
    assert settlement(env) == [8, -8, 8, -8]


def test_gruenberg_payment_scale():
    env = _play_five_four("gruenberg1938")
    assert settlement(env) == [-28, 28, -28, 28]  # 5 + 9 accepted turns
    env = _jann_env("gruenberg1938")
    _win_first_five(env)
    act(env, "stop")
    assert settlement(env) == [20, -20, 20, -20]
    env = _jann_env("gruenberg1938")
    act(env, "turn:H2")
    act_as(env, "player_1", "flee")
    assert settlement(env) == [10, -10, 10, -10]  # the base game: 5


def test_bernhard_turns_only_after_two_tricks_and_again_after_four():
    env = _jann_env("bernhard1924")
    may_turn = []
    for card in ("H2", "C4", "S8", "H9", "D9"):
        may_turn.append(any(a.startswith("turn:") for a in legal(env)))
        assert reference_replay(env).legal_actions() == sorted(legal(env))  # the reference agrees
        if may_turn[-1] and env.unwrapped.state()["accepted_turns"] == 0:
            act(env, f"turn:{card}")
            act_as(env, "player_1", "accept")
        else:
            act(env, card)
        _follow(env)
    assert may_turn == [False, False, True, False, True]
    act(env, "stop")
    assert settlement(env) == [22, -22, 22, -22]  # Jann 10 + 1 accepted turn, Bohmstedt scale
    assert reference_replay(env).settlement == [22, -22, 22, -22]


# ----------------------------------------------------------------------------- five players

DEALER_STOCK = ["H3", "S7", "H2", "C4", "S8", "H9", "D9", "HA", "SA", "HJ", "SJ", "S6"]


def _five_player_env(talk="off"):
    deal = build_deal({}, DEALER_STOCK, dealer=4, players=5)
    return make_env(deal, players=5, talk=talk)


def test_five_players_dealer_sees_the_stock_and_chooses_first():
    env = _five_player_env()
    assert env.agent_selection == "player_4" and legal(env) == ["play_alone", "sit_out"]
    known_stock = obs_offset("stock_known", players=5)
    h2 = KNUFFELN_48.parse("H2")
    assert env.observe("player_4")["observation"][known_stock + h2] == 1
    assert env.observe("player_0")["observation"][known_stock + h2] == 0


def test_five_players_dealer_alone_jann_and_march():
    env = _five_player_env()
    act(env, "play_alone")
    st = env.unwrapped.state()
    assert sorted(st["hands"]["player_4"]) == sorted(DEALER_STOCK[2:])
    assert st["teams"] == {"player_0": 1, "player_1": 1, "player_2": 1, "player_3": 1, "player_4": 0}
    assert st["tricks_needed"] == [4, 5]
    decline_exchanges(env)
    assert env.agent_selection == "player_2"  # second to the dealer's right leads: the dealer plays third
    _follow(env, 2)
    act_as(env, "player_4", "H2")
    _follow(env, 2)
    for card in ("C4", "S8", "H9"):
        act_as(env, "player_4", card)
        _follow(env, 4)
    st = env.unwrapped.state()
    assert st["jann_pending"] and st["tricks_won"] == [4, 0] and "stop" in legal(env)
    clone = env.unwrapped.clone()
    act(env, "stop")
    assert settlement(env) == [-10, -10, -10, -10, 40]
    for card in ("D9", "HA", "SA", "HJ", "SJ"):
        act_as(clone, "player_4", card)
        _follow(clone, 4)
    assert clone.state()["result"]["kind"] == "march" and len(clone.state()["tricks"]) == 9
    assert clone.state()["result"]["settlement"] == [-30, -30, -30, -30, 120]


def test_five_players_the_lone_dealer_answers_a_face_down_lead_from_two_seats_away():
    """Pinned: the next player of the *other team* in playing order answers a face-down lead. With the
    dealer alone that is the dealer, past the leader's teammate; accepted, the trick goes on from the
    leader's left; fled, the dealer's side loses the stake as it stood."""
    env = _five_player_env()
    act(env, "play_alone")
    decline_exchanges(env)
    assert env.agent_selection == "player_2"
    act(env, "turn:HK")
    assert env.agent_selection == "player_4" and legal(env) == ["accept", "flee"]
    fled = env.unwrapped.clone()
    act(env, "accept")
    assert env.agent_selection == "player_3" and env.unwrapped.state()["trick"] == [["player_2", "HK"]]
    act(fled, "flee")  # the dealer's flight: the dealer pays the base stake to each of the four
    assert fled.state()["result"]["kind"] == "fled" and fled.state()["result"]["settlement"] == [1, 1, 1, 1, -4]


def test_five_players_dealer_exchanges_tens_last_and_no_ole_exchange():
    deal = build_deal({}, ["H3", "S7", "S10"], ["D9"], dealer=0, players=5)
    env = make_env(deal, players=5)
    act(env, "play_alone")
    asked = []
    while phase(env) == "ten_exchange":
        asked.append(env.agent_selection)
        if env.agent_selection == "player_0" and "exchange:S7" in legal(env):
            assert legal(env) == ["exchange:S7", "decline"]
            act(env, "exchange:S7")
        else:
            act(env, "decline")
    assert asked == ["player_1", "player_2", "player_3", "player_4", "player_0", "player_0"]
    assert "S7" in env.unwrapped.state()["hands"]["player_0"]
    assert phase(env) == "play" and "D9" in env.unwrapped.state()["hands"]["player_0"]


def test_five_players_dealer_sits_out():
    env = _five_player_env()
    act(env, "sit_out")
    decline_exchanges(env)
    st = env.unwrapped.state()
    assert st["teams"] == {"player_0": 0, "player_1": 1, "player_2": 0, "player_3": 1, "player_4": None}
    assert env.agent_selection == "player_0"
    rng = np.random.default_rng(3)
    while not all(env.terminations.values()):
        act(env, rng.choice(legal(env)))
    units = settlement(env)
    assert units[4] == 0 and sum(units) == 0
    assert all("player_4" not in [a for a, _ in t["cards"]] for t in env.unwrapped.state()["tricks"])


# ----------------------------------------------------------------------------- talk


def test_lexicon_talk_turn_precedes_each_card_play():
    env = _jann_env(talk="lexicon")
    hand = env.unwrapped.state()["hands"]["player_0"]
    assert phase(env) == "talk" and env.agent_selection == "player_0"
    assert set(legal(env)) == {"silent", *(f"say:{k}" for k in range(1, 25)), *(f"show:{c}" for c in hand)}
    act(env, "say:3")
    assert phase(env) == "play" and env.agent_selection == "player_0"
    act(env, "turn:H2")
    assert env.agent_selection == "player_1" and legal(env) == ["accept", "flee"]  # no talk before an answer
    act(env, "accept")
    assert phase(env) == "talk" and env.agent_selection == "player_1"


def test_talk_precedes_the_jann_choice():
    env = _jann_env(talk="lexicon")
    for card in ("H2", "C4", "S8", "H9", "D9"):
        act(env, "silent", card)
        _follow(env)
    assert phase(env) == "talk" and "stop" not in legal(env)
    act(env, "say:22")
    assert "stop" in legal(env)


def test_talk_is_public_and_a_shown_card_reaches_only_the_partner():
    env = _jann_env(talk="lexicon")
    talk_offset = obs_offset("talk", talk="lexicon")
    act(env, "show:SA")
    width = 4 + 26 + 16
    for agent, rel in (("player_0", 0), ("player_1", 3), ("player_2", 2), ("player_3", 1)):
        slot = env.observe(agent)["observation"][talk_offset: talk_offset + width]
        assert slot[rel] == 1 and slot[4 + 25] == 1  # who, and that a card was shown
        suit, rank = slot[30:34], slot[34:46]
        sees = agent in ("player_0", "player_2")
        assert (suit[1] == 1 and rank[0] == 1) == sees and (suit.sum() + rank.sum() == 0) != sees


def test_tokens_talk():
    env = make_env(build_deal({}, ["H3", "S7"]), talk="tokens:5")
    decline_exchanges(env)
    assert legal(env) == ["silent", "token:1", "token:2", "token:3", "token:4", "token:5"]
    assert env.action_space("player_0").n == 229
    act(env, "token:4")
    assert env.unwrapped.state()["talk"] == [["player_0", "token:4"]]
    assert phase(env) == "play"
    with pytest.raises(ValueError, match="unknown action string 'token:6'"):
        env.unwrapped.string_to_action("token:6")


def test_five_players_lone_dealer_does_not_talk_and_the_four_see_a_show():
    env = _five_player_env(talk="lexicon")
    act(env, "play_alone")
    decline_exchanges(env)
    act_as(env, "player_2", "show:" + env.unwrapped.state()["hands"]["player_2"][0])
    act(env, legal(env)[0])
    act_as(env, "player_3", "silent")
    act(env, legal(env)[0])
    assert env.agent_selection == "player_4" and phase(env) == "play"
    talk_offset = obs_offset("talk", players=5, talk="lexicon")
    for agent in ("player_0", "player_1", "player_3", "player_4"):
        slot = env.observe(agent)["observation"][talk_offset: talk_offset + 5 + 26 + 16]
        assert slot[5 + 25] == 1 and (slot[31:].sum() == 2) == (agent != "player_4")
