"""Stable-Baselines3's own ways in: ``make_vec_env`` and an algorithm built from the registered id (SB3's
``render_mode="rgb_array"`` probe), and ``trick_gym.sb3.SB3VecEnv``'s contract (actions, options, spaces,
autoreset). Skips, saying which extra to install, when SB3 is absent."""

from __future__ import annotations

import numpy as np
import pytest

import trick_gym  # noqa: F401  (registers the ids)


def require(module: str):
    return pytest.importorskip(module, reason=f"{module} is not installed: pip install -e '.[sb3]'")


@pytest.fixture(autouse=True)
def sb3_logs_in_tmp_path(tmp_path, monkeypatch):
    """SB3's logger opens a folder on every ``learn`` (see ``test_rl_recipes``); here pytest's ``tmp_path``."""
    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path / "sb3-logs"))


@pytest.fixture()
def sb3_vec_env():
    require("stable_baselines3")
    from trick_gym.sb3 import SB3VecEnv

    env = SB3VecEnv("bavarian", num_envs=4, num_threads=1, seed=0)
    yield env
    env.close()


# ------------------------------------------------------------------------- SB3's standard workflow


@pytest.mark.filterwarnings("ignore:.*render_mode='rgb_array'")  # Gymnasium warns before SB3 falls back
def test_make_vec_env_builds_the_registered_id():
    require("stable_baselines3")
    from stable_baselines3.common.env_util import make_vec_env

    envs = make_vec_env("Bavarian-v0", n_envs=2, seed=0)
    observations = envs.reset()
    assert observations.shape == (2, envs.observation_space.shape[0]) and envs.render_mode is None
    masks = np.stack(envs.env_method("action_masks"))
    envs.step(np.array([np.flatnonzero(mask)[0] for mask in masks]))
    envs.close()


@pytest.mark.filterwarnings("ignore:.*render_mode='rgb_array'")
def test_maskable_ppo_learns_from_the_registered_id():
    require("sb3_contrib")
    from sb3_contrib import MaskablePPO

    model = MaskablePPO("MlpPolicy", "Bavarian-v0", n_steps=32, batch_size=32, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=64)
    assert model.num_timesteps >= 64


# ------------------------------------------------------------------------------ SB3VecEnv's contract


def test_sb3_vec_env_rejects_float_actions_instead_of_truncating_them(sb3_vec_env):
    sb3_vec_env.reset()
    states = sb3_vec_env.env.batch.kernel_states()
    with pytest.raises(TypeError, match="integer"):
        sb3_vec_env.step(np.full(4, 32.9))
    np.testing.assert_array_equal(sb3_vec_env.env.batch.kernel_states(), states)


def test_sb3_vec_env_names_the_expected_and_given_number_of_actions(sb3_vec_env):
    sb3_vec_env.reset()
    with pytest.raises(ValueError, match=r"expected 4 actions.*shape \(3,\)"):
        sb3_vec_env.step(np.zeros(3, dtype=np.int64))
    masks = np.stack(sb3_vec_env.env_method("action_masks"))
    column = np.array([[np.flatnonzero(mask)[0]] for mask in masks])  # (n, 1) is one action per env too
    sb3_vec_env.step(column)


def test_sb3_vec_env_get_attr_returns_per_row_spaces(sb3_vec_env):
    spaces = sb3_vec_env.get_attr("observation_space")
    assert len(spaces) == 4 and all(space == sb3_vec_env.observation_space for space in spaces)
    assert sb3_vec_env.get_attr("action_space", indices=[1]) == [sb3_vec_env.action_space]


def test_sb3_vec_env_honours_set_options_on_the_next_reset_only(sb3_vec_env):
    from trick_gym.games import make_aec_env

    table = make_aec_env("bavarian")
    states = []
    for seed in range(4):
        table.reset(seed=100 + seed)
        states.append(table.kernel_state())
    sb3_vec_env.seed(0)  # the random opponents' moves before the learner's first decision
    sb3_vec_env.set_options({"states": np.stack(states)})
    given = sb3_vec_env.reset()
    sb3_vec_env.seed(0)
    sb3_vec_env.set_options({"states": np.stack(states)})
    np.testing.assert_array_equal(sb3_vec_env.reset(), given)  # the given hands again
    sb3_vec_env.seed(0)
    assert not (sb3_vec_env.reset() == given).all()  # options serve one reset: random hands now
    sb3_vec_env.set_options({"colour": "red"})
    with pytest.raises(ValueError, match="colour"):
        sb3_vec_env.reset()
    with pytest.raises(NotImplementedError, match="per-row options"):
        sb3_vec_env.set_options([{"states": states[0]}, {}, {}, {}])


def test_sb3_vec_env_refuses_an_autoreset_mode_it_cannot_honour():
    require("stable_baselines3")
    from gymnasium.vector import AutoresetMode

    from trick_gym.sb3 import SB3VecEnv

    with pytest.raises(ValueError, match="same-step"):
        SB3VecEnv("bavarian", 2, num_threads=1, autoreset_mode=AutoresetMode.NEXT_STEP)
    env = SB3VecEnv("bavarian", 2, num_threads=1, autoreset_mode="SameStep")
    assert env.env.autoreset_mode is AutoresetMode.SAME_STEP
