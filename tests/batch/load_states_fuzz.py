"""Corrupt and foreign kernel states loaded into the batch envs of one game: none may crash the process.

``python -m tests.batch.load_states_fuzz <game> [--states N] [--seed S]`` builds at least ``N`` bad states in
all for the batch envs of the registered variants of ``<game>`` and loads each one (``load_states``): random
arrays (over the whole int64 range and over small values), all-zero and all-minus-one states, real
states of the variant with one entry changed (``one_field``; ``one_field_unread`` where the entry is
one no rule reads once the hand is dealt: the game's ``UNREPLAYED_FIELDS``), and foreign states (of the
game's other variants, of a configuration outside the registry, of the other games — those with rules of
their own — cut or padded to the size). Each load must raise
``ValueError`` (refused) or succeed; a loaded row is then played to the end of its hand with legal
random actions. It prints one JSON line: the counts per outcome, and any other exception (which the test
treats as a failure, as it does a crash of this process: ``tests/batch/test_load_states_fuzz.py`` runs it
in a subprocess, so a segfault fails the test rather than killing pytest).
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback

import numpy as np

from trick_core.registry import GAMES, VARIANTS, game_spec
from trick_core.state_check import game_state_check

EXTRA_FOREIGN = {"knuffeln": [{"players": 5, "talk": "tokens:8"}], "palatinate": [{"max_doublings": 1}]}
"""Configurations outside the registry whose states are loaded as foreign ones too."""
ROWS = 4
REAL_PER_VARIANT = 8
"""Real states loaded too (each must be accepted and played), beside the corrupt and foreign ones."""
PLAYOUT_STEPS = 400
"""A loaded row is stepped until its hand ends (every hand ends well within this many steps)."""


def real_states(game: str, config: dict, count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` kernel states of hands in progress, read from a batch env playing random actions."""
    batch = game_spec(game).make_batch_env(ROWS, seed=int(rng.integers(2**31)), num_threads=1, **config)
    batch.reset()
    states = []
    while len(states) < count:
        batch.step(batch.sample_actions())
        states.extend(batch.kernel_states())
    return np.array(states[:count])


def fitted(states: np.ndarray, size: int) -> np.ndarray:
    """States cut or zero-padded to ``size`` entries (another game's states, made to fit the shape)."""
    out = np.zeros((states.shape[0], size), dtype=np.int64)
    width = min(size, states.shape[1])
    out[:, :width] = states[:, :width]
    return out


def one_field_corruptions(states: np.ndarray, count: int, rng: np.random.Generator):
    """``(corrupted, positions)``: ``count`` copies of real states, each with one entry (its position)
    changed: to a neighbour, -1, 0, a large value, any int64, or a single bit flipped."""
    picks = states[rng.integers(states.shape[0], size=count)].copy()
    positions = rng.integers(states.shape[1], size=count)
    kinds = rng.integers(6, size=count)
    for row, (position, kind) in enumerate(zip(positions, kinds, strict=True)):
        value = int(picks[row, position])
        if kind == 0:
            value += int(rng.choice([-1, 1]))
        elif kind == 1:
            value = -1
        elif kind == 2:
            value = 0 if value else int(rng.integers(1, 60))
        elif kind == 3:
            value = int(rng.choice([2**31, 2**48, 2**62, -(2**63)]))
        elif kind == 4:
            value = int(rng.integers(-(2**63), 2**63 - 1))
        else:
            value ^= 1 << int(rng.integers(63))
        if value == picks[row, position]:  # -1 where -1 was: change it after all
            value = value + 1 if value < 2**63 - 1 else value - 1
        picks[row, position] = value
    return picks, positions


def unreplayed_positions(game: str) -> set[int]:
    """Entries of the state no rule reads once the hand is dealt (the game's ``UNREPLAYED_FIELDS``): a
    change there may be played."""
    kernel = game_spec(game).kernel()
    fields = game_state_check(kernel).UNREPLAYED_FIELDS
    return {offset + k for name in fields for offset, size in [kernel.layout.fields[name]] for k in range(size)}


