"""Bavarian Schafkopf's contract options ``geier``, ``farbwenz`` and ``bettel`` (issue 32): the kernel against the
plain-Python reference on thousands of seeded random hands under each, the trump orders and the ladder, the
tariffs' figures, the observation blocks, the options' checks, records, the batch env, PettingZoo's
``api_test`` / ``seed_test``, and the exact solver's refusal. The real games of openschafkopf's tests
(Geier, Farbwenz, Bettel among them) are replayed by ``test_online_games.py``.
"""

from __future__ import annotations

import functools
from collections import Counter

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from schafkopf_env import bavarian_v0
from schafkopf_env.bavarian import kernel, reference
from schafkopf_env.trumps import TRUMP_BETTEL, TRUMP_FARBWENZ, TRUMP_GEIER, trick_winner_index
from tests.bavarian.test_kernel_vs_reference import play_deal
from tests.bavarian.test_options import option_id, random_deal
from trick_core.cards import GERMAN_32

ALL_CONTRACTS = {"geier": True, "farbwenz": True, "bettel": True}
CONTRACT_CONFIGS = [
    {"geier": True},
    {"farbwenz": True, "tariff": "sauspiel"},
    {"bettel": True},
    dict(ALL_CONTRACTS),
    {**ALL_CONTRACTS, "doubling": True, "klopfen": True, "pack": "short", "tariff": "sauspiel"},
    {**ALL_CONTRACTS, "ramsch": True, "tariff": {"geier": {"base": 30, "laufende_from": 3},
                                                 "farbwenz": {"schneider_schwarz": 5}, "bettel": {"base": 15}}},
]
"""The configurations compared with the reference (each on ``HANDS_PER_CONFIG`` hands)."""
HANDS_PER_CONFIG = 2000
NEW_BIDS = ("geier", "farbwenz", "geier_tout", "farbwenz_tout", "bettel")


def choose_new(rng: np.random.Generator, game: reference.BavarianGame, legal: list[str]) -> str:
    """Random, steered towards the options' contracts: in the bidding a seat bids one of them half the time
    (if legal), else passes or bids at random; the rest uniform."""
    if game.phase == "bidding":
        new = [bid for bid in legal if bid in NEW_BIDS]
        if new and rng.random() < 0.5:
            return new[rng.integers(len(new))]
        if len(legal) == 1 or rng.random() < 0.6:
            return "pass"
        return legal[1 + rng.integers(len(legal) - 1)]
    return legal[rng.integers(len(legal))]


@pytest.mark.parametrize("config", CONTRACT_CONFIGS, ids=option_id)
def test_kernel_matches_reference_under_each_contract_option(config):
    stats: Counter = Counter()
    pack = config.get("pack", "long")
    for seed in range(HANDS_PER_CONFIG):
        rng = np.random.default_rng(10_000 + seed)
        dealer, hands = random_deal(rng, False, pack)
        game = play_deal(dealer, hands, functools.partial(choose_new, rng), stats, seed, config)
        if game.contract in NEW_BIDS:
            won = game.settlement()[game.declarer] > 0
            stats[f"{game.contract}_{'won' if won else 'lost'}"] += 1
    offered = [name for name in ("geier", "farbwenz", "bettel") if config.get(name)]
    situations = {"geier": ["geier_won", "geier_lost", "geier_tout_lost"],
                  "farbwenz": ["farbwenz_won", "farbwenz_lost", "farbwenz_tout_lost"],
                  "bettel": ["bettel_won", "bettel_lost"]}
    for name in offered:
        for situation in situations[name]:
            assert stats[situation] > 0, f"no {situation} among {dict(stats)}"
    for name in set(situations) - set(offered):
        assert not any(stats[s] for s in situations[name]), f"{name} played without its option"
    if any(name in offered for name in ("geier", "farbwenz")):
        assert stats["laufende"] > 0


WON_TOUTS = {  # player_0 (forehand) holds the eight highest trumps, or the Obers and the aces of a Geier
    "geier_tout": ["EO", "GO", "HO", "SO", "EA", "GA", "HA", "SA"],
    "farbwenz_tout": ["EU", "GU", "HU", "SU", "EA", "E10", "EK", "EO"],
}


