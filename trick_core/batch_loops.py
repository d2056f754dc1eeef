"""Compiled loops over a batch of kernel states (one hand per row), written once for every game.

The loops below are templates (``trick_core.specialise``): they call the game's rules through the module
global ``kernel`` (any module that follows the kernel contract of ``docs/architecture.md``) and the
game's drivers (``advance``, ``random_playout`` of ``trick_core.drivers``). ``specialise(kernel_module,
game, parallel)`` makes the compiled copies for one game.

All templates take the batch as 2-D arrays (one row per hand) and loop the rows with ``numba.prange``:
the ``parallel`` specialisation spreads rows over numba's threads, the serial one runs them in order.
They rely on the kernel contract as the envs do: ``observe`` and ``legal_action_mask`` write every entry
of their output (the tests compare every observation with the AEC env's).
"""

from __future__ import annotations

import functools
import os
import sys
import types

import numba
import numpy as np
from numba import prange

from . import drivers
from .bits import random_legal_action
from .jit import njit, njit_parallel
from .specialise import code_fingerprint, compile_copies, templates_of

# OpenMP (numba's default threading layer here) spins idle worker threads by default. When the cores are
# shared — with PyTorch's own threads in a training loop, or other processes — a spinning worker steals the
# core its partner needs and a parallel step becomes several times slower than a serial one (measured:
# docs/benchmarks.md, "Threads on a shared machine"). Passive waiting costs a few microseconds per parallel
# call on an idle machine. It must be set before OpenMP starts (at the first parallel call); a value the
# user set is kept.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

kernel = None
"""The game's kernel module; bound in each specialised copy (see ``specialise``)."""
advance = None
random_playout = None
"""The game's drivers (``trick_core.drivers``); bound in each specialised copy."""

SERIAL_TEMPLATES = ("start_hand", "first_finished_row", "refresh_rows")
"""Templates compiled serially in both variants: helpers called inside another loop, and loops too short
to be worth threads."""
TEMPLATE_NAMES = (
    "start_hand",
    "reset_rows",
    "step_rows",
    "first_finished_row",
    "refresh_rows",
    "observe_rows",
    "play_random_hands",
)


# --------------------------------------------------------------------------------------------- templates


def start_hand(state, params, deal_rng, rewards_row, settlement_row):
    """Deal a new hand into ``state``; return the seat to act.

    A hand that is over before anyone decides anything (no game deals one, but the loop must not hang
    or lose units if one does) is settled into ``rewards_row`` and dealt again.
    """
    kernel.deal_random(state, params, deal_rng)
    seat = kernel.current_seat(state)
    while seat < 0:
        kernel.settlement(state, settlement_row)
        for s in range(rewards_row.shape[0]):
            rewards_row[s] += settlement_row[s]
        kernel.deal_random(state, params, deal_rng)
        seat = kernel.current_seat(state)
    return seat


def reset_rows(states, params, deal_rngs, obs_type, observations, action_masks, current_players, rewards,
               settlements):
    """Deal a fresh hand in every row and fill its first observation, mask and acting seat."""
    for i in prange(states.shape[0]):
        state = states[i]
        rewards[i, :] = 0.0
        seat = start_hand(state, params, deal_rngs[i], rewards[i], settlements[i])
        kernel.legal_action_mask(state, action_masks[i])
        current_players[i] = seat
        kernel.observe(state, seat, obs_type, observations[i])


def step_rows(states, params, deal_rngs, actions, obs_type, observations, action_masks, current_players,
              rewards, terminated, settlements):
    """Apply one (already validated) action per row; settle and redeal the rows whose hand ended.

    Afterwards every row describes its seat to act: its observation, action mask and seat. ``rewards``
    holds the settlement of the hands that ended in this step (zeros elsewhere).
    """
    for i in prange(states.shape[0]):
        state = states[i]
        rewards[i, :] = 0.0
        seat = advance(state, actions[i], action_masks[i])
        terminated[i] = seat < 0
        if seat < 0:
            kernel.settlement(state, settlements[i])
            for s in range(rewards.shape[1]):
                rewards[i, s] = settlements[i, s]
            seat = start_hand(state, params, deal_rngs[i], rewards[i], settlements[i])
            kernel.legal_action_mask(state, action_masks[i])
        current_players[i] = seat
        kernel.observe(state, seat, obs_type, observations[i])


def first_finished_row(states):
    """Index of the first row whose hand is over (such a state cannot be stepped), or -1."""
    for i in range(states.shape[0]):
        if kernel.current_seat(states[i]) < 0:
            return i
    return -1


