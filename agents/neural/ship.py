"""Ship a trained network as a game's ``neural`` agent, with the record that lets anyone reproduce it.

    python -m agents.neural.ship --checkpoint runs/bavarian__ppo__1__1700000000/final.pt --rules-hands 300

writes ``agents/neural/checkpoints/<game>.pt`` (the network alone: no optimizer or opponent pool) and
``<game>.json``: every training stage that led to it (its ``--init-from`` chain, e.g. a warm start then
PPO), each with its exact command, seed, commit, decisions and wall/CPU seconds; the budget summed over
the stages; and the duplicate arena matches of the shipped agent against ``random``, ``rules`` and
``pimc`` with their commands, so that the numbers can be checked.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from pathlib import Path

from trick_core.checks import positive_int

from .checkpoint import SHIPPED_DIR, load_checkpoint, save_checkpoint


@dataclass
class Args:
    """Ship a trained network as a game's neural agent, with the record that reproduces it."""

    checkpoint: str
    """the checkpoint to ship (a run's final.pt, or eval/decisions_N.pt)"""
    out_dir: str = str(SHIPPED_DIR)
    """where to write <game>.pt and <game>.json"""
    random_hands: int = 100
    """deals of the match against random (0: none)"""
    rules_hands: int = 300
    """deals of the match against rules (0: none)"""
    pimc_hands: int = 100
    """deals of the match against pimc (0: none)"""
    seed: int = 2024
    """seed of the matches' deals (not used in training: the evaluations inside training use others)"""
    workers: int = 2
    """processes playing the matches"""
    machine_load: str = ""
    """a note on what else ran on the machine meanwhile (the budget's wall time depends on it)"""
    recipe: str = ""
    """the one command that reproduces the network, where its stages ran other commands (a run resumed to
    more decisions: its RL stage is ``experiments.ppo --resume``); default: the stages' own command"""


def stages(path: str | Path) -> list[dict]:
    """The training stages behind a checkpoint, oldest first, following each stage's ``init_from`` (as far
    as those files still exist). A chain that reaches the network shipped now (a run continued from
    ``agents/neural/checkpoints/<game>.pt``) continues with the stages of its record, whose run folders
    may be gone."""
    chain, seen = [], set()
    current: str | None = str(path)
    while current is not None and current not in seen and Path(current).is_file():
        seen.add(current)
        shipped = shipped_stages(current)
        if shipped is not None:
            return shipped + chain[::-1]
        checkpoint = load_checkpoint(current)
        training = checkpoint.get("training") or {}
        arguments = training.get("args", {})
        chain.append({
            "checkpoint": current,
            "algo": training.get("algo") or checkpoint.get("algo"),
            "command": training.get("command"),
            "seed": arguments.get("seed"),
            "commit": training.get("commit"),
            "decisions": training.get("decisions"),
            "wall_seconds": training.get("wall_seconds"),
            "cpu_seconds": training.get("cpu_seconds"),
            "evaluations": training.get("evaluations") or logged_evaluations(current, training.get("decisions")),
        })
        current = arguments.get("init_from")
    return chain[::-1]


def logged_evaluations(path: str, decisions: int | None) -> list[dict]:
    """The evaluations of a run's evaluated checkpoint (``<run>/eval/decisions_N.pt``, saved before its own
    evaluation was played), from the run's ``evaluations.jsonl``: those up to its decisions."""
    log = Path(path).parent.parent / "evaluations.jsonl"
    if Path(path).parent.name != "eval" or decisions is None or not log.is_file():
        return []
    entries = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [entry for entry in entries if entry.get("decisions", decisions + 1) <= decisions]


def shipped_stages(path: str) -> list[dict] | None:
    """The recorded stages of the shipped network when ``path`` is that network's file (its SHA-256 is the
    one its record names), else None."""
    digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    for record_path in sorted(SHIPPED_DIR.glob("*.json")):
        record = json.loads(record_path.read_text(encoding="utf-8"))
        if record.get("sha256") == digest:
            return list(record["stages"])
    return None


