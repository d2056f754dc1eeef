"""The learned-talk section of the signalling report (``experiments.signalling_report``): the learned
populations' tables, the answers the section opens with, the cross-play gaps' verdicts and the limit lines."""

from __future__ import annotations

import json
import os

from .signalling_report_format import _bits, _interval, _matrix_lines, _significance, _table_head

LEARNED = (
    "Knüffeln teams of talk `tokens:8` whose talk is learned from scratch (`signalling.learned`): the card play "
    "starts from the shipped network (trained without talk), carried over to the talk table deaf to the talk and "
    "with a uniform message policy (`agents.neural.widen`); PPO self-play then trains speaking, listening and "
    "playing together, with *positive signalling* (Eccles et al. 2019: on the talk turns the objective also rewards"
    " the information between message and state, `experiments.ppo --signal-coef`; without it, plain PPO left the "
    "talk worth nothing, below). The *Other-Play* population trains with every seat reading and saying the tokens "
    "under its own random relabelling per hand (`agents.neural.symmetry`), so that no convention can hang on a "
    "token's label. Each seed plays, on the same deals, against the silent, deaf rule team talking and muted "
    "(silent at every talk turn, still listening): the paired difference is what its talk is worth when the "
    "opponents do not listen. Head to head against its own muted twin, the opponents overhear the talk and know the"
    " code (it is their own): there talk is worth only what it gives the partner beyond what it gives the "
    "eavesdroppers. A token's *meaning* is the lexicon phrase whose truth rate rises most when the token is said "
    "(at least 20 uses where the phrase is checkable); its *lies* are the uses in which that meaning was false "
    "(`signalling.metrics.token_meanings`, from a log of the seed's self-play against the silent rules).")


WITHOUT_THE_BIAS = (
    "Without positive signalling (`python -m signalling.learned --seed 1 --signal-coef 0 --budget-cpu-minutes "
    "25`: 6.0 M PPO decisions), seed 1 beat the silent rules by +1.48 [+0.74, +2.22] per hand in its last "
    "in-training evaluation (400 deals; `signalling/learned_nobias_seed1_training.json`), and its talk was "
    "worth nothing: talking - muted head to head "
    "-0.002 [-0.293, +0.289] over 1,000 deals (`signalling/learned_nobias_seed1_talking_vs_muted_1000_seed6401"
    ".json`; the network is not shipped).")


DECIDING_MATCH = (
    "A deciding match, fixed before it was played once the study's run with seeds 1 and 2 of each population "
    "found Other-Play seed 2's talk worth +0.214 [+0.018, +0.410] against the deaf opponents (one significant "
    "result among those four seeds): the same paired measure on 2,000 fresh deals (seed 6402, "
    "`signalling.crossplay.paired_against`) gave **+0.246 [+0.120, +0.372]** per hand "
    "(`signalling/learned_otherplay_seed2_talking_vs_muted_2000_seed6402.json`). So against opponents that do "
    "not listen, that seed's learned talk is worth significantly more than nothing; in that run the other three "
    "seeds' talk was not, and head to head against its muted twin (the opponents overhear) no seed's was.")


FIXED_MATCHES = "learned_{population}_talk_worth_5seeds_3000_seed6403.json"
"""The population matches fixed in advance on fresh deals (``python -m signalling.talk_worth --population P
--deals 3000 --seed 6403 --json docs/signalling/<this>``), in the study's folder: the report quotes them
where they are on file."""


