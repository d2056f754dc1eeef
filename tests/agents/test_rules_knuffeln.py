"""The rule-based Knüffeln player (``agents.rules.knuffeln``): legal everywhere, blind to hidden cards,
sensible in set situations, honest in its talk, and listening to its partner."""

import numpy as np
import pytest

from agents import make
from agents.rules.knuffeln import RulesAgent
from agents.rules.knuffeln_phrases import (
    CANT_YOU_BEAT,
    CERTAINLY,
    FEEL_BAD,
    I_HAVE_AN_OLE,
    PHRASE_OF_TOKEN,
    TWO_SURE_TRICKS,
    WE_MARCH,
)
from agents.rules.knuffeln_situation import Situation
from agents.rules.knuffeln_table import decode
from knuffeln_env.knuffeln import kernel as K
from trick_core.registry import make_env

RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "4", "3", "2")
DECK = [suit + rank for suit in "CSHD" for rank in RANKS]
OLES = {"H2", "C4", "S8", "H9", "D9"}

LEGALITY_CONFIGS = [
    ({}, 60),
    ({"variant": "hattstedt"}, 50),
    ({"variant": "bernhard1924"}, 50),
    ({"variant": "gruenberg1938"}, 50),
    ({"players": 5}, 60),
    ({"talk": "lexicon"}, 60),
    ({"talk": "lexicon", "players": 5}, 40),
    ({"talk": "tokens:4"}, 40),
    ({"talk": "tokens:8", "players": 5}, 30),
    ({"talk": "lexicon", "variant": "hattstedt"}, 30),
]


def config_id(config):
    return "-".join(f"{k}={v}" for k, v in config.items()) or "default"


# ------------------------------------------------------------------------------------------- helpers


def fixed_env(hands, stock_top, stock_bottom=("D10",), dealer=3, **config):
    """An env dealt ``hands`` (seat -> cards; missing cards filled from the rest of the pack in order) with
    ``stock_top`` turned first and ``stock_bottom`` at the bottom of the stock."""
    players = config.get("players", 4)
    named = [c for cards in hands.values() for c in cards] + list(stock_top) + list(stock_bottom)
    assert len(set(named)) == len(named)
    rest = [c for c in DECK if c not in named]
    dealt = {}
    for seat in range(players):
        if players == 5 and seat == dealer:
            continue
        cards = list(hands.get(seat, []))
        while len(cards) < 9:
            cards.append(rest.pop(0))
        dealt[f"player_{seat}"] = cards
    middle = 12 - len(stock_top) - len(stock_bottom)
    stock = list(stock_top) + [rest.pop(0) for _ in range(middle)] + list(stock_bottom)
    env = make_env("knuffeln", **config)
    env.reset(options={"dealer": dealer, "hands": dealt, "stock": stock})
    return env


def step(env, *actions):
    for action in actions:
        env.step(env.unwrapped.string_to_action(action))


def skip_exchanges(env):
    while env.unwrapped.state()["phase"] in ("ten_exchange", "ole_exchange"):
        step(env, "decline")


def decision(env, **kwargs):
    agent = env.agent_selection
    return env.unwrapped.action_to_string(RulesAgent("knuffeln", seed=0, **kwargs).act(env, agent))


def trick_winner(state, cards):
    """Index (in playing order) of the card winning so far, by the kernel's own rule."""
    ranking = int(K.RANKING_OF_VARIANT[K.VARIANTS.index(state["config"]["variant"])])
    chosen = sum(1 << "CSHD".index(suit) for suit in state["chosen_suits"])
    indices = np.array([card_index(state, c) for c in cards] + [0] * (5 - len(cards)), dtype=np.int64)
    return int(K.trick_winner_position(ranking, chosen, indices, len(cards))), ranking, chosen


def card_index(state, card):
    suit, rank = card[0], card[1:]
    if state["config"]["variant"] == "bernhard1924" and rank == "5":
        rank = "10"
    return "CSHD".index(suit) * 12 + RANKS.index(rank)


# ------------------------------------------------------------------------------------------- legality


def play_hand(env, seat_agents, seed):
    env.reset(seed=seed)
    while not env.terminations[env.agent_selection]:
        agent = env.agent_selection
        mask = env.observe(agent)["action_mask"]
        action = seat_agents[env.possible_agents.index(agent)].act(env, agent)
        assert isinstance(action, int) and mask[action] == 1, env.unwrapped.action_to_string(action)
        env.step(action)


