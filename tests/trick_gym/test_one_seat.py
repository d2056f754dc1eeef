"""The one-seat Gymnasium env: Gymnasium's check_env on every variant, reward credit, opponents, seats."""

from __future__ import annotations

import subprocess
import sys
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import trick_gym
from trick_core.aec import IllegalActionError
from trick_core.registry import VARIANTS, variant_id
from trick_gym.one_seat import OneSeatEnv
from trick_gym.penalties import worst_settlement


def play_episode(env, rng, seed=None):
    """Random legal learner moves; return (rewards, infos) of the episode."""
    _, info = env.reset(seed=seed)
    rewards, infos = [], [info]
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, done, truncated, info = env.step(action)
        assert not truncated
        rewards.append(reward)
        infos.append(info)
    return rewards, infos


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=[variant_id(g, c) for g, c in VARIANTS])
def test_gymnasium_check_env_passes_for_every_variant(game, config):
    env = gymnasium.make(trick_gym.GYM_IDS[game], **config)  # illegal moves end the episode by default
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the checker's unmasked random moves log the illegal-move warning
        check_env(env, skip_render_check=True)


@pytest.mark.parametrize("options", [{"observation_mode": "dict"}, {"seat": "random", "opponents": "rules"}])
def test_check_env_passes_with_dict_observations_random_seats_and_rules(options):
    env = gymnasium.make("Bavarian-v0", **options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env)


def test_registered_ids_and_variants_through_kwargs():
    assert set(trick_gym.GYM_IDS.values()) <= set(gymnasium.registry)
    env = gymnasium.make("Knuffeln-v0", variant="hattstedt", talk="tokens:4")
    assert env.unwrapped.config["variant"] == "hattstedt" and env.unwrapped.config["talk"] == "tokens:4"
    assert isinstance(env.observation_space, gymnasium.spaces.Box)
    with pytest.raises(ValueError, match="unknown option"):
        gymnasium.make("Bavarian-v0", no_such_rule=1)


def test_module_prefixed_id_needs_no_import():
    code = (
        "import gymnasium; env = gymnasium.make('trick_gym:Palatinate-v0', players=4); "
        "print(env.reset(seed=0)[0].shape)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().startswith("(")


@pytest.mark.parametrize("gym_id", ["Bavarian-v0", "Palatinate-v0", "Asserufen-v0", "Knuffeln-v0"])
def test_reward_is_the_learners_own_settlement(gym_id):
    rng = np.random.default_rng(0)
    env = gymnasium.make(gym_id, seat="random", opponents="random")
    last_movers_other_than_learner = 0
    for episode in range(40):
        rewards, infos = play_episode(env, rng, seed=episode)
        record = env.unwrapped.aec_env.game_record()
        seat = infos[-1]["seat"]
        assert all(reward == 0.0 for reward in rewards[:-1])
        assert rewards[-1] == pytest.approx(record["result"][seat])
        assert infos[-1]["result"] == record["result"]
        last_movers_other_than_learner += record["actions"][-1][0] != f"player_{seat}"
    # The learner is credited even in hands it did not end (the trap of crediting only the last mover).
    assert last_movers_other_than_learner > 0


def test_fixed_seat_and_per_hand_seats_are_reproducible():
    env = OneSeatEnv("bavarian", seat="random")
    seats = [env.reset(seed=s)[1]["seat"] for s in range(30)]
    assert set(seats) == {0, 1, 2, 3}
    assert seats == [env.reset(seed=s)[1]["seat"] for s in range(30)]
    fixed = OneSeatEnv("bavarian", seat=2)
    assert {fixed.reset(seed=s)[1]["seat"] for s in range(10)} == {2}


def test_hands_without_a_learner_decision_are_skipped():
    env = OneSeatEnv("palatinate", players=4, seat=1)
    rng = np.random.default_rng(1)
    skipped = 0
    for episode in range(40):
        _, info = env.reset(seed=episode)
        skipped += info["hands_skipped"]
        assert info["action_mask"].any()
        rewards, _ = play_episode(env, rng, seed=episode)
    assert skipped > 0  # seat 1 deals (and sits out) about one hand in four


def test_illegal_action_terminates_by_default_with_the_worst_settlement_and_can_raise():
    env = OneSeatEnv("bavarian")
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    with pytest.warns(UserWarning, match="illegal action"):
        _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (worst_settlement("bavarian", {}), True, True)
    assert reward == -114.0  # a lost Solo Tout with 14 Laufende: 3 x (10 + 2 x 14)
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)
    raising = OneSeatEnv("bavarian", illegal_action="raise")
    raising.reset(seed=0)
    with pytest.raises(IllegalActionError, match="illegal_action='terminate'"):
        raising.step(illegal)
    with pytest.raises(IllegalActionError, match="out of range"):
        raising.step(99)
    terminating = OneSeatEnv("bavarian", illegal_reward=-5.0)
    terminating.reset(seed=0)
    with pytest.warns(UserWarning, match="illegal action"):
        _, reward, terminated, _, info = terminating.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-5.0, True, True)


