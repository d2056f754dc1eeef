"""The table's views (``play.views``): a seat sees only what it may know; the settlement is explained right."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

pytest.importorskip("markdown_it", reason="the play group is not installed: pip install -e '.[play]'")

import agents  # noqa: E402
from play.catalog import make_env  # noqa: E402
from play.views import table_view  # noqa: E402
from play.views.knuffeln import observation_blocks  # noqa: E402
from tests.play.helpers import (  # noqa: E402
    all_card_names,
    card_tokens,
    forbidden_cards,
    hand_sorted,
    play_random_hand,
)
from trick_core.registry import VARIANTS, variant_id  # noqa: E402

SEEDS = (0, 1, 2)


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=[variant_id(g, c) for g, c in VARIANTS])
def test_no_seat_is_shown_a_card_it_may_not_see(game, config):
    """At every decision of random hands, every seat's view names no card hidden from that seat."""
    for seed in SEEDS:
        env = make_env(game, config)
        env.reset(seed=seed)

        def check(env):
            names = all_card_names(env)
            for seat in env.possible_agents:
                view = table_view(env, seat)
                leaked = card_tokens(view, names) & forbidden_cards(env, seat)
                assert not leaked, f"{seat} is shown {sorted(leaked)} at move {view['move_number']}"

        play_random_hand(env, seed, check)


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=[variant_id(g, c) for g, c in VARIANTS])
def test_view_is_the_same_in_every_world_the_seat_cannot_tell_apart(game, config):
    """A seat's view of the real table equals its view of a resampled one (hidden cards redealt
    consistently with what it knows): the view depends on nothing the seat cannot know. (Only the final
    settlement may differ: it is paid on the real cards, e.g. hoch and Laufende.)"""
    env = make_env(game, config)
    env.reset(seed=11)
    rng = np.random.default_rng(5)
    checked = 0

    def check(env):
        nonlocal checked
        seat = env.possible_agents[checked % env.num_seats]
        sampled = env.unwrapped.resample_from_infostate(seat, rng)
        real_view, sampled_view = table_view(env, seat), table_view(sampled, seat)
        real_view.pop("result"), sampled_view.pop("result")
        assert sampled_view == real_view, f"{seat} at move {checked}"
        checked += 1

    play_random_hand(env, 11, check)
    assert checked > 5


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=[variant_id(g, c) for g, c in VARIANTS])
def test_full_view_shows_every_hand_and_seat_view_only_its_own(game, config):
    env = make_env(game, config)
    env.reset(seed=3)
    while env.unwrapped.state()["phase"] == "klopfen":  # half a hand seen: tests/play/test_bavarian_options.py
        env.step(env.unwrapped.string_to_action("no_knock"))
    state = env.unwrapped.state()
    full = table_view(env, None)
    assert {s["agent"]: sorted(s["cards"]) for s in full["seats"]} == {a: sorted(h) for a, h in state["hands"].items()}
    seat = env.possible_agents[1]
    own = table_view(env, seat)
    for entry in own["seats"]:
        if entry["agent"] == seat:
            assert sorted(entry["cards"]) == sorted(state["hands"][seat])
        else:
            assert entry["cards"] is None
        assert entry["count"] == len(state["hands"][entry["agent"]])


@pytest.mark.parametrize(("game", "config"), VARIANTS[:2] + VARIANTS[7:8], ids=["knuffeln", "knuffeln-5", "bavarian"])
def test_legal_moves_only_for_the_seat_to_act(game, config):
    env = make_env(game, config)
    env.reset(seed=4)
    to_act = env.unwrapped.state()["current_player"]
    for seat in env.possible_agents:
        legal = [entry["action"] for entry in table_view(env, seat)["legal"]]
        assert legal == (env.unwrapped.legal_action_strings() if seat == to_act else [])
    assert table_view(env, None)["legal"] == []


@pytest.mark.parametrize("config", [{}, {"players": 5}, {"talk": "lexicon"}, {"variant": "bernhard1924"}])
def test_knuffeln_observation_blocks_match_the_env(config):
    """The offsets ``play`` reads the stock knowledge at are the kernel's own layout, and the hand block
    decodes to the seat's hand."""
    from knuffeln_env.knuffeln import kernel

    env = make_env("knuffeln", config)
    env.reset(seed=2)
    players = env.unwrapped.num_seats
    full = env.unwrapped.config
    layout = kernel.observation_layout(kernel.make_params(full["variant"], players, full["talk"]), 0)
    blocks = observation_blocks(players)
    offset = 0
    for (section, size), (name, (expected_offset, expected_size)) in zip(layout, blocks.items(), strict=False):
        assert section == name, f"the view's {name!r} block is the kernel's {section!r}"
        assert (offset, size) == (expected_offset, expected_size), name
        offset += size
    assert {"hand", "stock_shown_to_all", "stock_known"} <= set(blocks)
    seat = env.possible_agents[0]
    start, size = blocks["hand"]
    observed = np.flatnonzero(env.unwrapped.observe(seat)["observation"][start:start + size])
    assert sorted(env.unwrapped.action_to_string(int(c)) for c in observed) == sorted(
        env.unwrapped.state()["hands"][seat])


