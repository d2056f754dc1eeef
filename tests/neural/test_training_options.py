"""Bad options of the training scripts are refused before anything is built, played or written, with a
``ValueError`` naming the option (one line on the command line), rather than a traceback from deep inside
the run, a run that silently does nothing, a loop that never ends, or a failure at the first evaluation."""

import dataclasses
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from agents.neural import ship
from agents.neural.checkpoint import load_checkpoint
from experiments import dmc, mcpi, pipeline, ppo, warm_start
from experiments.common import check_args
from trick_core.registry import make_env

from .test_training import ITERATION, tiny_args

ROOT = Path(__file__).resolve().parents[2]
BAVARIAN_OBS_SIZE = make_env("bavarian").unwrapped.obs_size
KNUFFELN_OBS_SIZE = make_env("knuffeln").unwrapped.obs_size


@pytest.mark.parametrize(("module", "overrides", "complaint"), [
    (ppo, {"rollout_steps": 0}, "rollout_steps must be a positive integer"),  # looped for ever
    (ppo, {"total_decisions": -5}, "total_decisions must be a positive integer"),  # ran nothing, said nothing
    (ppo, {"minibatch_size": 0}, "minibatch_size must be a positive integer"),
    (ppo, {"pool_size": -1, "opponent_fraction": 0.5}, "pool_size must be a non-negative integer"),
    (ppo, {"update_epochs": 0}, "update_epochs must be a positive integer"),
    (ppo, {"time_limit_minutes": -1.0}, "time_limit_minutes must be >= 0"),
    (ppo, {"learning_rate": 0.0}, "learning_rate must be positive"),
    (ppo, {"game": "chess"}, "unknown game 'chess'"),
    (ppo, {"config": ["players=4"]}, r"unknown option\(s\) \['players'\]"),
    (ppo, {"seed": -1}, "seed must be a non-negative integer"),
    (ppo, {"device": "gpu"}, "unknown device 'gpu'"),
    (ppo, {"torch_threads": 0}, "torch_threads must be a positive integer"),
    (ppo, {"anchor_share": 0.5, "opponent_fraction": 0.3}, "needs --init-from"),  # did nothing
    (ppo, {"anchor_share": 0.5, "opponent_fraction": 0.0, "init_from": "x.pt"}, "positive opponent_fraction"),
    (dmc, {"eval_every": ITERATION, "eval_opponent": "nobody"}, "unknown agent 'nobody'"),
    (dmc, {"eval_every": ITERATION, "eval_also": ["pimc[samples=0]"]}, "samples must be a positive integer"),
    (dmc, {"eval_every": ITERATION, "eval_hands": 0}, "eval_hands must be positive when the run evaluates"),
    (dmc, {"epsilon_start": 1.5}, r"epsilon_start must lie in \[0, 1\]"),
    (dmc, {"init_from": "no/such/final.pt"}, "no checkpoint at 'no/such/final.pt'"),
    (dmc, {"resume": "no/such/checkpoint.pt"}, "no checkpoint at 'no/such/checkpoint.pt'"),
    (mcpi, {"probes_per_iteration": 0}, "probes_per_iteration must be a positive integer"),
    (mcpi, {"probe_rate": -0.1}, r"probe_rate must lie in \[0, 1\]"),
    (mcpi, {"probe_rate": 0.0}, "probe_rate must be positive"),  # looped for ever
    (mcpi, {"game": "knuffeln", "config": ["match=true"]}, "mcpi plays single hands"),  # was a traceback
    (mcpi, {"target": "value"}, "target must be 'policy' or 'q'"),
])
def test_a_bad_option_is_named_before_the_run_starts(module, overrides, complaint, tmp_path):
    args = tiny_args(module, tmp_path, "run", **overrides)
    with pytest.raises(ValueError, match=complaint):
        check_args(args, module.ALGO)
    with pytest.raises(ValueError, match=complaint):
        module.main(args)
    assert not (tmp_path / "run").exists(), "the run wrote its folder before refusing the option"


