"""The compiled determinized search behind the ``pimc`` agents, for every game.

The search loop itself is the driver ``search_outcomes`` of ``trick_core.drivers`` (one template,
compiled per game and per playout policy): ``samples`` times, redeal the cards hidden from ``seat`` in
the kernel state ``world`` (a deal consistent with everything ``seat`` knows), then for each candidate
action apply it and play ``playouts`` playouts to the end of the hand; ``out[sample, i, playout]``
receives ``seat``'s settlement, NaN where no consistent redeal was found or the action is not legal in it.

``world`` is any state that agrees with the real table on everything ``seat`` knows, for instance the
kernel state of a world from ``resample_from_infostate``: the redeal depends only on what ``seat`` knows,
so the real table's hidden cards never reach the search.

Playouts are uniformly random (``RANDOM_PLAYOUTS``) or played by the game's heuristic playout policy
(``HEURISTIC_PLAYOUTS``: the ``policy_module`` of the game's record in ``trick_core.registry``), with ``epsilon`` its
share of random cards.

``solver_function(game)`` gives the exact solver (``trick_core.solver``) instead: each world's rest of
the hand played perfectly by both sides rather than played out.
"""

from __future__ import annotations

import functools

from trick_core import drivers, solver
from trick_core.registry import game_spec

RANDOM_PLAYOUTS = "random"
HEURISTIC_PLAYOUTS = "heuristic"


@functools.cache
def search_function(game: str, playouts: str):
    """The compiled ``search_outcomes(world, seat, actions, samples, playouts, rng, epsilon, out)`` of a
    game with ``RANDOM_PLAYOUTS`` or ``HEURISTIC_PLAYOUTS`` (looked up once per process: a search agent asks
    at every decision)."""
    spec = game_spec(game)
    if playouts == RANDOM_PLAYOUTS:
        return drivers.compiled(spec.kernel()).search_outcomes
    if playouts == HEURISTIC_PLAYOUTS:
        return drivers.compiled_search(spec.kernel(), spec.policy()).search_outcomes
    raise ValueError(f"unknown playout policy {playouts!r}; choose {RANDOM_PLAYOUTS!r} or {HEURISTIC_PLAYOUTS!r}")


@functools.cache
def solver_function(game: str):
    """The compiled exact solver of a game (``trick_core.solver.compiled_solver`` over the registry's
    kernel and playout policy): ``solve(state, seat)``, ``solve_outcomes(world, seat, actions, samples,
    rng, out)`` and the variants taking the number of exactly solved tricks."""
    spec = game_spec(game)
    return solver.compiled_solver(spec.kernel(), spec.policy())
