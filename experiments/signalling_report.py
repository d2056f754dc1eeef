"""The report of the signalling study (``experiments.signalling_study``): ``docs/signalling.md`` written from
its results."""

from __future__ import annotations

import os

from .signalling_args import Args


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


SECTIONS = {
    # name: (title, picture, first paragraph, header of the first table)
    "value": (
        "Value of talk and the scramble test", "![value of talk](signalling/talk.png)",
        "The honest rule talker (`rules`) against the same agent made silent and deaf "
        "(`rules[speak=false,listen=false]`), and against itself hearing its partner scrambled "
        "(`signalling.scramble:make_agent`: each partner message replaced by one drawn from the talker's own "
        "message frequencies, so it carries no information about the hand).",
        "| comparison | talk | deals | margin per hand | 95% CI | |",
    ),
    "metrics": (
        "Metrics per agent type", "![metrics](signalling/metrics.png)",
        "Message logs of a duplicate round robin in each talk variant (`signalling.log`). Speaker consistency "
        "is I(message; the speaker's next card class) and I(message; a private feature); instantaneous "
        "coordination is I(message; the partner's next decision class). `show:C` counts as one message "
        "`show` here. Tokens of the rule talker are labelled through its fixed code (`TOKEN_CODE`).",
        "| talk | agent | utterances | H(M) | SC: next card | SC: Oles held | SC: certain to take | IC "
        "| false / checkable |",
    ),
    "influence": (
        "Causal influence of communication", None,
        "Each message of a rule talker in rule self-play is replaced by every message it could legally have "
        "said (`signalling.influence`); the partner replays its own decisions up to its next non-talk "
        "decision. CIC is the mutual information between the intervened message and that decision, with the "
        "message drawn from the talker's own frequencies (*marginal*) or uniformly; the flip rate is the "
        "chance that a drawn message changes the decision. A deaf partner is the control (zero by "
        "construction). The reference implementation of the CIC metric takes the action marginal as a mean "
        "over messages and so adds log2 |M| bits, |M| the messages legal at the state (in the lexicon up to 24 "
        "phrases, silence and a half-show of each card in hand: up to 34 messages, 5.1 bits): not done here "
        "(`signalling.metrics`).",
        "| talk | listener | hands | events | CIC (marginal) | CIC (uniform) | flip rate |",
    ),
    "crossplay": (
        "Cross-play", None,
        "Every ordered pair of agents forms a partnership (`signalling.crossplay`) and plays the same duplicate "
        "deals in talk `{talk}` against `{opponent}`; cell (i, j) is the pair's "
        "units per hand (i at the team's first seat). The gap is mean self-play minus mean cross-play, paired "
        "over the same deals. The metrics of each agent come from its own self-play hands against the same "
        "opponents (a message is a token or silence); CIC is the causal influence of its messages on its "
        "partner (itself), measured as in the section above on the first hands of that log.",
        None,
    ),
    "partners": (
        "Hidden partners in Schafkopf", "![partners](signalling/partners.png)",
        "Self-play hands of each agent type; only ace-call hands (Bavarian Rufer, Asserufen's ace call) count. "
        "For every card the exact posterior over the holder of the called card is computed "
        "(`signalling.partners`: uniform prior over deals, the rules as the only model of the players) from "
        "the public play and from each seat's own view. *Certain by trick k* is the share of hands (seats, for "
        "the defenders) whose view names the partner for certain before trick k ends; the rules' reveal is "
        "when the env itself makes the partnership public (the called card played, a runaway trick complete, "
        "a partner's re).",
        "| game | agent | hands (deals) | view | mean trick of certainty | certain by trick 1 / 2 / 4 / 8 |",
    ),
}


def _table_head(header: str) -> list[str]:
    """A markdown table's header row and its separator."""
    return [header, "|---" * (header.count("|") - 1) + "|"]


def _opening(section: str, picture: str | None = None, **fields) -> list[str]:
    """A section's heading, its picture (``SECTIONS``' unless given), its first paragraph (``fields`` filled
    in) and the header of its first table."""
    title, default_picture, text, header = SECTIONS[section]
    picture = picture or default_picture
    lines = [f"## {title}", ""] + ([picture, ""] if picture else []) + [text.format(**fields), ""]
    return lines + (_table_head(header) if header else [])


