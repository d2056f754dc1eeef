"""Asserufen rules, table-driven: bidding ladder, darf man, calling, the called-card rules, contra, values
and the source's worked examples (docs/rules/palatinate_schafkopf.md sections 1 and 3)."""

import numpy as np
import pytest

from schafkopf_env import asserufen_v0
from schafkopf_env.asserufen import kernel as K
from schafkopf_env.asserufen.reference import AsserufenReference
from trick_core.aec import IllegalActionError
from trick_core.cards import FRENCH_32

POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}


def forehand_first(*hands: str) -> dict[str, list[str]]:
    """The hands of a deal by player_0: forehand (player_1) first, the dealer last."""
    return {f"player_{(seat + 1) % 4}": cards.split() for seat, cards in enumerate(hands)}


# Dealer player_0, so player_1 is forehand. player_1 lacks CA but holds clubs; player_2 holds all three
# aces; player_3 and player_0 each hold a plain card of a suit whose ace they lack.
DEAL_A = forehand_first(
    "CQ SQ HQ HA H10 HK C10 C9", "DQ CA SJ HJ H9 SA DA D10", "CJ DJ H8 CK C8 SK S9 DK", "H7 C7 S10 S8 S7 D9 D8 D7"
)
# player_1 holds only trumps; player_2 holds hearts and clubs with CA (no darf man).
DEAL_B = forehand_first(
    "CQ SQ HQ DQ CJ SJ HJ DJ", "HA H10 HK H9 H8 H7 CA C10", "CK C9 C8 C7 SA S10 SK S9", "S8 S7 DA D10 DK D9 D8 D7"
)
# Ace-call game by player_1 calling CA; player_3 holds CA with two more clubs and no trump.
DEAL_C = forehand_first(
    "CQ SQ HQ DQ HA H10 C9 S9", "CJ SJ HJ DJ HK C10 CK S8", "CA C8 C7 S10 SK D10 DK D9", "H9 H8 H7 SA S7 DA D8 D7"
)
# As DEAL_C but the partner player_3 holds four clubs (it may run away).
DEAL_D = forehand_first(
    "CQ SQ HQ DQ HA H10 C9 S9", "CJ SJ HJ DJ HK C10 S8 D8", "CA CK C8 C7 S10 SK D10 DK", "H9 H8 H7 SA S7 DA D9 D7"
)


def new_env(hands, dealer=0, **config):
    env = asserufen_v0.raw_env(**config)
    env.reset(options={"dealer": dealer, "hands": hands})
    return env


def play(env, actions):
    for action in actions:
        env.step(env.string_to_action(action))


def legal(env):
    return set(env.legal_action_strings())


def total_rewards(env):
    return [env._cumulative_rewards[a] for a in env.possible_agents]


def reference_replay(hands, actions, dealer=0):
    """The same deal and actions on the plain-Python reference (``hands`` keyed by player name)."""
    game = AsserufenReference(dealer, [hands[f"player_{seat}"] for seat in range(4)])
    for action in actions:
        game.apply(action)
    return game


# ------------------------------------------------------------------ bidding


BIDDING_CASES = [
    # (bids already said from forehand, legal bids of the next speaker)
    ([], {"weg", "haenge_an", "solo", "heart_solo", "solo_du", "heart_solo_du"}),
    (["weg"], {"weg", "haenge_an", "solo", "heart_solo", "solo_du", "heart_solo_du"}),
    (["haenge_an"], {"weg", "solo", "heart_solo", "solo_du", "heart_solo_du"}),  # player_2 holds every ace
    (["haenge_an", "weg"], {"weg", "darf_man", "solo", "heart_solo", "solo_du", "heart_solo_du"}),
    (["haenge_an", "weg", "darf_man"], {"weg", "solo", "heart_solo", "solo_du", "heart_solo_du"}),
    (["haenge_an", "weg", "weg"], {"weg", "darf_man", "solo", "heart_solo", "solo_du", "heart_solo_du"}),
    (["solo"], {"weg", "heart_solo", "solo_du", "heart_solo_du"}),
    (["weg", "heart_solo"], {"weg", "solo_du", "heart_solo_du"}),
    (["haenge_an", "solo_du"], {"weg", "heart_solo_du"}),
    (["haenge_an", "weg", "heart_solo_du"], {"weg"}),
]


