"""Bavarian Schafkopf's rule options ``tariff`` and ``pack`` (issue 32): the kernel against the plain-Python
reference on thousands of seeded random hands under each, the tariffs' figures, the short pack's deals, the
options' checks, records that carry them, and PettingZoo's ``api_test`` / ``seed_test``.

The default game (no options) is compared by ``test_kernel_vs_reference.py`` and replayed byte for byte by
the golden files; here ``make_params()`` and the env's spaces and config are checked to be the default's.
Kontra and Re, Klopfen and Ramsch on the env (their turns, no-leak twins, agents) are ``test_option_stakes.py``.
"""

from __future__ import annotations

import functools
from collections import Counter

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from schafkopf_env import bavarian_v0
from schafkopf_env.bavarian import kernel, reference
from schafkopf_env.trumps import HEARTS
from tests.bavarian.helpers import deal_with_hand
from tests.bavarian.test_kernel_vs_reference import choose, play_deal, tout_chooser

CUSTOM_TARIFF = {"rufer": {"base": 30, "laufende_from": 2}, "wenz": {"schneider_schwarz": 5, "laufende": 20}}
OPTION_CONFIGS = [
    {"tariff": "sauspiel"},
    {"pack": "short"},
    {"tariff": CUSTOM_TARIFF, "pack": "short"},
    {"doubling": True},
    {"doubling": True, "tariff": "sauspiel", "pack": "short"},
    {"klopfen": True},
    {"klopfen": True, "doubling": True, "tariff": CUSTOM_TARIFF},
    {"ramsch": True},
    {"ramsch": True, "doubling": True, "klopfen": True, "pack": "short",
     "tariff": {"ramsch": {"base": 10, "durchmarsch": 61, "jungfrau": "double_individually_multiple"}}},
    {"ramsch": True, "tariff": {"ramsch": {"base": 10, "durchmarsch": None, "jungfrau": "double_individually_once"}}},
]
"""The option configurations compared with the reference (each on ``HANDS_PER_CONFIG`` hands)."""
HANDS_PER_CONFIG = 2000


def option_id(config: dict) -> str:
    return ",".join(f"{k}={'custom' if isinstance(v, dict) else v}" for k, v in config.items())


def random_deal(rng: np.random.Generator, steer: bool, pack: str) -> tuple[int, list[list[str]]]:
    """A random deal of ``pack``; when steering, one seat gets an ace and two or three more plain cards of
    its suit (so that the called-ace holder can run away with the 9 of the short pack too)."""
    cards = list(reference.SHORT_PACK if pack == "short" else reference.PACK)
    size = len(cards) // 4
    hands: list[list[str]] = [[], [], [], []]
    if steer:
        suit = reference.CALLABLE_SUITS[rng.integers(3)]
        holder = int(rng.integers(4))
        plain = [suit + rank for rank in ("10", "K", "9", "8", "7") if suit + rank in cards]
        others = list(rng.permutation(plain)[: int(rng.integers(2, 4))])
        hands[holder] = [suit + "A", *others]
        cards = [card for card in cards if card not in hands[holder]]
    rest = [cards[i] for i in rng.permutation(len(cards))]
    for seat in range(4):
        need = size - len(hands[seat])
        hands[seat] += rest[:need]
        rest = rest[need:]
    return int(rng.integers(4)), hands


