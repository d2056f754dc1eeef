"""The entry points of the kernel contract for a game whose legal actions fit the bits of one ``uint64``
(Bavarian Schafkopf, Asserufen), written once and compiled per game.

Such a game's rules are inline functions in its package, which its kernel module imports:
``deal_random_with(state, params, rng, dealer)`` (a random deal; dealer -1: drawn too),
``legal_action_bits(state)`` (the legal actions of the seat to act as bits, 0 once over),
``apply(state, action)`` (the effect of a legal action, recorded in the history) and
``settle(state, out)`` (the settlement). The functions below wrap them into the contract's entry points
(``docs/architecture.md``), which the env, the drivers and the batch loops call: compiled functions, not
inlined, so each game's rules are compiled once into them.

They are templates (``trick_core.specialise``): ``kernel`` names the game's kernel module, and
``entry_points(kernel_module)`` returns the copies bound to it. A kernel module calls it once its rules
are imported; the copies compile at their first call, when the module is complete.
"""

from __future__ import annotations

import types

import numpy as np

from .bits import ONE
from .jit import njit_no_refcount
from .specialise import code_fingerprint, compile_copies

kernel = None
"""The game's kernel module; bound in each compiled copy."""

TEMPLATE_NAMES = ("deal_random", "deal_random_for_dealer", "legal_action_mask", "apply_action", "settlement")
"""The templates, in the order ``entry_points`` returns them."""


def deal_random(state, params, rng):
    """Deal at random (the dealer drawn too) from the splitmix64 ``rng`` and start the hand."""
    kernel.deal_random_with(state, params, rng, -1)


def deal_random_for_dealer(state, params, rng, dealer):
    """Deal at random for ``dealer`` (-1: drawn first, as in ``deal_random``) and start the hand."""
    kernel.deal_random_with(state, params, rng, dealer)


def legal_action_mask(state, out):
    """Fill int8 ``out[NUM_ACTIONS]`` with the legal actions of the seat to act (zeros once over)."""
    bits = kernel.legal_action_bits(state)
    for action in range(kernel.NUM_ACTIONS):
        out[action] = (bits >> np.uint64(action)) & ONE


def apply_action(state, action):
    """Apply a legal action of the seat to act (unchecked: callers check legality with the mask)."""
    kernel.apply(state, action)


def settlement(state, out):
    """Units per seat once the hand is over (zero-sum); zeros when thrown in or still running."""
    kernel.settle(state, out)


def entry_points(kernel_module: types.ModuleType) -> tuple:
    """The compiled copies of the templates bound to ``kernel_module``, in ``TEMPLATE_NAMES`` order."""
    tag = f"{kernel_module.GAME}__{code_fingerprint(kernel_module)}"
    templates = [globals()[name] for name in TEMPLATE_NAMES]
    copies = compile_copies(templates, {**globals(), "kernel": kernel_module}, tag, lambda name: njit_no_refcount)
    return tuple(getattr(copies, name) for name in TEMPLATE_NAMES)
