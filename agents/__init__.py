"""Agents for every game, and ``agents.make``.

``agents.make(name, game, **kwargs)`` returns an agent with ``.name`` and ``.act(env, agent) -> int``
(see ``agents.base``). ``game`` is one of ``knuffeln``, ``bavarian``, ``palatinate``, ``asserufen``.

| name | agent |
|---|---|
| ``random`` | uniform over the legal actions (``agents.random_agent``) |
| ``pimc`` | compiled determinized search: resampled deals, heuristic playouts (``agents.search.pimc``; |
| | Knüffeln: ``agents.search.knuffeln``, which also turns and answers turns) |
| ``pimc_random`` | the same search with uniformly random playouts (``agents.search.pimc_random``) |
| ``nested_pimc`` | ``pimc_random``, with bids, calls, doubles and turns scored by simulated hands (same module) |
| ``neural`` | a trained network (``agents.neural``): the checkpoint shipped for the game, or ``neural[path=...]`` |
| ``pimc_neural`` | the ``pimc`` search with that network playing the playouts (``agents.search.pimc_neural``; |
| | ``pimc_neural[path=...,samples=...,candidates=...]``) |
| ``ismcts`` | compiled information-set MCTS (SO-ISMCTS) with the ``pimc`` playouts (``agents.search.ismcts``) |
| ``pimc_dd`` | determinized search, the last tricks of every sampled world solved exactly (``agents.search.pimc_dd``; |
| | ``pimc_dd[worlds=...,inference=...]``) |
| ``rules`` | the game's rule-based player (``rules_agent`` of its record in ``trick_core.registry``) |
| ``"package.module:attr"`` | an outside agent: ``attr(game, **kwargs)`` must return an agent |

A name may carry keyword arguments in brackets, as on the arena's command line:
``"pimc[samples=20,playouts_per_sample=50]"``.
"""

from __future__ import annotations

import importlib
import inspect

from trick_core.extras import MissingExtraError, extra_of  # (imported first: missing extras reported as one line)
from trick_core.registry import GAME_NAMES, game_spec

from .config import parse_value

BUILTIN_AGENTS = {
    "random": ("agents.random_agent", "RandomAgent"),
    "pimc": ("agents.search", "make_pimc"),
    "pimc_random": ("agents.search", "PIMCAgent"),
    "nested_pimc": ("agents.search", "NestedPIMCAgent"),
    "neural": ("agents.neural", "make_agent"),
    "pimc_neural": ("agents.search.pimc_neural", "make_pimc_neural"),
    "ismcts": ("agents.search", "ISMCTSAgent"),
    "pimc_dd": ("agents.search.pimc_dd", "make_pimc_dd"),
}

__all__ = ["BUILTIN_AGENTS", "GAME_NAMES", "check_option_agents", "make", "parse_agent_spec"]


def make(name: str, game: str, **kwargs):
    """An agent for ``game`` by name (built-in, ``rules``, or ``"package.module:attr"``)."""
    spec = game_spec(game)
    base_name, spec_kwargs = parse_agent_spec(name)
    kwargs = {**spec_kwargs, **kwargs}
    if base_name in BUILTIN_AGENTS:
        module_name, attr = BUILTIN_AGENTS[base_name]
        try:
            return _built(name, getattr(importlib.import_module(module_name), attr), game, kwargs)
        except ModuleNotFoundError as error:  # neural, pimc_neural without torch: name the extra to install
            extra = extra_of(error.name or "")
            if extra is None:
                raise
            raise MissingExtraError(extra, error.name, f"agent {base_name!r}") from None
    if base_name == "rules":
        return _built(name, _import_attr(spec.rules_agent, "rules agent"), game, kwargs)
    if ":" in base_name:
        return _outside_agent(base_name, game, kwargs)
    known = sorted(BUILTIN_AGENTS) + ["rules", "package.module:attr"]
    raise ValueError(f"unknown agent {name!r}; choose from {known}")


