"""Finding paths that leave the repository: a relative path (``../x``) in a file that, resolved from that
file's folder, lands outside the repository root. The repository must stand on its own."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLIMBING_PATH = re.compile(r"(?:\.\./)+\w[\w./-]*")


def paths_leaving_the_repository(path: Path, text: str) -> list[str]:
    """The relative paths in ``text`` (the contents of ``path``) that resolve outside the repository."""
    leaving = []
    for match in CLIMBING_PATH.finditer(text):
        target = (path.parent / match.group(0)).resolve()
        if target != ROOT and ROOT not in target.parents:
            leaving.append(match.group(0))
    return leaving


def tracked(*patterns: str) -> list[Path]:
    """The files git tracks that match ``patterns`` (and still exist)."""
    out = subprocess.run(["git", "ls-files", *patterns], cwd=ROOT, capture_output=True, text=True, check=True)
    return [ROOT / line for line in out.stdout.splitlines() if (ROOT / line).exists()]
