"""The built wheel, installed into fresh virtual environments and run from a folder outside the repository,
as the README's "Installing with pip" tells a user to.

- **Full install**: the wheel with ``--no-deps``, its dependencies (every extra) borrowed from the test's
  own environment through a path file. The README's snippet, ``agents.make("neural", game)`` playing a
  hand, an arena run writing JSON, and the browser table's rules pages (``play/rules_docs`` in the wheel),
  with the numba cache in the user's cache folder, private to the user.
- **Core install**: the wheel with only its declared core dependencies, linked one distribution at a time
  from the test's environment (the dependency closure of the wheel's ``Requires-Dist`` without extras, as
  pip would install it). Every optional feature stops with one line naming its extra.

The two environments, the wheel and the numba cache are built once for the module (about a minute with a
cold cache, most of it numba compiling the first hand). Nothing is written outside the test's temporary
folders.
"""

from __future__ import annotations

import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.xdist_group("wheel")  # one worker builds the wheel and the environments once
COPY_IGNORED = shutil.ignore_patterns(".venv*", ".git", "tests", "runs", "build", "dist", "*.egg-info", "__pycache__",
                                      ".numba_cache", ".pytest_cache", ".ruff_cache", "arena_out")


def run(command: list[str], cwd: Path, env: dict, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel built from a copy of the checkout (building in place would write into it)."""
    base = tmp_path_factory.mktemp("wheel")
    source = base / "source"
    shutil.copytree(ROOT, source, symlinks=True, ignore=COPY_IGNORED)
    built = run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet", "-w",
                 str(base / "dist"), str(source)], base, dict(os.environ))
    assert built.returncode == 0, built.stderr
    (path,) = (base / "dist").glob("german_tricks-*.whl")
    return path


def new_venv(folder: Path, wheel: Path) -> Path:
    """A fresh virtual environment with the wheel installed alone (no dependencies); its site-packages."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True, timeout=120)
    python = folder / "bin" / "python"
    installed = run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--quiet",
                     "--no-index", str(wheel)], folder, dict(os.environ))
    assert installed.returncode == 0, installed.stderr
    return Path(run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], folder,
                    dict(os.environ)).stdout.strip())


def core_closure(wheel: Path) -> list[importlib.metadata.Distribution]:
    """The distributions a plain ``pip install`` of the wheel brings: its ``Requires-Dist`` without extras,
    and theirs, resolved in this environment."""
    with zipfile.ZipFile(wheel) as archive:
        metadata = next(name for name in archive.namelist() if name.endswith(".dist-info/METADATA"))
        lines = archive.read(metadata).decode().splitlines()
    pending = [Requirement(line.split(":", 1)[1].strip()) for line in lines if line.startswith("Requires-Dist:")]
    found: dict[str, importlib.metadata.Distribution] = {}
    while pending:
        requirement = pending.pop()
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
            continue
        name = requirement.name.lower().replace("_", "-")
        if name in found:
            continue
        found[name] = importlib.metadata.distribution(requirement.name)
        pending += [Requirement(text) for text in found[name].requires or []]
    return list(found.values())


def link_distributions(distributions, folder: Path) -> None:
    """Symlink every top-level module, package and metadata folder of ``distributions`` into ``folder``."""
    folder.mkdir()
    for distribution in distributions:
        root = Path(distribution.locate_file(""))
        tops = {Path(str(file)).parts[0] for file in distribution.files or [] if not str(file).startswith("..")}
        for top in tops - {"bin", "__pycache__"}:
            if (root / top).exists() and not (folder / top).exists():
                (folder / top).symlink_to(root / top)


@pytest.fixture(scope="module")
def outside(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("outside")


@pytest.fixture(scope="module")
def user_env(tmp_path_factory) -> dict:
    """The environment of a user's shell: no PYTHONPATH, a home and cache folder of the test's own."""
    home = tmp_path_factory.mktemp("home")
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith(("PYTHON", "NUMBA_CACHE_DIR", "VIRTUAL_ENV"))}
    return {**environment, "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache")}


