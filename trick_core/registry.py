"""The game registry: the games the project plays, read by the agents, the arena, the tournament, the batch
envs, the browser, the benchmarks, the tests and the compile cache (``trick_core.jit``).

A game is named in one place, its ``GameSpec`` (``trick_core.game_spec``: what each field means), which
its own package declares in ``<family>_env/<game>/spec.py``; the registry lists those packages
(``GAME_PACKAGES``), one line per game. Adding a game means one new package (its kernel, reference,
heuristic playout policy, spec and env module; ``docs/architecture.md``: "adding a game") and one line
below; adding a rule variant means its rules and tests and one entry in its spec's ``variants``. The spec
modules hold names and plain data, so reading the registry stays cheap; ``GameSpec.env_module()``,
``kernel()`` and friends import on first use.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from .game_spec import GameSpec

GAME_PACKAGES = (
    "schafkopf_env.bavarian",
    "schafkopf_env.palatinate",
    "schafkopf_env.asserufen",
    "knuffeln_env.knuffeln",
)
"""The package of every game (each declares its ``spec.SPEC``), in the order of the games' tables: the
browser's list, the benchmarks' tables (Bavarian first: its outside anchors are the closest), the
tournament."""

FAMILY_PACKAGES = tuple(dict.fromkeys(package.partition(".")[0] for package in GAME_PACKAGES))
"""The top-level packages holding the games (``schafkopf_env``): the compile-cache fingerprints cover them
(``trick_core.jit``, ``trick_core.specialise``), and a game family missing there would run stale machine code."""


def _declared_spec(package: str) -> GameSpec:
    spec = importlib.import_module(f"{package}.spec").SPEC
    if not isinstance(spec, GameSpec) or spec.package != package:
        raise TypeError(f"{package}.spec.SPEC must be the GameSpec of package {package!r}, got {spec!r}")
    return spec


GAME_SPECS = tuple(_declared_spec(package) for package in GAME_PACKAGES)
"""Every game's record."""

GAMES: dict[str, GameSpec] = {spec.name: spec for spec in GAME_SPECS}
GAME_NAMES = tuple(GAMES)
VARIANTS: tuple[tuple[str, dict], ...] = tuple((spec.name, config) for spec in GAME_SPECS for config in spec.variants)
"""(game, env config) pairs covering every rule variant of every game."""
DEAL_KEYS = tuple(dict.fromkeys(key for spec in GAME_SPECS for key in spec.deal_keys))
"""Every game's reset options for cards dealt outside the hands (``GameSpec.deal_keys``)."""


def game_spec(game: str) -> GameSpec:
    """The record of ``game``, or ``ValueError`` naming the known games."""
    spec = GAMES.get(game) if isinstance(game, str) else None
    if spec is None:
        raise ValueError(f"unknown game {game!r}; choose from {list(GAME_NAMES)}")
    return spec


def variant_id(game: str, config: dict) -> str:
    """``"palatinate-players=4"``: a short name of a variant, for test ids and tables."""
    return "-".join([game] + [f"{key}={value}" for key, value in config.items()])


def make_env(game: str, **config):
    """The PettingZoo env of ``game`` with ``config`` (``env(**config)`` of its env module)."""
    return game_spec(game).make_env(**config)


def kernel_module(game: str) -> ModuleType:
    """The compiled kernel module of ``game``."""
    return game_spec(game).kernel()
