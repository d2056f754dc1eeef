"""experiments/distil.py: expert iteration from a search agent's labels — the labelled files, the options,
resume, and that a short run learns (the network agrees with its teacher on held-out hands far more often
after its first fit than before it)."""

import dataclasses
import json

import numpy as np
import pytest

from agents import make
from experiments import distil
from experiments.distil_data import COLUMNS, FORMAT, load_labelled, play_labelled_hands, save_labelled
from trick_core.registry import make_env

TEACHER = "pimc[samples=4]"


def tiny(tmp_path, name="run", **overrides) -> distil.Args:
    """A run small enough for a test: a one-layer network, a cheap teacher, no arena evaluation."""
    options = dict(game="bavarian", teacher=TEACHER, iterations=1, hands_per_iteration=30, workers=1,
                   hidden=(32,), epochs=2, batch_size=128, eval_every=0, progress=False,
                   run_dir=str(tmp_path / name))
    return distil.Args(**{**options, **overrides})


@pytest.fixture(scope="module")
def labelled():
    return play_labelled_hands("bavarian", {}, TEACHER, "rules", 0.1, 5, 4)


def test_labelled_positions_hold_the_teachers_values_and_the_whole_deal(labelled):
    table = make_env("bavarian").unwrapped
    mask, values, labelled_rows = labelled["action_mask"], labelled["values"], labelled["labelled"]
    assert labelled_rows.any() and (~labelled_rows).any()
    # the teacher values exactly the legal actions of the decisions with a choice, and chooses a legal one
    assert (np.isfinite(values) == (mask & labelled_rows[:, None])).all()
    assert mask[np.arange(mask.shape[0]), labelled["teacher_action"]].all()
    assert mask[np.arange(mask.shape[0]), labelled["action"]].all()
    assert (mask.sum(1)[labelled_rows] > 1).all() and (mask.sum(1)[~labelled_rows] == 1).all()
    # at each hand's first decision the seats hold the whole deck, each card once
    first = np.flatnonzero(np.r_[True, np.diff(labelled["hand"]) != 0])
    assert first.size == 4
    assert (labelled["hands"][first].sum(axis=1) == 1).all()
    assert labelled["hands"].shape[1:] == (table.num_seats, table.deck.num_cards)
    # the deciding seat's own cards come first: the held cards its observation shows
    assert (labelled["hands"][:, 0].sum(1) <= 8).all()
    # a hand's settlement is zero-sum over the seats that decided in it (all four do in Bavarian)
    for hand in range(4):
        rows = labelled["hand"] == hand
        per_seat = {int(s): float(o) for s, o in zip(labelled["seat"][rows], labelled["outcome"][rows], strict=True)}
        assert len(per_seat) == 4 and abs(sum(per_seat.values())) < 1e-6


def test_labelled_files_round_trip(labelled, tmp_path):
    metadata = {"game": "bavarian", "config": {}, "teacher": TEACHER, "iteration": 0}
    path = save_labelled(tmp_path / "iteration_000.npz", labelled, metadata)
    loaded = load_labelled(path, "bavarian", {})
    assert loaded["metadata"] == {"format": FORMAT, **metadata}
    for column in COLUMNS:
        assert loaded[column].dtype == labelled[column].dtype
        np.testing.assert_array_equal(loaded[column], labelled[column])
    with np.load(path) as archive:  # plain numpy reads it too
        assert json.loads(str(archive["metadata"]))["format"] == FORMAT


@pytest.mark.parametrize(("make_file", "complaint"), [
    (lambda folder, data: folder / "missing.npz", "no labelled data at"),
    (lambda folder, data: (folder / "text.npz").write_text("no archive") and folder / "text.npz",
     "is not labelled data"),
    (lambda folder, data: np.savez(folder / "plain.npz", observation=np.zeros(3)) or folder / "plain.npz",
     "has no readable metadata"),
    (lambda folder, data: save_labelled(folder / "other.npz", data, {"game": "knuffeln", "config": {}}),
     "is of knuffeln"),
])
def test_load_labelled_names_what_is_wrong(make_file, complaint, labelled, tmp_path):
    with pytest.raises(ValueError, match=complaint):
        load_labelled(make_file(tmp_path, labelled), "bavarian", {})