@pytest.mark.parametrize(("said", "expected"), BIDDING_CASES)
def test_bidding_ladder(said, expected):
    env = new_env(DEAL_A)
    play(env, said)
    assert legal(env) == expected
    assert set(reference_replay(DEAL_A, said).legal_actions()) == expected


@pytest.mark.parametrize(
    ("hand", "may"),
    [
        ("C9", True),  # a club without CA
        ("CA C9", False),  # the ace of the only suit held
        ("CA C9 S7", True),  # spades without SA
        ("CQ CJ SQ HJ", False),  # Queens and Jacks are trumps, not plain cards
        ("HA H10 H9 HK", False),  # hearts are trump in the base game
        ("HA CA SA DA C10 S9 D7", False),  # every suit held with its ace
        ("D7", True),
        ("", False),
    ],
)
def test_darf_man_condition(hand, may):
    assert K.may_say_darf_man(np.uint64(FRENCH_32.mask_of(hand.split()))) == may
    assert AsserufenReference(3, [hand.split(), [], [], []]).may_say_darf_man(0) == may


def test_darf_man_is_refused_to_a_player_with_only_aced_suits_and_hearts():
    env = new_env(DEAL_B)
    play(env, ["haenge_an"])
    assert "darf_man" not in legal(env)  # player_2: hearts and CA C10 only
    play(env, ["weg"])
    assert "darf_man" in legal(env)  # player_3: clubs without CA


def test_accept_lets_the_darf_man_bidder_declare():
    env = new_env(DEAL_A)
    play(env, ["haenge_an", "weg", "darf_man", "weg"])
    assert env.agent_selection == "player_1" and legal(env) == {"accept", "refuse"}
    play(env, ["accept"])
    st = env.state()
    assert (st["declarer"], st["contract"], st["phase"], st["current_player"]) == (
        "player_3",
        "ace_call",
        "call",
        "player_3",
    )


def test_refuse_makes_the_haenge_an_player_declare():
    env = new_env(DEAL_A)
    play(env, ["haenge_an", "weg", "darf_man", "weg", "refuse"])
    st = env.state()
    assert (st["declarer"], st["contract"], st["current_player"]) == ("player_1", "ace_call", "player_1")


def test_haenge_an_alone_declares_and_a_solo_overbids_it():
    env = new_env(DEAL_A)
    play(env, ["haenge_an", "weg", "weg", "weg"])
    assert env.state()["declarer"] == "player_1" and env.state()["phase"] == "call"
    env = new_env(DEAL_A)
    play(env, ["haenge_an", "weg", "darf_man", "solo"])
    st = env.state()
    assert (st["declarer"], st["contract"], st["phase"]) == ("player_0", "solo", "trump")
    declarer_names_trump(env, "S")


def declarer_names_trump(env, suit: str) -> None:
    """The declarer to act chooses among the three plain suits; then the contra round opens."""
    assert legal(env) == {"trump:C", "trump:S", "trump:D"}
    play(env, [f"trump:{suit}"])
    assert env.state()["trump"] == suit and env.state()["phase"] == "contra_offer"


@pytest.mark.parametrize("bid", ["solo", "solo_du"])
def test_a_solo_du_declarer_names_trump_as_a_solo_declarer_does(bid):
    """Pinned: in a Solo Du the declarer names trump as in a Solo (clubs, spades or diamonds)."""
    env = new_env(DEAL_A)
    play(env, ["weg", bid, "weg", "weg"])
    st = env.state()
    assert (st["contract"], st["declarer"], st["phase"], st["current_player"]) == (bid, "player_2", "trump", "player_2")
    declarer_names_trump(env, "D")