def write_report(args: Args, results: dict, path: str, seconds: dict) -> None:
    from . import signalling_report_learned  # it builds on this module's helpers
    lines = [
        "# Signalling study",
        "",
        f"Generated by `python -m experiments.signalling_study` (seed {args.seed}; sizes in the sections; "
        f"{seconds['total'] / 60:.1f} minutes wall clock with {args.workers} worker processes on shared cores, "
        f"{seconds['cpu'] / 60:.1f} CPU minutes in all). Every number is in `{args.out}/signalling/results.json`; "
        "the methods are the docstrings of the `signalling` package." + _reruns(results),
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
    lines += signalling_report_learned.report_learned(results, os.path.join(args.out, "signalling"))
    lines += _report_partners(results)
    lines += _report_limits(results)
    with open(path, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")


def _smallest_p_note(results: dict, *estimates: dict) -> str:
    """A remark when every p-value given is the smallest the permutation test's size allows."""
    smallest = 1 / (1 + results["args"]["permutations"])
    if all(abs(estimate["p_value"] - smallest) < 1e-12 for estimate in estimates):
        return " The p-values are the smallest a permutation test of this size can give."
    return ""


def _reruns(results: dict) -> str:
    """The parts rerun on their own (``--parts``) after the full run, if any."""
    reruns = results.get("reruns", [])
    if not reruns:
        return ""
    done = "; ".join(f"`--parts {' '.join(rerun['parts'])}` ({sum(rerun['seconds'].values()) / 60:.1f} minutes)"
                     for rerun in reruns)
    cpu = ("" if results.get("seconds", {}).get("cpu_parts") else
           " (the CPU minutes, counted before the study counted them per part, also hold the runs replaced)")
    return (f" Parts rerun on their own afterwards, the others kept from the full run: {done}; the minutes "
            f"above count each part's latest run{cpu}.")


def _report_value(results: dict) -> list[str]:
    value, scramble = results["value_of_talk"], results["scramble"]
    lines = _opening("value")
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


def measured_agents(results: dict):
    """``(talk, label, metrics)`` of every agent type of the metrics part (the turn statistics left out)."""
    for talk, per_agent in results["metrics"].items():
        for label, m in per_agent.items():
            if label != "turns":
                yield talk, label, m


def _report_metrics(results: dict) -> list[str]:
    lines = _opening("metrics")
    for talk, label, m in measured_agents(results):
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
                      f"{ic['ci95'][1]:.3f}])." + _smallest_p_note(results, sc, ic)]
    lines += ["", "![truth labels](signalling/truth.png)", "", "**Truth and bluffs.**", ""]
    for talk, label, m in measured_agents(results):
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
    lines = _opening("influence")
    for talk, per_listener in results["influence"].items():
        for listener, row in per_listener.items():
            lines.append(f"| {talk} | `{listener}` | {row['hands']} | {row['events']} | "
                         f"{row['cic_bits_marginal']:.4f} | {row['cic_bits_uniform']:.4f} | {row['flip_rate']:.2%} |")
    lines.append("")
    return lines


def _report_crossplay(args: Args, results: dict) -> list[str]:
    control, trained = results["crossplay"], results.get("crossplay_trained")
    picture = "![cross-play of the trained population](signalling/crossplay_trained.png)" if trained else None
    lines = _opening("crossplay", picture, talk=control["config"]["talk"], opponent=control["opponent"])
    if trained:
        lines += ["### Trained token population", "", TRAINED_POPULATION.format(count=len(trained["labels"])), ""]
        lines += _training_lines(trained.get("training", []))
        lines += _matrix_lines(trained)
        lines += _trained_remarks(trained, control)
    else:
        lines += ["No trained population in this run (`--trained-seeds` empty, or fewer than two of its seeds "
                  "shipped in `signalling/population/`).", ""]
    lines += ["### Control: the rule talker under token permutations", "",
              "![cross-play control](signalling/crossplay.png)", ""]
    if not args.crossplay_specs:
        lines += [
            "The rule talker under five token permutations (0 = its own code), the Other-Play-style control: "
            "self-play uses one code, cross-play partners misread each other's tokens. It shows the size of the "
            "effect when conventions differ only by a relabelling.",
            "",
        ]
    lines += _matrix_lines(control)
    if len({round(m["entropy_bits"], 9) for m in control["metrics"]}) == 1 and len(control["metrics"]) > 1:
        lines += ["Every agent of the population has the same entropy, consistency and coordination: mutual "
                  "information does not depend on which token means what, so these metrics cannot tell "
                  "conventions apart; only playing with a partner of another convention (cross-play) can.", ""]
    return lines


TRAINED_POPULATION = (
    "{count} Knüffeln networks of talk `tokens:8` (`signalling.population`, `signalling/population/*.pt`), one "
    "per training seed, each warm-started by imitating the rule talker (which speaks through its fixed "
    "token code) and then trained by PPO self-play with the same small budget; the exact commands, budgets "
    "and commits are in the JSON record beside each checkpoint. The agents play greedily (the argmax of "
    "the policy head).")


def _training_lines(training: list[dict]) -> list[str]:
    """One row per seed: the network and what its training used."""
    if not training:
        return []
    lines = _table_head("| seed | torso | parameters | file | warm-start decisions | PPO decisions | CPU minutes "
                        "| wall minutes |")
    for row in training:
        warm, ppo = row["decisions"].get("warm_start", 0), row["decisions"].get("ppo", 0)
        lines.append(f"| {row['seed']} | {'-'.join(map(str, row['hidden']))} | {row['parameters']:,} | "
                     f"{row['bytes'] / 1e6:.2f} MB | {warm:,} | {ppo:,} | "
                     f"{row['cpu_seconds'] / 60:.1f} | {row['wall_seconds'] / 60:.1f} |")
    return lines + ["", f"Command of seed {training[0]['seed']} (the others differ only in `--seed`):", "",
                    f"    {training[0]['command']}", ""]


def _matrix_lines(matrix: dict) -> list[str]:
    """The matrix with intervals, the gap, and the table of each agent's results and metrics."""
    header = "| first \\ second | " + " | ".join(matrix["labels"]) + " |"
    lines = [f"{matrix['hands']} duplicate deals per cell.", "", *_table_head(header)]
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
        *_table_head("| agent | self-play | cross-play (either seat) | utterances | tokens said | H(M) "
                     "| SC: next card | SC: Oles held | IC | CIC (marginal) | flip rate |"),
    ]
    for agent, m in zip(matrix["per_agent"], matrix["metrics"], strict=True):
        influence = m.get("causal_influence")
        cic = "n/a" if not influence else f"{influence['cic_bits_marginal']:.4f} ({influence['events']})"
        flips = "n/a" if not influence else f"{influence['flip_rate']:.2%}"
        lines.append(f"| {m['label']} | {agent['self_play']['mean']:+.3f} {_interval(agent['self_play'])} | "
                     f"{agent['cross_play']['mean']:+.3f} {_interval(agent['cross_play'])} | {m['utterances']} | "
                     f"{m['kinds'].get('token', 0) / max(1, m['utterances']):.0%} | {m['entropy_bits']:.2f} | "
                     f"{_bits(m['speaker_consistency']['next_action'])} | {_bits(m['speaker_consistency']['oles'])} | "
                     f"{_bits(m['instantaneous_coordination'])} | {cic} | {flips} |")
    if any(not m.get("causal_influence") for m in matrix["metrics"]):
        lines += ["", "CIC n/a: not measured in the run these numbers come from (or no intervention was possible)."]
    lines.append("")
    return lines


