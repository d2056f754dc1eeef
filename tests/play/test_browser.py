"""End to end in a real headless browser: Chromium driven by Playwright against the server in-process.

For every game variant a whole hand is played through the page by clicking legal cards and answering
every dialog, until the settlement on screen (checked against the env's own); every API response the
page received is checked for cards the human may not see; an illegal move is refused; the replay viewer
steps through a record. The Bavarian and Knüffeln tables are photographed into ``docs/``.

Skipped, saying so, when the ``playwright`` package or a Chromium binary is missing (``.ci/run``
installs both; set ``PLAY_CHROMIUM`` to use another binary). Playwright's own browser download is never
used: it launches the system Chromium through ``executable_path``.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("fastapi", reason="the play group is not installed: pip install -e '.[play]'")
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="playwright is not installed: the browser tests are skipped")

import uvicorn  # noqa: E402

from play.catalog import make_env  # noqa: E402
from play.replay import replay_env  # noqa: E402
from play.server import AppSettings, TableServer, create_app  # noqa: E402
from tests.play.helpers import all_card_names, card_tokens, forbidden_cards  # noqa: E402
from trick_core.registry import VARIANTS, variant_id  # noqa: E402

CHROMIUM = os.environ.get("PLAY_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCREENSHOTS = {("bavarian", ()): "play_schafkopf.png", ("knuffeln", (("talk", "lexicon"),)): "play_knuffeln.png"}
"""The pictures of ``docs/play.md``, taken mid-hand. A test run writes them to its temporary folder (it
never changes the tree); ``PLAY_SCREENSHOTS=docs pytest tests/play/test_browser.py`` refreshes the docs'."""

if not Path(CHROMIUM).is_file():
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium): the browser tests are skipped",
                allow_module_level=True)


@pytest.fixture(scope="module")
def server():
    app = create_app(AppSettings(bot_delay=0.0))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    runner = TableServer(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=runner.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not runner.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    runner.url = f"http://127.0.0.1:{port}"
    runner.app = app
    yield runner
    runner.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    opened = context.new_page()
    opened.set_default_timeout(20_000)
    errors = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert not errors, f"the page raised: {errors}"


# ---------------------------------------------------------------------------------------------- helpers


def open_table(page, server, game, config, seat, seed):
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#game", game)
    for name, value in config.items():
        page.select_option(f"#option-{name}", str(value))
    page.select_option("#seat", seat)
    page.fill("#seed", str(seed))
    page.click("#start")
    wait_for_human(page, "-1")


def wait_for_human(page, old_version: str) -> None:
    """Wait until the page shows the human's turn or the end of the hand, at a version after ``old_version``."""
    page.wait_for_function(
        "v => ['your-turn', 'over'].includes(document.body.dataset.state) && document.body.dataset.version !== v",
        arg=old_version)


def take_turn(page, rng) -> None:
    """Click one legal control at random: a highlighted card, a decision button, a phrase; sometimes
    first switch how a card is used (face down, half-show)."""
    verbs = page.query_selector_all("button[data-verb]:not(.chosen)")
    if verbs and rng.random() < 0.35:
        verbs[int(rng.integers(len(verbs)))].click()
    controls = page.query_selector_all("[data-action].legal")
    assert controls, "it is the human's turn but nothing is clickable"
    control = controls[int(rng.integers(len(controls)))]
    if control.get_attribute("id") == "say":
        phrases = page.eval_on_selector_all("#phrase option", "options => options.map(o => o.value)")
        page.select_option("#phrase", phrases[int(rng.integers(len(phrases)))])
    old = page.evaluate("document.body.dataset.version")
    control.click()
    wait_for_human(page, old)


def settlement_on_screen(page) -> dict[str, float]:
    rows = page.query_selector_all("#result tr[data-agent]")
    return {row.get_attribute("data-agent"): float(row.get_attribute("data-units")) for row in rows}


def api_bodies(responses) -> list[dict]:
    bodies = []
    for response in responses:
        if "/api/sessions" in response.url and response.ok:
            bodies.append(response.json())
    return bodies


# ---------------------------------------------------------------------------------------------- tests


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=[variant_id(g, c) for g, c in VARIANTS])
def test_whole_hand_through_the_page(page, server, game, config, tmp_path):
    seats = make_env(game, config).possible_agents
    seat = seats[len(config) % len(seats)]
    responses = []
    page.on("response", lambda response: responses.append(response))
    open_table(page, server, game, config, seat, seed=21)
    rng = np.random.default_rng(21)
    picture = SCREENSHOTS.get((game, tuple(sorted(config.items()))))
    screenshot = None if picture is None else Path(os.environ.get("PLAY_SCREENSHOTS") or tmp_path) / picture
    pending = screenshot is not None
    while page.evaluate("document.body.dataset.state") != "over":
        if pending and page.locator("#trick .trick-card").count() >= 2 and page.locator("#last-trick").count():
            page.mouse.move(1, 1)  # no card raised by the pointer: the same picture every run
            page.screenshot(path=str(screenshot), animations="disabled")
            pending = False
        take_turn(page, rng)
    assert not pending, f"the hand ended before the moment of {picture} (two cards in a trick, one trick done)"
    session = page.evaluate("window.playTable.view().session")
    record = server.app.state.store.get(session).finished_record(1)
    expected = replay_env(record, len(record["actions"])).unwrapped.game_record()["result"]
    assert settlement_on_screen(page) == dict(zip(seats, expected, strict=True))
    assert page.locator("#result p").count() >= 2, "the settlement is explained"
    assert page.locator("#next-hand").is_visible()
    names = all_card_names(make_env(game, config))
    bodies = api_bodies(responses)
    assert len(bodies) >= 2
    for body in bodies:
        env = replay_env(record, body["move_number"])
        leaked = card_tokens(body, names) & forbidden_cards(env, seat)
        assert not leaked, f"the page was sent {sorted(leaked)} at move {body['move_number']}"