@pytest.mark.parametrize("config", OPTION_CONFIGS, ids=option_id)
def test_kernel_matches_reference_under_each_option(config):
    stats: Counter = Counter()
    pack = config.get("pack", "long")
    for seed in range(HANDS_PER_CONFIG):
        rng = np.random.default_rng(seed)
        steer = seed % 2 == 1
        dealer, hands = random_deal(rng, steer, pack)
        game = play_deal(dealer, hands, functools.partial(choose, rng, steer=steer), stats, seed, config)
        if game.contract and game.declarer_side_tricks() in (0, game.hand_size) and game.contract not in (
                "wenz_tout", "solo_tout", "sie"):
            stats["schwarz_" + pack] += 1
        stats[f"doublings_{len(game.doublers)}"] += 1
        stats[f"knocks_{len(game.knocked)}"] += 1
        if game.contract == "ramsch":
            stats["ramsch_jungfrau"] += 0 in game.tricks_won
            stats["ramsch_tie"] += sorted(game.points)[-1] == sorted(game.points)[-2]
            stats["ramsch_march"] += max(game.points) >= 61 and 0 in game.tricks_won
        said = [action for _, action in game.history]
        if "re" in said and game.contract == "rufer" and game.partner in [s for s, a in game.history if a == "re"]:
            stats["partner_said_re"] += 1
    situations = ["rufer", "wenz", "solo", "wenz_tout", "solo_tout", "thrown_in", "tout_lost", "laufende",
                  "schwarz_" + pack]
    if config.get("doubling"):
        situations += ["doublings_0", "doublings_1", "doublings_2", "doublings_4", "partner_said_re"]
    else:
        assert stats["doublings_0"] == HANDS_PER_CONFIG
    if config.get("klopfen"):
        situations += ["knocks_0", "knocks_2", "knocks_4"]
    else:
        assert stats["knocks_0"] == HANDS_PER_CONFIG
    if config.get("ramsch"):
        situations.remove("thrown_in")
        situations += ["ramsch", "ramsch_jungfrau", "ramsch_tie"]
    else:
        assert stats["ramsch"] == 0
    for situation in situations:
        assert stats[situation] > 0, f"no {situation} among {dict(stats)}"


SHORT_TOUTS = {
    "wenz_tout": ["EU", "GU", "HU", "SU", "EA", "GA"],
    "solo_tout": ["EO", "GO", "HO", "SO", "EU", "H9"],
}
"""Six-card Touts that take every trick when the declarer leads its highest trump (a Solo needs a plain card
of its suit: the heart 9 wins the last trick once five rounds of trumps have drawn the other six)."""


@pytest.mark.parametrize("contract", sorted(SHORT_TOUTS))
@pytest.mark.parametrize("tariff", ["card", "sauspiel"])
def test_won_touts_of_the_short_pack(contract, tariff):
    stats: Counter = Counter()
    for seed in range(30):
        rng = np.random.default_rng(seed)
        declarer, hands = deal_with_hand(rng, reference.SHORT_PACK, SHORT_TOUTS[contract])
        game = play_deal((declarer - 1) % 4, hands, tout_chooser(contract, declarer, rng), stats, seed,
                         {"pack": "short", "tariff": tariff})
        assert game.contract == contract and not game.tout_lost and game.declarer_side_tricks() == 6
        laufende = game.laufende()
        per_lauf, base = (10, 50) if tariff == "sauspiel" else (1, 5)
        assert game.settlement()[declarer] == 3 * 2 * (base + per_lauf * laufende)


@pytest.mark.parametrize("tariff, units", [("card", 3 * 4 * (5 + 6)), ("sauspiel", 3 * 4 * (50 + 6 * 10))])
def test_a_sie_of_the_short_pack_is_its_six_highest_trumps(tariff, units):
    """(decision B13) The six highest trumps make a Sie; it counts six Laufende."""
    sie = ["EO", "GO", "HO", "SO", "EU", "GU"]
    rest = [card for card in reference.SHORT_PACK if card not in sie]
    hands = [sie, rest[:6], rest[6:12], rest[12:]]
    stats: Counter = Counter()
    game = play_deal(3, hands, lambda game, legal: "sie" if "sie" in legal else legal[0], stats, 0,
                     {"pack": "short", "tariff": tariff})
    assert game.contract == "sie" and game.settlement()[0] == units
    almost = ["EO", "GO", "HO", "SO", "EU", "HU"]
    assert not reference.holds_sie(almost)


@pytest.mark.parametrize("contract, points, tricks, laufende, expected", [
    ("rufer", 61, 5, 0, (True, 20)),
    ("rufer", 91, 7, 3, (True, 20 + 10 + 30)),
    ("rufer", 30, 1, 0, (False, 30)),
    ("rufer", 0, 0, 4, (False, 20 + 20 + 40)),
    ("solo", 75, 6, 0, (True, 50)),
    ("solo", 120, 8, 3, (True, 50 + 20 + 30)),
    ("wenz", 60, 4, 2, (False, 50 + 20)),
    ("solo_tout", 120, 8, 4, (True, 2 * (50 + 40))),
    ("wenz_tout", 100, 7, 0, (False, 100)),
])
def test_the_sauspiel_tariff(contract, points, tricks, laufende, expected):
    """sauspiel.de's cents: Rufer 20, Solo and Wenz 50, Schneider 10 and Schwarz 10 more, 10 a Laufender, a
    Tout doubled (openschafkopf's payout deciders)."""
    tout_lost = int(contract.endswith("tout") and tricks < 8)
    assert reference.score(contract, points, tricks, laufende, bool(tout_lost), "sauspiel") == expected
    params = kernel.make_params(tariff="sauspiel")
    code = kernel.CONTRACT_NAMES.index(contract)
    assert kernel.value_with(params, 0, code, points, tricks, laufende, tout_lost, 8) == expected