@pytest.mark.parametrize(("overrides", "complaint"), [
    ({"workers": 0}, "workers must be a positive integer"),  # divided by zero
    ({"decisions": 0}, "decisions must be a positive integer"),
    ({"epochs": 0}, "epochs must be a positive integer"),
    ({"holdout": 1.0}, r"holdout must lie in \[0, 1\)"),
    ({"teacher": "nobody"}, "unknown agent 'nobody'"),
    ({"data": "no/such/teacher_data.npz"}, "no teacher data at 'no/such/teacher_data.npz'"),
])
def test_a_bad_warm_start_option_is_named_before_the_teacher_plays(overrides, complaint, tmp_path):
    args = warm_start.Args(game="bavarian", decisions=400, workers=1, epochs=1, hidden=(16,), eval_hands=0,
                           progress=False, run_dir=str(tmp_path / "warm"))
    with pytest.raises(ValueError, match=complaint):
        warm_start.main(dataclasses.replace(args, **overrides))
    assert not (tmp_path / "warm").exists()


TEACHER_COLUMNS = ("observation", "action_mask", "action", "teacher", "returns", "hand")


def write_teacher_data(path: Path, width: int, columns=TEACHER_COLUMNS) -> str:
    arrays = {"observation": np.zeros((4, width), np.float16), "action_mask": np.ones((4, 3), bool),
              "action": np.zeros(4, np.int64), "teacher": np.ones(4, bool), "returns": np.zeros(4, np.float32),
              "hand": np.arange(4)}
    np.savez(path, **{column: arrays[column] for column in columns})
    return str(path)


@pytest.mark.parametrize(("data", "complaint"), [
    (lambda folder: write_teacher_data(folder / "knuffeln.npz", KNUFFELN_OBS_SIZE),
     f"have {KNUFFELN_OBS_SIZE} entries, this game's {BAVARIAN_OBS_SIZE}: data of another game"),
    (lambda folder: write_teacher_data(folder / "partial.npz", BAVARIAN_OBS_SIZE, ("observation", "action")),
     r"lacks the columns \['action_mask', 'teacher', 'returns', 'hand'\]"),
    (lambda folder: (folder / "text.npz").write_text("not an archive") and str(folder / "text.npz"),
     "is not teacher data"),
])
def test_warm_start_refuses_teacher_data_it_cannot_learn_from(data, complaint, tmp_path):
    """Another game's data ended in a traceback after the run folder was made; now it is named first."""
    args = warm_start.Args(game="bavarian", workers=1, epochs=1, hidden=(16,), eval_hands=0, progress=False,
                           run_dir=str(tmp_path / "warm"), data=data(tmp_path))
    with pytest.raises(ValueError, match=complaint):
        warm_start.main(args)
    assert not (tmp_path / "warm").exists()


def test_warm_start_learns_from_its_own_saved_data(tmp_path):
    """--data with a file the warm start wrote passes the check and trains on it."""
    args = warm_start.Args(game="bavarian", decisions=300, workers=1, epochs=1, hidden=(16,), eval_hands=0,
                           progress=False, run_dir=str(tmp_path / "first"))
    warm_start.main(args)
    saved = str(tmp_path / "first" / "teacher_data.npz")
    again = warm_start.main(dataclasses.replace(args, run_dir=str(tmp_path / "again"), data=saved))
    assert again["decisions"] == int(np.load(saved)["action"].size) >= 300


def test_resume_refuses_a_run_of_another_seed(tmp_path):
    """The seed draws every segment's deals: resumed under another seed, the run would not continue."""
    args = tiny_args(ppo, tmp_path, "run", seed=3, total_decisions=ITERATION)
    ppo.main(args)
    with pytest.raises(ValueError, match="is a run of seed 3, not 4"):
        ppo.main(dataclasses.replace(args, seed=4, total_decisions=2 * ITERATION,
                                     resume=args.run_dir + "/checkpoint.pt"))


