"""The signalling study: do Knüffeln partners signal, listen and bluff, what is talk worth, are the
conventions arbitrary, and when do Schafkopf players know their hidden partner?

    python -m experiments.signalling_study            # default size
    python -m experiments.signalling_study --quick    # a few hands of everything (smoke test)
    python -m experiments.signalling_study --crossplay-specs "pkg.mod:agent[seed=0]" "pkg.mod:agent[seed=1]"
    python -m experiments.signalling_study --parts crossplay_trained   # one part again, the rest kept

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
5. **Cross-play**: the self-play / cross-play matrix of the trained token population
   (``signalling.population``, ``--trained-seeds``), and of ``--crossplay-specs`` (default: the rule talker
   under five token permutations, the Other-Play-style control), with metrics per agent (entropy,
   consistency, coordination, causal influence on its own partner).
6. **Hidden partners** in Bavarian Rufer and Asserufen: the exact posterior over the partner from the
   public play and from each seat, per agent type (``signalling.partners``).

The sizes and seeds are ``experiments.signalling_args.Args``; the plots and the report are written by
``experiments.signalling_plots`` and ``experiments.signalling_report``.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict

from agents.rules.knuffeln_phrases import PHRASE_OF_TOKEN
from signalling.crossplay import (
    DEFAULT_OPPONENT,
    crossplay_matrix,
    pair_spec,
    paired_against,
    permuted_population,
    pooled_difference,
)
from signalling.influence import causal_influence_of, intervention_events
from signalling.learned import POPULATIONS, SILENT_OPPONENT, learned_spec
from signalling.learned import TALK as LEARNED_TALK
from signalling.learned import checkpoint_path as learned_checkpoint
from signalling.learned import shipped_seeds as learned_seeds
from signalling.log import arena_message_log
from signalling.metrics import talk_metrics, token_meanings, turn_stats
from signalling.partners import hand_summary
from signalling.partners_study import aggregate, self_play_ace_calls
from signalling.population import population_specs, record_summary, shipped_seeds
from signalling.scramble import match_with_effect, message_marginal, scramble_test, value_of_talk, write_marginal

from .signalling_args import QUICK, Args
from .signalling_plots import plot_crossplay, plot_metrics, plot_partners, plot_talk, plot_truth
from .signalling_report import write_report


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
    """The control: the rule talker under token permutations (or ``--crossplay-specs``)."""
    specs = args.crossplay_specs or permuted_population(args.crossplay_population)
    labels = [f"permutation {k}" for k in range(len(specs))] if not args.crossplay_specs else specs
    return population_crossplay(args, specs, labels, args.crossplay_deals)


def study_trained_crossplay(args: Args) -> dict | None:
    """The trained token population (``signalling.population``), one agent per training seed (those of
    ``--trained-seeds`` that are shipped; none if fewer than two are)."""
    seeds = [seed for seed in args.trained_seeds if seed in shipped_seeds()]
    if len(seeds) < 2:
        print(json.dumps({"part": "crossplay_trained", "skipped": f"seeds shipped: {shipped_seeds()}"}), flush=True)
        return None
    labels = [f"seed {seed}" for seed in seeds]
    matrix = population_crossplay(args, population_specs(seeds), labels, args.trained_deals)
    matrix["training"] = [record_summary(seed) for seed in seeds]
    return matrix


def study_learned(args: Args) -> dict | None:
    """The learned talkers (``signalling.learned``) of each population with shipped seeds among
    ``--learned-seeds``: per seed, the talking team and the same team muted, each against the silent, deaf
    rule team on the same deals (the paired difference: what the talk is worth against opponents that do not
    listen), the talking team against its muted twin (opponents that overhear and know the code), what its
    tokens mean and whether it lies (``metrics.token_meanings``, from a log of its self-play against the
    silent rule team); per population, the seeds' talk worth pooled deal by deal (``pooled_difference``),
    and with two seeds or more, the cross-play matrix and its gap."""
    if args.tokens != int(LEARNED_TALK.split(":")[1]):
        print(json.dumps({"part": "learned", "skipped": f"the learned talkers speak {LEARNED_TALK}"}), flush=True)
        return None
    config = talk_configs(args)["tokens"]
    results = {}
    for population in POPULATIONS:
        seeds = [seed for seed in args.learned_seeds if seed in learned_seeds(population)]
        if not seeds:
            continue
        per_seed, worth_per_deal = {}, []
        for seed in seeds:
            spec, muted = learned_spec(seed, population), learned_spec(seed, population, muted=True)
            paired = paired_against(spec, muted, args.learned_deals, args.seed, config, SILENT_OPPONENT,
                                    args.workers, per_deal=True)
            worth_per_deal.append(paired.pop("difference_per_deal"))
            per_seed[str(seed)] = {
                "against_silent_rules": paired,
                "talking_vs_muted": learned_match([spec, muted], config, args),
                **learned_talk(args, spec, config),
                "training": learned_record(seed, population),
            }
        entry = {"seeds": per_seed, "talk_worth_pooled": pooled_difference(worth_per_deal)}
        if len(seeds) >= 2:
            labels = [f"seed {seed}" for seed in seeds]
            specs = [learned_spec(seed, population) for seed in seeds]
            entry["crossplay"] = crossplay_matrix(specs, args.learned_crossplay_deals, args.seed, config,
                                                  DEFAULT_OPPONENT, args.workers, labels)
        results[population] = entry
    return results or None


def learned_match(specs: list[str], config: dict, args: Args) -> dict:
    summary = match_with_effect(specs, config, args.learned_overheard_deals, args.seed, args.workers)
    return {"deals": args.learned_overheard_deals, **summary["difference"], "effect": summary["effect"]}


def learned_talk(args: Args, spec: str, config: dict) -> dict:
    """A learned talker's message metrics and token meanings, from its self-play against the silent rules."""
    _summary, _records, rows = arena_message_log([pair_spec(spec, spec), DEFAULT_OPPONENT], config,
                                                 args.learned_log_deals, args.seed, args.workers)
    talking = [row for row in rows if row["agent"] != DEFAULT_OPPONENT]
    return {"metrics": talk_metrics(talking, args.permutations, args.seed),
            "meanings": token_meanings(talking, args.permutations, args.seed)}


