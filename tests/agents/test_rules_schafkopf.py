"""The rule-based Schafkopf players (``agents.rules.bavarian``, ``palatinate``, ``asserufen``):
legal and deterministic play, no peeking, and the club player's decisions in set situations."""


import numpy as np
import pytest

from agents import make
from agents.arena import run_arena
from agents.rules.schafkopf_card_play import OPPONENT, PARTNER, PlayView, choose_card
from agents.rules.schafkopf_strength import suit_game_strength, trump_stopper, wins_every_trick
from trick_core.cards import FRENCH_32, GERMAN_32
from trick_core.registry import make_env

VARIANTS = [("bavarian", {}), ("palatinate", {}), ("palatinate", {"players": 4}), ("asserufen", {})]
VARIANT_IDS = ["bavarian", "palatinate", "palatinate-players=4", "asserufen"]


def play_hand(env, seat_agents, seed):
    """Play one hand; every chosen action must be a plain int legal under the actor's own mask."""
    env.reset(seed=seed)
    actions = []
    while not env.terminations[env.agent_selection]:
        agent = env.agent_selection
        mask = env.observe(agent)["action_mask"].copy()
        action = seat_agents[env.possible_agents.index(agent)].act(env, agent)
        assert type(action) is int, f"{action!r} is not a plain int"
        assert mask[action] == 1, f"{agent} chose illegal {env.unwrapped.action_to_string(action)}"
        actions.append(action)
        env.step(action)
    return actions


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
def test_only_legal_actions_against_rules_and_random_tables(game, config):
    env = make_env(game, **config)
    rules, random = make("rules", game, seed=3), make("random", game, seed=4)
    seats = len(env.possible_agents)
    for hand in range(200):
        # A third of the hands all rules players, the rest mixed: the random ones bid and double wildly.
        seat_agents = [rules if hand % 3 == 0 or (hand + seat) % 2 else random for seat in range(seats)]
        play_hand(env, seat_agents, seed=hand)


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
def test_same_seed_same_play(game, config):
    """Two rules agents built with the same seed play every hand identically (their speed is measured
    in ``benchmarks``, not here)."""
    env = make_env(game, **config)
    first, second = make("rules", game, seed=9), make("rules", game, seed=9)
    seats = len(env.possible_agents)
    for hand in range(30):
        one = play_hand(env, [first] * seats, seed=500 + hand)
        assert one and play_hand(env, [second] * seats, seed=500 + hand) == one


def _twin_points(game, config, count, seed):
    """Decision points with a twin table that differs only in cards hidden from the acting seat."""
    rng = np.random.default_rng(seed)
    env = make_env(game, **config)
    rules = make("rules", game, seed=1)
    found, hand = [], 0
    while len(found) < count:
        env.reset(seed=seed * 100 + hand)
        hand += 1
        while not env.terminations[env.agent_selection]:
            agent = env.agent_selection
            if len(env.unwrapped.legal_actions()) > 1 and rng.random() < 0.2:
                world = env.unwrapped.resample_from_infostate(agent, int(rng.integers(2**31)))
                twin = make_env(game, **config)
                twin.reset(options=world.game_record()["deal"])
                for _actor, action in world.game_record()["actions"]:
                    twin.step(twin.unwrapped.string_to_action(action))
                if twin.unwrapped.state()["hands"] != env.unwrapped.state()["hands"]:
                    found.append((env.unwrapped.clone(), twin))
                    break
            env.step(rules.act(env, agent))
    return found


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
def test_no_peeking_twin_tables_get_the_same_decision(game, config):
    decisions = set()
    for index, (table, twin) in enumerate(_twin_points(game, config, count=25, seed=31)):
        agent = table.agent_selection
        seen, seen_twin = table.observe(agent), twin.observe(agent)
        np.testing.assert_array_equal(seen["observation"], seen_twin["observation"])
        np.testing.assert_array_equal(seen["action_mask"], seen_twin["action_mask"])
        choice = make("rules", game, seed=index).act(table, agent)
        assert make("rules", game, seed=index).act(twin, agent) == choice
        decisions.add(table.unwrapped.action_to_string(choice))
    assert len(decisions) > 5  # the points cover many different decisions, not one trivial answer


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
def test_rules_beat_random_in_the_arena(game, config):
    summary = run_arena(game, ["rules", "random"], hands=6, seed=2, config=config)
    low, _ = summary["difference"]["ci95"]
    assert low > 0, summary["difference"]