def test_distillation_learns_its_teacher_on_held_out_hands(tmp_path):
    """The untrained network agrees with the teacher about as often as a guess among the legal actions and
    gives up units by the teacher's own values; after one iteration's fit, on hands it never saw, it agrees
    more often and gives up a fraction of that (the teacher, four worlds per decision, is noisy: its choice
    is not always the one its values favour, so agreement stays far below one)."""
    summary = distil.main(tiny(tmp_path, hands_per_iteration=150, hidden=(64,), epochs=10,
                               learning_rate=3e-3))
    last = summary["last"]
    assert last["held_out_decisions"] >= 200
    assert last["held_out_accuracy_before"] < 0.45
    assert last["held_out_accuracy"] > last["held_out_accuracy_before"] + 0.1
    assert last["held_out_regret"] < 0.25 * last["held_out_regret_before"]
    files = sorted((tmp_path / "run" / "data").glob("*.npz"))
    assert [f.name for f in files] == ["iteration_000.npz"]
    assert load_labelled(files[0], "bavarian", {})["metadata"]["player"] == "rules"


def test_every_target_option_trains_and_a_resumed_run_continues(tmp_path):
    args = tiny(tmp_path, policy_target="values", value_target="mean", critic="perfect")
    first = distil.main(args)
    assert first["iterations"] == 1 and all(np.isfinite(v) for k, v in first["last"].items() if k.startswith("loss"))
    assert "loss_critic" in first["last"]
    resumed = distil.main(dataclasses.replace(args, iterations=2, run_dir=None,
                                              resume=str(tmp_path / "run" / "checkpoint.pt")))
    assert resumed["iterations"] == 2 and resumed["decisions"] > first["decisions"]
    second = load_labelled(tmp_path / "run" / "data" / "iteration_001.npz", "bavarian", {})
    assert second["metadata"]["player"].startswith("neural")  # the network plays from the second iteration
    agent = make("neural", "bavarian", path=resumed["final"])
    env = make_env("bavarian")
    env.reset(seed=3)
    assert env.observe(env.agent_selection)["action_mask"][agent.act(env, env.agent_selection)]


@pytest.mark.parametrize(("overrides", "complaint"), [
    ({"iterations": 0}, "iterations must be a positive integer"),
    ({"hands_per_iteration": 0}, "hands_per_iteration must be a positive integer"),
    ({"workers": 0}, "workers must be a positive integer"),
    ({"window": 0}, "window must be a positive integer"),
    ({"explore": 1.5}, r"explore must lie in \[0, 1\]"),
    ({"temperature": 0.0}, "temperature must be positive"),
    ({"holdout": 0.0}, r"holdout must lie in \(0, 1\)"),
    ({"teacher": "nobody"}, "--teacher: unknown agent 'nobody'"),
    ({"first_player": "nobody"}, "--first-player: unknown agent 'nobody'"),
    ({"eval_every": 1, "eval_also": ["nobody"]}, "--eval-also: unknown agent 'nobody'"),
    ({"eval_also_hands": 0}, "eval_also_hands must be a positive integer"),
    ({"teacher": "rules", "policy_target": "values"}, "values no actions"),
    ({"teacher": "rules", "value_target": "search"}, "values no actions"),
    ({"init_from": "no/such/network.pt"}, "no checkpoint at"),
    ({"resume": "no/such/checkpoint.pt"}, "no checkpoint at"),
    ({"device": "tpu"}, "unknown device"),
])
def test_a_bad_option_is_named_before_anything_runs(overrides, complaint, tmp_path):
    with pytest.raises(ValueError, match=complaint):
        distil.main(dataclasses.replace(tiny(tmp_path), **overrides))
    assert not (tmp_path / "run").exists()


def test_distil_compare_fits_each_variant_on_the_same_hands(labelled, tmp_path):
    from experiments import distil_compare

    path = save_labelled(tmp_path / "iteration_000.npz", labelled, {"game": "bavarian", "config": {}, "iteration": 0})
    args = distil_compare.Args(data=[str(path)], variants=["base", "critic=perfect,q_coef=0.0"], epochs=1,
                               json=str(tmp_path / "compare.json"))
    distil_compare.check_options(args)
    summary = distil_compare.compare(args)
    assert [row["variant"] for row in summary["results"]] == args.variants
    assert "loss_critic" in summary["results"][1]["train_losses"]
    assert all(0.0 <= row["held_out_accuracy"] <= 1.0 for row in summary["results"])
    assert json.loads((tmp_path / "compare.json").read_text())["results"] == summary["results"]
    with pytest.raises(ValueError, match="is not option=value"):
        distil_compare.check_options(dataclasses.replace(args, variants=["critics=perfect"]))
