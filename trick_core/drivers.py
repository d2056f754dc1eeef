"""The game-independent drivers, written once and compiled per game: stepping, playouts, random whole
hands, resampling hidden cards and the determinized search.

Each function below is a *template* (``trick_core.specialise``): it calls the game's rules through the
module global ``kernel`` (a kernel module following the contract of ``docs/architecture.md``) and, for
the search, the playout policy through ``playout``. ``compiled(kernel_module)`` returns the copies bound
to one game; ``compiled_search(kernel_module, policy_module)`` the search over a playout policy (a module
with ``SCRATCH_SIZE`` and an inline ``choose_action(state, mask, scratch, rng, epsilon)``, e.g. a game's
``heuristic`` module). Everything is cached per process and on disk.

| driver | what it does |
|---|---|
| ``advance(state, action, mask_out)`` | one env step: apply, fill the next seat's mask, return it (-1: over) |
| ``random_playout(state, rng)`` | uniformly random legal actions until the hand is over, in place |
| ``playout_values(state, actions, playouts, rng, out)`` | per candidate action, summed random playouts |
| ``play_random_hands(params, num_hands, seed)`` | random whole hands; returns seat 0's summed units |
| ``resample_hidden(state, seat, rng, out_state)`` | the cards hidden from ``seat`` redealt consistently |
| ``hidden_constraints(state, seat)``, ``redeal_hidden(...)`` | the same in two steps: read once, redeal often |
| ``search_outcomes(world, seat, actions, samples, playouts, rng, epsilon, out)`` | the PIMC search (below) |
| ``policy_playout(state, rng, epsilon)`` | play to the end with the playout policy (``compiled_search``) |

**Resampling** (``resample_hidden``) asks the kernel for the constraints on the hidden cards — the *holders*
(other seats, and piles such as a skat or a stock) with how many unseen cards each holds, which cards each
may hold and which each must hold (``kernel.hidden_card_constraints``) — deals the unseen cards with
``trick_core.sampling.deal_with_constraints``, and lets the kernel rebuild the deal from the sample and
replay the recorded actions (``kernel.replay_sample``), rejecting any sample under which a recorded action
would have been illegal. ``kernel.resample_context(state, seat)`` prepares what the replay compares
against (an ``int64`` 2-D array; empty where a game needs nothing).

**The search** (``search_outcomes``): ``samples`` times, redeal the cards hidden from ``seat`` in the world
``world`` (``resample_hidden``), then for each candidate ``actions[i]`` apply it and play ``playouts``
playouts to the end of the hand; ``out[sample, i, playout]`` receives ``seat``'s settlement, NaN where no
consistent redeal was found or the action is not legal in it. The redeal depends only on what ``seat``
knows, so the real table's hidden cards never reach the search. The constraints and the kernel's context
are read from ``world`` once (``hidden_constraints``), not once per redeal: they draw nothing, so the
redeals are exactly those of ``samples`` calls of ``resample_hidden``, for less work.
"""

from __future__ import annotations

import functools
import sys
import types

import numpy as np

from .bits import popcount
from .jit import njit, njit_no_refcount
from .sampling import deal_with_constraints
from .specialise import code_fingerprint, compile_copies, templates_of

RESAMPLING_PROTOCOL = (
    "DEAL_TRIES",
    "MAX_HOLDERS",
    "RESAMPLE_ATTEMPTS",
    "hidden_card_constraints",
    "replay_sample",
    "resample_context",
)
"""What a kernel provides for ``resample_hidden`` (module docstring); each game's ``resample`` module has it
as its ``__all__``, and its kernel re-exports it."""

kernel = None
"""The game's kernel module; bound in each compiled copy."""
playout = None
"""The search's playout ``playout(state, rng, epsilon)``; bound in each compiled copy of the search."""
policy = None
"""The playout policy module; bound in ``compiled_search``'s copies."""


# --------------------------------------------------------------------------------------------- templates