@pytest.mark.parametrize(("config", "hands"), LEGALITY_CONFIGS, ids=[config_id(c) for c, _ in LEGALITY_CONFIGS])
def test_plays_only_legal_actions(config, hands):
    env = make_env("knuffeln", **config)
    rules, random = make("rules", "knuffeln", seed=1), make("random", "knuffeln", seed=2)
    rng = np.random.default_rng(len(config_id(config)))
    for hand in range(hands):
        # all-rules tables half the time, else rules mixed with random seats (which talk at random)
        if hand % 2:
            seat_agents = [rules] * len(env.possible_agents)
        else:
            seat_agents = [rules if rng.random() < 0.5 else random for _ in env.possible_agents]
        play_hand(env, seat_agents, seed=1000 + hand)


def test_make_builds_it_with_keyword_arguments():
    agent = make("rules[listen=false,turn_threshold=0.9]", "knuffeln", seed=3)
    assert isinstance(agent, RulesAgent) and agent.name == "rules"
    assert agent.listen is False and agent.turn_threshold == 0.9
    with pytest.raises(ValueError, match="turn_threshold"):
        RulesAgent("knuffeln", turn_threshold=2)
    with pytest.raises(ValueError, match="knuffeln"):
        RulesAgent("bavarian")


def test_same_table_same_decision_whatever_the_seed():
    env = make_env("knuffeln", talk="lexicon")
    for seed in range(3):
        env.reset(seed=seed)
        while not env.terminations[env.agent_selection]:
            agent = env.agent_selection
            actions = {RulesAgent("knuffeln", seed=s).act(env, agent) for s in (0, 1, 99)}
            assert len(actions) == 1
            env.step(actions.pop())


# ------------------------------------------------------------------------------------------- no peeking


def swapped_twin(env, config, rng):
    """The same table with two never-revealed cards swapped between two other seats' hands (cards that
    could change a past decision's legality -- tens, fives, Queens, Kings -- are left alone)."""
    state = env.unwrapped.state()
    record = env.unwrapped.game_record()
    if state["redeals"]:
        return None
    me = env.agent_selection
    mentioned = {action.split(":")[-1] for _, action in state["history"]}
    for exchange in state["exchanges"]:
        mentioned |= {exchange["gave"], exchange["took"]}
    movable = {
        agent: [c for c in cards if c not in mentioned and c[1:] not in ("10", "5", "Q", "K")]
        for agent, cards in state["hands"].items()
        if agent != me and agent in record["deal"]["hands"]
    }
    owners = [a for a, cards in movable.items() if cards]
    if len(owners) < 2:
        return None
    first, second = rng.choice(owners, size=2, replace=False)
    x, y = rng.choice(movable[first]), rng.choice(movable[second])
    deal = {key: value for key, value in record["deal"].items()}
    deal["hands"] = {a: list(cards) for a, cards in deal["hands"].items()}
    deal["hands"][first][deal["hands"][first].index(x)] = y
    deal["hands"][second][deal["hands"][second].index(y)] = x
    twin = make_env("knuffeln", **config)
    twin.reset(options=deal)
    for actor, action in record["actions"]:
        assert twin.agent_selection == actor
        twin.step(twin.unwrapped.string_to_action(action))
    return twin


@pytest.mark.parametrize("config", [{}, {"talk": "lexicon"}, {"players": 5, "talk": "lexicon"},
                                    {"variant": "hattstedt"}, {"talk": "tokens:4"}], ids=config_id)
def test_no_peeking_twin_tables_get_the_same_decision(config):
    env = make_env("knuffeln", **config)
    rng = np.random.default_rng(7)
    rules, random = make("rules", "knuffeln", seed=1), make("random", "knuffeln", seed=2)
    compared = 0
    for hand in range(12):
        env.reset(seed=500 + hand)
        while not env.terminations[env.agent_selection]:
            agent = env.agent_selection
            legal = env.unwrapped.legal_actions()
            if len(legal) > 1 and rng.random() < 0.3:
                twin = swapped_twin(env, config, rng)
                if twin is not None:
                    assert twin.unwrapped.state()["hands"] != env.unwrapped.state()["hands"]
                    np.testing.assert_array_equal(twin.observe(agent)["observation"], env.observe(agent)["observation"])
                    assert RulesAgent("knuffeln").act(twin, agent) == RulesAgent("knuffeln").act(env, agent)
                    compared += 1
            seat = env.possible_agents.index(agent)
            env.step((rules if seat % 2 else random).act(env, agent))
    assert compared >= 20


