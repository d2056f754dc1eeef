"""The training scripts of ``experiments/``: a few-second run of each algorithm on every game (finite losses,
a checkpoint that round-trips and plays), same seed -> same first updates, and resume == uninterrupted."""

import dataclasses
import json
import math
from pathlib import Path

import numpy as np
import pytest
import torch

from agents import make
from agents.neural.checkpoint import build_network, load_checkpoint
from experiments import dmc, mcpi, ppo, warm_start
from trick_core.registry import make_env

GAMES = ["bavarian", "palatinate", "asserufen", "knuffeln"]
ALGORITHMS = {"dmc": dmc, "ppo": ppo, "mcpi": mcpi}
ITERATION = 16 * 16
"""Decisions per iteration of the tiny dmc and ppo runs (num_envs x rollout_steps); an mcpi iteration
plays more (its rollouts), a few thousand decisions."""


@pytest.fixture(autouse=True)
def one_thread():
    threads = torch.get_num_threads()
    yield
    torch.set_num_threads(threads)


def tiny_args(module, tmp_path, name, **overrides):
    """Arguments of a run of a few iterations on a tiny network, without evaluations or progress bar."""
    fields = {
        "num_envs": 16, "hidden": (16,), "total_decisions": 4 * ITERATION, "eval_every": 0,
        "save_every": 2 * ITERATION, "progress": False, "run_dir": str(tmp_path / name),
    }
    if module is dmc:
        fields.update(rollout_steps=16, batch_size=64, pool_every=ITERATION)
    elif module is ppo:
        fields.update(rollout_steps=16, minibatch_size=64, update_epochs=2, pool_every=ITERATION)
    else:
        fields.update(probes_per_iteration=16, probe_rate=0.5, rollout_envs=16, batch_size=32, epochs=1,
                      total_decisions=6000, save_every=4000)
    fields.update(overrides)
    return module.Args(**fields)


def network_state(path):
    return build_network(load_checkpoint(path)).state_dict()


def assert_same_weights(first, second):
    assert first.keys() == second.keys()
    for key in first:
        assert torch.equal(first[key], second[key]), f"{key} differs"


def play_one_hand(game, path):
    env = make_env(game)
    agent = make(f"neural[path={path}]", game)
    env.reset(seed=3)
    while not env.terminations[env.agent_selection]:
        action = agent.act(env, env.agent_selection)
        assert env.observe(env.agent_selection)["action_mask"][action] == 1
        env.step(action)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("algo", sorted(ALGORITHMS))
def test_smoke_run_has_finite_losses_and_a_checkpoint_that_round_trips(algo, game, tmp_path):
    module = ALGORITHMS[algo]
    pool = {} if module is mcpi else {"opponent_fraction": 0.5}
    args = tiny_args(module, tmp_path, "run", game=game, seed=5, **pool)
    summary = module.main(args)
    assert summary["decisions"] >= args.total_decisions and summary["updates"] >= 2
    losses = {key: value for key, value in summary["metrics"].items() if key.startswith("losses/")}
    assert losses, "no loss was logged"
    assert all(math.isfinite(value) for value in losses.values()), losses
    checkpoint = load_checkpoint(summary["final"])
    assert (checkpoint["game"], checkpoint["algo"], checkpoint["hidden"]) == (game, algo, [16])
    assert checkpoint["resume"] is None  # final.pt holds the network alone
    resumable = load_checkpoint(args.run_dir + "/checkpoint.pt")
    assert_same_weights(build_network(checkpoint).state_dict(), checkpoint["network"])
    assert_same_weights(build_network(resumable).state_dict(), checkpoint["network"])
    assert resumable["resume"]["optimizer"]["state"], "the optimizer state was not saved"
    play_one_hand(game, summary["final"])


@pytest.mark.parametrize("algo", sorted(ALGORITHMS))
def test_same_seed_gives_the_same_first_updates(algo, tmp_path):
    module = ALGORITHMS[algo]
    runs = [module.main(tiny_args(module, tmp_path, f"run{index}", seed=seed)) for index, seed in enumerate((7, 7, 8))]
    first, again, other = (network_state(run["final"]) for run in runs)
    assert_same_weights(first, again)
    assert any(not torch.equal(first[key], other[key]) for key in first), "another seed changed nothing"


