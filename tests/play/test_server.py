"""The table's web server over HTTP (in-process): the wire carries only what the human may see, every bad
request gets a clear refusal and leaves the game going, tables are independent, replays and rules pages."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
import urllib.request

import numpy as np
import pytest

pytest.importorskip("fastapi", reason="the play group is not installed: pip install -e '.[play]'")

from fastapi.testclient import TestClient  # noqa: E402

from play.catalog import game_info, make_env  # noqa: E402
from play.replay import replay_env  # noqa: E402
from play.server import AppSettings, create_app  # noqa: E402
from tests.play.helpers import all_card_names, card_tokens, forbidden_cards  # noqa: E402
from trick_core.registry import GAME_NAMES, VARIANTS, variant_id  # noqa: E402


@pytest.fixture
def client():
    plug_ins = ("tests.play.helpers:BrokenAgent", "tests.play.helpers:IllegalAgent")
    app = create_app(AppSettings(bot_delay=0.0, extra_bots=plug_ins))
    with TestClient(app, base_url="http://127.0.0.1") as test_client:
        yield test_client


def new_table(client, game="bavarian", config=None, seat="player_0", bots=None, seed=1):
    response = client.post("/api/sessions", json={"game": game, "config": config or {}, "seat": seat,
                                                   "bots": bots or {}, "seed": seed})
    assert response.status_code == 200, response.text
    return response.json()


def wait_for(client, view, condition, timeout=30.0):
    """Long-poll the table until ``condition(view)`` holds."""
    deadline = time.monotonic() + timeout
    while not condition(view):
        assert time.monotonic() < deadline, f"the table did not get there: {view['phase']} {view['to_act']}"
        view = client.get(f"/api/sessions/{view['session']}", params={"after": view["version"], "wait": 5}).json()
    return view


def human_turn_or_over(view):
    return view["over"] or bool(view["legal"])


def play_hand(client, view, seed, responses=None):
    """Play the human's moves (random legal ones) until the hand ends; keep every response body."""
    rng = np.random.default_rng(seed)
    while True:
        view = wait_for(client, view, human_turn_or_over)
        if responses is not None:
            responses.append(view)
        if view["over"]:
            return view
        entry = view["legal"][int(rng.integers(len(view["legal"])))]
        move = {"action": entry["action"], "hand": view["hand_number"], "move": view["move_number"]}
        response = client.post(f"/api/sessions/{view['session']}/move", json=move)
        assert response.status_code == 200, response.text
        view = response.json()
        if responses is not None:
            responses.append(view)


def hand_record(client, view):
    response = client.get(f"/api/sessions/{view['session']}/hands/{view['hand_number']}/record")
    assert response.status_code == 200, response.text
    return response.json()


# ---------------------------------------------------------------------------------------------- the wire


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=[variant_id(g, c) for g, c in VARIANTS])
def test_no_response_names_a_card_the_human_cannot_see(client, game, config):
    """Whole hands through the API, from two seats: every response (table views, long polls) is checked
    against the cards hidden from the human at the move that response shows."""
    seats = make_env(game, config).possible_agents
    for seat in (seats[0], seats[-1]):
        responses = []
        first = new_table(client, game, config, seat, seed=7)
        responses.append(first)
        last = play_hand(client, first, seed=3, responses=responses)
        record = hand_record(client, last)
        names = all_card_names(make_env(game, config))
        for body in responses:
            env = replay_env(record, body["move_number"])
            leaked = card_tokens(body, names) & forbidden_cards(env, seat)
            assert not leaked, f"{seat} was sent {sorted(leaked)} at move {body['move_number']}"
        assert last["result"]["settlement"] == dict(zip(seats, record["result"], strict=True))


