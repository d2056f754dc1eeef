"""The soak command (``benchmarks.soak``) passes on a small run and catches a leak when there is one."""

from __future__ import annotations

from benchmarks import soak
from schafkopf_env import bavarian_v0
from schafkopf_env.bavarian import kernel
from trick_core.registry import VARIANTS, variant_id


def _small(**kwargs) -> soak.Args:
    return soak.Args(**{"hands": 60, "games": ("bavarian",), "leak_positions": 6, "workers": 1, **kwargs})


def test_a_small_soak_passes_and_counts_what_it_played():
    reports = soak.run(_small())  # one per registered Bavarian variant (its rule options too)
    assert [r.configuration for r in reports] == [variant_id(g, c) for g, c in VARIANTS if g == "bavarian"]
    for report in reports:
        assert report.failures == [], report.configuration
        assert report.hands_batch >= 60 and report.hands_aec == 60 and report.leak_positions == 6
        assert report.steps_aec > report.hands_aec


def test_the_twin_deal_check_catches_a_leaking_observation(monkeypatch):
    honest = bavarian_v0.BavarianSchafkopfEnv._fill_observation

    def leaking(self, seat, out):
        honest(self, seat, out)
        neighbour = int(self._state[kernel.S_HANDS + (seat + 1) % 4])
        out[:32] = [(neighbour >> card) & 1 for card in range(32)]  # the next seat's cards

    monkeypatch.setattr(bavarian_v0.BavarianSchafkopfEnv, "_fill_observation", leaking)
    report = soak.Report("bavarian")
    soak.soak_leaks("bavarian", {}, 5, 0, report)
    assert any(failure.startswith("leak:") for failure in report.failures)


def test_workers_soak_the_same_configurations_as_one_process():
    def counts(reports):
        return [(r.configuration, r.hands_batch, r.hands_aec, r.steps_batch, r.steps_aec, r.leak_positions,
                 r.failures) for r in reports]

    small = {"games": ("palatinate",), "hands": 20, "leak_positions": 2}
    in_workers = counts(soak.run(_small(workers=2, **small)))
    assert in_workers == counts(soak.run(_small(**small)))
    assert [row[0] for row in in_workers] == ["palatinate", "palatinate-players=4"]