def test_thresholds_can_be_overridden_and_bad_ones_are_named():
    agent = make("rules[solo=12.5]", "bavarian")
    assert agent.thresholds.solo == 12.5
    with pytest.raises(ValueError, match="unknown option 'bogus'"):
        make("rules", "asserufen", bogus=1)
    with pytest.raises(ValueError, match="must be a number"):
        make("rules", "palatinate", simple="high")


# ---------------------------------------------------------------------------------------------- helpers


def german(names: str) -> list[str]:
    return names.split()


def fixed_bavarian(hands: dict, dealer: int = 3):
    env = make_env("bavarian")
    rest = [c for c in GERMAN_32.names_of(GERMAN_32.full_mask) if not any(c in h for h in hands.values())]
    full = {}
    for seat in range(4):
        agent = f"player_{seat}"
        cards = list(hands.get(agent, []))
        while len(cards) < 8:
            cards.append(rest.pop(0))
        full[agent] = cards
    env.reset(options={"dealer": dealer, "hands": full})
    return env


def step(env, *moves):
    for move in moves:
        env.step(env.unwrapped.string_to_action(move))


def decide(env, game, seed=0) -> str:
    agent = make("rules", game, seed=seed)
    return env.unwrapped.action_to_string(agent.act(env, env.agent_selection))


# ---------------------------------------------------------------------------------------------- Bavarian


@pytest.mark.parametrize(
    ("hand", "decisions"),
    [
        ("EO GO HO SO EU GU HU SU", ["sie"]),
        ("EO GO HO SO EU GU HA H10", ["solo_tout", "trump:H"]),  # a hand that takes every trick
        ("EU GU EA E10 EK GA S9 S8", ["wenz"]),
        ("EU GU HU EA E10 GA SA S10", ["wenz_tout"]),  # nothing can go wrong
        ("EO GO EU HA H10 G7 S7 S8", ["rufer", "call:G"]),  # the ace of its shortest suit
        ("SO HU H8 E7 E8 G9 S7 S9", ["pass"]),
        ("EO GO HO EU GU GA G10 EA", ["solo", "trump:G"]),  # many high trumps
    ],
    ids=["sie", "solo-tout", "wenz", "wenz-tout", "rufer", "weak-pass", "solo"],
)
def test_bavarian_bids_by_the_hand(hand, decisions):
    """player_0's decisions, the others passing after each bid."""
    env = fixed_bavarian({"player_0": german(hand)})
    for bid, expected in enumerate(decisions):
        assert decide(env, "bavarian") == expected
        if bid < len(decisions) - 1:
            step(env, expected, "pass", "pass", "pass")


def test_bavarian_bids_no_solo_tout_when_a_trick_could_be_lost():
    weaker = fixed_bavarian({"player_0": german("EO GO HO SO EU HU HA H10")})  # GU is out: not sure
    assert decide(weaker, "bavarian") != "solo_tout"


def test_bavarian_rufer_may_call_the_aces_of_the_plain_suits_it_holds():
    env = fixed_bavarian({"player_0": german("EO GO EU HA H10 G7 S7 S8")})
    step(env, "rufer", "pass", "pass", "pass")
    assert set(env.unwrapped.legal_action_strings()) == {"call:G", "call:S"}


def test_bavarian_partner_schmiers_an_ace_to_the_declarers_top_trump():
    env = fixed_bavarian(
        {
            "player_0": german("EO GO EU GU HA H10 S7 E7"),
            "player_1": german("SA S8 GA G9 G8 E8 E9 EK"),  # holds the called ace, no trump, no ten
        }
    )
    step(env, "rufer", "pass", "pass", "pass", "call:S", "EO")
    assert env.agent_selection == "player_1"
    assert decide(env, "bavarian") == "GA"


def test_bavarian_defender_leads_the_called_suit():
    env = fixed_bavarian(
        {"player_1": german("S7 S9 EA GA E7 G7 H7 HK"), "player_2": german("EO GO HO EU GU HA E8 S8")},
        dealer=0,
    )
    step(env, "pass", "rufer", "pass", "pass", "call:S")
    assert env.agent_selection == "player_1"
    assert decide(env, "bavarian") == "S7"


