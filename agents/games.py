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

from trick_core.registry import GAME_NAMES, VARIANTS, game_spec, variant_id  # noqa: F401

GAMES = GAME_NAMES


def check_game(game: str) -> str:
    """``game`` itself, or ``ValueError`` naming the known games."""
    return game_spec(game).name


def env_module(game: str):
    """The versioned env module of a game (``ValueError`` for an unknown game)."""
    return game_spec(game).env_module()


def kernel_module(game: str):
    """The compiled kernel module of a game."""
    return game_spec(game).kernel()


def make_env(game: str, **config):
    """The wrapped PettingZoo env of ``game`` (``env(**config)`` of its module)."""
    return game_spec(game).make_env(**config)


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
