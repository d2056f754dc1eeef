"""Learner steps per second of the ``trick_gym`` envs, printed as JSON (numbers depend on the machine).

    python -m benchmarks.trick_gym_speed [--seconds 2] [--num-envs 4096] [--games bavarian knuffeln]

A learner step is one decision of the learner's seat, with every opponent move until its next decision
(or the next hand's first) included. The learner picks uniformly random legal actions in compiled code
(``batch.sample_actions()``), so the figures measure the env, not a policy.

- ``vector_random[game][threads]``: ``OneSeatVectorEnv`` with random opponents (compiled), ``num_envs``
  rows, on 1 and 2 numba threads (a count above numba's threads on the machine is listed in
  ``threads_not_measured``, beside ``numba_threads``, and said on stderr);
- ``vector_policy[game]``: the same with a batched numpy opponent callable (first legal action), 1 thread;
- ``one_seat[game]``: ``gymnasium.make(<id>)`` (the AEC-based one-seat env) with random opponents.

Each figure is the best of three timed runs after a warm-up (compilation) run.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass, field

import gymnasium
import numba
import numpy as np
import tyro

import trick_gym
from benchmarks.timing import check_games, check_positive
from trick_gym.vector import OneSeatVectorEnv


@dataclass
class Args:
    """Learner steps per second of the trick_gym envs."""

    seconds: float = 2.0
    """timed seconds per figure (best of three)"""
    num_envs: int = 4096
    """rows of the vector env"""
    games: list[str] = field(default_factory=lambda: list(trick_gym.GAMES))
    """games to measure"""
    threads: list[int] = field(default_factory=lambda: [1, 2])
    """numba thread counts for the random-opponent vector env"""


def best_of_three(run, seconds: float) -> float:
    run(seconds / 10)
    return max(run(seconds) for _ in range(3))


def first_legal(observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
    return masks.argmax(axis=1)


def vector_rate(game: str, num_envs: int, threads: int, opponents, seconds: float) -> float:
    env = OneSeatVectorEnv(game, num_envs, opponents=opponents, num_threads=threads, seed=0)
    env.reset(seed=0)

    def run(duration: float) -> float:
        steps, start = 0, time.perf_counter()
        while time.perf_counter() - start < duration:
            env.step(env.batch.sample_actions())
            steps += num_envs
        return steps / (time.perf_counter() - start)

    return best_of_three(run, seconds)


def one_seat_rate(game: str, seconds: float) -> float:
    env = gymnasium.make(trick_gym.GYM_IDS[game])
    rng = np.random.default_rng(0)

    def run(duration: float) -> float:
        steps, start = 0, time.perf_counter()
        _, info = env.reset(seed=0)
        while time.perf_counter() - start < duration:
            _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            steps += 1
            if done:
                _, info = env.reset()
        return steps / (time.perf_counter() - start)

    return best_of_three(run, seconds)


def check(args: Args) -> None:
    """The options, checked before an env is built: ``ValueError`` naming the first bad one."""
    check_positive(args, "seconds", "num_envs", "threads")
    check_games(args.games, trick_gym.GAMES)


def main(args: Args) -> dict:
    check(args)
    available = numba.config.NUMBA_NUM_THREADS
    measured = [threads for threads in args.threads if threads <= available]
    results: dict = {"num_envs": args.num_envs, "numba_threads": available,
                     "threads_not_measured": [threads for threads in args.threads if threads > available],
                     "vector_random": {}, "vector_policy": {}, "one_seat": {}}
    if results["threads_not_measured"]:
        print(f"trick_gym_speed: numba has {available} threads here; not measured: --threads "
              f"{results['threads_not_measured']}", file=sys.stderr)
    for game in args.games:
        results["vector_random"][game] = {
            str(threads): round(vector_rate(game, args.num_envs, threads, "random", args.seconds))
            for threads in measured
        }
        results["vector_policy"][game] = round(vector_rate(game, args.num_envs, 1, first_legal, args.seconds))
        results["one_seat"][game] = round(one_seat_rate(game, args.seconds))
    return results


if __name__ == "__main__":
    from trick_core.command_line import checked, command_prog

    print(json.dumps(main(checked(tyro.cli(Args, prog=command_prog()), check)), indent=1))