@pytest.mark.parametrize(("overrides", "complaint"), [
    ({"rl": ["bogus=1"]}, "--rl 'bogus=1' is not key=value of an option of experiments.ppo"),
    ({"rl": ["learning_rate"]}, "--rl 'learning_rate' is not key=value"),
    ({"rl": ["opponent_fraction=2"]}, r"opponent_fraction must lie in \[0, 1\]"),
    ({"algo": "mcpi", "rl": ["anchor_share=0.5"]}, "not key=value of an option of experiments.mcpi"),
    ({"teacher_decisions": 0}, "teacher_decisions must be a positive integer"),
    ({"budget_cpu_minutes": -1.0}, "budget_cpu_minutes must be positive"),
    ({"game": "knuffeln", "algo": "mcpi", "config": ["match=true"]}, "mcpi plays single hands"),
])
def test_the_pipeline_checks_both_stages_before_the_warm_start(overrides, complaint, tmp_path):
    """A bad option of the RL stage used to surface only once the warm start had spent its minutes."""
    options = {"teacher_decisions": 200, "warm_epochs": 1, "workers": 1, "hidden": (16,), "eval_hands": 0,
               "progress": False, **overrides}
    args = pipeline.Args(**{"game": "bavarian", "runs_dir": str(tmp_path), **options})
    with pytest.raises(ValueError, match=complaint):
        pipeline.main(args)
    assert list(tmp_path.iterdir()) == [], "the pipeline started before refusing the option"


@pytest.mark.parametrize("rl", [[], ["learning_rate=1e-4", "anchor_share=0.5", "opponent_fraction=0.3"]])
def test_the_pipeline_checks_pass_the_documented_recipe(rl, tmp_path):
    """The RL stage's --anchor-share needs the --init-from that the warm start gives it."""
    pipeline.check_pipeline(pipeline.Args(game="bavarian", runs_dir=str(tmp_path), workers=1, rl=rl))
    assert list(tmp_path.iterdir()) == []


def test_the_command_line_names_a_bad_option_in_one_line(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "experiments.ppo", "--num-envs", "0", "--runs-dir", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 1
    assert done.stderr.strip() == "experiments.ppo: num_envs must be a positive integer, got 0"
    assert list(tmp_path.iterdir()) == []


@pytest.fixture
def tiny_final(tmp_path):
    return ppo.main(tiny_args(ppo, tmp_path, "run", total_decisions=ITERATION))["final"]


@pytest.mark.parametrize(("overrides", "complaint"), [
    ({"workers": 0}, "workers must be a positive integer"),
    ({"random_hands": -1}, "random_hands must be >= 0"),
])
def test_ship_refuses_a_bad_option_before_replacing_the_shipped_network(overrides, complaint, tiny_final, tmp_path):
    """It wrote <game>.pt first and failed in the first match, leaving a new network beside the old record."""
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    (shipped / "bavarian.pt").write_bytes(b"the network shipped before")
    args = ship.Args(checkpoint=tiny_final, out_dir=str(shipped), random_hands=2, rules_hands=0, pimc_hands=0,
                     workers=1)
    with pytest.raises(ValueError, match=complaint):
        ship.main(dataclasses.replace(args, **overrides))
    assert [path.name for path in shipped.iterdir()] == ["bavarian.pt"]
    assert (shipped / "bavarian.pt").read_bytes() == b"the network shipped before"


def test_ship_writes_the_network_and_a_record_of_its_bytes(tiny_final, tmp_path):
    shipped = tmp_path / "shipped"
    record = ship.main(ship.Args(checkpoint=tiny_final, out_dir=str(shipped), random_hands=2, rules_hands=0,
                                 pimc_hands=0, workers=1))
    assert sorted(path.name for path in shipped.iterdir()) == ["bavarian.json", "bavarian.pt"]
    assert record["sha256"] == hashlib.sha256((shipped / "bavarian.pt").read_bytes()).hexdigest()
    assert json.loads((shipped / "bavarian.json").read_text())["evaluation"][0]["opponent"] == "random"
    assert load_checkpoint(shipped / "bavarian.pt")["resume"] is None
