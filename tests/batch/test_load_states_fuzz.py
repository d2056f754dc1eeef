"""No kernel state can crash the process: ``load_states`` refuses every corrupt or foreign state with a
``ValueError`` (or plays it legally, where the change is one no rule reads), in every game.

The fuzz itself (``tests.batch.load_states_fuzz``) runs in a subprocess per game, so that a segfault or an
abort in compiled code fails this test instead of killing pytest; it loads at least 1,000 corrupt and
foreign states per game (random arrays, one-field corruptions of real states, states of the game's other
variants and of the other games) and the real states they were made from.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from trick_core.registry import GAME_NAMES

BAD_STATES_PER_GAME = 1000


@pytest.mark.parametrize("game", GAME_NAMES)
def test_no_corrupt_or_foreign_state_crashes_the_batch_env(game: str) -> None:
    command = [sys.executable, "-m", "tests.batch.load_states_fuzz", game, "--states", str(BAD_STATES_PER_GAME)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"the fuzz process ended with {done.returncode}:\n{done.stderr[-3000:]}"
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["num_failures"] == 0, "\n".join(report["failures"])
    assert report["corrupt_or_foreign"] >= BAD_STATES_PER_GAME
    counts = report["counts"]
    assert counts["real"]["refused"] == 0 and counts["real"]["played"] > 0, counts
    for kind in ("zeros", "minus_one", "random_int64", "random_small", "foreign_game"):
        assert counts[kind]["played"] == 0 and counts[kind]["refused"] > 0, (kind, counts[kind])
    if "foreign_variant" in counts:
        assert counts["foreign_variant"]["played"] == 0, counts["foreign_variant"]
    # a changed entry that a rule reads is refused; only the game's UNREPLAYED_FIELDS may be played
    assert counts["one_field"]["played"] == 0 and counts["one_field"]["refused"] > 0, counts["one_field"]
