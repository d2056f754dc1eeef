"""Without Ray (hidden here even where it is installed): the local backends work, and asking for Ray
says how to install it. Nothing outside ``agents.ray_arena`` and ``experiments.ray_actors`` imports it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from agents.arena import run_arena

HIDE_RAY = "import sys; sys.modules['ray'] = None\n"


@pytest.fixture
def no_ray(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError


def test_the_ray_backend_without_ray_says_how_to_install_it(no_ray):
    with pytest.raises(ImportError, match=r"pip install -e '\.\[ray\]'"):
        run_arena("palatinate", ["random", "rules"], 2, seed=0, backend="ray")


def test_ray_actors_without_ray_say_how_to_install_it(no_ray):
    from experiments.ray_actors import ActorConfig, ActorPool, make_masked_policy

    with pytest.raises(ImportError, match=r"pip install -e '\.\[ray\]'"):
        ActorPool(2, ActorConfig("bavarian", num_envs=2, steps=2), make_masked_policy, backend="ray")


def test_the_packages_and_the_command_lines_import_without_ray():
    modules = ["agents.arena", "agents.tournament", "agents.ray_arena", "experiments.ray_actors",
               "experiments.ray_selfplay", "benchmarks.ray_scaling", "trick_gym", "trick_core.registry"]
    code = HIDE_RAY + "".join(f"import {module}\n" for module in modules)
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_guided_chunks_cover_every_deal_once_and_shrink_towards_the_end():
    from agents.ray_arena import chunks

    jobs = [(m, d) for m in range(3) for d in range(500)]
    for workers in (1, 2, 64):
        cut = chunks(jobs, workers, None)
        assert [job for chunk in cut for job in chunk] == jobs
        sizes = [len(chunk) for chunk in cut]
        assert max(sizes) <= 32 and sizes == sorted(sizes, reverse=True) and sizes[-1] == 1
    assert [len(c) for c in chunks(jobs[:10], 2, 4)] == [4, 4, 2]
