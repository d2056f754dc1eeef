"""Where the compiled functions are cached (``trick_core.jit``): the checkout's ``.numba_cache``, else the
user's own cache folder, never a shared one; a folder that is not private to the user is refused, and
then nothing is cached on disk (never numba's own, unfingerprinted fallback)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from trick_core import jit

ROOT = Path(__file__).resolve().parents[2]


def test_the_base_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert jit.cache_base(ROOT) == ROOT / ".numba_cache"  # a checkout keeps its own (git ignores it)
    installed = tmp_path / "site-packages"  # no pyproject.toml beside the packages: an installed wheel
    installed.mkdir()
    expected = tmp_path / "cache" / "german-tricks" / "numba"
    assert jit.cache_base(installed) == expected == jit.user_cache_base()
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert jit.user_cache_base() == Path.home() / ".cache" / "german-tricks" / "numba"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    assert jit.cache_base(installed) == tmp_path / "mine"


def test_only_a_private_folder_of_the_user_is_used(tmp_path):
    fresh = tmp_path / "a" / "b"
    assert jit.private_folder(fresh) is None
    assert fresh.stat().st_mode & 0o777 == 0o700  # created readable by its owner only
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    assert jit.private_folder(shared) == "other users can write there"
    (tmp_path / "file").write_text("x")
    assert jit.private_folder(tmp_path / "file" / "cache").startswith("cannot create it")
    if os.getuid() == 0:  # root can hand a folder to another user; others cannot make one
        foreign = tmp_path / "foreign"
        foreign.mkdir(mode=0o700)
        os.chown(foreign, 65534, -1)
        assert jit.private_folder(foreign) == "it belongs to another user"


def test_an_unusable_folder_turns_the_disk_cache_off_with_a_warning(tmp_path):
    (tmp_path / "a_file").write_text("not a folder")
    code = ("import warnings; warnings.simplefilter('always')\n"
            "from trick_core import jit\n"
            "import numba\n"
            "@jit.njit\n"
            "def twice(x):\n"
            "    return 2 * x\n"
            "print(jit.CACHING, jit.CACHE_DIR, type(twice._cache).__name__, twice(2))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin",
                               "NUMBA_CACHE_DIR": str(tmp_path / "a_file")})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "None", "NullCache", "4"]  # numba's fallback cache is not used
    assert "numba cache" in done.stderr and "not used: cannot create it" in done.stderr
    assert "NUMBA_CACHE_DIR" in done.stderr


def test_the_command_prints_and_clears_the_cache(tmp_path):
    environment = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    shown = subprocess.run([sys.executable, "-m", "trick_core.jit"], cwd=tmp_path, capture_output=True, text=True,
                           timeout=300, env=environment)
    assert shown.returncode == 0, shown.stderr
    assert f"numba cache: {tmp_path / 'cache' / jit.source_fingerprint()}" in shown.stdout
    (tmp_path / "cache" / "0123456789abcdef").mkdir()  # an older version's folder
    cleared = subprocess.run([sys.executable, "-m", "trick_core.jit", "--clear"], cwd=tmp_path, capture_output=True,
                             text=True, timeout=300, env=environment)
    assert cleared.returncode == 0 and "removed 2 cache folder(s)" in cleared.stdout
    assert list((tmp_path / "cache").iterdir()) == []


@pytest.mark.parametrize("arguments", [["--all"], ["--clear", "x"]])
def test_the_command_refuses_other_arguments(arguments):
    with pytest.raises(SystemExit, match="usage: python -m trick_core.jit"):
        jit.main(arguments)
