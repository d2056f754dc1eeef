"""The PettingZoo env of Knüffeln: API and seeding conformance for every variant, player count and talk
mode; records and replay; bad input; observations that hold all and only what a seat may know; resampling
from an information state; playouts; match play."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

from knuffeln_env import knuffeln_v0
from knuffeln_env.knuffeln import kernel
from tests.tables import live_turns
from trick_core.aec import IllegalActionError

from .helpers import (
    RULE_CONFIGS,
    act,
    act_as,
    biased_action,
    build_deal,
    config_id,
    decline_exchanges,
    legal,
    make_env,
    obs_offset,
)

CONFIGS = RULE_CONFIGS + [
    {"talk": "tokens:4"},
    {"variant": "hattstedt", "talk": "tokens:2"},
    {"match": True},
    {"match": True, "talk": "lexicon", "variant": "gruenberg1938"},
]
CONFIG_IDS = [config_id(c) for c in CONFIGS]


def _play_biased(env, rng, stop=None):
    """Play the env with the long-hand random policy until over, or until ``stop(env)`` is true."""
    while not all(env.terminations.values()):
        if stop is not None and stop(env):
            return
        act(env, biased_action(legal(env), rng))


# ----------------------------------------------------------------------------- PettingZoo conformance


@pytest.mark.parametrize("observation_type", ["observation", "information_state", "perfect"])
@pytest.mark.parametrize("config", [{}, {"players": 5, "talk": "lexicon"}], ids=["default", "five-lexicon"])
def test_observations_fit_their_space(config, observation_type):
    env = knuffeln_v0.env(observation_type=observation_type, **config)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    space = env.observation_space("player_0")
    params = kernel.make_params(**config)
    assert space["observation"].shape == (kernel.observation_size(params, env.unwrapped._obs_type_code),)
    while not all(env.terminations.values()):
        for agent in env.possible_agents:
            assert space.contains(env.observe(agent))
        act(env, biased_action(legal(env), rng))
    assert space.contains(env.observe("player_0"))


# ----------------------------------------------------------------------------- records, replay, state


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_record_and_replay_reproduce_the_hand(config):
    rng = np.random.default_rng(11)
    for seed in range(3):
        env = knuffeln_v0.env(**config)
        env.reset(seed=seed)
        _play_biased(env, rng)
        record = json.loads(json.dumps(env.unwrapped.game_record()))
        assert record["game"] == "knuffeln" and record["result"] is not None
        assert abs(sum(record["result"])) < 1e-9
        again = knuffeln_v0.env(**config)
        again.unwrapped.replay(record)
        assert again.unwrapped.game_record() == record
        if not config.get("match"):
            fresh = knuffeln_v0.env(**config)
            fresh.reset(options={"record": record})
            assert fresh.unwrapped.state()["hands"] == env.unwrapped.state()["dealt_hands"]


def test_record_of_a_redealt_hand_replays():
    env = make_env(build_deal({}, ["H3", "HK", "HQ", "H4"]))
    _play_biased(env, np.random.default_rng(1))
    record = env.unwrapped.game_record()
    assert record["deal"]["stock"][:4] == ["H3", "HK", "HQ", "H4"]  # the deal as given
    again = knuffeln_v0.env()
    again.unwrapped.replay(record)
    assert again.unwrapped.game_record() == record


def test_state_is_json_and_clone_is_independent():
    env = make_env(None, talk="lexicon")
    _play_biased(env, np.random.default_rng(2), stop=lambda e: len(e.unwrapped.state()["tricks"]) >= 2)
    st = env.unwrapped.state()
    assert json.loads(json.dumps(st)) == st
    for key in ("game", "phase", "dealer", "current_player", "hands", "history", "chosen_suits", "tricks", "talk"):
        assert key in st
    kernel_before = env.unwrapped.kernel_state()
    clone = env.unwrapped.clone()
    act(clone, legal(clone)[0])
    assert env.unwrapped.state() == st and clone.state() != st
    assert np.array_equal(env.unwrapped.kernel_state(), kernel_before)  # the clone's step left it alone
    assert not np.array_equal(clone.kernel_state(), kernel_before)


def test_render_ansi_and_human(capsys):
    env = make_env(build_deal({}, ["H3", "S7"]), talk="lexicon", render_mode="ansi")
    decline_exchanges(env)
    act(env, "say:3", "turn:" + env.unwrapped.state()["hands"]["player_0"][0], "accept")
    act(env, "show:" + env.unwrapped.state()["hands"]["player_1"][0])
    text = env.render()
    assert "chosen suits H (first) S" in text and 'says "Can you?"' in text and "shows a card" in text
    assert "trick in progress: 0:" in text
    human = make_env(None, render_mode="human")
    assert human.render() is None and "Knüffeln" in capsys.readouterr().out


# ----------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"variant": "kiel"}, "unknown variant"),
        ({"players": 3}, "players must be 4 or 5"),
        ({"players": 5, "variant": "hattstedt"}, "five-player"),
        ({"talk": "loud"}, "unknown talk"),
        ({"talk": "tokens:0"}, "unknown talk"),
        ({"talk": "tokens:65"}, "unknown talk"),
        ({"match": "yes"}, "match must be"),
        ({"match": True, "players": 5}, "needs players=4"),
        ({"colour": "red"}, "unknown option"),
    ],
)
def test_bad_options_raise(kwargs, message):
    with pytest.raises(ValueError, match=message):
        knuffeln_v0.env(**kwargs)


def test_batch_params_refuse_match_mode():
    with pytest.raises(ValueError, match="match=True"):
        kernel.make_params(match=True)


def _deal_with(**changes):
    deal = build_deal({}, ["H3", "S7"])
    deal.update(changes)
    return deal


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["hands"]["player_0"].__setitem__(0, "H3"), "duplicate card H3"),
        (lambda d: d["hands"]["player_1"].__setitem__(0, "Z9"), "unknown card"),
        (lambda d: d["hands"]["player_2"].pop(), "must have 9 cards"),
        (lambda d: d["stock"].pop(), "stock must have 12 cards"),
        (lambda d: d.pop("stock"), "stock must be a list"),
        (lambda d: d["hands"].pop("player_3"), "missing"),
        (lambda d: d.__setitem__("dealer", 7), "dealer must be"),
        (lambda d: d.__setitem__("skat", ["C2"]), "not a 'skat'"),
        (lambda d: d.__setitem__("trump", "H"), "unknown reset option"),
        (lambda d: d["stock"].__setitem__(5, d["stock"][6]), "duplicate card"),
    ],
)
def test_bad_deals_raise(mutate, message):
    deal = _deal_with()
    mutate(deal)
    with pytest.raises(ValueError, match=message):
        knuffeln_v0.env().reset(options=deal)


def test_five_player_deal_names_the_four_non_dealers():
    deal = build_deal({}, ["H3", "S7"], dealer=2, players=5)
    env = knuffeln_v0.env(players=5)
    env.reset(options=deal)
    assert env.unwrapped.state()["hands"]["player_2"] == []
    deal["hands"]["player_2"] = deal["hands"].pop("player_0")
    with pytest.raises(ValueError, match="must name exactly"):
        env.reset(options=deal)


def test_illegal_action_raises_naming_the_move_and_the_legal_ones():
    env = make_env(build_deal({}, ["H3", "S7"]))
    with pytest.raises(IllegalActionError, match=r"illegal action .*'H2'.* legal now: decline"):
        env.step(env.unwrapped.string_to_action("H2"))
    assert issubclass(IllegalActionError, ValueError)
    with pytest.raises(ValueError, match="unknown action string"):
        env.unwrapped.string_to_action("jump")
    for bad, why in ((-1, "out of range"), (10_000, "out of range"), (1.0, "must be an integer"),
                     (True, "must be an integer")):
        with pytest.raises(ValueError, match=f"{why}.*legal now: decline"):
            env.step(bad)
    record = env.unwrapped.game_record()
    record["config"] = {**record["config"], "variant": "hattstedt"}
    with pytest.raises(ValueError, match="config"):
        env.reset(options={"record": record})


def test_illegal_action_terminate_follows_pettingzoo_convention():
    env = knuffeln_v0.env(illegal_action="terminate")
    env.reset(options=build_deal({}, ["H3", "S7"]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(env.unwrapped.string_to_action("H2"))
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": -1.0, "player_1": 0.0, "player_2": 0.0, "player_3": 0.0}
    assert env.unwrapped.game_record()["result"] is None
    for _agent in env.agent_iter():
        env.step(None)
    assert env.agents == []


def test_playout_values_and_resample_reject_bad_input():
    env = make_env(None)
    with pytest.raises(ValueError, match="not legal"):
        env.unwrapped.playout_values(["take_ole"], 2, seed=0)
    with pytest.raises(ValueError, match="playouts"):
        env.unwrapped.playout_values([legal(env)[0]], 0, seed=0)
    with pytest.raises(ValueError, match="unknown agent"):
        env.unwrapped.resample_from_infostate("player_9", 0)
    with pytest.raises(ValueError, match="rng"):
        env.unwrapped.resample_from_infostate("player_0", "seed")


# ----------------------------------------------------------------------------- what a seat may know


def _hidden_swap_candidates(env_state: dict, observer: int, players: int, variant: str) -> list[tuple]:
    """Places of cards the observer cannot see and that the history never names: (place, card), a place
    being ("hand", seat) or ("stock", position). Queens, Kings and tens stay put (they decide who may
    exchange), and so do the bottom three stock cards (checked by the dealer / face up in 1924/1938)."""
    named = {part for _, action in env_state["history"] for part in action.split(":")}
    named |= set(env_state["turned"])
    places = []
    dealer = env_state["dealer"]
    for agent, cards in env_state["dealt_hands"].items():
        seat = int(agent.split("_")[1])
        if seat == observer:
            continue
        places += [(("hand", seat), c) for c in cards]
    if not (players == 5 and observer == dealer):
        turned = len(env_state["turned"])
        places += [(("stock", k), c) for k, c in enumerate(env_state["stock_order"]) if turned <= k < 9]
    return [(p, c) for p, c in places if c not in named and c[1:] not in ("Q", "K", "10", "5")]


def _swapped_deal(record_deal: dict, first: tuple, second: tuple) -> dict:
    deal = json.loads(json.dumps(record_deal))

    def slot(place):
        kind, where = place[0]
        container = deal["hands"][f"player_{where}"] if kind == "hand" else deal["stock"]
        return container, container.index(place[1]) if kind == "hand" else where

    (box_a, i_a), (box_b, i_b) = slot(first), slot(second)
    box_a[i_a], box_b[i_b] = box_b[i_b], box_a[i_a]
    return deal


def _observations_along(config: dict, deal: dict, actions: list[str]) -> dict[int, list[np.ndarray]]:
    env = knuffeln_v0.env(**config)
    env.reset(options=deal)
    seats = range(config.get("players", 4))
    trace = {s: [env.observe(f"player_{s}")["observation"]] for s in seats}
    for action in actions:
        act(env, action)
        for s in seats:
            trace[s].append(env.observe(f"player_{s}")["observation"])
    return trace


@pytest.mark.parametrize(
    "config",
    [{"talk": "lexicon"}, {"players": 5, "talk": "lexicon"}, {"variant": "bernhard1924"}, {"variant": "hattstedt"}],
    ids=["lexicon", "five-lexicon", "bernhard1924", "hattstedt"],
)
def test_no_leak_when_unseen_cards_change(config):
    """Swap two cards the observer cannot see (in other hands or the unseen stock): its observations
    along the same actions stay identical, while the holders' change."""
    rng = np.random.default_rng(21)
    players = config.get("players", 4)
    checked = 0
    for seed in range(6):
        env = knuffeln_v0.env(**config)
        env.reset(seed=seed)
        _play_biased(env, rng, stop=lambda e, s=seed: len(e.unwrapped.state()["tricks"]) >= 2 + s % 3)
        st = env.unwrapped.state()
        if st["redeals"]:
            continue
        deal = env.unwrapped.game_record()["deal"]
        actions = [a for _, a in st["history"]]
        base = _observations_along(config, deal, actions)
        for observer in range(players):
            candidates = _hidden_swap_candidates(st, observer, players, config.get("variant", "bohmstedt"))
            pairs = [(a, b) for a in candidates for b in candidates if a[0][0] == "hand" and a[0] != b[0]]
            first, second = pairs[int(rng.integers(len(pairs)))]
            trace = _observations_along(config, _swapped_deal(deal, first, second), actions)
            for step, (ours, theirs) in enumerate(zip(base[observer], trace[observer], strict=True)):
                assert np.array_equal(ours, theirs), (config, seed, observer, first, second, step)
            holder = first[0][1]
            assert not np.array_equal(base[holder][0], trace[holder][0])
            checked += 1
    assert checked >= 10


