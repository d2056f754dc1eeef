"""Agents act on their seat's view of the table (``trick_core.seat_view``): a hostile plug-in in the arena
gets no hidden card, built-in agents play exactly as before through it, and the view hands out its own
seat's public record (which hides what the seat did not see: ``test_public_record``)."""

from __future__ import annotations

import numpy as np
import pytest

from agents.arena import run_arena
from tests.arena import hostile_agent
from trick_core.registry import GAME_NAMES, game_spec
from trick_core.seat_view import SeatView


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_hostile_plug_in_gets_no_hidden_card(game):
    hostile_agent.ATTEMPTS.clear()
    run_arena(game, ["tests.arena.hostile_agent:make_agent", "random"], hands=1, seed=3)
    assert hostile_agent.ATTEMPTS, "the hostile agent never acted"
    leaked = [(route, got) for route, got in hostile_agent.ATTEMPTS if got != "refused"]
    assert leaked == []
    assert {route for route, _ in hostile_agent.ATTEMPTS} == set(hostile_agent.ROUTES)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_view_offers_what_the_contract_promises(game):
    env = game_spec(game).make_env()
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(5):
        env.step(int(rng.choice(env.unwrapped.legal_actions())))
    assert not all(env.terminations.values())
    agent = env.agent_selection
    view = SeatView(env, agent)
    observation = view.observe(agent)
    assert (observation["action_mask"] == env.observe(agent)["action_mask"]).all()
    assert view.unwrapped.legal_actions() == env.unwrapped.legal_actions()
    name = view.unwrapped.action_to_string(view.unwrapped.legal_actions()[0])
    assert view.unwrapped.string_to_action(name) == env.unwrapped.legal_actions()[0]
    world = view.unwrapped.resample_from_infostate(agent, 1)
    assert world.observe(agent)["action_mask"].tolist() == observation["action_mask"].tolist()
    assert np.array_equal(view.unwrapped.sampled_kernel_state(agent, 1), world.kernel_state())
    # The view hands out its own seat's public record, which hides what the seat did not see (whether it
    # does is tests/arena/test_public_record.py's: twin tables, the rules, a hostile reader).
    record = view.unwrapped.public_record()
    assert record == env.unwrapped.public_record(agent) and record["agent"] == agent
    assert record["hand"] == env.unwrapped.state()["dealt_hands"][agent] and len(record["actions"]) == 5
    assert view.possible_agents == env.possible_agents and view.agent_selection == agent
    other = next(a for a in env.possible_agents if a != agent)
    assert SeatView(env, other).unwrapped.legal_actions() == []
