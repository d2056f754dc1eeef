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
from tests.play.helpers import all_card_names, card_tokens, forbidden_cards, hand_sorted  # noqa: E402
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
        page.select_option(f"#option-{name}", str(value).lower() if isinstance(value, bool) else str(value))
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
    first switch how a card is used (face down; talk mode, where a click half-shows). Laying away picks
    cards until the confirming button is enabled, then confirms."""
    if page.locator("#talk-toggle").count() and rng.random() < 0.3:
        page.click("#talk-toggle")
    verbs = page.query_selector_all("button[data-verb]:not(.chosen)")
    if verbs and rng.random() < 0.35:
        verbs[int(rng.integers(len(verbs)))].click()
    if page.evaluate("document.body.dataset.mode") == "lay-away":
        cards = page.query_selector_all("#hand .card.legal")
        for index in rng.permutation(len(cards)):
            cards[int(index)].click()
            if page.is_enabled("#lay-away"):
                break
        old = page.evaluate("document.body.dataset.version")
        page.click("#lay-away")
        wait_for_human(page, old)
        return
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
    table = server.app.state.store.get(page.evaluate("window.playTable.view().session"))
    while page.evaluate("document.body.dataset.state") != "over":
        if pending and page.locator("#trick .trick-card").count() >= 2 and page.locator("#last-trick").count():
            page.mouse.move(1, 1)  # no card raised by the pointer: the same picture every run
            page.screenshot(path=str(screenshot), animations="disabled")
            pending = False
        shown = page.eval_on_selector_all("#hand .card", "cards => cards.map(c => c.dataset.card)")
        assert hand_sorted(game, table.env.unwrapped.state(), shown), shown  # by the contract, as the rules rank
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
    page.locator("#hand .card").first.click()  # a bid is asked for, not a card
    assert page.evaluate("document.body.dataset.move") == move, "a card was played during the bidding"
    assert page.inner_text("#message").startswith("Not a card now: ")
    page.evaluate("window.playTable.send('XX')")
    page.wait_for_function("document.getElementById('message').textContent.includes('not a legal move')")
    assert page.evaluate("document.body.dataset.move") == move
    rng = np.random.default_rng(1)
    explained = 0
    while page.evaluate("document.body.dataset.state") != "over":
        not_legal = page.locator("#hand .card.not-legal")
        if human_view(page)["phase"] == "playing" and not_legal.count():
            move = page.evaluate("document.body.dataset.move")
            not_legal.first.click()
            assert page.evaluate("document.body.dataset.move") == move, "a card that is not legal was played"
            reason = page.inner_text("#message")
            assert "you must follow with" in reason or reason.startswith("Only the highlighted cards"), reason
            explained += 1
        take_turn(page, rng)
    assert explained, "no card was ever out of reach: the seed shows nothing here"
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


def boxes_overlap(one: dict, other: dict) -> bool:
    return (one["x"] < other["x"] + other["width"] and other["x"] < one["x"] + one["width"]
            and one["y"] < other["y"] + other["height"] and other["y"] < one["y"] + one["height"])


def test_a_bavarian_table_with_the_online_options_through_the_page(page, server, tmp_path):
    """The setup form's Bavarian options (on/off switches and words) open a table that plays a whole hand:
    Klopfen, Kontra and Re, Ramsch and the short pack, the sauspiel.de tariff."""
    config = {"tariff": "sauspiel", "pack": "short", "doubling": True, "klopfen": True, "ramsch": True}
    test_whole_hand_through_the_page(page, server, "bavarian", config, tmp_path)
    facts = page.eval_on_selector_all("#side, #table", "nodes => nodes.map(n => n.textContent).join(' ')")
    assert "short: 24 cards" in facts and "sauspiel.de" in facts, facts[:400]


@pytest.mark.parametrize(("game", "config"), [("bavarian", {}), ("knuffeln", {"players": 5})],
                         ids=["bavarian", "knuffeln-5"])
def test_the_replay_viewer_fits_a_1400_by_900_window(page, server, tmp_path, game, config):
    """With a file open and every hand shown, the bottom hand is inside the window and no two seats' hands
    overlap (the five-player table included)."""
    env = make_env(game, config)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    while env.unwrapped.state()["current_player"] is not None:
        env.step(int(rng.choice(env.unwrapped.legal_actions())))
    path = tmp_path / "record.json"
    path.write_text(json.dumps(env.unwrapped.game_record()))
    page.goto(server.url + "/replay")
    page.wait_for_selector("body[data-ready='1']")
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("body[data-step='0'][data-state='ready']")
    hands = {seat.get_attribute("data-agent"): seat.query_selector(".cards").bounding_box()
             for seat in page.query_selector_all(".seat")}
    assert len(hands) == env.num_seats
    bottom = page.query_selector(".seat.pos-bottom .cards").bounding_box()
    assert bottom["y"] + bottom["height"] <= 900, f"the bottom hand ends at {bottom['y'] + bottom['height']}px"
    for one in hands:
        for other in hands:
            assert one >= other or not boxes_overlap(hands[one], hands[other]), (one, other, hands)


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
        for option, value in config.items():  # an on/off option's values are JavaScript's "true" / "false"
            page.select_option(f"#option-{option}", str(value).lower() if isinstance(value, bool) else str(value))
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


# ---------------------------------------------------------------------------------------------- at the table


def human_view(page) -> dict:
    return page.evaluate("window.playTable.view()")


def play_until(page, wanted, rng, seeds, server, game="bavarian", config=None, seat="player_0") -> bool:
    """Play random legal moves on tables of ``seeds`` until ``wanted(page)`` holds at the human's turn."""
    for seed in seeds:
        open_table(page, server, game, config or {}, seat, seed=seed)
        if continue_until(page, wanted, rng):
            return True
    return False


