"""Duplicate matches end to end: reproducible from the seed, exactly zero for two copies of one
deterministic agent, the same deal at every seating, records that replay, the JSON the API fixes."""

import json
import subprocess
import sys

import numpy as np
import pytest

from agents.arena import Args, agent_labels, deal_seed, main, run_arena, run_matches, without_timing
from trick_core.registry import VARIANTS, make_env, variant_id

TINY_PIMC = "pimc[samples=2,playouts_per_sample=3]"


class LastLegalAgent:
    """Deterministic and seedless: two copies play identically (and it bids, so hands get played)."""

    name = "last_legal"

    def __init__(self, game):
        self.game = game

    def act(self, env, agent):
        return int(np.flatnonzero(env.observe(agent)["action_mask"])[-1])


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=[variant_id(g, c) for g, c in VARIANTS])
def test_same_seed_gives_the_same_deal(game, config):
    first, second = make_env(game, **config), make_env(game, **config)
    for index in range(3):
        first.reset(seed=deal_seed(5, index))
        second.reset(seed=123)
        second.reset(seed=deal_seed(5, index))
        assert first.unwrapped.game_record()["deal"] == second.unwrapped.game_record()["deal"]


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=[variant_id(g, c) for g, c in VARIANTS])
def test_two_copies_of_a_deterministic_agent_tie_on_every_deal(game, config):
    spec = f"{__name__}:LastLegalAgent"
    match = run_matches(game, [spec, spec], hands=6, seed=3, config=config)[0]
    np.testing.assert_allclose(match.per_deal, 0.0, atol=1e-9)
    assert sum(d.thrown_in for d in match.deals) < sum(d.plays for d in match.deals)  # hands were played


@pytest.mark.parametrize("game", ["bavarian", "palatinate", "asserufen", "knuffeln"])
def test_same_seed_same_json_and_another_seed_differs(game):
    agents = ["random", TINY_PIMC]
    first = without_timing(run_arena(game, agents, hands=3, seed=7))
    second = without_timing(run_arena(game, agents, hands=3, seed=7))
    assert json.dumps(first) == json.dumps(second)
    other = without_timing(run_arena(game, agents, hands=3, seed=8))
    assert json.dumps(other) != json.dumps(first)


def test_parallel_workers_give_the_same_result():
    agents = ["random", "random", TINY_PIMC]
    serial = without_timing(run_arena("palatinate", agents, hands=4, seed=2))
    parallel = without_timing(run_arena("palatinate", agents, hands=4, seed=2, workers=2))
    assert serial == parallel


def test_the_json_has_the_api_shape_and_the_plot_and_records_are_written(tmp_path):
    json_path, plot_path, records_path = tmp_path / "r.json", tmp_path / "r.png", tmp_path / "r.jsonl"
    args = Args(
        game="bavarian", agents=["random", "random"], hands=5, seed=1, json=str(json_path),
        plot=str(plot_path), records=str(records_path), progress=False,
    )
    main(args)
    result = json.loads(json_path.read_text())
    assert {"game", "hands", "agents", "difference"} <= set(result)
    assert result["game"] == "bavarian" and result["hands"] == 5
    assert set(result["agents"]) == {"random", "random#2"}
    for row in result["agents"].values():
        low, high = row["ci95"]
        assert low <= row["mean_units_per_hand"] <= high
    difference = result["difference"]
    assert set(difference) >= {"first_minus_second", "ci95"}
    means = [row["mean_units_per_hand"] for row in result["agents"].values()]
    assert difference["first_minus_second"] == pytest.approx(means[0] - means[1])
    assert "timing" not in result
    assert plot_path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    lines = records_path.read_text().splitlines()
    assert len(lines) == 5 * 6  # every deal at each of the six seatings


def test_records_replay_and_share_one_deal_per_seating(tmp_path):
    path = tmp_path / "records.jsonl"
    summary = run_arena("asserufen", ["random", TINY_PIMC], hands=2, seed=4, records_path=str(path))
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(records) == summary["hands"] * 6
    env = make_env("asserufen")
    units = {"random": 0.0, TINY_PIMC: 0.0}
    for record in records:
        env.unwrapped.replay(record)  # raises if the actions or the result do not reproduce
        same_deal = [r["deal"] for r in records if r["arena"]["deal_index"] == record["arena"]["deal_index"]]
        assert all(deal == record["deal"] for deal in same_deal)
        for seat, label in enumerate(record["arena"]["seating"].values()):
            units[label] += record["result"][seat]
    # each agent held 12 of the 24 seat-hands per deal; the mean per seat-hand is what the arena reports
    for label, total in units.items():
        assert summary["agents"][label]["mean_units_per_hand"] == pytest.approx(total / (12 * summary["hands"]))


def test_bad_arena_input_raises_value_error():
    with pytest.raises(ValueError, match="at least two agents"):
        run_arena("bavarian", ["random"], hands=2)
    with pytest.raises(ValueError, match="hands"):
        run_arena("bavarian", ["random", "random"], hands=0)
    with pytest.raises(ValueError, match="unknown agent"):
        run_arena("bavarian", ["random", "nobody"], hands=2)
    with pytest.raises(ValueError, match="unknown game"):
        run_arena("skat", ["random", "random"], hands=2)
    with pytest.raises(ValueError, match="unknown option"):
        run_arena("bavarian", ["random", "random"], hands=2, config={"players": 5})
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        run_arena("bavarian", ["random", "random"], hands=2, seed=-1)
    for workers in (0, -3, 1.5):
        with pytest.raises(ValueError, match="workers must be a positive integer"):
            run_arena("bavarian", ["random", "random"], hands=2, workers=workers)


def test_labels_stay_distinct_whatever_the_names():
    assert agent_labels(["random", "random", "random"]) == ["random", "random#2", "random#3"]
    assert agent_labels(["rules", "rules", "rules#2"]) == ["rules", "rules#2", "rules#2#2"]


def test_the_command_line_names_a_bad_input_in_one_line():
    done = subprocess.run([sys.executable, "-m", "agents.arena", "--game", "bavarian", "--agents", "random",
                           "pimc[nosuch=1]", "--hands", "2"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip() == ("agents.arena: --agents: agent 'pimc[nosuch=1]': got an unexpected keyword argument "
                                   "'nosuch'; its arguments: samples, playouts_per_sample, epsilon, cautious, "
                                   "bid_samples, seed")