@pytest.mark.parametrize("tariff", ["card", "sauspiel"])
@pytest.mark.parametrize("contract", sorted(WON_TOUTS))
def test_kernel_matches_reference_on_won_touts(contract, tariff):
    """Won Touts are rare among random hands: hands that cannot lose one, played at random, compared."""
    rng = np.random.default_rng(7)
    for seed in range(20):
        rest = [card for card in reference.PACK if card not in WON_TOUTS[contract]]
        rest = [rest[i] for i in rng.permutation(len(rest))]
        hands = [WON_TOUTS[contract], rest[:8], rest[8:16], rest[16:]]

        def chooser(game, legal):
            if game.phase == "bidding":
                return contract if contract in legal else "pass"
            if game.phase == "choosing_trump":
                return "trump:E"
            return legal[rng.integers(len(legal))]

        game = play_deal(3, hands, chooser, Counter(), seed, {"geier": True, "farbwenz": True, "tariff": tariff})
        assert game.contract == contract and game.declarer_side_tricks() == 8
        assert game.settlement()[0] > 0


def _winner(kind: int, cards: list[str]) -> str:
    indices = np.array([GERMAN_32.parse(card) for card in cards], dtype=np.int64)
    return cards[trick_winner_index(kind, indices, 4)]


@pytest.mark.parametrize("kind, cards, winner", [
    (TRUMP_GEIER, ["HA", "SO", "HK", "H10"], "SO"),  # an Ober trumps
    (TRUMP_GEIER, ["EU", "EK", "E9", "E10"], "E10"),  # the Unter ranks in its suit, below the King
    (TRUMP_GEIER, ["EU", "E9", "E8", "GU"], "EU"),  # ... above the 9; another suit's Unter is no trump
    (TRUMP_GEIER, ["GO", "EO", "HU", "SO"], "EO"),
    (TRUMP_FARBWENZ + 1, ["EA", "G7", "E10", "EK"], "G7"),  # Gras is trump
    (TRUMP_FARBWENZ + 1, ["GA", "SU", "GO", "G10"], "SU"),  # every Unter above the suit
    (TRUMP_FARBWENZ + 1, ["GK", "GO", "G9", "EO"], "GK"),  # the Ober ranks in the suit below the King
    (TRUMP_FARBWENZ + 2, ["EO", "EK", "E9", "E10"], "E10"),  # a plain suit: A 10 K O 9 8 7
    (TRUMP_BETTEL, ["E10", "EU", "E9", "E7"], "EU"),  # the Unter above the 10
    (TRUMP_BETTEL, ["EK", "EO", "HA", "EA"], "EA"),  # no trumps: the suit led
    (TRUMP_BETTEL, ["GO", "GK", "EO", "SO"], "GK"),
])
def test_trick_winners_of_the_new_trump_kinds(kind, cards, winner):
    assert _winner(kind, cards) == winner


def _legal(env) -> list[str]:
    return env.unwrapped.legal_action_strings()


def _step(env, action: str) -> None:
    env.step(env.unwrapped.string_to_action(action))


def _over(env) -> bool:
    return all(env.terminations.values())


def test_the_ladder_and_the_bids_offered():
    env = bavarian_v0.env(**ALL_CONTRACTS)
    env.reset(seed=3)
    assert {"pass", "bettel", "geier", "farbwenz", "wenz", "geier_tout", "farbwenz_tout", "wenz_tout"} <= set(
        _legal(env))
    _step(env, "farbwenz")  # below it now: Rufer, Bettel, Geier and Farbwenz itself
    assert not {"rufer", "bettel", "geier", "farbwenz"} & set(_legal(env))
    assert {"wenz", "geier_tout", "farbwenz_tout", "wenz_tout"} <= set(_legal(env))
    _step(env, "geier_tout")  # a Tout is above every game alone
    assert not {"wenz", "solo", "geier_tout"} & set(_legal(env))
    assert {"farbwenz_tout", "wenz_tout"} <= set(_legal(env))
    only_geier = bavarian_v0.env(geier=True)
    only_geier.reset(seed=3)
    assert {"geier", "geier_tout"} <= set(_legal(only_geier))
    assert not {"farbwenz", "farbwenz_tout", "bettel"} & set(_legal(only_geier))


def test_a_farbwenz_names_its_suit_and_a_geier_needs_none():
    env = bavarian_v0.env(farbwenz=True, geier=True)
    env.reset(seed=1)
    _step(env, "farbwenz")
    for _ in range(3):
        _step(env, "pass")
    assert env.unwrapped.state()["phase"] == "choosing_trump"
    suit = _legal(env)[0]
    _step(env, suit)
    state = env.unwrapped.state()
    assert (state["contract"], state["trump"], state["phase"]) == ("farbwenz", suit[-1], "playing")
    env.reset(seed=1)
    _step(env, "geier")
    for _ in range(3):
        _step(env, "pass")
    state = env.unwrapped.state()
    assert (state["contract"], state["trump"], state["phase"]) == ("geier", "geier", "playing")


