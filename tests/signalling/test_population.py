"""The trained token population: shipping a run into it, loading it through its plug-in, and a tiny
cross-play matrix of two seeds (shape, finite intervals). The machinery is tested on two small untrained
stand-in networks shipped into a temporary folder; the shipped population itself is checked when present."""

from __future__ import annotations

import hashlib
import json
import math

import pytest
import torch

from agents import make
from agents.neural.agent import NeuralAgent
from agents.neural.checkpoint import checkpoint_dict, save_checkpoint
from agents.neural.rollout import make_batch_env
from agents.neural.training import new_network
from signalling import population
from signalling.crossplay import DEFAULT_OPPONENT, crossplay_matrix, pair_spec
from signalling.log import arena_message_log
from signalling.population import SEEDS, TALK, checkpoint_path, population_specs, shipped_seeds

CONFIG = {"talk": TALK}
STAND_IN_SEEDS = (1, 2)


@pytest.fixture(scope="module")
def stand_in_folder(tmp_path_factory):
    """Two untrained small networks of talk tokens:8, shipped with ``signalling.population.main``."""
    folder = tmp_path_factory.mktemp("population")
    names = make_batch_env("knuffeln", 1, num_threads=1, **CONFIG).action_names
    for seed in STAND_IN_SEEDS:
        torch.manual_seed(seed)
        network = new_network("knuffeln", CONFIG, hidden=(8,))
        training = {"args": {"seed": seed}, "command": f"python -m experiments.pipeline --seed {seed}",
                    "commit": None, "decisions": 0, "wall_seconds": 1.0, "cpu_seconds": 1.0}
        run = save_checkpoint(folder / "runs" / f"seed{seed}.pt", checkpoint_dict(
            network, game="knuffeln", config=CONFIG, action_names=names, head="policy", algo="ppo", training=training))
        population.main(population.Args(checkpoint=str(run), out_dir=str(folder)))
    return folder


@pytest.fixture
def stand_ins(stand_in_folder, monkeypatch):
    monkeypatch.setattr(population, "POPULATION_DIR", stand_in_folder)
    return stand_in_folder


def test_a_shipped_run_has_its_record_and_loads_through_its_spec(stand_ins):
    assert shipped_seeds() == list(STAND_IN_SEEDS)
    for seed in STAND_IN_SEEDS:
        path = checkpoint_path(seed)
        record = json.loads(path.with_suffix(".json").read_text())
        assert record["seed"] == seed and record["config"] == CONFIG and record["hidden"] == [8]
        assert record["bytes"] == path.stat().st_size
        assert record["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
        assert record["command"] == [f"python -m experiments.pipeline --seed {seed}"]
        assert population.record_summary(seed)["cpu_seconds"] == 1.0
    agents = [make(spec, "knuffeln") for spec in population_specs(STAND_IN_SEEDS)]
    assert all(isinstance(agent, NeuralAgent) for agent in agents)
    assert agents[0].path != agents[1].path
    with pytest.raises(ValueError, match="no population checkpoint"):
        make("signalling.population:trained[seed=3]", "knuffeln")


def test_crossplay_matrix_of_two_population_seeds(stand_ins):
    result = crossplay_matrix(population_specs(STAND_IN_SEEDS), 3, seed=5, config=CONFIG, labels=["seed 1", "seed 2"])
    assert len(result["mean"]) == 2 and all(len(row) == 2 for row in result["mean"])
    intervals = [bound for row in result["ci95"] for cell in row for bound in cell]
    intervals += result["gap"]["ci95"] + result["self_play"]["ci95"] + result["cross_play"]["ci95"]
    assert len(intervals) == 14 and all(bound is not None and math.isfinite(bound) for bound in intervals)
    assert result["gap"]["mean"] == pytest.approx(result["self_play"]["mean"] - result["cross_play"]["mean"])


@pytest.mark.skipif(shipped_seeds() != list(SEEDS), reason="the trained population is not shipped (all seeds)")
def test_the_shipped_population_is_small_and_talks():
    for seed in SEEDS:
        path = checkpoint_path(seed)
        record = json.loads(path.with_suffix(".json").read_text())
        assert record["bytes"] == path.stat().st_size < 1_500_000
        assert all(f"--seed {seed}" in command and "talk=tokens:8" in command for command in record["command"])
    spec = population_specs([1])[0]
    _summary, _records, rows = arena_message_log([pair_spec(spec, spec), DEFAULT_OPPONENT], CONFIG, 2, seed=4)
    assert any(row["message"].startswith("token:") for row in rows if row["agent"] != DEFAULT_OPPONENT)
