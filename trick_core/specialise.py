"""Compiled copies of game-independent templates, one per game: how code is written once here.

A *template* is a plain Python function that calls a game's rules through a module global (``kernel``,
and for the search also ``playout``). ``compile_copies`` makes a compiled copy of each template in which
those globals are bound to one game's kernel module, so numba sees the kernel functions as globals and
inlines them: one machine-code loop per game, no function pointers, no integer game codes with
if-chains. ``trick_core.drivers`` (playouts, resampling, search) and ``trick_core.batch_loops`` (the batch
env) are written this way.

Why copies of code objects rather than a factory of closures, or kernel functions passed as arguments:
numba can only *cache* (``cache=True``) a function whose identity is stable across processes. A jitted
function passed as an argument, or captured in a closure, is keyed by a per-process id, so its compiled
code is saved but never found again: every process would recompile (seconds per game). A copy of the
template's code object with its own name (``random_playout__bavarian__<fingerprint>``) and its own globals
caches like any module-level function.

The name carries a fingerprint of the kernel's code as loaded (its jitted functions' code objects and its
constant tables, and those of every project module it reaches). Numba invalidates a cache entry only when
the file that *defines* the function changes, not when a function it calls changes; with the fingerprint
in the name, an edited kernel gets freshly compiled copies instead of stale machine code.
"""

from __future__ import annotations

import hashlib
import sys
import types
from collections.abc import Callable

import numpy as np

from .registry import FAMILY_PACKAGES

_PROJECT_PACKAGES = ("trick_core", *FAMILY_PACKAGES)
"""The packages whose code a kernel's fingerprint follows: the toolkit and every registered game family."""


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


def code_fingerprint(*modules: types.ModuleType) -> str:
    """Short hash of the code *loaded* from ``modules`` and every project module they reach.

    Taken from the functions and constants in memory (not the files on disk), so an edit of a file after
    it was imported can never label old machine code with the new source's fingerprint.
    """
    seen: dict[str, types.ModuleType] = {}
    pending = list(modules)
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
    templates, namespace: dict, tag: str, decorator_for: Callable[[str], Callable]
) -> types.SimpleNamespace:
    """Compile a uniquely named copy of each template function, all sharing the globals ``namespace``
    (so that templates calling each other call each other's copies). The copies are named
    ``<template>__<tag>`` for numba's on-disk cache; ``tag`` must tell apart everything that changes the
    machine code (game, variant, code fingerprint). ``decorator_for(name)`` gives the numba decorator of
    each template (``trick_core.jit``). Compilation is lazy (at the first call)."""
    namespace = dict(namespace)
    compiled = {}
    for template in templates:
        name = template.__name__
        unique_name = f"{name}__{tag}"
        code = template.__code__.replace(co_name=unique_name, co_qualname=unique_name)
        function = types.FunctionType(code, namespace, unique_name, template.__defaults__)
        function.__doc__ = template.__doc__
        compiled[name] = decorator_for(name)(function)
        namespace[name] = compiled[name]
    return types.SimpleNamespace(**compiled)


def templates_of(module: types.ModuleType, names: tuple[str, ...]) -> list:
    """The template functions ``names`` of ``module``, in that order."""
    return [getattr(module, name) for name in names]
