"""The signalling study: do Knüffeln partners signal, listen and bluff, what is talk worth, are the
conventions arbitrary, and when do Schafkopf players know their hidden partner?

    python -m experiments.signalling_study            # default size
    python -m experiments.signalling_study --quick    # a few hands of everything (smoke test)
    python -m experiments.signalling_study --crossplay-specs "pkg.mod:agent[seed=0]" "pkg.mod:agent[seed=1]"

Writes ``<out>/signalling.md`` (the report), ``<out>/signalling/*.png`` (plots) and
``<out>/signalling/results.json`` (every number of the report). Every part is a duplicate match of
``agents.arena`` or a replay of its records, seeded by ``--seed``:

1. **Value of talk**: the rule talker against itself made silent and deaf, with talk off, the lexicon and
   ``tokens:N`` (``signalling.scramble.value_of_talk``).
2. **Metrics per agent type** from message logs of a round robin (``signalling.log``, ``signalling.metrics``):
   entropy, speaker consistency, instantaneous coordination, truth labels, bluffs, turned cards.
3. **Causal influence** of the rule talkers' messages on their partners, by intervention
   (``signalling.influence``), with a deaf listener as the control.
4. **Scramble test**: the loss when a listener hears its partner's messages scrambled
   (``signalling.scramble``), the scramble drawing from the talker's own message frequencies.
5. **Cross-play**: the self-play / cross-play matrix of ``--crossplay-specs`` (default: the rule talker
   under five token permutations, an Other-Play-style control), with metrics per agent.
6. **Hidden partners** in Bavarian Rufer and Asserufen: the exact posterior over the partner from the
   public play and from each seat, per agent type (``signalling.partners``).
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, field

import numpy as np

from agents.rules.knuffeln import PHRASE_OF_TOKEN
from signalling.crossplay import DEFAULT_OPPONENT, crossplay_matrix, pair_spec, permuted_population
from signalling.influence import causal_influence_of, intervention_events
from signalling.log import arena_message_log
from signalling.metrics import talk_metrics, turn_stats
from signalling.partners import aggregate, hand_summary, self_play_ace_calls
from signalling.scramble import message_marginal, scramble_test, value_of_talk, write_marginal


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
    """deals logged per cross-play agent for its metrics"""
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
    report_only: bool = False
    """rewrite the report and plots from <out>/signalling/results.json without playing again"""


QUICK = {"talk_deals": 6, "log_deals": 3, "influence_hands": 1, "crossplay_population": 2, "crossplay_deals": 3,
         "crossplay_log_deals": 2, "partner_hands": 2, "partner_max_deals": 40, "permutations": 10}


def talk_configs(args: Args) -> dict[str, dict]:
    return {"off": {"talk": "off"}, "lexicon": {"talk": "lexicon"}, "tokens": {"talk": f"tokens:{args.tokens}"}}


# --------------------------------------------------------------------------------------- the parts


def study_value_of_talk(args: Args) -> dict:
    results = {}
    for name, config in talk_configs(args).items():
        deals = args.talk_deals if name != "off" else max(2, args.talk_deals // 15)
        summary = value_of_talk(config, deals, args.seed, args.workers)
        results[name] = {"deals": deals, **summary["difference"], "effect": summary["effect"]}
    return results


def study_metrics(args: Args) -> tuple[dict, dict]:
    """Message logs of round robins in the lexicon and tokens variants; metrics per agent type."""
    metrics, logs = {}, {}
    rosters = {"lexicon": ["rules", "rules[show=false]", "random"], "tokens": ["rules", "random"]}
    for name, specs in rosters.items():
        config = talk_configs(args)[name]
        meanings = dict(PHRASE_OF_TOKEN) if name == "tokens" else None
        _summary, records, rows = arena_message_log(specs, config, args.log_deals, args.seed, args.workers, meanings)
        logs[name] = {"records": records, "rows": rows}
        metrics[name] = {label: talk_metrics([r for r in rows if r["agent"] == label], args.permutations, args.seed)
                         for label in specs}
        metrics[name]["turns"] = turn_stats(records)
    return metrics, logs


def study_influence(args: Args, logs: dict) -> dict:
    """CIC of the rule talker's messages on its rule partner; a deaf partner as the control."""
    results = {}
    for name in ("lexicon", "tokens"):
        rows = logs[name]["rows"]
        marginal = message_marginal(rows, "rules")
        records = [r for r in logs[name]["records"] if list(r["arena"]["seating"].values()).count("rules") == 2]
        records = records[:args.influence_hands]
        results[name] = {}
        for listener in ("rules", "rules[listen=false]"):
            events = []
            for record in records:
                speakers = [a for a, label in record["arena"]["seating"].items() if label == "rules"]
                events += intervention_events(record, listener_agent=listener, speakers=speakers, seed=args.seed)
            measured = causal_influence_of(events, "marginal", marginal)
            uniform = causal_influence_of(events, "uniform")
            results[name][listener] = {"events": measured["events"], "hands": len(records),
                                       "cic_bits_marginal": measured["cic_bits"], "flip_rate": measured["flip_rate"],
                                       "cic_bits_uniform": uniform["cic_bits"]}
    return results


