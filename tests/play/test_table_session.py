"""What the table offers and asks (``play.session``): the bot list with a measured word on each bot's strength,
and no question with a single answer put to the player."""

from __future__ import annotations

import dataclasses
import importlib.util
import re
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("fastapi", reason="the play group is not installed: pip install -e '.[play]'")

from fastapi.testclient import TestClient  # noqa: E402

import agents  # noqa: E402
import play.session  # noqa: E402
from agents.neural import neural_available  # noqa: E402
from play.server import AppSettings, create_app  # noqa: E402
from play.session import BOT_TABLE, BUILTIN_BOTS  # noqa: E402

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture
def client():
    app = create_app(AppSettings(bot_delay=0.0))
    with TestClient(app, base_url="http://127.0.0.1") as test_client:
        yield test_client


def test_the_catalog_offers_the_trained_network_and_says_how_strong_each_bot_is(client):
    catalog = client.get("/api/catalog").json()
    bots = catalog["bots"]
    has_torch = importlib.util.find_spec("torch") is not None
    assert ("neural" in bots) == has_torch, "the trained network is offered wherever its extra (torch) is installed"
    if "pimc_dd" in agents.BUILTIN_AGENTS:
        assert "pimc_dd" in bots
    assert set(catalog["bot_notes"]) == set(bots)
    for bot in bots:
        about = catalog["bot_notes"][bot]
        assert about["strength"] and about["note"], bot
        for page in re.findall(r"docs/[\w/]+\.md", about["note"]):  # a note cites the page that measured it
            assert (DOCS.parent / page).is_file(), (bot, page)


def test_every_bot_of_the_table_is_an_agent_that_plays_the_games_it_is_offered_for(client):
    """One line per bot in ``BOT_TABLE``: each name the catalog offers for a game makes an agent for it; the
    trained network is offered for a game exactly where one is shipped for it (and torch is installed), so a
    game without a network is still played by every other bot."""
    assert len({bot.name for bot in BOT_TABLE}) == len(BOT_TABLE)
    assert BUILTIN_BOTS[0] == "rules", "the default bot stays the quick rule player"
    for game in client.get("/api/catalog").json()["games"]:
        assert game["bots"][0] == "rules" and set(game["bots"]) <= set(BUILTIN_BOTS), game
        assert set(BUILTIN_BOTS) - set(game["bots"]) <= {"neural"}, game
        assert ("neural" in game["bots"]) == ("neural" in BUILTIN_BOTS and neural_available(game["name"])), game
        for name in game["bots"]:
            assert callable(agents.make(name, game["name"]).act), (name, game["name"])


def test_a_bot_that_does_not_play_the_game_is_refused(client, monkeypatch):
    """A game no network is shipped for (here Bavarian, its network hidden from the table) does not offer
    ``neural``, and a table asking for it is refused naming the bots that play the game."""
    if "neural" not in BUILTIN_BOTS:
        pytest.skip("neural is not offered: torch is not installed")
    neural = next(bot for bot in BOT_TABLE if bot.name == "neural")
    assert neural.plays is neural_available
    monkeypatch.setattr(play.session, "BOT_TABLE", tuple(
        bot if bot.name != "neural" else dataclasses.replace(bot, plays=lambda game: game != "bavarian")
        for bot in BOT_TABLE))
    games = {game["name"]: game["bots"] for game in client.get("/api/catalog").json()["games"]}
    assert "neural" not in games["bavarian"] and "neural" in games["palatinate"]
    answer = client.post("/api/sessions", json={"game": "bavarian", "seat": "player_0", "seed": 1,
                                                "bots": {"player_1": "neural"}})
    assert answer.status_code == 400 and "bot 'neural' does not play bavarian" in answer.json()["error"]


def test_a_question_with_one_answer_is_answered_for_the_player(client):
    """Over whole Knüffeln and Palatinate hands no view asks the player a question whose only answer is a
    button (``"Exchange a ten?"`` with only Decline); the table answered it and said so."""
    notes = []
    for game, seed in [("knuffeln", 0), ("knuffeln", 1), ("knuffeln", 2), ("palatinate", 0), ("palatinate", 1)]:
        view = client.post("/api/sessions", json={"game": game, "seat": "player_1", "seed": seed}).json()
        rng = np.random.default_rng(seed)
        while True:
            while not (view["over"] or view["legal"]):
                view = client.get(f"/api/sessions/{view['session']}",
                                  params={"after": view["version"], "wait": 5}).json()
            if view["auto_note"]:
                notes.append(view["auto_note"])
            if view["over"]:
                break
            legal = view["legal"]
            assert not (len(legal) == 1 and legal[0]["verb"] == "button"), (game, seed, view["phase"], legal)
            entry = legal[int(rng.integers(len(legal)))]
            view = client.post(f"/api/sessions/{view['session']}/move",
                               json={"action": entry["action"], "hand": view["hand_number"],
                                     "move": view["move_number"]}).json()
    assert notes, "no forced question came up in these hands: the test needs other seeds"
    assert all(note.startswith("Answered for you: ") and note.endswith("(the only choice).") for note in notes)


def test_a_bot_lead_after_a_finished_trick_waits_longer_once_per_trick():
    """The pause that keeps a finished trick in view is earned once per finished trick, never mid-trick."""
    from play.catalog import check_config
    from play.session import TableSession, TableSettings

    bots = {agent: "random" for agent in ("player_1", "player_2", "player_3")}
    for seed in range(20):
        table = TableSession("t", "bavarian", check_config("bavarian", {}), "player_0", bots, seed, TableSettings(),
                             executor=None)
        env, pauses = table.env, []
        player = agents.make("rules", "bavarian")
        while (agent := env.unwrapped.state()["current_player"]) is not None:
            st = env.unwrapped.state()
            finished = bool(st.get("tricks")) and not st.get("trick")
            earned = table._trick_just_finished()
            assert earned == (finished and len(st["tricks"]) not in pauses), st["tricks"][-1:]
            assert not table._trick_just_finished(), "a second call for the same trick earns nothing"
            if earned:
                pauses.append(len(st["tricks"]))
            env.step(player.act(env, agent))
        if len(env.unwrapped.state()["tricks"]) == 8:  # a hand played out (not thrown in, no Sie)
            assert pauses == list(range(1, 8)), pauses  # after each trick but the last, which ends the hand
            return
    raise AssertionError("no hand of the seeds tried was played out")
