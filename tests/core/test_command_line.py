"""Every command turns a bad option into one line naming it (``trick_core.command_line``), not a traceback."""

from __future__ import annotations

import subprocess
import sys

import pytest

from trick_core.command_line import checked


def test_checked_returns_accepted_options_and_exits_with_one_line_on_a_bad_one():
    assert checked({"hands": 3}, lambda options: None) == {"hands": 3}

    def refuse(options):
        raise ValueError(f"hands must be positive, got {options['hands']}")

    with pytest.raises(SystemExit) as stopped:
        checked({"hands": -1}, refuse)
    assert str(stopped.value.code).endswith(": hands must be positive, got -1")


@pytest.mark.parametrize(("module", "arguments", "message"), [
    ("agents.tournament", ["--games", "chess"], "agents.tournament: unknown game 'chess'"),
    ("agents.neural.ship", ["--checkpoint", "no/such/checkpoint.pt"], "agents.neural.ship: no checkpoint at"),
    ("agents.arena", ["--game", "bavarian", "--agents", "random", "nosuchagent"], "agents.arena: "),
])
def test_a_command_names_a_bad_option_in_one_line(module, arguments, message):
    done = subprocess.run([sys.executable, "-m", module, *arguments], capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    assert done.stderr.startswith(message) and done.stderr.count("\n") == 1, done.stderr