def report_learned(results: dict, folder: str) -> list[str]:
    learned = results.get("learned")
    lines = ["## Learned talk", "", LEARNED, ""]
    if not learned:
        return lines + [WITHOUT_THE_BIAS, "", DECIDING_MATCH, "",
                        "No learned talker is shipped for this run's `--learned-seeds` (`signalling/learned/`).", ""]
    lines += _learned_answers(learned, results.get("crossplay"), folder)
    lines += [WITHOUT_THE_BIAS, "", DECIDING_MATCH, ""]
    for population, entry in learned.items():
        lines += [f"### Population `{population}`", ""]
        lines += _table_head("| seed | PPO decisions | CPU minutes | talking vs silent rules | muted vs silent rules "
                             "| talk's worth, opponents deaf | | talking - muted head to head | | tokens said "
                             "| H(M) | SC: next card | IC |")
        for seed, row in entry["seeds"].items():
            paired, head, m, training = (row["against_silent_rules"], row["talking_vs_muted"], row["metrics"],
                                         row["training"])
            tokens = m["kinds"].get("token", 0) / max(1, m["utterances"])
            worth, talking, muted = paired["difference"], paired["first_units"], paired["second_units"]
            lines.append(
                f"| {seed} | {training['decisions'].get('ppo', 0):,} | {training['cpu_seconds'] / 60:.1f} "
                f"| {talking['mean']:+.3f} {_interval(talking)} | {muted['mean']:+.3f} {_interval(muted)} "
                f"| {worth['mean']:+.3f} {_interval(worth)} | {_significance(worth)} "
                f"| {head['first_minus_second']:+.3f} {_interval(head)} | {_significance(head)} | {tokens:.0%} "
                f"| {m['entropy_bits']:.2f} | {_bits(m['speaker_consistency']['next_action'])} "
                f"| {_bits(m['instantaneous_coordination'])} |")
        first = next(iter(entry["seeds"].values()))
        deals, head_deals = first["against_silent_rules"]["hands"], first["talking_vs_muted"]["deals"]
        lines += ["", f"{deals} duplicate deals per match against the silent rules, {head_deals} head to head; "
                  "units per hand are the team's own mean per hand and seat (against the silent rules), margins "
                  "first minus second (head to head).", ""]
        if entry.get("talk_worth_pooled"):
            lines += [_pooled_line(entry["talk_worth_pooled"]), ""]
        lines += _meaning_lines(entry["seeds"])
        if entry.get("crossplay"):
            matrix = dict(entry["crossplay"])
            matrix["metrics"] = [{"label": f"seed {seed}", **row["metrics"]} for seed, row in entry["seeds"].items()]
            lines += ["Cross-play of the population against the silent rules:", "", *_matrix_lines(matrix)]
            control = results.get("crossplay")
            lines += [_learned_gap_verdict(matrix["gap"], control["gap"] if control else None), ""]
    return lines


def _learned_answers(learned: dict, control: dict | None, folder: str) -> list[str]:
    """The section's answers, population by population, from this run's numbers and the fixed matches on
    file: do the learned teams beat the silent rules, is their talk worth anything, do the gaps decide."""
    lines = ["**What the learned talk says** (this run, and the fixed matches on file):", ""]
    for population, entry in learned.items():
        seeds = entry["seeds"]
        beat = [seed for seed, row in seeds.items() if row["against_silent_rules"]["first_units"]["ci95"][0] > 0]
        worth = [seed for seed, row in seeds.items() if row["against_silent_rules"]["difference"]["ci95"][0] > 0]
        head = [seed for seed, row in seeds.items() if row["talking_vs_muted"]["ci95"][0] > 0]
        pooled = entry.get("talk_worth_pooled")
        text = (f"- `{population}`: {len(beat)} of {len(seeds)} seeds beat the silent rules significantly; the "
                f"talk is worth significantly more than silence against deaf opponents for "
                f"{_seed_list(worth)}, head to head against the muted twin for {_seed_list(head)}")
        if pooled:
            text += f"; pooled over the seeds {pooled['mean']:+.3f} {_interval(pooled)} ({_significance(pooled)})"
        fixed = _fixed_match(folder, population)
        if fixed:
            text += (f"; on {fixed['deals']:,} fresh deals fixed in advance (seed {fixed['seed']}, "
                     f"`signalling/{FIXED_MATCHES.format(population=population)}`) pooled "
                     f"**{fixed['pooled']['mean']:+.3f} {_interval(fixed['pooled'])}** "
                     f"({_significance(fixed['pooled'])}), seeds "
                     + ", ".join(f"{seed}: {row['difference']['mean']:+.3f} {_interval(row['difference'])}"
                                 for seed, row in fixed["seeds"].items()))
        if entry.get("crossplay"):
            gap = entry["crossplay"]["gap"]
            text += f". Cross-play gap {gap['mean']:+.3f} {_interval(gap)}"
            text += " (decides, below)" if "decides" in _learned_gap_verdict(gap, control and control["gap"]) else ""
            if pooled and not pooled["significant"]:
                text += ("; where the talk is worth nothing measurable, a gap has little to cost, so a gap near "
                         "zero says little about how private the codes are")
        lines.append(text + ".")
    return lines + [""]


def _seed_list(seeds: list[str]) -> str:
    return "no seed" if not seeds else ("seed " if len(seeds) == 1 else "seeds ") + ", ".join(seeds)


def _fixed_match(folder: str, population: str) -> dict | None:
    path = os.path.join(folder, FIXED_MATCHES.format(population=population))
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as data:
        return json.load(data)