def test_settlement_and_running_score_over_several_hands(client):
    view = new_table(client, "asserufen", seed=5)
    totals = dict.fromkeys(view["agents"], 0.0)
    for hand in range(1, 4):
        view = play_hand(client, view, seed=hand)
        record = hand_record(client, view)
        for agent, units in zip(view["agents"], record["result"], strict=True):
            totals[agent] += units
        assert view["totals"] == totals
        assert [h["number"] for h in view["hands"]] == list(range(1, hand + 1))
        dealer = view["dealer"]
        response = client.post(f"/api/sessions/{view['session']}/next", json={"hand": hand})
        assert response.status_code == 200, response.text
        view = response.json()
        assert view["hand_number"] == hand + 1
        assert view["agents"].index(view["dealer"]) == (view["agents"].index(dealer) + 1) % 4


def test_replay_frames_for_one_seat_hide_the_others(client):
    view = play_hand(client, new_table(client, "palatinate", seed=2), seed=2)
    record = hand_record(client, view)
    opened = client.post("/api/replays?name=hand.json", content=json.dumps(record)).json()
    names = all_card_names(make_env("palatinate", {}))
    for step in range(len(record["actions"]) + 1):
        for viewer in ("player_1", "all"):
            frame = client.get(f"/api/replays/{opened['id']}/frame",
                               params={"record": 0, "step": step, "viewer": viewer}).json()
            assert frame["step"] == step and frame["move_number"] == step
            if viewer != "all":
                env = replay_env(record, step)
                assert not card_tokens(frame, names) & forbidden_cards(env, viewer)


# ---------------------------------------------------------------------------------------------- refusals


def test_illegal_move_is_refused_and_the_game_goes_on(client):
    view = wait_for(client, new_table(client, "bavarian", seed=3), human_turn_or_over)
    illegal = next(card for card in all_card_names(make_env("bavarian", {}))
                   if card not in {e["action"] for e in view["legal"]})
    response = client.post(f"/api/sessions/{view['session']}/move",
                           json={"action": illegal, "hand": view["hand_number"], "move": view["move_number"]})
    assert response.status_code == 400
    assert "not a legal move" in response.json()["error"] and illegal in response.json()["error"]
    after = client.get(f"/api/sessions/{view['session']}").json()
    assert after["move_number"] == view["move_number"] and after["legal"] == view["legal"]
    assert play_hand(client, after, seed=1)["over"]


def test_stale_move_is_refused(client):
    view = wait_for(client, new_table(client, "knuffeln", seed=4), human_turn_or_over)
    action = view["legal"][0]["action"]
    stale = {"action": action, "hand": view["hand_number"], "move": view["move_number"] - 1}
    response = client.post(f"/api/sessions/{view['session']}/move", json=stale)
    assert response.status_code == 409 and "stale move" in response.json()["error"]
    fresh = dict(stale, move=view["move_number"])
    assert client.post(f"/api/sessions/{view['session']}/move", json=fresh).status_code == 200
    again = client.post(f"/api/sessions/{view['session']}/move", json=fresh)
    assert again.status_code == 409


def test_not_your_turn_while_a_bot_thinks():
    app = create_app(AppSettings(bot_delay=30.0))
    with TestClient(app, base_url="http://127.0.0.1") as slow:
        for seed in range(20):
            view = new_table(slow, "bavarian", seed=seed)
            if view["to_act"] != "player_0":
                break
        assert view["to_act"] != "player_0"
        response = slow.post(f"/api/sessions/{view['session']}/move",
                             json={"action": "pass", "hand": 1, "move": view["move_number"]})
        assert response.status_code == 409 and "turn" in response.json()["error"]


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"game": "skat"}, 400, "unknown game"),
    ({"game": "bavarian", "config": {"players": 5}}, 400, "unknown option"),
    ({"game": "palatinate", "config": {"players": 7}}, 400, "players=7"),
    ({"game": "knuffeln", "config": {"talk": "shout"}}, 400, "talk"),
    ({"game": "knuffeln", "config": {"variant": "hattstedt", "players": 5}}, 400,
     "players=5 is offered only with variant in ['bohmstedt']"),
    ({"game": "bavarian", "seat": "player_4"}, 400, "unknown seat"),
    ({"game": "bavarian", "bots": {"player_1": "os:system"}}, 400, "unknown bot"),
    ({"game": "bavarian", "bots": {"player_0": "rules"}}, 400, "other seats"),
    ({"game": "bavarian", "render_mode": "human"}, 422, "render_mode"),
    ({"game": 3}, 422, "game"),
    ({"game": "bavarian", "seed": -1}, 422, "seed"),
])
def test_bad_new_table_requests_are_refused(client, body, status, words):
    response = client.post("/api/sessions", json=body)
    assert response.status_code == status
    assert words in response.json()["error"]