def learned_record(seed: int, population: str) -> dict:
    """The learned talker's own training (its last stage, the PPO self-play on the talk table; the stages
    before it are the carry-over and the shipped card play it started from)."""
    record = json.loads(learned_checkpoint(seed, population).with_suffix(".json").read_text(encoding="utf-8"))
    last = record["stages"][-1]
    return {"decisions": {last["algo"]: last["decisions"]}, "cpu_seconds": last["cpu_seconds"],
            "wall_seconds": last["wall_seconds"], "command": record["command"][-1]}


def population_crossplay(args: Args, specs: list[str], labels: list[str], deals: int) -> dict:
    """The cross-play matrix of ``specs``, and each agent's metrics from its own self-play hands."""
    config = talk_configs(args)["tokens"]
    matrix = crossplay_matrix(specs, deals, args.seed, config, DEFAULT_OPPONENT, args.workers, labels)
    per_agent = []
    for spec, label in zip(specs, labels, strict=True):
        _summary, records, rows = arena_message_log([pair_spec(spec, spec), DEFAULT_OPPONENT], config,
                                                    args.crossplay_log_deals, args.seed, args.workers)
        talking = [r for r in rows if r["agent"] != DEFAULT_OPPONENT]
        per_agent.append({"label": label, **talk_metrics(talking, args.permutations, args.seed),
                          "causal_influence": self_play_influence(args, records, spec, message_marginal(talking))})
    matrix["metrics"] = per_agent
    return matrix


def self_play_influence(args: Args, records: list[dict], spec: str, marginal: dict) -> dict | None:
    """CIC of an agent's messages on its own partner (``spec`` listening), on the first hands of its log."""
    events = []
    for record in records[:args.influence_hands]:
        speakers = [a for a, label in record["arena"]["seating"].items() if label != DEFAULT_OPPONENT]
        events += intervention_events(record, listener_agent=spec, speakers=speakers, seed=args.seed)
    if not events:
        return None
    measured = causal_influence_of(events, "marginal", marginal)
    return {"events": measured["events"], "cic_bits_marginal": measured["cic_bits"],
            "flip_rate": measured["flip_rate"], "cic_bits_uniform": causal_influence_of(events, "uniform")["cic_bits"]}


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