FIVE_FOUR_DEAL = {
    "dealer": 3,
    "hands": {
        "player_0": ["C2", "C3", "D2", "HA", "HJ", "CK", "CQ", "DK", "DQ"],
        "player_1": ["C6", "D3", "SA", "SJ", "H6", "CJ", "DJ", "C10", "D10"],
        "player_2": ["C7", "D4", "S6", "S2", "HK", "HQ", "H10", "H7", "H8"],
        "player_3": ["C8", "D6", "S3", "S4", "SK", "SQ", "S10", "S7", "C9"],
    },
    "stock": ["H3", "S9", "CA", "C4", "DA", "D9", "D8", "H2", "H9", "H4", "S8", "D7"],
}


@pytest.mark.parametrize("answer", ["flee", "pending"])
def test_a_face_down_card_stays_hidden(answer):
    exchanges = ["decline"] * 4
    endings = [] if answer == "pending" else ["flee"]
    down_c2 = _observations_along({}, FIVE_FOUR_DEAL, exchanges + ["turn:C2"] + endings)
    down_d2 = _observations_along({}, FIVE_FOUR_DEAL, exchanges + ["turn:D2"] + endings)
    for seat in (1, 2, 3):
        assert all(np.array_equal(a, b) for a, b in zip(down_c2[seat], down_d2[seat], strict=True))
    assert not np.array_equal(down_c2[0][-1], down_d2[0][-1])  # the turner knows its card
    accepted_c2 = _observations_along({}, FIVE_FOUR_DEAL, exchanges + ["turn:C2", "accept"])
    accepted_d2 = _observations_along({}, FIVE_FOUR_DEAL, exchanges + ["turn:D2", "accept"])
    assert all(not np.array_equal(accepted_c2[s][-1], accepted_d2[s][-1]) for s in range(4))


