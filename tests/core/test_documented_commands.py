"""Every ``python -m <entry point> ...`` command written in the repository (docs, README, docstrings,
Makefile) names options its entry point accepts: each is parsed with the entry point's own tyro ``Args``,
without running it.

Placeholder values (``--hands N``) and missing required options are allowed, since prose shortens
commands; an unrecognised option or a stray positional argument (``python -m x.y path`` where the
entry point wants ``--checkpoint path``) fails. Optional parts written in brackets (``[--json PATH]``)
are checked as if given. Entry points whose module cannot be imported here (a recipe of a library
installed in a venv of its own, e.g. RLlib's) are skipped, and said so by name."""

from __future__ import annotations

import contextlib
import importlib
import io
import re
import shlex
import subprocess
from pathlib import Path

import pytest
import tyro

ROOT = Path(__file__).resolve().parents[2]
COMMAND = re.compile(r"python -m ([A-Za-z_][\w.]*\w)([^`\n#|;()]*)")
"""A command and its arguments, up to the end of the code span, a comment, a pipe or a parenthesis."""
OPTIONAL_PART = re.compile(r"\[((?:-|\.\.\.)[^\[\]]*)\]")
PLACEHOLDER_WORDS = {"...", "…", "--help", "-h"}


def documented_commands() -> list[tuple[str, str, list[str]]]:
    """``(where, module, arguments)`` of every ``python -m`` command in the tracked text files, with
    backslash-continued lines joined."""
    files = subprocess.run(["git", "ls-files", "*.md", "*.py", "Makefile"], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.split()
    commands = []
    for name in files:
        lines = (ROOT / name).read_text(encoding="utf-8").split("\n")
        index = 0
        while index < len(lines):
            line, number = lines[index], index + 1
            while line.rstrip().endswith("\\") and index + 1 < len(lines):
                index += 1
                line = line.rstrip().rstrip("\\") + " " + lines[index].strip()
            for match in COMMAND.finditer(line):
                arguments = _words(match.group(2))
                if arguments is not None:
                    commands.append((f"{name}:{number}", match.group(1), arguments))
            index += 1
    return commands


def _words(text: str) -> list[str] | None:
    """The arguments of a command, the brackets of optional parts (``[--json PATH]``, ``[...]``) removed;
    None for a template with an unbalanced quote (an f-string building a command)."""
    try:
        words = shlex.split(OPTIONAL_PART.sub(r" \1 ", text))
    except ValueError:
        return None
    return [word for word in words if word not in PLACEHOLDER_WORDS]


def entry_point(module: str):
    """The ``Args`` class of a tyro entry point of this repository, None for anything else (pip, pytest,
    a module without a command line)."""
    for path in (ROOT / f"{module.replace('.', '/')}.py", ROOT / module.replace(".", "/") / "__main__.py"):
        if path.exists() and "tyro.cli(" in path.read_text(encoding="utf-8"):
            dotted = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            return importlib.import_module(dotted).Args
    return None


def unrecognised(args_class, arguments: list[str]) -> str | None:
    """tyro's complaint when it does not know an argument; None when every argument is an option of
    ``args_class`` or its value (missing options and unparsable placeholder values are not complaints)."""
    errors = io.StringIO()
    try:
        with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(io.StringIO()):
            tyro.cli(args_class, args=arguments)
    except SystemExit:
        lines = [line.strip(" │") for line in errors.getvalue().splitlines() if "Unrecognized" in line]
        return "; ".join(lines) if lines else None
    return None


def test_every_documented_command_uses_options_its_entry_point_accepts():
    checked, skipped, wrong = 0, set(), []
    for where, module, arguments in documented_commands():
        try:
            args_class = entry_point(module)
        except ImportError:
            skipped.add(module)
            continue
        if args_class is None:
            continue
        checked += 1
        if complaint := unrecognised(args_class, arguments):
            wrong.append(f"{where}: python -m {module} {' '.join(arguments)}\n    {complaint}")
    assert checked >= 100, f"only {checked} documented commands found: is the pattern still right?"
    assert skipped <= {"experiments.rllib_pettingzoo"}, f"could not import {sorted(skipped)}"
    assert wrong == [], "\n".join(wrong)


@pytest.mark.parametrize(("arguments", "complaint"), [
    (["--game", "bavarian", "--agents", "random", "rules"], False),
    (["--game", "G", "--hands", "N"], False),
    (["--gmae", "bavarian"], True),
    (["bavarian"], True),
])
def test_the_check_tells_an_unknown_argument_from_a_placeholder(arguments, complaint):
    from agents.arena import Args

    assert (unrecognised(Args, arguments) is not None) == complaint
