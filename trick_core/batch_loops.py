"""Compiled loops over a batch of kernel states (one hand per row), written once for every game.

The loops below are *templates*: plain Python functions that call the game's rules through the module
global ``kernel`` (any module that follows the kernel contract of ``docs/architecture.md``).
``specialise(kernel_module, game)`` makes a compiled copy of every template in which ``kernel`` is that
game's kernel module, so numba sees the kernel functions as globals and inlines them — one machine-code
loop per game, no function pointers.

Why copies of code objects rather than a factory of closures, or kernel functions passed as arguments:
numba can only *cache* (``cache=True``) a function whose identity is stable across processes. A jitted
function passed as an argument, or captured in a closure, is keyed by a per-process id, so its compiled
code is saved but never found again: every process would recompile (seconds per game). A copy of the
template's code object with its own name (``step_rows__bavarian__<fingerprint>``) and its own globals
caches like any module-level function.

The name carries a fingerprint of the kernel's code as loaded (its jitted functions' code objects and its
constant tables, and those of every project module it reaches, e.g. ``schafkopf_env/common.py`` and
``trick_core/jit.py``). Numba invalidates a cache entry only when the file that *defines* the function
changes, not when a function it calls changes; with the fingerprint in the name, an edited kernel gets
freshly compiled loops instead of stale machine code. (Old entries stay in ``__pycache__`` until it is
cleaned.)

All templates take the batch as 2-D arrays (one row per hand) and loop the rows with ``numba.prange``:
the ``parallel`` specialisation spreads rows over numba's threads, the serial one runs them in order.
They rely on the kernel contract as the envs do: ``observe`` and ``legal_action_mask`` write every entry
of their output (the tests compare every observation with the AEC env's).
"""

from __future__ import annotations

import functools
import hashlib
import os
import sys
import types

import numba
import numpy as np
from numba import prange

from .jit import njit, njit_parallel, rng_below

# OpenMP (numba's default threading layer here) spins idle worker threads by default. When the cores are
# shared — with PyTorch's own threads in a training loop, or other processes — a spinning worker steals the
# core its partner needs and a parallel step becomes several times slower than a serial one (measured on
# the 2-core benchmark machine: 0.16 M instead of 1.2-1.5 M steps/s). Passive waiting costs a few
# microseconds per parallel call on an idle machine. It must be set before OpenMP starts (at the first
# parallel call); a value the user set is kept.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

kernel = None
"""The game's kernel module; bound in each specialised copy (see ``specialise``)."""

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
        seat = kernel.advance(state, actions[i], action_masks[i])
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
            kernel.random_playout(state, rng)
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
def _sample_row(mask, rng):
    count = 0
    for a in range(mask.shape[0]):
        count += mask[a]
    pick = rng_below(rng, count)
    for a in range(mask.shape[0]):
        if mask[a]:
            if pick == 0:
                return a
            pick -= 1
    return -1


@njit
def sample_legal_actions(action_masks, rngs, out):
    """One uniformly random legal action per row (every row must have one)."""
    for i in range(action_masks.shape[0]):
        out[i] = _sample_row(action_masks[i], rngs[i])


@njit_parallel
def sample_legal_actions_parallel(action_masks, rngs, out):
    """``sample_legal_actions`` over numba's threads (each row has its own stream, so the result is the
    same for any number of threads)."""
    for i in prange(action_masks.shape[0]):
        out[i] = _sample_row(action_masks[i], rngs[i])


# --------------------------------------------------------------------------------------------- specialisation


_PROJECT_PACKAGES = ("trick_core", "schafkopf_env", "knuffeln_env")


def _project_module_of(obj) -> types.ModuleType | None:
    """The project module that defines ``obj`` (a module, function or numba dispatcher), if any."""
    if isinstance(obj, types.ModuleType):
        module = obj
    else:
        func = getattr(obj, "py_func", obj)
        module = sys.modules.get(getattr(func, "__module__", None) or "")
    if module is None:
        return None
    return module if module.__name__.split(".")[0] in _PROJECT_PACKAGES else None