def test_a_shown_card_reaches_only_the_partner():
    exchanges = ["decline"] * 4
    show_c2 = _observations_along({"talk": "lexicon"}, FIVE_FOUR_DEAL, exchanges + ["show:C2", "D2", "say:3"])
    show_hj = _observations_along({"talk": "lexicon"}, FIVE_FOUR_DEAL, exchanges + ["show:HJ", "D2", "say:3"])
    for seat in (1, 3):
        assert all(np.array_equal(a, b) for a, b in zip(show_c2[seat], show_hj[seat], strict=True))
    assert not np.array_equal(show_c2[2][-1], show_hj[2][-1])


def test_observation_holds_own_hand_turned_cards_and_exchanges():
    env = make_env(build_deal({1: ["H10"]}, ["H3", "S7"]))
    act(env, "decline", "exchange:H3")
    deck = env.unwrapped.deck
    for agent in env.possible_agents:
        obs = env.observe(agent)["observation"]
        hand = obs[obs_offset("hand"): obs_offset("hand") + 48]
        assert deck.names_of(sum(1 << i for i in np.flatnonzero(hand))) == env.unwrapped.state()["hands"][agent]
        face_up = obs[obs_offset("face_up"): obs_offset("face_up") + 48]
        assert sorted(deck.names_of(sum(1 << i for i in np.flatnonzero(face_up)))) == ["H10", "S7"]
        received = obs_offset("received")
        rel = (1 - int(agent[-1])) % 4
        assert obs[received + 48 * rel + deck.parse("H3")] == 1


