"""Game names used by the agents and the arena, and the env factory behind each.

| game | env module |
|---|---|
| ``knuffeln`` | ``knuffeln_env.knuffeln_v0`` |
| ``bavarian`` | ``schafkopf_env.bavarian_v0`` |
| ``palatinate`` | ``schafkopf_env.palatinate_v0`` |
| ``asserufen`` | ``schafkopf_env.asserufen_v0`` |

The env modules are imported only when a game is first used, so that ``import agents`` stays light.
"""

from __future__ import annotations

import importlib

GAME_MODULES = {
    "knuffeln": "knuffeln_env.knuffeln_v0",
    "bavarian": "schafkopf_env.bavarian_v0",
    "palatinate": "schafkopf_env.palatinate_v0",
    "asserufen": "schafkopf_env.asserufen_v0",
}
GAMES = tuple(GAME_MODULES)

KERNEL_MODULES = {
    "knuffeln": "knuffeln_env.kernel",
    "bavarian": "schafkopf_env.bavarian_kernel",
    "palatinate": "schafkopf_env.palatinate_kernel",
    "asserufen": "schafkopf_env.asserufen_kernel",
}
"""The compiled rules of each game (``docs/architecture.md``: the kernel contract). Search agents run
simulations on the kernel states of *sampled* worlds, never on the real table's."""

VARIANTS = (
    ("knuffeln", {}),
    ("knuffeln", {"players": 5}),
    ("knuffeln", {"variant": "hattstedt"}),
    ("knuffeln", {"variant": "bernhard1924"}),
    ("knuffeln", {"variant": "gruenberg1938"}),
    ("knuffeln", {"talk": "lexicon"}),
    ("knuffeln", {"talk": "tokens:4"}),
    ("bavarian", {}),
    ("palatinate", {}),
    ("palatinate", {"players": 4}),
    ("asserufen", {}),
    ("asserufen", {"max_doublings": 1}),
)
"""(game, env config) pairs covering every rule variant; the agent tests run on each."""


def variant_id(game: str, config: dict) -> str:
    """``"palatinate-players=4"``: a short name of a variant, for test ids and tables."""
    return "-".join([game] + [f"{key}={value}" for key, value in config.items()])


def check_game(game: str) -> str:
    """``game`` itself, or ``ValueError`` naming the known games."""
    if game not in GAME_MODULES:
        raise ValueError(f"unknown game {game!r}; choose from {list(GAMES)}")
    return game


def env_module(game: str):
    """The versioned env module of a game (``ValueError`` for an unknown game)."""
    return importlib.import_module(GAME_MODULES[check_game(game)])


def kernel_module(game: str):
    """The compiled kernel module of a game."""
    return importlib.import_module(KERNEL_MODULES[check_game(game)])


def make_env(game: str, **config):
    """The wrapped PettingZoo env of ``game`` (``env(**config)`` of its module)."""
    return env_module(game).env(**config)


def parse_config(items: list[str] | tuple[str, ...]) -> dict:
    """``["players=4", "variant=hattstedt"]`` -> ``{"players": 4, "variant": "hattstedt"}`` (ints, floats,
    ``true``/``false`` and ``none`` are converted; anything else stays a string)."""
    config = {}
    for item in items:
        key, sep, text = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"config option {item!r} must be written key=value")
        config[key.strip()] = parse_value(text.strip())
    return config


def parse_value(text: str):
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "null"):
        return None
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text
