"""Every env and variant replays its golden playthrough (``tests/golden``) exactly: the same deal, the same
observations, legal actions and rewards at every step."""

from __future__ import annotations

import difflib

import pytest

from tests.golden import playthroughs
from tests.golden.playthroughs import path_of, playthrough
from trick_core.registry import VARIANTS, variant_id


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=[variant_id(g, c) for g, c in VARIANTS])
def test_playthrough_matches_the_golden_file(game, config):
    expected = path_of(game, config).read_text(encoding="utf-8")
    actual = playthrough(game, config)
    if actual != expected:
        lines = difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), "golden", "now")
        diff = "".join(list(lines)[:60])
        pytest.fail(f"{variant_id(game, config)} plays differently from its golden file:\n{diff}")


def test_the_check_mode_reports_a_differing_file_and_leaves_it_alone(tmp_path, monkeypatch, capsys):
    game, config = VARIANTS[0]
    monkeypatch.setattr(playthroughs, "FOLDER", tmp_path / "tests" / "golden")
    monkeypatch.setattr(playthroughs, "VARIANTS", ((game, config),))
    playthroughs.FOLDER.mkdir(parents=True)
    assert playthroughs.main(playthroughs.Args(check=True)) == 1  # no file yet
    assert playthroughs.main(playthroughs.Args()) == 0
    assert playthroughs.main(playthroughs.Args(check=True)) == 0
    path = path_of(game, config)
    path.write_text(path.read_text(encoding="utf-8").replace("action:", "action :", 1), encoding="utf-8")
    altered = path.read_text(encoding="utf-8")
    assert playthroughs.main(playthroughs.Args(check=True)) == 1
    assert path.read_text(encoding="utf-8") == altered
    assert f"differs: tests/golden/{path.name}" in capsys.readouterr().out
