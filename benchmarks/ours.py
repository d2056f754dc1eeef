"""Our side of the comparison: compiled random hands, the AEC envs, the batched envs, the PIMC agent.

Every figure is taken with the helpers of ``benchmarks.timing`` (warm-up first, best of repeated
windows) and, for the AEC envs, with exactly the loops used for the PettingZoo anchors
(``benchmarks.anchors.performance_turns`` and ``raw_steps``).
"""

from __future__ import annotations

import itertools

import numpy as np

from trick_core.registry import game_spec

from .anchors import performance_turns, raw_steps
from .timing import measure_rate


def env_module(game: str):
    return game_spec(game).env_module()


def random_hand_player(game: str, config: dict | None = None):
    """The compiled random-hand driver of ``game`` (its batch module's ``random_hand_player``)."""
    return game_spec(game).batch_module().random_hand_player(game, **(config or {}))


def batch_env(game: str, num_envs: int, num_threads: int | None, copy: bool, config: dict | None = None):
    return game_spec(game).make_batch_env(num_envs, seed=0, num_threads=num_threads, copy=copy, **(config or {}))


def compiled_hands_per_second(game: str, num_threads: int | None, min_seconds: float, config=None) -> dict:
    """Random whole hands per second of the compiled driver (``play_random_hands``)."""
    player = random_hand_player(game, config)
    seeds = itertools.count()

    def run(count: int) -> None:
        player.play(count, seed=next(seeds), num_threads=num_threads)

    return measure_rate(run, min_seconds, start=1024)


def env_turns_per_second(game: str, seconds: float, config=None) -> dict:
    """``env()`` in the PettingZoo ``performance_benchmark`` loop (turns/s, dead steps included)."""
    return performance_turns(env_module(game).env(**(config or {})), seconds)


def raw_env_steps_per_second(game: str, seconds: float, config=None) -> dict:
    """``raw_env()`` stepped directly: observe, random legal action from the mask, step."""
    return raw_steps(env_module(game).raw_env(**(config or {})), seconds)


def batch_steps_per_second(
    game: str, num_envs: int, num_threads: int | None, min_seconds: float, copy: bool = False, config=None
) -> dict:
    """Steps per second of the batched env (rows x calls), with ``sample_actions`` choosing the moves
    (compiled: uniform over the legal actions) — observation, mask, rewards and auto-reset included."""
    env = batch_env(game, num_envs, num_threads, copy, config)
    env.reset(seed=0)
    hands_ended = [0, 0]  # hands, steps

    def run(count: int) -> int:
        for _ in range(count):
            hands_ended[0] += int(env.step(env.sample_actions()).terminated.sum())
        hands_ended[1] += count * num_envs
        return count * num_envs

    result = measure_rate(run, min_seconds, start=1)
    result["num_envs"] = num_envs
    result["num_threads"] = num_threads
    result["steps_per_hand"] = hands_ended[1] / max(hands_ended[0], 1)
    return result


def play_decisions(env, agent, count: int) -> int:
    """``agent`` plays every seat of ``env`` until it has made ``count`` decisions with more than one legal
    action (forced moves are played too, uncounted), dealing new hands as they end; returns ``count``."""
    searched = 0
    while searched < count:
        if all(env.terminations.values()):
            env.reset()
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        env.step(agent.act(env, env.agent_selection))
        searched += legal.size > 1
    return searched


def pimc_decisions_per_second(game: str, min_seconds: float, **agent_kwargs) -> dict:
    """Decisions per second of ``agents.make("pimc", game)`` (its defaults unless given) playing every
    seat; only decisions with more than one legal action count (forced moves cost nothing)."""
    import agents

    agent = agents.make("pimc", game, seed=0, **agent_kwargs)
    env = env_module(game).env()
    env.reset(seed=0)
    result = measure_rate(lambda count: play_decisions(env, agent, count), min_seconds, repeats=1, start=1)
    result["agent"] = repr(agent)
    return result
