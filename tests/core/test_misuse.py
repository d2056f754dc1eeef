"""Every misuse gets an exception that says what is wrong, the same in every game (table-driven)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import agents
from trick_core.aec import ActionTypeError, IllegalActionError
from trick_core.registry import GAME_NAMES, game_spec


def _fresh(game: str, **config):
    return game_spec(game).make_env(**config)


def _dealt(game: str, **config):
    env = _fresh(game, **config)
    env.reset(seed=0)
    return env


BEFORE_RESET = [
    ("last", lambda env: env.last()),
    ("observe", lambda env: env.observe("player_0")),
    ("game_record", lambda env: env.unwrapped.game_record()),
    ("public_record", lambda env: env.unwrapped.public_record("player_0")),
    ("step", lambda env: env.step(0)),
    ("resample_from_infostate", lambda env: env.unwrapped.resample_from_infostate("player_0", 0)),
]


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize(("what", "call"), BEFORE_RESET, ids=[w for w, _ in BEFORE_RESET])
def test_calls_before_reset_say_to_call_reset(game, what, call):
    with pytest.raises(RuntimeError, match=r"reset\(\)"):
        call(_fresh(game))


@pytest.mark.parametrize("game", GAME_NAMES)
def test_unknown_agent_names_the_agents(game):
    env = _dealt(game)
    for call in (lambda: env.observe("player_9"), lambda: env.observe(["player_0"]),
                 lambda: env.unwrapped.resample_from_infostate("nobody", 0),
                 lambda: env.unwrapped.public_record(3)):
        with pytest.raises(ValueError, match="player_0"):
            call()


@pytest.mark.parametrize("game", GAME_NAMES)
def test_unknown_agent_spec_names_the_valid_ones(game):
    with pytest.raises(ValueError, match="pimc"):
        agents.make("no_such_agent", game)


BAD_ENV_OPTIONS = [
    ({"observation_type": "full"}, r"unknown observation_type 'full'; choose from \('observation', "),
    ({"illegal_action": "ignore"}, r"unknown illegal_action 'ignore'; choose from \('raise', 'terminate'\)"),
    ({"render_mode": "rgb_array"}, r"unknown render_mode 'rgb_array'"),
    ({"no_such_rule": 1}, r"unknown option\(s\) \['no_such_rule'\]"),
]


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize(("options", "complaint"), BAD_ENV_OPTIONS, ids=[next(iter(o)) for o, _ in BAD_ENV_OPTIONS])
def test_a_bad_env_option_is_named_in_every_game(game, options, complaint):
    """The options every env takes beside its rules (``trick_core.env_options``), and an unknown one."""
    with pytest.raises(ValueError, match=complaint):
        _fresh(game, **options)


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("reward", [math.nan, math.inf, -math.inf, "1", True, None])
def test_illegal_reward_must_be_a_finite_number(game, reward):
    with pytest.raises(ValueError, match="illegal_reward must be a finite number"):
        _fresh(game, illegal_reward=reward)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_env_pays_its_illegal_reward_on_termination(game):
    """``illegal_reward`` is an option of every env (it was Knüffeln's only: the others rejected it)."""
    env = _dealt(game, illegal_action="terminate", illegal_reward=-2.5)
    offender = env.agent_selection
    env.step(int(np.flatnonzero(env.last()[0]["action_mask"] == 0)[0]))
    assert env.terminations[offender]
    assert env.rewards[offender] == -2.5 and sum(env.rewards.values()) == -2.5


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("talk", [None, False, 0, "tokens:0", "lexicn"])
def test_a_bad_talk_option_is_rejected_naming_talk(game, talk):
    """Knüffeln names the bad value; the Schafkopf games, which have no talk, name the unknown option."""
    with pytest.raises(ValueError, match="talk"):
        _fresh(game, talk=talk)


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("seed", [1.5, "3", -1, True, [1]])
def test_seed_must_be_a_non_negative_integer(game, seed):
    with pytest.raises(ValueError, match="seed"):
        _fresh(game).reset(seed=seed)


def _record(game: str) -> dict:
    env = _dealt(game)
    for _ in range(3):
        env.step(env.unwrapped.legal_actions()[0])
    return env.unwrapped.game_record()


RECORD_DAMAGE = [
    ("no deal", lambda r: {k: v for k, v in r.items() if k != "deal"}, "no 'deal'"),
    ("no actions", lambda r: {k: v for k, v in r.items() if k != "actions"}, "no 'actions'"),
    ("entry not a pair", lambda r: {**r, "actions": [r["actions"][0], ["player_1"]]}, "record action 1"),
    ("unknown action", lambda r: {**r, "actions": [r["actions"][0], [r["actions"][1][0], "fly"]]}, "record action 1"),
    ("wrong agent", lambda r: {**r, "actions": [["player_9", r["actions"][0][1]]]}, "record action 0"),
]


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize(("damage", "breaks", "says"), RECORD_DAMAGE, ids=[d for d, _, _ in RECORD_DAMAGE])
def test_a_malformed_record_names_the_wrong_entry(game, damage, breaks, says):
    env = _fresh(game)
    with pytest.raises(ValueError, match=says):
        env.unwrapped.replay(breaks(_record(game)))


@pytest.mark.parametrize("game", GAME_NAMES)
def test_record_and_hands_cannot_be_combined(game):
    record = _record(game)
    with pytest.raises(ValueError, match="cannot be combined"):
        _fresh(game).reset(options={"record": record, "hands": record["deal"]["hands"]})


@pytest.mark.parametrize("game", GAME_NAMES)
def test_playout_values_take_action_strings(game):
    env = _dealt(game)
    legal = env.unwrapped.legal_actions()
    names = [env.unwrapped.action_to_string(a) for a in legal]
    assert (env.unwrapped.playout_values(names, 2, 1) == env.unwrapped.playout_values(legal, 2, 1)).all()
    with pytest.raises(ValueError, match="unknown action string"):
        env.unwrapped.playout_values(["fly"], 2, 1)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_an_illegal_action_names_the_move_and_the_legal_ones(game):
    env = _dealt(game)
    legal = set(env.unwrapped.legal_actions())
    illegal = next(a for a in range(env.unwrapped.num_actions) if a not in legal)
    with pytest.raises(IllegalActionError, match="legal now"):
        env.step(illegal)


NOT_ACTIONS = [
    (1.0, "got float 1.0"),
    (True, "got bool True"),
    ("pass", "got str 'pass'"),
    (None, "got NoneType None"),
    (np.array([1]), r"got an array of shape \(1,\)"),
    (np.array(1.0), r"got an array of shape \(\)"),
]


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("illegal_action", ["raise", "terminate"])
@pytest.mark.parametrize(("action", "says"), NOT_ACTIONS, ids=["float", "bool", "str", "None", "array", "0d-float"])
def test_an_action_that_is_not_an_integer_is_a_type_error_in_either_mode(game, illegal_action, action, says):
    """A wrong type is a programming error, not an illegal move: ``TypeError`` naming the type (or shape),
    and the hand goes on (no termination, not even under ``illegal_action="terminate"``). Still an
    ``IllegalActionError``, as every rejected step is (``test_properties``)."""
    env = _dealt(game, illegal_action=illegal_action)
    agent = env.agent_selection
    with pytest.raises(TypeError, match=f"action must be an integer index.*{says}") as caught:
        env.step(action)
    assert isinstance(caught.value, ActionTypeError) and isinstance(caught.value, IllegalActionError)
    assert "legal now" in str(caught.value)
    assert env.agent_selection == agent and not any(env.terminations.values())


@pytest.mark.parametrize("game", GAME_NAMES)
def test_integer_actions_of_every_integer_kind_are_taken_and_out_of_range_stays_illegal(game):
    for action in (lambda a: np.int16(a), lambda a: np.array(a), lambda a: np.array(a, dtype=np.uint8)):
        env = _dealt(game)
        first = env.unwrapped.legal_actions()[0]
        env.step(action(first))
        assert env.unwrapped.game_record()["actions"][0][1] == env.unwrapped.action_to_string(first)
    with pytest.raises(IllegalActionError, match="out of range"):
        _dealt(game).step(_dealt(game).unwrapped.num_actions)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_an_unknown_render_mode_is_both_a_value_error_and_the_type_error_sb3_probes_for(game):
    """SB3 builds envs with ``render_mode="rgb_array"`` first and falls back only on ``TypeError``."""
    with pytest.raises(ValueError, match="unknown render_mode 'rgb_array'") as caught:
        _fresh(game, render_mode="rgb_array")
    assert isinstance(caught.value, TypeError)