def _code_signature(code: types.CodeType) -> bytes:
    """Bytecode, names and constants of a code object, nested code included (stable across processes,
    unlike ``marshal``, whose output depends on reference counts)."""
    parts = [code.co_code, repr(code.co_names).encode(), repr(code.co_varnames).encode()]
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            parts.append(_code_signature(const))
        elif isinstance(const, frozenset):
            parts.append(repr(sorted(map(repr, const))).encode())
        else:
            parts.append(repr(const).encode())
    return b"\0".join(parts)


def _fingerprint_value(digest, name: str, value) -> None:
    """Feed what numba would compile from one module global into ``digest``: a jitted function's code
    (constants and nested code included), an array's bytes, a plain constant's repr."""
    if hasattr(value, "py_func"):
        digest.update(name.encode() + _code_signature(value.py_func.__code__))
    elif isinstance(value, np.ndarray):
        digest.update(name.encode() + str((value.dtype, value.shape)).encode() + value.tobytes())
    elif isinstance(value, (bool, int, float, str, tuple)):
        digest.update(name.encode() + repr(value).encode())


def code_fingerprint(kernel_module: types.ModuleType) -> str:
    """Short hash of the code *loaded* from ``kernel_module`` and every project module it reaches.

    Taken from the functions and constants in memory (not the files on disk), so an edit of a file after
    it was imported can never label old machine code with the new source's fingerprint.
    """
    seen: dict[str, types.ModuleType] = {}
    pending = [kernel_module]
    while pending:
        module = pending.pop()
        if module.__name__ in seen:
            continue
        seen[module.__name__] = module
        for value in vars(module).values():
            dependency = _project_module_of(value)
            if dependency is not None and dependency.__name__ not in seen:
                pending.append(dependency)
    digest = hashlib.sha1()
    for module_name in sorted(seen):
        for name, value in sorted(vars(seen[module_name]).items()):
            _fingerprint_value(digest, f"{module_name}.{name}", value)
    return digest.hexdigest()[:12]


def compile_copies(
    templates, namespace: dict, tag: str, parallel: bool, serial_names=()
) -> types.SimpleNamespace:
    """Compile a uniquely named copy of each template function, all sharing the globals ``namespace``
    (so that templates calling each other call each other's copies). The copies are named
    ``<template>__<tag>`` for numba's on-disk cache; ``tag`` must tell apart everything that changes the
    machine code (game, variant, code fingerprint). ``parallel`` compiles with ``njit_parallel`` except
    the templates named in ``serial_names``, which always use ``njit``. Compilation is lazy."""
    decorator = njit_parallel if parallel else njit
    namespace = dict(namespace)
    compiled = {}
    for template in templates:
        name = template.__name__
        unique_name = f"{name}__{tag}"
        code = template.__code__.replace(co_name=unique_name, co_qualname=unique_name)
        function = types.FunctionType(code, namespace, unique_name, template.__defaults__)
        function.__doc__ = template.__doc__
        compiled[name] = (njit if name in serial_names else decorator)(function)
        namespace[name] = compiled[name]
    return types.SimpleNamespace(**compiled)


def variant_tag(parallel: bool) -> str:
    return "parallel" if parallel else "serial"


@functools.cache
def specialise(kernel_module: types.ModuleType, game: str, parallel: bool) -> types.SimpleNamespace:
    """Compiled copies of this module's templates bound to ``kernel_module`` (cached per process and on
    disk). ``parallel=True`` spreads rows over numba's threads, ``False`` runs them serially."""
    tag = f"{game}__{variant_tag(parallel)}__{code_fingerprint(kernel_module)}"
    templates = [globals()[name] for name in TEMPLATE_NAMES]
    return compile_copies(templates, {**globals(), "kernel": kernel_module}, tag, parallel, SERIAL_TEMPLATES)


def row_seeds(seed: int | None, count: int) -> np.ndarray:
    """``count`` independent uint64 stream seeds from one seed (``numpy.random.SeedSequence``)."""
    return np.random.SeedSequence(seed).generate_state(count, dtype=np.uint64)


def set_threads(num_threads: int | None) -> None:
    """Use ``num_threads`` numba threads from now on in this thread (None: all of them)."""
    wanted = numba.config.NUMBA_NUM_THREADS if num_threads is None else num_threads
    if numba.get_num_threads() != wanted:
        numba.set_num_threads(wanted)
