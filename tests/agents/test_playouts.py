"""The compiled heuristic playouts (the ``heuristic`` module of each game's package) and the
``pimc`` agent built on them.

For every game and variant, from many states reached by random play: the playout policy only ever takes
legal actions and reaches the end of the hand; the compiled playout is exactly the policy stepped by hand;
results are reproducible from the rng; the search over them (``agents.search.outcomes``) leaves the state alone
and every playout settles zero-sum.
"""

from __future__ import annotations

import numpy as np
import pytest

from agents import make
from agents.search.outcomes import HEURISTIC_PLAYOUTS, search_function
from trick_core import drivers
from trick_core.bits import make_rng
from trick_core.registry import VARIANTS, game_spec, kernel_module, make_env, variant_id

STATES_PER_VARIANT = 120


def _policy(game: str):
    """(heuristic_action, heuristic_playout) of a game."""
    spec = game_spec(game)
    return spec.policy().heuristic_action, drivers.compiled_search(spec.kernel(), spec.policy()).policy_playout


def _params(game: str, config: dict):
    return kernel_module(game).make_params(**config)


def _num_actions(kernel, params) -> int:
    return kernel.num_actions(params) if hasattr(kernel, "num_actions") else kernel.NUM_ACTIONS


def _num_seats(game: str, params) -> int:
    if game == "knuffeln":
        return int(params[kernel_module(game).PARAM_PLAYERS])
    if game == "palatinate":
        return int(params[kernel_module(game).PARAM_PLAYERS])
    return 4


def _random_states(game: str, config: dict, count: int, seed: int):
    """``count`` states of hands in progress: a random deal, then a random number of random actions.

    Deals thrown in by all-pass bidding would end at once, so half of the states force a contract by
    letting a seat bid the first non-pass action it may."""
    kernel = kernel_module(game)
    params = _params(game, config)
    rng = make_rng(seed)
    choice = np.random.default_rng(seed)
    mask = np.zeros(_num_actions(kernel, params), dtype=np.int8)
    states = []
    while len(states) < count:
        state = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
        kernel.deal_random(state, params, rng)
        steps = int(choice.integers(0, 40))
        for _ in range(steps):
            if kernel.current_seat(state) < 0:
                break
            kernel.legal_action_mask(state, mask)
            legal = np.flatnonzero(mask)
            kernel.apply_action(state, int(choice.choice(legal)))
        if kernel.current_seat(state) >= 0:
            states.append(state)
    return states, params


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=[variant_id(g, c) for g, c in VARIANTS])
def test_policy_is_legal_reaches_the_end_and_matches_the_compiled_playout(game, config):
    kernel = kernel_module(game)
    action_of, playout = _policy(game)
    states, params = _random_states(game, config, STATES_PER_VARIANT, seed=11)
    mask = np.zeros(_num_actions(kernel, params), dtype=np.int8)
    for index, start in enumerate(states):
        epsilon = (0.0, 0.2, 1.0)[index % 3]
        stepped = start.copy()
        rng = make_rng(1000 + index)
        steps = 0
        while kernel.current_seat(stepped) >= 0:
            kernel.legal_action_mask(stepped, mask)
            action = int(action_of(stepped, rng, epsilon))
            assert 0 <= action < mask.size and mask[action] == 1, f"illegal action {action} at step {steps}"
            kernel.apply_action(stepped, action)
            steps += 1
            assert steps < 400, "the playout does not end"
        compiled = start.copy()
        playout(compiled, make_rng(1000 + index), epsilon)
        assert kernel.current_seat(compiled) == -1
        np.testing.assert_array_equal(compiled, stepped)


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=[variant_id(g, c) for g, c in VARIANTS])
def test_search_with_heuristic_playouts_zero_sum_and_determinism(game, config):
    """The search (``agents.search.outcomes``) scores actions with these playouts: it leaves the state alone, is
    reproducible from its rng, every playout ends in a zero-sum settlement, and with epsilon 0 (a
    deterministic policy) every playout of an action in one sampled world settles the same."""
    kernel = kernel_module(game)
    _, playout = _policy(game)
    states, params = _random_states(game, config, 12, seed=23)
    seats = _num_seats(game, params)
    mask = np.zeros(_num_actions(kernel, params), dtype=np.int8)
    units = np.zeros(seats)
    for index, state in enumerate(states):
        kernel.legal_action_mask(state, mask)
        actions = np.flatnonzero(mask).astype(np.int64)
        seat = kernel.current_seat(state)
        before = state.copy()
        out = np.empty((4, actions.size, 6))
        search_function(game, HEURISTIC_PLAYOUTS)(state, seat, actions, 4, 6, make_rng(index), 0.3, out)
        np.testing.assert_array_equal(state, before)  # the state itself is not touched
        assert not np.isnan(out).any()
        again = np.empty_like(out)
        search_function(game, HEURISTIC_PLAYOUTS)(state, seat, actions, 4, 6, make_rng(index), 0.3, again)
        np.testing.assert_array_equal(out, again)
        fixed = np.empty((4, actions.size, 3))
        search_function(game, HEURISTIC_PLAYOUTS)(state, seat, actions, 4, 3, make_rng(index), 0.0, fixed)
        np.testing.assert_array_equal(fixed, np.repeat(fixed[:, :, :1], 3, axis=2))
        for action in actions:
            work = state.copy()
            kernel.apply_action(work, int(action))
            playout(work, make_rng(index), 0.3)
            units[:] = 0.0
            kernel.settlement(work, units)
            np.testing.assert_allclose(units.sum(), 0.0, atol=1e-9)


