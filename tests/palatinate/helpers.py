"""Shared helpers of the Palatinate Schafkopf tests (fixed deals, scripted play).

Where a table of the rules tests checks a rule function, both the kernel and the plain reference are asked;
where it checks a sequence of decisions, the PettingZoo env is driven with fixed deals (these helpers).
"""

from __future__ import annotations

import numpy as np

from schafkopf_env import palatinate_v0
from trick_core.cards import FRENCH_32

CARDS = FRENCH_32.parse

# Dealer player_2, so player_0 is forehand and the order is 0, 1, 2. Player_0 holds the four Queens,
# both black Jacks and four hearts: the source's Heart Solo Du example.
EXAMPLE_HANDS = {
    "player_0": ["CQ", "SQ", "HQ", "DQ", "CJ", "SJ", "HA", "H10", "HK", "H9"],
    "player_1": ["HJ", "DJ", "H8", "H7", "CA", "C10", "CK", "C9", "C8", "C7"],
    "player_2": ["SA", "S10", "SK", "S9", "S8", "S7", "DA", "D10", "DK", "D9"],
}
EXAMPLE_SKAT = ["D8", "D7"]


def example_deal(dealer: int = 2, hands: dict | None = None, skat: list | None = None) -> dict:
    return {"dealer": dealer, "hands": dict(hands or EXAMPLE_HANDS), "skat": list(skat or EXAMPLE_SKAT)}


def new_env(deal: dict | None = None, **config):
    env = palatinate_v0.raw_env(**config)
    env.reset(options=deal or example_deal())
    return env


def act(env, *actions: str) -> None:
    """Step the given action strings, in order, for whoever is to act."""
    for action in actions:
        env.step(env.unwrapped.string_to_action(action))


def legal(env) -> set[str]:
    return set(env.unwrapped.legal_action_strings())


def to_act(env) -> str | None:
    return env.unwrapped.state()["current_player"]


def is_over(env) -> bool:
    return env.unwrapped.state()["phase"] == "over"


def play_to_end(env, rng: np.random.Generator | None = None, prefer: tuple[str, ...] = ()) -> None:
    """Play until the hand is over: a preferred action string if legal, else a random legal action (or
    the first legal one without ``rng``)."""
    while not is_over(env):
        options = env.unwrapped.legal_action_strings()
        chosen = next((p for p in prefer if p in options), None)
        if chosen is None:
            chosen = options[int(rng.integers(len(options)))] if rng is not None else options[0]
        act(env, chosen)


def result(env) -> list[float]:
    return env.unwrapped.state()["result"]["settlement"]