def continue_until(page, wanted, rng) -> bool:
    """Play the hand on the page on (random legal moves) until ``wanted(page)`` holds; False if it ends first."""
    while page.evaluate("document.body.dataset.state") != "over":
        if wanted(page):
            return True
        take_turn(page, rng)
    return False


def test_the_finished_trick_stays_with_its_players_names_until_the_next_lead(page, server):
    """The trick the human won stays in the middle, each card with its player's name and the winner said,
    until the human leads (or clicks it away); the last-trick panel names who played which card."""
    rng = np.random.default_rng(2)

    def human_leads_after_a_trick(page):
        view = human_view(page)
        return view["phase"] == "playing" and view["trick"] is None and bool(view["tricks"]) and bool(view["legal"])

    assert play_until(page, human_leads_after_a_trick, rng, range(1, 6), server), "the human never led a trick"
    last = human_view(page)["last_trick"]
    names = ["You" if played["agent"] == "player_0" else played["agent"] for played in last["cards"]]
    assert page.locator("#trick.finished .trick-card").count() == 4
    assert page.eval_on_selector_all("#trick .trick-name", "nodes => nodes.map(n => n.textContent)") == names
    shown = page.eval_on_selector_all("#trick .trick-card .card", "cards => cards.map(c => c.dataset.card)")
    assert shown == [played["card"] for played in last["cards"]]
    assert page.inner_text("#trick-caption") == ("You win the trick" if last["winner"] == "player_0"
                                                 else f"{last['winner']} wins the trick")
    assert page.eval_on_selector_all("#last-trick figcaption", "nodes => nodes.map(n => n.textContent)") == names
    page.click("#trick")  # a click clears it
    assert page.locator("#trick .trick-card").count() == 0 and page.locator("#trick-caption").count() == 0
    old = page.evaluate("document.body.dataset.version")
    lead = page.locator("#hand .card.legal").first.get_attribute("data-card")
    page.click(f"#hand .card[data-card='{lead}']")  # the lead: the new trick replaces the finished one
    page.wait_for_function("v => document.body.dataset.version !== v", arg=old)
    now = page.eval_on_selector_all("#trick .trick-card .card", "cards => cards.map(c => c.dataset.card)")
    assert not set(now) & set(shown), (now, shown)  # (bots answer at once: the new trick may be complete)
    assert ("player_0", lead) in [(entry["agent"], entry["action"]) for entry in human_view(page)["log"]]


