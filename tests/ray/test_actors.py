"""Self-play actors on a local Ray (two CPUs): one learner receives experience from two actors, acts on
it, and ends with the same weights as the same run with the actors in-process. (The Ray test skips, via
the ``ray_session`` fixture, when Ray is not installed.)"""

from __future__ import annotations

import pytest

from experiments import ray_selfplay
from experiments.ray_actors import ActorConfig, ActorPool, make_masked_policy
from trick_core.registry import game_spec

pytestmark = pytest.mark.xdist_group("ray")

SMALL = {"game": "bavarian", "num_actors": 2, "iterations": 3, "num_envs": 8, "steps": 24, "hidden": 16, "log": False}


def test_a_learner_trains_on_experience_from_two_ray_actors_as_it_would_locally(ray_session):
    remote = ray_selfplay.train(ray_selfplay.Args(**SMALL, backend="ray"))
    local = ray_selfplay.train(ray_selfplay.Args(**SMALL, backend="local"))
    assert remote["samples_per_actor"][0] > 0 and remote["samples_per_actor"][1] > 0
    assert remote["samples"] == sum(line["samples"] for line in remote["logs"])
    assert all(line["hands"] > 0 for line in remote["logs"][1:])
    assert remote["samples_per_actor"] == local["samples_per_actor"]
    assert remote["logs"] == local["logs"]
    assert remote["weights_sha256"] == local["weights_sha256"]


def test_the_actors_differ_and_return_legal_decisions_of_ended_hands():
    """The actors' own code, in this process (no Ray needed: the Ray backend runs the same objects)."""
    config = ActorConfig("bavarian", num_envs=4, steps=40, seed=3)
    weights = make_masked_policy(game_spec("bavarian").make_batch_env(1, num_threads=1)).state_dict()
    with ActorPool(2, config, make_masked_policy, backend="local") as pool:
        pool.broadcast(weights, version=7)
        first, second = pool.collect()
    assert (first["actor"], second["actor"]) == (0, 1) and first["version"] == second["version"] == 7
    for batch in (first, second):
        assert batch["observation"].shape[0] == batch["samples"] == len(batch["return"]) > 0
        assert (batch["action_mask"][range(len(batch["action"])), batch["action"]] == 1).all()
    assert first["return"].tolist() != second["return"].tolist()  # own seeds, own deals


class CrashOnceHandReturns:
    """A collector whose first ``collect`` kills its actor's process (fault injection), once per marker."""

    def __init__(self, env, actor, config, marker=None):
        from experiments.ray_actors import HandReturns

        self.inner, self.actor, self.marker = HandReturns(env, actor, config), actor, marker

    def collect(self, worker, steps):
        import os

        if self.actor == 1 and not os.path.exists(self.marker):
            open(self.marker, "w").close()
            os._exit(1)
        return self.inner.collect(worker, steps)


def test_a_killed_actor_is_restarted_with_the_last_weights(ray_session, tmp_path):
    import functools

    config = ActorConfig("bavarian", num_envs=4, steps=30, seed=1)
    collector = functools.partial(CrashOnceHandReturns, marker=str(tmp_path / "crashed"))
    weights = make_masked_policy(game_spec("bavarian").make_batch_env(1, num_threads=1)).state_dict()
    with ActorPool(2, config, make_masked_policy, collector, backend="ray") as pool:
        pool.broadcast(weights, version=3)
        first, second = pool.collect()
        assert pool.restarts == 1 and (tmp_path / "crashed").exists()
    assert (first["actor"], second["actor"]) == (0, 1) and first["version"] == second["version"] == 3
    assert second["samples"] > 0
