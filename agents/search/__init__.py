"""The search agents: determinized Monte-Carlo search (PIMC, ISMCTS) over the compiled drivers.

| name | agent | module |
|---|---|---|
| ``pimc`` | heuristic playouts (Knüffeln: its own agent, which turns and answers turns) | ``pimc``, ``knuffeln`` |
| ``pimc_random`` | uniformly random playouts | ``pimc_random`` |
| ``nested_pimc`` | ``pimc_random``, with bids, calls, doubles and turns scored by simulated hands | ``pimc_random`` |
| ``pimc_neural`` | playouts played by a trained network (``agents.neural``), batched | ``pimc_neural`` |
| ``ismcts`` | one search tree over the seat's information set (SO-ISMCTS), heuristic playouts | ``ismcts`` |
| ``pimc_dd`` | sampled worlds' last tricks solved exactly (``trick_core.solver``), else ``pimc`` | ``pimc_dd`` |

``outcomes.search_function`` gives the compiled search loop (``trick_core.drivers.search_outcomes``) of a
game and playout policy, ``outcomes.solver_function`` the exact solver of a game (``trick_core.solver``).
``pimc_neural`` and ``pimc_dd`` are not imported here (``pimc_neural`` loads torch for its checkpoint,
``pimc_dd`` compiles the solver).
"""

from __future__ import annotations

from trick_core.registry import game_spec

from .ismcts import ISMCTSAgent
from .knuffeln import KnuffelnPIMCAgent
from .pimc import HeuristicPIMCAgent
from .pimc_random import NestedPIMCAgent, PIMCAgent

__all__ = ["HeuristicPIMCAgent", "ISMCTSAgent", "KnuffelnPIMCAgent", "NestedPIMCAgent", "PIMCAgent", "make_pimc"]


def make_pimc(game: str, **kwargs) -> HeuristicPIMCAgent:
    """The built-in ``pimc`` of ``game`` (``agents.make("pimc", game, **kwargs)``): the class the game's spec
    names for it (``agent_classes``; Knüffeln's search agent), else the heuristic-playout agent, with the
    spec's ``agent_defaults`` filling in what ``kwargs`` leaves out (``pimc``'s docstring says why)."""
    spec = game_spec(game)
    return spec.agent_class("pimc", HeuristicPIMCAgent)(game, **{**spec.agent_options("pimc"), **kwargs})
