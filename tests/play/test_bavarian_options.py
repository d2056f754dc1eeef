"""The browser table plays Bavarian Schafkopf under every rule option of ``schafkopf_env.bavarian_v0``
(``tariff``, ``pack``, ``doubling``, ``klopfen``, ``ramsch``, ``geier``, ``farbwenz``, ``bettel``): every
contract, Ramsch, Kontra / Re and Klopfen reach the end of a hand, every state renders for every seat, and
every action and contract has words."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("fastapi", reason="the play group is not installed: pip install -e '.[play]'")

from fastapi.testclient import TestClient  # noqa: E402

from play.catalog import CONTRACT_NAMES, make_env  # noqa: E402
from play.replay import replay_env  # noqa: E402
from play.server import AppSettings, create_app  # noqa: E402
from play.session import PlayError  # noqa: E402
from play.views import action_control, table_view  # noqa: E402
from tests.play.helpers import all_card_names, card_tokens, forbidden_cards  # noqa: E402
from tests.play.test_server import new_table, play_hand  # noqa: E402
from tests.play.test_views import check_view_shape  # noqa: E402

DEFAULTS = {"tariff": "card", "pack": "long", "doubling": False, "klopfen": False, "ramsch": False, "geier": False,
            "farbwenz": False, "bettel": False}
"""The env's defaults (``bavarian_v0``): a record's and a view's config hold only the other values."""
EVERY_OPTION = {"doubling": True, "klopfen": True, "ramsch": True, "geier": True, "farbwenz": True, "bettel": True}
CONFIGS = {
    "long-card": {**EVERY_OPTION, "tariff": "card", "pack": "long"},
    "short-sauspiel": {**EVERY_OPTION, "tariff": "sauspiel", "pack": "short"},
}
CONTRACTS = ("rufer", "wenz", "solo", "wenz_tout", "solo_tout", "geier", "farbwenz", "geier_tout",
             "farbwenz_tout", "bettel", "ramsch")
"""Every contract a hand can end in but the Sie (dealt too rarely to find by seed)."""
TOP_TRUMPS = {  # the rules page, section 6 (Geier, Farbwenz, Bettel): the highest cards of a hand, in order
    "geier": ["EO", "GO", "HO", "SO"],
    "farbwenz": ["EU", "GU", "HU", "SU"],
}
BETTEL_SUIT_ORDER = ("A", "K", "O", "U", "10", "9", "8", "7")


def scripted_action(env, target: str, rng) -> str:
    """``player_0`` (forehand) knocks and bids ``target`` (a Ramsch: everybody passes), the others pass; the
    first opponent asked says Kontra and everyone who may says Re; cards at random."""
    base = env.unwrapped
    state, legal = base.state(), base.legal_action_strings()
    agent, phase = state["current_player"], state["phase"]
    if phase == "klopfen":
        return "knock" if agent == "player_0" else "no_knock"
    if phase == "bidding":
        return target if agent == "player_0" and target in legal else "pass"
    if phase == "contra_offer":
        return "contra" if "contra" in legal else "no_double"
    if phase == "doubling_round":
        return "re" if "re" in legal else "no_double"
    if phase == "playing":
        return legal[int(rng.integers(len(legal)))]
    return legal[0]  # the called ace, the trump suit, the Farbwenz's suit


def play_scripted(env, seed: int, target: str, visit=None) -> None:
    rng = np.random.default_rng(seed)
    env.reset(seed=seed, options={"dealer": 3})
    while env.unwrapped.state()["current_player"] is not None:
        if visit is not None:
            visit(env)
        env.step(env.unwrapped.string_to_action(scripted_action(env, target, rng)))
    if visit is not None:
        visit(env)


def seed_for(env, target: str) -> int:
    """The first seed whose scripted hand ends in ``target`` (searched without rendering)."""
    for seed in range(300):
        play_scripted(env, seed, target)
        if (env.unwrapped.state()["contract"] or "") == target:
            return seed
    raise AssertionError(f"no seed deals a {target}")


def check_every_view(env) -> None:
    """Every seat's view and the full one have the page's fields; no seat is shown a card it may not see;
    every logged action reads in words."""
    cards = all_card_names(env)
    for viewer in [None, *env.unwrapped.possible_agents]:
        view = table_view(env, viewer)
        check_view_shape(view, viewer)
        if viewer is not None:
            assert not card_tokens(view, cards) & forbidden_cards(env, viewer), viewer
        for entry in view["log"]:
            assert entry["text"] and entry["text"] != entry["action"], entry
        for control in view["legal"]:
            assert control["label"] and control["label"] != control["action"], control


