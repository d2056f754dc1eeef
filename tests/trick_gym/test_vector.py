"""The one-seat vector env: the same hands as the one-seat AEC env, Gymnasium's vector-env contract
(spaces, autoreset modes, info masks, seeding, fresh data), errors."""

from __future__ import annotations

import gymnasium
import numba
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import trick_gym  # noqa: F401  (registers the ids)
from trick_gym.games import make_aec_env
from trick_gym.one_seat import OneSeatEnv
from trick_gym.vector import OneSeatVectorEnv

numba.set_num_threads(1)

CASES = [("bavarian", {}), ("palatinate", {"players": 4}), ("knuffeln", {"players": 5})]


def lowest_legal(observations, masks):
    return np.array([np.flatnonzero(m)[0] for m in masks], dtype=np.int64)


def highest_legal(masks):
    return np.array([np.flatnonzero(m)[-1] for m in masks], dtype=np.int64)


def middle_legal(masks):
    return np.array([np.flatnonzero(m)[m.sum() // 2] for m in masks], dtype=np.int64)


def fixed_deal_states(game, config, count, first_seed=100):
    """Kernel states and reset options of ``count`` AEC deals."""
    table = make_aec_env(game, **config)
    states, deals = [], []
    for seed in range(first_seed, first_seed + count):
        table.reset(seed=seed)
        states.append(table.kernel_state())
        deals.append(table.game_record()["deal"])
    return np.array(states), deals


@pytest.mark.parametrize(("game", "config"), CASES, ids=[g for g, _ in CASES])
@pytest.mark.parametrize("seat", [0, 2])
def test_vector_env_plays_the_same_hands_as_the_one_seat_env(game, config, seat):
    """Deterministic players on fixed deals: the compiled env and the AEC-based one-seat env give the learner
    the same observations, masks and reward, hand by hand."""
    count = 12
    states, deals = fixed_deal_states(game, config, count)
    vector = OneSeatVectorEnv(game, count, opponents=lowest_legal, seat=seat, num_threads=1, seed=0, **config)
    observations, infos = vector.reset(options={"states": states})
    single = OneSeatEnv(game, opponents=lambda o, m: int(np.flatnonzero(m)[0]), seat=seat, **config)
    expected = []
    for deal in deals:
        try:
            observation, info = single.reset(options={"deal": deal})
        except ValueError as error:  # the learner takes no decision in this deal: the vector env skips it
            assert "takes no decision" in str(error)
            expected.append(None)
            continue
        trajectory, done = [(observation, info["action_mask"])], False
        while not done:
            observation, reward, done, _, info = single.step(int(middle_legal(info["action_mask"][None])[0]))
            trajectory.append((observation, info["action_mask"], reward, done))
        expected.append(trajectory)
    compared = 0
    for row, trajectory in enumerate(expected):
        if trajectory is None:
            assert vector.hands_skipped()[row] >= 1
    live = [row for row, t in enumerate(expected) if t is not None]
    position = dict.fromkeys(live, 0)
    for row in live:
        np.testing.assert_array_equal(observations[row], expected[row][0][0])
        np.testing.assert_array_equal(infos["action_mask"][row], expected[row][0][1])
    finished = set()
    while len(finished) < len(live):
        observations, rewards, terminated, _, infos = vector.step(middle_legal(infos["action_mask"]))
        for row in live:
            if row in finished:
                continue
            position[row] += 1
            observation, mask, reward, done = expected[row][position[row]]
            assert rewards[row] == pytest.approx(reward) and terminated[row] == done
            if done:
                np.testing.assert_array_equal(infos["final_obs"][row], observation)
                finished.add(row)
            else:
                np.testing.assert_array_equal(observations[row], observation)
                np.testing.assert_array_equal(infos["action_mask"][row], mask)
            compared += 1
    assert compared > 3 * len(live)


def run_random(env, steps, seed):
    rng = np.random.default_rng(seed)
    observations, infos = env.reset(seed=seed)
    log = [(observations, infos)]
    for _ in range(steps):
        masks = infos["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        log.append(env.step(actions))
        infos = log[-1][-1]
    return log


def test_random_opponents_reward_and_settlement_agree_and_every_observation_has_a_decision():
    env = OneSeatVectorEnv("bavarian", 64, seat="random", num_threads=1)
    log = run_random(env, 60, seed=3)
    endings = 0
    for observations, rewards, terminated, truncated, infos in log[1:]:
        assert observations in env.observation_space and not truncated.any()
        assert infos["action_mask"].any(axis=1).all()  # same-step autoreset: the learner always acts next
        if terminated.any():
            rows = np.flatnonzero(terminated)
            settlement = infos["settlement"][rows]
            np.testing.assert_allclose(settlement.sum(axis=1), 0.0, atol=1e-4)
            final_seats = infos["final_info"]["seat"][rows]
            np.testing.assert_allclose(rewards[rows], settlement[np.arange(rows.size), final_seats])
            assert (infos["_final_obs"] == terminated).all()
            assert infos["final_obs"][rows[0]].shape == (env.batch.obs_size,)
            endings += rows.size
        assert (rewards[~terminated] == 0).all()
    assert endings > 100
    assert set(log[-1][-1]["seat"]) == {0, 1, 2, 3}


def test_seeding_is_reproducible_and_independent_of_threads():
    first = run_random(OneSeatVectorEnv("bavarian", 300, num_threads=1), 25, seed=7)
    second = run_random(OneSeatVectorEnv("bavarian", 300, num_threads=2), 25, seed=7)
    assert any(step[2].any() for step in first[1:]), "no hand ended: the comparison would miss the resets"
    for a, b in zip(first, second, strict=True):  # (observations, infos) or the five outputs of step
        assert_same(a, b)


def assert_same(one, other, where="outputs") -> None:
    """Equal outputs, infos included: arrays, the object arrays of final observations, nested dicts."""
    if isinstance(one, dict):
        assert sorted(one) == sorted(other), where
        for key in one:
            assert_same(one[key], other[key], f"{where}[{key!r}]")
    elif isinstance(one, (tuple, list)) or (isinstance(one, np.ndarray) and one.dtype == object):
        assert len(one) == len(other), where
        for index, (a, b) in enumerate(zip(one, other, strict=True)):
            assert_same(a, b, f"{where}[{index}]")
    else:
        np.testing.assert_array_equal(one, other, err_msg=where)


def test_a_list_seed_seeds_each_row_from_its_own_entry_and_bad_seeds_are_named():
    """Gymnasium's vector convention: one seed per row, which alone fixes that row's deals, random opponents
    and drawn seats (whatever the other rows and ``num_envs``)."""
    four = OneSeatVectorEnv("bavarian", 4, seat="random", num_threads=1)
    two = OneSeatVectorEnv("bavarian", 2, seat="random", num_threads=1, seed=[3, 9])
    observations, infos = four.reset(seed=[1, 2, 3, 4])
    others, other_infos = two.reset(seed=[3, 9])
    for _ in range(30):
        np.testing.assert_array_equal(observations[2], others[0])
        assert infos["seat"][2] == other_infos["seat"][0]
        observations, rewards, _, _, infos = four.step(middle_legal(infos["action_mask"]))
        others, other_rewards, _, _, other_infos = two.step(middle_legal(other_infos["action_mask"]))
        assert rewards[2] == other_rewards[0]
    for seed, message in [([1, 2], "expected 4 entries, got 2"), (-1, "seed must be"), ("a", "seed must be"),
                          ([0, 1, 2, 1.5], "every entry of a list seed")]:
        with pytest.raises(ValueError, match=message):
            four.reset(seed=seed)
        with pytest.raises(ValueError, match=message):
            OneSeatVectorEnv("bavarian", 4, num_threads=1, seed=seed)


def test_next_step_autoreset_returns_the_final_observation_then_resets():
    same = OneSeatVectorEnv("bavarian", 16, num_threads=1, seed=0)
    following = OneSeatVectorEnv("bavarian", 16, num_threads=1, seed=0, autoreset_mode="NextStep")
    assert following.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    same_obs, same_infos = same.reset(seed=1)
    next_obs, next_infos = following.reset(seed=1)
    # Play the same learner policy; in next-step mode every ended row costs one extra (ignored) step.
    same_rewards, next_rewards = [], []
    for _ in range(40):
        same_obs, r, term, _, same_infos = same.step(highest_legal(same_infos["action_mask"]))
        same_rewards.append((r, term, same_infos.get("final_obs")))
    waiting = np.zeros(16, dtype=bool)
    pending_final = {}
    steps = 0
    while steps < 200 and len(next_rewards) < 40 * 16:
        actions = np.where(waiting, -1, 0)
        live = ~waiting
        actions[live] = highest_legal(next_infos["action_mask"][live]) if live.any() else actions[live]
        next_obs, r, term, _, next_infos = following.step(actions)
        assert (r[waiting] == 0).all() and not term[waiting].any()
        assert next_infos["action_mask"][waiting].any(axis=1).all()  # reset rows have a decision again
        for row in np.flatnonzero(term):
            assert not next_infos["action_mask"][row].any()
            pending_final[row] = pending_final.get(row, []) + [(r[row], next_obs[row].copy())]
        waiting = term
        steps += 1
    for row in range(16):
        ends = [(r[row], final[row]) for r, term, final in same_rewards if term[row]]
        got = pending_final.get(row, [])
        for (reward_same, final_same), (reward_next, final_next) in zip(ends, got, strict=False):
            assert reward_same == reward_next
            np.testing.assert_array_equal(final_same, final_next)
        assert len(got) >= min(len(ends), 2)


def test_returned_data_is_fresh_and_dict_mode_matches_spaces():
    env = OneSeatVectorEnv("bavarian", 8, observation_mode="dict", num_threads=1)
    first, first_infos = env.reset(seed=0)
    second, second_infos = env.step(highest_legal(first_infos["action_mask"]))[::4]
    assert first in env.observation_space and second in env.observation_space
    assert not np.shares_memory(first["observations"], second["observations"])
    assert not np.shares_memory(first_infos["action_mask"], second_infos["action_mask"])
    np.testing.assert_array_equal(second["action_mask"].astype(bool), second_infos["action_mask"])
    assert env.single_observation_space == gymnasium.spaces.Dict(
        {"observations": env.batch.single_observation_space["observation"],
         "action_mask": env.batch.single_observation_space["action_mask"]}
    )
    assert env.action_space == gymnasium.spaces.MultiDiscrete(np.full(8, env.batch.num_actions))


def test_make_vec_builds_it_from_the_registered_id():
    envs = gymnasium.make_vec("Knuffeln-v0", num_envs=4, vectorization_mode="vector_entry_point", talk="lexicon")
    assert isinstance(envs.unwrapped, OneSeatVectorEnv) and envs.unwrapped.batch.config["talk"] == "lexicon"
    observations, infos = envs.reset(seed=0)
    assert observations.shape == (4, envs.unwrapped.batch.obs_size)
    wrapped = gymnasium.wrappers.vector.RecordEpisodeStatistics(
        OneSeatVectorEnv("bavarian", 4, num_threads=1, autoreset_mode=AutoresetMode.NEXT_STEP)
    )
    wrapped.reset(seed=0)


def test_errors_are_named():
    env = OneSeatVectorEnv("bavarian", 4, num_threads=1)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros(4, dtype=np.int64))
    _, infos = env.reset(seed=0)
    illegal = np.array([np.flatnonzero(~m)[0] for m in infos["action_mask"]])
    one_illegal = np.array([np.flatnonzero(m)[0] for m in infos["action_mask"]])
    one_illegal[2] = illegal[2]
    with pytest.raises(ValueError, match=r"illegal action .* in row 2 for the learner player_\d; legal there"):
        env.step(one_illegal)
    with pytest.raises(ValueError, match=r"illegal actions in 4 rows: ") as every_row:
        env.step(illegal)
    assert all(f"in row {row} for the learner" in str(every_row.value) for row in range(4))
    with pytest.raises(ValueError, match="shape"):
        env.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="integer"):
        env.step(np.zeros(4))
    with pytest.raises(ValueError, match="match=True"):
        OneSeatVectorEnv("knuffeln", 4, match=True)
    with pytest.raises(ValueError, match="one-seat env"):
        OneSeatVectorEnv("bavarian", 4, opponents="rules")
    with pytest.raises(ValueError, match="autoreset_mode"):
        OneSeatVectorEnv("bavarian", 4, autoreset_mode="Disabled")
    bad_policy = OneSeatVectorEnv("bavarian", 4, opponents=lambda o, m: np.full(len(m), 45), num_threads=1, seat=3)
    every_bad_row = r"opponent policy chose illegal actions in 2 rows: action 45 \(trump:S\) in row 2 for player_1"
    with pytest.raises(ValueError, match=every_bad_row):
        bad_policy.reset(seed=0)
    short_policy = OneSeatVectorEnv("bavarian", 4, opponents=lambda o, m: np.zeros(1, np.int64), seat=3)
    with pytest.raises(ValueError, match="one integer action per row"):
        short_policy.reset(seed=0)