# ----------------------------------------------------------------------------- resampling and playouts


def _hidden_cards(env, agent) -> dict:
    st = env.unwrapped.state()
    return {a: sorted(h) for a, h in st["hands"].items() if a != agent} | {"stock": sorted(st["stock"])}


@pytest.mark.parametrize(
    "config",
    [{}, {"talk": "lexicon"}, {"players": 5}, {"variant": "gruenberg1938"}, {"variant": "hattstedt"}],
    ids=["default", "lexicon", "five", "gruenberg1938", "hattstedt"],
)
def test_resample_keeps_everything_the_seat_knows(config):
    rng = np.random.default_rng(5)
    varied = 0
    for seed in range(8):
        env = knuffeln_v0.env(**config)
        env.reset(seed=seed)
        _play_biased(env, rng, stop=lambda e, s=seed: len(e.unwrapped.state()["history"]) >= 6 + 5 * s)
        if all(env.terminations.values()):
            continue
        for agent in env.possible_agents:
            before = env.observe(agent)["observation"]
            for k in range(4):
                sample = env.unwrapped.resample_from_infostate(agent, np.random.default_rng(k))
                assert np.array_equal(sample.observe(agent)["observation"], before)
                assert sample.agent_selection == env.agent_selection
                assert sample.state()["hands"][agent] == env.unwrapped.state()["hands"][agent]
                varied += _hidden_cards(sample, agent) != _hidden_cards(env, agent)
                _play_biased(sample, rng)  # the sample is a consistent, playable hand
                assert sample.state()["result"] is not None
    assert varied > 0