def advance(state, action, mask_out):
    """``apply_action``, then fill ``mask_out`` for the next seat; return that seat, or -1 when over."""
    kernel.apply_action(state, action)
    kernel.legal_action_mask(state, mask_out)
    return kernel.current_seat(state)


def random_playout(state, rng):
    """Play uniformly random legal actions (each game's own draw: ``kernel.random_step``) until the
    hand is over, in place. ``random_step`` is inlined: the rules run without a call per action."""
    while kernel.current_seat(state) >= 0:
        kernel.random_step(state, rng)


def random_policy_playout(state, rng, epsilon):
    """``random_playout`` with the signature of a playout policy (``epsilon`` is not used)."""
    random_playout(state, rng)


def playout_values(state, actions, playouts, rng, out):
    """For each candidate ``actions[i]`` of the seat to act, ``playouts`` times: copy the state, apply
    it, play randomly to the end, and add the settlement into ``out[i, :]``."""
    work = np.empty_like(state)
    units = np.zeros(kernel.MAX_SEATS, dtype=np.float64)
    for i in range(actions.shape[0]):
        for _ in range(playouts):
            for k in range(state.shape[0]):  # not work[:] = state: numba may allocate a copy for that
                work[k] = state[k]
            kernel.apply_action(work, actions[i])
            random_playout(work, rng)
            kernel.settlement(work, units)
            for s in range(out.shape[1]):
                out[i, s] += units[s]


def play_random_hands(params, num_hands, seed):
    """Deal and play ``num_hands`` uniformly random hands from one splitmix64 stream; returns the sum of
    seat 0's units (a checksum; the batch module's ``play_random_hands`` spreads hands over threads)."""
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64(seed)
    state = np.zeros(kernel.STATE_SIZE, dtype=np.int64)
    units = np.zeros(kernel.MAX_SEATS, dtype=np.float64)
    checksum = 0.0
    for _ in range(num_hands):
        kernel.deal_random(state, params, rng)
        random_playout(state, rng)
        kernel.settlement(state, units)
        checksum += units[0]
    return checksum


def resample_hidden(state, seat, rng, out_state):
    """Write into ``out_state`` a world whose cards hidden from ``seat`` are redealt consistently with
    everything ``seat`` knows; True on success, False when no consistent deal was found (module
    docstring)."""
    return redeal_hidden(state, seat, rng, out_state, hidden_constraints(state, seat))


def hidden_constraints(state, seat):
    """What ``redeal_hidden`` draws under, read once from ``state`` for ``seat``: ``(feasible, unseen cards
    not forced, per holder the count of free cards, the cards it may take and those it must hold, the
    kernel's resample context)``. Drawing no randomness, it can serve every redeal of one world (the
    search's ``samples`` redeals read it once instead of once each)."""
    holders = kernel.MAX_HOLDERS
    counts = np.zeros(holders, dtype=np.int64)
    allowed = np.zeros(holders, dtype=np.uint64)
    forced = np.zeros(holders, dtype=np.uint64)
    unseen = kernel.hidden_card_constraints(state, seat, counts, allowed, forced)
    forced_all = np.uint64(0)
    for h in range(holders):
        forced_all |= forced[h]
    free_counts = np.zeros(holders, dtype=np.int64)
    free_allowed = np.zeros(holders, dtype=np.uint64)
    feasible = True
    for h in range(holders):
        free_counts[h] = counts[h] - popcount(forced[h])
        if free_counts[h] < 0:
            feasible = False
        free_allowed[h] = allowed[h] & ~forced_all
    context = kernel.resample_context(state, seat)
    return feasible, unseen & ~forced_all, free_counts, free_allowed, forced, context


def redeal_hidden(state, seat, rng, out_state, constraints):
    """``resample_hidden`` under constraints already read by ``hidden_constraints(state, seat)``. The kernel's
    ``replay_sample`` may rewrite its context (Palatinate's discards), but only in full at every call, as
    the attempts below already require, so one context serves any number of redeals."""
    feasible, free_unseen, free_counts, free_allowed, forced, context = constraints
    if not feasible:
        return False
    holders = kernel.MAX_HOLDERS
    dealt = np.zeros(holders, dtype=np.uint64)
    for _attempt in range(kernel.RESAMPLE_ATTEMPTS):
        if not deal_with_constraints(free_unseen, free_counts, free_allowed, rng, dealt, kernel.DEAL_TRIES):
            continue
        for h in range(holders):
            dealt[h] |= forced[h]
        if kernel.replay_sample(state, seat, dealt, rng, out_state, context):
            return True
    return False