# ------------------------------------------------------------------------------------------- situations
# Spades (first) and hearts (second) are chosen: the stock's top cards are S3 and HK. Dealer player_3,
# so player_0 leads the first trick; partners are 0+2 and 1+3.

CHOSEN_SH = ("S3", "HK")


def test_wins_with_the_lowest_sufficient_beater():
    env = fixed_env({0: ["C6"], 1: ["D6"], 2: ["D8"], 3: ["S4", "SA", "H2", "SJ", "D7", "D4", "C3", "C2", "D3"]},
                    CHOSEN_SH)
    skip_exchanges(env)
    step(env, "C6", "D6", "D8")
    assert decision(env) == "S4"  # the Veerhack, not the ace, the Jack or de Beste


def test_a_cheap_unchosen_ace_beats_its_own_suit():
    env = fixed_env({0: ["C6"], 1: ["D6"], 2: ["D8"], 3: ["CA", "SA", "H2", "SJ", "D7", "D4", "C3", "C2", "D3"]},
                    CHOSEN_SH)
    skip_exchanges(env)
    step(env, "C6", "D6", "D8")
    assert decision(env) == "CA"


def test_does_not_overtake_the_partners_winning_card():
    env = fixed_env({0: ["C6"], 1: ["SA"], 2: ["D8"], 3: ["H2", "C4", "SJ", "D7", "D4", "C3", "C2", "D3", "D2"]},
                    CHOSEN_SH)
    skip_exchanges(env)
    step(env, "C6", "SA", "D8")
    assert decision(env) in ("D7", "D4", "C3", "C2", "D3", "D2")  # a worthless card, not an Ole or beater


def test_throws_a_worthless_card_on_the_partners_led_seven():
    env = fixed_env({0: ["S7"], 1: ["D6"], 2: ["H2", "SA", "HJ", "D7", "D4", "C3", "C2", "D3", "D2"]}, CHOSEN_SH)
    skip_exchanges(env)
    step(env, "S7", "D6")
    assert decision(env) in ("D7", "D4", "C3", "C2", "D3", "D2")


def test_leads_a_chosen_seven_first():
    env = fixed_env({0: ["D7", "C6", "H7", "SA", "D2"]}, CHOSEN_SH)
    skip_exchanges(env)
    assert decision(env) == "H7"


def test_throws_cheapest_card_when_it_cannot_win():
    env = fixed_env({0: ["S7"], 1: ["D6", "C2", "SA", "HJ", "CA", "DK", "D3", "C3", "D4"]}, CHOSEN_SH)
    skip_exchanges(env)
    step(env, "S7")
    assert decision(env) in ("D6", "C2", "D3", "C3", "D4")


def test_takes_the_bottom_ole():
    # the bottom stock card is de Ruten Ol (D9); player_1 holds the diamond Queen
    env = fixed_env({1: ["DQ"]}, CHOSEN_SH, stock_bottom=("D9",))
    while env.unwrapped.state()["phase"] == "ten_exchange":
        step(env, "decline")
    assert env.unwrapped.state()["phase"] == "ole_exchange"
    while env.agent_selection != "player_1":
        assert decision(env) == "decline"  # not entitled
        step(env, "decline")
    assert decision(env) == "take_ole"


def test_takes_the_ten_exchange_for_a_better_turned_card():
    env = fixed_env({0: ["S10"]}, ("S7", "HK"))
    assert env.agent_selection == "player_0"
    assert decision(env) == "exchange:S7"


def test_five_players_dealer_plays_alone_only_with_a_strong_stock():
    strong = ["S6", "HQ", "H2", "C4", "S8", "H9", "D9", "SA", "SJ", "HJ", "S2", "H6"]
    weak = ["S6", "HQ", "C2", "C3", "D2", "D3", "D4", "C6", "D6", "C7", "D7", "D8"]
    for stock, expected in ((strong, "play_alone"), (weak, "sit_out")):
        env = fixed_env({}, stock[:2], stock[2:], dealer=4, players=5)
        assert env.agent_selection == "player_4"
        assert decision(env) == expected


# ------------------------------------------------------------------------------------------- listening


