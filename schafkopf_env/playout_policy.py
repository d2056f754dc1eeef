"""The playout policy of the Schafkopf games, written once: the part of ``choose_action`` (the policy
protocol of ``trick_core.drivers``) that does not depend on the game.

Most steps of a playout play a card. ``choose_action`` takes it straight from the kernel's legal card bits
(``legal_card_bits(state, seat)``) — a uniformly random one with probability ``epsilon``, else the game's
heuristic card (``schafkopf_env.card_play``) — and leaves every other decision (bids, calls, doubles ...)
to the game. Each game's ``heuristic`` module provides:

| name | what it is |
|---|---|
| ``CARD_PHASE`` | the kernel's phase in which the seat to act plays a card |
| ``card(state, legal, scratch, seat)`` | the heuristic card of ``seat`` among the ``legal`` card bits |
| ``decision(state, hand, mask, rng)`` | any other action of the seat to act (holding ``hand``; legal: ``mask``) |

and calls ``compiled_policy`` at its end, which binds the templates below to it and to the game's kernel
(``trick_core.specialise``: one compiled copy per game, cached on disk like the drivers).
"""

from __future__ import annotations

import sys
import types

import numpy as np

from trick_core.bits import uniform01
from trick_core.jit import inline_njit, njit
from trick_core.specialise import code_fingerprint, compile_copies, templates_of

from .card_play import SCRATCH_SIZE, random_card_action

kernel = None
"""The game's kernel module; bound in each compiled copy."""
game = None
"""The game's heuristic module; bound in each compiled copy."""


def choose_action(state, mask, scratch, rng, epsilon):
    """The playout's action in ``state``: a card from the legal card bits, else the game's decision over
    the legal ``mask`` (filled here)."""
    seat = kernel.current_seat(state)
    if state[kernel.S_PHASE] == game.CARD_PHASE:
        legal = kernel.legal_card_bits(state, seat)
        if epsilon > 0.0 and uniform01(rng) < epsilon:
            return random_card_action(legal, kernel.CARD_ACTION_BASE, rng)
        return kernel.CARD_ACTION_BASE + game.card(state, legal, scratch, seat)
    kernel.legal_action_mask(state, mask)
    return game.decision(state, np.uint64(state[kernel.S_HANDS + seat]), mask, rng)


def heuristic_action(state, rng, epsilon):
    """The action the playout policy takes in ``state`` (for tests and for stepping by hand)."""
    mask = np.zeros(kernel.NUM_ACTIONS, dtype=np.int8)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    return choose_action(state, mask, scratch, rng, epsilon)


TEMPLATES = ("choose_action", "heuristic_action")
"""The template functions of this module (names: a tuple of functions would not fingerprint stably)."""


def compiled_policy(heuristic_module: types.ModuleType, kernel_module: types.ModuleType) -> types.SimpleNamespace:
    """``choose_action`` (inline, for the drivers' playouts) and ``heuristic_action`` bound to a game's
    heuristic module and kernel (module docstring)."""
    tag = f"{kernel_module.GAME}__{code_fingerprint(heuristic_module)}"
    namespace = {**globals(), "kernel": kernel_module, "game": heuristic_module}
    templates = templates_of(sys.modules[__name__], TEMPLATES)
    return compile_copies(templates, namespace, tag, lambda name: inline_njit if name == "choose_action" else njit)