def hand_played_by(game: str, seed: int, bot: str):
    """A hand of ``game`` dealt with ``seed`` and played to its end by a ``bot`` at every seat."""
    env = make_env(game, {})
    env.reset(seed=seed)
    bots = {a: agents.make(bot, game) for a in env.possible_agents}
    while (agent := env.unwrapped.state()["current_player"]) is not None:
        env.step(bots[agent].act(env, agent))
    return env


@pytest.mark.parametrize("game", ["bavarian", "palatinate", "asserufen"])
def test_settlement_explained_with_the_env_value(game):
    """The value the explanation computes (or breaks down) is the one the env settled, for the rules
    bots' hands (all contracts occur) and random ones."""
    contracts = set()
    for seed in range(40):
        env = hand_played_by(game, seed, "rules" if seed % 2 else "random")
        state = env.unwrapped.state()
        result = table_view(env, env.possible_agents[0])["result"]
        settlement = env.unwrapped.game_record()["result"]
        assert result["settlement"] == dict(zip(env.possible_agents, settlement, strict=True))
        contracts.add(state["contract"])
        if state["contract"] is None:
            assert result["value"] == 0 and not any(settlement)
            continue
        declarer = env.possible_agents.index(state["declarer"])
        for seat, units in enumerate(settlement):
            if seat != declarer:
                assert abs(units) == result["value"], (seed, result["lines"], settlement)
        assert (settlement[declarer] > 0) == result["declarer_won"]
        value_line = next(line for line in result["lines"] if line.startswith("Value:"))
        unit = "unit" if result["value"] == 1 else "units"
        assert value_line.endswith(f" {result['value']} {unit}."), value_line
        assert not re.search(r"(?<![\d.])1 units", " ".join(result["lines"])), result["lines"]
        assert "= 1 unit" not in value_line, result["lines"]
    assert len(contracts) >= 3, contracts


@pytest.mark.parametrize("game", ["palatinate", "asserufen"])
def test_settlement_breakdown_adds_up(game):
    """The Palatinate breakdown is rebuilt from public facts (the skat stays hidden), Asserufen's read from
    the env's score: the parts times the Du and doubling factor give the value the env settled, and
    schneider is worth 0 or 1."""
    shown = 0
    for seed in range(60):
        env = hand_played_by(game, seed, "rules" if seed % 3 else "random")
        result = table_view(env, "player_0")["result"]
        if not result["value"]:
            continue
        parts = dict(result["parts"])
        assert sum(parts.values()) * result["factor"] == result["value"], (seed, result["lines"])
        assert parts.get("schneider", 1) == 1 and parts["game"] == 1
        unit = "unit" if result["value"] == 1 else "units"
        assert any(line.startswith("Value: ") and line.endswith(f" {result['value']} {unit}.")
                   for line in result["lines"])
        shown += 1
    assert shown > 30


OPTIONAL = type(None)
VIEW_FIELDS = {
    "game": str, "title": str, "deck": str, "config": dict, "viewer": (str, OPTIONAL), "agents": list,
    "dealer": str, "phase": str, "phase_label": str, "to_act": (str, OPTIONAL), "over": bool, "move_number": int,
    "seats": list, "legal": list, "prompt": (str, OPTIONAL), "facts": list, "piles": list,
    "trick": (dict, OPTIONAL), "last_trick": (dict, OPTIONAL), "tricks": list, "log": list, "talk": list,
    "result": (dict, OPTIONAL), "card_rule": (str, OPTIONAL), "hand_marks": dict, "after_silence": list,
}
"""The fields of every game's view that the page reads (``play.views.common.base_view``), and their types."""
SEAT_FIELDS = {"agent", "cards", "count", "roles", "said", "team", "tricks", "points", "active"}
CONTROL_FIELDS = {"action", "verb", "card", "label"}
LOG_FIELDS = {"agent", "action", "text"}


