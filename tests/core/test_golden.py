"""Every env and variant replays its golden playthrough (``tests/golden``) exactly: the same deal, the same
observations, legal actions and rewards at every step."""

from __future__ import annotations

import difflib

import pytest

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