@pytest.fixture(scope="module")
def full_python(tmp_path_factory, wheel) -> Path:
    folder = tmp_path_factory.mktemp("full") / "venv"
    site = new_venv(folder, wheel)
    (site / "borrowed_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return folder / "bin" / "python"


@pytest.fixture(scope="module")
def core_python(tmp_path_factory, wheel) -> Path:
    base = tmp_path_factory.mktemp("core")
    site = new_venv(base / "venv", wheel)
    link_distributions(core_closure(wheel), base / "core_dependencies")
    (site / "core_dependencies.pth").write_text(str(base / "core_dependencies") + "\n")
    return base / "venv" / "bin" / "python"


def readme_snippet() -> str:
    """The README's first Python block: the tour's random hand."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.search(r"```python\n(.*?)```", text, re.S).group(1)


def test_the_installed_package_is_the_wheel_not_the_checkout(full_python, outside, user_env):
    done = run([str(full_python), "-c", "import agents, play.rules; print(agents.__file__); "
                "print(play.rules.DEFAULT_RULES_DIR)"], outside, user_env)
    assert done.returncode == 0, done.stderr
    package, rules = done.stdout.split()
    assert "site-packages" in package and not package.startswith(str(ROOT))
    assert sorted(path.name for path in Path(rules).glob("*.md")) == sorted(
        path.name for path in (ROOT / "docs" / "rules").glob("*.md"))


def test_the_readme_snippet_neural_agent_and_arena_run_outside_the_repository(full_python, outside, user_env):
    script = readme_snippet() + (
        "\nimport agents\n"
        "neural = agents.make('neural', 'bavarian')\n"
        "env = bavarian_v0.env()\n"
        "env.reset(seed=1)\n"
        "for agent in env.agent_iter():\n"
        "    obs, reward, termination, truncation, info = env.last()\n"
        "    env.step(None if termination or truncation else neural.act(env, agent))\n"
        "print('neural played', len(env.unwrapped.game_record()['actions']), 'actions')\n"
    )
    done = run([str(full_python), "-c", script], outside, user_env)
    assert done.returncode == 0, done.stderr
    assert "neural played" in done.stdout
    arena = run([str(full_python), "-m", "agents.arena", "--game", "bavarian", "--agents", "random", "rules",
                 "--hands", "2", "--no-progress", "--json", "out.json"], outside, user_env)
    assert arena.returncode == 0, arena.stderr
    assert '"mean_units_per_hand"' in (outside / "out.json").read_text()
    cache = Path(user_env["XDG_CACHE_HOME"]) / "german-tricks" / "numba"
    (fingerprint,) = cache.iterdir()  # the per-user cache, one folder per version of the compiled sources
    assert fingerprint.stat().st_mode & 0o777 == 0o700 and any(fingerprint.rglob("*.nbi"))
    helped = run([str(full_python), "-m", "agents.arena", "--help"], outside, user_env)
    assert helped.stdout.startswith("usage: python -m agents.arena ")  # not a path inside site-packages


def test_the_browser_tables_rules_pages_are_served_from_the_wheel(full_python, outside, user_env):
    server = subprocess.Popen([str(full_python), "-m", "play", "--port", "0"], cwd=outside, env=user_env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = server.stdout.readline()
        address = re.search(r"http://[\d.]+:\d+/", first)
        assert address, first + server.stderr.read() if server.poll() is not None else first
        pages = {}
        for game in ("bavarian", "palatinate", "knuffeln"):
            for _ in range(100):  # the address is printed just before the server listens
                try:
                    with urllib.request.urlopen(f"{address.group(0)}rules/{game}", timeout=10) as page:
                        pages[game] = page.read().decode()
                    break
                except OSError:
                    time.sleep(0.1)
        assert set(pages) == {"bavarian", "palatinate", "knuffeln"}
        assert all("<h1" in page and "Rules" in page for page in pages.values())
    finally:
        server.terminate()
        server.wait(timeout=30)


CORE_FAILURES = [
    (["-m", "agents.tournament", "--hands", "1"], "agents.tournament", "torch"),
    (["-c", "import agents; agents.make('neural', 'bavarian')"], "", "torch"),
    (["-m", "experiments.ppo", "--help"], "experiments.ppo", "torch"),
    (["-m", "experiments.sb3_maskable_ppo", "--help"], "experiments.sb3_maskable_ppo", "sb3"),
    (["-m", "experiments.torchrl_pettingzoo", "--help"], "experiments.torchrl_pettingzoo", "torchrl"),
    (["-m", "experiments.tianshou_pettingzoo", "--help"], "experiments.tianshou_pettingzoo", "tianshou"),
    (["-m", "play"], "play", "play"),
    (["-m", "agents.arena", "--game", "bavarian", "--agents", "random", "rules", "--plot", "p.png"], "agents.arena",
     "plot"),
    (["-m", "agents.tournament", "--no-neural", "--plot-dir", "plots"], "agents.tournament", "plot"),
]


def test_the_core_install_runs_the_envs_and_the_rule_agents(core_python, outside, user_env):
    done = run([str(core_python), "-c", "import torch"], outside, user_env)
    assert done.returncode == 1 and "No module named 'torch'" in done.stderr  # the core really lacks torch
    script = ("import gymnasium, trick_gym, agents\n"
              "env = gymnasium.make('Bavarian-v0', opponents='rules')\n"
              "print(env.observation_space.shape, agents.make('pimc', 'bavarian').name)\n")
    done = run([str(core_python), "-c", script], outside, user_env)
    assert done.returncode == 0, done.stderr  # (playing a hand would compile the rules a second time: the full
    # install plays them from the same wheel)


@pytest.mark.parametrize(("arguments", "program", "extra"), CORE_FAILURES,
                         ids=[" ".join(arguments[:2]) + (f" {arguments[-1]}" if "plot" in arguments[-2] else "")
                              for arguments, _, _ in CORE_FAILURES])
def test_each_optional_feature_of_the_core_install_names_its_extra_in_one_line(
        core_python, outside, user_env, arguments, program, extra):
    done = run([str(core_python), *arguments], outside, user_env)
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert f"needs the [{extra}] extra" in lines[0] and f"pip install 'german-tricks[{extra}]'" in lines[0]
    assert lines[0].startswith(f"{program}: " if program else "-c: ")
    assert not list(outside.glob("p.png")) and not (outside / "plots").exists()
