"""``load_states`` checks every state before compiled code reads it (``trick_core.state_check``): states of
another configuration, variant or game and changed fields are refused with a ``ValueError`` naming the row
and the field; real states and sampled worlds load; a refused load changes no row. And the edges of
``rows`` and Knüffeln's ladders."""

from __future__ import annotations

import numpy as np
import pytest

from trick_core.registry import VARIANTS, game_spec, variant_id
from trick_core.state_check import game_state_check

ROWS = 3


def batch_env(game: str, **config):
    env = game_spec(game).make_batch_env(ROWS, seed=0, num_threads=1, **config)
    env.reset()
    return env


def states_in_play(game: str, steps: int = 5, **config) -> np.ndarray:
    """``ROWS`` states of hands in progress (each row a few random steps in)."""
    env = batch_env(game, **config)
    for _ in range(steps):
        env.step(env.sample_actions())
    return env.kernel_states()


FOREIGN = [
    ("knuffeln", {"talk": "lexicon"}, {}),
    ("knuffeln", {"variant": "hattstedt"}, {}),
    ("knuffeln", {"players": 5}, {}),
    ("knuffeln", {}, {"talk": "tokens:4"}),
    ("palatinate", {"players": 4}, {}),
    ("asserufen", {"max_doublings": 1}, {}),
]


@pytest.mark.parametrize(("game", "source", "target"), FOREIGN)
def test_a_state_of_another_configuration_is_refused_naming_the_params(game, source, target):
    foreign = states_in_play(game, **source)
    env = batch_env(game, **target)
    before = env.kernel_states()
    with pytest.raises(ValueError, match=r"row 0 is refused: field 'params' must equal this env's rules"):
        env.load_states(foreign)
    np.testing.assert_array_equal(env.kernel_states(), before)  # nothing loaded


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=[variant_id(g, c) for g, c in VARIANTS])
def test_real_states_and_sampled_worlds_load(game, config):
    env = batch_env(game, **config)
    states = states_in_play(game, steps=7, **config)
    env.load_states(states)
    np.testing.assert_array_equal(env.kernel_states(), states)
    table = game_spec(game).make_env(**config)
    rng = np.random.default_rng(3)
    table.reset(seed=3)
    for _ in range(6):
        table.step(int(rng.choice(table.unwrapped.legal_actions())))
        if not table.unwrapped.legal_actions():  # a hand thrown in: the next
            table.reset()
    world = table.unwrapped.resample_from_infostate(table.agent_selection, 5).kernel_state()
    env.load_states(world[None, :], rows=np.array([1]))


@pytest.mark.parametrize("game", ["knuffeln", "bavarian", "palatinate", "asserufen"])
def test_all_zero_and_random_states_are_refused(game):
    env = batch_env(game)
    size = env.kernel_states().shape[1]
    with pytest.raises(ValueError, match="row 0 is refused: field '(params|dealt_hands)'"):  # Bavarian's params: 0
        env.load_states(np.zeros((ROWS, size), dtype=np.int64))
    random = np.random.default_rng(0).integers(-5, 60, size=(ROWS, size))
    random[:, : env._params.shape[0]] = env._params  # past the params check: a field check refuses it
    with pytest.raises(ValueError, match="row 0 is refused: field"):
        env.load_states(random)


def corrupted(game: str, field: str, value: int, entry: int = 0) -> tuple[object, np.ndarray]:
    env = batch_env(game)
    states = states_in_play(game, steps=9)
    offset = game_spec(game).kernel().layout.fields[field][0]
    states[1, offset + entry] = value
    return env, states


@pytest.mark.parametrize(
    ("game", "field", "value", "message"),
    [
        ("bavarian", "seat_to_act", 7, r"row 1 is refused: field 'seat_to_act' must lie in -1..3, got 7"),
        ("palatinate", "phase", -1, r"field 'phase' must lie in 0..9, got -1"),
        ("asserufen", "history_length", 10**6, r"field 'history_length' must lie in 0..128"),
        ("knuffeln", "stock", 48, r"field 'stock' must hold card indices"),
        ("bavarian", "dealt_hands", 0, r"field 'dealt_hands' must hold the whole pack"),
        ("bavarian", "points", 999, r"field 'points' is \[999, .*but its deal and action history give"),
        ("knuffeln", "tricks_won", 5, r"field 'tricks_won' is .*but its deal and action history give"),
        ("palatinate", "history_actions", 80, r"recorded action 0 \(80\) is not legal"),
    ],
)
def test_a_changed_field_is_refused_naming_it(game, field, value, message):
    env, states = corrupted(game, field, value)
    before = env.kernel_states()
    with pytest.raises(ValueError, match=message):
        env.load_states(states)
    np.testing.assert_array_equal(env.kernel_states(), before)


def test_a_field_no_rule_reads_may_differ():
    """Knüffeln's shuffle scratch and redeal count are not part of the position (``UNREPLAYED_FIELDS``)."""
    kernel = game_spec("knuffeln").kernel()
    assert game_state_check(kernel).UNREPLAYED_FIELDS == ("redeals", "pack")
    env, states = corrupted("knuffeln", "pack", -12345, entry=3)
    env.load_states(states)
    with pytest.raises(ValueError, match="field 'redeals' must lie in 0"):
        env.load_states(corrupted("knuffeln", "redeals", -1)[1])


def test_shape_dtype_and_int64_range():
    env = batch_env("bavarian")
    states = env.kernel_states()
    with pytest.raises(ValueError, match="integer array of shape"):
        env.load_states(states[:, :-1])
    with pytest.raises(ValueError, match="integer array of shape"):
        env.load_states(states.astype(np.float64))
    too_big = states.astype(np.uint64)
    too_big[0, -1] = np.uint64(2**63)
    with pytest.raises(ValueError, match="beyond int64"):
        env.load_states(too_big)


@pytest.mark.parametrize("config", [{}, {"match": True}])
@pytest.mark.parametrize("rows", [[0, 99], [-1], [0.0, 1.0], [[0]], [1, 1]])
def test_knuffeln_bad_rows_are_refused_before_the_ladders_change(config, rows):
    env = batch_env("knuffeln", **config)
    states = env.kernel_states()[: len(rows)]
    ladders_before = env._ladders.copy()
    with pytest.raises(ValueError, match="rows must"):
        env.load_states(states, rows=rows)
    np.testing.assert_array_equal(env._ladders, ladders_before)