def _hand(seat_cards: dict[int, list[str]]) -> dict:
    return {"dealer": 3, "hands": {f"player_{seat}": cards for seat, cards in seat_cards.items()}}


BETTEL_DEAL = {  # player_0 holds only low cards: a Bettel it cannot lose when it plays low
    0: ["E7", "E8", "G7", "G8", "H7", "H8", "S7", "S8"],
    1: ["EA", "EK", "EO", "EU", "E10", "E9", "GA", "GK"],
    2: ["GO", "GU", "G10", "G9", "HA", "HK", "HO", "HU"],
    3: ["H10", "H9", "SA", "SK", "SO", "SU", "S10", "S9"],
}


@pytest.mark.parametrize("tariff, units", [("card", 1), ("sauspiel", 20), ({"bettel": {"base": 7}}, 7)])
def test_a_bettel_without_a_trick_wins_its_base_three_times(tariff, units):
    env = bavarian_v0.env(bettel=True, tariff=tariff)
    env.reset(options=_hand(BETTEL_DEAL))
    _step(env, "bettel")
    while not _over(env):
        legal = [a for a in _legal(env) if GERMAN_32.is_card(a)]
        if env.agent_selection == "player_0":
            _step(env, max(legal, key=GERMAN_32.parse))  # its 8s before its 7s: never a trick
        else:
            _step(env, legal[0] if "pass" not in _legal(env) else "pass")
    state = env.unwrapped.state()
    assert state["contract"] == "bettel" and state["tricks_won"]["player_0"] == 0
    assert len(state["tricks"]) == 8  # every trick is played
    assert state["result"] == [3 * units, -units, -units, -units]
    assert state["laufende"] == 0


GEIER_DEAL = {  # player_0: the four Obers and the four aces, every trick in a Geier, four Laufende
    0: ["EO", "GO", "HO", "SO", "EA", "GA", "HA", "SA"],
    1: ["EU", "GU", "HU", "SU", "E10", "G10", "H10", "S10"],
    2: ["EK", "GK", "HK", "SK", "E9", "G9", "H9", "S9"],
    3: ["E8", "G8", "H8", "S8", "E7", "G7", "H7", "S7"],
}


@pytest.mark.parametrize("bid, tariff, units", [
    ("geier_tout", "card", 2 * (5 + 4)),  # a Tout: base and four Laufende, doubled
    ("geier", "card", 5 + 2 + 4),  # Schwarz twice Schneider, four Laufende
    ("geier", "sauspiel", 50 + 20 + 40),
    ("geier_tout", {"geier": {"base": 30, "laufende": 5}}, 2 * (30 + 20)),
])
def test_geier_values(bid, tariff, units):
    env = bavarian_v0.env(geier=True, tariff=tariff)
    env.reset(options=_hand(GEIER_DEAL))
    _step(env, bid)
    while not _over(env):
        legal = _legal(env)
        _step(env, "pass" if "pass" in legal else legal[0])
    state = env.unwrapped.state()
    assert state["tricks_won"]["player_0"] == 8 and state["laufende"] == 4
    assert state["result"] == [3 * units, -units, -units, -units]


def test_observation_blocks_of_the_contract_options():
    env = bavarian_v0.env(**ALL_CONTRACTS, observation_type="perfect")
    params = kernel.make_params(**ALL_CONTRACTS)
    layout = dict(kernel.observation_layout(params, kernel.OBS_TYPE_PERFECT))
    assert layout["extra_bids"] == 20 and layout["extra_contract"] == 5
    assert env.observation_space("player_0")["observation"].shape == (1601 + 25,)
    assert env.action_space("player_0").n == 56
    env.reset(options=_hand(GEIER_DEAL))
    _step(env, "pass")
    _step(env, "farbwenz_tout")
    _step(env, "pass")
    _step(env, "pass")
    _step(env, "trump:E")
    observation = env.observe("player_0")["observation"]
    at = kernel.OBS_EXTRA
    bids = observation[at : at + 20].reshape(4, 5)
    assert bids[1].tolist() == [0, 0, 0, 1, 0] and bids[[0, 2, 3]].sum() == 0  # relative seat 1 bid it
    assert observation[at + 20 : at + 25].tolist() == [0, 0, 0, 1, 0]
    assert observation[kernel.OBS_CONTRACT : kernel.OBS_CONTRACT + 6].sum() == 0
    assert observation[kernel.OBS_TRUMP : kernel.OBS_TRUMP + 5].tolist() == [1, 0, 0, 0, 0]
    assert observation[kernel.OBS_BIDS : kernel.OBS_BIDS + 28].reshape(4, 7)[1].sum() == 0
    default = bavarian_v0.env()
    assert default.action_space("player_0").n == 46
    assert default.observation_space("player_0")["observation"].shape == (385,)