def test_resample_draws_a_face_down_card_afresh_for_the_answerer_only():
    env = make_env(FIVE_FOUR_DEAL)
    act(env, "decline", "decline", "decline", "decline", "turn:C2")
    assert env.agent_selection == "player_1"
    drawn = {env.unwrapped.resample_from_infostate("player_1", k).state()["face_down_card"] for k in range(12)}
    assert len(drawn) > 1
    kept = {env.unwrapped.resample_from_infostate("player_0", k).state()["face_down_card"] for k in range(6)}
    assert kept == {"C2"}


def test_resample_keeps_a_shown_card_for_the_partner():
    env = make_env(FIVE_FOUR_DEAL, talk="lexicon")
    act(env, "decline", "decline", "decline", "decline", "show:HJ", "C2")
    for k in range(6):
        assert "HJ" in env.unwrapped.resample_from_infostate("player_2", k).state()["hands"]["player_0"]
    opponent_views = {tuple(env.unwrapped.resample_from_infostate("player_1", k).state()["hands"]["player_0"])
                      for k in range(6)}
    assert len(opponent_views) > 1


def test_playout_values_are_zero_sum_and_seeded():
    env = make_env(None)
    decline_exchanges(env)
    actions = legal(env)[:3]
    values = env.unwrapped.playout_values(actions, 20, seed=3)
    assert values.shape == (3, 4) and np.allclose(values.sum(axis=1), 0)
    assert np.array_equal(values, env.unwrapped.playout_values(actions, 20, seed=3))


# ----------------------------------------------------------------------------- match play


def test_match_brille_after_a_jann_with_two_turns_in_the_first_hand():
    deal = build_deal({0: ["H2", "C4", "S8", "H9", "D9", "HA", "SA", "HJ", "SJ"]}, ["H3", "S7"], ["D2"])
    env = knuffeln_v0.env(match=True)
    env.reset(options=deal)
    decline_exchanges(env)
    for k, card in enumerate(("H2", "C4", "S8", "H9", "D9")):
        act_as(env, "player_0", f"turn:{card}" if k < 2 else card)
        if k < 2:
            act(env, "accept")
        for _ in range(3):
            act(env, next(a for a in legal(env) if env.unwrapped.deck.is_card(a)))
        assert env.rewards["player_0"] == 0
    act(env, "stop")
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": 2.0, "player_1": -2.0, "player_2": 2.0, "player_3": -2.0}
    st = env.unwrapped.state()["match"]
    assert st["rungs_left"] == [0, 4] and st["hands"][0]["rungs_wiped"] == 4


def test_match_plays_hands_until_a_team_wipes_its_ladder():
    for seed in range(6):
        env = knuffeln_v0.env(match=True)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        dealers = [env.unwrapped.state()["dealer"]]
        rewards = dict.fromkeys(env.possible_agents, 0.0)
        for _observation in live_turns(env, rewards):
            hands_before = env.unwrapped.state()["match"]["hands_played"]
            act(env, biased_action(legal(env), rng))
            match = env.unwrapped.state()["match"]
            if match["hands_played"] > hands_before and match["rewards"] is None:
                dealers.append(env.unwrapped.state()["dealer"])
        match = env.unwrapped.state()["match"]
        winners = 0 if match["rungs_left"][0] == 0 else 1
        assert match["rungs_left"][winners] == 0 and match["rungs_left"][1 - winners] > 0
        wiped = [h["rungs_wiped"] for h in match["hands"] if h["winning_team"] == winners]
        assert sum(wiped) == 4
        points = 2.0 if wiped[-1] == 4 else 1.0
        assert rewards == {a: points if int(a[-1]) % 2 == winners else -points for a in env.possible_agents}
        assert all((b - a) % 4 == 1 for a, b in zip(dealers, dealers[1:], strict=False))
        record = json.loads(json.dumps(env.unwrapped.game_record()))
        assert len(record["match_deals"]) == match["hands_played"]
        again = knuffeln_v0.env(match=True)
        again.unwrapped.replay(record)
        assert again.unwrapped.game_record() == record