@pytest.mark.parametrize("bid", ["heart_solo", "heart_solo_du"])
def test_heart_solos_take_hearts_without_naming(bid):
    env = new_env(DEAL_A)
    play(env, ["weg", bid, "weg", "weg"])
    st = env.state()
    assert (st["contract"], st["trump"], st["declarer"]) == (bid, "H", "player_2")
    assert st["phase"] == "contra_offer" and st["current_player"] == "player_1"


def test_all_weg_throws_the_hand_in():
    env = new_env(DEAL_A)
    play(env, ["weg"] * 4)
    assert all(env.terminations.values())
    assert total_rewards(env) == [0.0, 0.0, 0.0, 0.0]
    assert env.state()["contract"] is None and env.game_record()["result"] == [0.0] * 4


# ------------------------------------------------------------------ calling


@pytest.mark.parametrize(
    ("hand", "callable_cards"),
    [
        ("C9 S8 HQ HA", {"CA", "SA"}),  # aces of suits held, not diamonds
        ("CA C9 S8 HQ", {"SA"}),
        ("CA C9 SA S8 HQ", {"DA"}),  # aces of every suit held: an ace of a lacking suit
        ("CQ SQ HQ DQ CJ SJ HJ DJ", {"CA", "SA", "DA"}),  # no plain card at all
        ("CQ CJ SA S9 HA", {"CA", "DA"}),  # Queen and Jack of clubs are no clubs
        ("D9 CA SA HK", {"DA"}),
        ("CA SA DA C10 HQ HJ H9 S9", {"S10", "D10"}),  # all three aces: a ten not held
        ("CA SA DA HQ", {"C10", "S10", "D10"}),
        ("CA SA DA C10 S10 D10 CK HQ", {"SK", "DK"}),  # aces and tens: a King not held
    ],
)
def test_callable_cards(hand, callable_cards):
    mask = K.callable_cards(np.uint64(FRENCH_32.mask_of(hand.split())))
    assert set(FRENCH_32.names_of(int(mask))) == callable_cards
    calls = AsserufenReference(3, [hand.split(), [], [], []]).legal_calls(0)
    assert {call[5:] + "A" if len(call) == 6 else call[5:] for call in calls} == callable_cards


def test_call_actions_in_the_env_and_the_partner_is_the_holder():
    env = new_env(DEAL_A)
    play(env, ["haenge_an", "weg", "weg", "weg"])
    assert legal(env) == {"call:C"}  # clubs held without the ace; no spade or diamond
    play(env, ["call:C"])
    st = env.state()
    assert (st["called_card"], st["partner"], st["partner_known"]) == ("CA", "player_2", False)
    env = new_env(DEAL_B)
    play(env, ["haenge_an", "weg", "weg", "weg"])
    assert legal(env) == {"call:C", "call:S", "call:D"}


@pytest.mark.parametrize(
    ("declarer_hand", "expected"),
    [
        ("CA SA DA C10 HQ HJ H9 S9", {"call:S10", "call:D10"}),
        ("CA SA DA C10 S10 D10 HQ CK", {"call:SK", "call:DK"}),
    ],
)
def test_ten_and_king_calls_in_the_env(declarer_hand, expected):
    rest = [c for c in FRENCH_32.names_of(FRENCH_32.full_mask) if c not in declarer_hand.split()]
    hands = {"player_1": declarer_hand.split(), "player_2": rest[:8], "player_3": rest[8:16], "player_0": rest[16:]}
    env = new_env(hands)
    play(env, ["haenge_an", "weg", "weg", "weg"])
    assert legal(env) == expected
    call = sorted(expected)[0]
    play(env, [call])
    called = call.split(":")[1]
    partner = next(a for a, h in hands.items() if called in h)
    assert env.state()["called_card"] == called and env.state()["partner"] == partner