def same_rules(game: str, other: str) -> bool:
    """Whether two registered games run the same compiled rules (a game registered over another's kernel,
    as a stand-in family may be): a state of one is then a state of the other, which no check can refuse,
    so it is not loaded as a foreign one."""
    return game_spec(game).kernel().apply_action is game_spec(other).kernel().apply_action


def fuzz_states(game: str, config: dict, per_variant: int, rng: np.random.Generator) -> list[tuple[str, np.ndarray]]:
    """``(kind, state)`` pairs for the batch env of ``config`` (module docstring)."""
    size = game_spec(game).kernel().STATE_SIZE
    own = real_states(game, config, 64, rng)
    out: list[tuple[str, np.ndarray]] = [("real", state) for state in own[:REAL_PER_VARIANT]]
    out += [("zeros", np.zeros(size, dtype=np.int64)), ("minus_one", np.full(size, -1, dtype=np.int64))]
    random_count = per_variant // 10
    out += [("random_int64", row) for row in rng.integers(-(2**63), 2**63 - 1, size=(random_count, size))]
    out += [("random_small", row) for row in rng.integers(-2, 64, size=(random_count, size))]
    foreign_configs = [c for g, c in VARIANTS if g == game and c != config] + EXTRA_FOREIGN.get(game, [])
    for other in foreign_configs:
        out += [("foreign_variant", state) for state in real_states(game, other, 8, rng)]
    for other_game in GAMES:
        if other_game != game and not same_rules(game, other_game):
            out += [("foreign_game", state) for state in fitted(real_states(other_game, {}, 4, rng), size)]
    corrupt_or_foreign = len(out) - REAL_PER_VARIANT
    corrupted, positions = one_field_corruptions(own, per_variant - corrupt_or_foreign, rng)
    unread = unreplayed_positions(game)
    out += [("one_field_unread" if position in unread else "one_field", state)
            for state, position in zip(corrupted, positions, strict=True)]
    return out


def play_out(batch, row: int) -> None:
    """Step the batch with legal random actions until ``row``'s hand has ended."""
    for _ in range(PLAYOUT_STEPS):
        if batch.step(batch.sample_actions()).terminated[row]:
            return
    raise AssertionError(f"the hand loaded into row {row} did not end within {PLAYOUT_STEPS} steps")


def run(game: str, states_wanted: int, seed: int) -> dict:
    rng = np.random.default_rng(seed)
    variants = [config for g, config in VARIANTS if g == game]
    per_variant = -(-states_wanted // len(variants))
    counts: dict[str, dict[str, int]] = {}
    failures: list[str] = []
    for config in variants:
        batch = game_spec(game).make_batch_env(ROWS, seed=seed, num_threads=1, **config)
        batch.reset()
        for index, (kind, state) in enumerate(fuzz_states(game, config, per_variant, rng)):
            row = index % ROWS
            outcome = counts.setdefault(kind, {"refused": 0, "played": 0})
            try:
                batch.load_states(state[None, :], rows=np.array([row]))
            except ValueError:
                outcome["refused"] += 1
                continue
            except Exception:  # noqa: BLE001 (any other exception is what the fuzz looks for)
                failures.append(f"{config} {kind}: {traceback.format_exc(limit=3)}")
                continue
            try:
                play_out(batch, row)
                outcome["played"] += 1
            except Exception:  # noqa: BLE001
                failures.append(f"{config} {kind} (playing it): {traceback.format_exc(limit=3)}")
    corrupt = sum(c["refused"] + c["played"] for kind, c in counts.items() if kind != "real")
    return {"game": game, "corrupt_or_foreign": corrupt, "counts": counts, "failures": failures[:10],
            "num_failures": len(failures)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--states", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    print(json.dumps(run(args.game, args.states, args.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
