"""What a learned population's talk is worth against opponents that do not listen, on deals of one's choosing.

Each shipped seed of the population (``signalling.learned``) plays the same duplicate deals twice against
the silent, deaf rule team: talking, and muted (silent at every talk turn, still listening). The paired
difference per deal is what that seed's talk is worth; the seeds' differences averaged deal by deal
(``signalling.crossplay.pooled_difference``) are what the population's talk is worth, the seeds held fixed.
This is the study's learned measure (``experiments.signalling_study``, part ``learned``) on its own, for a
match fixed in advance on fresh deals (``--seed``) with as many deals as the study said it would take::

    python -m signalling.talk_worth --population otherplay --deals 3000 --seed 6403 \\
        --json docs/signalling/learned_otherplay_talk_worth_5seeds_3000_seed6403.json

The JSON holds every seed's match (``first_units``, ``second_units``, ``difference``, with intervals) and
the pooled result, with the command that made it.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from trick_core.checks import check_seed, positive_int
from trick_core.command_line import checked, command_prog

from .crossplay import paired_against, pooled_difference
from .learned import SILENT_OPPONENT, TALK, check_population, learned_spec, shipped_seeds


@dataclass
class Args:
    """Measure a learned population's talk worth (talking minus muted) against the silent, deaf rules."""

    population: str = "plain"
    """plain or otherplay (signalling/learned/<population>)"""
    seeds: list[int] = field(default_factory=list)
    """the shipped seeds to measure; none: every shipped seed"""
    deals: int = 1000
    """duplicate deals of each match"""
    seed: int = 0
    """the deals' seed (the study uses 0: a fixed match wants another)"""
    workers: int = 2
    """worker processes"""
    json: str | None = None
    """where to write the results"""


def check(args: Args) -> Args:
    """The options, checked before a deal is played: ``ValueError`` naming the first bad one."""
    check_population(args.population)
    positive_int(args.deals, "deals")
    positive_int(args.workers, "workers")
    check_seed(args.seed, "signalling.talk_worth", none_allowed=False)
    shipped = shipped_seeds(args.population)
    missing = sorted(set(args.seeds) - set(shipped))
    if missing:
        raise ValueError(f"--seeds {missing}: not shipped for population {args.population!r} (shipped: {shipped})")
    if not (args.seeds or shipped):
        raise ValueError(f"no learned seed is shipped for population {args.population!r}")
    if args.json is not None and not Path(args.json).resolve().parent.is_dir():
        raise ValueError(f"--json {args.json!r}: its folder does not exist")
    return args


def main(args: Args) -> dict:
    check(args)
    config = {"talk": TALK}
    seeds = args.seeds or shipped_seeds(args.population)
    per_seed, per_deal = {}, []
    for seed in seeds:
        started = time.perf_counter()
        match = paired_against(learned_spec(seed, args.population), learned_spec(seed, args.population, muted=True),
                               args.deals, args.seed, config, SILENT_OPPONENT, args.workers, per_deal=True)
        per_deal.append(match.pop("difference_per_deal"))
        per_seed[str(seed)] = {**match, "seconds": time.perf_counter() - started}
        print(json.dumps({"seed": seed, "difference": match["difference"]}), flush=True)
    result = {"population": args.population, "deals": args.deals, "seed": args.seed, "opponent": SILENT_OPPONENT,
              "config": config, "seeds": per_seed, "pooled": pooled_difference(per_deal),
              "command": " ".join(["python -m signalling.talk_worth", *sys.argv[1:]]), "args": asdict(args)}
    print(json.dumps({"pooled": result["pooled"]}), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return result


if __name__ == "__main__":
    import tyro

    main(checked(tyro.cli(Args, prog=command_prog()), check))