def test_darf_man_declarer_always_holds_a_card_of_the_called_suit():
    env = asserufen_v0.raw_env()
    found = 0
    for seed in range(300):
        env.reset(seed=seed)
        while env.state()["phase"] == "bidding":
            bid = next(b for b in ("haenge_an", "darf_man", "weg") if b in legal(env))
            play(env, [bid])
        if env.state()["phase"] != "answer":
            continue
        play(env, ["accept"])
        found += 1
        hand = env.state()["hands"][env.state()["declarer"]]
        for call in env.legal_action_strings():
            suit = call.split(":")[1][0]
            assert any(c[0] == suit and c[1:] not in ("Q", "J") for c in hand), (hand, call)
    assert found > 50


# ------------------------------------------------------------------ the called card in play


def called_state(hand, trick=(), done=False, partner=2, leader=0):
    """A kernel state in play of an ace-call game with CA called; ``partner`` holds ``hand`` and is to
    play after ``trick`` (cards led from ``leader``)."""
    state = np.zeros(K.STATE_SIZE, dtype=np.int64)
    K.init_state(state, K.make_params(), 3, np.arange(32))
    state[K.S_CONTRACT] = K.CONTRACT_ACE_CALL
    state[K.S_TRUMP_KIND] = 2
    state[K.S_DECLARER] = 1
    state[K.S_CALLED_CARD] = FRENCH_32.parse("CA")
    state[K.S_PARTNER] = partner
    state[K.S_CALLED_SUIT_DONE] = int(done)
    state[K.S_PHASE] = K.PHASE_PLAY
    state[K.S_HANDS + partner] = FRENCH_32.mask_of(hand.split())
    state[K.S_TRICK_LEADERS] = leader
    for i, card in enumerate(trick):
        state[K.S_TRICK_CARDS + i] = FRENCH_32.parse(card)
    state[K.S_TRICK_SIZE] = len(trick)
    state[K.S_SEAT_TO_ACT] = partner
    return state


@pytest.mark.parametrize(
    ("hand", "trick", "done", "expected", "rule"),
    [
        ("CA C9 C8 HA S7", ["C10"], False, "CA", "1: another player led the called suit first"),
        ("CA C9 C8 HA S7", ["C10"], True, "CA C9 C8", "after the first club trick: follow freely"),
        ("CA C9 C8 HA S7", [], False, "CA HA S7", "2: lead the ace, not a lower club"),
        ("CA CK C9 C8 HA", [], False, "CA CK C9 C8 HA", "4: four clubs may run away"),
        ("CA CQ CJ C9 HA", [], False, "CA CQ CJ HA", "2: Queen and Jack are trumps, two clubs only"),
        ("CA C9 C8", [], False, "CA", "2: only clubs and fewer than four"),
        ("CA C9 S7 D7", ["HA"], False, "C9 S7 D7", "3: no discarding the ace to a trump trick"),
        ("CA C9 S7 D7", ["SA"], False, "S7", "follow spades"),
        ("CA D7", ["S8", "SA"], False, "D7", "3: not discarded to a spade trick"),
        ("CA", ["S8", "SA"], False, "CA", "3: unless it is the last card"),
        ("CA C9 S7 D7", ["HA"], True, "CA C9 S7 D7", "rules over: discard freely"),
    ],
)
def test_called_card_rules(hand, trick, done, expected, rule):
    leader = (2 - len(trick)) % 4
    state = called_state(hand, trick, done, leader=leader)
    mask = K.legal_card_bits(state, 2)
    assert set(FRENCH_32.names_of(int(mask))) == set(expected.split()), rule
    # the reference in the same position: CA called by player_1, hearts trump, partner player_2 to play
    game = AsserufenReference(3, [[] for _ in range(4)])
    game.contract, game.trump_suit, game.declarer, game.partner, game.called_card = "ace_call", "H", 1, 2, "CA"
    game.phase, game.called_suit_rules_over = "play", done
    game.trick = [((leader + i) % 4, card) for i, card in enumerate(trick)]
    game.hands[2] = set(hand.split())
    assert set(game.legal_cards(2)) == set(expected.split()), rule


