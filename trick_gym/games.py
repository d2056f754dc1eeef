"""The games ``trick_gym`` serves: name, env module, Gymnasium id and batch env of each."""

from __future__ import annotations

import importlib

ENV_MODULES = {
    "bavarian": "schafkopf_env.bavarian_v0",
    "palatinate": "schafkopf_env.palatinate_v0",
    "asserufen": "schafkopf_env.asserufen_v0",
    "knuffeln": "knuffeln_env.knuffeln_v0",
}
GAMES = tuple(ENV_MODULES)
GYM_IDS = {
    "bavarian": "Bavarian-v0",
    "palatinate": "Palatinate-v0",
    "asserufen": "Asserufen-v0",
    "knuffeln": "Knuffeln-v0",
}
"""Gymnasium ids registered by ``import trick_gym``; rule variants go in as keyword arguments."""


def check_game(game: str) -> str:
    if game not in ENV_MODULES:
        raise ValueError(f"unknown game {game!r}; choose from {list(GAMES)}")
    return game


def make_aec_env(game: str, **config):
    """The game's PettingZoo AEC env (``raw_env(**config)`` of its module; validates every option)."""
    return importlib.import_module(ENV_MODULES[check_game(game)]).raw_env(**config)


def make_batch_env(game: str, num_envs: int, **options):
    """The game's compiled batch env (``schafkopf_env.batch.BatchEnv`` or ``knuffeln_env.batch.BatchEnv``)."""
    if check_game(game) == "knuffeln":
        from knuffeln_env.batch import BatchEnv

        return BatchEnv(num_envs, **options)
    from schafkopf_env.batch import BatchEnv

    return BatchEnv(game, num_envs, **options)
