"""The server's refusals at its edges (issue 33): a request for another host gets the JSON error every
refusal has, a seed must be a JSON integer, and the replay store is bounded in bytes, not only in files
(``benchmarks/server_memory.py`` measures the resident memory of 50 maximal uploads; here it runs small)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytest.importorskip("fastapi", reason="the play group is not installed: pip install -e '.[play]'")

from fastapi.testclient import TestClient  # noqa: E402

from play.replay import ReplayStore  # noqa: E402
from play.server import AppSettings, create_app, host_of_header  # noqa: E402
from play.session import PlayError  # noqa: E402
from trick_core.registry import make_env  # noqa: E402


@pytest.fixture
def client():
    with TestClient(create_app(AppSettings(bot_delay=0.0)), base_url="http://127.0.0.1") as test_client:
        yield test_client


@pytest.mark.parametrize("host", ["evil.example", "127.0.0.1.evil.example", "", "[::2]:8000"])
def test_another_host_gets_the_json_error(client, host):
    response = client.get("/api/catalog", headers={"Host": host})
    assert response.status_code == 400
    assert response.headers["content-type"] == "application/json"
    assert "answers only on 127.0.0.1" in response.json()["error"]


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost", "LOCALHOST:1", "[::1]:8000", "[::1]"])
def test_loopback_hosts_are_answered(client, host):
    assert client.get("/api/catalog", headers={"Host": host}).status_code == 200


def test_allowed_hosts_star_and_subdomains():
    any_host = create_app(AppSettings(bot_delay=0.0, allowed_hosts=("*",)))
    with TestClient(any_host, base_url="http://somewhere.example") as test_client:
        assert test_client.get("/api/catalog").status_code == 200
    sub = create_app(AppSettings(bot_delay=0.0, allowed_hosts=("*.example.org",)))
    with TestClient(sub, base_url="http://table.example.org") as test_client:
        assert test_client.get("/api/catalog").status_code == 200
        assert test_client.get("/api/catalog", headers={"Host": "example.org.evil"}).status_code == 400
    assert host_of_header("Table.Example.org:80") == "table.example.org"
    assert host_of_header(None) is None


@pytest.mark.parametrize("seed", ["1", 1.0, True, -1, 2**63])
def test_a_seed_must_be_a_json_integer(client, seed):
    response = client.post("/api/sessions", json={"game": "bavarian", "seed": seed})
    assert response.status_code == 422
    assert response.json()["error"].startswith("bad request: seed")


def test_a_seed_given_as_an_integer_is_taken(client):
    assert client.post("/api/sessions", json={"game": "bavarian", "seed": 1}).status_code == 200


def records(count: int) -> list[dict]:
    env = make_env("bavarian")
    out = []
    for seed in range(count):
        env.reset(seed=seed)
        out.append(env.unwrapped.game_record())
    return out


def test_the_replay_store_is_bounded_in_bytes():
    one = records(20)
    size = ReplayStore().add("probe", one).size
    store = ReplayStore(limit=32, max_bytes=3 * size)
    added = [store.add(f"file {i}", one) for i in range(5)]
    assert store.stored_bytes() <= 3 * size
    assert list(store.sets) == [s.replay_id for s in added[-3:]]  # the oldest dropped first
    assert store.get(added[-1].replay_id).record(4) == json.loads(json.dumps(one[4]))
    with pytest.raises(PlayError, match="the viewer keeps at most") as refused:
        ReplayStore(max_bytes=size // 2).add("too big", one)
    assert refused.value.status == 413


def test_an_uploaded_file_lists_its_records_and_shows_a_frame(client):
    body = "\n".join(json.dumps(record) for record in records(3))
    opened = client.post("/api/replays", params={"name": "three"}, content=body).json()
    assert opened["count"] == 3 and len(opened["records"]) == 3
    frame = client.get(f"/api/replays/{opened['id']}/frame", params={"record": 2, "step": 0})
    assert frame.status_code == 200


def test_the_memory_benchmark_runs_small():
    command = [sys.executable, "-m", "benchmarks.server_memory", "--uploads", "3", "--megabytes", "0.5",
               "--kind", "pairs"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["statuses"] == [200] and len(result["rss_mib"]) == 3
    assert 0 < result["peak_mib"] < result["limit_mib"]
