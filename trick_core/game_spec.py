"""``GameSpec``: everything the project outside a game's rules knows of that game, in one record.

Each game declares its record in its own package, ``<family>_env/<game>/spec.py`` (``SPEC = GameSpec(...)``),
and ``trick_core.registry`` lists the packages. Generic layers (the drivers, the env machinery, the
agents, the arena, the browser, the benchmarks, the tests) ask the record or the kernel, never test a
game's name. The record holds names and plain data only, so that reading it stays cheap:
``trick_core.jit`` reads the packages at its own import, before anything is compiled.

Fields (``module:attr`` names a thing imported on first use):

- ``name``: the game's name everywhere (``agents.make(name, game)``, the arena's ``--game``, records).
- ``package``: ``<family>_env.<name>``, holding the kernel, reference, playout policy (``heuristic``) and
  this record; the family package beside it holds the env module ``<name>_v0`` and the batch module
  ``batch``. The compile-cache fingerprints cover every family package (``trick_core.jit``).
- ``variants``: env configs covering every rule variant (the first is the default game).
- ``tournament_deals``: deals per match of ``make run`` (about a minute per game on two cores).
- ``reward_scale``: units per hand by which training divides returns: about the spread of a seat's
  settlement between the rule-based bots, so that training targets are of order one in every game
  (``docs/results.md``, "Reward scales").
- ``config_reward_scale``: ``module:attr`` of ``scale(config) -> float``, the reward scale of an env config
  for a game whose options change the units of its rewards (Bavarian's ``tariff``), raising the env's
  ``ValueError`` for a bad option; or ``""``: ``reward_scale`` for every config (``reward_scale_for``).
- ``deal_keys``: reset options that fix cards dealt outside the hands (``"skat"``); ``dealer``, ``hands``
  and ``record`` are every game's.
- ``face_down_actions``: prefixes of the actions that play a card face down (``"turn:"``), card plays the
  pack does not name.
- ``talk_actions``: the table-talk actions, whole names (``"silent"``) or prefixes ending in ``:``.
- ``agent_classes``: built-in agent name -> ``module:attr`` of the class the game uses instead of the
  general one (Knüffeln's ``pimc``, which turns cards).
- ``agent_defaults``: built-in agent name -> the keyword defaults the game gives it (the agent's
  docstring says why).
- ``tournament_agents``: built-in agent name -> the spec ``make run``'s tournament enters in its place by
  default (an agent whose defaults cost more time than the tournament's budget of a few minutes allows).
- ``rules_agent``: ``module:attr`` of the rule-based agent class (default ``agents.rules.<name>:RulesAgent``).
- ``seating``: ``module:attr`` of ``seatings(num_seats, dealer)`` giving the arena's scheme for a table
  (``agents.seatings``), or ``""`` (or a ``None`` from it): two agents balanced over every seat.
- ``browser``: ``module:attr`` of the game's ``play.catalog.GameInfo`` (title, pack, rules page, rule
  options, the view of a seat and the labels of actions), declared beside its view in ``play.views``.
- ``features``: ``module:attr`` of ``layout(game, config)`` for the neural agents' derived features
  (``agents.neural.derived``), or ``""``: none (train with ``--features none``).
- ``reference_player``: ``module:attr`` of ``play(rng, config) -> settlement``, one random hand through the
  reference (``benchmarks.reference_hands``).
- ``worst_loss``: ``module:attr`` of ``bound(config) -> int``, the most a seat can lose in one episode (the
  one-seat env's default penalty for an illegal move, ``trick_gym.penalties``), or ``""``: no default.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import ModuleType


@dataclass(frozen=True)
class GameSpec:
    """Everything the project knows about one game (module docstring)."""

    name: str
    package: str
    variants: tuple[dict, ...]
    tournament_deals: int
    reward_scale: float
    deal_keys: tuple[str, ...] = ()
    face_down_actions: tuple[str, ...] = ()
    talk_actions: tuple[str, ...] = ()
    agent_classes: Mapping[str, str] = field(default_factory=dict)
    agent_defaults: Mapping[str, Mapping[str, object]] = field(default_factory=dict)
    tournament_agents: Mapping[str, str] = field(default_factory=dict)
    rules_agent: str = ""
    seating: str = ""
    browser: str = ""
    features: str = ""
    reference_player: str = ""
    worst_loss: str = ""
    config_reward_scale: str = ""

    def __post_init__(self) -> None:
        family, _, game = self.package.partition(".")
        if not game or not family.endswith("_env"):
            raise ValueError(f"game {self.name!r}: its package must be <family>_env.<game>, not {self.package!r}")
        if not self.rules_agent:
            object.__setattr__(self, "rules_agent", f"agents.rules.{self.name}:RulesAgent")

    @property
    def family(self) -> str:
        """The family package (``"schafkopf_env"``): the env modules, the batch module, shared rules."""
        return self.package.partition(".")[0]

    @property
    def env_module_name(self) -> str:
        """The versioned PettingZoo env module (``env()``, ``raw_env()``)."""
        return f"{self.family}.{self.name}_v0"

    @property
    def kernel_module_name(self) -> str:
        """The compiled rules (the kernel contract of ``docs/architecture.md``)."""
        return f"{self.package}.kernel"

    @property
    def reference_module_name(self) -> str:
        """The plain-Python rules the kernel is tested against."""
        return f"{self.package}.reference"

    @property
    def policy_module_name(self) -> str:
        """The heuristic playout policy of the ``pimc`` agent (``trick_core.drivers``)."""
        return f"{self.package}.heuristic"

    @property
    def batch_module_name(self) -> str:
        """The module of the batched env (``make(game, num_envs, **options)``)."""
        return f"{self.family}.batch"

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

    def agent_class(self, agent: str, general):
        """The class this game uses for the built-in ``agent``: its ``agent_classes`` entry, else ``general``."""
        path = self.agent_classes.get(agent)
        return general if path is None else imported(path)

    def agent_options(self, agent: str) -> dict:
        """The keyword defaults this game gives the built-in ``agent`` (a fresh dict)."""
        return dict(self.agent_defaults.get(agent, {}))

    def reward_scale_for(self, config: dict) -> float:
        """The reward scale of the env config ``config``: ``config_reward_scale``'s, else ``reward_scale``."""
        if not self.config_reward_scale:
            return float(self.reward_scale)
        return float(imported(self.config_reward_scale)(dict(config)))

    def plays_face_down(self, action: str) -> bool:
        """Whether ``action`` plays a card face down (``face_down_actions``)."""
        return bool(self.face_down_actions) and action.startswith(self.face_down_actions)

    def is_talk(self, action: str) -> bool:
        """Whether ``action`` is table talk (``talk_actions``: a whole name, or a prefix ending in ``:``)."""
        return any(action == talk or (talk.endswith(":") and action.startswith(talk)) for talk in self.talk_actions)


def imported(path: str):
    """The attribute a ``"module:attr"`` path names (imported on first use)."""
    module_name, _, attr = path.partition(":")
    return getattr(importlib.import_module(module_name), attr)
