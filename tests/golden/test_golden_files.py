"""What the golden playthroughs hold (``tests/core/test_golden.py`` replays them): each Schafkopf file has a
hand played to its last trick, so that a change to late card play or to the scoring of an ordinary game
shows up as a diff (random bidding alone mostly ends a Schafkopf hand with a Tout or a Du lost early)."""

from __future__ import annotations

import pytest

from tests.golden.playthroughs import path_of
from trick_core.cards import FRENCH_32, GERMAN_32
from trick_core.registry import VARIANTS, variant_id

CARDS_OF_A_WHOLE_HAND = {"bavarian": 4 * 8, "asserufen": 4 * 8, "palatinate": 3 * 10}
"""Cards played when every trick is played: four players with eight cards, or three active players with ten
(the skat is never played); docs/rules/bavarian_schafkopf.md and palatinate_schafkopf.md."""

CARDS_OF_A_WHOLE_SHORT_HAND = 4 * 6
"""Bavarian's short pack (``pack="short"``): four players with six cards."""

CARD_NAMES = {deck.name_of(i) for deck in (GERMAN_32, FRENCH_32) for i in range(32)}
SCHAFKOPF = [(game, config) for game, config in VARIANTS if game in CARDS_OF_A_WHOLE_HAND]


def cards_played_per_hand(text: str, game: str) -> list[int]:
    """How many card actions each hand of a golden file took (a hand starts at its ``# <game>`` line)."""
    counts: list[int] = []
    for line in text.splitlines():
        if line.startswith(f"# {game} "):
            counts.append(0)
        elif line.startswith("  action: ") and line.removeprefix("  action: ") in CARD_NAMES:
            counts[-1] += 1
    return counts


@pytest.mark.parametrize(("game", "config"), SCHAFKOPF, ids=[variant_id(g, c) for g, c in SCHAFKOPF])
def test_each_schafkopf_golden_file_plays_a_hand_to_its_last_trick(game, config):
    counts = cards_played_per_hand(path_of(game, config).read_text(encoding="utf-8"), game)
    whole = CARDS_OF_A_WHOLE_SHORT_HAND if config.get("pack") == "short" else CARDS_OF_A_WHOLE_HAND[game]
    assert len(counts) >= 3 and max(counts) <= whole, counts
    assert whole in counts, f"no hand of {variant_id(game, config)} is played out: {counts}"