def check_view_shape(view: dict, viewer: str | None) -> None:
    assert json.loads(json.dumps(view)) == view, "not plain JSON (a tuple, a numpy number, a non-string key)"
    assert view.keys() == VIEW_FIELDS.keys()
    for name, kind in VIEW_FIELDS.items():
        assert isinstance(view[name], kind), f"{name}: {view[name]!r}"
    assert view["viewer"] == viewer and view["over"] == (view["to_act"] is None)
    assert [seat["agent"] for seat in view["seats"]] == view["agents"]
    assert all(seat.keys() == SEAT_FIELDS for seat in view["seats"])
    assert all(control.keys() == CONTROL_FIELDS for control in view["legal"])
    assert bool(view["legal"]) == (viewer is not None and view["to_act"] == viewer)
    assert (view["prompt"] is not None) == bool(view["legal"])
    assert len(view["log"]) == view["move_number"] and all(entry.keys() == LOG_FIELDS for entry in view["log"])
    for trick in [*view["tricks"], *filter(None, [view["trick"]])]:
        assert {"leader", "cards", "winner"} <= trick.keys()
    assert view["last_trick"] == (view["tricks"][-1] if view["tricks"] else None)
    assert all(len(fact) == 2 and all(isinstance(part, str) for part in fact) for fact in view["facts"])
    assert (view["result"] is not None) == view["over"]


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=[variant_id(g, c) for g, c in VARIANTS])
def test_every_view_has_the_fields_the_page_reads(game, config):
    """At every decision of two random hands and at their ends, every seat's view and the full view are plain
    JSON with the same fields of the same types in every game: the page draws every game with one script."""
    env = make_env(game, config)
    for seed in range(2):
        env.reset(seed=seed)
        play_random_hand(env, seed, visit=lambda e: [check_view_shape(table_view(e, viewer), viewer)
                                                     for viewer in [None, *e.unwrapped.possible_agents]])


def test_unknown_viewer_is_refused():
    env = make_env("bavarian", {})
    env.reset(seed=1)
    with pytest.raises(ValueError, match="unknown seat"):
        table_view(env, "player_9")


CARD_VERBS = {"turn", "show", "discard", "exchange"}


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=[variant_id(g, c) for g, c in VARIANTS])
def test_every_action_of_the_game_is_a_control_with_a_label(game, config):
    """Each decision of the game (bids, calls, doubles, schenken, discards, exchanges, turning, answers,
    Jann, talk, tokens, card plays) reaches the page as a control of the right kind with a readable label."""
    from play.views import action_control

    env = make_env(game, config)
    env.reset(seed=0)
    cards = all_card_names(env)
    for index in range(env.unwrapped.num_actions):
        action = env.unwrapped.action_to_string(index)
        control = action_control(env, action)
        head, _, tail = action.partition(":")
        if action in cards:
            assert (control["verb"], control["card"]) == ("play", action)
        elif head in CARD_VERBS:
            assert (control["verb"], control["card"]) == (head, tail) and tail in cards
        elif head in ("say", "token"):
            assert control["verb"] == head
        else:
            assert control["verb"] == "button"
        assert control["label"] and control["label"] != action, action


def test_the_no_leak_helper_refuses_a_game_whose_undealt_cards_it_does_not_know():
    """``forbidden_cards`` hides the hands of the others; a game with cards outside the hands (a skat, a
    stock) needs its own branch there. Without one (here Palatinate under a stand-in name) it says so
    instead of letting the no-leak tests pass on less than they claim."""
    env = make_env("palatinate", {})
    env.reset(seed=1)
    env.unwrapped.game_name = "stand_in"
    with pytest.raises(AssertionError, match="stand_in deals cards outside the hands"):
        forbidden_cards(env, "player_0")


# ---------------------------------------------------------------------------------------------- what a player reads


@pytest.mark.parametrize("game", ["bavarian", "palatinate", "asserufen", "knuffeln"])
def test_hands_are_sorted_by_the_contract(game):
    """At every decision of hands played by the rules bots (every contract occurs), each seat's own hand is in
    the order ``expected_hand_order`` writes from the rules: trumps together from the highest once the
    contract is known, suits before."""
    contracts = set()
    for seed in range(6):
        env = make_env(game, {})
        env.reset(seed=seed)
        bots = {agent: agents.make("rules", game) for agent in env.possible_agents}
        while (agent := env.unwrapped.state()["current_player"]) is not None:
            st = env.unwrapped.state()
            for seat in env.possible_agents:
                cards = next(entry["cards"] for entry in table_view(env, seat)["seats"] if entry["agent"] == seat)
                assert hand_sorted(game, st, cards), (seed, st.get("contract"), st.get("trump"), cards)
            contracts.add((st.get("contract"), st.get("trump"), tuple(st.get("chosen_suits") or ())))
            env.step(bots[agent].act(env, agent))
    assert len(contracts) >= 3, contracts


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=[variant_id(g, c) for g, c in VARIANTS])
def test_every_card_is_shown_in_one_place(game, config):
    """In the full view no card lies in two places at once (a hand, a pile, the trick, a finished trick): a
    Palatinate card laid away is not also shown in the skat it came from, a Knüffeln turned card taken for a
    ten is not also shown among the turned cards."""
    env = make_env(game, config)
    for seed in range(3):
        env.reset(seed=seed)

        def check(env, seed=seed):
            view = table_view(env, None)
            shown = [card for seat in view["seats"] for card in seat["cards"]]
            shown += [card for pile in view["piles"] for card in pile["cards"] if card is not None]
            for trick in [*view["tricks"], *filter(None, [view["trick"]])]:
                shown += [played["card"] for played in trick["cards"] if played["card"] is not None]
            doubled = sorted({card for card in shown if shown.count(card) > 1})
            assert not doubled, f"seed {seed}, move {view['move_number']}: {doubled} shown twice"

        play_random_hand(env, seed, check)


