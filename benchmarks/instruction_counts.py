"""Instructions executed per unit of fixed work, counted by valgrind's callgrind, printed as JSON.

    python -m benchmarks.instruction_counts [--games bavarian knuffeln] [--rows hands raw] [--json PATH]

Timings on a shared machine move by 10-50% from one run to the next, far more than a few percent of a
code change; the count of instructions a fixed piece of work executes does not depend on the machine's
load. So to compare two versions of the code (run this script in each checkout and compare the JSON), the
counts settle what the timings cannot. They do depend on Python's string hashing, which every process
seeds anew: the Python-heavy rows move by up to ~2% with it, so the script fixes ``PYTHONHASHSEED``
(``--hash-seeds``; several give their mean). Instructions are not time: branch-free code (e.g. the broadword
``nth_bit``) runs more instructions in fewer cycles, and valgrind replaces ``memset``/``memcpy`` with
simple loops of its own, so large array fills count more than they cost. Read a difference together with
the timings of ``benchmarks.compare``.

Each row plays the same seeded work in every version of the code (the public APIs of the envs and the
benchmark helpers of ``benchmarks.ours``), after a warm-up outside the count:

- ``hands``: 2,000 random whole hands of the compiled driver, one thread;
- ``batch``: 40 steps of a 256-row batch env, one thread (``sample_actions`` choosing); ``batch_copy``:
  the same with ``copy=True`` (the outputs copied out at every step);
- ``raw``: 3,000 steps of ``raw_env()`` (observe, a random legal action, step);
- ``env``: 3,000 turns of ``env()`` in PettingZoo's ``performance_benchmark`` loop;
- ``reference``: 40 random hands of the plain-Python reference;
- ``pimc``: 20 decisions with a choice of ``agents.make("pimc", game, seed=0)`` playing every seat.

The script runs itself under ``valgrind --tool=callgrind --instr-atstart=no``; a small C shim (built with
the system's C compiler against ``valgrind/callgrind.h``) switches the count on around each row and dumps
it under the row's name. Needs valgrind and a C compiler; numba's cache should be warm (run the row once
natively first), since compiling under valgrind takes many minutes. To count an older version, copy this
file (and ``benchmarks.ours.play_decisions`` for the ``pimc`` row) into its checkout.
"""

from __future__ import annotations

import ctypes
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import tyro

from benchmarks import ours, reference_hands
from benchmarks.timing import GAMES
from trick_core.output_paths import check_output_file

ROWS = ("hands", "batch", "batch_copy", "raw", "env", "reference", "pimc")
UNITS = {"hands": 2000, "batch": 40 * 256, "batch_copy": 40 * 256, "raw": 3000, "env": 3000, "reference": 40,
         "pimc": 20}
"""Units of work per row: hands, row-steps, row-steps, steps, turns, hands, searched decisions."""

SHIM_SOURCE = """#include <valgrind/callgrind.h>
void count_start(void) { CALLGRIND_START_INSTRUMENTATION; CALLGRIND_ZERO_STATS; }
void count_dump(const char *label) { CALLGRIND_DUMP_STATS_AT(label); CALLGRIND_STOP_INSTRUMENTATION; }
"""


@dataclass
class Args:
    """Instructions per unit of fixed work, counted by valgrind's callgrind."""

    games: list[str] = field(default_factory=lambda: list(GAMES))
    """games to count"""
    rows: list[str] = field(default_factory=lambda: list(ROWS))
    """rows to count: hands, batch, batch_copy, raw, env, reference, pimc"""
    hash_seeds: list[int] = field(default_factory=lambda: [0])
    """PYTHONHASHSEED of the counted process, one count per value (their mean reported): Python's string
    hashing, seeded anew by every process, moves the counts of the Python-heavy rows (AEC, reference, PIMC)
    by up to ~2%, so compare two checkouts under the same seeds, and under several for differences below 2%"""
    json: str | None = None
    """also write the result to this file"""
    measure: str | None = None
    """(internal) count the rows in this process, under valgrind, with the shim at this path"""


# ------------------------------------------------------------------------------------------- the rows


def _hands(game: str) -> Callable[[], None]:
    player = ours.random_hand_player(game)
    player.play(256, seed=99, num_threads=1)
    return lambda: player.play(UNITS["hands"], seed=1, num_threads=1)


