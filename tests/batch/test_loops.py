"""The shared batch machinery (``trick_core.batch_loops``): on-disk caching of the per-game compiled
loops, the code fingerprint that keeps that cache from going stale, and the game-free loops."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

from trick_core import batch_loops
from trick_core.bits import make_rng
from trick_core.specialise import code_fingerprint

ROOT = Path(__file__).resolve().parents[2]

_STEP_AND_REPORT = """
import json
import numba
from schafkopf_env.bavarian import kernel as bavarian_kernel
from schafkopf_env.batch import BatchEnv
from trick_core import batch_loops
from trick_core.specialise import code_fingerprint
variants = set()
for threads in (1, numba.config.NUMBA_NUM_THREADS):
    env = BatchEnv("bavarian", num_envs=8, seed=0, num_threads=threads)
    env.reset()
    env.step(env.sample_actions())
    variants.add(env.parallel)
stats = {}
for parallel in sorted(variants):
    loops = batch_loops.specialise(bavarian_kernel, "bavarian", parallel)
    for name in ("reset_rows", "step_rows"):
        dispatcher = getattr(loops, name)
        stats[f"{name}:{parallel}"] = [sum(dispatcher.stats.cache_hits.values()),
                                       sum(dispatcher.stats.cache_misses.values())]
print(json.dumps(stats))
"""


def _run_in_fresh_process() -> dict:
    done = subprocess.run([sys.executable, "-c", _STEP_AND_REPORT], cwd=ROOT, capture_output=True, text=True,
                          timeout=600, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_specialised_loops_are_loaded_from_the_disk_cache_in_a_new_process():
    _run_in_fresh_process()  # compiles and saves whatever is not cached yet
    stats = _run_in_fresh_process()
    for name, (hits, misses) in stats.items():
        assert hits == 1 and misses == 0, f"{name} was compiled again instead of loaded: {stats}"


def test_fingerprint_follows_the_loaded_code_and_differs_between_kernels():
    from knuffeln_env.knuffeln import kernel as knuffeln_kernel
    from schafkopf_env.asserufen import kernel as asserufen_kernel
    from schafkopf_env.bavarian import kernel as bavarian_kernel

    prints = {code_fingerprint(k) for k in (bavarian_kernel, asserufen_kernel, knuffeln_kernel)}
    assert len(prints) == 3
    assert code_fingerprint(bavarian_kernel) == code_fingerprint(bavarian_kernel)


def test_specialised_copies_are_named_per_game_variant_and_fingerprint():
    from schafkopf_env.bavarian import kernel as bavarian_kernel

    serial = batch_loops.specialise(bavarian_kernel, "bavarian", False)
    parallel = batch_loops.specialise(bavarian_kernel, "bavarian", True)
    fingerprint = code_fingerprint(bavarian_kernel)
    assert serial.step_rows.py_func.__name__ == f"step_rows__bavarian__serial__{fingerprint}"
    assert parallel.step_rows.py_func.__name__ == f"step_rows__bavarian__parallel__{fingerprint}"
    assert serial.step_rows.py_func.__globals__["kernel"] is bavarian_kernel
    assert batch_loops.kernel is None  # the templates themselves stay unbound


def test_sampling_is_uniform_over_legal_actions_and_thread_independent():
    masks = np.zeros((4000, 10), dtype=np.int8)
    masks[:, [1, 4, 7]] = 1
    masks[::2, 9] = 1
    streams = np.array([make_rng(seed) for seed in range(4000)])
    out = np.empty(4000, dtype=np.int64)
    batch_loops.sample_legal_actions(masks, streams.copy(), out)
    assert all(masks[row, action] for row, action in enumerate(out))
    even = np.bincount(out[::2], minlength=10)[[1, 4, 7, 9]]
    assert even.min() > 400  # about 500 each out of 2000
    parallel_out = np.empty_like(out)
    batch_loops.sample_legal_actions_parallel(masks, streams.copy(), parallel_out)
    np.testing.assert_array_equal(out, parallel_out)


def test_first_illegal_row():
    masks = np.array([[1, 0], [0, 1]], dtype=np.int8)
    assert batch_loops.first_illegal_row(np.array([0, 1]), masks) == -1
    assert batch_loops.first_illegal_row(np.array([0, 0]), masks) == 1
    assert batch_loops.first_illegal_row(np.array([2, 1]), masks) == 0
    assert batch_loops.first_illegal_row(np.array([0, -1]), masks) == 1