@pytest.mark.parametrize("algo", sorted(ALGORITHMS))
def test_a_resumed_run_continues_where_it_stopped(algo, tmp_path):
    """Stopped at a checkpoint and resumed, a run ends with exactly the weights of the uninterrupted run
    (opponent pool, optimizer, random state and counters restored)."""
    module = ALGORITHMS[algo]
    pool = {} if module is mcpi else {"opponent_fraction": 0.5}
    interrupted = tiny_args(module, tmp_path, "parts", seed=9, **pool)
    interrupted = dataclasses.replace(interrupted, total_decisions=interrupted.save_every)  # stops at a save
    whole = module.main(tiny_args(module, tmp_path, "whole", seed=9, total_decisions=5 * interrupted.save_every // 2,
                                  **pool))
    module.main(interrupted)
    resumed = module.main(dataclasses.replace(
        interrupted, total_decisions=whole["decisions"], resume=interrupted.run_dir + "/checkpoint.pt"
    ))
    assert (resumed["decisions"], resumed["updates"], resumed["segment"]) == (
        whole["decisions"], whole["updates"], whole["segment"]
    )
    assert_same_weights(network_state(whole["final"]), network_state(resumed["final"]))


def test_resume_refuses_another_game_or_a_network_without_resume_state(tmp_path):
    args = tiny_args(dmc, tmp_path, "run", total_decisions=ITERATION)
    summary = dmc.main(args)
    with pytest.raises(ValueError, match="no resume state"):
        dmc.main(dataclasses.replace(args, resume=summary["final"], total_decisions=2 * ITERATION))
    with pytest.raises(ValueError, match="not dmc on palatinate"):
        dmc.main(dataclasses.replace(args, game="palatinate", resume=args.run_dir + "/checkpoint.pt"))


def test_evaluation_inside_training_is_logged(tmp_path):
    args = tiny_args(dmc, tmp_path, "run", total_decisions=2 * ITERATION, eval_every=ITERATION, eval_hands=2,
                     eval_also=["random"])
    summary = dmc.main(args)
    evaluations = load_checkpoint(summary["final"])["training"]["evaluations"]
    assert [e["decisions"] for e in evaluations] == [ITERATION, 2 * ITERATION]
    assert all(e["opponent"] == "rules" and e["hands"] == 2 and math.isfinite(e["units_per_hand"])
               for e in evaluations)
    also = [match for e in evaluations for match in e["also"]]
    assert [m["opponent"] for m in also] == ["random", "random"]
    assert all(m["hands"] == 2 and m["seed"] == args.eval_seed and math.isfinite(m["units_per_hand"]) for m in also)
    logged = Path(args.run_dir, "evaluations.jsonl").read_text().splitlines()
    assert [json.loads(line)["also"][0]["opponent"] for line in logged] == ["random", "random"]


def test_warm_start_imitates_a_teacher_and_starts_dmc(tmp_path):
    args = warm_start.Args(game="bavarian", decisions=400, workers=1, epochs=2, hidden=(16,), batch_size=64,
                           eval_hands=0, progress=False, run_dir=str(tmp_path / "warm"))
    summary = warm_start.main(args)
    data = np.load(tmp_path / "warm" / "teacher_data.npz")
    assert data["action"].size >= 400 and data["teacher"].mean() > 0.8
    assert np.isin(np.unique(data["returns"]), [0]).mean() < 1.0  # hands were settled, not all zero
    masks = data["action_mask"]
    assert masks[np.arange(masks.shape[0]), data["action"]].all(), "a recorded action was illegal"
    assert all(math.isfinite(value) for value in summary["held_out"].values() if value == value)
    followed = dmc.main(tiny_args(dmc, tmp_path, "dmc", hidden=(16,), init_from=summary["final"],
                                  policy_warmup_decisions=ITERATION, total_decisions=2 * ITERATION))
    assert followed["decisions"] == 2 * ITERATION
    with pytest.raises(ValueError, match="not palatinate"):
        dmc.main(tiny_args(dmc, tmp_path, "wrong", game="palatinate", init_from=summary["final"]))


@pytest.mark.parametrize("limit", ["time_limit_minutes", "cpu_limit_minutes"])
def test_a_wall_or_cpu_budget_ends_the_run_and_counts_over_a_resume(limit, tmp_path):
    """``--time-limit-minutes`` / ``--cpu-limit-minutes``: a run stops once its budget is spent, however many
    decisions it had left, with its checkpoint saved; resumed, it counts the minutes already spent and
    stops at once."""
    args = tiny_args(dmc, tmp_path, "run", total_decisions=400 * ITERATION, **{limit: 0.005})  # 0.3 seconds
    spent = dmc.main(args)
    assert ITERATION <= spent["decisions"] < 400 * ITERATION, spent["decisions"]
    resumed = dmc.main(dataclasses.replace(args, resume=args.run_dir + "/checkpoint.pt"))
    assert (resumed["decisions"], resumed["updates"]) == (spent["decisions"], spent["updates"])
