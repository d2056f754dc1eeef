"""The arena's deals on a Ray cluster: ``python -m agents.arena ... --backend ray [--ray-address auto]``.

Every deal of a duplicate match is independent and seeded by its index (``agents.arena``: deal ``i`` is
dealt from ``SeedSequence([seed, i])``, the agents re-seeded before every hand), so the deals can be
played anywhere, in any order, and merged by index into the same summary as a run on one machine.

**How the deals travel.** The (match, deal) jobs are cut into chunks of consecutive deals; each chunk is
one Ray task, a *streaming generator* that plays its deals one after another with ``play_deal`` (the
worker process builds its env and agents once and keeps them for every later chunk, as the local
worker processes do) and yields each deal's result as soon as it is played, so the progress bar moves
deal by deal. At most ``workers`` chunks run at once (default: every CPU the cluster offers); the driver
hands out the next chunk when one finishes.

**Faults.** A chunk whose worker process dies (or whose node is lost) is retried by Ray itself
(``max_retries``: the generator is replayed from its first deal, and Ray drops the results the driver
already has). If a chunk still fails, the driver resubmits the deals of that chunk it has not received
(``resubmits`` times at most, then it raises naming the deals). Results are kept by (match, deal) index:
a deal that arrives twice is counted once, and the run ends only when every deal is in, so no deal is
counted twice or lost. An exception raised by the game or an agent is not a fault: it is raised at once.

**Fault injection** (for tests, and for trying a cluster's recovery): ``RayOptions(crash_once=CrashOnce(
deal_index, marker_path))`` makes the worker process that is about to play that deal exit at once
(``os._exit``) the first time, creating the marker file so that the replay goes through. The marker lives
on the worker's file system: on a cluster, every node crashes once.
"""

from __future__ import annotations

import math
import os
import socket
from collections.abc import Callable
from dataclasses import dataclass

from trick_core.checks import positive_int

INSTALL_HINT = "Ray is not installed: pip install -e '.[ray]' (Ray core, beside the other extras)"

Job = tuple[int, int]
"""(match index, deal index)."""


@dataclass(frozen=True)
class CrashOnce:
    """Fault injection: the worker playing deal ``deal_index`` (of any match) exits the first time."""

    deal_index: int
    marker_path: str

    def before(self, deal_index: int) -> None:
        if deal_index != self.deal_index or os.path.exists(self.marker_path):
            return
        with open(self.marker_path, "w", encoding="utf-8") as marker:
            marker.write(f"worker {os.getpid()} exited before deal {deal_index}\n")
        os._exit(1)


@dataclass(frozen=True)
class RayOptions:
    """Where and how the deals run on Ray."""

    address: str | None = None
    """None: start a Ray instance on the local machine (``ray.init()``), or use the one this process already
    started; ``"auto"``: join the cluster of this node (``ray start``); or a cluster's address
    (``"ray://head:10001"``, ``"head:6379"``)"""
    chunk_deals: int | None = None
    """deals per task; default: guided (``chunks``: a quarter of the remaining deals per worker, 1 to 32)"""
    max_retries: int = 3
    """Ray's retries of a task whose worker died"""
    resubmits: int = 3
    """times the driver resubmits a chunk's missing deals after Ray gave up on it"""
    crash_once: CrashOnce | None = None
    """fault injection (module docstring)"""


def require_ray():
    """The ``ray`` module, or an ``ImportError`` saying how to install it."""
    try:
        import ray
    except ImportError as error:
        raise ImportError(INSTALL_HINT) from error
    return ray


def check_ray_installed(option: str) -> None:
    """For a command's option check: a ``ValueError`` naming ``option`` (what asked for Ray, e.g.
    ``--backend ray``) when Ray cannot be imported, so that the command says so in one line before any work
    instead of a traceback once it reaches Ray."""
    try:
        require_ray()
    except ImportError as error:
        raise ValueError(f"{option} needs Ray, which is not installed: {INSTALL_HINT.split(': ', 1)[1]}") from error


def connect(address: str | None = None, num_cpus: int | None = None, log_to_driver: bool = True) -> bool:
    """Make sure this process is connected to Ray; returns True when this call started or joined it (the
    caller may then ``ray.shutdown()``), False when a session was already open (it is used as it is).
    ``num_cpus`` sizes a Ray started on the local machine (ignored when joining a cluster). A cluster's
    address is checked first (``check_address``): Ray itself retries an unreachable one for minutes."""
    ray = require_ray()
    if ray.is_initialized():
        return False
    if num_cpus is not None:
        positive_int(num_cpus, "num_cpus")
    if address is None:
        ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=log_to_driver)
    else:
        check_address(address)
        ray.init(address=address, log_to_driver=log_to_driver)
    return True


RAY_CLIENT_PORT = 10001
"""The port of a ``ray://`` address that names none (Ray Client's default)."""


def check_address(address: str, timeout: float = 5.0) -> None:
    """``ValueError`` unless ``address`` is ``"auto"``, ``"local"``, ``host:port`` or ``ray://host[:port]``;
    ``ConnectionError`` naming it when nothing accepts a connection at its host and port within ``timeout``
    seconds (a wrong host or port, or no ``ray start --head`` there)."""
    if not isinstance(address, str) or not address:
        raise ValueError(f"ray address must be 'auto', 'host:port' or 'ray://host:port', got {address!r}")
    if address in ("auto", "local"):
        return
    client = address.startswith("ray://")
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon and client:
        host, port = port, str(RAY_CLIENT_PORT)
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"ray address must be 'auto', 'host:port' or 'ray://host:port', got {address!r}")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as error:
        raise ConnectionError(
            f"no Ray cluster at {address!r}: cannot connect to {host}:{port} ({error}); start its head with "
            "'ray start --head --port PORT', or use 'auto' on a node of the cluster"
        ) from None