def test_last_player_ruffs_a_rich_trick_cheaply_and_keeps_its_trumps_for_a_poor_one():
    hand = GERMAN_32.mask_of(["EO", "HA", "H7", "G7", "S9"])
    rich = [(1, GERMAN_32.parse("EA")), (2, GERMAN_32.parse("E10")), (3, GERMAN_32.parse("E8"))]
    poor = [(1, GERMAN_32.parse("E9")), (2, GERMAN_32.parse("E7")), (3, GERMAN_32.parse("E8"))]
    # a safe trump ace banks its eleven points too; the Ober is never wasted on a lost Eichel trick
    for trick, expected in ((rich, {"H7", "HA"}), (poor, {"G7", "S9"})):
        played = sum(1 << card for _, card in trick)
        view = PlayView(
            kind=2,
            hand=hand,
            trick=trick,
            positions_after=[],
            unseen=GERMAN_32.full_mask & ~hand & ~played,
            relation={1: OPPONENT, 2: OPPONENT, 3: OPPONENT},
            declaring=True,
        )
        # void in Eichel: every card is legal
        assert GERMAN_32.name_of(choose_card(view, hand, np.random.default_rng(0))) in expected


def test_partner_winning_safely_gets_points_and_an_opponent_gets_none():
    hand = GERMAN_32.mask_of(["G10", "G7", "S8", "SK"])
    base = dict(
        kind=2,
        hand=hand,
        positions_after=[],
        declaring=False,
        unseen=GERMAN_32.full_mask & ~hand & ~GERMAN_32.mask_of(["EA", "E7", "E8"]),
    )
    trick = [(1, GERMAN_32.parse("EA")), (2, GERMAN_32.parse("E7")), (3, GERMAN_32.parse("E8"))]
    rng = np.random.default_rng(0)
    partner_wins = PlayView(trick=trick, relation={1: PARTNER, 2: OPPONENT, 3: OPPONENT}, **base)
    assert GERMAN_32.name_of(choose_card(partner_wins, hand, rng)) == "G10"
    opponent_wins = PlayView(trick=trick, relation={1: OPPONENT, 2: PARTNER, 3: OPPONENT}, **base)
    assert GERMAN_32.name_of(choose_card(opponent_wins, hand, rng)) in ("G7", "S8")


# ---------------------------------------------------------------------------------------------- Palatinate


def fixed_palatinate(hands: dict, skat: list, dealer: int = 2, players: int = 3):
    env = make_env("palatinate", players=players)
    used = set(skat) | {c for h in hands.values() for c in h}
    rest = [c for c in FRENCH_32.names_of(FRENCH_32.full_mask) if c not in used]
    active = [s for s in range(players) if not (players == 4 and s == dealer)]
    full = {}
    for seat in active:
        cards = list(hands.get(f"player_{seat}", []))
        while len(cards) < 10:
            cards.append(rest.pop(0))
        full[f"player_{seat}"] = cards
    env.reset(options={"dealer": dealer, "hands": full, "skat": skat})
    return env


def test_palatinate_simple_game_discards_the_blank_ten_keeps_trumps_and_names_hearts():
    hand = "CQ HQ CJ HJ HA H10 H9 H8 S10 D7".split()
    env = fixed_palatinate({"player_0": hand}, skat=["C7", "C8"])
    assert decide(env, "palatinate") == "pass"  # not a solo: round one
    step(env, "pass", "pass", "pass")
    assert decide(env, "palatinate") == "simple"
    step(env, "simple")
    discards = []
    for _ in range(2):
        move = decide(env, "palatinate")
        assert move.startswith("discard:")
        discards.append(move.split(":")[1])
        step(env, move)
    assert "S10" in discards
    assert not set(discards) & {"CQ", "HQ", "CJ", "HJ", "HA", "H10", "H9", "H8"}
    assert decide(env, "palatinate") == "trump:H"


def test_palatinate_strong_hand_bids_heart_solo_and_weak_hands_pass_both_rounds():
    env = fixed_palatinate({"player_0": "CQ SQ HQ CJ SJ HA H10 HK CA SA".split()}, skat=["C7", "C8"])
    assert decide(env, "palatinate") == "heart_solo"
    weak = fixed_palatinate({"player_0": "DJ H7 C7 C8 C9 S7 S8 S9 D8 D9".split()}, skat=["DA", "D10"])
    assert decide(weak, "palatinate") == "pass"
    step(weak, "pass", "pass", "pass")
    assert decide(weak, "palatinate") == "pass"


def test_palatinate_contra_against_a_du_with_the_top_queen():
    declarer = "SQ HQ DQ CJ SJ HA H10 HK H9 H8".split()
    env = fixed_palatinate(
        {"player_0": declarer, "player_1": "CQ C7 C8 C9 S7 S8 S9 D7 D8 D9".split()},
        skat=["DA", "D10"],
        dealer=2,
    )
    step(env, "heart_solo_du", "pass", "pass")
    # player_0 (forehand) leads; player_1 is offered contra at its first card
    step(env, env.unwrapped.action_to_string(make("rules", "palatinate").act(env, "player_0")))
    assert env.agent_selection == "player_1"
    assert "contra" in env.unwrapped.legal_action_strings()
    assert decide(env, "palatinate") == "contra"


