"""Smoke test of the signalling study: a quick run writes the report, the plots and consistent numbers."""

from __future__ import annotations

import json

import pytest

from experiments.signalling_args import Args
from experiments.signalling_report_learned import FIXED_MATCHES, _learned_answers, _learned_gap_verdict, learned_limit
from experiments.signalling_study import PARTS, _cpu_after_rerun, main
from signalling.population import shipped_seeds


def test_quick_study_writes_report_plots_and_results_and_reruns_a_part(tmp_path):
    results = main(Args(out=str(tmp_path), quick=True, workers=1))
    folder = tmp_path / "signalling"
    for name in ("talk.png", "metrics.png", "truth.png", "crossplay.png", "partners.png", "results.json"):
        assert (folder / name).stat().st_size > 0, name
    report = (tmp_path / "signalling.md").read_text()
    for heading in ("## Value of talk", "## Metrics per agent type", "## Causal influence", "## Cross-play",
                    "## Hidden partners", "## Limits"):
        assert heading in report
    saved = json.loads((folder / "results.json").read_text())
    assert saved["value_of_talk"]["off"]["first_minus_second"] == 0.0  # same player without talk
    for talk in ("lexicon", "tokens"):
        assert results["influence"][talk]["rules[listen=false]"]["cic_bits_marginal"] == 0.0
        assert results["metrics"][talk]["rules"]["truth"]["false"] == 0  # the honest talker
    for population, entry in (results["learned"] or {}).items():  # the seeds' talk worth pooled deal by deal
        seeds = entry["seeds"].values()
        assert entry["talk_worth_pooled"]["matches"] == len(seeds), population
        assert entry["talk_worth_pooled"]["mean"] == pytest.approx(
            sum(seed["against_silent_rules"]["difference"]["mean"] for seed in seeds) / len(seeds))
        assert "difference_per_deal" not in next(iter(seeds))["against_silent_rules"]
    matrix = results["crossplay"]["mean"]
    assert matrix[0][0] == matrix[1][1]  # one convention under two labellings
    trained = results["crossplay_trained"]
    if shipped_seeds()[:2] == [1, 2]:
        assert trained["labels"] == ["seed 1", "seed 2"] and len(trained["mean"]) == 2
        assert [m["label"] for m in trained["metrics"]] == trained["labels"]
        assert "### Trained token population" in report
        assert (folder / "crossplay_trained.png").stat().st_size > 0
    else:
        assert trained is None and "No trained population" in report

    # one part rerun on its own: the others are kept from results.json
    again = main(Args(out=str(tmp_path), quick=True, workers=1, parts=["crossplay_trained"], seed=3))
    assert again["value_of_talk"] == saved["value_of_talk"]
    assert again["reruns"][0]["parts"] == ["crossplay_trained"]
    assert trained is None or again["crossplay_trained"]["seed"] == 3
    assert "rerun on their own" in (tmp_path / "signalling.md").read_text()
    once_more = main(Args(out=str(tmp_path), quick=True, workers=1, parts=["crossplay_trained"], seed=4))
    assert [rerun["parts"] for rerun in once_more["reruns"]] == [["crossplay_trained"]]  # the later one supersedes
    assert once_more["reruns"][0]["args"]["seed"] == 4
    first, last = saved["seconds"], once_more["seconds"]
    assert set(first["cpu_parts"]) == set(PARTS) and first["cpu"] >= sum(first["cpu_parts"].values())
    assert last["cpu_parts"] == {**first["cpu_parts"], "crossplay_trained": last["cpu_parts"]["crossplay_trained"]}
    with pytest.raises(ValueError, match="rerun metrics"):
        main(Args(out=str(tmp_path), parts=["scramble"]))


def test_the_learned_limit_says_what_the_seeds_allow():
    both = {"plain": [1, 2], "otherplay": [1, 2]}
    one = learned_limit({"plain": {"seeds": {"1": {}}}, "otherplay": {"seeds": {"1": {}}}}, both)
    assert "1 seed `plain`" in one and "needs two or more" in one
    assert "Shipped since" in one and "`plain` seeds 2" in one  # seed 2 is shipped but not studied
    two = learned_limit({"plain": {"seeds": {"1": {}, "2": {}}}, "otherplay": {"seeds": {"1": {}, "2": {}}}}, both)
    assert "2 seeds `otherplay`" in two and "needs two or more" not in two and "Shipped since" not in two


def _gap(low, high):
    return {"mean": (low + high) / 2, "ci95": [low, high]}


@pytest.mark.parametrize(("gap", "control", "verdict"), [
    (_gap(0.05, 0.40), _gap(0.03, 0.40), "decides: the seeds' conventions differ"),
    (_gap(-0.40, -0.05), _gap(0.03, 0.40), "decides the other way"),
    (_gap(-0.15, 0.15), _gap(0.03, 0.40), "decides: no private conventions"),  # below the control's +0.215
    (_gap(-0.10, 0.30), _gap(0.03, 0.40), "does not decide"),  # reaches the control's +0.215
    (_gap(-0.10, 0.10), None, "no scale"),
    (_gap(-0.10, 0.10), _gap(-0.30, -0.10), "no scale"),  # a control without a cost is no scale
])
def test_the_learned_gap_decides_only_where_its_interval_allows(gap, control, verdict):
    assert verdict in _learned_gap_verdict(gap, control)


def test_a_rerun_replaces_the_cpu_of_the_parts_it_reruns():
    earlier = {"cpu": 100.0, "cpu_parts": {"metrics": 30.0, "learned": 60.0}}
    after = _cpu_after_rerun(earlier, {"learned": 20.0}, 25.0)
    assert after == {"cpu_parts": {"metrics": 30.0, "learned": 20.0}, "cpu": 65.0}
    # results from before the per-part count keep their total: it cannot lose what it does not itemize
    assert _cpu_after_rerun({"cpu": 100.0}, {"learned": 20.0}, 25.0) == {"cpu": 125.0}


def _seed_row(talking, worth, head):
    return {"against_silent_rules": {"first_units": _gap(*talking), "difference": _gap(*worth)},
            "talking_vs_muted": _gap(*head)}


def test_the_learned_answers_count_the_seeds_and_quote_the_fixed_match_on_file(tmp_path):
    seeds = {"1": _seed_row((0.2, 1.0), (0.05, 0.4), (-0.3, 0.3)), "2": _seed_row((-0.1, 0.9), (-0.2, 0.2), (0.1, 0.5))}
    learned = {"otherplay": {"seeds": seeds, "talk_worth_pooled": {**_gap(-0.02, 0.12), "significant": False},
                             "crossplay": {"gap": _gap(-0.1, 0.1)}}}
    fixed = {"deals": 3000, "seed": 6403, "pooled": _gap(0.01, 0.09), "seeds": {"1": {"difference": _gap(0.0, 0.2)}}}
    (tmp_path / FIXED_MATCHES.format(population="otherplay")).write_text(json.dumps(fixed))
    text = "\n".join(_learned_answers(learned, {"gap": _gap(0.03, 0.40)}, str(tmp_path)))
    assert "1 of 2 seeds beat the silent rules" in text
    assert "deaf opponents for seed 1," in text and "muted twin for seed 2" in text
    assert "3,000 fresh deals" in text and "+0.050 [+0.010, +0.090]" in text
    assert "(decides, below)" in text and "a gap has little to cost" in text
    assert "fresh deals" not in "\n".join(_learned_answers(learned, None, str(tmp_path / "elsewhere")))
