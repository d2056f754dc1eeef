"""Regression: the arena's workers after the parent used torch's OpenMP threads.

A forked child inherits torch's OpenMP pool in a state it cannot use, and its first parallel region (a
neural agent's network being built) waited forever; one torch thread per forked worker did not cure every
case (the tournament hung again with neural agents in all four games). The workers now start from a fork
server (a fresh interpreter), and get one torch thread each. Run in a subprocess, so that a regression
fails on the timeout instead of hanging the suite."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.process_tree import HAS_PROC, stop_while_working

pytest.importorskip("torch")

SCRIPT = """
import torch
torch.set_num_threads(2)
matrix = torch.randn(256, 256)
torch.linalg.qr(matrix)
from agents.arena import run_arena
from agents import make
make("neural", "palatinate")  # a network built in the parent, with two torch threads
summary = run_arena("bavarian", ["neural", "random"], hands=2, seed=1, workers=2)
print(summary["agents"]["neural"]["decisions"])
"""


def test_forked_workers_play_after_the_parent_used_torch_threads():
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert int(done.stdout.split()[-1]) > 0


def test_the_arena_command_with_workers_runs_without_warnings():
    """``python -m agents.arena --workers 2``: the fork server runs the arena module as its main module, so
    preloading it as well made Python warn (``'agents.arena' found in sys.modules ...``) in every run."""
    command = [sys.executable, "-m", "agents.arena", "--game", "bavarian", "--agents", "random", "rules",
               "--hands", "2", "--seed", "1", "--workers", "2", "--no-progress"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Warning" not in done.stderr, done.stderr[-2000:]
    assert "random" in done.stdout and "rules" in done.stdout


@pytest.mark.skipif(not HAS_PROC, reason="reads the process tree from Linux's /proc")
@pytest.mark.parametrize("stop", ["ctrl_c", "sigterm", "sigkill"])
def test_a_stopped_arena_with_workers_ends_without_playing_the_queued_deals(stop):
    """Ctrl+C reaches the arena and its workers (the terminal's process group); a worker hands its
    interrupted deal back as an error, and the parent then used to wait, on leaving the pool, until every
    queued deal had been played (here tens of minutes). SIGTERM (``timeout``, a job scheduler) reaches the
    parent alone, and ended it at once, leaving its fork server and workers waiting for good; so did
    ``kill -9``. Each now ends the arena at once, and no process of it is left behind."""
    command = [sys.executable, "-m", "agents.arena", "--game", "bavarian", "--agents", "random", "rules",
               "--hands", "50000", "--workers", "2", "--no-progress"]  # minutes of play, and nothing to compile
    done = stop_while_working(command, stop, processes=4)  # resource tracker, fork server, two workers
    assert done.returncode != 0, done.stderr[-2000:]
    if stop == "ctrl_c":
        assert "KeyboardInterrupt" in done.stderr, done.stderr[-2000:]
