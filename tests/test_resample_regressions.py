"""Regression: resampling must find consistent deals where voids force cards onto one seat.

This Solo Tout position (found by the tournament) left only one seat able to hold four hidden cards;
the old sampler dealt the most constrained *seat* first and gave up on about one call in ten.
"""

import numpy as np

from schafkopf_env import bavarian_v0

RECORD = {
    "game": "bavarian",
    "config": {},
    "deal": {
        "dealer": 3,
        "hands": {
            "player_0": ["EA", "E10", "EK", "E9", "E8", "E7", "G10", "H8"],
            "player_1": ["GK", "GO", "G7", "H10", "SA", "SK", "SU", "S9"],
            "player_2": ["EU", "GA", "GU", "G8", "HO", "HU", "H9", "S10"],
            "player_3": ["EO", "G9", "HA", "HK", "H7", "SO", "S8", "S7"],
        },
    },
    "actions": [
        ["player_0", "wenz"],
        ["player_1", "solo"],
        ["player_2", "pass"],
        ["player_3", "solo_tout"],
        ["player_3", "trump:S"],
        ["player_0", "EA"],
        ["player_1", "SU"],
        ["player_2", "EU"],
        ["player_3", "EO"],
        ["player_3", "S7"],
        ["player_0", "E10"],
        ["player_1", "SK"],
    ],
    "result": None,
}


def test_forced_cards_are_resampled_every_time():
    env = bavarian_v0.env()
    env.reset(options={"record": RECORD})
    for _agent, action in RECORD["actions"]:
        env.step(env.unwrapped.string_to_action(action))
    forehand_clubs = {"EK", "E9", "E8", "E7"}
    for seed in range(200):
        world = env.unwrapped.resample_from_infostate("player_2", np.random.default_rng(seed))
        hands = world.state()["hands"]
        assert forehand_clubs <= set(hands["player_0"]), hands
        assert hands["player_2"] == env.unwrapped.state()["hands"]["player_2"]