def test_palatinate_four_players_sitting_out_dealer_is_skipped_in_the_trick_order():
    env = make_env("palatinate", players=4)
    rules = make("rules", "palatinate", seed=0)
    for seed in range(20):
        play_hand(env, [rules] * 4, seed=seed)
        dealer = env.unwrapped.state()["dealer"]
        assert all(dealer not in [a for a, _ in t["cards"]] for t in env.unwrapped.state()["tricks"])


# ---------------------------------------------------------------------------------------------- Asserufen


def fixed_asserufen(hands: dict, dealer: int = 3):
    env = make_env("asserufen")
    used = {c for h in hands.values() for c in h}
    rest = [c for c in FRENCH_32.names_of(FRENCH_32.full_mask) if c not in used]
    full = {}
    for seat in range(4):
        cards = list(hands.get(f"player_{seat}", []))
        while len(cards) < 8:
            cards.append(rest.pop(0))
        full[f"player_{seat}"] = cards
    env.reset(options={"dealer": dealer, "hands": full})
    return env


def test_asserufen_first_bidder_with_an_ace_accepts_darf_man_without_one_refuses():
    with_ace = "CA HQ HJ HA H9 S7 D7 D8".split()
    env = fixed_asserufen({"player_0": with_ace, "player_1": "CQ SQ CJ SJ H10 HK S8 D9".split()})
    assert decide(env, "asserufen") == "haenge_an"
    step(env, "haenge_an")
    assert decide(env, "asserufen") == "darf_man"  # player_1: good trumps, no ace
    step(env, "darf_man", "weg", "weg")
    assert decide(env, "asserufen") == "accept"
    without_ace = "DQ HQ HJ HA H10 H9 S7 D7".split()
    env = fixed_asserufen({"player_0": without_ace, "player_1": "CQ SQ CJ SJ HK H8 S8 D9".split()})
    step(env, "haenge_an", "darf_man", "weg", "weg")
    assert decide(env, "asserufen") == "refuse"


def test_asserufen_declarer_calls_a_short_suit_it_holds():
    env = fixed_asserufen({"player_0": "CQ SQ DQ CJ HA H10 C7 D7".split()})
    step(env, "haenge_an", "weg", "weg", "weg")
    assert set(env.unwrapped.legal_action_strings()) == {"call:C", "call:D"}
    assert decide(env, "asserufen") in ("call:C", "call:D")
    env = fixed_asserufen({"player_0": "CQ SQ DQ CJ HA H10 C7 D7".split()})
    step(env, "haenge_an", "weg", "weg", "weg")
    # both suits hold one card; the seed breaks the tie, the same way every time
    assert {decide(env, "asserufen", seed=s) for s in range(8)} == {"call:C", "call:D"}


def test_asserufen_weak_opponent_does_not_double_a_heart_solo():
    env = fixed_asserufen(
        {"player_0": "CQ SQ HQ DQ CJ SJ HA H10".split(), "player_1": "C7 C8 C9 S7 S8 S9 D7 D8".split()}
    )
    assert decide(env, "asserufen") == "heart_solo_du"  # eight top trumps: a sure Du
    step(env, "heart_solo", "weg", "weg", "weg")
    step(env, decide(env, "asserufen"))  # the declarer leads
    assert env.agent_selection == "player_1"
    assert "contra" in env.unwrapped.legal_action_strings()
    assert decide(env, "asserufen") == "no_double"


# ---------------------------------------------------------------------------------------------- evaluation


def test_hand_evaluation_orders_hands_as_a_club_player_would():
    strong = GERMAN_32.mask_of(["EO", "GO", "EU", "HA", "H10", "H9", "EA", "GA"])
    weak = GERMAN_32.mask_of(["SO", "SU", "H8", "H7", "E7", "G8", "S9", "S7"])
    assert suit_game_strength(strong, 2) > suit_game_strength(weak, 2) + 5
    sure = GERMAN_32.mask_of(["EO", "GO", "HO", "SO", "EU", "GU", "HA", "H10"])
    assert wins_every_trick(sure, 2, leads_first=True)
    assert not wins_every_trick(sure, 2, leads_first=False)  # a plain lead could force a ruff first
    assert trump_stopper(FRENCH_32.mask_of(["CQ"]), 2)
    assert trump_stopper(FRENCH_32.mask_of(["SQ", "H7"]), 2)
    assert not trump_stopper(FRENCH_32.mask_of(["SQ"]), 2)