def test_called_card_rules_do_not_bind_other_players():
    state = called_state("C9 C8 HA S7", ["C10"], False, partner=2)
    state[K.S_PARTNER] = 3  # the holder is someone else
    assert set(FRENCH_32.names_of(int(K.legal_card_bits(state, 2)))) == {"C9", "C8"}


def test_rule_3_and_rule_1_in_a_played_hand():
    env = new_env(DEAL_C)
    play(env, ["haenge_an", "weg", "weg", "weg", "call:C"])
    assert env.state()["partner"] == "player_3"
    play(env, ["HA", "no_double", "HK", "no_double"])
    assert legal(env) == {"C8", "C7", "S10", "SK", "D10", "DK", "D9"}  # rule 3: no trump, CA kept
    play(env, ["S10", "no_double", "H7"])
    assert env.state()["tricks"][0]["winner"] == "player_1"
    play(env, ["C9", "C10"])
    assert legal(env) == {"CA"}  # rule 1
    play(env, ["CA", "SA"])
    st = env.state()
    assert st["partner_known"] and st["called_suit_rules_over"] and not st["ran_away"]


def test_rule_2_partner_leading_with_three_clubs():
    env = new_env(DEAL_C)
    play(env, ["haenge_an", "weg", "weg", "weg", "call:C"])
    play(env, ["S9", "no_double", "S8", "no_double", "S10", "no_double", "S7"])
    assert env.state()["tricks"][0]["winner"] == "player_3"
    assert legal(env) == {"CA", "SK", "D10", "DK", "D9"}


def test_running_away_releases_the_partner_and_makes_it_public():
    env = new_env(DEAL_D)
    play(env, ["haenge_an", "weg", "weg", "weg", "call:C"])
    play(env, ["S9", "no_double", "S8", "no_double", "S10", "no_double", "S7"])
    assert env.state()["tricks"][0]["winner"] == "player_3"
    assert {"CA", "CK", "C8", "C7"} <= legal(env)  # four clubs: may run away
    play(env, ["C7"])
    assert not env.state()["partner_known"]  # not public before the trick is complete
    play(env, ["D9", "C9", "C10"])  # player_0 has no club
    st = env.state()
    assert st["ran_away"] and st["partner_known"] and st["called_suit_rules_over"]
    assert st["tricks"][1]["winner"] == "player_2"
    play(env, ["HK"])  # a trump led: the partner, void in trumps, may now discard the called ace
    assert "CA" in legal(env)
    observation = env.observe("player_0")["observation"]
    assert observation[127] == 1.0 and observation[128 + 3] == 1.0  # player_3 is public (right of player_0)


def test_partner_knows_itself_others_do_not():
    env = new_env(DEAL_A)
    play(env, ["haenge_an", "weg", "weg", "weg", "call:C"])
    for agent in env.possible_agents:
        obs = env.observe(agent)["observation"]
        partner_slots = obs[128:132]
        if agent == "player_2":
            assert partner_slots.tolist() == [1, 0, 0, 0]
        else:
            assert not partner_slots.any()


# ------------------------------------------------------------------ contra


def test_contra_offered_to_each_non_declarer_at_first_card_partner_only_declines():
    env = new_env(DEAL_C)
    play(env, ["haenge_an", "weg", "weg", "weg", "call:C"])
    assert env.agent_selection == "player_1" and env.state()["phase"] == "play"  # the declarer: no offer
    play(env, ["HA"])
    assert env.state()["phase"] == "contra_offer" and legal(env) == {"contra", "no_double"}
    play(env, ["no_double", "HK"])
    assert env.agent_selection == "player_3" and legal(env) == {"no_double"}  # the hidden partner
    play(env, ["no_double", "S10"])
    assert env.agent_selection == "player_0" and legal(env) == {"contra", "no_double"}
    play(env, ["no_double", "H7"])
    assert env.state()["phase"] == "play" and env.state()["doublings"] == 0
    assert not env.state()["partner_known"]


