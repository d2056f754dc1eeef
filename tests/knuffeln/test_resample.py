"""Resampling from an information state hides everything the seat cannot see: two tables that differ only
in cards hidden from a seat (another seat's face-down lead, a card shown to the other partnership, the
stock, other hands) resample, with the same seed, to the very same world; and a sampled world offers the
seat exactly the choices it had, now and at each of its past decisions."""

from __future__ import annotations

import numpy as np
import pytest

from knuffeln_env import knuffeln_v0
from knuffeln_env.knuffeln import kernel

from .helpers import biased_action, build_deal, config_id

CONFIGS = [{}, {"talk": "lexicon"}, {"players": 5, "talk": "lexicon"}, {"variant": "gruenberg1938"}]
CONFIG_IDS = [config_id(c) for c in CONFIGS]
TWINS_PER_CONFIG = 40


def _table(config, record_deal, actions, seed=7):
    """A table dealt ``record_deal`` that played ``actions`` (strings); None if one is illegal there."""
    env = knuffeln_v0.env(observation_type="information_state", **config)
    env.reset(seed=seed, options=record_deal)
    for agent, action in actions:
        index = env.unwrapped.string_to_action(action)
        if env.agent_selection != agent or index not in env.unwrapped.legal_actions():
            return None
        env.step(index)
    return env


def _same_for(observer, config, first, second) -> bool:
    """Do two (deal, actions) scripts look identical to ``observer`` at every step: its observation, and
    its legal actions at each of its decisions? (Then they differ only in what it cannot see.)"""
    tables = [_table(config, deal, []) for deal, _ in (first, second)]
    if len(first[1]) != len(second[1]):
        return False
    for step in range(len(first[1]) + 1):
        seen = [t.observe(observer) for t in tables]
        if not np.array_equal(seen[0]["observation"], seen[1]["observation"]):
            return False
        if not np.array_equal(seen[0]["action_mask"], seen[1]["action_mask"]):
            return False
        if step == len(first[1]):
            return True
        for table, (_, actions) in zip(tables, (first, second), strict=True):
            agent, action = actions[step]
            index = table.unwrapped.string_to_action(action)
            if table.agent_selection != agent or index not in table.unwrapped.legal_actions():
                return False
            table.step(index)
    return True


def _hidden_action_twin(env, observer, rng):
    """The same deal with one action hidden from ``observer`` (an unanswered face-down lead, a show to the
    other partnership) naming another card of the actor's hand."""
    record = env.unwrapped.game_record()
    actions = record["actions"]
    candidates = [i for i, (agent, action) in enumerate(actions)
                  if agent != observer and action.split(":")[0] in ("turn", "show")]
    if not candidates:
        return None
    i = candidates[int(rng.integers(len(candidates)))]
    agent, action = actions[i]
    kind, card = action.split(":")
    before = _table(env.unwrapped.config, record["deal"], actions[:i])
    others = [c for c in before.unwrapped.state()["hands"][agent] if c != card]
    if not others:
        return None
    changed = list(actions)
    changed[i] = [agent, f"{kind}:{others[int(rng.integers(len(others)))]}"]
    return ("face_down" if kind == "turn" else "show"), record["deal"], changed


def _swapped_deal_twin(env, observer, rng):
    """Two cards swapped between places ``observer`` cannot see into: other hands, the stock."""
    record = env.unwrapped.game_record()
    deal = record["deal"]
    places = [(a, k) for a, cards in deal["hands"].items() if a != observer for k in range(len(cards))]
    places += [("stock", k) for k in range(kernel.MAX_TURNED, kernel.STOCK_SIZE)]
    first, second = (places[i] for i in rng.choice(len(places), 2, replace=False))
    if first[0] == second[0] and first[0] != "stock":
        return None
    twin = {"dealer": deal["dealer"], "hands": {a: list(c) for a, c in deal["hands"].items()},
            "stock": list(deal["stock"])}

    def cards_of(place):
        return twin["stock"] if place[0] == "stock" else twin["hands"][place[0]]

    a, b = cards_of(first), cards_of(second)
    a[first[1]], b[second[1]] = b[second[1]], a[first[1]]
    return ("stock" if "stock" in (first[0], second[0]) else "hands"), twin, record["actions"]


def _assert_same_world(config, observer, first, second, seed):
    worlds = []
    for deal, actions in (first, second):
        table = _table(config, deal, actions)
        worlds.append(table.unwrapped.resample_from_infostate(observer, seed))
    one, two = worlds
    assert one.game_record() == two.game_record()
    assert one.state() == two.state()
    np.testing.assert_array_equal(one.kernel_state(), two.kernel_state())
    for agent in one.possible_agents:
        for key in ("observation", "action_mask"):
            np.testing.assert_array_equal(one.observe(agent)[key], two.observe(agent)[key])


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_tables_differing_only_in_hidden_cards_resample_to_the_same_world(config):
    rng = np.random.default_rng(77)
    env = knuffeln_v0.env(observation_type="information_state", **config)
    kinds = {"face_down": 0, "show": 0, "stock": 0, "hands": 0}
    hand = 0
    while sum(kinds.values()) < TWINS_PER_CONFIG:
        env.reset(seed=7700 + hand)
        hand += 1
        stop = int(rng.integers(4, 80))
        for _ in range(stop):
            if all(env.terminations.values()):
                break
            action = biased_action(env.unwrapped.legal_action_strings(), rng)
            env.step(env.unwrapped.string_to_action(action))
            if action.startswith("turn:") and rng.random() < 0.5:
                break  # an unanswered face-down lead: hidden from all but its leader
        record = env.unwrapped.game_record()
        for observer in env.possible_agents:
            make_twin = _hidden_action_twin if rng.random() < 0.5 else _swapped_deal_twin
            twin = make_twin(env, observer, rng)
            if twin is None:
                continue
            kind, deal, actions = twin
            first, second = (record["deal"], record["actions"]), (deal, actions)
            if first == second or not _same_for(observer, config, first, second):
                continue
            _assert_same_world(config, observer, first, second, seed=int(rng.integers(2**31)))
            kinds[kind] += 1
    expected = {"stock", "hands"} | {"face_down"} | ({"show"} if config.get("talk") == "lexicon" else set())
    assert all(kinds[k] > 0 for k in expected), kinds