def search_outcomes(world, seat, actions, samples, playouts, rng, epsilon, out):
    """The determinized search (module docstring)."""
    sampled = np.empty_like(world)
    work = np.empty_like(world)
    mask = np.zeros(kernel.MAX_ACTIONS, dtype=np.int8)
    units = np.zeros(kernel.MAX_SEATS, dtype=np.float64)
    constraints = hidden_constraints(world, seat)
    for sample in range(samples):
        if not redeal_hidden(world, seat, rng, sampled, constraints):
            out[sample, :, :] = np.nan
            continue
        kernel.legal_action_mask(sampled, mask)
        for i in range(actions.shape[0]):
            if mask[actions[i]] == 0:
                out[sample, i, :] = np.nan
                continue
            for p in range(playouts):
                work[:] = sampled
                kernel.apply_action(work, actions[i])
                playout(work, rng, epsilon)
                kernel.settlement(work, units)
                out[sample, i, p] = units[seat]


def policy_playout(state, rng, epsilon):
    """Play to the end of the hand with the playout policy's ``choose_action``, in place."""
    mask = np.zeros(kernel.MAX_ACTIONS, dtype=np.int8)
    scratch = np.zeros(policy.SCRATCH_SIZE, dtype=np.int64)
    while kernel.current_seat(state) >= 0:
        kernel.apply_action(state, policy.choose_action(state, mask, scratch, rng, epsilon))


# --------------------------------------------------------------------------------------------- compilation

DRIVERS = ("advance", "random_playout", "random_policy_playout", "playout_values", "play_random_hands",
           "resample_hidden", "hidden_constraints", "redeal_hidden")
NO_REFCOUNT = frozenset({"advance", "random_playout", "random_policy_playout"})
"""Drivers that allocate nothing, compiled without reference counting (``trick_core.jit``)."""


def _decorator(name: str):
    return njit_no_refcount if name in NO_REFCOUNT else njit


@functools.cache
def compiled(kernel_module: types.ModuleType) -> types.SimpleNamespace:
    """The drivers bound to ``kernel_module`` (cached per process and on disk), plus ``search_outcomes``
    with uniformly random playouts."""
    game = kernel_module.GAME
    tag = f"{game}__{code_fingerprint(kernel_module)}"
    base = compile_copies(templates_of(_this_module(), DRIVERS), {**globals(), "kernel": kernel_module}, tag,
                          _decorator)
    namespace = {**globals(), **vars(base), "kernel": kernel_module, "playout": base.random_policy_playout}
    search = compile_copies([search_outcomes], namespace, f"random__{tag}", _decorator)
    return types.SimpleNamespace(**vars(base), search_outcomes=search.search_outcomes)


@functools.cache
def compiled_search(kernel_module: types.ModuleType, policy_module: types.ModuleType) -> types.SimpleNamespace:
    """``policy_playout`` and ``search_outcomes`` with the playouts of ``policy_module``."""
    base = compiled(kernel_module)
    policy_name = policy_module.__name__.replace(".", "_")
    tag = f"{kernel_module.GAME}__{policy_name}__{code_fingerprint(kernel_module, policy_module)}"
    namespace = {**globals(), **vars(base), "kernel": kernel_module, "policy": policy_module}
    playouts = compile_copies([policy_playout], namespace, tag, _decorator)
    namespace["playout"] = playouts.policy_playout
    search = compile_copies([search_outcomes], namespace, f"policy__{tag}", _decorator)
    return types.SimpleNamespace(policy_playout=playouts.policy_playout, search_outcomes=search.search_outcomes)


def _this_module() -> types.ModuleType:
    return sys.modules[__name__]