def test_the_catalog_says_which_choices_go_only_with_others(client):
    games = {game["name"]: game for game in client.get("/api/catalog").json()["games"]}
    players = next(option for option in games["knuffeln"]["options"] if option["name"] == "players")
    assert players["requires"] == [{"choice": 5, "option": "variant", "values": ["bohmstedt"]}]
    assert new_table(client, "knuffeln", {"variant": "bohmstedt", "players": 5})["agents"][4] == "player_4"


def test_malformed_requests_get_clear_messages(client):
    view = new_table(client)
    sid = view["session"]
    garbage = client.post(f"/api/sessions/{sid}/move", content=b"{not json",
                          headers={"Content-Type": "application/json"})
    assert garbage.status_code == 422 and "JSON" in garbage.json()["error"]
    missing = client.post(f"/api/sessions/{sid}/move", json={"action": "pass"})
    assert missing.status_code == 422 and "hand" in missing.json()["error"]
    wrong_type = client.post(f"/api/sessions/{sid}/move", json={"action": ["EO"], "hand": 1, "move": 0})
    assert wrong_type.status_code == 422
    too_long = client.post(f"/api/sessions/{sid}/move", json={"action": "x" * 500, "hand": 1, "move": 0})
    assert too_long.status_code == 422
    assert client.get("/api/sessions/nope").status_code == 404
    assert "unknown session" in client.post("/api/sessions/nope/move", json={"action": "pass", "hand": 1,
                                                                              "move": 0}).json()["error"]
    assert client.get("/api/sessions/nope/hands/1/record").status_code == 404
    assert client.get(f"/api/sessions/{sid}", params={"after": "soon"}).status_code == 422
    assert client.get(f"/api/sessions/{sid}").json()["version"] >= view["version"]


def test_a_hand_in_progress_has_no_record_and_cannot_be_skipped(client):
    view = new_table(client, "knuffeln", seed=9)
    assert client.get(f"/api/sessions/{view['session']}/hands/1/record").status_code == 404
    response = client.post(f"/api/sessions/{view['session']}/next", json={"hand": 1})
    assert response.status_code == 409 and "still being played" in response.json()["error"]
    over = play_hand(client, view, seed=9)
    moved = client.post(f"/api/sessions/{view['session']}/move", json={"action": "accept", "hand": 1,
                                                                        "move": over["move_number"]})
    assert moved.status_code == 409 and "over" in moved.json()["error"]
    assert client.post(f"/api/sessions/{view['session']}/next", json={"hand": 0}).status_code == 409


def test_sessions_are_independent(client):
    first = wait_for(client, new_table(client, "palatinate", seed=1), human_turn_or_over)
    second = wait_for(client, new_table(client, "palatinate", seed=1), human_turn_or_over)
    assert first["session"] != second["session"]
    assert first["seats"] == second["seats"]  # same seed: the same deal
    entry = first["legal"][0]
    moved = client.post(f"/api/sessions/{first['session']}/move",
                        json={"action": entry["action"], "hand": 1, "move": first["move_number"]})
    assert moved.status_code == 200
    other = client.get(f"/api/sessions/{second['session']}").json()
    assert other["move_number"] == second["move_number"] and other["version"] == second["version"]
    wrong_table = client.post(f"/api/sessions/{second['session']}/move",
                              json={"action": entry["action"], "hand": 1, "move": moved.json()["move_number"]})
    assert wrong_table.status_code == 409


