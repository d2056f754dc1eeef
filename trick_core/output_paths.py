"""Output paths of the commands, checked before any work: a command that writes its results at the end
(the arena's ``--json``, a benchmark's report, a trained model) must not find out after an hour of play
that the folder is missing or read-only. Each check raises a ``ValueError`` naming the option, which the
commands' option checks (``trick_core.command_line.checked``) print as one line.
"""

from __future__ import annotations

import os
from pathlib import Path


def check_output_file(path, option: str) -> Path:
    """``path`` as a ``Path`` a file can be written at: its folder exists and is writable, and it is not a
    folder itself; else ``ValueError`` naming ``option`` (``"--json"``). Nothing is created."""
    target = Path(path).expanduser()
    if not str(path).strip():
        raise ValueError(f"{option}: an empty path")
    if target.is_dir():
        raise ValueError(f"{option} {str(path)!r} is a folder; name a file to write")
    folder = target.resolve().parent
    if not folder.is_dir():
        raise ValueError(f"{option} {str(path)!r}: its folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise ValueError(f"{option} {str(path)!r}: cannot write there (permission denied)")
    return target


def check_output_folder(path, option: str) -> Path:
    """``path`` as a folder that exists or can be created (with its parents, when the command writes into
    it), and is writable; else ``ValueError`` naming ``option`` (``"--plot-dir"``). Nothing is created."""
    folder = Path(path).expanduser()
    if not str(path).strip():
        raise ValueError(f"{option}: an empty path")
    existing = folder.resolve()
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        what = "is a file" if existing == folder.resolve() else f"lies in {str(existing)!r}, a file"
        raise ValueError(f"{option} {str(path)!r} {what}, not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise ValueError(f"{option} {str(path)!r}: cannot write there (permission denied)")
    return folder


def check_output_file_in_new_folder(path, option: str) -> Path:
    """``check_output_file`` for a command that creates the file's folder when missing (a saved model)."""
    target = Path(path).expanduser()
    if target.is_dir():
        raise ValueError(f"{option} {str(path)!r} is a folder; name a file to write")
    check_output_folder(target.resolve().parent, option)
    if target.exists() and not os.access(target, os.W_OK):
        raise ValueError(f"{option} {str(path)!r}: cannot write there (permission denied)")
    return target


def check_plot_file(path, option: str) -> Path:
    """``check_output_file``, and the plotting library (the ``plot`` extra) installed."""
    from .extras import require

    target = check_output_file(path, option)
    require("plot", "matplotlib", option)
    return target
