"""The arena asks each agent to act for exactly the seats its seating gives it, and credits it with exactly
those seats' results: two recording agents play a few duplicate deals of every game, and every decision —
which agent was asked, for which seat, through which seat's view — is checked against the game's seating
scheme (``agents.seatings.seatings_for``, in the order the arena plays it), and each agent's units against
the settlements of its own seats. An arena that seats the agents one seat off (credited to the other
agent) fails here (``test_an_arena_one_seat_off_is_caught``)."""

from __future__ import annotations

import numpy as np
import pytest

from agents import arena
from agents.seatings import PASSIVE, seatings_for
from trick_core.registry import variant_id

DECISIONS: list[dict] = []
"""Every ``act`` call of the recording agents, in order: who was asked, for which seat, through which view."""

CONFIGS = [("knuffeln", {}), ("knuffeln", {"players": 5}), ("bavarian", {}), ("palatinate", {}),
           ("palatinate", {"players": 4}), ("asserufen", {})]


class SeatRecorder:
    """Plays a seeded random legal action and records each call."""

    def __init__(self, game: str, name: str) -> None:
        self.name = name
        self.rng = np.random.default_rng(0)

    def reset(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, view, agent: str) -> int:
        view.unwrapped.sampled_kernel_state(agent, 0)  # the search agents' call: refused on another seat's view
        legal = view.unwrapped.legal_actions()
        action = legal[int(self.rng.integers(len(legal)))]
        DECISIONS.append({"label": self.name, "asked_for": agent, "view_of": view.unwrapped.seat_agent,
                          "to_act": view.agent_selection, "action": view.unwrapped.action_to_string(action)})
        return action


def make_first(game: str, **kwargs) -> SeatRecorder:
    return SeatRecorder(game, "first", **kwargs)


def make_second(game: str, **kwargs) -> SeatRecorder:
    return SeatRecorder(game, "second", **kwargs)


SPECS = ["tests.arena.test_seating_of_agents:make_first", "tests.arena.test_seating_of_agents:make_second"]


def seating_errors(game: str, config: dict, deals: int = 2) -> list[str]:
    """Play ``deals`` duplicate deals between the two recorders; every way the arena's seating differs from
    the scheme (the agent asked, the seat asked for, the view handed, the units credited)."""
    DECISIONS.clear()
    arena._TABLES.clear()
    (match,) = arena.run_matches(game, SPECS, hands=deals, seed=4, config=config, workers=1, keep_records=True)
    labels = match.spec.labels
    assert set(labels) == {"first", "second"}
    errors, asked = [], iter(DECISIONS)
    for deal in match.deals:
        units = np.zeros(2)
        dealer = int(deal.records[0]["deal"]["dealer"])
        _, scheme = seatings_for(game, len(deal.records[0]["result"]), dealer)
        assert len(deal.records) == len(scheme)
        for record, seating in zip(deal.records, scheme, strict=True):
            names = [f"player_{seat}" for seat in range(len(seating))]
            expected = {names[s]: (None if slot is PASSIVE else labels[slot]) for s, slot in enumerate(seating)}
            if record["arena"]["seating"] != expected:
                errors.append(f"deal {deal.deal_index}: the record says {record['arena']['seating']}, the scheme "
                              f"{expected}")
            for actor, action in record["actions"]:
                call = next(asked, None)
                want = {"label": expected[actor], "asked_for": actor, "view_of": actor, "to_act": actor,
                        "action": action}
                if call != want:
                    errors.append(f"deal {deal.deal_index}, {actor} to play {action}: the arena called {call}")
            for seat, slot in enumerate(seating):
                if slot is not PASSIVE:
                    units[slot] += record["result"][seat]
        if not np.allclose(units, deal.units):
            errors.append(f"deal {deal.deal_index}: credited {deal.units.tolist()}, its seats won {units.tolist()}")
    if next(asked, None) is not None:
        errors.append("the agents were asked for more decisions than the records hold")
    return errors


@pytest.mark.parametrize(("game", "config"), CONFIGS, ids=[variant_id(g, c) for g, c in CONFIGS])
def test_each_agent_acts_for_exactly_its_seats(game, config):
    assert seating_errors(game, config) == []


def test_an_arena_one_seat_off_is_caught(monkeypatch):
    """The mutation of issue 33: each agent plays the seat next to its own (the results go to the other)."""
    real_play_hand = arena._play_hand

    def one_seat_off(env, agents, views, seating, labels, result):
        shifted = tuple(seating[(seat + 1) % len(seating)] for seat in range(len(seating)))
        return real_play_hand(env, agents, views, shifted, labels, result)

    monkeypatch.setattr(arena, "_play_hand", one_seat_off)
    assert seating_errors("bavarian", {}) != []
