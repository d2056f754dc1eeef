"""trick_core.worker_pool: results in job order, and a run that stops (a failed job, Ctrl+C, SIGTERM, or its
process killed outright) drops the queued jobs at once and leaves no worker behind."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from tests.process_tree import HAS_PROC, stop_while_working
from trick_core.worker_pool import map_in_workers, run_in_workers, terminate_like_interrupt, worker_cpu_seconds

FORK = multiprocessing.get_context("fork")


def square_after(pause: float, number: int) -> int:
    time.sleep(pause)
    return number * number


def mark_done(folder: str, index: int) -> None:
    """A job that takes a while and leaves a file; job 1 fails instead."""
    time.sleep(0.1)
    if index == 1:
        raise ValueError("job 1 fails")
    Path(folder, str(index)).touch()


def test_results_come_in_the_order_of_the_jobs_whatever_order_they_finish_in():
    jobs = [(0.3, 0), (0.0, 1), (0.2, 2), (0.0, 3), (0.1, 4)]
    assert map_in_workers(square_after, jobs, 2, mp_context=FORK) == [0, 1, 4, 9, 16]


def test_each_result_is_handed_over_with_the_index_of_its_job():
    seen = {}
    run_in_workers(square_after, [(0.0, n) for n in range(6)], 2, seen.__setitem__, mp_context=FORK)
    assert seen == {n: n * n for n in range(6)}


def burn_cpu(seconds: float) -> float:
    """A job that uses ``seconds`` of its worker's CPU time."""
    started = time.process_time()
    while time.process_time() - started < seconds:
        pass
    return seconds


def test_the_workers_cpu_time_is_counted_also_where_a_fork_server_starts_them():
    """The arena's workers come from a fork server, so they are not this process's children and the
    operating system's children's times never see them (the signalling study reported 1.3 CPU minutes for
    4.9 minutes of two busy workers); the pool counts each finished job's CPU time instead."""
    os_children_before, counted_before = os.times().children_user, worker_cpu_seconds()
    jobs = [(0.2,)] * 4
    map_in_workers(burn_cpu, jobs, 2, mp_context=multiprocessing.get_context("forkserver"))
    counted = worker_cpu_seconds() - counted_before
    assert 0.8 <= counted < 1.2, counted
    assert os.times().children_user - os_children_before < 0.4  # why the pool has to count


def test_a_failed_job_cancels_the_jobs_still_queued(tmp_path):
    """A plain ``ProcessPoolExecutor`` raises the error only after running all 60 jobs."""
    with pytest.raises(ValueError, match="job 1 fails"):
        map_in_workers(mark_done, [(str(tmp_path), index) for index in range(60)], 2, mp_context=FORK)
    ran = len(list(tmp_path.iterdir()))
    assert ran < 12, f"{ran} jobs ran after the failure"


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM is a POSIX signal")
def test_sigterm_raises_system_exit_143_inside_the_block_and_the_old_handler_comes_back():
    def handler(signum, frame):
        return None

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        with pytest.raises(SystemExit) as stopped, terminate_like_interrupt():
            signal.raise_signal(signal.SIGTERM)
        assert stopped.value.code == 143
        assert signal.getsignal(signal.SIGTERM) is handler
    finally:
        signal.signal(signal.SIGTERM, previous)


SLEEPERS = """
import time
from trick_core.worker_pool import map_in_workers
map_in_workers(time.sleep, [(60,)] * 8, 2)  # four minutes of long jobs
print("every job ran")
"""


@pytest.mark.skipif(not HAS_PROC, reason="reads the process tree from Linux's /proc")
@pytest.mark.parametrize("stop", ["ctrl_c", "sigterm", "sigkill"])
def test_a_stopped_run_ends_at_once_and_leaves_no_worker(stop):
    """With a plain pool, Ctrl+C let the queued jobs run on and SIGTERM left the workers behind. Cancelling
    the queued jobs is not enough either: a worker still takes the job already handed to the pool's call
    queue (here a minute), and a worker forked while SIGTERM raises ``SystemExit`` turns its own SIGTERM
    into its job's error. A killed parent's workers played on (they hold its output pipes: this command's
    output would not even end)."""
    started = time.monotonic()
    done = stop_while_working([sys.executable, "-c", SLEEPERS], stop, processes=2)
    assert time.monotonic() - started < 30
    assert "every job ran" not in done.stdout
    expected = {"ctrl_c": -signal.SIGINT, "sigterm": 143, "sigkill": -signal.SIGKILL}[stop]
    assert done.returncode == expected, done.stderr[-2000:]
    if stop == "ctrl_c":
        assert "KeyboardInterrupt" in done.stderr, done.stderr[-2000:]


def thread_counts(_job: int) -> dict:
    """Run in a worker: the threads of numpy's BLAS, torch and numba's parallel loops (numba's own count:
    it runs its loops on that many threads of its OpenMP pool, whatever the pool's default)."""
    import numpy  # noqa: F401  (loads its BLAS, if the fork server has not)
    from threadpoolctl import threadpool_info

    blas = {pool["filepath"]: pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"}
    import numba
    import torch

    return {"blas": blas, "torch": torch.get_num_threads(), "numba": numba.get_num_threads()}


def test_each_worker_runs_its_libraries_on_one_thread():
    """The workers are the parallelism: a worker's numpy BLAS (loaded in the fork server, before the worker
    exists) and its torch (imported only in the worker) each get one thread, where their own default is
    every core (a spinning BLAS pool per worker made two workers' neural matches about twice slower)."""
    pytest.importorskip("torch")
    from agents.arena import _worker_context

    counts = map_in_workers(thread_counts, [(0,), (1,)], 2, mp_context=_worker_context())
    for per_worker in counts:
        assert per_worker["torch"] == 1 and per_worker["numba"] == 1, per_worker
        assert per_worker["blas"] and set(per_worker["blas"].values()) == {1}, per_worker  # numpy's BLAS