def hands_until(game: str, wanted, seeds=range(80), bot: str = "rules"):
    """The first finished hand (played by ``bot`` on every seat) whose final state ``wanted(state)`` accepts."""
    for seed in seeds:
        env = hand_played_by(game, seed, bot)
        if wanted(env.unwrapped.state()):
            return env
    raise AssertionError(f"no {game} hand of the seeds tried is one the test needs")


def test_palatinate_settlement_gives_the_declarers_total_and_says_you():
    """The declarer's total includes the two cards laid away (the number the 61 is about), the player at the
    table is "You" (with the verb to match), and hoch is explained."""
    env = hands_until("palatinate", lambda st: st["contract"] == "simple" and st["result"]["hoch"])
    st = env.unwrapped.state()
    declarer, total = st["declarer"], st["result"]["declarer_card_points"]
    lines = table_view(env, declarer, address_viewer=True)["result"]["lines"]
    text = " ".join(lines)
    laid_away = total - st["points"][declarer]
    assert f"{st['points'][declarer]} card points" in text and f"{laid_away} in the two cards laid away" in text
    assert f"{total} in all" in text and declarer not in text and "You played" in text
    assert ("You receive " in text) == st["result"]["declarer_won"] and "You receives" not in text
    assert any(line.startswith(f"Hoch {st['result']['hoch']} (with") for line in lines), lines
    other = next(agent for agent in env.possible_agents if agent != declarer)
    assert declarer in " ".join(table_view(env, other, address_viewer=True)["result"]["lines"])
    assert "You" not in " ".join(table_view(env, declarer)["result"]["lines"]), "the replay viewer names seats"


def test_contracts_are_named_as_players_name_them():
    env = hands_until("bavarian", lambda st: st["contract"] == "rufer")
    facts = dict(table_view(env, "player_0")["facts"])
    assert facts["Contract"] == "Sauspiel"
    env = hands_until("bavarian", lambda st: st["contract"] == "solo" and st["trump"] == "H", seeds=range(300))
    assert dict(table_view(env, "player_0")["facts"])["Contract"] == "Herz-Solo"


@pytest.mark.parametrize("game", ["palatinate", "asserufen"])
def test_hoch_says_which_side_held_the_top_trumps(game):
    """"Hoch N (with N)" when the declarer's side held the club Queen at the start (its dealt hands, and in
    Palatinate the skat, which counts as the declarer's), "(without N)" when the opponents did."""
    seen = set()
    for seed in range(60):
        env = hand_played_by(game, seed, "rules" if seed % 2 else "random")
        st = env.unwrapped.state()
        lines = (table_view(env, "player_0")["result"] or {}).get("lines", [])
        line = next((line for line in lines if line.startswith("Hoch ")), None)
        if line is None or not st["tricks"]:
            continue
        side = {st["declarer"]} | ({st["partner"]} if st.get("partner") else set())
        held = {card for agent in side for card in st["dealt_hands"][agent]} | set(st.get("skat") or ())
        with_ = "CQ" in held
        assert line.startswith(f"Hoch {line.split()[1]} ({'with' if with_ else 'without'} "), (seed, line)
        seen.add(with_)
    assert seen, "no hand with hoch among the seeds"



@pytest.mark.parametrize(("game", "called"), [("bavarian", "the called Sau"), ("asserufen", "the called card")])
def test_the_card_rule_names_the_called_card_in_the_games_words(game, called):
    """When the called card's rules (not the led suit) keep cards back, the page says so in the words of the
    game's view (its data, not a test of the game's name), in hands played by the rules bots."""
    env = make_env(game, {})
    said = []
    for seed in range(10):
        env.reset(seed=seed)
        bots = {agent: agents.make("rules", game, seed=seed) for agent in env.possible_agents}
        while (agent := env.unwrapped.state()["current_player"]) is not None:
            rule = table_view(env, agent)["card_rule"]
            if rule and rule.startswith("Only the highlighted cards"):
                said.append(rule)
            env.step(bots[agent].act(env, agent))
    assert said and all(f"now: {called} may not be led away from or thrown off" in rule for rule in said), said[:3]
