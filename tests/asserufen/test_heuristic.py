"""The Asserufen playout policy (``schafkopf_env.asserufen.heuristic`` on ``schafkopf_env.playout_policy``):
its decisions outside card play, and compiled copies whose names are the same in every process (numba
finds a cached copy only under the same name, so an unstable name would recompile in every process)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from schafkopf_env import asserufen_v0
from schafkopf_env.asserufen import heuristic
from trick_core.bits import make_rng

ROOT = Path(__file__).resolve().parents[2]
DEAL = {
    "player_0": "CQ SQ HQ DQ HA H10 C9 S9".split(),  # a base-game hand, no non-heart ace
    "player_1": "CJ SJ HJ DJ HK C10 CK S8".split(),
    "player_2": "CA C8 C7 S10 SK D10 DK D9".split(),
    "player_3": "H9 H8 H7 SA S7 DA D8 D7".split(),
}


def policy_action(env) -> str:
    state = env.unwrapped.kernel_state()
    return env.unwrapped.action_to_string(int(heuristic.heuristic_action(state, make_rng(0), 0.0)))


def test_bids_haenge_an_with_a_base_game_hand_then_calls_its_shortest_held_suit_and_never_doubles():
    env = asserufen_v0.env()
    env.reset(options={"hands": DEAL})
    assert policy_action(env) == "haenge_an"
    for action in ("haenge_an", "weg", "weg", "weg"):
        env.step(env.unwrapped.string_to_action(action))
    assert env.unwrapped.legal_action_strings() == ["call:C", "call:S"]
    assert policy_action(env) == "call:C"  # one club, one spade: the first of the shortest
    env.step(env.unwrapped.string_to_action("call:C"))
    env.step(env.unwrapped.string_to_action("HA"))
    assert env.unwrapped.legal_action_strings() == ["contra", "no_double"]
    assert policy_action(env) == "no_double"


def test_a_hand_without_a_base_game_says_weg_and_a_card_is_always_legal():
    env = asserufen_v0.env()
    env.reset(options={"dealer": 2, "hands": DEAL})  # player_3 (three small trumps) speaks first
    assert policy_action(env) == "weg"
    for action in ("weg", "weg", "heart_solo", "weg"):
        env.step(env.unwrapped.string_to_action(action))
    while not all(env.terminations.values()):
        action = policy_action(env)
        assert action in env.unwrapped.legal_action_strings()
        env.step(env.unwrapped.string_to_action(action))


def test_compiled_policy_names_are_the_same_in_every_process():
    script = "from schafkopf_env.asserufen import heuristic as h; print(h.choose_action.__name__)"
    names = {
        subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True).stdout
        for _ in range(2)
    }
    assert names == {heuristic.choose_action.__name__ + "\n"}
    assert heuristic.choose_action.__name__.startswith("choose_action__asserufen__")
