"""Smoke tests of the RL-library recipes in ``experiments/`` (a few hundred steps each). Each skips, saying
which extra to install, when its library is absent; CI installs SB3 and TorchRL."""

from __future__ import annotations

import numpy as np
import pytest

from trick_gym.pettingzoo import LearnerSeatTable


def require(module: str, extra: str):
    return pytest.importorskip(module, reason=f"{module} is not installed: pip install -e '.[{extra}]'")


@pytest.fixture(autouse=True)
def sb3_logs_in_tmp_path(tmp_path, monkeypatch):
    """SB3's logger opens a folder even when it writes nothing: ``$SB3_LOGDIR``, else a new ``SB3-<date>``
    in the system's temporary folder on every ``learn``; here pytest's ``tmp_path``."""
    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path / "sb3-logs"))


# ------------------------------------------------------------------------------------------------ SB3


def test_sb3_maskable_ppo_trains_on_the_vector_env_and_enters_the_arena(tmp_path):
    require("sb3_contrib", "sb3")
    from agents.arena import run_arena
    from experiments import sb3_maskable_ppo as recipe

    path = tmp_path / "model.zip"
    summary = recipe.train(
        recipe.Args(total_timesteps=512, num_envs=8, n_steps=64, batch_size=128, hidden=32, save_path=str(path))
    )
    assert summary["timesteps"] >= 512 and path.exists()
    assert not (tmp_path / "sb3-logs").exists(), "the recipe's silent logger opens no folder"
    plugin = f"experiments.sb3_maskable_ppo:make_agent[model_path={path}]"
    result = run_arena("bavarian", [plugin, "random"], 2, 0)
    assert result["hands"] == 2 and len(result["agents"]) == 2
    for game in ("palatinate", "knuffeln"):  # another game's table: refused before a deal, naming both shapes
        with pytest.raises(ValueError, match=r"trained on a table with observation \(385,\) and 46 actions"):
            run_arena(game, [plugin, "random"], 2, 0)


def test_sb3_maskable_ppo_trains_on_one_seat_envs_with_rule_opponents():
    require("sb3_contrib", "sb3")
    from experiments import sb3_maskable_ppo as recipe

    summary = recipe.train(
        recipe.Args(
            env="single", opponents="rules", num_envs=2, total_timesteps=256, n_steps=64, batch_size=64, hidden=32,
            save_path="",
        )
    )
    assert summary["timesteps"] >= 256


def test_a_saved_model_plays_as_a_frozen_batched_opponent(tmp_path):
    require("sb3_contrib", "sb3")
    from experiments import sb3_maskable_ppo as recipe
    from trick_gym.vector import OneSeatVectorEnv

    path = tmp_path / "model.zip"
    recipe.train(
        recipe.Args(total_timesteps=256, num_envs=4, n_steps=64, batch_size=64, hidden=16, save_path=str(path))
    )
    env = OneSeatVectorEnv("bavarian", 8, opponents=recipe.frozen_policy(str(path)), num_threads=1, seed=0)
    _, infos = env.reset(seed=0)
    for _ in range(20):
        actions = np.array([np.flatnonzero(mask)[0] for mask in infos["action_mask"]])
        _, _, _, _, infos = env.step(actions)
    assert infos["action_mask"].any(axis=1).all()


def test_sb3_check_env_passes_on_the_one_seat_env():
    require("stable_baselines3", "sb3")
    from stable_baselines3.common.env_checker import check_env

    from trick_gym.one_seat import OneSeatEnv

    # the checker's unmasked random moves end episodes as illegal: the env's own warning, not any other
    with pytest.warns(UserWarning, match=r"asserufen: illegal action \d+ .* for the learner .*Ending the episode"):
        check_env(OneSeatEnv("asserufen", illegal_action="terminate"), warn=False)


@pytest.mark.parametrize("recipe_name, extra, options, complaint", [
    ("sb3_maskable_ppo", "sb3", {"total_timesteps": 0, "save_path": ""}, "total_timesteps must be a positive integer"),
    ("sb3_maskable_ppo", "sb3", {"seat": "north", "total_timesteps": 8, "save_path": ""},
     "seat must be 'random' or a seat number, got 'north'"),
    ("tianshou_pettingzoo", "tianshou", {"epochs": 0, "progress": False}, "epochs must be a positive integer"),
])
def test_a_one_seat_recipe_names_an_option_that_would_train_nothing(recipe_name, extra, options, complaint):
    require({"sb3": "sb3_contrib"}.get(extra, extra), extra)
    import importlib

    recipe = importlib.import_module(f"experiments.{recipe_name}")
    with pytest.raises(ValueError, match=complaint):
        recipe.train(recipe.Args(**options))