def test_talk_mode_cannot_be_mistaken_for_play(page, server):
    """Knüffeln with talk: at a talk turn the hand is played with one click (the page stays silent on the
    way) and no "Stay silent" button is asked for; talking is a mode of its own, with a banner, other
    outlines, and a click that half-shows the card without playing it."""
    rng = np.random.default_rng(4)

    def talk_turn(page):
        return human_view(page)["phase"] == "talk" and page.evaluate("document.body.dataset.state") == "your-turn"

    config = {"talk": "lexicon"}
    assert play_until(page, talk_turn, rng, range(3), server, "knuffeln", config), "no talk turn came"
    assert page.evaluate("document.body.dataset.mode") == "play" and page.locator("#talk-banner").count() == 0
    assert page.locator("[data-action='silent']").count() == 0, "no Stay silent click per card"
    card = page.locator("#hand .card.legal.play").first
    played = card.get_attribute("data-card")
    assert "stay silent" in card.get_attribute("title")
    moves = len(human_view(page)["log"])
    old = page.evaluate("document.body.dataset.version")
    card.click()
    wait_for_human(page, old)
    mine = [entry["action"] for entry in human_view(page)["log"][moves:] if entry["agent"] == "player_0"]
    assert mine[:2] in (["silent", played], ["silent", f"turn:{played}"]), mine

    assert continue_until(page, talk_turn, rng) or play_until(page, talk_turn, rng, range(3, 6), server,
                                                              "knuffeln", config)
    page.click("#talk-toggle")
    assert page.evaluate("document.body.dataset.mode") == "talk" and page.locator("#talk-banner").is_visible()
    assert "not played" in page.inner_text("#talk-banner")
    assert page.inner_text("#talk-toggle") == "Back to playing (stay silent)"
    shown = page.locator("#hand .card.legal.talk").first
    assert page.locator("#hand .card.legal.play").count() == 0
    assert shown.evaluate("c => getComputedStyle(c).outlineStyle") == "dashed", "talk cards look unlike playable ones"
    card = shown.get_attribute("data-card")
    assert "it is not played" in shown.get_attribute("title")
    old = page.evaluate("document.body.dataset.version")
    shown.click()
    page.wait_for_function("v => document.body.dataset.version !== v", arg=old)
    view = human_view(page)
    assert view["log"][-1] == {"agent": "player_0", "action": f"show:{card}", "text": f"Half-show: {card}"}
    hand = next(seat["cards"] for seat in view["seats"] if seat["agent"] == "player_0")
    assert card in hand, "a half-shown card is not played"
    assert page.evaluate("document.body.dataset.mode") == "play" and page.locator("#talk-banner").count() == 0


def test_a_table_in_play_is_left_only_after_asking(page, server):
    open_table(page, server, "bavarian", {}, "player_0", seed=6)
    page.click("#new-table")
    assert page.locator("#leave-confirm").is_visible() and page.locator("#game-area").is_visible()
    assert "hand in play will be lost" in page.inner_text("#leave-confirm")
    page.click("#leave-no")
    assert page.locator("#leave-confirm").is_hidden() and page.locator("#game-area").is_visible()
    page.click("#new-table")
    page.click("#leave-yes")
    assert page.locator("#setup").is_visible() and page.locator("#game-area").is_hidden()
    open_table(page, server, "bavarian", {}, "player_0", seed=6)
    rng = np.random.default_rng(6)
    while page.evaluate("document.body.dataset.state") != "over":
        take_turn(page, rng)
    page.click("#new-table")  # a finished hand: nothing to lose, nothing asked
    assert page.locator("#setup").is_visible() and page.locator("#leave-confirm").is_hidden()