def study_scramble(args: Args, logs: dict, folder: str) -> dict:
    results = {}
    for name in ("lexicon", "tokens"):
        path = os.path.join(folder, f"marginal_{name}.json")
        write_marginal(message_marginal(logs[name]["rows"], "rules"), path)
        summary = scramble_test(talk_configs(args)[name], args.talk_deals, args.seed, "marginal", path, args.workers)
        results[name] = {"deals": args.talk_deals, "marginal": os.path.basename(path), **summary["difference"],
                         "effect": summary["effect"]}
    return results


def study_crossplay(args: Args) -> dict:
    config = talk_configs(args)["tokens"]
    specs = args.crossplay_specs or permuted_population(args.crossplay_population)
    labels = [f"permutation {k}" for k in range(len(specs))] if not args.crossplay_specs else specs
    matrix = crossplay_matrix(specs, args.crossplay_deals, args.seed, config, DEFAULT_OPPONENT, args.workers, labels)
    per_agent = []
    for spec, label in zip(specs, labels, strict=True):
        _summary, _records, rows = arena_message_log([pair_spec(spec, spec), DEFAULT_OPPONENT], config,
                                                     args.crossplay_log_deals, args.seed, args.workers)
        talking = [r for r in rows if r["agent"] != DEFAULT_OPPONENT]
        per_agent.append({"label": label, **talk_metrics(talking, args.permutations, args.seed)})
    matrix["metrics"] = per_agent
    return matrix


def study_partners(args: Args) -> dict:
    results = {}
    for game in ("bavarian", "asserufen"):
        results[game] = {}
        for agent in args.partner_agents:
            hands, deals = self_play_ace_calls(game, agent, args.partner_hands, args.seed, args.partner_max_deals)
            entry = {"deals_played": deals, "ace_call_hands": len(hands)}
            if hands:
                entry.update(aggregate([hand_summary(hand) for hand in hands]))
            results[game][agent] = entry
    return results


# --------------------------------------------------------------------------------------- plots


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _bar_with_interval(axis, labels, rows, colour):
    means = [row["first_minus_second"] for row in rows]
    errors = np.array([[m - (row["ci95"][0] if row["ci95"][0] is not None else m),
                        (row["ci95"][1] if row["ci95"][1] is not None else m) - m] for m, row in zip(means, rows,
                                                                                                   strict=True)]).T
    axis.barh(labels, means, xerr=errors, color=colour, alpha=0.8, capsize=4)
    axis.axvline(0.0, color="black", linewidth=0.8)
    axis.invert_yaxis()


