"""Asserufen speed: compiled random hands, PettingZoo AEC steps, plain-Python reference hands.

Prints JSON. Times are CPU seconds of this process (``time.process_time``), so a busy machine inflates
them less than wall-clock time would. Compilation is warmed up first.

    python -m benchmarks.asserufen_speed [--seconds 3]
"""

from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np

from schafkopf_env import asserufen_kernel as kernel
from schafkopf_env import asserufen_v0
from schafkopf_env.asserufen_reference import AsserufenReference, all_cards


def kernel_hands_per_second(seconds: float) -> float:
    params = kernel.make_params()
    kernel.play_random_hands(params, 100, 1)
    batch, hands, start = 20_000, 0, time.process_time()
    while time.process_time() - start < seconds:
        kernel.play_random_hands(params, batch, hands + 7)
        hands += batch
    return hands / (time.process_time() - start)


def env_steps_per_second(seconds: float) -> tuple[float, float]:
    """Steps of ``raw_env`` replaying recorded uniformly random hands (the action choice is precomputed,
    so only ``reset`` and ``step`` are timed); returns (steps/s without resets, steps/s with resets)."""
    env = asserufen_v0.raw_env()
    rng = np.random.default_rng(0)
    games = []
    for seed in range(2000):
        env.reset(seed=seed)
        actions = []
        while not env.terminations[env.agent_selection]:
            legal = env.legal_actions()
            actions.append(legal[int(rng.integers(len(legal)))])
            env.step(actions[-1])
        games.append((seed, actions))
    num_steps = sum(len(a) for _, a in games)
    step_time = total_time = 0.0
    rounds = 0
    while total_time < seconds:
        for seed, actions in games:
            t0 = time.process_time()
            env.reset(seed=seed)
            t1 = time.process_time()
            step = env.step
            for action in actions:
                step(action)
            t2 = time.process_time()
            step_time += t2 - t1
            total_time += t2 - t0
        rounds += 1
    return rounds * num_steps / step_time, rounds * num_steps / total_time


def reference_hands_per_second(seconds: float) -> float:
    rnd = random.Random(0)
    hands, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        cards = all_cards()
        rnd.shuffle(cards)
        game = AsserufenReference(rnd.randrange(4), [cards[i * 8 : i * 8 + 8] for i in range(4)])
        while game.phase != "over":
            game.apply(rnd.choice(game.legal_actions()))
        game.settlement()
        hands += 1
    return hands / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per measurement")
    args = parser.parse_args()
    steps, steps_with_reset = env_steps_per_second(args.seconds)
    result = {
        "game": "asserufen",
        "kernel_random_hands_per_s": round(kernel_hands_per_second(args.seconds)),
        "env_steps_per_s": round(steps),
        "env_steps_per_s_with_reset": round(steps_with_reset),
        "reference_random_hands_per_s": round(reference_hands_per_second(args.seconds)),
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