def test_illegal_move_is_refused_on_the_page(page, server):
    open_table(page, server, "bavarian", {}, "player_0", seed=5)
    if page.evaluate("document.body.dataset.state") == "over":
        pytest.fail("the hand ended before the human's first decision")
    move = page.evaluate("document.body.dataset.move")
    not_legal = page.locator("#hand .card.not-legal")
    if not_legal.count():
        not_legal.first.click()
        assert page.evaluate("document.body.dataset.move") == move, "a card that is not legal was played"
    page.evaluate("window.playTable.send('XX')")
    page.wait_for_function("document.getElementById('message').textContent.includes('not a legal move')")
    assert page.evaluate("document.body.dataset.move") == move
    rng = np.random.default_rng(1)
    while page.evaluate("document.body.dataset.state") != "over":
        take_turn(page, rng)
    assert settlement_on_screen(page)
    page.click("#next-hand")
    page.wait_for_function("document.body.dataset.hand === '2'")
    session = page.evaluate("window.playTable.view().session")
    page.goto(f"{server.url}/replay?session={session}&hand=1")
    page.wait_for_selector("body[data-steps]")
    assert int(page.evaluate("document.body.dataset.steps")) > 0


def test_replay_viewer_steps_through_a_record(page, server, tmp_path):
    env = make_env("palatinate", {})
    env.reset(seed=8)
    rng = np.random.default_rng(8)
    while env.unwrapped.state()["current_player"] is not None:
        env.step(int(rng.choice(env.unwrapped.legal_actions())))
    record = env.unwrapped.game_record()
    path = tmp_path / "records.jsonl"
    path.write_text(json.dumps(record) + "\n")
    page.goto(server.url + "/replay")
    page.wait_for_selector("body[data-ready='1']")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("body[data-step='0'][data-state='ready']")
    steps = len(record["actions"])
    assert page.inner_text("#step-label") == f"0 / {steps}"
    for expected in range(1, 6):
        page.click("#step-forward")
        page.wait_for_selector(f"body[data-step='{expected}'][data-state='ready']")
    assert page.locator("#log li").count() == 5
    page.click("#step-back")
    page.wait_for_selector("body[data-step='4'][data-state='ready']")
    assert page.locator("#log li").count() == 4
    assert page.locator(".pos-left .card.face").count() > 0, "every hand is shown"
    page.select_option("#viewer", "player_0")
    page.wait_for_selector("body[data-step='4'][data-state='ready'] .pos-bottom[data-agent='player_0'] .card.face")
    assert page.locator(".pos-left .card.face").count() == 0, "one seat's view shows the others' backs only"
    page.keyboard.press("End")
    page.wait_for_selector(f"body[data-step='{steps}'][data-state='ready'] #result")
    assert settlement_on_screen(page) == dict(zip(env.possible_agents, record["result"], strict=True))


def test_the_setup_offers_five_players_only_where_the_variant_has_them(page, server):
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#game", "knuffeln")
    five = "#option-players option[value='5']"
    assert not page.eval_on_selector(five, "option => option.disabled")
    page.select_option("#option-players", "5")
    assert page.locator("#seat option").count() == 5
    page.select_option("#option-variant", "hattstedt")
    assert page.eval_on_selector(five, "option => option.disabled")
    assert page.input_value("#option-players") == "4" and page.locator("#seat option").count() == 4
    page.select_option("#option-variant", "bohmstedt")
    assert not page.eval_on_selector(five, "option => option.disabled")


def test_the_setup_links_each_rules_page_once(page, server):
    """Palatinate and Asserufen share a rules page: one link for both."""
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready='1']")
    links = page.eval_on_selector_all("#rules-links a", "links => links.map(a => a.getAttribute('href'))")
    assert links == ["/rules/bavarian", "/rules/palatinate", "/rules/knuffeln"]


def test_the_setup_offers_one_seat_per_player_of_every_game(page, server):
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready='1']")
    for game, config in VARIANTS:
        page.select_option("#game", game)
        for option, value in config.items():
            page.select_option(f"#option-{option}", str(value))
        seats = len(make_env(game, config).possible_agents)
        assert page.locator("#seat option").count() == seats, (game, config)
        assert page.locator("#bot-seats select").count() == seats - 1, (game, config)


def test_a_double_click_deals_one_next_hand(page, server):
    open_table(page, server, "bavarian", {}, "player_0", seed=3)
    rng = np.random.default_rng(3)
    while page.evaluate("document.body.dataset.state") != "over":
        take_turn(page, rng)
    page.dblclick("#next-hand")
    page.wait_for_function("document.body.dataset.hand === '2'")
    time.sleep(0.5)  # the second click's answer, had it been sent, has arrived by now
    assert page.inner_text("#message") == ""
    assert page.evaluate("document.body.dataset.hand") == "2"


def test_a_session_in_the_address_is_an_id_not_a_path(page, server):
    page.goto(server.url + "/#session=../../api/catalog")
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("#setup").is_visible() and page.locator("#game-area").is_hidden()
    assert "Could not open the table in the address" in page.inner_text("#message")
    page.goto(server.url + "/#session=bogus")
    page.wait_for_selector("body[data-ready='1']")
    assert "unknown session" in page.inner_text("#message") and page.locator("#game-area").is_hidden()