# --------------------------------------------------------------------------------------- main


def _cpu_seconds() -> float:
    """CPU time of this process and of its arena workers' finished jobs: the run's cost on idle cores (the
    operating system's count of finished children misses the arena's workers, which a fork server starts)."""
    from trick_core.worker_pool import worker_cpu_seconds

    own = os.times()
    return own.user + own.system + worker_cpu_seconds()


def write_outputs(args: Args, results: dict) -> None:
    folder = os.path.join(args.out, "signalling")
    plot_talk(results, os.path.join(folder, "talk.png"))
    plot_metrics(results, os.path.join(folder, "metrics.png"))
    plot_truth(results, os.path.join(folder, "truth.png"))
    plot_crossplay(results["crossplay"], os.path.join(folder, "crossplay.png"))
    if results.get("crossplay_trained"):
        plot_crossplay(results["crossplay_trained"], os.path.join(folder, "crossplay_trained.png"))
    plot_partners(results["partners"], os.path.join(folder, "partners.png"))
    write_report(args, results, os.path.join(args.out, "signalling.md"), results["seconds"])


PARTS = ("value_of_talk", "metrics", "influence", "scramble", "crossplay", "crossplay_trained", "learned", "partners")
"""The parts in the order they run; influence and scramble read the message logs of metrics."""


SIZES = ("workers", "tokens", "talk_deals", "log_deals", "influence_hands", "crossplay_population", "crossplay_deals",
         "crossplay_log_deals", "trained_deals", "learned_deals", "learned_overheard_deals", "learned_log_deals",
         "learned_crossplay_deals", "partner_hands", "partner_max_deals", "permutations")
"""The study's counts: each must be a positive integer."""


def check_options(args: Args) -> None:
    """Every option of the study before a deal is played or a file written: ``ValueError`` naming the first
    bad one (a size below one, a negative seed, an unknown part, talk vocabulary or partner agent, a rerun
    without the results it keeps)."""
    from agents import check_option_agents
    from trick_core.checks import check_seed, positive_int
    from trick_core.extras import require
    from trick_core.output_paths import check_output_folder
    from trick_core.registry import make_env

    for name in SIZES:
        positive_int(getattr(args, name), name)
    check_seed(args.seed, "--seed", none_allowed=False)
    for seed in args.trained_seeds:
        check_seed(seed, "--trained-seeds", none_allowed=False)
    for seed in args.learned_seeds:
        check_seed(seed, "--learned-seeds", none_allowed=False)
    _chosen_parts(args.parts)
    check_output_folder(args.out, "--out")
    require("plot", "matplotlib", "experiments.signalling_study (its figures)")
    saved = os.path.join(args.out, "signalling", "results.json")
    if (args.parts or args.report_only) and not os.path.isfile(saved):
        raise ValueError(f"--parts and --report-only keep the results of {saved!r}: there is none (run the whole "
                         "study first)")
    make_env("knuffeln", talk=f"tokens:{args.tokens}")  # the vocabulary of the tokens variant
    check_option_agents("crossplay_specs", args.crossplay_specs, "knuffeln")
    for game in ("bavarian", "asserufen"):  # the hidden-partner study's games
        check_option_agents("partner_agents", args.partner_agents, game)