def test_contra_round_re_reveals_partner_and_asking_restarts():
    env = new_env(DEAL_C)
    play(env, ["haenge_an", "weg", "weg", "weg", "call:C", "HA", "contra"])
    asked = []
    # After player_2's contra everyone else is asked from its left: player_3 (partner), 0, 1.
    assert env.agent_selection == "player_3" and legal(env) == {"re", "no_double"}
    play(env, ["re"])
    st = env.state()
    assert st["partner_known"] and st["doublings"] == 2 and st["doublers"] == ["player_2", "player_3"]
    for expected_agent, expected_legal, answer in [
        ("player_0", {"re", "no_double"}, "no_double"),  # opponents are the doubled side now
        ("player_1", {"no_double"}, "no_double"),
        ("player_2", {"re", "no_double"}, "re"),
        ("player_3", {"re", "no_double"}, "no_double"),
        ("player_0", {"no_double"}, "no_double"),
        ("player_1", {"re", "no_double"}, "no_double"),
    ]:
        asked.append(env.agent_selection)
        assert (env.agent_selection, legal(env)) == (expected_agent, expected_legal)
        play(env, [answer])
    assert env.agent_selection == "player_2" and env.state()["phase"] == "play"
    assert env.state()["doublings"] == 3
    play(env, ["HK"])
    assert env.agent_selection == "player_3" and env.state()["phase"] == "play"  # no more offers


def test_the_doubling_cap_is_four_by_default():
    """Pinned: contra and re are capped by an environment option, default 4 (as in the three-player game)."""
    assert asserufen_v0.raw_env().config["max_doublings"] == 4
    assert K.make_params().tolist() == K.make_params(max_doublings=4).tolist()


def test_doubling_stops_at_the_cap():
    env = new_env(DEAL_C, max_doublings=2)
    play(env, ["haenge_an", "weg", "weg", "weg", "call:C", "HA", "contra", "no_double", "no_double", "re"])
    assert env.state()["doublings"] == 2
    assert env.agent_selection == "player_2" and env.state()["phase"] == "play"
    env = new_env(DEAL_C, max_doublings=1)
    play(env, ["haenge_an", "weg", "weg", "weg", "call:C", "HA", "contra"])
    assert env.agent_selection == "player_2" and env.state()["phase"] == "play"


def test_no_contra_offers_without_doublings():
    env = new_env(DEAL_C, max_doublings=0)
    play(env, ["haenge_an", "weg", "weg", "weg", "call:C", "HA", "HK", "S10", "H7"])
    assert env.state()["phase"] == "play" and len(env.state()["tricks"]) == 1


def test_opponent_cannot_double_its_own_side_again():
    env = new_env(DEAL_C)
    play(env, ["haenge_an", "weg", "weg", "weg", "call:C", "HA", "no_double", "HK", "no_double", "S10", "contra"])
    # player_0 doubled: player_1 (declarer) and player_2... player_2 is an opponent: only no_double.
    assert (env.agent_selection, legal(env)) == ("player_1", {"re", "no_double"})
    play(env, ["no_double"])
    assert (env.agent_selection, legal(env)) == ("player_2", {"no_double"})
    play(env, ["no_double"])
    assert (env.agent_selection, legal(env)) == ("player_3", {"re", "no_double"})
    play(env, ["no_double"])
    assert env.agent_selection == "player_0" and env.state()["phase"] == "play"


def test_solo_offers_only_to_the_three_opponents():
    env = new_env(DEAL_A)
    play(env, ["weg", "heart_solo", "weg", "weg"])
    offered = []
    while len(env.state()["tricks"]) == 0:
        if env.state()["phase"] == "contra_offer":
            offered.append(env.agent_selection)
            assert legal(env) == {"contra", "no_double"}
            play(env, ["no_double"])
        else:
            play(env, [env.legal_action_strings()[0]])
    assert offered == ["player_1", "player_3", "player_0"]


# ------------------------------------------------------------------ values


