"""Jobs spread over worker processes, stopped at once when the run is stopped.

A plain ``ProcessPoolExecutor`` does not stop well: leaving its ``with`` block on an error or on Ctrl+C
waits until every queued job has run (Ctrl+C interrupts only the job each worker is on: the next one
starts), and SIGTERM (``timeout``, a job scheduler) ends the parent at once and leaves its workers waiting
for good. Here a failed job, Ctrl+C or SIGTERM cancels the jobs not yet started and ends the workers, in
the middle of their jobs if need be (a stopped run's results are not used), so that the run ends at once
with no process left; the exception (``KeyboardInterrupt``, ``SystemExit(143)``, or the job's own error)
reaches the caller. A parent killed outright (``kill -9``) cannot do that: its workers notice within a
second and end themselves.

Each job's CPU time in its worker is sent back with its result and added up (``worker_cpu_seconds``): the
operating system's count of a process's finished children misses workers started by a fork server (the
arena's), which are the fork server's children.

Used by the arena's workers (``agents.arena``), the soak (``benchmarks.soak``) and the warm start's
teacher games (``experiments/warm_start.py``).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

_jobs_cpu_seconds = 0.0
"""CPU seconds of the finished jobs of every pool this process ran (``worker_cpu_seconds``)."""


def worker_cpu_seconds() -> float:
    """CPU seconds (user and system, all threads) that the workers of this process's pools spent on the jobs
    that finished, whatever the start method: with ``os.times()``'s own times, a run's whole cost."""
    return _jobs_cpu_seconds


@contextlib.contextmanager
def terminate_like_interrupt():
    """Inside the block SIGTERM raises ``SystemExit(143)`` in the main thread, so that the pool is shut
    down as on Ctrl+C instead of the process ending at once. (Only the main thread may set a signal
    handler; elsewhere the block changes nothing.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, _frame):
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def run_in_workers(
    function: Callable[..., Any],
    jobs: Iterable[Sequence],
    workers: int,
    on_result: Callable[[int, Any], None],
    mp_context=None,
    initializer: Callable[[], None] | None = None,
) -> None:
    """Call ``function(*job)`` for every job in ``workers`` processes and ``on_result(index, result)`` in
    this process as each one finishes (in the order they finish; ``index`` is the job's place in
    ``jobs``). ``mp_context`` and ``initializer`` are the pool's."""
    global _jobs_cpu_seconds
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=mp_context, initializer=_end_with_parent,
                               initargs=(os.getpid(), initializer))
    with pool, terminate_like_interrupt():
        try:
            futures = {pool.submit(_timed, function, *job): index for index, job in enumerate(jobs)}
            for future in as_completed(futures):
                result, cpu_seconds = future.result()
                _jobs_cpu_seconds += cpu_seconds
                on_result(futures[future], result)
        except BaseException:  # a failed job, Ctrl+C (which a worker hands back as its job's error), SIGTERM
            _stop_at_once(pool)
            raise


def _timed(function: Callable[..., Any], *job) -> tuple[Any, float]:
    """Run in a worker: ``function(*job)`` and the CPU seconds the worker spent on it."""
    started = time.process_time()
    result = function(*job)
    return result, time.process_time() - started


def _end_with_parent(parent: int, initializer: Callable[[], None] | None) -> None:
    """Run first in each worker: a thread that ends the worker, within a second, once the process that
    started the pool has died. A parent killed outright (``kill -9``, the out-of-memory killer) cannot stop
    its workers, and they would play on, then wait on the pool's queue for good, holding its output pipes."""

    def watch() -> None:
        while not _has_died(parent):
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()
    one_thread_per_worker()
    if initializer is not None:
        initializer()


THREAD_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")
"""The thread counts of torch's and numpy's libraries, read when they are loaded."""


def one_thread_per_worker() -> None:
    """Run in each worker before its first job: the workers are the parallelism, so numpy's BLAS, torch
    and numba's parallel loops get one thread each. Libraries already loaded are told directly
    (``threadpoolctl``: numpy's OpenBLAS is loaded with numpy, in the fork server, before any worker
    exists); one loaded later (a fork server's worker imports torch only when it builds its first neural
    agent) reads the environment. Without this, each worker's BLAS pool (a thread spinning between calls)
    made a neural agent's match on two workers about twice as slow on two cores."""
    from threadpoolctl import threadpool_limits

    for variable in THREAD_VARIABLES:
        os.environ[variable] = "1"
    threadpool_limits(limits=1)
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)
    numba = sys.modules.get("numba")
    if numba is not None:
        numba.set_num_threads(1)
    else:  # read when numba is imported (it may not change once numba has started its threads)
        os.environ["NUMBA_NUM_THREADS"] = "1"


def _has_died(pid: int) -> bool:
    """True once ``pid`` is gone, or dead but not yet reaped (a zombie: whoever started it may wait for its
    output, which the workers hold, before reaping it). The zombie check reads Linux's /proc; elsewhere a
    death counts once the process is reaped."""
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, PermissionError):  # gone, or its pid now another user's process
        return True
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return False


def _stop_at_once(pool: ProcessPoolExecutor) -> None:
    """Cancel the queued jobs and kill the workers, in the middle of their jobs if need be (what Python
    3.14's ``ProcessPoolExecutor.kill_workers`` does). Cancelling alone is not enough: leaving the pool waits
    for the jobs in progress, and a worker takes on the one job already handed to the pool's call queue,
    which for a soak's configuration means minutes more. Killed, not terminated: a worker forked inside
    ``terminate_like_interrupt`` has its SIGTERM handler, and would hand SIGTERM back as its job's error and
    take the next job."""
    processes = list((pool._processes or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(ProcessLookupError, ValueError):  # ended already, or closed
            process.kill()


def map_in_workers(function: Callable[..., Any], jobs: Sequence[Sequence], workers: int, **pool_options) -> list:
    """``[function(*job) for job in jobs]`` computed in ``workers`` processes, stopped like
    ``run_in_workers``."""
    results: list = [None] * len(jobs)

    def keep(index: int, result) -> None:
        results[index] = result

    run_in_workers(function, jobs, workers, keep, **pool_options)
    return results
