"""The batched envs (``schafkopf_env.batch``, ``knuffeln_env.batch``) against the PettingZoo envs.

The central test plays every game and configuration side by side: each row of a batch and its own AEC
env hold the same deal (the AEC env's kernel state is loaded into the row), both take the same actions,
and at every step the observation, action mask, seat to act and rewards must be identical — also every
seat's view (``observe_all``) and the settlement at the end of each hand. When a hand ends the AEC env
deals the next hand from its own seed and that deal is loaded into the row, so each row plays several
hands. Further tests pin auto-reset (a new hand from the row's own stream), seeding, thread
independence, the compiled random-hand driver, and the errors.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

from trick_core import batch_loops
from trick_core.bits import make_rng
from trick_core.drivers import compiled as compiled_drivers
from trick_core.registry import VARIANTS, game_spec

EXTRA_CONFIGS = [("palatinate", {"max_doublings": 1}), ("knuffeln", {"talk": "tokens:8", "players": 5})]
"""Configurations beyond the registry's variants: a low doubling cap, and a large vocabulary at five seats."""
CONFIGS = [*VARIANTS, *(item for item in EXTRA_CONFIGS if item not in VARIANTS)]
"""Every variant of the registry (a new one is tested here as soon as it is registered), and the extras."""
OBSERVATION_TYPES = ("observation", "information_state", "perfect")
ALL_THREADS = numba.config.NUMBA_NUM_THREADS
"""Given explicitly, so that small test batches run the threaded loop too (None would run them serially)."""
ROWS = 6


def config_id(item) -> str:
    game, config = item
    return game + "".join(f"-{k}={v}" for k, v in config.items())


def make_batch(game: str, num_envs: int, **kwargs):
    """A batch env; serial unless ``num_threads`` is given (each compiled variant costs seconds to build
    on a cold numba cache, so the threaded one is built only where threads are under test)."""
    kwargs.setdefault("num_threads", 1)
    return game_spec(game).make_batch_env(num_envs, **kwargs)


def make_aec(game: str, **kwargs):
    return game_spec(game).make_env(**kwargs)


def kernel_of(game: str):
    return game_spec(game).kernel()


def assert_rows_match(envs, out, batch) -> None:
    views = batch.observe_all()
    for row, env in enumerate(envs):
        agent = env.agent_selection
        seat = env.unwrapped.agent_name_mapping[agent]
        view = env.observe(agent)
        assert out.current_player[row] == seat, f"row {row}: seat"
        np.testing.assert_array_equal(out.observation[row], view["observation"], err_msg=f"row {row}")
        np.testing.assert_array_equal(out.action_mask[row], view["action_mask"], err_msg=f"row {row}")
        for other, name in enumerate(env.possible_agents):
            np.testing.assert_array_equal(views[row, other], env.observe(name)["observation"])


@pytest.mark.parametrize("observation_type", OBSERVATION_TYPES)
@pytest.mark.parametrize("game_config", CONFIGS, ids=config_id)
def test_batch_plays_exactly_like_the_aec_env(game_config, observation_type):
    game, config = game_config
    batch = make_batch(game, ROWS, seed=1, observation_type=observation_type, **config)
    envs = [make_aec(game, observation_type=observation_type, **config) for _ in range(ROWS)]
    hands_dealt = [0] * ROWS

    def deal(row: int) -> np.ndarray:
        envs[row].reset(seed=10_000 * row + hands_dealt[row])
        hands_dealt[row] += 1
        return envs[row].unwrapped.kernel_state()

    np.testing.assert_array_equal(batch._params, envs[0].unwrapped._params)  # the same rules
    out = batch.load_states(np.stack([deal(row) for row in range(ROWS)]))
    hands_ended = 0
    for _ in range(150):
        assert_rows_match(envs, out, batch)
        actions = batch.sample_actions()
        for row, env in enumerate(envs):
            env.step(int(actions[row]))
        out = batch.step(actions)
        finished = []
        for row, env in enumerate(envs):
            over = all(env.terminations.values())
            assert bool(out.terminated[row]) == over, f"row {row}"
            expected = [env.rewards[a] for a in env.possible_agents] if over else [0.0] * batch.num_seats
            np.testing.assert_array_equal(out.rewards[row], np.array(expected, dtype=np.float32))
            if over:
                finished.append(row)
        if finished:
            hands_ended += len(finished)
            out = batch.load_states(np.stack([deal(row) for row in finished]), rows=finished)
            assert not out.terminated.any() and not out.rewards.any()
    assert hands_ended >= ROWS  # every row played more than one hand


