"""Bavarian Schafkopf speed on one core, printed as JSON (not a test: numbers depend on the machine).

    python -m benchmarks.bavarian_speed [--seconds 2] [--clock process]

- ``kernel_hands_per_s``: ``bavarian_kernel.play_random_hands`` (deal and play random whole hands in
  compiled code);
- ``env_steps_per_s``: ``bavarian_v0.raw_env`` through the PettingZoo AEC loop (``agent_iter`` /
  ``last`` / ``step`` with a random legal action, resets and the dead steps at the end included);
- ``reference_hands_per_s``: the plain-Python reference playing random hands.

Each figure is the best of three timed runs after a warm-up (compilation) run. ``--clock process``
times with this process's CPU time instead of the wall clock: fairer on a machine shared with other work.
"""

from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np

from schafkopf_env import bavarian_kernel, bavarian_reference, bavarian_v0

clock = time.perf_counter


def best_of_three(run, seconds: float) -> float:
    run(seconds / 10)  # warm-up: compile, fill caches
    return max(run(seconds) for _ in range(3))


def kernel_rate(seconds: float) -> float:
    params = bavarian_kernel.make_params()
    hands = 1000
    start = clock()
    while clock() - start < seconds / 4:
        bavarian_kernel.play_random_hands(params, hands, 1)
        hands *= 2
    start = clock()
    bavarian_kernel.play_random_hands(params, hands, 2)
    return hands / (clock() - start)


def env_rate(seconds: float) -> float:
    env = bavarian_v0.raw_env()
    env.reset(seed=0)
    choice = random.Random(0).randrange
    steps = 0
    start = clock()
    while clock() - start < seconds:
        env.reset()
        for _agent in env.agent_iter():
            observation, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                env.step(None)
            else:
                legal = np.flatnonzero(observation["action_mask"])
                env.step(int(legal[choice(len(legal))]))
            steps += 1
    return steps / (clock() - start)


def reference_rate(seconds: float) -> float:
    rng = random.Random(0)
    hands = 0
    start = clock()
    while clock() - start < seconds:
        cards = list(bavarian_reference.PACK)
        rng.shuffle(cards)
        game = bavarian_reference.BavarianGame([cards[i * 8 : i * 8 + 8] for i in range(4)], rng.randrange(4))
        while not game.is_over():
            game.play(rng.choice(game.legal_actions()))
        game.settlement()
        hands += 1
    return hands / (clock() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="length of each timed run")
    parser.add_argument("--clock", choices=("wall", "process"), default="wall", help="what to time with")
    args = parser.parse_args()
    global clock
    clock = time.process_time if args.clock == "process" else time.perf_counter
    result = {
        "game": "bavarian",
        "clock": args.clock,
        "kernel_hands_per_s": round(best_of_three(kernel_rate, args.seconds)),
        "env_steps_per_s": round(best_of_three(env_rate, args.seconds)),
        "reference_hands_per_s": round(best_of_three(reference_rate, args.seconds)),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