def test_the_bot_list_offers_the_trained_network_with_a_word_on_strength(page, server):
    pytest.importorskip("torch", reason="the torch extra is not installed: the table offers no neural bot")
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready='1']")
    options = page.eval_on_selector_all("#bot-player_1 option", "items => items.map(o => [o.value, o.textContent])")
    offered = dict(options)
    assert "neural" in offered and "pimc" in offered
    assert all(text.startswith(f"{value} (") and text.endswith(")") for value, text in options), options
    page.select_option("#bot-player_1", "neural")
    notes = page.eval_on_selector_all("#bot-notes li", "items => items.map(li => li.textContent)")
    assert any(note.startswith("neural: ") and "docs/training.md" in note for note in notes), notes
    for agent in ("player_2", "player_3"):
        page.select_option(f"#bot-{agent}", "neural")
    page.fill("#seed", "9")
    page.click("#start")
    wait_for_human(page, "-1")
    assert set(human_view(page)["bots"].values()) == {"neural"}
    rng = np.random.default_rng(9)
    while page.evaluate("document.body.dataset.state") != "over":
        take_turn(page, rng)
    assert settlement_on_screen(page)


def test_laying_away_is_two_picks_then_a_confirmation(page, server):
    """Palatinate: the skat's taker picks two cards (a click picks or puts back, Undo clears), nothing is sent
    before "Lay these away"; then both are laid away, shown once, in the laid-away pile."""
    rng = np.random.default_rng(0)

    def bid_for_the_skat(page):
        view = human_view(page)
        for wanted in ("simple", "pass"):
            if view["phase"] in ("bid_one", "bid_two") and page.locator(f"[data-action='{wanted}']").count():
                old = page.evaluate("document.body.dataset.version")
                page.click(f"[data-action='{wanted}']")
                wait_for_human(page, old)
                return page.evaluate("document.body.dataset.mode") == "lay-away"
        return page.evaluate("document.body.dataset.mode") == "lay-away"

    assert play_until(page, bid_for_the_skat, rng, range(12), server, "palatinate"), "the human never took the skat"
    move = page.evaluate("document.body.dataset.move")
    assert page.locator("#hand .card.marked").count() == 2, "the two cards from the skat are marked"
    cards = [node.get_attribute("data-card") for node in page.query_selector_all("#hand .card.legal")[:3]]
    page.click(f"#hand .card[data-card='{cards[0]}']")
    assert page.locator("#hand .card.selected").count() == 1 and page.is_disabled("#lay-away")
    page.click(f"#hand .card[data-card='{cards[0]}']")  # a second click puts it back
    assert page.locator("#hand .card.selected").count() == 0
    page.click(f"#hand .card[data-card='{cards[0]}']")
    page.click(f"#hand .card[data-card='{cards[1]}']")
    page.click(f"#hand .card[data-card='{cards[2]}']")  # a third is refused, saying why
    assert page.locator("#hand .card.selected").count() == 2 and "put it back" in page.inner_text("#message")
    page.click("#lay-away-undo")
    assert page.locator("#hand .card.selected").count() == 0
    assert page.evaluate("document.body.dataset.move") == move, "nothing was sent before the confirmation"
    page.click(f"#hand .card[data-card='{cards[0]}']")
    page.click(f"#hand .card[data-card='{cards[1]}']")
    old = page.evaluate("document.body.dataset.version")
    page.click("#lay-away")
    wait_for_human(page, old)
    view = human_view(page)
    assert [entry["action"] for entry in view["log"][-2:]] == [f"discard:{cards[0]}", f"discard:{cards[1]}"]
    hand = next(seat["cards"] for seat in view["seats"] if seat["agent"] == "player_0")
    assert not set(cards[:2]) & set(hand)
    assert [pile["cards"] for pile in view["piles"]] == [cards[:2]], view["piles"]
