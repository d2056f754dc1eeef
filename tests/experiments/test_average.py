"""Weight averaging (``experiments/average.py``) and the pipeline's third stage that uses it: the averaged
network is the mean of its ingredients' weights, checkpoints that are not one network shape are refused by
name, the shipping record follows the chain of stages through the average (and through the network shipped
now), and a tiny pipeline with the stage ends in an averaged checkpoint of its RL stage and continuation."""

import dataclasses
import json
import shutil
from pathlib import Path

import pytest
import torch

from agents.neural import ship
from agents.neural.checkpoint import SHIPPED_DIR, build_network, checkpoint_dict, load_checkpoint, save_checkpoint
from agents.neural.training import new_network
from experiments import average, pipeline
from trick_core.registry import make_env

ACTION_NAMES = make_env("bavarian").unwrapped.action_names


def tiny_checkpoint(path, seed: int, hidden=(8,), training: dict | None = None):
    torch.manual_seed(seed)
    network = new_network("bavarian", {}, hidden)
    return save_checkpoint(path, checkpoint_dict(network, game="bavarian", config={}, action_names=ACTION_NAMES,
                                                 head="policy", algo="ppo", training=training or {}))


def test_the_average_is_the_mean_of_every_weight(tmp_path):
    paths = [str(tiny_checkpoint(tmp_path / f"n{seed}.pt", seed)) for seed in (1, 2, 3)]
    summary = average.main(average.Args(checkpoints=paths, out=str(tmp_path / "soup.pt")))
    soup = load_checkpoint(summary["out"])
    networks = [load_checkpoint(path)["network"] for path in paths]
    weights = [key for key, value in soup["network"].items() if value.is_floating_point() and value.numel() > 1]
    assert sum(not torch.equal(networks[0][key], networks[1][key]) for key in weights) >= 2, \
        "the ingredients differ in their layers' weights"
    for key in weights:
        expected = (networks[0][key] + networks[1][key] + networks[2][key]) / 3
        assert torch.allclose(soup["network"][key], expected, atol=1e-6), key
        if not torch.equal(networks[0][key], networks[1][key]):
            assert not torch.equal(soup["network"][key], networks[0][key]), f"{key} was copied, not averaged"
    assert soup["training"]["algo"] == "average" and soup["training"]["ingredients"] == paths
    assert soup["training"]["args"]["init_from"] == paths[-1]
    build_network(soup)  # an ordinary checkpoint: it loads as a network


@pytest.mark.parametrize(("other", "complaint"), [
    (lambda tmp: tiny_checkpoint(tmp / "wide.pt", 2, hidden=(16,)), "differs from .* in hidden"),
    (lambda tmp: tmp / "n1.pt", "a checkpoint is named twice"),
    (lambda tmp: tmp / "missing.pt", "no checkpoint at"),
])
def test_checkpoints_of_another_shape_are_refused_by_name(other, complaint, tmp_path):
    first = str(tiny_checkpoint(tmp_path / "n1.pt", 1))
    with pytest.raises(ValueError, match=complaint):
        average.main(average.Args(checkpoints=[first, str(other(tmp_path))], out=str(tmp_path / "soup.pt")))
    assert not (tmp_path / "soup.pt").exists()


def test_one_checkpoint_or_an_out_over_an_ingredient_is_refused(tmp_path):
    first, second = (str(tiny_checkpoint(tmp_path / f"n{seed}.pt", seed)) for seed in (1, 2))
    with pytest.raises(ValueError, match="at least two checkpoints"):
        average.check(average.Args(checkpoints=[first], out=str(tmp_path / "soup.pt")))
    with pytest.raises(ValueError, match="would overwrite an ingredient"):
        average.check(average.Args(checkpoints=[first, second], out=second))


