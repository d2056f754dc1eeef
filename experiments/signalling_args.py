"""Sizes and seeds of the signalling study (``experiments.signalling_study``): its command line."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Args:
    """Sizes and seeds of the signalling study (the defaults take well under an hour on two cores)."""

    out: str = "docs"
    """folder of signalling.md; plots and results.json go to <out>/signalling/"""
    seed: int = 0
    """seed of every deal and agent"""
    workers: int = 2
    """processes playing arena deals in parallel"""
    tokens: int = 8
    """vocabulary of the abstract-token talk variant (talk="tokens:N")"""
    talk_deals: int = 3000
    """deals of each duplicate match for the value of talk and the scramble test"""
    log_deals: int = 200
    """deals of the round robins whose hands are logged for the metrics"""
    influence_hands: int = 16
    """hands of rule talkers replayed with every alternative message (causal influence)"""
    crossplay_specs: list[str] = field(default_factory=list)
    """agents of the cross-play matrix (default: the rule talker under token permutations 0..population-1)"""
    crossplay_population: int = 5
    """size of the default token-permuted population"""
    crossplay_deals: int = 300
    """deals per cell of the cross-play matrix"""
    crossplay_log_deals: int = 60
    """deals logged per cross-play agent for its metrics (its causal influence: the first influence_hands)"""
    trained_seeds: list[int] = field(default_factory=lambda: [1, 2, 3, 4, 5])
    """seeds of the trained token population (signalling/population) in its cross-play matrix; none: skip it"""
    trained_deals: int = 300
    """deals per cell of the trained population's cross-play matrix (a neural decision costs 1-3 ms)"""
    learned_seeds: list[int] = field(default_factory=lambda: [1, 2, 3, 4, 5])
    """seeds of the learned talkers (signalling/learned, each population) to study; none: skip them"""
    learned_deals: int = 2000
    """deals of each learned talker's match, and of the same team muted, against the silent, deaf rules (a
    seed's talk worth: about ±0.11 per hand at 2,000 deals, ±0.16 at 1,000)"""
    learned_overheard_deals: int = 1000
    """deals of each learned talker's match against itself muted (opponents that overhear and know the code)"""
    learned_log_deals: int = 150
    """deals of each learned talker's logged self-play (its metrics and token meanings)"""
    learned_crossplay_deals: int = 400
    """deals per cell of each learned population's cross-play matrix; the cells grow as the square of the
    seeds (25 at five seeds a population), and every cell plays the same deals, so the gap of a deal averages
    more cells as the seeds grow (five seeds at 200 per cell: an interval of about ±0.14)"""
    partner_hands: int = 80
    """ace-call hands per game and agent type for the hidden-partner study"""
    partner_agents: list[str] = field(default_factory=lambda: ["rules", "pimc", "random"])
    """agent types of the hidden-partner study (self-play)"""
    partner_max_deals: int = 400
    """deals played at most per game and agent type while looking for ace-call hands"""
    permutations: int = 200
    """shuffles of each permutation test of a mutual information"""
    quick: bool = False
    """tiny sizes for a smoke test (overrides the sizes above)"""
    parts: list[str] = field(default_factory=list)
    """run only these parts (e.g. crossplay_trained) and keep the others from <out>/signalling/results.json"""
    report_only: bool = False
    """rewrite the report and plots from <out>/signalling/results.json without playing again"""


QUICK = {"talk_deals": 6, "log_deals": 3, "influence_hands": 1, "crossplay_population": 2, "crossplay_deals": 3,
         "crossplay_log_deals": 2, "trained_seeds": [1, 2], "trained_deals": 2, "learned_seeds": [1, 2],
         "learned_deals": 2, "learned_overheard_deals": 2, "learned_log_deals": 2, "learned_crossplay_deals": 2,
         "partner_hands": 2, "partner_max_deals": 40, "permutations": 10}
