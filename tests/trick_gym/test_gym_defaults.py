"""Every registered id as ``gymnasium.make(id)`` returns it, with no options: the standard checkers
(Gymnasium's and SB3's ``check_env``) pass, and ``action_masks()`` works on the made env."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest

import trick_gym
from trick_gym.one_seat import OneSeatEnv

IDS = sorted(trick_gym.GYM_IDS.values())


def checked_quietly(check, env) -> None:
    """Run a checker; its unmasked random moves log the illegal-move warning, any other warning fails."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", message=".*illegal action")
        check(env)


@pytest.mark.parametrize("gym_id", IDS)
def test_gymnasium_check_env_passes_with_the_defaults(gym_id):
    from gymnasium.utils.env_checker import check_env

    checked_quietly(check_env, gymnasium.make(gym_id))


@pytest.mark.parametrize("gym_id", IDS)
def test_sb3_check_env_passes_with_the_defaults(gym_id):
    env_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    checked_quietly(lambda env: env_checker.check_env(env, warn=True), gymnasium.make(gym_id))


@pytest.mark.parametrize("gym_id", IDS)
def test_action_masks_work_on_the_made_env(gym_id):
    env = gymnasium.make(gym_id)
    assert type(env) is OneSeatEnv  # no wrapper hides its methods
    _, info = env.reset(seed=3)
    masks = env.action_masks()
    assert masks.dtype == bool and masks.any()
    np.testing.assert_array_equal(masks, info["action_mask"])
    _, _, _, _, info = env.step(int(np.flatnonzero(masks)[0]))
    np.testing.assert_array_equal(env.action_masks(), info["action_mask"])


def test_the_env_still_enforces_reset_before_step_without_gymnasiums_wrapper():
    env = gymnasium.make("Bavarian-v0")
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_under_a_wrapper_the_illegal_move_message_names_the_unwrapped_masks():
    env = gymnasium.wrappers.TimeLimit(gymnasium.make("Bavarian-v0", illegal_action="raise"), 100)
    _, info = env.reset(seed=0)
    with pytest.raises(AttributeError):
        env.action_masks()  # Gymnasium 1.x wrappers forward no attributes ...
    np.testing.assert_array_equal(env.unwrapped.action_masks(), info["action_mask"])  # ... the message's way
    with pytest.raises(ValueError, match=r"env\.unwrapped\.action_masks\(\)"):
        env.step(int(np.flatnonzero(~info["action_mask"])[0]))