@pytest.mark.parametrize("reward", [float("nan"), float("inf"), "-1", True])
def test_illegal_reward_must_be_a_finite_number(reward):
    with pytest.raises(ValueError, match="illegal_reward must be a finite number"):
        OneSeatEnv("bavarian", illegal_action="terminate", illegal_reward=reward)


@pytest.mark.parametrize("illegal_action", ["raise", "terminate"])
def test_an_action_that_is_not_an_integer_is_a_type_error_in_either_mode(illegal_action):
    env = gymnasium.make("Bavarian-v0", illegal_action=illegal_action)
    _, info = env.reset(seed=0)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    for action, says in [(float(legal), f"got float {float(legal)}"), (np.array([legal]), r"array of shape \(1,\)"),
                         (True, "got bool True"), (str(legal), "got str")]:
        with pytest.raises(TypeError, match=f"action must be an integer index.*{says}"):
            env.step(action)
    _, _, _, _, info = env.step(np.array(legal))  # a 0-d integer array is an index
    assert "illegal_action" not in info


def test_opponent_forms_and_errors():
    import agents

    seen = []

    def lowest_legal(observation, action_mask):
        seen.append((observation.shape, action_mask.copy()))
        return int(np.flatnonzero(action_mask)[0])

    mixed = OneSeatEnv("bavarian", opponents=["rules", agents.make("random", "bavarian"), lowest_legal])
    assert [o.name for o in mixed.opponents] == ["rules", "random", "lowest_legal"]
    play_episode(mixed, np.random.default_rng(0), seed=3)
    assert seen and all(shape == (385,) and mask.any() for shape, mask in seen)
    with pytest.raises(ValueError, match="one player per other seat"):
        OneSeatEnv("bavarian", opponents=["random", "random"])
    with pytest.raises(ValueError, match="an opponent must be"):
        OneSeatEnv("bavarian", opponents=3)
    with pytest.raises(ValueError, match="unknown agent"):
        OneSeatEnv("bavarian", opponents="no_such_agent")
    with pytest.raises(ValueError, match="seat must be"):
        OneSeatEnv("bavarian", seat=4)


def test_an_illegal_opponent_callable_is_named():
    env = OneSeatEnv("bavarian", seat=3, opponents=lambda observation, mask: 45)
    with pytest.raises(ValueError, match="illegal action 45"):
        env.reset(seed=0)


def test_dict_observations_and_fixed_deals():
    table = OneSeatEnv("bavarian").aec_env
    table.reset(seed=5)
    deal = table.game_record()["deal"]
    env = OneSeatEnv("bavarian", observation_mode="dict", seat=deal["dealer"] + 1 if deal["dealer"] < 3 else 0)
    observation, info = env.reset(options={"deal": deal})
    assert set(observation) == {"observations", "action_mask"}
    assert observation in env.observation_space
    np.testing.assert_array_equal(observation["action_mask"].astype(bool), info["action_mask"])
    learner = f"player_{info['seat']}"
    hand = sorted(env.aec_env.state()["hands"][learner])
    assert hand == sorted(deal["hands"][learner])
    with pytest.raises(ValueError, match="unknown reset option"):
        env.reset(options={"dealer": 0})
