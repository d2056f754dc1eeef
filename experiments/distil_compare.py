"""Options of ``experiments/distil.py`` compared on the same labelled files: each variant fits the same
starting network on the same training hands, and is measured on the same held-out hands — imitation
accuracy, regret by the teacher's values (units per decision) and the value head's squared error against
the hands' settlements (units squared). What one fit does, without the arena's noise, at a fraction of a
run's cost (no search: the labels are on file).

    python -m experiments.distil_compare --game bavarian --data runs/bavarian__distil__1__.../data/iteration_000.npz \
        --init-from agents/neural/checkpoints/bavarian.pt --variants base critic=perfect policy_target=values

A variant is ``base`` (distil's defaults) or comma-separated ``option=value`` pairs of ``experiments.distil.Args``
(``critic=perfect``, ``policy_target=values,temperature=1.0``, ``value_target=mean``). The held-out hands
are those ``distil`` held out (the same ``--seed`` and ``--holdout``), so a run's own files compare fairly.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch
import tyro

from agents.config import parse_config, parse_value
from agents.neural.training import new_network, reward_scale, seed_everything, set_threads, warm_start_network
from experiments import distil
from experiments.distil_data import load_labelled


@dataclass
class Args:
    """Fit variants of distil's options on the same labelled files; held-out imitation and value error."""

    data: list[str]
    """labelled files (a distil run's data/iteration_<k>.npz)"""
    game: str = "bavarian"
    """the game the files were labelled in"""
    config: list[str] = field(default_factory=list)
    """env options as key=value, as in the run"""
    init_from: str | None = None
    """the starting network of every variant (default: a fresh one of distil's --hidden)"""
    variants: list[str] = field(default_factory=lambda: ["base", "critic=perfect", "policy_target=values"])
    """base, or comma-separated option=value pairs of experiments.distil.Args"""
    epochs: int = 2
    """passes over the training hands"""
    learning_rate: float = 3e-4
    """Adam step size"""
    seed: int = 1
    """the run's seed: the held-out hands, the network's start and the batches"""
    json: str | None = None
    """write the results here"""


def variant_args(args: Args, variant: str) -> distil.Args:
    """distil's ``Args`` of one variant (``ValueError`` naming an unknown option)."""
    base = distil.Args(game=args.game, config=list(args.config), seed=args.seed, epochs=args.epochs,
                       learning_rate=args.learning_rate, init_from=args.init_from, progress=False)
    if variant == "base":
        return base
    changes = {}
    for pair in variant.split(","):
        key, separator, value = pair.partition("=")
        if not separator or key not in {f.name for f in dataclasses.fields(distil.Args)}:
            raise ValueError(f"variant {variant!r}: {pair!r} is not option=value of experiments.distil.Args")
        changes[key] = parse_value(value)
    return dataclasses.replace(base, **changes)


def check_options(args: Args) -> None:
    if not args.data:
        raise ValueError("data: give at least one labelled file")
    config = parse_config(args.config)
    for path in args.data:
        load_labelled(path, args.game, config)
    for variant in args.variants:
        variant_args(args, variant).check_options(config)
    if args.init_from and not Path(args.init_from).is_file():
        raise ValueError(f"init_from: no checkpoint at {args.init_from!r}")


def compare(args: Args) -> dict:
    set_threads(1, 1)
    config = parse_config(args.config)
    scale = reward_scale(args.game, config, None)
    window = []
    for path in args.data:
        part = load_labelled(path, args.game, config)
        window.append((int(part["metadata"]["iteration"]), part))
    results = []
    for variant in args.variants:
        options = variant_args(args, variant)
        rng = seed_everything(args.seed)
        network = (warm_start_network(args.init_from, args.game, config) if args.init_from
                   else new_network(args.game, config, options.hidden, options.features))
        critic = distil.critic_for(network, args.game, config, options.hidden) if options.critic == "perfect" else None
        parameters = list(network.parameters()) + ([] if critic is None else list(critic.parameters()))
        optimizer = torch.optim.Adam(parameters, lr=options.learning_rate)
        losses = distil.fit(options, network, critic, optimizer, window, scale, rng, torch.device("cpu"))
        measured = {"accuracy": [], "regret": [], "value_squared_error": [], "decisions": 0}
        for iteration, part in window:
            rows = np.flatnonzero(distil.held_out_rows(part, iteration, args.seed, options.holdout))
            found = distil.imitation(network, part, rows, torch.device("cpu"))
            with torch.inference_mode():
                encoded = torch.from_numpy(network.encode(part["observation"][rows]))
                value = network.value(network.features(encoded)).numpy() * scale
            measured["accuracy"].append(found["accuracy"] * found["decisions"])
            measured["regret"].append(found["regret"] * found["decisions"])
            measured["value_squared_error"].append(float(np.sum((value - part["outcome"][rows]) ** 2)))
            measured["decisions"] += found["decisions"]
            measured.setdefault("positions", 0)
            measured["positions"] += int(rows.size)
        results.append({
            "variant": variant, "train_losses": losses,
            "held_out_accuracy": sum(measured["accuracy"]) / max(measured["decisions"], 1),
            "held_out_regret": sum(measured["regret"]) / max(measured["decisions"], 1),
            "held_out_value_squared_error": sum(measured["value_squared_error"]) / max(measured["positions"], 1),
            "held_out_decisions_with_a_choice": measured["decisions"], "held_out_positions": measured["positions"],
        })
        print(json.dumps(results[-1]))
    summary = {"game": args.game, "config": config, "data": list(args.data), "init_from": args.init_from,
               "epochs": args.epochs, "learning_rate": args.learning_rate, "seed": args.seed, "results": results}
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return summary


if __name__ == "__main__":
    from trick_core.command_line import checked, command_prog

    compare(checked(tyro.cli(Args, prog=command_prog()), check_options))