def test_a_face_down_lead_hidden_from_the_observer_leaves_no_trace_in_the_sampled_world():
    """player_0 leads C7 face down; player_1 (deciding) and player_2 did not see it. In their sampled
    worlds the record, the history, the talk and the face-down card name the sampled world's card."""
    deal = build_deal({0: ["C7", "CA", "SA", "HA", "DA", "CK", "SK", "HK", "DK"]}, ["H3", "S3"])
    env = knuffeln_v0.env()
    env.reset(options=deal)
    while env.unwrapped.state()["phase"] in ("ten_exchange", "ole_exchange"):
        env.step(env.unwrapped.string_to_action("decline"))
    env.step(env.unwrapped.string_to_action("turn:C7"))
    for observer in ("player_1", "player_2"):
        led = set()
        for k in range(40):
            world = env.unwrapped.resample_from_infostate(observer, k)
            card = world.state()["face_down_card"]
            led.add(card)
            assert world.game_record()["actions"][-1] == ["player_0", f"turn:{card}"]
            assert world.state()["history"][-1] == ["player_0", f"turn:{card}"]
            assert card in world.game_record()["deal"]["hands"]["player_0"]
        assert len(led) > 3, led
    assert env.unwrapped.resample_from_infostate("player_0", 1).state()["face_down_card"] == "C7"


def test_a_sampled_world_gives_the_king_holder_the_same_ole_choice():
    """Bohmstedt: the bottom Harten Ol (H9) is offered to the Queen of hearts' holder, else the King's.
    player_0 holds HK; the HQ lies in the stock (so player_0 may take the Ole) or in player_2's hand (so it
    may not). Each sampled world must give player_0 exactly the choice it has."""
    for queen_in_stock in (True, False):
        hands = {0: ["HK"], 2: [] if queen_in_stock else ["HQ"]}
        deal = build_deal(hands, ["C3", "S3"], ["HQ", "H9"] if queen_in_stock else ["H9"], dealer=3)
        env = knuffeln_v0.env()
        env.reset(options=deal)
        while env.unwrapped.state()["phase"] == "ten_exchange":
            env.step(env.unwrapped.string_to_action("decline"))
        while env.agent_selection != "player_0":
            env.step(env.unwrapped.string_to_action("decline"))
        legal = env.unwrapped.legal_action_strings()
        assert ("take_ole" in legal) == queen_in_stock
        for k in range(60):
            assert env.unwrapped.resample_from_infostate("player_0", k).legal_action_strings() == legal
        env.step(env.unwrapped.string_to_action("decline"))  # its past choice binds later samples too
        while env.unwrapped.state()["phase"] != "play":
            env.step(env.unwrapped.string_to_action("decline"))
        for k in range(60):
            world = env.unwrapped.resample_from_infostate("player_0", k)
            holds_queen = any("HQ" in cards for cards in world.state()["hands"].values())
            assert holds_queen != queen_in_stock


def test_match_play_resamples_the_earlier_hands_too():
    """Match play keeps earlier hands in the record: two matches whose first hands differ only in two
    stock cards nobody saw resample to the same world, and the sampled record replays."""
    rng = np.random.default_rng(5)
    env = knuffeln_v0.env(match=True)
    env.reset(seed=55)
    while len(env.unwrapped.game_record()["match_deals"]) < 2:
        env.step(env.unwrapped.string_to_action(biased_action(env.unwrapped.legal_action_strings(), rng)))
    for _ in range(6):
        env.step(env.unwrapped.string_to_action(biased_action(env.unwrapped.legal_action_strings(), rng)))
    record = env.unwrapped.game_record()
    twin_record = {**record, "deal": {**record["deal"], "stock": list(record["deal"]["stock"])}}
    stock = twin_record["deal"]["stock"]
    stock[5], stock[6] = stock[6], stock[5]  # the middle of a four-player stock is never looked at
    twin_record["match_deals"] = [twin_record["deal"], *record["match_deals"][1:]]
    twin = knuffeln_v0.env(match=True)
    twin.unwrapped.replay(twin_record)
    worlds = [table.unwrapped.resample_from_infostate("player_1", 9) for table in (env, twin)]
    assert env.unwrapped.game_record() == record  # the real table is left as it was
    assert worlds[0].game_record() == worlds[1].game_record()
    assert worlds[0].state() == worlds[1].state()
    for agent in env.possible_agents:
        np.testing.assert_array_equal(worlds[0].observe(agent)["observation"], worlds[1].observe(agent)["observation"])
    first_stocks = {tuple(env.unwrapped.resample_from_infostate("player_1", k).game_record()["deal"]["stock"])
                    for k in range(5)}
    assert len(first_stocks) == 5  # the earlier hand's hidden stock is drawn afresh
    again = knuffeln_v0.env(match=True)
    again.unwrapped.replay(worlds[0].game_record())
    assert again.unwrapped.state() == worlds[0].state()
