"""A trained network carried over to a wider table: the same game under another env configuration whose
observation and action list contain the trained one's (Knüffeln with ``talk="tokens:8"`` from the shipped
network of ``talk="off"``), with everything the source never saw left *untrained* and *unheard*.

    python -m agents.neural.widen --checkpoint agents/neural/checkpoints/knuffeln.pt --config talk=tokens:8 \\
        --out runs/knuffeln_tokens8_widened.pt

What the widened network does at its start:

- **It reads what the source read, as the source did**: each observation entry of the target is matched to
  the source's by block name (the kernels' ``observation_layout``, the env's documented index table) and its
  first-layer weights and input scale are copied; the derived card features (``agents.neural.derived``)
  come after the observation in both and are copied as they are. Blocks the source did not have (the
  ``talk`` block) get zero weights: the network starts deaf to them, and training has to learn to listen.
- **It plays what the source played**: every action of the source keeps its policy and Q rows (the action
  feature columns are matched by what they stand for, ``features.action_feature_labels``). Actions the source
  could never take in its configuration (``silent`` and ``token:k`` under ``talk="off"``) share one row,
  the bias alone, so the new decisions start *uniform*: the message policy is untrained, and no convention
  of the source or of a teacher is built in.
- The torso's deeper layers, the value head and the heads' biases are the source's.

So on any position, the widened network's scores of the source's actions equal the source's on the same
position seen without the new blocks (``tests/neural/test_widen.py``). Issue: learned signalling
(``signalling.learned``), whose talk is learned from scratch on top of the shipped card play.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import torch

from agents.config import parse_config
from agents.neural.checkpoint import (
    build_network,
    checkpoint_dict,
    git_commit,
    input_index_map,
    load_checkpoint,
    observation_blocks,
    save_checkpoint,
)
from agents.neural.features import action_feature_labels
from agents.neural.training import command_line, new_network

NEW_ACTION_KINDS = ("silent", "token", "say", "show")
"""The talk kinds: their action and kind columns start at zero (a ``show:C`` keeps the columns of C's suit and
rank, which it shares with the card plays; ``silent`` and the tokens start exactly uniform)."""


def widened_network(source_checkpoint: dict, config: dict):
    """The source checkpoint's network carried over to ``config`` of the same game (module docstring)."""
    game = source_checkpoint["game"]
    source = build_network(source_checkpoint)
    target = new_network(game, config, source.hidden, source.features_name)
    derived = source.input_size - source_checkpoint["obs_size"]
    if target.input_size - sum(size for _, size in observation_blocks(game, config)) != derived:
        raise ValueError("the derived features differ between the two configurations")
    target_index, source_index = input_index_map(observation_blocks(game, source_checkpoint["config"]),
                                                 observation_blocks(game, config), derived)
    source_actions, target_actions = source_checkpoint["action_names"], target_action_names(game, config)
    missing = sorted(set(source_actions) - set(target_actions))
    if missing:
        raise ValueError(f"the target's action list lacks the source's actions {missing[:5]}")
    with torch.no_grad():
        state = target.state_dict()
        source_state = source.state_dict()
        state["input_scale"][target_index] = source_state["input_scale"][source_index]
        first = state["torso.0.weight"]
        first.zero_()
        first[:, target_index] = source_state["torso.0.weight"][:, source_index]
        for key in state:
            if key.startswith(("torso.", "value_head.")) and key != "torso.0.weight":
                state[key].copy_(source_state[key])
        for head in ("q_embedding", "policy_embedding"):
            carry_action_rows(state, source_state, head, source_actions, target_actions)
        target.load_state_dict(state)
    return target


def target_action_names(game: str, config: dict) -> list[str]:
    from trick_core.registry import make_env

    env = make_env(game, **config)
    return list(env.unwrapped.action_names)


def carry_action_rows(state, source_state, head: str, source_actions, target_actions) -> None:
    """Copy ``head``'s embedding columns by label; the columns of a new action, and of the kinds in
    ``NEW_ACTION_KINDS`` (the source never took one), stay zero, so all those actions score the bias alone."""
    source_columns = {label: column for column, label in enumerate(action_feature_labels(source_actions))}
    weight, source_weight = state[f"{head}.weight"], source_state[f"{head}.weight"]
    weight.zero_()
    for column, label in enumerate(action_feature_labels(target_actions)):
        kind_is_new = label[0] == "kind" and label[1] in NEW_ACTION_KINDS
        action_is_new = label[0] == "action" and label[1].partition(":")[0] in NEW_ACTION_KINDS
        if label in source_columns and not (kind_is_new or action_is_new):
            weight[:, column] = source_weight[:, source_columns[label]]
    state[f"{head}.bias"].copy_(source_state[f"{head}.bias"])


@dataclass
class Args:
    """Carry a trained network over to another env configuration of its game (module docstring)."""

    checkpoint: str
    """the trained network (a shipped checkpoint or a run's final.pt)"""
    out: str
    """where to write the widened checkpoint"""
    config: list[str] = field(default_factory=list)
    """the target's env options as key=value, e.g. talk=tokens:8"""


def check(args: Args) -> tuple[dict, dict]:
    """The source checkpoint and the target configuration, checked before anything is built (``ValueError``
    naming a missing or foreign checkpoint, a bad option, the source's own configuration, or a target that
    lacks what the source read)."""
    from trick_core.output_paths import check_output_folder

    source_checkpoint = load_checkpoint(args.checkpoint)
    config = {**source_checkpoint["config"], **parse_config(args.config)}
    if config == source_checkpoint["config"]:
        raise ValueError(f"--config {args.config} asks for the source's own configuration {config}")
    target_action_names(source_checkpoint["game"], config)  # the env refuses an unknown option by name
    input_index_map(observation_blocks(source_checkpoint["game"], source_checkpoint["config"]),
                    observation_blocks(source_checkpoint["game"], config), 0)
    check_output_folder(str(Path(args.out).parent), "--out")
    return source_checkpoint, config


def main(args: Args) -> dict:
    source_checkpoint, config = check(args)
    network = widened_network(source_checkpoint, config)
    training = {"args": {"init_from": str(args.checkpoint), "seed": None}, "widened_from": str(args.checkpoint),
                "command": command_line(), "commit": git_commit(), "decisions": 0,
                "wall_seconds": 0.0, "cpu_seconds": 0.0}
    checkpoint = checkpoint_dict(network, game=source_checkpoint["game"], config=config,
                                 action_names=target_action_names(source_checkpoint["game"], config),
                                 head=source_checkpoint["head"], algo="widen",
                                 training=json.loads(json.dumps(training, default=str)))
    path = save_checkpoint(Path(args.out), checkpoint)
    summary = {"out": str(path), "game": source_checkpoint["game"], "config": config,
               "input_size": network.input_size, "num_actions": network.num_actions}
    print(json.dumps(summary))
    return summary


if __name__ == "__main__":
    import tyro

    from trick_core.command_line import checked, command_prog

    main(checked(tyro.cli(Args, prog=command_prog()), check))