def refresh_rows(states, rows, obs_type, observations, action_masks, current_players):
    """Recompute seat, mask and observation of the given rows (after their states were set from
    outside); every one of them must have a seat to act."""
    for j in range(rows.shape[0]):
        i = rows[j]
        state = states[i]
        seat = kernel.current_seat(state)
        current_players[i] = seat
        kernel.legal_action_mask(state, action_masks[i])
        kernel.observe(state, seat, obs_type, observations[i])


def observe_rows(states, obs_type, out):
    """Observation of every seat of every row: ``out[row, seat]``."""
    for i in prange(states.shape[0]):
        for seat in range(out.shape[1]):
            kernel.observe(states[i], seat, obs_type, out[i, seat])


def play_random_hands(params, num_hands, chunk_seeds, state_size, settlement_sums):
    """Deal and play ``num_hands`` uniformly random whole hands, split into ``len(chunk_seeds)`` chunks
    (one splitmix64 stream each, run in parallel in the parallel specialisation).

    ``settlement_sums[chunk, seat]`` receives the summed settlement of each chunk's hands, so results
    depend on the seed and the number of chunks, never on the number of threads.
    """
    num_chunks = chunk_seeds.shape[0]
    for chunk in prange(num_chunks):
        begin = num_hands * chunk // num_chunks
        end = num_hands * (chunk + 1) // num_chunks
        state = np.zeros(state_size, dtype=np.int64)
        rng = np.empty(1, dtype=np.uint64)
        rng[0] = chunk_seeds[chunk]
        settlement = np.zeros(settlement_sums.shape[1], dtype=np.float64)
        for _ in range(end - begin):
            kernel.deal_random(state, params, rng)
            random_playout(state, rng)
            kernel.settlement(state, settlement)
            for seat in range(settlement.shape[0]):
                settlement_sums[chunk, seat] += settlement[seat]


# --------------------------------------------------------------------------------------------- game-free loops


@njit
def first_illegal_row(actions, action_masks):
    """Index of the first row whose action is out of range or not legal there, or -1."""
    num_actions = action_masks.shape[1]
    for i in range(actions.shape[0]):
        action = actions[i]
        if action < 0 or action >= num_actions or action_masks[i, action] == 0:
            return i
    return -1


@njit
def sample_legal_actions(action_masks, rngs, out):
    """One uniformly random legal action per row (every row must have one)."""
    for i in range(action_masks.shape[0]):
        out[i] = random_legal_action(action_masks[i], rngs[i])


@njit_parallel
def sample_legal_actions_parallel(action_masks, rngs, out):
    """``sample_legal_actions`` over numba's threads (each row has its own stream, so the result is the
    same for any number of threads)."""
    for i in prange(action_masks.shape[0]):
        out[i] = random_legal_action(action_masks[i], rngs[i])


# --------------------------------------------------------------------------------------------- specialisation


def variant_tag(parallel: bool) -> str:
    return "parallel" if parallel else "serial"


def decorator_for(parallel: bool, serial_names=SERIAL_TEMPLATES):
    """The numba decorator of each template: ``njit_parallel`` in the parallel variant, except the
    templates named in ``serial_names``, which are always ``njit``."""
    return lambda name: njit_parallel if parallel and name not in serial_names else njit


@functools.cache
def specialise(kernel_module: types.ModuleType, game: str, parallel: bool) -> types.SimpleNamespace:
    """Compiled copies of this module's templates bound to ``kernel_module`` (cached per process and on
    disk). ``parallel=True`` spreads rows over numba's threads, ``False`` runs them serially."""
    game_drivers = drivers.compiled(kernel_module)
    tag = f"{game}__{variant_tag(parallel)}__{code_fingerprint(kernel_module)}"
    namespace = {**globals(), "kernel": kernel_module, "advance": game_drivers.advance,
                 "random_playout": game_drivers.random_playout}
    templates = templates_of(sys.modules[__name__], TEMPLATE_NAMES)
    return compile_copies(templates, namespace, tag, decorator_for(parallel))


def row_seeds(seed: int | None, count: int) -> np.ndarray:
    """``count`` independent uint64 stream seeds from one seed (``numpy.random.SeedSequence``)."""
    return np.random.SeedSequence(seed).generate_state(count, dtype=np.uint64)


def set_threads(num_threads: int | None) -> None:
    """Use ``num_threads`` numba threads from now on in this thread (None: all of them)."""
    wanted = numba.config.NUMBA_NUM_THREADS if num_threads is None else num_threads
    if numba.get_num_threads() != wanted:
        numba.set_num_threads(wanted)
