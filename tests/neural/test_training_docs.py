"""The numbers ``docs/training.md`` quotes for the warm start alone are those of its committed record
(``docs/training/warm_start_alone.json``): a rerun that changes the record must change the page too."""

import json
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
RECORD = json.loads((DOCS / "training" / "warm_start_alone.json").read_text(encoding="utf-8"))
PAGE = (DOCS / "training.md").read_text(encoding="utf-8")


def interval(low: float, high: float) -> str:
    return f"[{low:+.3f}, {high:+.3f}]"


def table_row(match: dict) -> str:
    """The page's table row of an arena match of the warm-start network against rules."""
    (network,) = [agent for name, agent in match["agents"].items() if name != "rules"]
    difference = match["difference"]
    verdict = ("yes (rules better)" if difference["first_minus_second"] < 0 else "yes") \
        if difference["significant"] else "no"
    return (f"| *warm start alone*¹ vs rules | {match['hands']:,} ({match['seed']}) | "
            f"{network['mean_units_per_hand']:+.3f} | {interval(*network['ci95'])} | "
            f"{difference['first_minus_second']:+.3f} | {interval(*difference['ci95'])} | {verdict} |")


@pytest.mark.parametrize("match", [match for matches in RECORD["matches"].values() for match in matches],
                         ids=lambda match: f"{match['game']}-{match['hands']}-{match['seed']}")
def test_each_recorded_match_is_a_row_of_the_page(match):
    assert table_row(match) in PAGE


def test_the_page_quotes_the_recorded_agreement_and_evaluation():
    bavarian, knuffeln = RECORD["stages"]["bavarian"], RECORD["stages"]["knuffeln"]
    agreement = f"{100 * bavarian['held_out']['accuracy']:.1f}% / {100 * knuffeln['held_out']['accuracy']:.1f}%"
    assert f"({agreement} held-out agreement with `rules` in the rerun)" in PAGE
    evaluation = bavarian["evaluation"]
    assert f"{evaluation['units_per_hand']:+.3f} {interval(*evaluation['ci95'])}" in PAGE


def test_every_row_of_the_warm_start_alone_is_recorded():
    rows = [line for line in PAGE.splitlines() if line.startswith("| *warm start alone*")]
    recorded = [table_row(match) for matches in RECORD["matches"].values() for match in matches]
    assert sorted(rows) == sorted(recorded)
