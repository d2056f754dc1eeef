"""A one-seat env's opponent must answer with an action index: ``37.9`` is refused, not truncated to 37."""

from __future__ import annotations

import numpy as np
import pytest

from trick_core.aec import ActionTypeError
from trick_gym.one_seat import OneSeatEnv


def first_legal_plus(fraction):
    def policy(observation, action_mask):
        return int(np.flatnonzero(action_mask)[0]) + fraction
    return policy


@pytest.mark.parametrize("answer", [first_legal_plus(0.9), first_legal_plus(0.0), lambda o, m: True,
                                    lambda o, m: np.array([int(np.flatnonzero(m)[0])])])
def test_an_opponent_answer_that_is_not_an_index_is_refused_naming_the_opponent(answer):
    env = OneSeatEnv("bavarian", opponents=answer, seat=1)
    with pytest.raises(ActionTypeError, match=r"bavarian: the opponent playing player_\d: action must be an integer"):
        play(env, decisions=40)


def play(env, decisions: int) -> None:
    """The learner's first legal action, ``decisions`` times (hands redealt as they end)."""
    _, info = env.reset(seed=0)
    for _ in range(decisions):
        _, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if terminated:
            _, info = env.reset()


@pytest.mark.parametrize("kind", [int, np.int64, np.int8, lambda a: np.array(a)])
def test_integer_answers_of_every_kind_are_played(kind):
    env = OneSeatEnv("bavarian", opponents=lambda o, m: kind(int(np.flatnonzero(m)[0])), seat=1)
    play(env, decisions=40)
