"""The constructor options every env takes beside its game's rules, declared and checked once.

An env's constructor names its own rule options (``variant``, ``players``, ``max_doublings`` ...) and takes
these as ``**options: Unpack[EnvOptions]``; each env's docs page lists both under Arguments. The one-seat
Gymnasium envs (``trick_gym``) check their illegal-action options with the same function.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypedDict

import numpy as np

OBSERVATION_TYPES = ("observation", "information_state", "perfect")
ILLEGAL_ACTION_MODES = ("raise", "terminate")


class EnvOptions(TypedDict, total=False):
    """The options every env takes beside its game's rule options (defaults: ``ENV_OPTION_DEFAULTS``)."""

    render_mode: str | None
    observation_type: str
    illegal_action: str
    illegal_reward: float


ENV_OPTION_DEFAULTS: EnvOptions = {
    "render_mode": None, "observation_type": "observation", "illegal_action": "raise", "illegal_reward": -1.0,
}


class UnknownRenderModeError(ValueError, TypeError):
    """A ``render_mode`` the env does not offer; a ``TypeError`` too, because Stable-Baselines3 (``make_vec_env``,
    ``MaskablePPO("MlpPolicy", "Bavarian-v0")``) asks for ``"rgb_array"`` and falls back only on ``TypeError``."""


def check_env_options(game: str, options: dict) -> None:
    """``ValueError`` naming the options in ``options`` that are not ``EnvOptions`` (an env checks this first,
    before its rule options: the unknown names are those the game does not know at all)."""
    unknown = sorted(set(options) - set(ENV_OPTION_DEFAULTS))
    if unknown:
        raise ValueError(f"{game}: unknown option(s) {unknown}")


def check_illegal_action(illegal_action: str, illegal_reward: float) -> float:
    """``ValueError`` unless ``illegal_action`` is a mode of ``ILLEGAL_ACTION_MODES`` and ``illegal_reward`` a
    finite number; returns the reward as a float."""
    if illegal_action not in ILLEGAL_ACTION_MODES:
        raise ValueError(f"unknown illegal_action {illegal_action!r}; choose from {ILLEGAL_ACTION_MODES}")
    finite = isinstance(illegal_reward, (int, float, np.integer, np.floating)) and math.isfinite(illegal_reward)
    if isinstance(illegal_reward, bool) or not finite:
        raise ValueError(f"illegal_reward must be a finite number, got {illegal_reward!r}")
    return float(illegal_reward)


def checked_env_options(game: str, options: dict, render_modes: Sequence[str]) -> EnvOptions:
    """``options`` with the defaults filled in, each checked (an exception naming the first bad one)."""
    check_env_options(game, options)
    options = {**ENV_OPTION_DEFAULTS, **options}
    render_mode, observation_type = options["render_mode"], options["observation_type"]
    if render_mode is not None and render_mode not in render_modes:
        raise UnknownRenderModeError(f"unknown render_mode {render_mode!r}; choose from {render_modes}")
    if observation_type not in OBSERVATION_TYPES:
        raise ValueError(f"unknown observation_type {observation_type!r}; choose from {OBSERVATION_TYPES}")
    options["illegal_reward"] = check_illegal_action(options["illegal_action"], options["illegal_reward"])
    return options