def test_the_shipping_record_follows_the_chain_through_the_shipped_network(tmp_path):
    """A continuation of the network shipped now, averaged: its stages are the shipped record's, then the
    continuation, then the average (the shipped network's own run folders need not exist)."""
    shipped = tmp_path / "bavarian.pt"
    shutil.copyfile(SHIPPED_DIR / "bavarian.pt", shipped)
    record = json.loads((SHIPPED_DIR / "bavarian.json").read_text(encoding="utf-8"))
    continued = tiny_checkpoint(tmp_path / "continued.pt", 5, training={
        "algo": "ppo", "args": {"seed": 11, "init_from": str(shipped)}, "command": "python -m experiments.ppo ...",
        "decisions": 1000, "wall_seconds": 1.0, "cpu_seconds": 1.0})
    other = tiny_checkpoint(tmp_path / "other.pt", 6)
    soup = average.main(average.Args(checkpoints=[str(other), str(continued)], out=str(tmp_path / "soup.pt")))
    chain = ship.stages(soup["out"])
    assert chain[:len(record["stages"])] == record["stages"]
    assert [stage["algo"] for stage in chain[len(record["stages"]):]] == ["ppo", "average"]
    assert [stage["seed"] for stage in chain[len(record["stages"]):]] == [11, None]


@pytest.mark.parametrize(("rounds", "later"), [(1, 0), (2, 0), (2, 512)])
def test_a_tiny_pipeline_ships_the_average_of_its_rl_stage_and_continuation(rounds, later, tmp_path):
    """Each round averages its start with one checkpoint every ``average_every`` decisions of its continuation:
    768 decisions (three) in the first round, and in the later ones ``average_later_decisions`` where set
    (512: two)."""
    args = pipeline.Args(
        game="bavarian", runs_dir=str(tmp_path), teacher_decisions=200, warm_epochs=1, workers=1, hidden=(16,),
        eval_hands=1, eval_every=512, budget_cpu_minutes=30.0, budget_wall_minutes=30.0, progress=False,
        rl=["num_envs=16", "rollout_steps=16", "minibatch_size=64", "update_epochs=1", "total_decisions=512",
            "eval_opponent=random"],
        average_decisions=768, average_every=256, average_cpu_minutes=10.0, average_rounds=rounds,
        average_later_decisions=later,
    )
    summary = pipeline.main(args)
    network = summary["final"]
    for round_number in range(rounds, 0, -1):  # back from the last round's average to the RL stage's network
        ingredients = load_checkpoint(network)["training"]["ingredients"]
        decisions = later if round_number > 1 and later else 768
        assert len(ingredients) == 1 + decisions // 256 and Path(ingredients[-1]).parent.parent.name == \
            ("average" if round_number == 1 else f"average_{round_number}")
        continuation = load_checkpoint(ingredients[-1])["training"]
        assert continuation["args"]["seed"] == args.seed + pipeline.AVERAGE_SEED_OFFSET * round_number
        assert continuation["args"]["init_from"] == ingredients[0] and continuation["decisions"] >= decisions
        network = ingredients[0]
    assert network == summary["rl"], "the first round starts from the RL stage's network, each next from an average"
    chain = ship.stages(summary["final"])
    assert [stage["algo"] for stage in chain] == ["warm_start", "ppo", *["ppo", "average"] * rounds]
    assert [entry["decisions"] for entry in chain[2]["evaluations"]] == [256, 512, 768], \
        "the continuation's evaluations, from its log (its checkpoints are saved before they are played)"


@pytest.mark.parametrize(("overrides", "complaint"), [
    ({"eval_hands": 0}, "eval_hands must be positive when average_decisions is"),
    ({"average_every": 10**9}, "exceeds the decisions of averaging round 1"),
    ({"average_decisions": -1}, "average_decisions must be a non-negative integer"),
    ({"average_cpu_minutes": 500.0}, "their sum below budget_cpu_minutes"),
    ({"average_rounds": 4}, "their sum below budget_cpu_minutes"),
    ({"average_rounds": 2, "average_later_cpu_minutes": 130.0}, "their sum below budget_cpu_minutes"),
    ({"average_later_cpu_minutes": -1.0}, "must be >= 0"),
    ({"average_rounds": 2, "average_later_decisions": 1000}, "exceeds the decisions of averaging round 2"),
    ({"average_later_decisions": -5}, "average_later_decisions must be a non-negative integer"),
    ({"average_rounds": 0}, "average_rounds must be a positive integer"),
])
def test_the_averaging_stage_is_checked_before_the_warm_start(overrides, complaint, tmp_path):
    args = pipeline.Args(game="bavarian", runs_dir=str(tmp_path), workers=1, progress=False,
                         average_decisions=36_000_000, average_cpu_minutes=55.0)
    with pytest.raises(ValueError, match=complaint):
        pipeline.main(dataclasses.replace(args, **overrides))
    assert list(tmp_path.iterdir()) == []
