"""The trained token population: its checkpoints load, their records match them, they talk, and a tiny
cross-play matrix of two seeds has the right shape and finite intervals."""

from __future__ import annotations

import hashlib
import json
import math

import pytest

from agents import make
from agents.neural.agent import NeuralAgent
from signalling.crossplay import DEFAULT_OPPONENT, crossplay_matrix, pair_spec
from signalling.log import arena_message_log
from signalling.population import SEEDS, TALK, checkpoint_path, population_specs, shipped_seeds

CONFIG = {"talk": TALK}


def test_every_seed_is_shipped_small_with_its_record():
    assert shipped_seeds() == list(SEEDS)
    for seed in SEEDS:
        path = checkpoint_path(seed)
        record = json.loads(path.with_suffix(".json").read_text())
        assert record["seed"] == seed and record["config"] == CONFIG
        assert record["bytes"] == path.stat().st_size < 1_500_000
        assert record["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
        assert all(f"--seed {seed}" in command and "talk=tokens:8" in command for command in record["command"])


def test_population_agents_load_through_their_spec():
    agents = [make(spec, "knuffeln") for spec in population_specs()]
    assert all(isinstance(agent, NeuralAgent) for agent in agents)
    assert len({str(agent.path) for agent in agents}) == len(SEEDS)
    with pytest.raises(ValueError, match="no population checkpoint"):
        make("signalling.population:trained[seed=99]", "knuffeln")


def test_trained_agents_say_tokens():
    spec = population_specs([1])[0]
    _summary, _records, rows = arena_message_log([pair_spec(spec, spec), DEFAULT_OPPONENT], CONFIG, 2, seed=4)
    said = [row["message"] for row in rows if row["agent"] != DEFAULT_OPPONENT]
    assert any(message.startswith("token:") for message in said)


def test_crossplay_matrix_of_two_trained_seeds():
    result = crossplay_matrix(population_specs([1, 2]), 3, seed=5, config=CONFIG, labels=["seed 1", "seed 2"])
    assert len(result["mean"]) == 2 and all(len(row) == 2 for row in result["mean"])
    intervals = [bound for row in result["ci95"] for cell in row for bound in cell]
    intervals += result["gap"]["ci95"] + result["self_play"]["ci95"] + result["cross_play"]["ci95"]
    assert len(intervals) == 14 and all(math.isfinite(bound) for bound in intervals)
    assert result["gap"]["mean"] == pytest.approx(result["self_play"]["mean"] - result["cross_play"]["mean"])