@pytest.mark.parametrize("options, message", [
    ({"geier": "yes"}, "geier must be True or False"),
    ({"bettel": 1}, "bettel must be True or False"),
    ({"tariff": {"bettel": {"laufende": 1}}}, "laufende"),
    ({"tariff": {"farbwenz": {"basis": 1}}}, "basis"),
    ({"tariff": {"geier": {"laufende_from": 0}}}, "laufende_from"),
    ({"farbgeier": True}, "farbgeier"),
])
def test_bad_options_are_refused_by_name(options, message):
    with pytest.raises(ValueError, match=message):
        bavarian_v0.env(**options)


def test_a_record_carries_the_options_and_replays():
    config = {**ALL_CONTRACTS, "tariff": {"geier": {"base": 9}}}
    env = bavarian_v0.env(**config)
    for seed in range(40):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not _over(env):
            legal = _legal(env)
            new = [a for a in legal if a in NEW_BIDS]
            _step(env, new[0] if new else legal[rng.integers(len(legal))])
        record = env.unwrapped.game_record()
        assert record["config"]["geier"] and record["config"]["farbwenz"] and record["config"]["bettel"]
        assert record["config"]["tariff"]["geier"]["base"] == 9
        twin = bavarian_v0.env(**config)
        twin.unwrapped.replay(record)
        assert twin.unwrapped.state()["result"] == env.unwrapped.state()["result"]
        assert env.unwrapped.state()["contract"] in NEW_BIDS


@pytest.mark.parametrize("config", [ALL_CONTRACTS, CONTRACT_CONFIGS[4]], ids=option_id)
def test_pettingzoo_api_and_seed(config):
    api_test(bavarian_v0.env(**config), num_cycles=60)
    seed_test(lambda: bavarian_v0.env(**config), num_cycles=60)


@pytest.mark.parametrize("bid", NEW_BIDS)
def test_batch_env_plays_the_contracts_as_the_aec_env(bid):
    from schafkopf_env.batch import BatchEnv

    config = dict(ALL_CONTRACTS, doubling=True)
    aec = bavarian_v0.env(**config)
    aec.reset(options=_hand(GEIER_DEAL if bid.startswith("geier") else BETTEL_DEAL))
    batch = BatchEnv("bavarian", num_envs=2, seed=0, num_threads=1, **config)
    out = batch.load_states(np.stack([aec.unwrapped.kernel_state()] * 2))
    rng = np.random.default_rng(2)
    while not _over(aec):
        observation = aec.observe(aec.agent_selection)
        np.testing.assert_array_equal(out.observation[0], observation["observation"])
        np.testing.assert_array_equal(out.action_mask[0], observation["action_mask"])
        legal = _legal(aec)
        name = bid if bid in legal else "pass" if "pass" in legal else legal[rng.integers(len(legal))]
        action = aec.unwrapped.string_to_action(name)
        out = batch.step(np.array([action, action]))
        aec.step(action)
    assert out.terminated[0]
    assert aec.unwrapped.state()["contract"] == bid
    assert out.rewards[0].tolist() == aec.unwrapped.state()["result"]


def _play_with_agents(env, players, seed: int) -> None:
    env.reset(seed=seed)
    for agent in env.agent_iter():
        _, _, termination, truncation, _ = env.last()
        env.step(None if termination or truncation else players[int(agent[-1])].act(env, agent))


def test_the_rules_agent_plays_the_new_contracts_to_the_end():
    """The rules agent reads the options' contract block and plays every hand to the end (the env raises on
    an illegal action), some of them in the new contracts."""
    import agents

    players = [agents.make("rules", "bavarian", seed=seat) for seat in range(4)]
    contracts: Counter = Counter()
    for config in (ALL_CONTRACTS, CONTRACT_CONFIGS[4]):
        env = bavarian_v0.env(**config)
        for seed in range(100):
            _play_with_agents(env, players, seed)
            state = env.unwrapped.state()
            assert state["phase"] == "over"
            contracts[state["contract"]] += 1
    assert contracts["geier"] + contracts["farbwenz"] > 0, contracts