def test_oldest_idle_table_makes_room():
    app = create_app(AppSettings(bot_delay=0.0, max_sessions=2))
    with TestClient(app, base_url="http://127.0.0.1") as small:
        views = [new_table(small, seed=s) for s in range(3)]
        assert small.get(f"/api/sessions/{views[0]['session']}").status_code == 404
        assert small.get(f"/api/sessions/{views[2]['session']}").status_code == 200


@pytest.mark.parametrize("bot", ["tests.play.helpers:BrokenAgent", "tests.play.helpers:IllegalAgent"])
def test_a_broken_bot_cannot_stop_the_table(client, bot):
    bots = {f"player_{k}": bot for k in (1, 2, 3)}
    responses = []
    view = play_hand(client, new_table(client, "bavarian", bots=bots, seed=2), seed=2, responses=responses)
    assert view["over"]
    notices = [body["notice"] for body in responses if body["notice"]]
    assert notices and "a random legal move was played instead" in notices[-1]
    assert ("failed: RuntimeError" if "Broken" in bot else "illegal action 1000000") in notices[-1]
    record = hand_record(client, view)
    assert any(agent != "player_0" for agent, _ in record["actions"])


def test_unknown_host_header_is_refused(client):
    response = client.get("/api/catalog", headers={"Host": "evil.example"})
    assert response.status_code == 400


def test_long_poll_returns_on_change(client):
    view = wait_for(client, new_table(client, "bavarian", seed=3), human_turn_or_over)
    started = time.monotonic()
    unchanged = client.get(f"/api/sessions/{view['session']}", params={"after": view["version"], "wait": 0.3})
    assert unchanged.json()["version"] == view["version"] and time.monotonic() - started >= 0.25
    passed = client.get(f"/api/sessions/{view['session']}", params={"after": view["version"] - 1, "wait": 10})
    assert passed.json()["version"] == view["version"]


# ---------------------------------------------------------------------------------------------- replays


def arena_records(tmp_path, game="knuffeln"):
    from agents.arena import run_arena

    path = tmp_path / "records.jsonl"
    run_arena(game, ["random", "rules"], hands=1, seed=3, records_path=str(path))
    return path.read_text()


def test_replay_of_arena_records(client, tmp_path):
    text = arena_records(tmp_path)
    opened = client.post("/api/replays?name=records.jsonl", content=text)
    assert opened.status_code == 200, opened.text
    body = opened.json()
    lines = [json.loads(line) for line in text.splitlines()]
    assert body["count"] == len(lines) and body["records"][0]["seating"] == lines[0]["arena"]["seating"]
    last = len(lines[1]["actions"])
    frame = client.get(f"/api/replays/{body['id']}/frame", params={"record": 1, "step": last}).json()
    assert frame["over"]
    assert frame["result"]["settlement"] == dict(zip(frame["agents"], lines[1]["result"], strict=True))
    listed = client.get("/api/replays").json()["replays"]
    assert body["id"] in [item["id"] for item in listed]