def _batch(game: str, copy: bool = False) -> Callable[[], None]:
    env = ours.batch_env(game, 256, 1, copy)
    env.reset(seed=0)
    for _ in range(20):
        env.step(env.sample_actions())

    def run() -> None:
        for _ in range(UNITS["batch"] // 256):
            env.step(env.sample_actions())

    return run


def _raw(game: str) -> Callable[[], None]:
    env = ours.env_module(game).raw_env()
    generator = np.random.default_rng(0)
    env.reset(seed=0)

    def steps(count: int) -> None:
        done = 0
        while done < count:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.reset()
                continue
            legal = np.flatnonzero(env.observe(agent)["action_mask"])
            env.step(int(legal[generator.integers(legal.size)]))
            done += 1

    steps(300)
    return lambda: steps(UNITS["raw"])


def _env(game: str) -> Callable[[], None]:
    env = ours.env_module(game).env()
    chooser = random.Random(0)
    env.reset(seed=0)

    def turns(count: int) -> None:
        done = 0
        while done < count:
            for _agent in env.agent_iter(env.num_agents):
                observation, _reward, termination, truncation, _info = env.last()
                over = termination or truncation
                env.step(None if over else chooser.choice(np.flatnonzero(observation["action_mask"]).tolist()))
                done += 1
                if all(env.terminations.values()) or all(env.truncations.values()):
                    env.reset()

    turns(300)
    return lambda: turns(UNITS["env"])


def _reference(game: str) -> Callable[[], None]:
    play = reference_hands.reference_player(game)
    warm_up = random.Random(0)
    for _ in range(5):
        play(warm_up, {})
    rng = random.Random(1)

    def run() -> None:
        for _ in range(UNITS["reference"]):
            play(rng, {})

    return run


def _pimc(game: str) -> Callable[[], None]:
    import agents

    agent = agents.make("pimc", game, seed=0)
    env = ours.env_module(game).env()
    env.reset(seed=0)
    ours.play_decisions(env, agent, 3)
    return lambda: ours.play_decisions(env, agent, UNITS["pimc"])


ROW_BUILDERS = {
    "hands": _hands, "batch": _batch, "batch_copy": lambda game: _batch(game, copy=True), "raw": _raw,
    "env": _env, "reference": _reference, "pimc": _pimc,
}


def row_work(game: str, row: str) -> Callable[[], None]:
    """The row's fixed work for ``game``, warmed up: call it to play it once."""
    return ROW_BUILDERS[row](game)


# ------------------------------------------------------------------------------------ under valgrind


def build_shim(folder: Path) -> Path:
    """Compile the callgrind client-request shim into ``folder``; a clear error if a tool is missing."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None or shutil.which("valgrind") is None:
        raise RuntimeError("instruction counts need valgrind and a C compiler (cc) on the PATH")
    source, library = folder / "shim.c", folder / "shim.so"
    source.write_text(SHIM_SOURCE)
    subprocess.run([compiler, "-O2", "-shared", "-fPIC", "-o", str(library), str(source)], check=True)
    return library


def measure_here(games: list[str], rows: list[str], shim: str) -> None:
    """Play every row once with the count switched on around it (a dump per row, named ``game:row``)."""
    library = ctypes.CDLL(shim)
    for row in rows:
        for game in games:
            work = row_work(game, row)
            library.count_start()
            work()
            library.count_dump(f"{game}:{row}".encode())


def parse_dump(text: str) -> tuple[str, int]:
    """The label and the instruction total of one callgrind dump."""
    label = next(line for line in text.splitlines() if line.startswith("desc: Trigger"))
    total = next(line for line in text.splitlines() if line.startswith(("summary:", "totals:")))
    return label.rsplit("Client Request: ", 1)[-1].strip(), int(total.split(":", 1)[1].split()[0])


def count(games: list[str], rows: list[str], hash_seed: int = 0) -> dict:
    """Run this script under callgrind (with ``PYTHONHASHSEED=hash_seed``) and gather
    ``{game: {row: instructions per unit}}``."""
    with tempfile.TemporaryDirectory() as folder:
        shim = build_shim(Path(folder))
        command = [
            "valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={folder}/dump.%p",
            sys.executable, "-m", "benchmarks.instruction_counts", "--measure", str(shim),
            "--games", *games, "--rows", *rows,
        ]
        subprocess.run(command, check=True, capture_output=True, cwd=Path(__file__).resolve().parent.parent,
                       env={**os.environ, "PYTHONHASHSEED": str(hash_seed)})
        totals = dict(parse_dump(path.read_text()) for path in Path(folder).glob("dump.*.*"))
    result: dict = {game: {} for game in games}
    for label, total in totals.items():
        game, row = label.split(":")
        result[game][row] = {"instructions": total, "units": UNITS[row], "per_unit": total / UNITS[row]}
    return result


def mean_counts(per_seed: list[dict]) -> dict:
    """The counts of several hash seeds as one: each row's mean, with every seed's instructions kept."""
    result: dict = {}
    for game, rows in per_seed[0].items():
        result[game] = {}
        for row, first in rows.items():
            each = [counts[game][row]["instructions"] for counts in per_seed]
            mean = sum(each) / len(each)
            result[game][row] = {"instructions": mean, "units": first["units"], "per_unit": mean / first["units"],
                                 "per_hash_seed": each}
    return result


def check(args: Args) -> None:
    """The options, checked before anything is built or counted: ``ValueError`` naming the first bad one."""
    if args.json is not None:
        check_output_file(args.json, "--json")
    unknown = sorted(set(args.games) - set(GAMES)) + sorted(set(args.rows) - set(ROWS))
    if unknown:
        raise ValueError(f"unknown game(s) or row(s) {unknown}; games {list(GAMES)}, rows {list(ROWS)}")
    if not args.measure and (not args.hash_seeds
                                 or any(not 0 <= seed <= 4294967295 for seed in args.hash_seeds)):
        raise ValueError(f"hash_seeds must be one or more integers in 0..4294967295, got {args.hash_seeds}")


def main(args: Args) -> dict | None:
    check(args)
    if args.measure:
        measure_here(args.games, args.rows, args.measure)
        return None
    result = {"units": {row: UNITS[row] for row in args.rows}, "hash_seeds": args.hash_seeds,
              "counts": mean_counts([count(args.games, args.rows, seed) for seed in args.hash_seeds])}
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        Path(args.json).write_text(text + "\n")
    return result


if __name__ == "__main__":
    from trick_core.command_line import checked, command_prog

    main(checked(tyro.cli(Args, prog=command_prog()), check))
