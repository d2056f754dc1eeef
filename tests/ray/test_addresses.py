"""A Ray cluster's address: a malformed or unreachable one is refused at once, naming it (Ray itself retries an
unreachable address for minutes), and ``--ray-address`` without ``--backend ray`` is refused rather than
ignored. No Ray session is started here."""

from __future__ import annotations

import socket

import pytest

from agents import arena, tournament
from agents.ray_arena import check_address, connect

ray = pytest.importorskip("ray", reason="Ray is not installed: pip install -e '.[ray]'")


def unused_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def ray_not_started(monkeypatch):
    """This process looks unconnected, and reaching ``ray.init`` fails the test (it would wait for minutes)."""
    monkeypatch.setattr(ray, "is_initialized", lambda: False)

    def init(*args, **kwargs):
        raise AssertionError(f"ray.init reached with {args} {kwargs}")

    monkeypatch.setattr(ray, "init", init)


@pytest.mark.parametrize("address", ["127.0.0.1:{port}", "ray://127.0.0.1:{port}"])
def test_an_unreachable_address_is_refused_before_ray_waits_for_it(ray_not_started, address):
    address = address.format(port=unused_port())
    with pytest.raises(ConnectionError, match=f"no Ray cluster at '{address}'"):
        connect(address)


def test_the_actor_pool_refuses_an_unreachable_address_too(ray_not_started):
    from experiments.ray_actors import ActorConfig, ActorPool, make_masked_policy

    address = f"127.0.0.1:{unused_port()}"
    with pytest.raises(ConnectionError, match=f"no Ray cluster at '{address}'"):
        ActorPool(2, ActorConfig("bavarian", num_envs=2, steps=2), make_masked_policy, backend="ray",
                  ray_address=address)


@pytest.mark.parametrize("address", ["", "head", "head:", "head:port", "head:70000", ":6379"])
def test_a_malformed_address_is_named(address):
    with pytest.raises(ValueError, match="ray address must be"):
        check_address(address)


def test_auto_and_a_listening_address_pass():
    check_address("auto")
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        check_address(f"127.0.0.1:{server.getsockname()[1]}")


def test_a_ray_address_without_the_ray_backend_is_refused_not_ignored():
    with pytest.raises(ValueError, match="--ray-address 'auto' needs --backend ray"):
        arena.main(arena.Args(game="bavarian", agents=["random", "rules"], hands=1, ray_address="auto"))
    with pytest.raises(ValueError, match="--ray-address 'auto' needs --backend ray"):
        tournament.run_tournament(tournament.Args(games=["bavarian"], hands=1, ray_address="auto"))


def test_a_ray_address_for_actors_that_do_not_run_on_ray_is_refused_not_ignored(tmp_path):
    from experiments import ppo
    from experiments.ray_actors import ActorConfig, ActorPool, make_masked_policy
    from experiments.selfplay import SelfPlay

    with pytest.raises(ValueError, match="ray_address 'auto' needs the ray backend"):
        ActorPool(2, ActorConfig("bavarian", num_envs=2, steps=2), make_masked_policy, backend="local",
                  ray_address="auto")
    with pytest.raises(ValueError, match="--ray-address 'auto' needs --actors N"):  # checked before anything is built
        SelfPlay(ppo.Args(actors=0, ray_address="auto", runs_dir=str(tmp_path)), algo="ppo", head="policy",
                 config={}, network=None, optimizer=None, rng=None, device=None, scale=1.0, collector_class=None)
