"""The training scripts learn: a short fixed-seed run on a deliberately small configuration must measurably
beat its starting point, so a bug that leaves the losses finite but stops the learning fails here (the
smoke tests of ``tests/neural/test_training.py`` check losses, step counts and checkpoints only).

- PPO and DMC self-play in Knüffeln (every hand is played out, so every decision carries signal; in the
  Schafkopf games an untrained greedy network passes every hand and self-play starts from hands thrown
  in): a 64-unit network trained for 200,000 decisions against the same run stopped after its first
  iteration, in a duplicate arena of 200 deals. Measured: PPO +13.6 [+11.3, +15.9] per hand over 400
  deals, DMC +7.4 [+4.4, +10.3] over 200 (seed 3); with a learning rate of 1e-9 the two networks play
  alike (PPO: a difference of exactly 0) and the test fails.
- The warm start in Bavarian: 30,000 decisions of ``rules`` imitated for 3 epochs must agree with the
  teacher on held-out hands far more often than the untrained network of the same shape does on the same
  data (and than a uniformly random legal choice). Trained on shuffled teacher actions it stays at chance
  and the test fails.
"""

import numpy as np
import pytest
import torch

from agents.arena import run_arena
from agents.neural.network import masked_logits
from agents.neural.training import new_network, seed_everything
from experiments import dmc, ppo, warm_start

SIZES = {
    "ppo": {"minibatch_size": 1024, "update_epochs": 2},
    "dmc": {"batch_size": 1024, "epsilon_decay_decisions": 200_000},
}
"""Small self-play runs: one iteration is 256 hands x 16 steps = 4,096 decisions; no pool, no evaluations."""
COMMON = {"num_envs": 256, "rollout_steps": 16, "hidden": (64,), "learning_rate": 1e-3, "eval_every": 0,
          "save_every": 10**9, "pool_every": 10**9, "opponent_fraction": 0.0, "progress": False}
ALGORITHMS = {"ppo": ppo, "dmc": dmc}


@pytest.fixture(autouse=True)
def one_thread():
    threads = torch.get_num_threads()
    yield
    torch.set_num_threads(threads)


@pytest.mark.parametrize("algo", sorted(ALGORITHMS))
def test_self_play_beats_its_starting_point(algo, tmp_path):
    module = ALGORITHMS[algo]

    def run(total: int, name: str) -> dict:
        return module.main(module.Args(game="knuffeln", seed=3, total_decisions=total, run_dir=str(tmp_path / name),
                                       **COMMON, **SIZES[algo]))

    start, trained = run(1, "start"), run(200_000, "trained")
    assert start["decisions"] == 4096 and trained["decisions"] >= 200_000
    # 400 deals: at 200 the DMC run's gain (+2.53 units per hand) came out with an interval reaching below zero
    match = run_arena("knuffeln", [f"neural[path={trained['final']}]", f"neural[path={start['final']}]"], 400, 11)
    difference = match["difference"]
    assert difference["ci95"][0] > 0, f"the trained network does not beat its start: {difference}"


def agreement(network, data: dict, rows: np.ndarray) -> float:
    """Share of the teacher's decisions with a choice, among ``rows``, that the network's greedy policy makes."""
    with torch.inference_mode():
        observation = torch.from_numpy(network.encode(data["observation"][rows]))
        legal = torch.from_numpy(data["action_mask"][rows])
        chosen = masked_logits(network(observation, "policy"), legal).argmax(1).numpy()
    return float((chosen == data["action"][rows]).mean())


def test_warm_start_imitates_its_teacher(tmp_path):
    args = warm_start.Args(game="bavarian", seed=3, decisions=30_000, epochs=3, workers=1, hidden=(64,),
                           eval_hands=0, progress=False, run_dir=str(tmp_path / "warm"))
    summary = warm_start.main(args)
    data = dict(np.load(tmp_path / "warm" / "teacher_data.npz"))
    choices = np.flatnonzero(data["teacher"] & (data["action_mask"].sum(axis=1) > 1))
    seed_everything(args.seed)
    untrained = agreement(new_network(args.game, {}, args.hidden, args.features), data, choices)
    chance = float(np.mean(1.0 / data["action_mask"][choices].sum(axis=1)))
    trained = summary["held_out"]["accuracy"]
    assert trained > max(untrained, chance) + 0.25, (trained, untrained, chance)