def test_source_example_ace_call_worth_six():
    """Side with the top four trumps (CQ SQ HQ DQ, CJ against) takes 94: 1 + schneider + with 4 = 6."""
    env = new_env(DEAL_A)
    actions = ["haenge_an", "weg", "weg", "weg", "call:C"] + (
        "C10 no_double CA no_double C8 no_double C7 H9 DJ H7 H10 SK S10 HA SA HQ DQ CJ S7 SQ HJ H8 D9 "
        "C9 D10 CK S8 S9 D7 HK DA CQ SJ DK D8".split()
    )
    play(env, actions)
    st = env.state()
    side = {"player_1", "player_2"}
    side_points = sum(POINTS[c[1:]] for t in st["tricks"] if t["winner"] in side for _, c in t["cards"])
    assert side_points == 94
    assert st["score"]["hoch"] == 4 and st["score"]["schneider"] == 1 and st["score"]["value"] == 6
    assert total_rewards(env) == [-6.0, 6.0, 6.0, -6.0]  # each opponent pays 6, declarer and partner get 6
    game = reference_replay(DEAL_A, actions)
    assert game.hoch() == 4 and game.game_value() == (True, 6)  # no hearts point in the ace-call game
    assert game.settlement() == [-6, 6, 6, -6]


def test_source_example_heart_solo_worth_two():
    """Heart Solo, declarer holds CQ SQ but not HQ, takes 65: game 1 + hearts 1 = 2; declarer wins 6."""
    hands = {
        "player_1": "CQ SQ HA H10 HK H9 CA SA".split(),
        "player_2": "HQ DQ CJ C10 C9 S10 S9 D7".split(),
        "player_3": "SJ HJ DJ H8 CK C8 SK DK".split(),
        "player_0": "H7 C7 S8 S7 DA D10 D9 D8".split(),
    }
    env = new_env(hands)
    actions = ["heart_solo", "weg", "weg", "weg"] + (
        "SA no_double S10 no_double SK no_double S8 CQ DQ HJ H7 HK CJ DJ D10 D7 DK D9 H9 H10 HQ H8 DA S9 "
        "SJ S7 CA C8 C7 SQ C10 HA C9 CK D8".split()
    )
    play(env, actions)
    st = env.state()
    declarer_points = sum(POINTS[c[1:]] for t in st["tricks"] if t["winner"] == "player_1" for _, c in t["cards"])
    assert declarer_points == 65
    assert st["score"]["hoch"] == 0 and st["score"]["hearts"] == 1 and st["score"]["value"] == 2
    assert total_rewards(env) == [-2.0, 6.0, -2.0, -2.0]
    game = reference_replay(hands, actions)
    assert game.hoch() == 0 and game.game_value() == (True, 2)  # the hearts point, no solo point
    assert game.settlement() == [-2, 6, -2, -2]


def test_lost_du_ends_at_the_first_trick_the_opponents_win():
    env = new_env(DEAL_A)
    play(env, ["weg", "weg", "weg", "heart_solo_du"])  # player_0 declares, holding H7 as only trump
    play(env, ["no_double", "HA", "no_double", "DQ", "no_double", "H8", "H7"])
    assert all(env.terminations.values())
    st = env.state()
    assert len(st["tricks"]) == 1 and st["tricks"][0]["winner"] == "player_2"
    # game 1 + hearts 1 + schneider 1 + schwarz 1 (Du counts both, lost too) + hoch: the opponents held
    # CQ SQ HQ DQ CJ SJ HJ DJ and H-A H10 HK H9 H8 ("without 13") -> 17, x2 for Du = 34.
    assert st["score"]["hoch"] == 13 and st["score"]["value"] == 34
    assert total_rewards(env) == [-102.0, 34.0, 34.0, 34.0]


def test_illegal_action_names_the_move_and_the_legal_ones():
    env = new_env(DEAL_A)
    with pytest.raises(IllegalActionError, match="darf_man.*legal now: weg, haenge_an"):
        env.step(env.string_to_action("darf_man"))
    assert issubclass(IllegalActionError, ValueError)
