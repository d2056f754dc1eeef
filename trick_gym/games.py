"""The games ``trick_gym`` serves, from the registry (``trick_core.registry``): their Gymnasium ids, AEC
envs and batch envs."""

from __future__ import annotations

from trick_core.registry import GAME_NAMES, game_spec
from trick_core.registry import GAMES as REGISTRY

GAMES = GAME_NAMES
GYM_IDS = {name: spec.gym_id for name, spec in REGISTRY.items()}
"""Gymnasium ids registered by ``import trick_gym``; rule variants go in as keyword arguments."""


def check_game(game: str) -> str:
    return game_spec(game).name


def make_aec_env(game: str, **config):
    """The game's PettingZoo AEC env (``raw_env(**config)`` of its module; validates every option)."""
    return game_spec(game).env_module().raw_env(**config)


def make_batch_env(game: str, num_envs: int, **options):
    """The game's compiled batch env."""
    return game_spec(game).make_batch_env(num_envs, **options)
