"""Property-based tests (hypothesis) of every env and variant: random deals, options and action sequences,
legal and illegal, well-formed and not.

- every step either succeeds, or raises a clear exception and leaves the table exactly as it was;
- the legal actions are exactly the actions the env accepts;
- a hand's record round-trips: replaying it on a fresh env reproduces the record and the state.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tables import table_after_random_steps
from trick_core.aec import IllegalActionError
from trick_core.env_options import OBSERVATION_TYPES
from trick_core.registry import VARIANTS, game_spec, variant_id

VARIANT_IDS = [variant_id(game, config) for game, config in VARIANTS]
EXAMPLES = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])

JUNK_ACTIONS = st.one_of(
    st.integers(min_value=-3, max_value=400),
    st.none(),
    st.floats(allow_nan=True),
    st.text(max_size=4),
    st.booleans(),
)
"""What a careless caller might pass to ``step``: out-of-range ints, None, floats, strings, bools."""


def _snapshot(env) -> tuple:
    base = env.unwrapped
    return (base.game_record(), base.state(), base.agent_selection, dict(base.terminations), dict(base.rewards))


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
@EXAMPLES
@given(seed=st.integers(0, 2**32 - 1), choices=st.lists(st.tuples(st.booleans(), JUNK_ACTIONS), max_size=80),
       observation_type=st.sampled_from(OBSERVATION_TYPES))
def test_every_step_succeeds_or_raises_and_changes_nothing(game, config, seed, choices, observation_type):
    env = game_spec(game).make_env(**config, observation_type=observation_type)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for play_legal, junk in choices:
        if all(env.terminations.values()):
            break
        legal = env.unwrapped.legal_actions()
        action = int(rng.choice(legal)) if play_legal else junk
        accepted = type(action) is int and action in legal
        before = _snapshot(env)
        if accepted:
            env.step(action)
            continue
        with pytest.raises(IllegalActionError, match="legal now"):
            env.step(action)
        assert _snapshot(env) == before
    observation = env.observe(env.agent_selection)
    assert observation["observation"].shape == env.observation_space(env.agent_selection)["observation"].shape


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 30))
def test_legal_actions_are_exactly_the_accepted_ones(game, config, seed, steps):
    env = table_after_random_steps(game, config, seed, steps)
    if all(env.terminations.values()):
        return
    legal = set(env.unwrapped.legal_actions())
    mask = env.observe(env.agent_selection)["action_mask"]
    assert legal == set(np.flatnonzero(mask).tolist())
    for action in range(env.unwrapped.num_actions):
        table = env.unwrapped.clone()
        try:
            table.step(action)
        except IllegalActionError:
            assert action not in legal
        else:
            assert action in legal


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=VARIANT_IDS)
@EXAMPLES
@given(seed=st.integers(0, 2**32 - 1), hands=st.integers(1, 2))
def test_records_round_trip(game, config, seed, hands):
    env = game_spec(game).make_env(**config)
    rng = np.random.default_rng(seed)
    for hand in range(hands):
        env.reset(seed=seed + hand)
        while not all(env.terminations.values()):
            env.step(int(rng.choice(env.unwrapped.legal_actions())))
        record = env.unwrapped.game_record()
        again = game_spec(game).make_env(**config)
        again.unwrapped.replay(record)
        assert again.unwrapped.game_record() == record
        assert again.unwrapped.state() == env.unwrapped.state()
        fixed = game_spec(game).make_env(**config)
        fixed.reset(options=record["deal"])
        assert fixed.unwrapped.game_record()["deal"] == record["deal"]