def arena_result(path: Path, game: str, opponent: str, hands: int, seed: int, workers: int) -> dict:
    from ..arena import run_arena

    spec = f"neural[path={path}]"
    start = time.perf_counter()
    summary = run_arena(game, [spec, opponent], hands, seed, workers=workers)
    difference = summary["difference"]
    return {
        "opponent": opponent,
        "command": f"python -m agents.arena --game {game} --agents neural {opponent} --hands {hands} --seed {seed}",
        "deals": hands,
        "neural_units_per_hand": summary["agents"][spec]["mean_units_per_hand"],
        "neural_ci95": summary["agents"][spec]["ci95"],
        "difference_per_hand": difference["first_minus_second"],
        "difference_ci95": difference["ci95"],
        "significant": difference["significant"],
        "neural_ms_per_decision": summary["timing"][spec]["ms_per_decision"],
        "seconds": time.perf_counter() - start,
    }


def check(args: Args) -> dict:
    """The checkpoint to ship, and the options checked before anything is written (``ValueError`` naming the
    first bad one): a shipped agent plays the default rules, and the matches need sensible sizes."""
    checkpoint = load_checkpoint(args.checkpoint)
    if checkpoint["config"]:
        raise ValueError(f"shipped agents play the default rules; this checkpoint has config {checkpoint['config']}")
    for name in ("random_hands", "rules_hands", "pimc_hands", "seed"):
        if getattr(args, name) < 0:
            raise ValueError(f"{name} must be >= 0, got {getattr(args, name)!r}")
    positive_int(args.workers, "workers")
    return checkpoint


def main(args: Args) -> dict:
    """Ship the checkpoint: the network and its record replace ``<game>.pt`` and ``<game>.json`` only once
    every match is played (until then the network is ``<game>.candidate.pt``), so a failure leaves the
    shipped pair as it was."""
    checkpoint = check(args)
    game = checkpoint["game"]
    out_dir = Path(args.out_dir)
    target, candidate = out_dir / f"{game}.pt", out_dir / f"{game}.candidate.pt"
    checkpoint["resume"] = None
    try:
        save_checkpoint(candidate, checkpoint)
        record = shipping_record(args, checkpoint, candidate, target.name)
        candidate.replace(target)
    finally:
        candidate.unlink(missing_ok=True)
    (out_dir / f"{game}.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return record


def shipping_record(args: Args, checkpoint: dict, path: Path, file_name: str) -> dict:
    """``<game>.json``: the training stages behind the checkpoint and the matches of the network at ``path``."""
    game = checkpoint["game"]
    history = stages(args.checkpoint)
    record = {
        "game": game,
        "config": checkpoint["config"],
        "algo": checkpoint["algo"],
        "head": checkpoint["head"],
        "hidden": checkpoint["hidden"],
        "parameters": sum(value.numel() for key, value in checkpoint["network"].items()
                          if key not in ("input_scale", "action_features")),
        "file": file_name,
        "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        "command": [stage["command"] for stage in history],
        **({"recipe": args.recipe} if args.recipe else {}),
        "seed": [stage["seed"] for stage in history],
        "commit": [stage["commit"] for stage in history],
        "stages": history,
        "wall_seconds": sum(stage["wall_seconds"] or 0.0 for stage in history),
        "cpu_seconds": sum(stage["cpu_seconds"] or 0.0 for stage in history),
        "machine_load": args.machine_load,
        "evaluation": [],
    }
    for opponent, hands in (("random", args.random_hands), ("rules", args.rules_hands), ("pimc", args.pimc_hands)):
        if hands:
            record["evaluation"].append(arena_result(path, game, opponent, hands, args.seed, args.workers))
            print(json.dumps(record["evaluation"][-1]), flush=True)
    return record


if __name__ == "__main__":
    import tyro

    from trick_core.command_line import checked, command_prog

    main(checked(tyro.cli(Args, prog=command_prog()), check))
