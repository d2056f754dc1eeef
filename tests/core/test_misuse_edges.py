"""The edges of the env API (issue 33, part 3): each gets a clear error of the right type, in every game.

Seeds of the search entry points are refused as ``reset`` refuses them (and beyond the kernel's 64 bits);
``action_to_string`` refuses what ``step`` refuses; a malformed record (an unknown deal key, a result that
is no list) is named; calls before the first deal and after every agent has left the table say what to do.
"""

from __future__ import annotations

import numpy as np
import pytest

from trick_core.aec import ActionTypeError
from trick_core.registry import GAME_NAMES, game_spec


def dealt(game: str):
    env = game_spec(game).make_env()
    env.reset(seed=0)
    return env


def played_out(game: str):
    """An env whose hand is over and whose every agent has taken its ``step(None)``."""
    env = dealt(game)
    rng = np.random.default_rng(0)
    while env.agents:
        _, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(rng.choice(env.unwrapped.legal_actions())))
    return env


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("what", ["state", "clone", "kernel_state"])
def test_inspection_before_reset_says_to_call_reset(game, what):
    env = game_spec(game).make_env()
    with pytest.raises(RuntimeError, match=rf"call reset\(\) before {what}\(\)"):
        getattr(env.unwrapped, what)()


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("seed", [-1, 2**64, 2**70, True, 1.5])
def test_search_seeds_are_refused_like_reset_seeds(game, seed):
    env = dealt(game)
    agent = env.agent_selection
    with pytest.raises(ValueError, match="seed|rng"):
        env.unwrapped.resample_from_infostate(agent, seed)
    with pytest.raises(ValueError, match="seed|rng"):
        env.unwrapped.playout_values(env.unwrapped.legal_actions()[:1], 2, seed)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_largest_64_bit_seed_is_taken(game):
    env = dealt(game)
    world = env.unwrapped.resample_from_infostate(env.agent_selection, 2**64 - 1)
    assert world.agent_selection == env.agent_selection
    assert env.unwrapped.playout_values(env.unwrapped.legal_actions()[:1], 2, np.uint64(2**64 - 1)).shape[0] == 1


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("actions", [3, "EO", None, {1, 2}])
def test_playout_values_needs_a_list_of_actions(game, actions):
    with pytest.raises(ValueError, match="actions must be a list of action indices or strings"):
        dealt(game).unwrapped.playout_values(actions, 2, 0)


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("action", [True, False, 1.0, "3", None])
def test_action_to_string_refuses_what_step_refuses(game, action):
    env = dealt(game)
    with pytest.raises(ActionTypeError, match="action must be an integer index"):
        env.unwrapped.action_to_string(action)
    with pytest.raises(ActionTypeError):
        env.step(action)
    assert env.unwrapped.action_to_string(np.int64(1)) == env.unwrapped.action_names[1]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_record_with_an_unknown_deal_key_or_a_bad_result_is_refused(game):
    env = played_out(game)
    record = env.unwrapped.game_record()
    with pytest.raises(ValueError, match=r"deal has unknown key\(s\) \['bogus'\]"):
        env.unwrapped.replay(dict(record, deal=dict(record["deal"], bogus=1)))
    with pytest.raises(ValueError, match=r"deal has unknown key\(s\) \['record'\]"):
        env.unwrapped.replay(dict(record, deal=dict(record["deal"], record={})))
    for result in (0, "1", [0.0], [True] * env.unwrapped.num_seats, {"player_0": 1}):
        with pytest.raises(ValueError, match="result must be None or a list of"):
            env.unwrapped.replay(dict(record, result=result))
    env.unwrapped.replay(record)  # the record itself replays
    env.unwrapped.replay(dict(record, result=None))


@pytest.mark.parametrize("game", GAME_NAMES)
def test_step_and_last_after_every_agent_left_say_to_reset(game):
    env = played_out(game)
    assert env.agents == []
    with pytest.raises(RuntimeError, match=r"every agent is done and removed; call reset\(\) before step\(\)"):
        env.step(None)
    with pytest.raises(RuntimeError, match=r"call reset\(\) before last\(\)"):
        env.last()
    env.reset(seed=1)
    assert env.last()[2] is False
