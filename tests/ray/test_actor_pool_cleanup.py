"""An actor pool whose actors fail to build (here: ``make_policy`` raises) leaves nothing behind: its actors
are killed and the Ray it started is shut down, so the caller (a notebook, a test) is not left connected to
a Ray it never asked for. In a fresh interpreter, since the other Ray tests share one session."""

from __future__ import annotations

import subprocess
import sys

import pytest

from .conftest import INSTALL

pytest.importorskip("ray", reason=INSTALL)

pytestmark = pytest.mark.xdist_group("ray")

SCRIPT = """
import ray
from experiments.ray_actors import ActorConfig, ActorPool

def broken_policy(env):
    raise RuntimeError("no policy for this env")

try:
    ActorPool(1, ActorConfig("bavarian", num_envs=2, steps=2), broken_policy, backend="ray")
except Exception as error:  # Ray wraps it in ActorDiedError
    print("raised:", "no policy for this env" in str(error))
print("ray still connected:", ray.is_initialized())
"""


def test_a_pool_whose_actors_fail_to_build_shuts_down_the_ray_it_started():
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=240)
    assert "raised: True" in done.stdout, done.stdout + done.stderr[-2000:]
    assert "ray still connected: False" in done.stdout