def test_laufende_of_the_short_pack_skip_the_cards_left_out():
    """Laufende are counted over the pack's trumps (openschafkopf's ``count_laufende``): in the short pack a
    side missing every Rufer trump has twelve against it (the heart 9 the lowest), not fourteen."""
    others = ["EA", "E10", "EK", "E9", "GA", "G10", "GK", "G9", "SA", "S10", "SK", "S9"]
    minimum = 3
    assert reference.laufende("rufer", "H", others, minimum, reference.SHORT_PACK) == 12
    assert reference.laufende("rufer", "H", others, minimum, reference.PACK) == 14
    pack = kernel.SHORT_PACK_MASK
    mask = np.uint64(sum(1 << reference.PACK.index(card) for card in others))
    params = kernel.make_params(pack="short")
    assert kernel.laufende_with(params, 0, kernel.RUFER, HEARTS, mask, 6, pack) == 12
    assert kernel.counted_laufende(kernel.RUFER, HEARTS, mask) == 14


# ---------------------------------------------------------------- the env
def test_defaults_are_the_game_as_it_was():
    env = bavarian_v0.env()
    assert env.unwrapped.config == {} == bavarian_v0.env(tariff="card", pack="long").unwrapped.config
    assert env.action_space("player_0").n == 46
    assert kernel.OBS_SIZES == (385, 1473, 1601)
    assert kernel.make_params().tolist() == kernel.make_params(tariff="card", pack="long").tolist()


@pytest.mark.parametrize("options, message", [
    ({"tarif": "card"}, "tarif"),
    ({"tariff": "skat"}, "unknown tariff 'skat'"),
    ({"tariff": {"skat": {"base": 1}}}, "famil"),
    ({"tariff": {"ramsch": {"laufende": 1}}}, "laufende"),
    ({"tariff": {"ramsch": {"durchmarsch": 60}}}, "durchmarsch"),
    ({"tariff": {"ramsch": {"jungfrau": "double"}}}, "jungfrau"),
    ({"ramsch": "yes"}, "ramsch must be True or False"),
    ({"klopfen": 1}, "klopfen must be True or False"),
    ({"tariff": {"rufer": {"bonus": 1}}}, "bonus"),
    ({"tariff": {"rufer": {"base": -1}}}, "base"),
    ({"tariff": {"rufer": {"base": True}}}, "base"),
    ({"tariff": {"solo": {"laufende_from": 0}}}, "laufende_from"),
    ({"tariff": {"solo": 5}}, "mapping"),
    ({"tariff": 20}, "tariff"),
    ({"pack": "kurz"}, "unknown pack 'kurz'"),
])
def test_bad_options_are_refused_by_name(options, message):
    with pytest.raises((ValueError, TypeError), match=message):
        bavarian_v0.env(**options)


