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
with compiled code (``COMPILED_SOURCES``): any edit selects a fresh folder.

**Where the cache lives** (``<base>``, printed by ``python -m trick_core.jit``):

- ``$NUMBA_CACHE_DIR`` when set;
- in a source checkout (``pyproject.toml`` beside the packages), ``.numba_cache`` there (git ignores it);
- otherwise, an installed package, the user's own cache folder: ``$XDG_CACHE_HOME/german-tricks/numba``
  (default ``~/.cache/german-tricks/numba``; macOS ``~/Library/Caches/german-tricks/numba``; Windows
  ``%LOCALAPPDATA%\\german-tricks\\numba``), created readable by its owner only. Never a shared folder such
  as ``/tmp``, where another user could plant machine code this process would load.

A folder this process cannot write, or one that is not its user's own and private, is not used: the
compiled functions are then not cached on disk at all (a warning says so, and every start compiles
again), rather than left to numba's own fallback cache, which the fingerprint does not key. Old
fingerprint folders are left behind, and ``pip uninstall`` does not know the cache:
``python -m trick_core.jit --clear`` deletes it (or delete the folder by hand).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import warnings
from pathlib import Path

import numba

from .registry import FAMILY_PACKAGES

PROJECT_ROOT = Path(__file__).resolve().parent.parent
COMPILED_SOURCES = ("trick_core/**/*.py", *(f"{family}/**/*.py" for family in FAMILY_PACKAGES), "trick_gym/loops.py")
"""Source files whose functions are compiled (or inlined into compiled functions), relative to the root: the
toolkit, every game family of the registry (``trick_core.registry.FAMILY_PACKAGES``, so a new family is
covered by registering it) and the one-seat vector env's loops."""
UNCOMPILED_SUFFIXES = ("_v0.py", "reference.py", "spec.py")
"""Files in those folders that never hold compiled code (the envs, the plain-Python references, the games'
registry records): editing them keeps the cache."""


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


APP_NAME = "german-tricks"


def user_cache_base() -> Path:
    """The per-user cache folder of an installed package (module docstring)."""
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local") / APP_NAME / "numba"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / APP_NAME / "numba"
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / APP_NAME / "numba"


def cache_base(root: Path = PROJECT_ROOT) -> Path:
    """``<base>`` of the module docstring: ``$NUMBA_CACHE_DIR``, a checkout's ``.numba_cache``, or the
    user's cache folder."""
    configured = os.environ.get("NUMBA_CACHE_DIR")
    if configured:
        return Path(configured)
    if (root / "pyproject.toml").is_file() and os.access(root, os.W_OK):
        return root / ".numba_cache"
    return user_cache_base()


def private_folder(folder: Path) -> str | None:
    """Create ``folder`` (owner-only where new) and check it is safe to load machine code from: None when it
    is, else why not (not writable; not owned by this user; writable by others)."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as error:
        return f"cannot create it ({error.strerror})"
    if not os.access(folder, os.W_OK | os.X_OK):
        return "this user cannot write there"
    if hasattr(os, "getuid"):
        status = folder.stat()
        if status.st_uid != os.getuid():
            return "it belongs to another user"
        if status.st_mode & 0o022:
            return "other users can write there"
    return None


def _chosen_cache_dir() -> Path | None:
    folder = cache_base() / source_fingerprint()
    problem = private_folder(folder)
    if problem is None:
        return folder
    warnings.warn(
        f"numba cache {str(folder)!r} not used: {problem}. Compiled functions are not cached on disk (every "
        "start compiles again); set NUMBA_CACHE_DIR to a folder of your own.", RuntimeWarning, stacklevel=2,
    )
    return None


CACHE_DIR = _chosen_cache_dir()
"""Where numba caches this process's compiled functions (module docstring); None: not cached on disk."""
CACHING = CACHE_DIR is not None
if CACHING:
    numba.config.CACHE_DIR = str(CACHE_DIR)

njit = numba.njit(cache=CACHING, nogil=True)
"""Decorator for ordinary compiled functions."""

inline_njit = numba.njit(cache=CACHING, nogil=True, inline="always")
"""Decorator for small hot-path helpers: inlined by numba into every caller (survives ``cache=True``)."""

njit_no_refcount = numba.njit(cache=CACHING, nogil=True, _nrt=False)
"""Decorator for entry points that allocate nothing: no reference counting around the state array."""

njit_parallel = numba.njit(cache=CACHING, nogil=True, parallel=True)
"""Decorator for the multi-threaded batch loops (``numba.prange`` inside)."""


def main(argv: list[str] | None = None) -> None:
    """``python -m trick_core.jit``: print where the compiled functions are cached; ``--clear`` deletes every
    fingerprint folder there (what ``pip uninstall`` leaves behind)."""
    arguments = sys.argv[1:] if argv is None else argv
    if arguments not in ([], ["--clear"]):
        sys.exit("usage: python -m trick_core.jit [--clear]")
    base = cache_base()
    if arguments == ["--clear"]:
        cleared = [folder for folder in base.glob("*") if folder.is_dir() and len(folder.name) == 16]
        for folder in cleared:
            shutil.rmtree(folder)
        print(f"removed {len(cleared)} cache folder(s) from {base}")
        return
    print(f"numba cache: {CACHE_DIR if CACHING else 'off (see the warning above)'}\nbase: {base}")


if __name__ == "__main__":
    main()
