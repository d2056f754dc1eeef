"""The table's views (``play.views``): a seat sees only what it may know; the settlement is explained right."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("markdown_it", reason="the play group is not installed: pip install -e '.[play]'")

import agents  # noqa: E402
from play.catalog import make_env  # noqa: E402
from play.views import table_view  # noqa: E402
from play.views.knuffeln import observation_blocks  # noqa: E402
from tests.play.helpers import all_card_names, card_tokens, forbidden_cards, play_random_hand  # noqa: E402
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
    state = env.unwrapped.state()
    full = table_view(env, None)
    assert {s["agent"]: s["cards"] for s in full["seats"]} == state["hands"]
    seat = env.possible_agents[1]
    own = table_view(env, seat)
    for entry in own["seats"]:
        assert entry["cards"] == (state["hands"][seat] if entry["agent"] == seat else None)
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


KNUFFELN_SECTIONS = {
    "dealer": "dealer (relative seat one-hot)", "team": "my team (relative seats)", "active": "active seats",
    "phase": "phase one-hot dealer_choice/ten_exchange/ole_exchange/talk/play/turn_answer/over",
    "to_act": "to act (relative seat)", "first_suit": "first chosen suit", "second_suit": "second chosen suit",
    "hand": "my hand", "turned": "cards turned to choose the suits", "face_up": "cards face up beside the stock",
    "stock_shown_to_all": "stock cards shown to all (bottom Oles, 1924/38 bottom three)",
    "stock_known": "face-down stock cards I know", "out_of_play": "out of play (Queens/Kings given for Oles)",
    "received": "received by exchange, per relative seat", "given": "given by exchange, per relative seat",
    "dealer_choice": "dealer choice (undecided/alone/sits out)", "ole_on_offer": "Ole on offer",
}
"""The kernel's section (``observation_layout``, the env's index table) behind each block the view names:
two blocks of one size swapped in either would still agree on offsets and sizes."""


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
    assert list(blocks) == list(KNUFFELN_SECTIONS)
    offset = 0
    for (section, size), (name, (expected_offset, expected_size)) in zip(layout, blocks.items(), strict=False):
        assert section == KNUFFELN_SECTIONS[name], f"the view's {name!r} block is the kernel's {section!r}"
        assert (offset, size) == (expected_offset, expected_size), name
        offset += size
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
        assert value_line.endswith(f"= {result['value']}.") or value_line.endswith(f"= {result['value']} units.")
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
        assert any(line.startswith("Value: ") and line.endswith(f" {result['value']}.") for line in result["lines"])
        shown += 1
    assert shown > 30


OPTIONAL = type(None)
VIEW_FIELDS = {
    "game": str, "title": str, "deck": str, "config": dict, "viewer": (str, OPTIONAL), "agents": list,
    "dealer": str, "phase": str, "phase_label": str, "to_act": (str, OPTIONAL), "over": bool, "move_number": int,
    "seats": list, "legal": list, "prompt": (str, OPTIONAL), "facts": list, "piles": list,
    "trick": (dict, OPTIONAL), "last_trick": (dict, OPTIONAL), "tricks": list, "log": list, "talk": list,
    "result": (dict, OPTIONAL),
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
