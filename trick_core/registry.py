"""The game registry: one record per game, read by the agents, the arena, the tournament, the batch envs,
the benchmarks and the tests.

Adding a game means one new package (its kernel, reference, heuristic playout policy and env module,
``docs/architecture.md``: "adding a game") and one ``GameSpec`` below; adding a rule variant means its
rules and tests and one entry in ``variants``. Modules are named, not imported, so that reading the
registry stays cheap; ``GameSpec.env_module()``, ``kernel()`` and friends import on first use.

| field | meaning |
|---|---|
| ``name`` | the game's name everywhere (``agents.make(name, game)``, the arena's ``--game``) |
| ``env_module_name`` | the versioned PettingZoo env module (``env()``, ``raw_env()``) |
| ``kernel_module_name`` | the compiled rules (the kernel contract of ``docs/architecture.md``) |
| ``reference_module_name`` | the plain-Python rules the kernel is tested against |
| ``policy_module_name`` | the heuristic playout policy of the ``pimc`` agent (``trick_core.drivers``) |
| ``rules_agent`` | ``module:attr`` of the rule-based agent class |
| ``batch_module_name`` | the module of the batched env (``BatchEnv``) |
| ``variants`` | env configs covering every rule variant (the first is the default game) |
| ``tournament_deals`` | deals per match of ``make run`` (about a minute per game on two cores) |
| ``reward_scale`` | units per hand by which training divides returns (see ``GAME_SPECS``) |
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType


@dataclass(frozen=True)
class GameSpec:
    """Everything the project knows about one game (module docstring)."""

    name: str
    env_module_name: str
    kernel_module_name: str
    reference_module_name: str
    policy_module_name: str
    rules_agent: str
    batch_module_name: str
    variants: tuple[dict, ...]
    tournament_deals: int
    reward_scale: float

    def env_module(self) -> ModuleType:
        return importlib.import_module(self.env_module_name)

    def kernel(self) -> ModuleType:
        return importlib.import_module(self.kernel_module_name)

    def reference(self) -> ModuleType:
        return importlib.import_module(self.reference_module_name)

    def policy(self) -> ModuleType:
        return importlib.import_module(self.policy_module_name)

    def batch_module(self) -> ModuleType:
        return importlib.import_module(self.batch_module_name)

    def make_env(self, **config):
        """The PettingZoo env (``env(**config)`` of the env module)."""
        return self.env_module().env(**config)

    def make_batch_env(self, num_envs: int, **options):
        """The batched env of ``num_envs`` rows (``make(game, num_envs, **options)`` of the batch module)."""
        return self.batch_module().make(self.name, num_envs, **options)

    @property
    def gym_id(self) -> str:
        """The Gymnasium id ``import trick_gym`` registers for the game (``"Bavarian-v0"``)."""
        return f"{self.name.capitalize()}-v0"


def _game(name: str, family: str, variants: tuple[dict, ...], tournament_deals: int, reward_scale: float) -> GameSpec:
    """The record of a game laid out as every game is (``docs/architecture.md``): package
    ``<family>_env.<name>``, env module ``<family>_env.<name>_v0``, batch module ``<family>_env.batch``,
    rules agent ``agents.rules.<name>:RulesAgent``."""
    package = f"{family}_env.{name}"
    return GameSpec(
        name=name,
        env_module_name=f"{package}_v0",
        kernel_module_name=f"{package}.kernel",
        reference_module_name=f"{package}.reference",
        policy_module_name=f"{package}.heuristic",
        rules_agent=f"agents.rules.{name}:RulesAgent",
        batch_module_name=f"{family}_env.batch",
        variants=variants,
        tournament_deals=tournament_deals,
        reward_scale=reward_scale,
    )


KNUFFELN_VARIANTS = (
    {},
    {"players": 5},
    {"variant": "hattstedt"},
    {"variant": "bernhard1924"},
    {"variant": "gruenberg1938"},
    {"talk": "lexicon"},
    {"talk": "tokens:4"},
)

GAME_SPECS = (
    _game("knuffeln", "knuffeln", KNUFFELN_VARIANTS, tournament_deals=600, reward_scale=8.0),
    _game("bavarian", "schafkopf", ({},), tournament_deals=120, reward_scale=5.0),
    _game("palatinate", "schafkopf", ({}, {"players": 4}), tournament_deals=120, reward_scale=5.0),
    _game("asserufen", "schafkopf", ({}, {"max_doublings": 1}), tournament_deals=240, reward_scale=4.0),
)
"""Every game. ``reward_scale`` is about the spread (standard deviation) of a seat's settlement when the
rule-based bots play each other (Knüffeln 7.7, Bavarian 5.6, Palatinate 4.3, Asserufen 3.5 over 300 hands),
so that the targets of training are of order one in every game. Random play swings far wider (its doubled
solos), hence a fixed scale rather than one measured on the learner's own early play."""

GAMES: dict[str, GameSpec] = {spec.name: spec for spec in GAME_SPECS}
GAME_NAMES = tuple(GAMES)
VARIANTS: tuple[tuple[str, dict], ...] = tuple((spec.name, config) for spec in GAME_SPECS for config in spec.variants)
"""(game, env config) pairs covering every rule variant of every game."""


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
