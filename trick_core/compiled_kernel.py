"""Calling a numba kernel's compiled entry point directly (``CompiledKernel``), skipping numba's per-call
type dispatch, and the fixed signatures the envs call it with (``ADVANCE_SIGNATURE`` and the others below).
``trick_core.kernel_env`` binds a game kernel's ``advance``, ``observe``, ``legal_action_mask``,
``settlement`` and ``deal_random_for_dealer`` this way."""

from __future__ import annotations

import numba

KERNEL_STATE = numba.types.int64[::1]
KERNEL_INT = numba.types.int64
ADVANCE_SIGNATURE = (KERNEL_STATE, KERNEL_INT, numba.types.int8[::1])
"""``advance(state, action, mask_out) -> next seat``, the one kernel call of a step."""
OBSERVE_SIGNATURE = (KERNEL_STATE, KERNEL_INT, KERNEL_INT, numba.types.float32[::1])
"""``observe(state, seat, observation_type, out)``."""
LEGAL_MASK_SIGNATURE = (KERNEL_STATE, numba.types.int8[::1])
"""``legal_action_mask(state, mask_out)``, the mask of a reset."""
SETTLEMENT_SIGNATURE = (KERNEL_STATE, numba.types.float64[::1])
"""``settlement(state, units_out)``, at the end of a hand."""
DEAL_RANDOM_SIGNATURE = (KERNEL_STATE, KERNEL_STATE, numba.types.uint64[::1], KERNEL_INT)
"""``deal_random_for_dealer(state, params, rng, dealer)``, the deal of a reset."""


class CompiledKernel:
    """Class attribute holding a numba kernel's compiled entry point for one fixed signature.

    Calling a numba dispatcher first works out the numba types of the arguments to pick the
    compiled version (0.15-0.4 us a call, about as much as the work of a step's kernel). An env calls
    ``advance`` and ``observe`` with the same argument types every time, so it can call the compiled
    entry point directly. That entry point does not check types: use it only with arguments the env
    owns and has validated (its own C-contiguous arrays of the signature's dtypes, Python ints).

    The entry point is resolved on first use (numba's cache makes that cheap) and then replaces this
    descriptor on the class; it is a class attribute, so envs still pickle and clone as before. Under
    ``NUMBA_DISABLE_JIT`` the kernel is a plain function and is used as is.
    """

    def __init__(self, kernel_function, signature: tuple) -> None:
        self.kernel_function = kernel_function
        self.signature = signature

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, instance, owner: type):
        compile_for = getattr(self.kernel_function, "compile", None)
        entry = self.kernel_function if compile_for is None else compile_for(self.signature)
        setattr(owner, self.name, staticmethod(entry))
        return entry
