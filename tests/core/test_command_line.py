"""Every command turns a bad option into one line naming it (``trick_core.command_line``), not a traceback."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from trick_core.command_line import checked

REPOSITORY = Path(__file__).resolve().parents[2]


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
    ("agents.arena", ["--game", "bavarian", "--agents", "random", "nosuchagent"],
     "agents.arena: --agents: unknown agent 'nosuchagent'"),
    ("agents.tournament", ["--extra", "nosuchagent"], "agents.tournament: --extra: unknown agent 'nosuchagent'"),
    ("experiments.dmc", ["--eval-also", "nosuchagent"], "experiments.dmc: --eval-also: unknown agent 'nosuchagent'"),
    ("experiments.signalling_study", ["--crossplay-specs", "nosuchagent"],
     "experiments.signalling_study: --crossplay-specs: unknown agent 'nosuchagent'"),
    ("benchmarks.ab", ["--old", "no/such/checkout"], "benchmarks.ab: --old 'no/such/checkout' is not a folder"),
    ("benchmarks.agent_speed", ["--agents", "nosuchagent"], "benchmarks.agent_speed: unknown agent 'nosuchagent'"),
    ("benchmarks.compare", ["--quick", "--games", "chess"], "benchmarks.compare: --games: unknown game(s) ['chess']"),
    ("benchmarks.instruction_counts", ["--rows", "nosuchrow"],
     "benchmarks.instruction_counts: unknown game(s) or row(s) ['nosuchrow']"),
    ("benchmarks.play_latency", ["--bot", "nosuchbot"], "benchmarks.play_latency: --bot 'nosuchbot' is not one of"),
    ("benchmarks.ray_scaling", ["--agents", "rules", "nosuchagent"],
     "benchmarks.ray_scaling: --agents: unknown agent 'nosuchagent'"),
    ("benchmarks.soak", ["--games", "chess"], "benchmarks.soak: unknown game 'chess'"),
    ("benchmarks.training_throughput", ["--games", "chess"],
     "benchmarks.training_throughput: --games: unknown game(s) ['chess']"),
    ("benchmarks.trick_gym_speed", ["--num-envs", "0"],
     "benchmarks.trick_gym_speed: --num-envs must be positive, got 0"),
    ("play", ["--port", "0", "--records", "no/such/records.jsonl"],
     "play: --records 'no/such/records.jsonl': no such file"),
    ("signalling.log", ["--records", "no/such/records.jsonl", "--out", "no/such/log.jsonl"],
     "signalling.log: --records 'no/such/records.jsonl': no such file"),
    ("signalling.log", ["--records", "README.md", "--out", "no/such/log.jsonl"],
     "signalling.log: --out 'no/such/log.jsonl': its folder does not exist"),
    ("signalling.population", ["--checkpoint", "no/such/checkpoint.pt"], "signalling.population: no checkpoint at"),
])
def test_a_command_names_a_bad_option_in_one_line(module, arguments, message):
    done = subprocess.run([sys.executable, "-m", module, *arguments], capture_output=True, text=True, timeout=300,
                          cwd=REPOSITORY)
    assert done.returncode == 1
    assert done.stderr.startswith(message) and done.stderr.count("\n") == 1, done.stderr


def test_a_records_file_that_is_not_json_lines_is_named_in_one_line(tmp_path):
    """``signalling.log`` reads its records only once its options pass: a file that is not JSON lines is
    still one line naming it (and its line), and nothing is written."""
    out = tmp_path / "log.jsonl"
    done = subprocess.run([sys.executable, "-m", "signalling.log", "--records", "README.md", "--out", str(out)],
                          capture_output=True, text=True, timeout=300, cwd=REPOSITORY)
    assert done.returncode == 1
    assert done.stderr.startswith("signalling.log: --records README.md: line 1 is not JSON"), done.stderr
    assert done.stderr.count("\n") == 1 and not out.exists()


@pytest.mark.parametrize(("module", "arguments", "message"), [
    ("agents.arena", ["--game", "bavarian", "--agents", "random", "rules", "--backend", "ray"], "--backend ray"),
    ("agents.tournament", ["--backend", "ray"], "--backend ray"),
    ("experiments.ray_selfplay", [], "--backend ray"),
    ("experiments.dmc", ["--actors", "2"], "--actors with --actor-backend ray"),
    ("benchmarks.ray_scaling", [], "this benchmark"),
])
def test_a_command_that_needs_ray_says_so_in_one_line_where_ray_is_missing(tmp_path, module, arguments, message):
    """Ray is an extra: without it, a command asked to use Ray names what asked for it and how to install
    it, before any work (here Ray's import is made to fail, as where it is not installed)."""
    (tmp_path / "sitecustomize.py").write_text("import sys\nsys.modules['ray'] = None\n")
    done = subprocess.run([sys.executable, "-m", module, *arguments], capture_output=True, text=True, timeout=300,
                          cwd=REPOSITORY, env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert done.returncode == 1
    expected = f"{module}: {message} needs Ray, which is not installed: pip install -e '.[ray]'"
    assert done.stderr.startswith(expected) and done.stderr.count("\n") == 1, done.stderr


COMMAND_FOLDERS = ("agents", "experiments", "benchmarks", "signalling", "play")


def test_every_command_checks_its_options_through_checked():
    """Every tracked module of the command folders that runs as a command routes its parsed options through
    ``trick_core.command_line.checked`` (so a new command cannot skip the check)."""
    listed = subprocess.run(["git", "ls-files", "--", *COMMAND_FOLDERS], capture_output=True, text=True,
                            cwd=REPOSITORY, check=True).stdout.split()
    commands = [name for name in listed if name.endswith(".py") and re.search(
        r"^if __name__ == [\"']__main__[\"']:", (REPOSITORY / name).read_text(encoding="utf-8"), re.MULTILINE)]
    assert len(commands) > 20, commands
    unchecked = [name for name in commands if "checked(" not in (REPOSITORY / name).read_text(encoding="utf-8")]
    assert not unchecked, f"commands that do not call checked(...): {unchecked}"