def _learned_gap_verdict(gap: dict, control_gap: dict | None) -> str:
    """Whether a learned population's cross-play gap decides, and what it says. An interval that excludes
    zero decides that the seeds' conventions differ (or that mixed partners do better); one that holds zero
    decides only where its upper end lies below the cost of codes that are arbitrary by construction, the
    gap of the permuted rule talkers (``crossplay`` part), the scale at which private conventions would show."""
    low, high = gap["ci95"]
    if low is None:
        return "- The gap has no interval (too few deals)."
    if low > 0:
        return (f"- **The gap decides: the seeds' conventions differ.** A partner from another seed is worth "
                f"{gap['mean']:+.3f} {_interval(gap)} per hand less than a copy of oneself.")
    if high < 0:
        return ("- **The gap decides the other way:** partners from different seeds do better together than "
                f"copies of one seed ({gap['mean']:+.3f} {_interval(gap)}); no sign of private conventions.")
    if control_gap is None or control_gap["ci95"][0] is None or control_gap["mean"] <= 0:
        return (f"- The gap {gap['mean']:+.3f} {_interval(gap)} holds zero; without a cost of arbitrary codes "
                "(the permuted rule talkers' gap, the `crossplay` part, above zero) there is no scale to say "
                "whether it rules a cost out.")
    scale = control_gap["mean"]
    if high < scale:
        return (f"- **The gap decides: no private conventions at the scale that matters.** Its interval "
                f"{_interval(gap)} holds zero and lies below {scale:+.3f}, what partners lose when their token "
                "codes are arbitrary by construction (the permuted rule talkers above): seeds trained apart "
                "understand each other about as well as copies of one seed.")
    return (f"- The gap {gap['mean']:+.3f} {_interval(gap)} holds zero but reaches the permuted rule talkers' "
            f"{scale:+.3f}: it does not decide; more deals per cell would.")


def _pooled_line(pooled: dict) -> str:
    """The population's talk worth against the deaf opponents: the seeds' paired differences averaged deal
    by deal (``signalling.crossplay.pooled_difference``)."""
    seeds = pooled["matches"]
    return (f"**The population's talk, opponents deaf** (the {seeds} seed{'s' if seeds != 1 else ''}' worth "
            f"averaged deal by deal over the same {pooled['deals']} deals): {pooled['mean']:+.3f} "
            f"{_interval(pooled)} per hand, {_significance(pooled)} (the interval counts the deals' luck; these "
            "seeds are held fixed).")


def _meaning_lines(seeds: dict) -> list[str]:
    """Per seed, each message said in at least 1% of the talk turns: its meaning, truth rate and lies."""
    from knuffeln_env.knuffeln_v0 import PHRASES

    lines = _table_head("| seed | message | share of talk turns | meaning (phrase) | true when said | true at "
                        "random | lies |")
    for seed, row in seeds.items():
        meanings = row["meanings"]
        for message, entry in meanings["per_message"].items():
            share = entry["uses"] / max(1, meanings["utterances"])
            if share < 0.01:
                continue
            if entry["meaning"] is None:
                lines.append(f"| {seed} | `{message}` | {share:.0%} | too few checkable uses | | | |")
                continue
            lies = entry["lies"]
            lines.append(f"| {seed} | `{message}` | {share:.0%} | {entry['meaning']}: {PHRASES[entry['meaning'] - 1]} "
                         f"| {entry['true_rate']:.0%} | {entry['base_true_rate']:.0%} | {lies['hits']} of "
                         f"{lies['trials']} |")
    return lines + [""]


def learned_limit(learned: dict, shipped: dict[str, list[int]] | None = None) -> str:
    """The learned talkers' limit: how many seeds each population has in this report, and what its
    cross-play can say; where ``shipped`` (the seeds in ``signalling/learned/`` now; default: looked up)
    holds seeds the report has not studied, it says so."""
    if shipped is None:
        from signalling.learned import shipped_seeds

        shipped = {population: shipped_seeds(population) for population in learned}
    counts = {population: len(entry.get("seeds", {})) for population, entry in learned.items()
              if isinstance(entry, dict)}
    studied = ", ".join(f"{count} seed{'s' if count != 1 else ''} `{population}`"
                        for population, count in counts.items())
    crossplay = ("the cross-play of learned seeds needs two or more shipped per population"
                 if min(counts.values(), default=0) < 2 else
                 "a cross-play gap over so few seeds says how far these seeds' conventions differ, not how a "
                 "population of independent learners would")
    missing = {population: sorted(set(shipped.get(population, [])) - {int(seed) for seed in entry.get("seeds", {})})
               for population, entry in learned.items() if isinstance(entry, dict)}
    newer = "; ".join(f"`{population}` seeds {', '.join(map(str, seeds))}" for population, seeds in missing.items()
                      if seeds)
    later = (f" Shipped since this report's learned part ran, not in it: {newer} (`--parts learned` adds them)."
             if newer else "")
    return (f"- The learned talkers are few ({studied}), each trained for 25 CPU minutes: {crossplay} "
            f"(`python -m signalling.learned --seed k [--population otherplay]`, then `--parts learned`).{later}")


LEARNED_SCALE_LIMIT = (
    "- A learned gap decides against private conventions by lying below the permuted rule talkers' gap, a point "
    "estimate with an interval of its own (the control's row above): a smaller cost of private codes would go "
    "unseen. A population's pooled talk worth holds its five networks fixed: it says that these networks' talk "
    "pays on average, not that every training run's would (seed by seed the worth varies, above).")