@pytest.mark.parametrize("config_name", CONFIGS)
@pytest.mark.parametrize("target", CONTRACTS)
def test_each_contract_plays_to_the_end_and_every_state_renders(target, config_name):
    config = CONFIGS[config_name]
    env = make_env("bavarian", config)
    seed = seed_for(env, target)
    play_scripted(env, seed, target, visit=check_every_view)
    state = env.unwrapped.state()
    size = 6 if config["pack"] == "short" else 8
    assert all(len(hand) == size for hand in state["dealt_hands"].values())
    view = table_view(env, "player_0")
    facts = dict(view["facts"])
    result = view["result"]
    settlement = env.unwrapped.game_record()["result"]
    assert result["settlement"] == dict(zip(env.possible_agents, settlement, strict=True))
    assert facts["Knocked"] == "player_0" and facts["Stake"].startswith(f"× {2 ** (1 + len(state['doublers']))} (")
    assert ("short: 24 cards, 6 a hand" in facts.get("Pack", "")) == (config["pack"] == "short")
    assert ("Tariff" in facts) == (config["tariff"] != "card")
    if target == "ramsch":
        assert "Declarer" not in facts and facts["Contract"] == "Ramsch"
        assert result["declarer_won"] is None and "a Ramsch" in result["lines"][0]
        assert result["value"] == max(abs(units) for units in settlement) > 0
        payer_or_marcher = " ".join(result["lines"][2:])
        assert "took the most card points" in payer_or_marcher or "Durchmarsch" in payer_or_marcher
        if "Durchmarsch" not in payer_or_marcher:  # both presets double for a player without a trick
            assert ("Jungfrau" in payer_or_marcher) == (0 in state["tricks_won"].values()), result["lines"]
        return
    assert facts["Contract"].endswith(CONTRACT_NAMES[target].split(" (")[0]) and facts["Declarer"] == "player_0"
    assert "Doubled" in facts and facts["Doubled"].startswith("Kontra by ")
    declarer = env.possible_agents.index(state["declarer"])
    for seat, units in enumerate(settlement):
        if seat != declarer:
            assert abs(units) == result["value"], (seed, result["lines"], settlement)
    assert (settlement[declarer] > 0) == result["declarer_won"], result["lines"]
    value_line = next(line for line in result["lines"] if line.startswith("Value:"))
    assert value_line.endswith(f"= {result['value']} units."), value_line


@pytest.mark.parametrize("target", ["geier", "farbwenz", "bettel"])
def test_the_new_contracts_sort_the_hand_by_their_own_trumps(target):
    """The hand shows the contract's trumps first from the highest (rules page section 6): Geier the Obers
    only, Farbwenz the Unters then its suit (Obers in their suits), Bettel none (every suit A K O U 10 9 8 7)."""
    env = make_env("bavarian", CONFIGS["long-card"])
    seed = seed_for(env, target)
    env.reset(seed=seed, options={"dealer": 3})
    rng = np.random.default_rng(seed)
    while env.unwrapped.state()["phase"] != "playing" or env.unwrapped.state()["contract"] != target:
        env.step(env.unwrapped.string_to_action(scripted_action(env, target, rng)))
    state = env.unwrapped.state()
    hand = next(seat["cards"] for seat in table_view(env, "player_0")["seats"] if seat["agent"] == "player_0")
    assert sorted(hand) == sorted(state["hands"]["player_0"])
    trumps = list(TOP_TRUMPS.get(target, []))
    if target == "farbwenz":
        trumps += [state["trump"] + rank for rank in ("A", "10", "K", "O", "9", "8", "7")]
        assert dict(table_view(env, "player_0")["facts"])["Trumps"].startswith("the four Unters, then ")
    held_trumps = [card for card in trumps if card in hand]
    assert hand[: len(held_trumps)] == held_trumps, hand
    if target == "bettel":
        assert dict(table_view(env, "player_0")["facts"])["Trumps"].startswith("none")
        for suit in "EGHS":
            in_suit = [card for card in hand if card[0] == suit]
            assert in_suit == sorted(in_suit, key=lambda card: BETTEL_SUIT_ORDER.index(card[1:])), hand


