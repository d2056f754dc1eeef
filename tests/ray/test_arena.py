"""The arena and the tournament on a local Ray (two CPUs): the same JSON as the local backend for the
same seed, also when a worker process dies in the middle of a match; game errors surface at once."""

from __future__ import annotations

import json

import pytest
from rich.console import Console

from agents.arena import run_arena, without_timing
from agents.tournament import Args as TournamentArgs
from agents.tournament import run_tournament

from .conftest import INSTALL

pytest.importorskip("ray", reason=INSTALL)
from agents.ray_arena import CrashOnce, RayOptions  # noqa: E402

pytestmark = pytest.mark.xdist_group("ray")

AGENTS = ["random", "rules", "pimc[samples=2,playouts_per_sample=3]"]
HANDS = 6


@pytest.fixture(scope="module")
def local_summary():
    return without_timing(run_arena("bavarian", AGENTS, HANDS, seed=11))


def canonical(summary: dict) -> str:
    return json.dumps(without_timing(summary), indent=2)


def test_tournament_json_on_ray_is_byte_identical_to_the_local_one(ray_session, tmp_path):
    common = {"games": ["palatinate", "knuffeln"], "hands": 3, "seed": 5, "progress": False}
    with open(tmp_path / "console.txt", "w") as quiet:
        run_tournament(TournamentArgs(**common, json=str(tmp_path / "local.json")), Console(file=quiet))
        ray_args = TournamentArgs(**common, backend="ray", workers=2, json=str(tmp_path / "ray.json"))
        run_tournament(ray_args, Console(file=quiet))
    local, remote = (tmp_path / "local.json").read_bytes(), (tmp_path / "ray.json").read_bytes()
    assert json.loads(local)["palatinate"]["hands"] == 3
    assert local == remote


def test_arena_on_ray_matches_the_local_backend_for_any_chunking(ray_session, local_summary):
    for chunk_deals in (1, 4, 32):
        options = RayOptions(chunk_deals=chunk_deals)
        remote = run_arena("bavarian", AGENTS, HANDS, seed=11, workers=2, backend="ray", ray_options=options)
        assert canonical(remote) == json.dumps(local_summary, indent=2)


@pytest.mark.parametrize(
    "max_retries", [3, 0], ids=["ray-retries-the-task", "driver-resubmits-the-missing-deals"]
)
def test_a_worker_killed_mid_match_changes_nothing(ray_session, local_summary, tmp_path, max_retries):
    """Deal 3 sits in the middle of a four-deal chunk, so deals 0..2 of every match have been received
    when the worker dies: they must not count twice, and deal 3 must not be lost."""
    marker = tmp_path / "crashed"
    options = RayOptions(chunk_deals=4, max_retries=max_retries, crash_once=CrashOnce(3, str(marker)))
    remote = run_arena("bavarian", AGENTS, HANDS, seed=11, workers=2, backend="ray", ray_options=options)
    assert marker.exists(), "the fault was not injected"
    assert canonical(remote) == json.dumps(local_summary, indent=2)
    assert remote["agents"]["random"]["decisions"] == local_summary["agents"]["random"]["decisions"]


def test_an_agent_error_on_a_worker_is_raised_not_retried(ray_session):
    with pytest.raises(RuntimeError, match="deliberately"):
        run_arena("bavarian", ["random", f"{__name__}:failing_agent"], 2, seed=0, workers=2, backend="ray")


class FailingAgent:
    name = "failing"

    def act(self, env, agent):
        raise RuntimeError("this agent fails deliberately")


def failing_agent(game):
    return FailingAgent()


class CountingProgress:
    """Stands in for the rich progress bar: records every advance."""

    def __init__(self):
        self.advances = 0

    def add_task(self, description, total):
        self.total = total
        return 0

    def advance(self, task):
        self.advances += 1


def test_progress_moves_once_per_deal_as_deals_arrive(ray_session):
    from agents.arena import run_matches

    progress = CountingProgress()
    matches = run_matches("bavarian", AGENTS, HANDS, 11, workers=2, progress=progress, backend="ray",
                          ray_options=RayOptions(chunk_deals=HANDS))
    assert progress.total == progress.advances == len(matches) * HANDS