def _bavarian_trick_state(hands, leader_cards):
    """A Bavarian Rufer (seat 0 declarer, hearts trumps, called suit Eichel) in trick 1 with some cards
    already played; built by replaying legal actions so the state is a real one."""
    kernel = kernel_module("bavarian")
    state = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
    deal = [card for hand in hands for card in hand]
    kernel.init_state(state, kernel.make_params(), 3, np.array(deal, dtype=np.int64))
    for action in [kernel.BID_ACTION_BASE + kernel.RUFER] + [kernel.BID_ACTION_BASE + kernel.PASS] * 3:
        kernel.apply_action(state, action)
    kernel.apply_action(state, kernel.CALL_ACTION_BASE + 0)
    for card in leader_cards:
        kernel.apply_action(state, card)
    return state


def test_schmieren_to_a_safe_partner_trick_and_cheap_low_card_otherwise():
    # GERMAN_32: suit E=0 G=1 H=2 S=3, rank A=0 10=1 K=2 O=3 U=4 9=5 8=6 7=7; card = suit * 8 + rank
    def c(suit, rank):
        return suit * 8 + rank

    hands = [
        [c(0, 3), c(1, 3), c(2, 3), c(3, 3), c(0, 4), c(0, 5), c(2, 0), c(2, 1)],  # declarer: all Obers
        [c(0, 0), c(1, 0), c(1, 1), c(1, 2), c(1, 5), c(1, 6), c(1, 7), c(3, 7)],  # holds the called ace EA
        [c(0, 1), c(0, 2), c(0, 6), c(0, 7), c(3, 0), c(3, 1), c(3, 2), c(3, 5)],
        [c(1, 4), c(2, 4), c(3, 4), c(2, 2), c(2, 5), c(2, 6), c(2, 7), c(3, 6)],
    ]
    # seat 0 leads the top trump (Eichel Ober); seat 1 (partner, holding no trump) is free and the trick
    # is safe (nobody can beat the top Ober): it schmiers its richest card, the Gras ace (seat 3 could
    # trump it, so it is no master), not the called ace (which may not be discarded yet)
    state = _bavarian_trick_state(hands, [c(0, 3)])
    action = int(game_spec("bavarian").policy().heuristic_action(state, make_rng(1), 0.0))
    assert action == c(1, 0)
    # seat 2, an opponent without trumps, cannot win: it throws its cheapest card, the Eichel 7
    kernel = kernel_module("bavarian")
    kernel.apply_action(state, action)
    action = int(game_spec("bavarian").policy().heuristic_action(state, make_rng(1), 0.0))
    assert action == c(0, 7)


@pytest.mark.parametrize("game", ["bavarian", "palatinate", "asserufen", "knuffeln"])
def test_pimc_heuristic_agent_plays_legal_actions(game):
    env = make_env(game)
    env.reset(seed=3)
    agent = make("agents.search:make_pimc", game, samples=2, playouts_per_sample=2, epsilon=0.1, seed=1)
    for name in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = agent.act(env, name)
        assert env.observe(name)["action_mask"][action] == 1
        env.step(action)
    assert agent.stats()["inconsistent_worlds"] == 0


def test_pimc_heuristic_rejects_bad_options():
    with pytest.raises(ValueError, match="epsilon"):
        make("agents.search:make_pimc", "bavarian", epsilon=1.5)
    with pytest.raises(ValueError, match="samples"):
        make("agents.search:make_pimc", "bavarian", samples=0)


def test_cautious_agent_never_doubles():
    agent = make("pimc", "palatinate", samples=1, playouts_per_sample=1, cautious=True, seed=2)
    assert not make("pimc", "palatinate").cautious  # Palatinate's default searches doubles (GAME_DEFAULTS)
    with pytest.raises(ValueError, match="cautious"):
        make("agents.search:make_pimc", "palatinate", cautious="yes")
    env = make_env("palatinate")
    doubled = offered = 0
    for seed in range(12):
        env.reset(seed=seed)
        for name in env.agent_iter():
            _, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            offered += "contra" in env.unwrapped.legal_action_strings()
            action = agent.act(env, name)
            doubled += env.unwrapped.action_to_string(action) in ("contra", "re", "schenken")
            env.step(action)
    assert offered > 0  # the deals did give the agent chances to double
    assert doubled == 0