def check_option_agents(option: str, names, game: str) -> None:
    """For a command's option check: every agent that ``option`` names builds for ``game``, else a
    ``ValueError`` that starts with the option (``--eval-opponent: unknown agent 'x'; ...``), so that a
    command with several agent options says which one is wrong. The game is checked first, on its own."""
    game_spec(game)
    for name in dict.fromkeys(names):
        try:
            make(name, game)
        except ValueError as error:
            raise ValueError(f"--{option.replace('_', '-')}: {error}") from None


def parse_agent_spec(spec: str) -> tuple[str, dict]:
    """``"pimc[samples=20,playouts_per_sample=50]"`` -> ``("pimc", {"samples": 20, ...})``."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"an agent name must be a non-empty string, got {spec!r}")
    spec = spec.strip()
    if "[" not in spec:
        return spec, {}
    if not spec.endswith("]"):
        raise ValueError(f"agent {spec!r}: keyword arguments go in brackets at the end, e.g. pimc[samples=20]")
    base_name, _, inside = spec[:-1].partition("[")
    if "[" in inside or "]" in inside:
        raise ValueError(f"agent {spec!r}: one pair of brackets holds every argument, e.g. pimc[samples=20,seed=1]")
    kwargs = {}
    for item in filter(None, (part.strip() for part in inside.split(","))):
        key, sep, value = item.partition("=")
        if not sep or not key.strip().isidentifier():
            raise ValueError(f"agent {spec!r}: argument {item!r} must be written key=value")
        kwargs[key.strip()] = parse_value(value.strip())
    return base_name.strip(), kwargs


def _built(name: str, factory, game: str, kwargs: dict):
    """``factory(game, **kwargs)``; arguments the agent does not take as ``ValueError`` naming the agent and
    the arguments it does take."""
    try:
        return factory(game, **kwargs)
    except TypeError as error:
        if "argument" not in str(error):
            raise
        options = ", ".join(agent_options(factory(game))) or "none"
        raise ValueError(f"agent {name!r}: {error.args[0].split('() ')[-1]}; its arguments: {options}") from None


def agent_options(agent) -> list[str]:
    """The keyword arguments an agent's constructors take (``game`` aside), from its class up."""
    options: dict[str, None] = {}
    for cls in type(agent).__mro__:
        init = cls.__dict__.get("__init__")
        if init is None:
            continue
        for parameter in inspect.signature(init).parameters.values():
            if parameter.kind in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY) \
                    and parameter.name not in ("self", "game"):
                options[parameter.name] = None
    return list(options)


def _import_attr(path: str, what: str):
    """The object named by ``"package.module:attr"``."""
    module_name, _, attr = path.partition(":")
    return getattr(importlib.import_module(module_name), attr)


def _outside_agent(spec: str, game: str, kwargs: dict):
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise ValueError(f"outside agent {spec!r} must be written package.module:attr")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        raise ValueError(f"outside agent {spec!r}: cannot import {module_name} ({error})") from None
    factory = module
    for part in attr.split("."):
        if not hasattr(factory, part):
            raise ValueError(f"outside agent {spec!r}: {module_name} has no attribute {attr!r}")
        factory = getattr(factory, part)
    if not callable(factory):
        raise ValueError(f"outside agent {spec!r}: {attr!r} is not callable")
    try:
        agent = factory(game, **kwargs)
    except Exception as error:
        raise ValueError(f"outside agent {spec!r}: {attr}({game!r}, **{kwargs}) raised {type(error).__name__}: "
                         f"{error}") from error
    if not callable(getattr(agent, "act", None)):
        raise ValueError(f"outside agent {spec!r}: {attr}(game) returned {agent!r}, which has no act(env, agent)")
    if not hasattr(agent, "name"):
        raise ValueError(f"outside agent {spec!r}: the agent it returned has no .name")
    return agent