@pytest.mark.parametrize(("text", "words"), [
    ("", "empty"),
    ("{oops", "not JSON"),
    ('{"game": "go", "deal": {}, "actions": []}', "unknown game"),
    ('{"game": "bavarian", "deal": {}, "actions": [["player_0"]]}', "action 0"),
    ('[1, 2]', "not an object"),
    ("[]", "no records"),
    ('{"game": "bavarian", "deal": {}, "actions": [], "arena": [1]}', "'arena' must be an object"),
    ('{"game": "bavarian", "deal": {}, "actions": [], "table": 5}', "'table' must be an object"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"game": "bavarian", "deal": {}, "actions": [], "result": ' + "9" * 5000 + "}", "the file: Exceeds"),
    ('{"game": "bavarian", "deal": {}, "actions": []}\n{"result": ' + "9" * 5000 + "}", "line 2: Exceeds"),
])
def test_bad_record_files_are_refused(client, text, words):
    response = client.post("/api/replays", content=text)
    assert response.status_code == 400 and words in response.json()["error"]
    assert client.get("/api/catalog").status_code == 200  # the connection and the server go on


@pytest.mark.parametrize(("method", "path", "body", "status"), [
    ("GET", "/api/nope", None, 404),
    ("DELETE", "/api/catalog", None, 405),
    ("POST", "/api/sessions/x/move", '{"action": "EO", "hand": ' + "9" * 5000 + ', "move": 0}', 400),
    ("POST", "/api/sessions/x/next", "[" * 5000 + "]" * 5000, 400),
])
def test_the_frameworks_own_refusals_are_errors_too(client, method, path, body, status):
    response = client.request(method, path, content=body, headers={"Content-Type": "application/json"})
    assert response.status_code == status and set(response.json()) == {"error"}, response.text


def test_records_with_bad_moves_are_refused_when_shown(client):
    env = make_env("bavarian", {})
    env.reset(seed=1)
    record = env.unwrapped.game_record()
    record["actions"] = [[env.agent_selection, "EO" if "EO" not in env.unwrapped.legal_action_strings() else "XX"]]
    opened = client.post("/api/replays", content=json.dumps(record)).json()
    assert client.get(f"/api/replays/{opened['id']}/frame", params={"step": 0}).status_code == 200
    refused = client.get(f"/api/replays/{opened['id']}/frame", params={"step": 1})
    assert refused.status_code == 400 and "action 0" in refused.json()["error"]
    assert client.get(f"/api/replays/{opened['id']}/frame", params={"step": 5}).status_code == 400
    assert client.get(f"/api/replays/{opened['id']}/frame", params={"record": 3}).status_code == 404
    assert client.get(f"/api/replays/{opened['id']}/frame", params={"viewer": "player_7"}).status_code == 400
    assert client.get("/api/replays/missing/frame").status_code == 404


# ---------------------------------------------------------------------------------------------- pages


def test_rules_pages_are_rendered_from_the_rules_folder(tmp_path):
    stand_in = "# Bavarian rules\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n<script>x</script>\n"
    (tmp_path / "bavarian_schafkopf.md").write_text(stand_in)
    app = create_app(AppSettings(bot_delay=0.0, rules_dir=tmp_path))
    with TestClient(app, base_url="http://127.0.0.1") as local:
        page = local.get("/rules/bavarian")
        assert page.status_code == 200
        assert "<h1>Bavarian rules</h1>" in page.text and "<table>" in page.text
        assert "<script>x" not in page.text
        assert local.get("/rules/knuffeln").status_code == 404
        assert local.get("/rules/chess").status_code == 404
        games = {g["name"]: g["rules"] for g in local.get("/api/catalog").json()["games"]}
        assert games == {name: game_info(name).rules_file == "bavarian_schafkopf.md" for name in GAME_NAMES}
        assert games["bavarian"] and not games["palatinate"] and not games["knuffeln"]


def test_the_catalog_gives_each_game_its_default_seat_count(client):
    """The setup form lays out one seat per player: the default count, or the ``players`` option's."""
    seats = {g["name"]: g["seats"] for g in client.get("/api/catalog").json()["games"]}
    assert seats == {name: len(make_env(name, {}).possible_agents) for name in GAME_NAMES}
    assert (seats["bavarian"], seats["palatinate"], seats["knuffeln"]) == (4, 3, 4)


def test_static_pages_are_served(client):
    for path in ("/", "/replay", "/static/play.js", "/static/replay.js", "/static/page.js", "/static/table.js",
                 "/static/cards.js", "/static/style.css"):
        assert client.get(path).status_code == 200, path
    for path, script in (("/", "play.js"), ("/replay", "replay.js")):
        page = client.get(path).text
        assert page.startswith("<!doctype html>") and f'<script type="module" src="/static/{script}">' in page


def test_python_m_play_prints_its_address():
    process = subprocess.Popen([sys.executable, "-m", "play", "--port", "0", "--bot-delay", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        assert line.startswith("The table: http://127.0.0.1:"), line
        address = line.split()[2]
        for _ in range(200):
            try:
                with urllib.request.urlopen(address + "api/catalog", timeout=2) as response:
                    catalog = json.load(response)
                break
            except OSError:
                time.sleep(0.1)
        assert "bots" in catalog and [g["name"] for g in catalog["games"]] == list(GAME_NAMES)
    finally:
        process.terminate()
        process.wait(timeout=10)


def post_json(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def test_ctrl_c_stops_python_m_play_at_once_while_a_browser_waits_for_a_change():
    """A stopping server waits for its requests in flight; an open table's long poll (up to 25 s) is
    answered at once instead of holding the Ctrl+C."""
    process = subprocess.Popen([sys.executable, "-m", "play", "--port", "0", "--bot-delay", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        address = process.stdout.readline().split()[2]
        for _ in range(200):
            try:
                table = post_json(address + "api/sessions", {"game": "bavarian", "seed": 3, "seat": "player_0"})
                break
            except OSError:
                time.sleep(0.1)
        table_url = f"{address}api/sessions/{table['session']}"
        for _ in range(100):  # the bots move until the human's turn; then nothing changes
            with urllib.request.urlopen(table_url, timeout=10) as response:
                view = json.load(response)
            if human_turn_or_over(view):
                break
            time.sleep(0.1)
        answers = []

        def long_poll():
            with urllib.request.urlopen(f"{table_url}?after={view['version']}&wait=25", timeout=60) as response:
                answers.append(json.load(response))

        poll = threading.Thread(target=long_poll)
        poll.start()
        time.sleep(1.0)
        assert poll.is_alive() and not answers, "the long poll should be waiting for a change"
        process.send_signal(signal.SIGINT)
        started = time.monotonic()
        assert process.wait(timeout=30) == 0
        assert time.monotonic() - started < 10, "the server waited for the long poll"
        poll.join(timeout=10)
        assert answers and answers[0]["version"] == view["version"]
    finally:
        process.kill()
        process.wait(timeout=10)


def test_python_m_play_refuses_bad_options_plainly(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{bad\n")
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes(b"\xff\xfe{}")
    for options, words in ((["--records", str(bad)], "line 1 is not JSON"), (["--bots", "nosuch:thing"], "nosuch"),
                           (["--records", str(latin)], f"record file {latin}: not UTF-8")):
        done = subprocess.run([sys.executable, "-m", "play", "--port", "0", *options],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode != 0 and words in done.stderr, done.stderr


def test_record_files_named_at_start_are_listed(tmp_path):
    path = tmp_path / "arena.jsonl"
    path.write_text(arena_records(tmp_path))
    app = create_app(AppSettings(bot_delay=0.0, record_files=(path,)))
    with TestClient(app, base_url="http://127.0.0.1") as local:
        listed = local.get("/api/replays").json()["replays"]
        assert [(item["name"], item["count"]) for item in listed] == [("arena.jsonl", 2)]
        query = {"record": 1, "step": 3, "viewer": "player_2"}
        frame = local.get(f"/api/replays/{listed[0]['id']}/frame", params=query)
        assert frame.status_code == 200 and frame.json()["viewer"] == "player_2"


@pytest.mark.parametrize("options, error, complaint", [
    ({"bot": "nosuchbot"}, ValueError, r"--bot 'nosuchbot' is not one of the table's bots"),
    ({"hands": 0}, ValueError, "--hands must be positive"),
    ({"games": ("skat",)}, ValueError, r"unknown game\(s\) \['skat'\]"),
])
def test_latency_benchmark_names_what_it_cannot_measure(options, error, complaint):
    from benchmarks.play_latency import Args, main

    with pytest.raises(error, match=complaint):
        main(Args(**{"bot": "random", "bot_delay": 0.0, "games": ("bavarian",), **options}))


def test_latency_benchmark_prints_json(capsys):
    from benchmarks.play_latency import Args, main

    main(Args(bot="random", bot_delay=0.0, games=("bavarian",)))
    result = json.loads(capsys.readouterr().out)
    measured = result["games"]["bavarian"]
    assert measured["moves"] > 0 and measured["view_build_ms"] > 0
