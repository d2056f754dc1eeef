"""One local Ray session (two CPUs) for every Ray test of a pytest process.

The Ray tests carry ``pytest.mark.xdist_group("ray")`` so that ``pytest -n 2 --dist loadgroup`` (``make
test``) runs them in one worker, which then starts Ray once; each test module skips, saying how to
install Ray, when it is absent."""

from __future__ import annotations

import pytest

INSTALL = "Ray is not installed: pip install -e '.[ray]'"


@pytest.fixture(scope="session")
def ray_session():
    ray = pytest.importorskip("ray", reason=INSTALL)
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, object_store_memory=200 * 1024 * 1024, log_to_driver=False)
    yield ray
    if started:
        ray.shutdown()
