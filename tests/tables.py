"""Tables reached by random play, and the AEC loop's bookkeeping, for the tests of every package.

Random play here is always the uniform choice of a seeded ``numpy`` generator among the legal actions, so
a test names its positions by seeds alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from trick_core.registry import game_spec


def table_after_random_steps(game: str, config: dict, seed: int, steps: int):
    """A table of ``game`` dealt with ``seed`` after ``steps`` random legal actions (a generator seeded with
    ``seed`` too), or fewer where the hand ends first."""
    env = game_spec(game).make_env(**config)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if all(env.terminations.values()):
            break
        env.step(int(rng.choice(env.unwrapped.legal_actions())))
    return env


def random_play_positions(
    env, first_seed: int, rng: np.random.Generator, count: int, pick: Callable[[Any, list[int]], Any], *,
    one_per_hand: bool = False, max_hands: int = 5000,
) -> list:
    """What ``pick(env, legal)`` keeps at the decisions of hands dealt with seeds ``first_seed``,
    ``first_seed + 1``, ... and played at random by ``rng``, hand after hand until at least ``count`` are
    kept (the last hand's are all kept). ``pick`` returns None to keep nothing; with ``one_per_hand`` a
    hand ends at the first position kept. A situation that random play does not reach in ``max_hands``
    hands fails the test (rather than looping for ever)."""
    found, hand = [], 0
    while len(found) < count:
        assert hand < max_hands, f"only {len(found)} of {count} positions in {max_hands} random hands"
        env.reset(seed=first_seed + hand)
        hand += 1
        while not env.terminations[env.agent_selection]:
            legal = env.unwrapped.legal_actions()
            position = pick(env, legal)
            if position is not None:
                found.append(position)
                if one_per_hand:
                    break
            env.step(int(rng.choice(legal)))
    return found


def live_turns(env, rewards: dict[str, float]) -> Iterator[dict]:
    """The AEC loop less its bookkeeping: yields the observation of each seat that must act, for the
    caller to step; steps finished seats with None and adds every reward to ``rewards``."""
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        rewards[agent] += reward
        if termination or truncation:
            env.step(None)
        else:
            yield observation