def test_every_action_under_every_option_has_words():
    """Each action string of the env with every option on (``action_to_string`` over the whole action space)
    reaches the page as a control whose label is words, not the action's code."""
    env = make_env("bavarian", CONFIGS["long-card"])
    env.reset(seed=0)
    names = [env.unwrapped.action_to_string(index) for index in range(env.action_space("player_0").n)]
    assert {"contra", "re", "no_double", "knock", "no_knock", "geier", "farbwenz", "geier_tout", "farbwenz_tout",
            "bettel"} <= set(names)
    for action in names:
        label = action_control(env, action)["label"]
        assert label and label != action and "_" not in label, (action, label)
    assert all(contract in CONTRACT_NAMES for contract in ("geier", "farbwenz", "geier_tout", "farbwenz_tout",
                                                            "bettel", "ramsch"))


# ---------------------------------------------------------------------------------------------- the table


@pytest.fixture
def client():
    app = create_app(AppSettings(bot_delay=0.0))
    with TestClient(app, base_url="http://127.0.0.1") as test_client:
        yield test_client


TABLE_CONFIGS = [{"doubling": True}, {"klopfen": True}, {"ramsch": True}, {"geier": True, "farbwenz": True,
                 "bettel": True}, {"pack": "short", "tariff": "sauspiel"}, {**EVERY_OPTION, "pack": "short"}]


@pytest.mark.parametrize("config", TABLE_CONFIGS, ids=lambda config: "-".join(f"{k}={v}" for k, v in config.items()))
def test_a_table_with_the_options_plays_a_hand_with_the_bots(client, config):
    """A table opened with the options plays whole hands against the rule bots, the human moving at random,
    and the record's config holds the options."""
    view = new_table(client, "bavarian", config, seed=3)
    assert {name: view["config"].get(name, DEFAULTS[name]) for name in config} == config
    for _ in range(2):
        over = play_hand(client, view, seed=5)
        assert over["result"]["lines"] and set(over["result"]["settlement"]) == set(over["agents"])
        record = client.get(f"/api/sessions/{over['session']}/hands/{over['hand_number']}/record").json()
        assert {name: record["config"].get(name, DEFAULTS[name]) for name in config} == config
        view = client.post(f"/api/sessions/{over['session']}/next", json={"hand": over["hand_number"]}).json()


@pytest.mark.parametrize(("config", "words"), [
    ({"pack": "tiny"}, "pack='tiny'"), ({"doubling": "yes"}, "doubling='yes'"), ({"tarif": "card"}, "tarif"),
])
def test_a_bad_bavarian_option_is_refused_with_its_name(client, config, words):
    response = client.post("/api/sessions", json={"game": "bavarian", "config": config, "seat": "player_0"})
    assert response.status_code == 400 and words in response.json()["error"], response.text


def test_the_catalog_offers_the_bavarian_options(client):
    games = {game["name"]: game for game in client.get("/api/catalog").json()["games"]}
    options = {option["name"]: option for option in games["bavarian"]["options"]}
    assert set(options) == {"tariff", "pack", *EVERY_OPTION}
    assert options["pack"]["choices"] == ["long", "short"] and options["doubling"]["choices"] == [False, True]


def test_a_record_with_a_custom_tariff_replays_in_the_viewer():
    """A record's custom tariff (a mapping the form does not offer) is handed to the env, which checks it; the
    replay viewer shows its hand, priced by it."""
    tariff = {"rufer": {"base": 7, "schneider_schwarz": 3, "laufende": 2, "laufende_from": 2}}
    env = make_env("bavarian", {"tariff": tariff})
    seed = seed_for(env, "rufer")
    play_scripted(env, seed, "rufer")
    record = env.unwrapped.game_record()
    replayed = replay_env(record, len(record["actions"]))
    result = table_view(replayed, None)["result"]
    assert result["settlement"] == dict(zip(env.possible_agents, record["result"], strict=True))
    assert result["value"] == max(abs(units) for units in record["result"]) and "Sauspiel 7" in " ".join(
        result["lines"])
    with pytest.raises(PlayError, match=r"tariff\['rufer'\]\['base'\] must be a whole number"):
        replay_env({**record, "config": {"tariff": {"rufer": {"base": -1}}}}, 0)
