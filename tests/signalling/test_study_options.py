"""Bad options of the signalling study (``experiments.signalling_study``) and of the learning curves
(``experiments.learning_curves``) are named before a deal is played or a file written: a ``ValueError``, one
line on the command line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from experiments import learning_curves
from experiments.signalling_args import Args
from experiments.signalling_study import check_options, main

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("options", "complaint"), [
    ({"workers": 0}, "workers must be a positive integer, got 0"),
    ({"talk_deals": 0}, "talk_deals must be a positive integer, got 0"),
    ({"permutations": -1}, "permutations must be a positive integer, got -1"),
    ({"seed": -1}, "--seed: seed must be a non-negative integer, got -1"),
    ({"seed": None}, "--seed: seed must be a non-negative integer, got None"),
    ({"trained_seeds": [1, -2]}, "--trained-seeds: seed must be a non-negative integer, got -2"),
    ({"tokens": 1000}, "unknown talk option 'tokens:1000'"),
    ({"partner_agents": ["nobody"]}, "unknown agent 'nobody'"),
    ({"parts": ["bogus"]}, r"unknown parts \['bogus'\]"),
    ({"parts": ["crossplay"]}, "keep the results of .*results.json.*: there is none"),
    ({"report_only": True}, "keep the results of .*results.json.*: there is none"),
])
def test_a_bad_study_option_is_named_before_anything_is_played_or_written(options, complaint, tmp_path):
    out = tmp_path / "out"
    args = Args(out=str(out), quick=True, **options)
    with pytest.raises(ValueError, match=complaint):
        check_options(args)
    with pytest.raises(ValueError, match=complaint):
        main(args)
    assert not out.exists(), "the study wrote its folder before refusing the option"


@pytest.mark.parametrize(("options", "complaint"), [
    ({"records": ["no/such/record.json"]}, "records: no file at 'no/such/record.json'"),
    ({"records": [], "out": "curves.png"}, "records: give at least one"),
    ({"records": [str(ROOT / "README.md")], "out": "no/such/folder/curves.png"},
     "--out 'no/such/folder/curves.png': its folder .* does not exist"),
])
def test_learning_curves_name_a_missing_record_or_folder_before_drawing(options, complaint):
    args = learning_curves.Args(**options)
    with pytest.raises(ValueError, match=complaint):
        learning_curves.check_options(args)
    with pytest.raises(ValueError, match=complaint):
        learning_curves.main(args)


@pytest.mark.parametrize(("arguments", "message"), [
    (["experiments.signalling_study", "--workers", "0"], "experiments.signalling_study: workers must be a positive "
                                                         "integer, got 0"),
    (["experiments.learning_curves", "--records", "no/such/record.json"],
     "experiments.learning_curves: records: no file at 'no/such/record.json'"),
])
def test_the_study_commands_name_a_bad_option_in_one_line(arguments, message, tmp_path):
    done = subprocess.run([sys.executable, "-m", *arguments, "--out", str(tmp_path / "out")], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    assert done.stderr == message + "\n", done.stderr
    assert list(tmp_path.iterdir()) == []