@pytest.mark.parametrize("game_config", CONFIGS, ids=config_id)
def test_auto_reset_deals_each_row_from_its_own_stream(game_config):
    """After ``reset(seed)`` row i holds the kernel's ``deal_random`` from the i-th stream of the seed;
    a row whose hand ends is dealt the next hand of the same stream."""
    game, config = game_config
    kernel = kernel_of(game)
    batch = make_batch(game, 4, seed=7, **config)
    out = batch.reset()
    params = batch._params
    streams = [make_rng(s) for s in batch_loops.row_seeds(7, 8)[:4]]
    expected = np.zeros_like(batch.kernel_states())
    for row in range(4):
        kernel.deal_random(expected[row], params, streams[row])
    np.testing.assert_array_equal(batch.kernel_states(), expected)
    redeals = 0
    for _ in range(120):
        out = batch.step(batch.sample_actions())
        for row in np.flatnonzero(out.terminated):
            kernel.deal_random(expected[row], params, streams[row])
            np.testing.assert_array_equal(batch.kernel_states()[row], expected[row])
            assert out.current_player[row] == kernel.current_seat(expected[row])
            assert out.action_mask[row].any()
            assert out.rewards[row].sum() == pytest.approx(0.0)  # settlements are zero-sum
            redeals += 1
    assert redeals > 0


@pytest.mark.parametrize("game", ["bavarian", "palatinate", "asserufen", "knuffeln"])
def test_seeded_and_independent_of_threads(game):
    runs = []
    for num_threads in (1, ALL_THREADS, 1):
        batch = make_batch(game, 32, seed=3, num_threads=num_threads)
        out = batch.reset()
        trace = [out.observation.copy()]
        for _ in range(60):
            out = batch.step(batch.sample_actions())
            trace += [out.observation.copy(), out.action_mask.copy(), out.rewards.copy(), out.terminated.copy()]
        runs.append(trace)
    for first, second in zip(runs[0], runs[1], strict=True):
        np.testing.assert_array_equal(first, second)
    other = make_batch(game, 32, seed=4).reset()
    assert not np.array_equal(other.observation, runs[0][0])
    np.testing.assert_array_equal(make_batch(game, 32, seed=4).reset(seed=3).observation, runs[0][0])


@pytest.mark.parametrize("game", ["bavarian", "knuffeln"])
def test_a_list_seed_seeds_each_row_from_its_own_entry(game):
    """Gymnasium's vector convention: one seed per row; a row's hands depend on its entry alone (not on the
    other rows or on ``num_envs``); a None entry at ``reset`` leaves that row's streams as they were."""
    four = make_batch(game, 4, seed=0)
    two = make_batch(game, 2, seed=0)
    np.testing.assert_array_equal(four.reset(seed=[1, 2, 3, 4]).observation[2], two.reset(seed=[3, 9]).observation[0])
    np.testing.assert_array_equal(four.kernel_states()[2], two.kernel_states()[0])
    np.testing.assert_array_equal(make_batch(game, 4, seed=[1, 2, 3, 4]).reset().observation,
                                  four.reset(seed=(1, 2, 3, 4)).observation)  # the constructor's seed too
    partly = make_batch(game, 4, seed=0).reset(seed=[None, 7, None, None]).observation
    unseeded = make_batch(game, 4, seed=0).reset().observation
    np.testing.assert_array_equal(partly[[0, 2, 3]], unseeded[[0, 2, 3]])
    np.testing.assert_array_equal(partly[1], make_batch(game, 1, seed=[7]).reset().observation[0])


@pytest.mark.parametrize(
    ("seed", "message"),
    [
        (-1, "seed must be None, a non-negative integer or a list of 4"),
        ("a", "seed must be None"),
        (1.5, "seed must be None"),
        (True, "seed must be None"),
        ([1, 2], "list seed gives one seed per env.*expected 4 entries, got 2"),
        ([1, 2, -3, 4], "every entry of a list seed"),
        ([1, 2, "3", 4], "every entry of a list seed"),
    ],
)
def test_a_bad_seed_is_named(seed, message):
    from schafkopf_env.batch import random_hand_player

    batch = make_batch("bavarian", 4, seed=0)
    batch.reset(seed=0)
    states = batch.kernel_states()
    with pytest.raises(ValueError, match=message):
        batch.reset(seed=seed)
    np.testing.assert_array_equal(batch.kernel_states(), states)
    with pytest.raises(ValueError, match=message):
        make_batch("bavarian", 4, seed=seed)
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        random_hand_player("bavarian").play(4, seed=-1)


def test_spaces_relate_as_in_gymnasium_and_contain_what_step_returns():
    """``observation_space`` is ``batch_space(single_observation_space, num_envs)``, and a step's
    ``observation`` and ``action_mask`` are elements of its two keys."""
    from gymnasium.vector.utils import batch_space

    for game in ("bavarian", "knuffeln"):
        batch = make_batch(game, 4, seed=0)
        assert batch.observation_space == batch_space(batch.single_observation_space, 4)
        assert batch.action_space == batch_space(batch.single_action_space, 4)
        out = batch.step(batch.reset().action_mask.argmax(axis=1))
        assert {"observation": out.observation, "action_mask": out.action_mask} in batch.observation_space
        assert out.observation in batch.observation_space["observation"]
        assert out.observation[0] in batch.single_observation_space["observation"]


