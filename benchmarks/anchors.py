"""The anchors: other frameworks' card games, measured with the same clock as ours.

- OpenSpiel ``skat`` and ``hearts`` in C++: ``pyspiel.evaluate_bots`` with C++ uniform random bots, a
  whole game per call, the deal (chance) sampled in C++.
- The same games driven from Python: ``state.legal_actions()``, ``random.choice``, ``apply_action``;
  chance outcomes drawn from ``chance_outcomes()``.
- RLCard ``bridge``: ``env.run()`` with four ``RandomAgent`` s (bidding and play).
- PettingZoo classic ``leduc_holdem_v4`` and ``texas_holdem_v4``: turns/s of ``env()`` in the loop of
  ``pettingzoo.test.performance_benchmark``, and plain steps/s of ``raw_env()``.

Each anchor is optional: without ``open_spiel`` or ``rlcard`` installed (``pip install -e '.[bench]'``)
its rows are reported as skipped. PettingZoo's classic poker envs import ``pygame`` at module level for
rendering only; when pygame is missing, an empty stand-in module is registered so that the envs import
(nothing here renders).
"""

from __future__ import annotations

import importlib
import random
import sys
import time
import types
from collections.abc import Callable

import numpy as np

from .timing import measure_for, measure_rate


class Skipped(Exception):
    """An anchor whose library is not installed."""


def _require(module: str):
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise Skipped(f"{module} not installed ({error})") from None


# ------------------------------------------------------------------------------------------- OpenSpiel


def openspiel_cxx_games_per_second(game_name: str, min_seconds: float) -> dict:
    """Whole random games per second, played in C++ (one thread)."""
    pyspiel = _require("pyspiel")
    game = pyspiel.load_game(game_name)
    bots = [pyspiel.make_uniform_random_bot(player, 1000 + player) for player in range(game.num_players())]
    seeds = iter(range(1 << 62))

    def run(count: int) -> None:
        for _ in range(count):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, next(seeds))

    return measure_rate(run, min_seconds, start=64)


def openspiel_python_games_per_second(game_name: str, min_seconds: float) -> dict:
    """Whole random games per second, driven step by step from Python; also decisions and chance steps
    (the deal) per game."""
    pyspiel = _require("pyspiel")
    game = pyspiel.load_game(game_name)
    rng = random.Random(0)
    counts = {"chance": 0, "decisions": 0, "games": 0}

    def run(count: int) -> None:
        for _ in range(count):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(outcomes, probabilities)[0])
                    counts["chance"] += 1
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                    counts["decisions"] += 1
            counts["games"] += 1

    result = measure_rate(run, min_seconds, start=8)
    result["decisions_per_game"] = counts["decisions"] / counts["games"]
    result["chance_steps_per_game"] = counts["chance"] / counts["games"]
    return result


# ------------------------------------------------------------------------------------------- RLCard


def rlcard_games_per_second(game_name: str, min_seconds: float) -> dict:
    """Whole games per second of an RLCard env with random agents (``env.run``)."""
    rlcard = _require("rlcard")
    from rlcard.agents import RandomAgent

    env = rlcard.make(game_name, config={"seed": 0})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    np.random.seed(0)  # RLCard's RandomAgent draws from numpy's global generator

    def run(count: int) -> None:
        for _ in range(count):
            env.run(is_training=False)

    return measure_rate(run, min_seconds, start=4)


# ------------------------------------------------------------------------------------------- PettingZoo


class _RenderingStandIn(types.ModuleType):
    """Answers any attribute chain (``pygame.font.Font`` in annotations) with another stand-in."""

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        return _RenderingStandIn(f"{self.__name__}.{name}")


def _pygame_stand_in() -> None:
    try:
        importlib.import_module("pygame")
    except ImportError:
        sys.modules["pygame"] = _RenderingStandIn("pygame")


def pettingzoo_classic(name: str):
    """The module of a PettingZoo classic env, e.g. ``"leduc_holdem_v4"`` (rlcard required)."""
    _require("rlcard")
    _pygame_stand_in()
    return importlib.import_module(f"pettingzoo.classic.{name}")


def measure_env_loop(env, chunk: Callable[[], int], seconds: float, repeats: int) -> dict:
    """``measure_for`` of an AEC env played by ``chunk()`` (a few turns, returning how many it counted),
    called again and again for each window, from a fresh hand."""
    env.reset(seed=0)

    def run_until(budget: float) -> int:
        done = 0
        env.reset()
        start = time.time()
        while time.time() - start < budget:
            done += chunk()
        return done

    return measure_for(run_until, seconds, repeats)


def performance_turns(env, seconds: float, repeats: int = 3) -> dict:
    """Turns per second in the loop of ``pettingzoo.test.performance_benchmark`` (``agent_iter``,
    ``last()``, a random legal action from the mask, dead steps counted), for ``seconds`` per window."""
    chooser = random.Random(0)

    def cycle() -> int:
        turns = 0
        for _agent in env.agent_iter(env.num_agents):
            observation, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                action = None
            else:
                action = chooser.choice(np.flatnonzero(observation["action_mask"]).tolist())
            env.step(action)
            turns += 1
            if all(env.terminations.values()) or all(env.truncations.values()):
                env.reset()
        return turns

    return measure_env_loop(env, cycle, seconds, repeats)


def raw_steps(env, seconds: float, repeats: int = 3) -> dict:
    """Steps per second of an AEC env driven directly: ``observe`` the agent to act, a random legal
    action from its mask, ``step``; ``reset`` when the hand is over (dead steps not counted)."""
    generator = np.random.default_rng(0)

    def sixty_four_steps() -> int:
        steps = 0
        for _ in range(64):
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.reset()
                continue
            mask = env.observe(agent)["action_mask"]
            legal = np.flatnonzero(mask)
            env.step(int(legal[generator.integers(legal.size)]))
            steps += 1
        return steps

    return measure_env_loop(env, sixty_four_steps, seconds, repeats)