def main(args: Args) -> dict:
    check_options(args)
    folder = os.path.join(args.out, "signalling")
    if args.report_only:
        results = _saved_results(folder)
        saved = Args(**{**results["args"], "out": args.out})
        write_outputs(saved, results)
        return results
    if args.quick:
        for key, value in QUICK.items():
            setattr(args, key, value)
        args.partner_agents = args.partner_agents[:1]
    parts = _chosen_parts(args.parts)
    try:
        import numba
        import torch

        numba.set_num_threads(1)
        torch.set_num_threads(1)
    except ImportError:
        pass
    os.makedirs(folder, exist_ok=True)
    results = _saved_results(folder) if args.parts else {"args": asdict(args)}
    timings, cpu = _run_parts(args, parts, results, folder)
    if args.parts:
        # a part rerun again replaces its earlier rerun: the report lists what its numbers come from
        earlier = [rerun for rerun in results.get("reruns", []) if not set(rerun["parts"]) <= set(parts)]
        results["reruns"] = [*earlier, {"parts": parts, "args": asdict(args), "seconds": timings}]
        seconds = {**results["seconds"], **timings}
        seconds.update(_cpu_after_rerun(results["seconds"], cpu, _cpu_seconds()))
    else:
        seconds = {**timings, "cpu_parts": cpu, "cpu": _cpu_seconds()}
    seconds["total"] = sum(value for key, value in seconds.items() if key in PARTS)
    results["seconds"] = seconds
    with open(os.path.join(folder, "results.json"), "w", encoding="utf-8") as out:
        json.dump(results, out, indent=1, default=float)
    write_outputs(Args(**{**results["args"], "out": args.out}), results)
    return results


def _chosen_parts(names: list[str]) -> list[str]:
    unknown = sorted(set(names) - set(PARTS))
    if unknown:
        raise ValueError(f"unknown parts {unknown}; choose from {list(PARTS)}")
    if names and {"influence", "scramble"} & set(names) and "metrics" not in names:
        raise ValueError("influence and scramble replay the message logs of metrics: rerun metrics with them")
    return [name for name in PARTS if not names or name in names]


def _saved_results(folder: str) -> dict:
    with open(os.path.join(folder, "results.json"), encoding="utf-8") as source:
        return json.load(source)


def _cpu_after_rerun(earlier: dict, rerun_parts: dict[str, float], rerun_total: float) -> dict:
    """``cpu`` (in all) and ``cpu_parts`` (per part) once a rerun's parts replace their earlier runs:
    the earlier total less the CPU of the parts replaced, plus the rerun's whole process. Results written
    before the study counted CPU per part (no ``cpu_parts``) cannot lose what they replace: their total
    still holds the CPU of the runs the rerun replaced."""
    if not earlier.get("cpu_parts"):
        return {"cpu": earlier["cpu"] + rerun_total}
    replaced = sum(earlier["cpu_parts"].get(name, 0.0) for name in rerun_parts)
    return {"cpu_parts": {**earlier["cpu_parts"], **rerun_parts}, "cpu": earlier["cpu"] - replaced + rerun_total}


def _run_parts(args: Args, parts: list[str], results: dict,
               folder: str) -> tuple[dict[str, float], dict[str, float]]:
    """Run ``parts`` into ``results``; returns the wall seconds and the CPU seconds (``_cpu_seconds``) of
    each."""
    timings: dict[str, float] = {}
    cpu: dict[str, float] = {}
    logs: dict = {}
    steps = {
        "value_of_talk": lambda: study_value_of_talk(args),
        "metrics": lambda: study_metrics(args),
        "influence": lambda: study_influence(args, logs),
        "scramble": lambda: study_scramble(args, logs, folder),
        "crossplay": lambda: study_crossplay(args),
        "crossplay_trained": lambda: study_trained_crossplay(args),
        "learned": lambda: study_learned(args),
        "partners": lambda: study_partners(args),
    }
    for name in parts:
        begin, cpu_begin = time.perf_counter(), _cpu_seconds()
        value = steps[name]()
        if name == "metrics":
            value, logs = value
        results[name] = value
        timings[name] = time.perf_counter() - begin
        cpu[name] = _cpu_seconds() - cpu_begin
        print(json.dumps({"part": name, "seconds": round(timings[name], 1), "cpu_seconds": round(cpu[name], 1)}),
              flush=True)
    return timings, cpu


if __name__ == "__main__":
    import tyro

    from trick_core.command_line import checked, command_prog

    main(checked(tyro.cli(Args, prog=command_prog()), check_options))