@pytest.mark.parametrize("hand, bid", [
    (["EO", "GO", "SO", "EA", "GA", "HA", "S9", "S8"], "geier"),
    (["EU", "HU", "GA", "G10", "GK", "G9", "G8", "S7"], "farbwenz"),
    (["E7", "E8", "G7", "G9", "H8", "H9", "S7", "S10"], "bettel"),
    (["EO", "GO", "HO", "SO", "EA", "GA", "HA", "SA"], "geier_tout"),
])
def test_the_rules_agent_bids_the_hand_it_holds(hand, bid):
    import agents

    env = bavarian_v0.env(**ALL_CONTRACTS)
    rest = [card for card in reference.PACK if card not in hand]
    env.reset(options={"dealer": 3, "hands": {"player_0": hand, "player_1": rest[:8], "player_2": rest[8:16],
                                              "player_3": rest[16:]}})
    player = agents.make("rules", "bavarian", seed=0)
    assert env.unwrapped.action_to_string(player.act(env, "player_0")) == bid


def test_the_rules_agent_declares_a_bettel_without_taking_a_trick():
    import agents

    env = bavarian_v0.env(bettel=True)
    players = [agents.make("rules", "bavarian", seed=seat) for seat in range(4)]
    env.reset(options=_hand(BETTEL_DEAL))
    for bid in ("bettel", "pass", "pass", "pass"):
        _step(env, bid)
    for agent in env.agent_iter():
        _, _, termination, truncation, _ = env.last()
        env.step(None if termination or truncation else players[int(agent[-1])].act(env, agent))
    state = env.unwrapped.state()
    assert state["contract"] == "bettel" and state["tricks_won"]["player_0"] == 0


def test_pimc_plays_the_new_contracts():
    """``pimc`` searches the kernel state, whose params carry the options."""
    import agents

    env = bavarian_v0.env(**ALL_CONTRACTS)
    players = [agents.make("pimc", "bavarian", seed=seat, samples=4, playouts_per_sample=2, bid_samples=4)
               for seat in range(4)]
    env.reset(options=_hand(GEIER_DEAL))
    _step(env, "geier")
    for agent in env.agent_iter():
        _, _, termination, truncation, _ = env.last()
        env.step(None if termination or truncation else players[int(agent[-1])].act(env, agent))
    state = env.unwrapped.state()
    assert state["contract"] in ("geier", "geier_tout", "farbwenz_tout", "wenz_tout", "solo_tout", "sie")
    assert state["phase"] == "over"


@pytest.mark.parametrize("bid", ["geier", "farbwenz", "bettel"])
def test_pimc_dd_plays_the_new_contracts(bid):
    """The exact solver knows the new contracts (its exactness: tests/solver/test_bavarian_options.py), so
    ``pimc_dd`` searches the declarer's first card instead of refusing."""
    import agents

    env = bavarian_v0.env(**ALL_CONTRACTS)
    env.reset(options=_hand(GEIER_DEAL))
    for action in (bid, "pass", "pass", "pass"):
        _step(env, action)
    if bid == "farbwenz":
        _step(env, "trump:E")
    dd = agents.make("pimc_dd", "bavarian", seed=0, worlds=2, fallback=False)
    mask = env.observe("player_0")["action_mask"]
    assert mask[dd.act(env, "player_0")] == 1


def test_the_rules_agent_ducks_under_the_best_card_in_a_bettel():
    """Declaring a Bettel it keeps its low cards: under a King it drops the 10 (the highest card that loses),
    not the 7."""
    import agents

    env = bavarian_v0.env(bettel=True)
    env.reset(options={"dealer": 0, "hands": {
        "player_0": "E10 E8 E7 G7 H7 H8 S7 S8".split(), "player_1": "E9 EA EO EU G9 G8 H9 S9".split(),
        "player_2": "EK GA GK GO GU G10 HA HK".split(), "player_3": "SA S10 SK SO SU HO HU H10".split()}})
    for action in ("pass", "pass", "pass", "bettel", "E9", "EK", "SA"):
        _step(env, action)
    player = agents.make("rules", "bavarian", seed=0)
    assert env.unwrapped.action_to_string(player.act(env, "player_0")) == "E10"
