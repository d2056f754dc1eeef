"""Every game in the registry (``trick_core.registry``) has its entry in each place outside its own package
that keeps one per game: the places ``docs/architecture.md`` ("Adding a game", step 5) lists. A new game
missing from one fails here with the file to edit, before the suites that use the entry fail deeper down.
(The neural agents' derived features, ``agents/neural/derived.py``, are checked for every registered variant
by ``tests/neural/test_features.py``.)"""

from __future__ import annotations

import pytest

from trick_core.registry import GAMES


def per_game_tables() -> dict[str, object]:
    """``where to add it -> the table``: each maps a game's name to its entry."""
    from benchmarks import reference_hands
    from play import catalog, views

    return {
        "play/catalog.py: GAMES (the browser's title, deck and rule options)": catalog.GAMES,
        "play/views/__init__.py: VIEW_BUILDERS (what a seat sees in the browser)": views.VIEW_BUILDERS,
        "play/views/__init__.py: ACTION_LABELS (the text of each action)": views.ACTION_LABELS,
        "benchmarks/reference_hands.py: PLAYERS (random hands through the reference)": reference_hands.PLAYERS,
    }


def missing_entries(game: str) -> list[str]:
    return [where for where, table in per_game_tables().items() if game not in table]


@pytest.mark.parametrize("game", GAMES)
def test_every_registered_game_has_its_entry_in_every_per_game_table(game):
    assert not missing_entries(game), f"{game} is registered but has no entry in: {missing_entries(game)}"


def test_the_benchmarks_measure_every_registered_game():
    from benchmarks.timing import GAMES as MEASURED

    assert sorted(MEASURED) == sorted(GAMES), "benchmarks/timing.py: GAMES (the order of the tables) lists every game"


def test_a_game_missing_from_the_tables_is_reported():
    """The check can fail: a name no table knows is reported missing from every one of them."""
    assert missing_entries("skat") == list(per_game_tables())