def _trained_remarks(trained: dict, control: dict) -> list[str]:
    """What the trained matrix says, in words chosen by its numbers."""
    gap, control_gap = trained["gap"], control["gap"]
    lines = [f"- The trained population's self-play minus cross-play gap is {gap['mean']:+.3f} {_interval(gap)} "
             f"({_significance(gap)}); the permuted rule talkers' gap is {control_gap['mean']:+.3f} "
             f"{_interval(control_gap)} ({_significance(control_gap)})."]
    if gap["ci95"][0] is not None and gap["ci95"][0] <= 0 <= gap["ci95"][1]:
        lines.append("- No sign that the seeds' conventions are arbitrary: partners from different seeds "
                     "understand each other about as well as copies of one seed. With a warm start from the "
                     "rule talker every seed starts from the same token code, so this tests whether PPO drifts "
                     "the code apart within the budget, not whether independent learners would find one code.")
    elif gap["ci95"][0] is not None and gap["ci95"][0] > 0:
        lines.append("- The seeds' conventions differ: a partner from another seed is worth less than a copy of "
                     "oneself, although all started from the rule talker's code.")
    elif gap["ci95"][1] is not None:
        lines.append("- Partners from different seeds do better together than copies of one seed: no sign of "
                     "conventions private to a seed.")
    shares = [m["kinds"].get("token", 0) / max(1, m["utterances"]) for m in trained["metrics"]]
    lines += [f"- Tokens make up {min(shares):.0%} to {max(shares):.0%} of the seeds' talk turns (the rest is "
              "silence).", ""]
    return lines


def _report_partners(results: dict) -> list[str]:
    lines = _opening("partners")
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


def _report_limits(results: dict) -> list[str]:
    from . import signalling_report_learned
    trained = [
        "- The trained population is small and cheap (a few seeds of a few CPU minutes each) and every seed starts "
        "from the rule talker's code: it tests whether self-play training moves the seeds' conventions apart, "
        "not whether independent learners from scratch find different ones.",
    ] if results.get("crossplay_trained") else [
        "- The trained token population is not in this report: fewer than two of its seeds are shipped in "
        "`signalling/population/` (the recipe is in the docstring of `signalling.population`). Once they are, "
        "`python -m experiments.signalling_study --parts crossplay_trained` adds its section to this report.",
    ]
    learned = ([signalling_report_learned.learned_limit(results["learned"]),
                signalling_report_learned.LEARNED_SCALE_LIMIT] if results.get("learned") else [])
    return [
        "## Limits",
        "",
        "- The talkers of the metrics, influence and scramble sections are rule-based: their truth labels test "
        "the labeller as much as the agents (an honest talker must come out all true), and their conventions "
        "are fixed by hand.",
        *trained,
        *learned,
        "- Mutual informations are plug-in estimates over decision classes (card classes, not cards); the "
        "null mean shows their small-sample bias.",
        "- The partner posterior models the players only through the rules (every legal deal equally likely); "
        "an observer who models the agents' policies could be certain earlier.",
        "",
    ]
