"""The 127 real sauspiel.de hands of ``tests/data/bavarian_sauspiel_games.json`` (openschafkopf, MIT)
replayed through ``bavarian_v0`` and through the plain-Python reference: every card must be legal,
each trick's winner must lead the next, and the settlement must be exactly the one listed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from schafkopf_env import bavarian_v0
from schafkopf_env.bavarian import reference

GAMES = json.loads((Path(__file__).parent.parent / "data" / "bavarian_sauspiel_games.json").read_text())
DEALER = 3  # seat 0 is forehand in the data


def bidding_and_choice(game: dict) -> list[tuple[int, str]]:
    """Seats before the declarer pass, the declarer bids the contract, later seats pass; then the
    declarer calls the ace or names trump."""
    actions = [(seat, game["contract"] if seat == game["declarer"] else "pass") for seat in range(4)]
    if game["called_suit"]:
        actions.append((game["declarer"], "call:" + game["called_suit"]))
    if game["trump_suit"]:
        actions.append((game["declarer"], "trump:" + game["trump_suit"]))
    return actions


def test_data_covers_every_contract_of_the_source():
    assert len(GAMES) == 127
    assert {g["contract"] for g in GAMES} == {"rufer", "solo", "wenz"}


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_real_hand_replays_through_env(index):
    game = GAMES[index]
    env = bavarian_v0.env()
    env.reset(options={"dealer": DEALER, "hands": game["hands"]})
    unwrapped = env.unwrapped

    def step(seat: int, action_string: str) -> None:
        agent = f"player_{seat}"
        assert env.agent_selection == agent, f"expected {agent} to act, got {env.agent_selection}"
        action = unwrapped.string_to_action(action_string)
        legal = unwrapped.legal_action_strings()
        assert env.observe(agent)["action_mask"][action] == 1, f"{action_string} by {agent} illegal; legal {legal}"
        env.step(action)

    for seat, action_string in bidding_and_choice(game):
        step(seat, action_string)
    for number, trick in enumerate(game["tricks"]):
        if number > 0:
            assert unwrapped.state()["tricks"][-1]["winner"] == f"player_{trick['leader']}"
        for i, card in enumerate(trick["cards"]):
            step((trick["leader"] + i) % 4, card)

    assert all(env.terminations.values())
    assert [env._cumulative_rewards[a] for a in env.possible_agents] == game["expected_settlement"]
    state = unwrapped.state()
    assert state["result"] == game["expected_settlement"]
    assert state["declarer_side_points"] == game["declarer_card_points"]
    assert state["laufende"] == game["laufende"]
    side_points, side_tricks = state["declarer_side_points"], state["declarer_side_tricks"]
    assert (side_tricks in (0, 8)) == game["schwarz"]
    assert (side_points >= 91 or side_points <= 30) == game["schneider"]
    assert (side_points >= 61) == game["declarer_side_wins"]


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_real_hand_replays_through_reference(index):
    game = GAMES[index]
    hands = [game["hands"][f"player_{seat}"] for seat in range(4)]
    actions = [action for _, action in bidding_and_choice(game)]
    actions += [card for trick in game["tricks"] for card in trick["cards"]]
    played = reference.play_hand(DEALER, hands, actions)  # raises on any illegal action
    assert [t["leader"] for t in played.completed_tricks] == [t["leader"] for t in game["tricks"]]
    assert played.settlement() == game["expected_settlement"]
    assert played.declarer_side_points() == game["declarer_card_points"]
    assert played.laufende() == game["laufende"]
