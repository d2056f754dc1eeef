"""Knüffeln speed figures, printed as JSON: ``python -m knuffeln_env.perf [--quick]``.

- ``kernel_random_hands_per_s``: ``kernel.play_random_hands`` (deal and play uniformly random whole hands
  in compiled code, one thread), per configuration;
- ``aec_steps_per_s``: ``raw_env`` steps with talk off, replaying recorded random hands (``env_only``: reset
  with a fixed deal and step) and drawing random legal actions in Python (``with_random_policy``);
- ``reference_hands_per_s``: the plain-Python reference playing random hands.

Each figure warms up (compiles) first and reports the best of a few repeats (process CPU time, so that a
busy machine distorts it less).
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from trick_core.cards import KNUFFELN_48

from . import kernel, knuffeln_v0
from .reference import RedealNeeded, ReferenceHand

CONFIGS = {
    "bohmstedt": {},
    "hattstedt": {"variant": "hattstedt"},
    "bernhard1924": {"variant": "bernhard1924"},
    "gruenberg1938": {"variant": "gruenberg1938"},
    "five_players": {"players": 5},
    "lexicon_talk": {"talk": "lexicon"},
}


def _best_rate(run, count: int, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        run(count)
        best = min(best, time.process_time() - start)
    return count / best


def kernel_hands_per_s(config: dict, hands: int, repeats: int) -> float:
    params = kernel.make_params(**config)
    kernel.play_random_hands(params, 100, 0)
    return _best_rate(lambda n: kernel.play_random_hands(params, n, 1), hands, repeats)


def aec_steps_per_s(steps: int, repeats: int) -> dict:
    """``raw_env`` steps per second, talk off: ``env_only`` replays recorded random hands (``reset`` and
    ``step`` only); ``with_random_policy`` also draws each action from the mask in Python."""
    env = knuffeln_v0.raw_env()
    rng = np.random.default_rng(0)
    draws = rng.integers(0, 2**31, size=steps)

    def run_policy(count: int) -> None:
        env.reset(seed=0)
        for i in range(count):
            if env.terminations[env.agent_selection]:
                env.reset()
            legal = np.flatnonzero(env.unwrapped._action_mask)
            env.step(int(legal[draws[i] % legal.shape[0]]))

    games = []
    recorded = 0
    while recorded < steps:
        env.reset(seed=len(games))
        actions = []
        while not env.terminations[env.agent_selection]:
            legal = np.flatnonzero(env.unwrapped._action_mask)
            actions.append(int(legal[rng.integers(legal.shape[0])]))
            env.step(actions[-1])
        games.append((env.unwrapped.game_record()["deal"], actions))
        recorded += len(actions)

    def run_replay(count: int) -> None:
        for deal, actions in games:
            env.reset(options=deal)
            for action in actions:
                env.step(action)

    run_policy(100)
    return {
        "env_only": round(_best_rate(run_replay, recorded, repeats)),
        "with_random_policy": round(_best_rate(run_policy, steps, repeats)),
    }


def reference_hands_per_s(hands: int, repeats: int) -> float:
    rng = np.random.default_rng(0)
    names = KNUFFELN_48.names_of(KNUFFELN_48.full_mask)

    def run(count: int) -> None:
        played = 0
        while played < count:
            cards = [names[i] for i in rng.permutation(48)]
            hand = ReferenceHand()
            try:
                hand.start(3, {s: cards[9 * s: 9 * s + 9] for s in range(4)}, cards[36:])
            except RedealNeeded:
                continue
            while not hand.over:
                options = hand.legal_actions()
                hand.apply(options[int(rng.integers(len(options)))])
            played += 1

    return _best_rate(run, hands, repeats)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer hands and steps")
    args = parser.parse_args()
    scale = 0.1 if args.quick else 1.0
    results = {
        "kernel_random_hands_per_s": {
            name: round(kernel_hands_per_s(config, int(1_000_000 * scale), 3)) for name, config in CONFIGS.items()
        },
        "aec_steps_per_s": aec_steps_per_s(int(200_000 * scale), 3),
        "reference_hands_per_s": round(reference_hands_per_s(int(2_000 * scale), 2)),
    }
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
