"""Stopping a command the way a user or a job scheduler does, and checking that none of its processes
outlive it (read from Linux's /proc)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

HAS_PROC = Path("/proc/self/stat").exists()


def state_and_parent(pid: int) -> tuple[str, int] | None:
    """A process's state letter and parent from Linux's /proc; None once it is gone."""
    try:
        state, parent = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[:2]
    except (OSError, ValueError):
        return None
    return state, int(parent)


def alive(pid: int) -> bool:
    found = state_and_parent(pid)
    return found is not None and found[0] != "Z"


def descendants(pid: int) -> list[int]:
    """The living processes below ``pid``."""
    parents = {}
    for entry in Path("/proc").glob("[0-9]*"):
        found = state_and_parent(int(entry.name))
        if found is not None and found[0] != "Z":
            parents[int(entry.name)] = found[1]
    found, frontier = [], [pid]
    while frontier:
        children = [child for child, parent in parents.items() if parent in frontier]
        found += children
        frontier = children
    return found


def process_table(pids: list[int]) -> str:
    """One line per living process: pid, state letter, what the kernel says it waits in, and its command
    (what a hung stop leaves, for the failure message)."""
    lines = []
    for pid in pids:
        found = state_and_parent(pid)
        if found is None:
            continue
        try:
            waits = Path(f"/proc/{pid}/wchan").read_text()
            command = Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ").strip()
        except OSError:
            continue
        lines.append(f"{pid} {found[0]} {waits or '-'} {command[:200]}")
    return "\n".join(lines)


AS_AT_A_TERMINAL = [sys.executable, "-c", "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
                    "os.execv(sys.argv[1], sys.argv[1:])"]
"""Runs a command with Ctrl+C's signal at its default, as at a terminal. A test run started in the
background of a shell without job control (``cmd &`` in a script, ``nohup``) inherits SIGINT ignored, and
Python then never raises KeyboardInterrupt: the Ctrl+C case would test nothing and hang. The exec keeps the
pid, so the command is still the process that is stopped."""


def stop_while_working(
    command: list[str], stop: str, processes: int, settle: float = 2.0
) -> subprocess.CompletedProcess:
    """Start ``command`` in its own session, wait until it has ``processes`` processes below it and then
    ``settle`` seconds more, and stop it: ``stop="ctrl_c"`` sends SIGINT to its whole process group (what a
    terminal does), ``"sigterm"`` sends SIGTERM to the command alone (``timeout``, a job scheduler),
    ``"sigkill"`` kills the command alone (``kill -9``, the out-of-memory killer). Asserts
    that it ends within a minute and that none of its processes is alive 10 s later (whatever is, is killed);
    returns its exit code and output."""
    process = subprocess.Popen([*AS_AT_A_TERMINAL, *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True)
    tree = []
    try:
        deadline = time.monotonic() + 120
        while len(descendants(process.pid)) < processes:
            assert process.poll() is None and time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.2)
        time.sleep(settle)
        tree = descendants(process.pid)
        if stop == "ctrl_c":
            os.killpg(process.pid, signal.SIGINT)
        else:
            process.send_signal({"sigterm": signal.SIGTERM, "sigkill": signal.SIGKILL}[stop])
        try:
            stdout, stderr = process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"the command did not end within 60 s of {stop}; still running:\n"
                                 f"{process_table([process.pid, *descendants(process.pid)])}") from None
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in tree):
            assert time.monotonic() < deadline, (f"processes of the command outlived it:\n"
                                                 f"{process_table([pid for pid in tree if alive(pid)])}\n"
                                                 f"{stderr[-2000:]}")
            time.sleep(0.2)
        return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)
    finally:
        for pid in {process.pid, *tree, *descendants(process.pid)}:  # what a failure left running
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        process.wait()