# ------------------------------------------------------------------------------------------------ TorchRL


def test_torchrl_pettingzoo_wrapper_with_a_masked_policy_trains():
    require("torchrl", "torchrl")
    from experiments import torchrl_pettingzoo as recipe

    summary = recipe.train(recipe.Args(episodes=8, episodes_per_update=4, hidden=32))
    assert summary["env_steps"] > 8 and np.isfinite(summary["last_loss"])


@pytest.mark.parametrize("episodes, per_update, complaint", [
    (2, 8, r"episodes \(2\) must be at least episodes_per_update \(8\)"),
    (0, 8, "episodes must be a positive integer"),
    (8, 0, "episodes_per_update must be a positive integer"),
])
def test_torchrl_refuses_a_run_that_would_train_on_nothing(episodes, per_update, complaint):
    require("torchrl", "torchrl")
    from experiments import torchrl_pettingzoo as recipe

    with pytest.raises(ValueError, match=complaint):
        recipe.train(recipe.Args(episodes=episodes, episodes_per_update=per_update, hidden=8))


def test_torchrl_masked_policy_only_picks_legal_actions_and_credits_each_seat():
    require("torchrl", "torchrl")
    import torch

    from experiments import torchrl_pettingzoo as recipe

    env = recipe.make_env("palatinate", seed=0)
    policy, _ = recipe.make_policy(env, 16)
    with torch.no_grad():
        rollout = env.rollout(max_steps=1000, policy=policy, break_when_any_done=True)
    groups = list(env.group_map)
    for group in groups:
        acted = rollout[group, "mask"].reshape(-1)
        actions = rollout[group, "action"].reshape(-1)
        legal = rollout[group, "action_mask"].reshape(acted.shape[0], -1)
        assert legal[acted, actions[acted]].all()
    returns = [float(rollout["next", group, "reward"].sum()) for group in groups]
    assert sum(returns) == pytest.approx(0.0, abs=1e-5)
    # The loss weighs each seat's log-probabilities by that seat's own return only.
    rollout[groups[0], "log_prob"] = torch.zeros_like(rollout[groups[0], "log_prob"])
    acted_log_probs = [rollout[g, "log_prob"].reshape(-1)[rollout[g, "mask"].reshape(-1)].sum() for g in groups]
    expected = -sum(r * float(lp) for r, lp in zip(returns, acted_log_probs, strict=True))
    assert float(recipe.seat_loss(rollout, groups)) == pytest.approx(expected, rel=1e-5, abs=1e-5)


# ------------------------------------------------------------------------------------------------ Tianshou


def test_tianshou_pettingzoo_multi_agent_setup_trains():
    require("tianshou", "tianshou")
    from experiments import tianshou_pettingzoo as recipe

    summary = recipe.train(
        recipe.Args(epochs=1, epoch_num_steps=100, num_train_envs=2, num_test_envs=1, test_episodes=4, progress=False)
    )
    assert summary["env_steps"] >= 100 and np.isfinite(summary["test_mean_units_per_hand"])


def test_learner_seat_table_passes_pettingzoo_api_test():
    from pettingzoo.test import api_test

    api_test(LearnerSeatTable("bavarian", opponents="rules"), num_cycles=50)


def test_learner_seat_table_rewards_are_the_learners_settlement():
    table = LearnerSeatTable("knuffeln", seat="random")
    rng = np.random.default_rng(0)
    for seed in range(10):
        table.reset(seed=seed)
        total = 0.0
        while not table.terminations["learner"]:
            observation, reward, *_ = table.last()
            table.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            total += table.rewards["learner"]
        record = table.one_seat.aec_env.game_record()
        assert total == pytest.approx(record["result"][table.infos["learner"]["seat"]])


# ------------------------------------------------------------------------------------------------ RLlib


def test_rllib_pettingzoo_with_action_masking_trains():
    require("ray.rllib", "rllib")
    from experiments import rllib_pettingzoo as recipe

    summary = recipe.train(recipe.Args(iterations=1, train_batch_size=256, minibatch_size=64))
    assert summary["env_steps"] >= 256
