"""PPO and DMC with experience actors (``--actors``): on a local Ray (two CPUs) the learner trains on the
decisions of both actors and ends with the numbers and weights of the same run with the actors in this
process; a run resumed from a checkpoint continues as the uninterrupted one. (The Ray test skips, via the
``ray_session`` fixture, when Ray is not installed; the others need no Ray.)"""

from __future__ import annotations

import dataclasses

import pytest
import torch

from agents.neural.checkpoint import build_network, load_checkpoint
from experiments import dmc, ppo

pytestmark = pytest.mark.xdist_group("ray")

STEPS, ENVS, ACTORS = 8, 8, 2
ITERATION = STEPS * ENVS * ACTORS
"""Decisions per iteration: every actor steps its env ``STEPS`` times."""


def tiny_args(module, tmp_path, name, **overrides):
    """A few iterations of two actors on a tiny network, with an opponent pool and a checkpoint in between."""
    fields = {
        "num_envs": ENVS, "rollout_steps": STEPS, "hidden": (16,), "total_decisions": 4 * ITERATION,
        "eval_every": 0, "save_every": 2 * ITERATION, "pool_every": ITERATION, "opponent_fraction": 0.5,
        "progress": False, "run_dir": str(tmp_path / name), "seed": 5, "actors": ACTORS, "actor_backend": "local",
    }
    fields.update({"batch_size": 32} if module is dmc else {"minibatch_size": 32, "update_epochs": 2})
    fields.update(overrides)
    return module.Args(**fields)


def weights(summary) -> dict:
    return build_network(load_checkpoint(summary["final"])).state_dict()


def assert_same_weights(first: dict, second: dict) -> None:
    assert first.keys() == second.keys()
    for key in first:
        assert torch.equal(first[key], second[key]), f"{key} differs"


def logged(summary) -> dict:
    """The run's last logged numbers, without the throughputs (they are timings)."""
    return {key: value for key, value in summary["metrics"].items() if "per_second" not in key}


@pytest.mark.parametrize("module", [ppo, dmc], ids=["ppo", "dmc"])
def test_the_learner_trains_on_two_ray_actors_as_on_local_ones(ray_session, module, tmp_path):
    remote = module.main(tiny_args(module, tmp_path, "ray", actor_backend="ray"))
    local = module.main(tiny_args(module, tmp_path, "local"))
    assert remote["decisions"] == 4 * ITERATION
    received = [remote["metrics"][f"actors/decisions_from_actor_{actor}"] for actor in range(ACTORS)]
    assert all(count > 0 for count in received), received
    assert logged(remote) == logged(local)
    assert_same_weights(weights(remote), weights(local))


@pytest.mark.parametrize("module", [ppo, dmc], ids=["ppo", "dmc"])
def test_a_run_with_actors_resumes_where_it_stopped(module, tmp_path):
    whole = module.main(tiny_args(module, tmp_path, "whole"))
    interrupted = tiny_args(module, tmp_path, "parts", total_decisions=2 * ITERATION)  # stops at the save
    module.main(interrupted)
    resumed = module.main(dataclasses.replace(interrupted, total_decisions=4 * ITERATION,
                                              resume=interrupted.run_dir + "/checkpoint.pt"))
    assert (resumed["decisions"], resumed["segment"]) == (whole["decisions"], whole["segment"])
    assert_same_weights(weights(whole), weights(resumed))