def test_listens_when_the_partner_says_certainly():
    # player_0 leads the spade ace and says "Certainly"; player_2 holds de Beste and would otherwise
    # overtake the ace (which four Oles could still beat, as far as player_2 can tell)
    hands = {0: ["SA", "C4", "S8", "H9", "D9"], 1: ["D6"], 2: ["H2", "D7", "D4", "C3", "C2", "D3", "D2", "C7", "C9"]}
    env = fixed_env(hands, CHOSEN_SH, talk="lexicon")
    skip_exchanges(env)
    step(env, f"say:{CERTAINLY}", "SA", "silent", "D6")
    step(env, "silent")
    assert decision(env, listen=False) == "H2"
    assert decision(env) in ("D7", "D4", "C3", "C2", "D3", "D2", "C7", "C9")


def test_listens_when_the_partner_asks_for_a_beater():
    # player_0 says "I can't, you must play a beater" and leads a worthless card; player_2's only beater
    # is de Ruten Ol, which it would rather keep -- unless asked
    hands = {0: ["C6"], 1: ["D6"], 2: ["D9", "D7", "D4", "C3", "C2", "D3", "D2", "C7", "D8"]}
    env = fixed_env(hands, CHOSEN_SH, talk="lexicon")
    skip_exchanges(env)
    step(env, f"say:{CANT_YOU_BEAT}", "C6", "silent", "D6")
    step(env, "silent")
    assert decision(env, listen=False) != "D9"
    assert decision(env) == "D9"


def test_reads_this_tricks_talk_and_the_partners_shown_cards():
    env = make_env("knuffeln", talk="lexicon", players=5)
    random = make("random", "knuffeln", seed=4)
    checked = 0
    for hand in range(15):
        env.reset(seed=hand)
        while not env.terminations[env.agent_selection]:
            agent = env.agent_selection
            state = env.unwrapped.state()
            if state["phase"] == "play" and state["trick"]:
                seat = env.possible_agents.index(agent)
                situation = Situation(decode(env.observe(agent)["observation"], env.unwrapped.config))
                team = state["teams"][agent]
                in_trick = {a for a, _ in state["trick"]}
                expected, seen = {}, set()
                for speaker, words in reversed(state["talk"][: len(state["talk"]) - 1]):
                    if speaker not in in_trick or speaker in seen:
                        break
                    seen.add(speaker)
                    if state["teams"][speaker] == team and words.startswith("say:"):
                        expected[speaker] = int(words[4:])
                got = {env.possible_agents[(seat + r) % 5]: w for r, w in situation.trick_talk.items() if w}
                assert got == expected
                for r in situation.teammates:
                    teammate = env.possible_agents[(seat + r) % 5]
                    shown = {w[5:] for s, w in state["talk"] if s == teammate and w.startswith("show:")}
                    known = {card for card in DECK if situation.known_in[r] >> DECK.index(card) & 1}
                    assert shown & set(state["hands"][teammate]) <= known
                checked += 1
            env.step(random.act(env, agent))
    assert checked > 100


# ------------------------------------------------------------------------------------------- honesty


def phrase_of(action, talk):
    if action.startswith("say:"):
        return int(action[4:])
    if action.startswith("token:") and talk.startswith("tokens"):
        return PHRASE_OF_TOKEN.get(int(action[6:]), 0)
    return 0


