"""Numba settings in one place: the decorators every compiled function of the project uses, and the
on-disk cache they share.

| decorator | for |
|---|---|
| ``njit`` | ordinary compiled functions (``cache=True``, ``nogil=True``) |
| ``inline_njit`` | small hot-path helpers: inlined into each caller in numba's own IR (survives the cache) |
| ``njit_no_refcount`` | entry points that allocate nothing: compiled without numba's reference counting |
| ``njit_parallel`` | loops over batches with ``numba.prange`` |

Why three flavours of ``njit``. With ``cache=True`` a function loaded from the cache is linked as machine
code and called through a pointer, so LLVM cannot inline it, and every call that passes an array (the
state) costs atomic reference-count updates around it. On a random playout, where each step is a few
dozen instructions, these two costs were about half of the time. ``inline_njit`` removes the first (the
helper is inlined before LLVM sees it), ``njit_no_refcount`` the second (arguments are borrowed, so these
functions mix freely with ``njit`` callers; a function that allocates cannot use it, numba refuses).

**The cache is keyed by the source.** Numba invalidates a cached function only when the file that defines
it changes, not when a function it calls (inlined into its machine code) changes in another file: after
editing a kernel, a driver specialised for it or a batch loop would silently run stale machine code. So
this module points numba's cache at ``<base>/<fingerprint>``, the fingerprint hashing every source file
with compiled code (``COMPILED_SOURCES``): any edit selects a fresh folder. ``<base>`` is
``$NUMBA_CACHE_DIR`` if set, else ``.numba_cache`` beside the packages (or the temp folder where that is
not writable). Old folders are left behind; delete ``.numba_cache`` to reclaim the space.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import numba

PROJECT_ROOT = Path(__file__).resolve().parent.parent
COMPILED_SOURCES = ("trick_core/**/*.py", "schafkopf_env/**/*.py", "knuffeln_env/**/*.py", "trick_gym/loops.py")
"""Source files whose functions are compiled (or inlined into compiled functions), relative to the root."""
UNCOMPILED_SUFFIXES = ("_v0.py", "reference.py")
"""Files in those folders that never hold compiled code (the envs, the plain-Python references): editing
them keeps the cache."""


def source_fingerprint(root: Path = PROJECT_ROOT) -> str:
    """A hash of the names and contents of every file of ``COMPILED_SOURCES``."""
    digest = hashlib.sha256()
    for pattern in COMPILED_SOURCES:
        for path in sorted(root.glob(pattern)):
            if path.name.endswith(UNCOMPILED_SUFFIXES):
                continue
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _cache_base() -> Path:
    configured = os.environ.get("NUMBA_CACHE_DIR")
    if configured:
        return Path(configured)
    local = PROJECT_ROOT / ".numba_cache"
    try:
        local.mkdir(exist_ok=True)
    except OSError:
        return Path(tempfile.gettempdir()) / "german_tricks_numba_cache"
    return local if os.access(local, os.W_OK) else Path(tempfile.gettempdir()) / "german_tricks_numba_cache"


CACHE_DIR = _cache_base() / source_fingerprint()
"""Where numba caches this process's compiled functions (module docstring)."""
numba.config.CACHE_DIR = str(CACHE_DIR)

njit = numba.njit(cache=True, nogil=True)
"""Decorator for ordinary compiled functions."""

inline_njit = numba.njit(cache=True, nogil=True, inline="always")
"""Decorator for small hot-path helpers: inlined by numba into every caller (survives ``cache=True``)."""

njit_no_refcount = numba.njit(cache=True, nogil=True, _nrt=False)
"""Decorator for entry points that allocate nothing: no reference counting around the state array."""

njit_parallel = numba.njit(cache=True, nogil=True, parallel=True)
"""Decorator for the multi-threaded batch loops (``numba.prange`` inside)."""