def test_a_custom_tariff_is_recorded_in_full_and_replays():
    env = bavarian_v0.env(tariff=CUSTOM_TARIFF, pack="short")
    config = env.unwrapped.config
    assert config["pack"] == "short"
    assert config["tariff"]["rufer"] == {"base": 30, "schneider_schwarz": 10, "laufende": 10, "laufende_from": 2}
    assert config["tariff"]["solo"] == {"base": 50, "schneider_schwarz": 10, "laufende": 10, "laufende_from": 3}
    rng = np.random.default_rng(3)
    env.reset(seed=3)
    for _agent in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        env.step(None if termination or truncation else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    record = env.unwrapped.game_record()
    assert all(len(hand) == 6 for hand in record["deal"]["hands"].values())
    again = bavarian_v0.env(**record["config"])
    again.unwrapped.replay(record)
    assert again.unwrapped.game_record() == record
    with pytest.raises(ValueError, match="config"):
        bavarian_v0.env(pack="short").unwrapped.replay(record)


def test_short_pack_deals_six_cards_of_the_24():
    env = bavarian_v0.env(pack="short")
    seen = 0
    for seed in range(50):
        env.reset(seed=seed)
        hands = env.unwrapped.state()["hands"]
        cards = [card for hand in hands.values() for card in hand]
        assert all(len(hand) == 6 for hand in hands.values())
        assert sorted(cards) == sorted(reference.SHORT_PACK)
        seen |= sum(1 << reference.PACK.index(card) for card in hands["player_0"])
    assert seen == int(kernel.SHORT_PACK_MASK)  # every card of the pack reaches a seat


@pytest.mark.parametrize("hands, message", [
    ({"player_0": ["E8", "EO", "GO", "HO", "SO", "EU"]}, "E8"),
    ({"player_0": ["EO", "GO", "HO", "SO", "EU"]}, "6"),
])
def test_short_pack_fixed_deals_are_checked(hands, message):
    full = {"player_0": "EO GO HO SO EU GU".split(), "player_1": "HU SU EA E10 EK E9".split(),
            "player_2": "GA G10 GK G9 HA H10".split(), "player_3": "HK H9 SA S10 SK S9".split()}
    env = bavarian_v0.env(pack="short")
    env.reset(options={"hands": full})
    assert env.unwrapped.legal_action_strings()[-1] == "sie"
    with pytest.raises(ValueError, match=message):
        env.reset(options={"hands": {**full, **hands}})


def test_short_pack_observation_counts_tricks_of_six():
    """``tricks_won`` is the share of the hand's six tricks; no card outside the pack is ever observed."""
    env = bavarian_v0.env(pack="short", observation_type="perfect")
    rng = np.random.default_rng(0)
    left_out = [reference.PACK.index(card) for card in reference.PACK if card not in reference.SHORT_PACK]
    played_out = 0
    for seed in range(40):
        env.reset(seed=seed)
        final = None
        for agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            obs = observation["observation"]
            for start, size in ((kernel.OBS_HAND, 32), (kernel.OBS_PLAYED, 128), (kernel.OBS_ALL_HANDS, 128)):
                block = obs[start : start + size].reshape(-1, 32)
                assert not block[:, left_out].any()
            if termination or truncation:
                final = obs if agent == "player_0" else final
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        state = env.unwrapped.state()
        if state["contract"] in ("rufer", "wenz", "solo"):
            played_out += 1
            assert sum(state["tricks_won"].values()) == 6
            shares = final[kernel.OBS_TRICKS_WON : kernel.OBS_TRICKS_WON + 4]  # player_0's: relative = absolute
            expected = [state["tricks_won"][f"player_{r}"] / 6 for r in range(4)]
            np.testing.assert_allclose(shares, expected, rtol=1e-6)
    assert played_out > 0


@pytest.mark.parametrize("config", OPTION_CONFIGS, ids=option_id)
def test_pettingzoo_api_and_seed(config):
    api_test(bavarian_v0.env(**config), num_cycles=60)
    seed_test(lambda: bavarian_v0.env(**config), num_cycles=60)


@pytest.mark.parametrize("config", OPTION_CONFIGS, ids=option_id)
def test_batch_env_plays_the_options_as_the_aec_env(config):
    """The batch env rebuilds the rules from the config: its settlements are the AEC env's on the same
    loaded states and actions."""
    from schafkopf_env.batch import BatchEnv

    aec = bavarian_v0.env(**config)
    aec.reset(seed=5)
    batch = BatchEnv("bavarian", num_envs=2, seed=0, num_threads=1, **config)
    out = batch.load_states(np.stack([aec.unwrapped.kernel_state()] * 2))
    rng = np.random.default_rng(1)
    for _agent in aec.agent_iter():
        observation, _, termination, truncation, _ = aec.last()
        if termination or truncation:
            aec.step(None)
            continue
        np.testing.assert_array_equal(out.observation[0], observation["observation"])
        np.testing.assert_array_equal(out.action_mask[0], observation["action_mask"])
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        out = batch.step(np.array([action, action]))
        aec.step(action)
        if out.terminated[0]:
            assert out.rewards[0].tolist() == aec.unwrapped.state()["result"]
            return
    raise AssertionError("the batch env's hand did not end with the AEC env's")