def cluster_cpus() -> int:
    """CPUs the connected Ray cluster offers (at least 1)."""
    ray = require_ray()
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def chunks(jobs: list[Job], workers: int, chunk_deals: int | None) -> list[list[Job]]:
    """Consecutive runs of jobs, ``chunk_deals`` each; by default *guided*: each chunk a quarter of the
    remaining deals per worker (1 to 32), so chunks shrink towards the end and no worker is left with a
    long last chunk while the others idle."""
    if chunk_deals is None:
        out, start = [], 0
        while start < len(jobs):
            size = max(1, min(32, math.ceil((len(jobs) - start) / (4 * workers))))
            out.append(jobs[start : start + size])
            start += size
        return out
    positive_int(chunk_deals, "chunk_deals")
    return [jobs[start : start + chunk_deals] for start in range(0, len(jobs), chunk_deals)]


def _play_chunk(play: Callable, matches: list, jobs: list[Job], crash_once: CrashOnce | None):
    """The Ray task: play the chunk's deals with ``play(match, deal)`` (the arena's ``play_deal``),
    yielding ``(match, deal, result)`` one by one."""
    for match_index, deal_index in jobs:
        if crash_once is not None:
            crash_once.before(deal_index)
        yield match_index, deal_index, play(matches[match_index], deal_index)


@dataclass
class _Ledger:
    """Which deals have arrived, and how often a chunk was resubmitted."""

    expected: set
    received: set
    duplicates: int = 0
    resubmitted: int = 0


def play_on_ray(
    matches: list,
    jobs: list[Job],
    done: Callable[[Job, object], None],
    play: Callable,
    workers: int | None = None,
    options: RayOptions | None = None,
) -> dict:
    """Play ``jobs`` on the connected Ray session (``connect`` first) with ``play(match, deal)`` (the
    arena's ``play_deal``; passed in so that this module does not import the arena, which imports it),
    calling ``done(job, result)`` once per job as results arrive; returns counts of the bookkeeping
    (duplicates dropped, resubmissions)."""
    ray = require_ray()
    if not ray.is_initialized():
        raise RuntimeError("play_on_ray needs a Ray session: call agents.ray_arena.connect() first")
    options = options or RayOptions()
    workers = cluster_cpus() if workers is None else workers
    positive_int(workers, "workers")
    task = ray.remote(num_cpus=1, max_retries=options.max_retries, num_returns="streaming")(_play_chunk)
    matches_ref = ray.put(matches)
    waiting = chunks(list(jobs), workers, options.chunk_deals)
    resubmissions: dict[tuple, int] = {}
    running: dict = {}
    ledger = _Ledger(expected=set(jobs), received=set())
    while waiting or running:
        while waiting and len(running) < workers:
            chunk = waiting.pop(0)
            running[task.remote(play, matches_ref, chunk, options.crash_once)] = chunk
        [generator], _ = ray.wait(list(running), num_returns=1)
        try:
            reference = next(generator)
        except StopIteration:
            _finish_chunk(running.pop(generator), ledger, waiting)
            continue
        try:
            match_index, deal_index, result = ray.get(reference)
        except ray.exceptions.RayTaskError as error:
            raise error.as_instanceof_cause() from None  # the game or an agent failed: not a fault
        except ray.exceptions.RayError as error:
            chunk = running.pop(generator)
            _resubmit(chunk, ledger, waiting, resubmissions, options.resubmits, error)
            continue
        job = (match_index, deal_index)
        if job in ledger.received:
            ledger.duplicates += 1
            continue
        ledger.received.add(job)
        done(job, result)
    missing = sorted(ledger.expected - ledger.received)
    if missing:
        raise RuntimeError(f"deals lost on Ray: {missing[:10]}{' ...' if len(missing) > 10 else ''}")
    return {"duplicates_dropped": ledger.duplicates, "chunks_resubmitted": ledger.resubmitted}


def _finish_chunk(chunk: list[Job], ledger: _Ledger, waiting: list) -> None:
    """A chunk ended normally: any deal of it not received (which Ray should never allow) runs again."""
    missing = [job for job in chunk if job not in ledger.received]
    if missing:
        waiting.append(missing)


def _resubmit(chunk, ledger: _Ledger, waiting: list, resubmissions: dict, limit: int, error) -> None:
    """Ray gave up on a chunk: queue the deals of it not yet received, unless they failed too often."""
    missing = [job for job in chunk if job not in ledger.received]
    if not missing:
        return
    key = tuple(missing[:1])  # a chunk's first missing deal names it across resubmissions
    resubmissions[key] = resubmissions.get(key, 0) + 1
    if resubmissions[key] > limit:
        raise RuntimeError(
            f"deals {missing[:10]} (match, deal) failed on Ray {resubmissions[key]} times; last error: {error}"
        ) from error
    ledger.resubmitted += 1
    waiting.insert(0, missing)