@pytest.mark.parametrize("game_config", CONFIGS, ids=config_id)
def test_play_random_hands_is_the_compiled_random_playout(game_config):
    """The driver's result equals deal + random playout + settlement done one hand at a time with the
    kernel (one hand per stream here), and it is zero-sum and independent of the thread count."""
    game, config = game_config
    kernel = kernel_of(game)
    module = game_spec(game).batch_module()
    from trick_core.batch_env import RANDOM_HAND_CHUNKS

    totals = module.play_random_hands(game, RANDOM_HAND_CHUNKS, seed=11, num_threads=1, **config)
    batch = make_batch(game, 1, **config)
    state = np.zeros(batch.kernel_states().shape[1], dtype=np.int64)
    units = np.zeros(batch.num_seats)
    expected = np.zeros(batch.num_seats)
    for seed in batch_loops.row_seeds(11, RANDOM_HAND_CHUNKS):
        rng = make_rng(seed)
        kernel.deal_random(state, batch._params, rng)
        compiled_drivers(kernel).random_playout(state, rng)
        kernel.settlement(state, units)
        expected += units
    np.testing.assert_array_equal(totals, expected)
    many = module.play_random_hands(game, 3000, seed=5, **config)
    assert abs(many.sum()) < 1e-6
    np.testing.assert_array_equal(many, module.play_random_hands(game, 3000, seed=5, num_threads=1, **config))


# ------------------------------------------------------------------------------------------- errors


def test_illegal_actions_raise_and_change_nothing():
    batch = make_batch("bavarian", 4, seed=0)
    out = batch.reset()
    states = batch.kernel_states()
    actions = batch.sample_actions()
    illegal = int(np.flatnonzero(out.action_mask[2] == 0)[0])
    actions[2] = illegal
    with pytest.raises(ValueError, match=r"illegal action .* in row 2 .*legal there"):
        batch.step(actions)
    actions[2] = batch.num_actions
    with pytest.raises(ValueError, match="out of range"):
        batch.step(actions)
    actions[2] = -1
    with pytest.raises(ValueError, match="row 2"):
        batch.step(actions)
    np.testing.assert_array_equal(batch.kernel_states(), states)
    actions[[0, 2, 3]] = batch.num_actions
    with pytest.raises(ValueError, match=r"illegal actions in 3 rows: .* in row 0 .* in row 2 .* in row 3 "):
        batch.step(actions)
    np.testing.assert_array_equal(batch.kernel_states(), states)
    with pytest.raises(ValueError, match="shape"):
        batch.step(actions[:3])
    with pytest.raises(ValueError, match="integers"):
        batch.step(actions.astype(np.float64))


def test_an_illegal_action_error_names_the_first_ten_bad_rows_and_counts_the_rest():
    batch = make_batch("bavarian", 14, seed=0)
    batch.reset()
    actions = batch.sample_actions()
    actions[1:13] = -1
    with pytest.raises(ValueError, match="illegal actions in 12 rows") as caught:
        batch.step(actions)
    message = str(caught.value)
    assert [f"in row {row} " in message for row in range(14)] == [False] + [True] * 10 + [False] * 3
    assert message.endswith("; and 2 more rows")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game": "skat"}, "unknown Schafkopf game"),
        ({"num_envs": 0}, "num_envs"),
        ({"num_threads": 0}, "num_threads"),
        ({"num_threads": 10_000}, "num_threads"),
        ({"observation_type": "pixels"}, "observation_type"),
        ({"render_mode": "ansi"}, "do not apply"),
        ({"colour": "red"}, "colour"),
        ({"game": "palatinate", "players": 5}, "players"),
    ],
)
def test_bad_options_raise_value_error(kwargs, message):
    from schafkopf_env.batch import BatchEnv

    kwargs = {"game": "bavarian", "num_envs": 2, **kwargs}
    with pytest.raises(ValueError, match=message):
        BatchEnv(**kwargs)


def test_knuffeln_bad_options_raise_value_error():
    from knuffeln_env.batch import BatchEnv, play_random_hands, random_hand_player

    with pytest.raises(ValueError, match="variant"):
        BatchEnv(2, variant="nonsense")
    with pytest.raises(ValueError, match="players"):
        BatchEnv(2, players=7)
    with pytest.raises(ValueError, match="plays 'knuffeln', not 'bavarian'"):
        random_hand_player("bavarian")
    with pytest.raises(ValueError, match="not 1000 .its functions take the game first"):
        play_random_hands(1000, 5)  # (num_hands, seed): the call before the game came first


