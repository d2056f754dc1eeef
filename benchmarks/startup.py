"""Cold start and peak memory, each measured in a fresh Python process.

*Cold start* is the wall time of ``import`` + building the env + ``reset`` + the first step, inside a new
interpreter (interpreter start-up itself excluded). It is measured twice per case: with a **cold** numba
cache (``NUMBA_CACHE_DIR`` pointed at an empty temporary folder, so every kernel compiles) and right
after, with that folder now **warm** (the compiled machine code is loaded from disk) — what a user sees
on the first run after installing, and on every later run. *Peak memory* is the process's peak
resident set size (``VmHWM`` of ``/proc/self/status``) at the end of the same run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from trick_core.registry import game_spec

ROOT = Path(__file__).resolve().parent.parent

_CASE_CODE = {
    "aec_env": """
from {module} import env as make_env
environment = make_env({config})
environment.reset(seed=0)
environment.step(environment.unwrapped.legal_actions()[0])
""",
    "batch_env": """
from {batch_module} import make
environment = make({game!r}, num_envs={num_envs}, seed=0, **{config})
environment.reset()
environment.step(environment.sample_actions())
""",
}

_WRAPPER = """
import json, resource, time
began = time.perf_counter()
{body}
seconds = time.perf_counter() - began
def peak_rss_mb():
    # VmHWM: the peak of this program's own memory. ru_maxrss would be inherited from the parent process
    # that forked this one (Linux keeps it across exec), so every case would read the benchmark's peak.
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({{"seconds": seconds, "peak_rss_mb": peak_rss_mb()}}))
"""


def case_script(case: str, game: str, config: dict | None = None, num_envs: int = 4096) -> str:
    """The Python source that one measurement runs (``case``: ``"aec_env"`` or ``"batch_env"``)."""
    config = dict(config or {})
    spec = game_spec(game)
    body = _CASE_CODE[case].format(
        module=spec.env_module_name,
        batch_module=spec.batch_module_name,
        game=game,
        config=f"**{config!r}" if case == "aec_env" else repr(config),
        num_envs=num_envs,
    )
    return _WRAPPER.format(body=body)


def run_case(script: str, cache_dir: str | None, timeout: float = 600.0) -> dict:
    """Run ``script`` in a fresh interpreter (with ``NUMBA_CACHE_DIR=cache_dir`` when given)."""
    environment = dict(os.environ)
    if cache_dir is not None:
        environment["NUMBA_CACHE_DIR"] = cache_dir
    completed = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=environment, capture_output=True, text=True,
        timeout=timeout, check=False,
    )
    if completed.returncode != 0:
        raise RuntimeError(f"start-up measurement failed:\n{completed.stderr[-2000:]}")
    return json.loads(completed.stdout.strip().splitlines()[-1])


def cold_and_warm_start(case: str, game: str, config: dict | None = None, num_envs: int = 4096,
                        cold: bool = True) -> dict:
    """``{"cold": {...}, "warm": {...}}`` (seconds and peak_rss_mb); ``cold=False`` measures only the
    warm start, with the project's usual cache (already filled by the benchmarks' warm-ups)."""
    script = case_script(case, game, config, num_envs)
    if not cold:
        return {"warm": run_case(script, None)}
    with tempfile.TemporaryDirectory(prefix="numba-cold-") as cache_dir:
        first = run_case(script, cache_dir)
        second = run_case(script, cache_dir)
    return {"cold": first, "warm": second}
