"""``trick_core.extras``: a missing optional dependency is one line naming the extra that installs it, in
library code (``require``, ``agents.make``) and in commands (the excepthook); anything else is left alone.
(``test_wheel.py`` runs every command in a real core install.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from trick_core.extras import EXTRA_MODULES, MissingExtraError, extra_of, one_line, require

ROOT = Path(__file__).resolve().parents[2]


def python(code: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_require_names_the_extra_in_one_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # what a missing module looks like to import
    with pytest.raises(MissingExtraError) as caught:
        require("plot", feature="--plot")
    error = caught.value
    assert isinstance(error, ImportError) and isinstance(error, ValueError)  # commands' checks print ValueErrors
    assert str(error) == ("--plot needs the [plot] extra (matplotlib is not installed): "
                          "pip install 'german-tricks[plot]'")
    assert (error.extra, error.module, error.name) == ("plot", "matplotlib", "matplotlib")
    assert require("dev", "pytest") is pytest


def test_a_broken_install_is_not_reported_as_a_missing_extra(tmp_path, monkeypatch):
    (tmp_path / "needs_something.py").write_text("import no_such_dependency_of_anything\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModuleNotFoundError) as caught:
        require("plot", "needs_something")
    assert not isinstance(caught.value, MissingExtraError)
    with pytest.raises(ValueError, match="unknown extra 'cuda'"):
        require("cuda")


def test_every_module_maps_to_its_extra_and_recipes_name_their_own():
    assert all(extra_of(module) == extra for extra, modules in EXTRA_MODULES.items() for module in modules)
    assert (extra_of("ray.rllib.algorithms"), extra_of("ray.util"), extra_of("torch.nn"), extra_of("numpy")) == (
        "rllib", "ray", "torch", None)
    missing_torch = ModuleNotFoundError("No module named 'torch'", name="torch")
    assert "[torch]" in one_line(missing_torch, "experiments.ppo")
    assert "[sb3]" in one_line(missing_torch, "experiments.sb3_maskable_ppo")  # SB3's extra brings torch
    assert one_line(ModuleNotFoundError("x", name="numpy"), "agents.arena") is None
    assert one_line(KeyError("torch"), "agents.arena") is None


def test_a_command_reports_a_missing_extra_in_one_line_and_anything_else_as_before(tmp_path):
    done = python("import trick_core.extras, sys; sys.modules['fastapi'] = None; import fastapi", tmp_path)
    assert (done.returncode, done.stderr) == (
        1, "-c: needs the [play] extra (fastapi is not installed): pip install 'german-tricks[play]'\n")
    done = python("import trick_core.extras; import no_such_module_at_all", tmp_path)
    assert done.returncode == 1 and "Traceback" in done.stderr and "no_such_module_at_all" in done.stderr


@pytest.mark.parametrize("agent", ["neural", "pimc_neural"])
def test_agents_that_need_torch_name_the_extra(tmp_path, agent):
    done = python(f"import sys; sys.modules['torch'] = None\nimport agents\ntry:\n"
                  f"    agents.make({agent!r}, 'bavarian')\nexcept ValueError as error:\n    print(error)", tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"agent {agent!r} needs the [torch] extra (torch is not installed)")


@pytest.mark.parametrize("module", ["agents.arena", "benchmarks.compare", "play"])
def test_help_shows_the_command_as_typed(tmp_path, module):
    done = subprocess.run([sys.executable, "-m", module, "--help"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"usage: python -m {module} "), done.stdout[:200]
