"""The compiled determinized search behind the ``pimc`` agent, one loop for every game.

``search_outcomes(game_code, world, seat, actions, samples, playouts, rng, policy, epsilon, out)``:
``samples`` times, redeal the cards hidden from ``seat`` in the kernel state ``world`` (the game kernel's
``resample_hidden``: a deal consistent with everything ``seat`` knows, its own legal choices included),
then for each candidate ``actions[i]`` apply it and play ``playouts`` playouts to the end of the hand:
uniformly random (``policy`` ``RANDOM_PLAYOUTS``, the kernel's ``random_playout``) or heuristic
(``HEURISTIC_PLAYOUTS``, ``schafkopf_env.playouts`` / ``knuffeln_env.playouts``, with ``epsilon`` its share
of random cards); ``out[sample, i, playout]`` receives ``seat``'s settlement, NaN where no consistent
redeal was found or the action is not legal in it.

``world`` is any state that agrees with the real table on everything ``seat`` knows, for instance the
kernel state of a clone from ``resample_from_infostate``: the redeal depends only on what ``seat`` knows,
so the real table's hidden cards never reach the search, and one Python ``clone()`` per decision serves
every world (a clone per world cost ten times the search itself).

The game is a code (``GAME_CODES``) rather than a function argument so that numba caches the one compiled
loop; each branch calls that game's kernel.
"""

from __future__ import annotations

import numpy as np

from knuffeln_env import kernel as kk
from knuffeln_env.playouts import heuristic_playout as knuffeln_playout
from schafkopf_env import asserufen_kernel as ak
from schafkopf_env import bavarian_kernel as bk
from schafkopf_env import palatinate_kernel as pk
from schafkopf_env.playouts import asserufen_heuristic_playout, bavarian_heuristic_playout, palatinate_heuristic_playout
from trick_core.jit import njit

GAME_CODES = {"bavarian": 0, "palatinate": 1, "asserufen": 2, "knuffeln": 3}
MAX_ACTIONS = max(bk.NUM_ACTIONS, pk.NUM_ACTIONS, ak.NUM_ACTIONS, kk.NUM_BASE_ACTIONS + kk.MAX_TOKENS)
MAX_SEATS = 5
RANDOM_PLAYOUTS = 0
HEURISTIC_PLAYOUTS = 1


@njit
def _resample(game, world, seat, rng, out):
    if game == 0:
        return bk.resample_hidden(world, seat, rng, out)
    if game == 1:
        return pk.resample_hidden(world, seat, rng, out)
    if game == 2:
        return ak.resample_hidden(world, seat, rng, out)
    return kk.resample_hidden(world, seat, rng, out)


@njit
def _legal_mask(game, state, mask):
    if game == 0:
        bk.legal_action_mask(state, mask)
    elif game == 1:
        pk.legal_action_mask(state, mask)
    elif game == 2:
        ak.legal_action_mask(state, mask)
    else:
        kk.legal_action_mask(state, mask)


@njit
def _play_to_end(game, state, action, rng, policy, epsilon, units):
    """Apply ``action``, play a playout of ``policy`` to the end, write the settlement into ``units``."""
    units[:] = 0.0
    heuristic = policy == HEURISTIC_PLAYOUTS
    if game == 0:
        bk.apply_action(state, action)
        if heuristic:
            bavarian_heuristic_playout(state, rng, epsilon)
        else:
            bk.random_playout(state, rng)
        bk.settlement(state, units)
    elif game == 1:
        pk.apply_action(state, action)
        if heuristic:
            palatinate_heuristic_playout(state, rng, epsilon)
        else:
            pk.random_playout(state, rng)
        pk.settlement(state, units)
    elif game == 2:
        ak.apply_action(state, action)
        if heuristic:
            asserufen_heuristic_playout(state, rng, epsilon)
        else:
            ak.random_playout(state, rng)
        ak.settlement(state, units)
    else:
        kk.apply_action(state, action)
        if heuristic:
            knuffeln_playout(state, rng, epsilon)
        else:
            kk.random_playout(state, rng)
        kk.settlement(state, units)


@njit
def search_outcomes(game, world, seat, actions, samples, playouts, rng, policy, epsilon, out):
    """The search loop (module docstring)."""
    sampled = np.empty_like(world)
    work = np.empty_like(world)
    mask = np.zeros(MAX_ACTIONS, dtype=np.int8)
    units = np.zeros(MAX_SEATS, dtype=np.float64)
    for sample in range(samples):
        if not _resample(game, world, seat, rng, sampled):
            out[sample, :, :] = np.nan
            continue
        _legal_mask(game, sampled, mask)
        for i in range(actions.shape[0]):
            if mask[actions[i]] == 0:
                out[sample, i, :] = np.nan
                continue
            for p in range(playouts):
                work[:] = sampled
                _play_to_end(game, work, actions[i], rng, policy, epsilon, units)
                out[sample, i, p] = units[seat]
