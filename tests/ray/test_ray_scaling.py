"""``benchmarks.ray_scaling``'s arena part on the local Ray of the tests, at a size that a quick look uses:
a long match no longer than the warm-up match has no driver slope to take (it was a division by zero), and
the projection then falls back to the driver's whole CPU per deal."""

from __future__ import annotations

import pytest

from .conftest import INSTALL

pytest.importorskip("ray", reason=INSTALL)
from benchmarks import ray_scaling  # noqa: E402

pytestmark = pytest.mark.xdist_group("ray")


def test_a_match_as_short_as_the_warm_up_reports_no_driver_slope(ray_session):
    args = ray_scaling.Args(agents=("random", "rules"), hands=8, repeats=1, cpus=2)  # the warm-up: 4 x cpus deals
    result = ray_scaling.arena(args)
    assert result["deals"] == 8 and result["results_identical_to_local"]
    assert result["driver_marginal_cpu_ms_per_deal"] is None
    training = {"actors": {1: {"actor_ms_per_1k_samples": 10.0}, 2: {"update_ms_per_1k_samples": 5.0}}}
    projected = ray_scaling.projection(args, result, training)
    assert projected["arena_driver_cap_deals_per_second"] == round(
        1000 / result["workers"][2]["driver_cpu_ms_per_deal"], 1)
