"""What every command of the repository does with its parsed options before any work: check them, and turn
a bad one into one line naming it (``program: message``, exit status 1) instead of a traceback, or a
failure after an hour of work."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

Options = TypeVar("Options")


def program_name() -> str:
    """The running command's name: its module for ``python -m module`` (its package for a package's
    ``__main__``), else its script's name."""
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    return spec.name.removesuffix(".__main__") if spec else Path(sys.argv[0]).stem


def command_prog() -> str:
    """The running command as a user types it, for ``--help``'s usage line (``tyro.cli(..., prog=...)``):
    ``python -m agents.arena`` rather than the path of the module file inside site-packages."""
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    return f"python -m {program_name()}" if spec else Path(sys.argv[0]).name


def checked(args: Options, check: Callable[[Options], object]) -> Options:
    """``args`` (a command's parsed options) once ``check(args)`` has accepted them; a ``ValueError`` from
    ``check`` ends the process with one line naming the problem."""
    try:
        check(args)
    except ValueError as error:
        sys.exit(f"{program_name()}: {error}")
    return args