def test_step_before_reset_and_bad_loads():
    batch = make_batch("bavarian", 2)
    with pytest.raises(RuntimeError, match="reset"):
        batch.step(np.zeros(2, dtype=np.int64))
    batch.reset(seed=0)
    with pytest.raises(ValueError, match="shape"):
        batch.load_states(np.zeros((3, 5), dtype=np.int64))
    with pytest.raises(ValueError, match="rows"):
        batch.load_states(batch.kernel_states(), rows=[0, 0])
    env = make_aec("bavarian")
    env.reset(seed=0)
    while not all(env.terminations.values()):
        env.step(env.unwrapped.legal_actions()[0])
    with pytest.raises(ValueError, match="already over"):
        batch.load_states(env.unwrapped.kernel_state()[None, :], rows=[1])


def test_copy_false_returns_the_live_buffers():
    batch = make_batch("bavarian", 3, seed=0, copy=False)
    first = batch.reset()
    second = batch.step(batch.sample_actions())
    assert first.observation is second.observation
    copying = make_batch("bavarian", 3, seed=0)
    kept = copying.reset()
    snapshot = kept.observation.copy()
    copying.step(copying.sample_actions())
    np.testing.assert_array_equal(kept.observation, snapshot)  # a later step leaves it alone


# ------------------------------------------------------------------------------------------- Knüffeln matches


def _ladder_of(env) -> list[int]:
    match = env.unwrapped.state()["match"]
    return [*match["rungs_left"], match["hands_played"]]


def test_knuffeln_matches_play_exactly_like_the_aec_env():
    """``match=True``: hands follow each other inside a row until a team has wiped its rungs; the ladder
    (and so the match features of the observations) and the match rewards equal the AEC env's."""
    rows = 4
    batch = make_batch("knuffeln", rows, seed=2, match=True)
    envs = [make_aec("knuffeln", match=True) for _ in range(rows)]
    matches_started = [0] * rows

    def new_match(row: int) -> np.ndarray:
        envs[row].reset(seed=1000 * row + matches_started[row])
        matches_started[row] += 1
        return envs[row].unwrapped.kernel_state()

    out = batch.load_states(np.stack([new_match(row) for row in range(rows)]))
    matches_ended = next_hands = 0
    for _ in range(700):
        assert_rows_match(envs, out, batch)
        assert batch.ladders().tolist() == [_ladder_of(env) for env in envs]
        actions = batch.sample_actions()
        hands_before = [_ladder_of(env)[2] for env in envs]
        for row, env in enumerate(envs):
            env.step(int(actions[row]))
        out = batch.step(actions)
        ended, went_on = [], []
        for row, env in enumerate(envs):
            over = all(env.terminations.values())
            assert bool(out.terminated[row]) == over
            expected = [env.rewards[a] for a in env.possible_agents] if over else [0.0] * 4
            np.testing.assert_array_equal(out.rewards[row], np.array(expected, dtype=np.float32))
            if over:
                assert sorted(expected) in ([-1, -1, 1, 1], [-2, -2, 2, 2])
                ended.append(row)
            elif _ladder_of(env)[2] != hands_before[row]:  # the match goes on with a new hand
                assert batch.ladders()[row].tolist() == _ladder_of(env)
                went_on.append(row)
        if ended:
            matches_ended += len(ended)
            out = batch.load_states(np.stack([new_match(row) for row in ended]), rows=ended)
        if went_on:
            next_hands += len(went_on)
            states = np.stack([envs[row].unwrapped.kernel_state() for row in went_on])
            out = batch.load_states(states, rows=went_on, ladders=batch.ladders()[went_on])
    assert matches_ended >= 1 and next_hands >= rows


def test_knuffeln_match_batch_is_seeded_and_thread_independent():
    traces = []
    for threads in (1, ALL_THREADS):
        batch = make_batch("knuffeln", 16, seed=9, num_threads=threads, match=True)
        out = batch.reset()
        assert (batch.ladders() == [4, 4, 0]).all()
        trace = [out.observation.copy()]
        for _ in range(300):
            out = batch.step(batch.sample_actions())
            trace += [out.observation.copy(), out.rewards.copy(), batch.ladders()]
        traces.append(trace)
    for first, second in zip(*traces, strict=True):
        np.testing.assert_array_equal(first, second)
    assert (traces[0][-1][:, 2] > 0).any()  # some rows are hands into their match
    with pytest.raises(ValueError, match="match=True"):
        make_batch("knuffeln", 2).ladders()
    with pytest.raises(ValueError, match="rungs"):
        batch.load_states(batch.kernel_states(), ladders=np.zeros((16, 3), dtype=np.int64))
