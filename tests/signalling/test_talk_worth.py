"""The talk-worth command (``signalling.talk_worth``): its pooled result is the mean of its seeds' matches,
its JSON holds what it printed, and bad options are refused before a deal is played."""

from __future__ import annotations

import json

import pytest

from signalling.talk_worth import Args, check, main


def test_the_pooled_worth_is_the_seeds_worth_averaged_and_is_written(tmp_path):
    path = tmp_path / "worth.json"
    result = main(Args(population="otherplay", seeds=[1, 2], deals=3, seed=5, workers=1, json=str(path)))
    assert json.loads(path.read_text()) == json.loads(json.dumps(result))
    per_seed = [result["seeds"][seed]["difference"]["mean"] for seed in ("1", "2")]
    assert result["pooled"]["mean"] == pytest.approx(sum(per_seed) / 2)
    assert result["pooled"]["matches"] == 2 and result["pooled"]["deals"] == 3
    for seed in ("1", "2"):
        match = result["seeds"][seed]
        talking, muted = match["first_units"]["mean"], match["second_units"]["mean"]
        assert match["difference"]["mean"] == pytest.approx(talking - muted)
        assert "muted=true" in match["second"] and "muted" not in match["first"]


@pytest.mark.parametrize(("options", "message"), [
    ({"population": "nosuch"}, "unknown population 'nosuch'"),
    ({"seeds": [99]}, r"--seeds \[99\]: not shipped"),
    ({"deals": 0}, "deals must be a positive integer"),
    ({"workers": 0}, "workers must be a positive integer"),
    ({"seed": -1}, "signalling.talk_worth"),
    ({"json": "/no/such/folder/worth.json"}, "its folder does not exist"),
])
def test_bad_options_are_named(options, message):
    with pytest.raises(ValueError, match=message):
        check(Args(**options))