def power_cards(state, cards):
    """Oles, chosen beaters and chosen 7s among ``cards``."""
    ranking, chosen = trick_winner(state, ["C2"])[1:]
    out = []
    for card in cards:
        index = card_index(state, card)
        seven = chosen >> (index // 12) & 1 and index % 12 == K.RANK_7
        if K.ATTACK[chosen, index] > 0 or seven:
            out.append(card)
    return out


@pytest.mark.parametrize("config", [{"talk": "lexicon"}, {"talk": "lexicon", "players": 5}, {"talk": "tokens:8"}],
                         ids=config_id)
def test_utterances_are_honest(config):
    env = make_env("knuffeln", **config)
    rules = make("rules", "knuffeln", seed=0)
    random = make("random", "knuffeln", seed=1)
    said = dict.fromkeys((I_HAVE_AN_OLE, CERTAINLY, CANT_YOU_BEAT, FEEL_BAD, TWO_SURE_TRICKS, WE_MARCH, "show"), 0)
    for hand in range(70):
        env.reset(seed=hand)
        seat_agents = [rules if (hand % 3 or seat % 2 == 0) else random for seat in range(len(env.possible_agents))]
        words_before_card = {}  # speaker -> (phrase, trick number) until its card is played
        certain = []  # (speaker, trick number) of every "Certainly"
        while not env.terminations[env.agent_selection]:
            agent = env.agent_selection
            state = env.unwrapped.state()
            player = seat_agents[env.possible_agents.index(agent)]
            action = player.act(env, agent)
            words = env.unwrapped.action_to_string(action)
            env.step(action)
            after = env.unwrapped.state()
            if player is rules and state["phase"] == "talk":
                check_words_now(state, agent, words, config["talk"], said)
                words_before_card[agent] = (phrase_of(words, config["talk"]), len(state["tricks"]))
            elif agent in words_before_card and state["phase"] == "play":
                phrase, trick_no = words_before_card.pop(agent)
                if words != "stop":
                    check_words_after_card(after, agent, phrase)
                if phrase == CERTAINLY:
                    certain.append((agent, trick_no))
            for speaker, trick_no in list(certain):
                if len(after["tricks"]) > trick_no:
                    winner = after["tricks"][trick_no]["winner"]
                    assert after["teams"][winner] == after["teams"][speaker], "said Certainly and lost the trick"
                    certain.remove((speaker, trick_no))
    for key in (I_HAVE_AN_OLE, CERTAINLY, CANT_YOU_BEAT, FEEL_BAD):
        assert said[key] > 0, f"phrase {key} never said: the honesty test would be vacuous"


def check_words_now(state, agent, words, talk, said):
    hand = state["hands"][agent]
    phrase = phrase_of(words, talk)
    if words.startswith("show:"):
        assert words[5:] in hand
        said["show"] += 1
    if phrase == I_HAVE_AN_OLE:
        assert OLES & set(hand)
    if phrase == CANT_YOU_BEAT:
        cards = [c for _, c in state["trick"]]
        assert cards, "asked for a beater before the lead"
        position, ranking, chosen = trick_winner(state, cards)
        assert state["teams"][state["trick"][position][0]] != state["teams"][agent]
        winner = card_index(state, cards[position])
        assert not any(K.beats(ranking, chosen, card_index(state, c), winner) for c in hand)
    if phrase == WE_MARCH:
        assert state["jann_pending"]
    if phrase in said:
        said[phrase] += 1


def check_words_after_card(state, agent, phrase):
    """Hand statements are about the hand kept after the card the speaker was about to play."""
    hand = state["hands"][agent]
    if phrase == I_HAVE_AN_OLE:
        assert OLES & set(hand)
    if phrase == FEEL_BAD:
        assert not power_cards(state, hand)
    if phrase == TWO_SURE_TRICKS:
        assert len(power_cards(state, hand)) >= 2
    if phrase == WE_MARCH:
        assert state["committed_team"] == state["teams"][agent] or state["phase"] == "over"


# ------------------------------------------------------------------------------------------- drehen, Jann


def test_turns_and_marches_only_when_the_rules_of_thumb_allow():
    env = make_env("knuffeln")
    rules, random = make("rules", "knuffeln", seed=0), make("random", "knuffeln", seed=1)
    turns = marches = stops = 0
    for hand in range(150):
        env.reset(seed=hand)
        while not env.terminations[env.agent_selection]:
            agent = env.agent_selection
            seat = env.possible_agents.index(agent)
            if seat % 2:
                env.step(random.act(env, agent))
                continue
            state = env.unwrapped.state()
            words = env.unwrapped.action_to_string(rules.act(env, agent))
            team = seat % 2
            if words.startswith("turn:"):
                turns += 1
                assert state["tricks_won"][1 - team] >= 1, "turned while a Jann was still possible"
                assert state["committed_team"] is None
            if state["jann_pending"]:
                if words == "stop":
                    stops += 1
                else:
                    marches += 1
                    assert not words.startswith("turn:")
                    assert every_card_is_a_sure_lead(state, agent)
            env.step(env.unwrapped.string_to_action(words))
    assert turns > 0 and stops > 0


def every_card_is_a_sure_lead(state, agent):
    ranking, chosen = trick_winner(state, ["C2"])[1:]
    team = state["teams"][agent]
    others = [card_index(state, c) for a, cards in state["hands"].items() if state["teams"][a] not in (team, None)
              for c in cards]
    return all(
        not any(K.beats(ranking, chosen, other, card_index(state, mine)) for other in others)
        for mine in state["hands"][agent]
    )
