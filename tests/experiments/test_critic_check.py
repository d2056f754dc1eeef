"""``experiments.critic_check``: a tiny offline check runs end to end and reports what it promises; bad
options are named."""

import dataclasses
import json
import math

import pytest

from experiments import critic_check

CHECKPOINT = "agents/neural/checkpoints/palatinate.pt"


def test_a_tiny_check_reports_every_variant_per_epoch(tmp_path):
    args = critic_check.Args(checkpoint=CHECKPOINT, num_envs=16, steps=40, epochs=2, batch_size=64,
                             json=str(tmp_path / "check.json"))
    result = critic_check.main(args)
    assert json.loads((tmp_path / "check.json").read_text()) == result
    assert result["game"] == "palatinate" and result["decisions"] > 0
    assert result["held_out"] == result["decisions"] - int(result["decisions"] * (1 - args.holdout))
    assert set(result["variants"]) == {"fresh", "residual"}
    for errors in result["variants"].values():
        assert len(errors) == 2 and all(math.isfinite(error) and error >= 0 for error in errors)
    assert 0 <= result["value_head_error"] and result["settlement_variance"] > 0


@pytest.mark.parametrize(("change", "complaint"), [
    ({"variants": ["oracle"]}, "unknown variants"),
    ({"holdout": 1.0}, "holdout must lie in"),
    ({"steps": 0}, "steps must be a positive integer"),
    ({"checkpoint": "missing.pt"}, "no checkpoint at"),
])
def test_bad_options_are_named(change, complaint):
    with pytest.raises(ValueError, match=complaint):
        critic_check.check_options(dataclasses.replace(critic_check.Args(checkpoint=CHECKPOINT), **change))
