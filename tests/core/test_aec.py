"""The AEC fast paths of ``trick_core.aec`` (and ``trick_core.compiled_kernel``) keep PettingZoo's semantics.

``TrickTakingEnv`` rewrites ``last``, ``agent_iter`` and ``_was_dead_step`` without PettingZoo's per-call
overhead and calls kernels (``advance``, and ``observe`` from ``_fill_observation``) through
``CompiledKernel`` (numba's compiled entry point, no type dispatch). These tests compare each fast path
with the code it replaces.
"""

from __future__ import annotations

import copy
import pickle
import sys

import numpy as np
import pytest
from pettingzoo import AECEnv
from pettingzoo.utils.env import AECIterable

from knuffeln_env import knuffeln_v0
from trick_core.compiled_kernel import ADVANCE_SIGNATURE, CompiledKernel
from trick_core.drivers import compiled
from trick_core.registry import GAMES

MODULES = {name: spec.env_module() for name, spec in GAMES.items()} | {"knuffeln_match": knuffeln_v0}
CONFIGS = {"knuffeln_match": {"match": True}}
HANDS = 40


def make(name: str, **config):
    return MODULES[name].raw_env(**CONFIGS.get(name, {}), **config)


def kernel_module(env):
    """The compiled kernel module an env module imports as ``kernel``."""
    return sys.modules[type(env).__module__].kernel


def kernel_state(env) -> np.ndarray:
    return env._kstate if hasattr(env, "_kstate") else env._state


def random_legal(env, generator) -> int:
    return int(generator.choice(np.flatnonzero(env._action_mask)))


@pytest.mark.parametrize("name", MODULES)
def test_observations_are_fresh_arrays_equal_to_the_dispatched_kernel(name):
    """Every observe returns new arrays (the caller may keep and change them) holding what the plain
    numba dispatcher writes; seats not to act get an all-zero mask."""
    env = make(name)
    kernel = kernel_module(env)
    generator = np.random.default_rng(1)
    env.reset(seed=1)
    code = getattr(env, "_obs_type_code", getattr(env, "_obs_type_index", None))
    for _ in range(60):
        agent = env.agent_selection
        if env.terminations[agent]:
            env.reset()
            continue
        first, second = env.observe(agent), env.observe(agent)
        assert first["observation"] is not second["observation"]
        assert first["action_mask"] is not second["action_mask"]
        assert not np.shares_memory(first["action_mask"], env._action_mask)
        first["observation"][:] = 7.0
        first["action_mask"][:] = 1
        assert np.array_equal(env.observe(agent)["action_mask"], env._action_mask)
        assert not np.array_equal(env.observe(agent)["observation"], first["observation"])
        if "match" not in name:
            expected = np.full(env.obs_size, -1.0, dtype=np.float32)
            kernel.observe(kernel_state(env), env.agent_name_mapping[agent], code, expected)
            assert np.array_equal(second["observation"], expected)
        for other in env.possible_agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        env.step(random_legal(env, generator))


@pytest.mark.parametrize("name", ["bavarian", "palatinate", "asserufen", "knuffeln"])
def test_compiled_advance_matches_the_dispatcher(name):
    """A hand stepped through the env equals the same actions applied with the dispatched kernel."""
    env = make(name)
    kernel = kernel_module(env)
    generator = np.random.default_rng(2)
    for hand in range(HANDS):
        env.reset(seed=hand)
        mirror = kernel_state(env).copy()
        mask = np.zeros(env.num_actions, dtype=np.int8)
        while not env.terminations[env.agent_selection]:
            action = random_legal(env, generator)
            seat = compiled(kernel).advance(mirror, action, mask)
            env.step(action)
            assert np.array_equal(kernel_state(env), mirror)
            assert np.array_equal(env._action_mask, mask) or seat < 0
            assert seat < 0 or env.agent_selection == env.possible_agents[seat]


def test_compiled_kernel_falls_back_to_plain_functions():
    """Under NUMBA_DISABLE_JIT a kernel is a plain function; ``CompiledKernel`` then uses it as is."""

    def plain_advance(state, action, mask):
        return action

    class Holder:
        advance = CompiledKernel(plain_advance, ADVANCE_SIGNATURE)

    assert Holder().advance(None, 3, None) == 3
    assert Holder.__dict__["advance"].__func__ is plain_advance


@pytest.mark.parametrize("name", MODULES)
def test_envs_pickle_and_clone_after_the_kernels_are_bound(name):
    """The compiled entry points live on the class: pickling, cloning and deep copies still work and the
    copies step independently of the original."""
    env = make(name)
    generator = np.random.default_rng(3)
    env.reset(seed=3)
    env.step(random_legal(env, generator))  # binds the compiled kernels
    action = random_legal(env, generator)
    before = kernel_state(env).copy()
    twins = [pickle.loads(pickle.dumps(env)), env.clone(), copy.deepcopy(env)]
    for twin in twins:
        assert kernel_state(twin) is not kernel_state(env)
        twin.step(action)
    assert np.array_equal(kernel_state(env), before)
    env.step(action)
    for twin in twins:
        assert twin.agent_selection == env.agent_selection
        assert np.array_equal(kernel_state(twin), kernel_state(env))
        assert np.array_equal(twin.observe(twin.agent_selection)["observation"],
                              env.observe(env.agent_selection)["observation"])


def play_hands(env, hands: int, last, dead_step, iterate) -> list:
    """The PettingZoo loop, recording everything the caller can see at every turn."""
    generator = np.random.default_rng(5)
    seen = []
    env.reset(seed=5)
    for _ in range(hands):
        for agent in iterate(env):
            observation, reward, termination, truncation, info = last(env)
            seen.append((agent, reward, termination, truncation, dict(info), list(env.agents),
                         dict(env.rewards), observation["observation"].tobytes(),
                         observation["action_mask"].tobytes(), getattr(env, "_skip_agent_selection", None)))
            if termination or truncation:
                dead_step(env)
            else:
                env.step(int(generator.choice(np.flatnonzero(observation["action_mask"]))))
        seen.append(("end", env.agent_selection, list(env.agents), dict(env.rewards)))
        env.reset()
    return seen


@pytest.mark.parametrize("name", MODULES)
def test_last_agent_iter_and_dead_steps_match_pettingzoo(name):
    """Our ``last``/``agent_iter``/``_was_dead_step`` against PettingZoo's own, over whole hands."""
    ours = play_hands(make(name), HANDS, lambda e: e.last(), lambda e: e.step(None), lambda e: e.agent_iter())
    stock = play_hands(
        make(name), HANDS, lambda e: AECEnv.last(e), lambda e: AECEnv._was_dead_step(e, None),
        lambda e: AECIterable(e, 2**63),
    )
    assert ours == stock


def test_agent_iter_is_reiterable_and_bounded():
    env = make("bavarian")
    env.reset(seed=6)
    turns = env.agent_iter(3)
    assert list(zip(turns, range(10), strict=False)) == [(env.agent_selection, i) for i in range(3)]
    assert len(list(turns)) == 3  # a new iter() starts afresh, like PettingZoo's AECIterable
    env.agents = []
    assert list(env.agent_iter()) == []


def test_dead_step_with_an_action_raises():
    env = make("asserufen")
    env.reset(seed=7)
    generator = np.random.default_rng(7)
    while not env.terminations[env.agent_selection]:
        env.step(random_legal(env, generator))
    with pytest.raises(ValueError, match="done"):
        env.step(0)
    with pytest.raises(ValueError, match="only valid action is None"):
        env._was_dead_step(0)