def plot_talk(results: dict, path: str) -> None:
    plt = _pyplot()
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 3.2))
    value = results["value_of_talk"]
    _bar_with_interval(left, [f"talk {k}" for k in value], list(value.values()), "tab:blue")
    left.set_title("value of talk: talker - silent deaf talker")
    left.set_xlabel("units per hand (95% CI over deals)")
    scramble = results["scramble"]
    _bar_with_interval(right, [f"talk {k}" for k in scramble], list(scramble.values()), "tab:orange")
    right.set_title("scramble loss: talker - talker hearing scrambled partner")
    right.set_xlabel("units per hand (95% CI over deals)")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def plot_metrics(results: dict, path: str) -> None:
    plt = _pyplot()
    names, entropy, consistency, coordination = [], [], [], []
    for talk, per_agent in results["metrics"].items():
        for label, m in per_agent.items():
            if label == "turns":
                continue
            names.append(f"{label} ({talk})")
            entropy.append(m["entropy_bits"])
            consistency.append(m["speaker_consistency"]["next_action"]["above_null"])
            coordination.append(m["instantaneous_coordination"]["above_null"])
    positions = np.arange(len(names))
    figure, axis = plt.subplots(figsize=(11, 0.5 * len(names) + 2))
    width = 0.27
    axis.barh(positions - width, entropy, width, label="message entropy H(M)")
    axis.barh(positions, consistency, width, label="speaker consistency I(M; own next card) above null")
    axis.barh(positions + width, coordination, width,
              label="instantaneous coordination I(M; partner's next) above null")
    axis.set_yticks(positions, names)
    axis.invert_yaxis()
    axis.set_xlabel("bits")
    axis.legend(loc="lower right", fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def plot_truth(results: dict, path: str) -> None:
    plt = _pyplot()
    names, shares = [], []
    for talk, per_agent in results["metrics"].items():
        for label, m in per_agent.items():
            if label == "turns":
                continue
            total = max(1, m["utterances"])
            names.append(f"{label} ({talk})")
            shares.append([m["truth"][v] / total for v in ("true", "false", "uncheckable")])
    shares = np.array(shares)
    figure, axis = plt.subplots(figsize=(9, 0.45 * len(names) + 1.8))
    left = np.zeros(len(names))
    for column, (value, colour) in enumerate((("true", "tab:green"), ("false", "tab:red"),
                                              ("uncheckable", "tab:gray"))):
        axis.barh(names, shares[:, column], left=left, color=colour, label=value)
        left += shares[:, column]
    axis.invert_yaxis()
    axis.set_xlabel("share of utterances (silence, shows and questions are uncheckable)")
    axis.legend(loc="lower right", fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def plot_crossplay(matrix: dict, path: str) -> None:
    plt = _pyplot()
    values = np.array(matrix["mean"])
    figure, axis = plt.subplots(figsize=(1.1 * len(values) + 3, 1.0 * len(values) + 2))
    image = axis.imshow(values, cmap="RdYlGn")
    for i in range(len(values)):
        for j in range(len(values)):
            axis.text(j, i, f"{values[i, j]:+.2f}", ha="center", va="center", fontsize=8)
    axis.set_xticks(range(len(values)), matrix["labels"], rotation=30, ha="right", fontsize=8)
    axis.set_yticks(range(len(values)), matrix["labels"], fontsize=8)
    axis.set_xlabel("second partner")
    axis.set_ylabel("first partner")
    axis.set_title("units per hand against the silent deaf rule team")
    figure.colorbar(image)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def plot_partners(results: dict, path: str) -> None:
    plt = _pyplot()
    figure, axes = plt.subplots(1, 2, figsize=(11, 3.6), sharey=True)
    for axis, (game, per_agent) in zip(axes, results.items(), strict=True):
        for agent, entry in per_agent.items():
            if not entry.get("ace_call_hands"):
                continue
            for role, style in (("public", "-"), ("declarer", "--"), ("defender", ":")):
                trajectory = entry["posterior_on_holder"][role]
                points = sorted(trajectory, key=int)  # JSON keys are strings
                axis.plot([int(p) for p in points], [trajectory[p] for p in points], style, label=f"{agent}, {role}")
        axis.set_title(f"{game}: posterior on the true partner")
        axis.set_xlabel("cards played")
        axis.set_xticks(range(0, 33, 4))
    axes[0].set_ylabel("mean probability")
    axes[1].legend(fontsize=7, loc="lower right")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


# --------------------------------------------------------------------------------------- the report


def _interval(row: dict) -> str:
    low, high = row["ci95"]
    return "n/a" if low is None else f"[{low:+.3f}, {high:+.3f}]"


def _significance(row: dict) -> str:
    low, high = row["ci95"]
    if low is None:
        return "no interval"
    if low > 0:
        return "significantly above zero"
    if high < 0:
        return "significantly below zero"
    return "not significantly different from zero"


def _bits(estimate: dict) -> str:
    return f"{estimate['bits']:.3f} (null {estimate['null_mean']:.3f}, p {estimate['p_value']:.3f})"


def write_report(args: Args, results: dict, path: str, seconds: dict) -> None:
    lines = [
        "# Signalling study",
        "",
        f"Generated by `python -m experiments.signalling_study` (seed {args.seed}; sizes in the sections; "
        f"{seconds['total'] / 60:.1f} minutes wall clock with {args.workers} worker processes on shared cores, "
        f"{seconds['cpu'] / 60:.1f} CPU minutes in all). Every number is in "
        "`signalling/results.json`; the methods are the docstrings of the `signalling` package.",
        "",
        "Units per hand follow the arena (`docs/results.md`): a duplicate match plays every deal at both "
        "seatings, the *margin* is first minus second per hand and seat, the 95% interval is Student's t over "
        "deals. Information is in bits; a mutual information is a plug-in estimate shown with the mean of its "
        "null distribution (the partner's variable shuffled) and the permutation p-value.",
        "",
    ]
    lines += _report_value(results)
    lines += _report_metrics(results)
    lines += _report_influence(results)
    lines += _report_crossplay(args, results)
    lines += _report_partners(results)
    lines += _report_limits()
    with open(path, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")


def _report_value(results: dict) -> list[str]:
    value, scramble = results["value_of_talk"], results["scramble"]
    lines = [
        "## Value of talk and the scramble test",
        "",
        "![value of talk](signalling/talk.png)",
        "",
        "The honest rule talker (`rules`) against the same agent made silent and deaf "
        "(`rules[speak=false,listen=false]`), and against itself hearing its partner scrambled "
        "(`signalling.scramble:make_agent`: each partner message replaced by one drawn from the talker's own "
        "message frequencies, so it carries no information about the hand).",
        "",
        "| comparison | talk | deals | margin per hand | 95% CI | |",
        "|---|---|---|---|---|---|",
    ]
    for name, row in value.items():
        lines.append(f"| value of talk | {name} | {row['deals']} | {row['first_minus_second']:+.3f} | "
                     f"{_interval(row)} | {_significance(row)} |")
    for name, row in scramble.items():
        lines.append(f"| scramble loss | {name} | {row['deals']} | {row['first_minus_second']:+.3f} | "
                     f"{_interval(row)} | {_significance(row)} |")
    lines += ["", "What lies behind each margin (per-deal differences from the match's records): the share of "
              "deals on which the two sides' results differ at all, the mean margin on those deals, the standard "
              "deviation over all deals, and the deals a 95% interval as narrow as the margin itself would need.",
              "", "| comparison | talk | deals differing | mean where differing | sd per deal | deals needed |",
              "|---|---|---|---|---|---|"]
    for kind, rows in (("value of talk", value), ("scramble loss", scramble)):
        for name, row in rows.items():
            effect = row["effect"]
            needed = effect["deals_for_half_width_equal_to_mean"]
            lines.append(f"| {kind} | {name} | {effect['share_of_deals_differing']:.1%} | "
                         f"{effect['mean_where_differing']:+.3f} | {effect['sd_per_deal']:.2f} | "
                         f"{needed if needed is not None else 'n/a'} |")
    lines += [""]
    for name in ("lexicon", "tokens"):
        talk, loss = value[name], scramble[name]
        sentence = (f"- {name}: talk is worth {talk['first_minus_second']:+.3f} units per hand "
                    f"({_significance(talk)}); scrambling the partner's messages costs "
                    f"{loss['first_minus_second']:+.3f} ({_significance(loss)}).")
        if loss["ci95"][0] is not None and talk["ci95"][1] is not None and loss["ci95"][0] > talk["ci95"][1]:
            sentence += (" Scrambled messages cost more than silence would: the rule listener acts on what it "
                         "hears (it spares its card after \"Certainly\", beats when asked), so words that no longer "
                         "match the hand mislead it.")
        lines.append(sentence)
    lines += ["- talk off: the two agents are the same player, so that row is exactly zero (a check of the "
              "set-up).", ""]
    return lines


def _report_metrics(results: dict) -> list[str]:
    lines = [
        "## Metrics per agent type",
        "",
        "![metrics](signalling/metrics.png)",
        "",
        "Message logs of a duplicate round robin in each talk variant (`signalling.log`). Speaker consistency "
        "is I(message; the speaker's next card class) and I(message; a private feature); instantaneous "
        "coordination is I(message; the partner's next decision class). `show:C` counts as one message "
        "`show` here. Tokens of the rule talker are labelled through its fixed code (`TOKEN_CODE`).",
        "",
        "| talk | agent | utterances | H(M) | SC: next card | SC: Oles held | SC: certain to take | IC "
        "| false / checkable |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for talk, per_agent in results["metrics"].items():
        for label, m in per_agent.items():
            if label == "turns":
                continue
            sc = m["speaker_consistency"]
            bluffs = m["bluffs"]
            lines.append(
                f"| {talk} | `{label}` | {m['utterances']} | {m['entropy_bits']:.2f} | {_bits(sc['next_action'])} | "
                f"{_bits(sc['oles'])} | {_bits(sc['can_take_certainly'])} | "
                f"{_bits(m['instantaneous_coordination'])} | {m['truth']['false']} / {bluffs['checkable_claims']} |"
            )
    rules = results["metrics"]["lexicon"].get("rules")
    if rules:
        sc, ic = rules["speaker_consistency"]["next_action"], rules["instantaneous_coordination"]
        lines += ["", f"The honest rule talker (lexicon): speaker consistency {sc['bits']:.3f} bits against a null of "
                      f"{sc['null_mean']:.3f} (p {sc['p_value']:.3f}, bootstrap interval over hands "
                      f"[{sc['ci95'][0]:.3f}, {sc['ci95'][1]:.3f}]); instantaneous coordination {ic['bits']:.3f} bits "
                      f"against {ic['null_mean']:.3f} (p {ic['p_value']:.3f}, [{ic['ci95'][0]:.3f}, "
                      f"{ic['ci95'][1]:.3f}]). The p-values are the smallest a permutation test of this size can "
                      "give."]
    lines += ["", "![truth labels](signalling/truth.png)", "", "**Truth and bluffs.**", ""]
    for talk, per_agent in results["metrics"].items():
        for label, m in per_agent.items():
            if label == "turns":
                continue
            bluffs = m["bluffs"]
            rate = bluffs["bluff_rate"]
            if not rate["trials"]:
                lines.append(f"- {talk}, `{label}`: no checkable claim.")
                continue
            after_false = bluffs["trick_won_after_false"]
            after_true = bluffs["trick_won_after_true"]
            lines.append(
                f"- {talk}, `{label}`: {rate['hits']} false of {rate['trials']} checkable claims "
                f"(bluff rate {rate['rate']:.1%}, 95% CI [{rate['ci95'][0]:.1%}, {rate['ci95'][1]:.1%}]); "
                f"the speaker's team won the trick after {_share(after_false)} of false claims and "
                f"{_share(after_true)} of true ones."
            )
    lines += ["", "The rule agents listen only to their partner, so a bluff aimed at the opponents cannot succeed "
              "against them: bluff success here measures what a false claim does to the speaker's own side.", "",
              "**Turned cards (drehen).**", "",
              "| talk | turning agent | offers | accepted | turner won after accept | turner units after accept "
              "| after flee |", "|---|---|---|---|---|---|---|"]
    for talk, per_agent in results["metrics"].items():
        for label, t in per_agent["turns"].items():
            accept = t["accept_rate"]
            after = t["turner_units_after_accept"]
            flee = t["turner_units_after_flee"]
            lines.append(f"| {talk} | `{label}` | {t['offers']} | {_share(accept)} | "
                         f"{_share(t['turner_won_after_accept'])} | {_mean(after)} | {_mean(flee)} |")
    lines.append("")
    return lines


def _share(proportion: dict) -> str:
    return "n/a" if not proportion["trials"] else f"{proportion['rate']:.0%} ({proportion['trials']})"


def _mean(entry: dict | None) -> str:
    return "n/a" if entry is None else f"{entry['mean']:+.2f} ({entry['count']})"


def _report_influence(results: dict) -> list[str]:
    lines = [
        "## Causal influence of communication",
        "",
        "Each message of a rule talker in rule self-play is replaced by every message it could legally have "
        "said (`signalling.influence`); the partner replays its own decisions up to its next non-talk "
        "decision. CIC is the mutual information between the intervened message and that decision, with the "
        "message drawn from the talker's own frequencies (*marginal*) or uniformly; the flip rate is the "
        "chance that a drawn message changes the decision. A deaf partner is the control (zero by "
        "construction). The reference implementation of the CIC metric takes the action marginal as a mean "
        "over messages and so adds log2 |M| bits (4.7 bits for the 26 lexicon words): not done here "
        "(`signalling.metrics`).",
        "",
        "| talk | listener | hands | events | CIC (marginal) | CIC (uniform) | flip rate |",
        "|---|---|---|---|---|---|---|",
    ]
    for talk, per_listener in results["influence"].items():
        for listener, row in per_listener.items():
            lines.append(f"| {talk} | `{listener}` | {row['hands']} | {row['events']} | "
                         f"{row['cic_bits_marginal']:.4f} | {row['cic_bits_uniform']:.4f} | {row['flip_rate']:.2%} |")
    lines.append("")
    return lines


def _report_crossplay(args: Args, results: dict) -> list[str]:
    matrix = results["crossplay"]
    lines = [
        "## Cross-play",
        "",
        "![cross-play](signalling/crossplay.png)",
        "",
        f"Every ordered pair of agents forms a partnership (`signalling.crossplay`) and plays "
        f"{matrix['hands']} duplicate deals in talk `{matrix['config']['talk']}` against `{matrix['opponent']}`; "
        "cell (i, j) is the pair's units per hand (i at the team's first seat). The gap is mean self-play minus "
        "mean cross-play, paired over the same deals.",
        "",
    ]
    if not args.crossplay_specs:
        lines += [
            "**Population.** Trained token agents are not available yet (the training scripts are a separate "
            "issue); the population here is the rule talker under five token permutations (0 = its own code), "
            "the Other-Play-style control: self-play uses one code, cross-play partners misread each other's "
            "tokens. It shows the machinery and the size of the effect when conventions differ only by a "
            "relabelling. Rerun with `--crossplay-specs` naming trained checkpoints to measure them.",
            "",
        ]
    header = "| first \\ second | " + " | ".join(matrix["labels"]) + " |"
    lines += [header, "|---" * (len(matrix["labels"]) + 1) + "|"]
    for i, label in enumerate(matrix["labels"]):
        cells = [f"{matrix['mean'][i][j]:+.3f} {_interval({'ci95': matrix['ci95'][i][j]})}"
                 for j in range(len(matrix["labels"]))]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    gap = matrix["gap"]
    lines += [
        "",
        f"Self-play {matrix['self_play']['mean']:+.3f} {_interval(matrix['self_play'])}, cross-play "
        f"{matrix['cross_play']['mean']:+.3f} {_interval(matrix['cross_play'])}: gap {gap['mean']:+.3f} "
        f"{_interval(gap)}, {_significance(gap)}.",
        "",
        "| agent | self-play | cross-play (either seat) | H(M) | SC: next card | IC |",
        "|---|---|---|---|---|---|",
    ]
    for agent, metrics in zip(matrix["per_agent"], matrix["metrics"], strict=True):
        lines.append(f"| {metrics['label']} | {agent['self_play']['mean']:+.3f} {_interval(agent['self_play'])} | "
                     f"{agent['cross_play']['mean']:+.3f} {_interval(agent['cross_play'])} | "
                     f"{metrics['entropy_bits']:.2f} | {_bits(metrics['speaker_consistency']['next_action'])} | "
                     f"{_bits(metrics['instantaneous_coordination'])} |")
    lines.append("")
    if len({round(m["entropy_bits"], 9) for m in matrix["metrics"]}) == 1 and len(matrix["metrics"]) > 1:
        lines += ["Every agent of the population has the same entropy, consistency and coordination: mutual "
                  "information does not depend on which token means what, so these metrics cannot tell "
                  "conventions apart; only playing with a partner of another convention (cross-play) can.", ""]
    return lines


def _report_partners(results: dict) -> list[str]:
    lines = [
        "## Hidden partners in Schafkopf",
        "",
        "![partners](signalling/partners.png)",
        "",
        "Self-play hands of each agent type; only ace-call hands (Bavarian Rufer, Asserufen's ace call) count. "
        "For every card the exact posterior over the holder of the called card is computed "
        "(`signalling.partners`: uniform prior over deals, the rules as the only model of the players) from "
        "the public play and from each seat's own view. *Certain by trick k* is the share of hands (seats, for "
        "the defenders) whose view names the partner for certain before trick k ends; the rules' reveal is "
        "when the env itself makes the partnership public (the called card played, a runaway trick complete, "
        "a partner's re).",
        "",
        "| game | agent | hands (deals) | view | mean trick of certainty | certain by trick 1 / 2 / 4 / 8 |",
        "|---|---|---|---|---|---|",
    ]
    for game, per_agent in results["partners"].items():
        for agent, entry in per_agent.items():
            if not entry.get("ace_call_hands"):
                lines.append(f"| {game} | `{agent}` | 0 ({entry['deals_played']}) | no ace-call hand | | |")
                continue
            views = {**entry["roles"], "rules' reveal": entry["rules_reveal"]}
            for role, stats in views.items():
                cumulative = stats["certain_by_end_of_trick"]
                mean = "n/a" if stats["mean_trick"] is None else f"{stats['mean_trick']:.2f}"
                lines.append(f"| {game} | `{agent}` | {entry['ace_call_hands']} ({entry['deals_played']}) | {role} | "
                             f"{mean} | " + " / ".join(f"{cumulative[k]:.0%}" for k in (1, 2, 4, 8)) + " |")
    lines += ["", "Trick 0 means before the first card (the partner knows itself from the deal; an Asserufen "
              "double can name the partner before play)."]
    shares = [entry["public_ahead_of_reveal"]["share_of_hands"] for per_agent in results["partners"].values()
              for entry in per_agent.values()
              if entry.get("ace_call_hands", 0) >= 20 and entry["public_ahead_of_reveal"]["share_of_hands"] is not None]
    if shares and max(shares) < 0.3:
        lines.append("- With at least 20 hands, the public observer is ahead of the rules' own announcement in at "
                     f"most {max(shares):.0%} of hands: the called card is usually played, or a runaway trick "
                     "completes, soon after the play first pins its holder down.")
    elif shares:
        lines.append(f"- With at least 20 hands, the public observer is ahead of the rules' own announcement in up "
                     f"to {max(shares):.0%} of hands.")
    for game, per_agent in results["partners"].items():
        for agent, entry in per_agent.items():
            ahead = entry.get("public_ahead_of_reveal")
            if ahead and ahead["share_of_hands"] is not None:
                lines.append(f"- {game}, `{agent}`: the public observer is certain before the rules' reveal in "
                             f"{ahead['share_of_hands']:.0%} of hands, {ahead['mean_cards_ahead']:.2f} cards "
                             "earlier on average.")
    lines.append("")
    return lines


def _report_limits() -> list[str]:
    return [
        "## Limits",
        "",
        "- The talkers are rule-based: their truth labels test the labeller as much as the agents (an honest "
        "talker must come out all true), and their conventions are fixed by hand. The trained token "
        "population and its cross-play matrix wait for the training scripts.",
        "- Mutual informations are plug-in estimates over decision classes (card classes, not cards); the "
        "null mean shows their small-sample bias.",
        "- The partner posterior models the players only through the rules (every legal deal equally likely); "
        "an observer who models the agents' policies could be certain earlier.",
        "",
    ]


# --------------------------------------------------------------------------------------- main


def _cpu_seconds() -> float:
    """CPU time of this process and its finished worker processes: the run's cost on idle cores."""
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def write_outputs(args: Args, results: dict) -> None:
    folder = os.path.join(args.out, "signalling")
    plot_talk(results, os.path.join(folder, "talk.png"))
    plot_metrics(results, os.path.join(folder, "metrics.png"))
    plot_truth(results, os.path.join(folder, "truth.png"))
    plot_crossplay(results["crossplay"], os.path.join(folder, "crossplay.png"))
    plot_partners(results["partners"], os.path.join(folder, "partners.png"))
    write_report(args, results, os.path.join(args.out, "signalling.md"), results["seconds"])


def main(args: Args) -> dict:
    if args.report_only:
        with open(os.path.join(args.out, "signalling", "results.json"), encoding="utf-8") as source:
            results = json.load(source)
        saved = Args(**{**results["args"], "out": args.out})
        write_outputs(saved, results)
        return results
    if args.quick:
        for key, value in QUICK.items():
            setattr(args, key, value)
        args.partner_agents = args.partner_agents[:1]
    try:
        import numba
        import torch

        numba.set_num_threads(1)
        torch.set_num_threads(1)
    except ImportError:
        pass
    folder = os.path.join(args.out, "signalling")
    os.makedirs(folder, exist_ok=True)
    started = time.perf_counter()
    timings: dict[str, float] = {}
    results: dict = {"args": asdict(args)}

    def timed(name, function, *extra):
        begin = time.perf_counter()
        value = function(args, *extra)
        timings[name] = time.perf_counter() - begin
        print(json.dumps({"part": name, "seconds": round(timings[name], 1)}), flush=True)
        return value

    results["value_of_talk"] = timed("value_of_talk", study_value_of_talk)
    results["metrics"], logs = timed("metrics", study_metrics)
    results["influence"] = timed("influence", study_influence, logs)
    results["scramble"] = timed("scramble", study_scramble, logs, folder)
    results["crossplay"] = timed("crossplay", study_crossplay)
    results["partners"] = timed("partners", study_partners)
    results["seconds"] = {**timings, "total": time.perf_counter() - started, "cpu": _cpu_seconds()}
    with open(os.path.join(folder, "results.json"), "w", encoding="utf-8") as out:
        json.dump(results, out, indent=1, default=float)
    write_outputs(args, results)
    return results


if __name__ == "__main__":
    import tyro

    main(tyro.cli(Args))
