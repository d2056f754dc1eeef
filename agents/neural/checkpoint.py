"""The checkpoint format: one ``torch.save`` file per network, readable with ``weights_only=True``.

A checkpoint is a dict:

| key | meaning |
|---|---|
| ``format`` | ``"german-tricks-neural-1"`` |
| ``game``, ``config`` | the game and its env options (the table the network was trained on) |
| ``obs_size``, ``num_actions``, ``action_names`` | checked against the table before the agent plays |
| ``obs_blocks`` | the observation's ``(name, size)`` blocks the network reads (the kernel's ``observation_layout``) |
| ``carried_from_blocks``, ``added_blocks`` | only in memory, on a checkpoint carried as it loaded (below) |
| ``features`` | the derived features appended to the observation (``agents.neural.derived``: ``cards`` or ``none``) |
| ``hidden`` | the torso's layer widths (``TrickNet``) |
| ``head`` | the head that acts: ``"q"`` (Deep Monte-Carlo) or ``"policy"`` (PPO) |
| ``algo`` | ``dmc``, ``ppo`` or ``warm_start`` |
| ``network`` | the ``TrickNet`` state dict (input scale and action features included) |
| ``training`` | JSON-able: the script's arguments, command line, counters (decisions, updates, seconds), commit |
| ``resume`` | optional: optimizer state, random states, opponent pool; dropped from shipped checkpoints |

``load_checkpoint`` validates the format and raises ``ValueError`` naming what is wrong. A checkpoint saved
before its game's observation gained a block (the Schafkopf games' ``voids``; such a checkpoint has no
``obs_blocks``: its blocks are today's without ``ADDED_BLOCKS``) is carried to today's layout as it loads:
the new block's first-layer weights are zero, so the network plays exactly as it did
(``input_index_map``), and training can learn to read it. Such a checkpoint cannot be resumed (its
optimizer state has the old width: ``training.resume_checkpoint`` says so); ``--init-from`` starts from it.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import torch

from .network import HEADS, NumpyPolicy, TrickNet

FORMAT = "german-tricks-neural-1"
SHIPPED_DIR = Path(__file__).resolve().parent / "checkpoints"
"""Where the shipped checkpoints lie: ``<game>.pt`` and its record ``<game>.json``."""
ADDED_BLOCKS = ("voids",)
"""Observation blocks added after checkpoints were first shipped (a checkpoint without ``obs_blocks`` lacks them)."""
REQUIRED_KEYS = ("format", "game", "config", "obs_size", "num_actions", "action_names", "hidden", "head", "network")


def checkpoint_dict(
    network: TrickNet,
    *,
    game: str,
    config: dict,
    action_names,
    head: str,
    algo: str,
    training: dict,
    resume: dict | None = None,
) -> dict:
    """A checkpoint of ``network`` (weights copied to the CPU)."""
    if head not in HEADS:
        raise ValueError(f"unknown head {head!r}; choose from {HEADS}")
    json.dumps(training)  # must stay readable with weights_only=True: plain JSON values only
    return {
        "format": FORMAT,
        "game": game,
        "config": dict(config),
        "obs_size": network.input_size - (0 if network.encoder is None else network.encoder.size),
        "obs_blocks": [list(block) for block in observation_blocks(game, config)],
        "features": network.features_name,
        "num_actions": network.num_actions,
        "action_names": list(action_names),
        "hidden": list(network.hidden),
        "head": head,
        "algo": algo,
        "network": {key: value.detach().cpu().clone() for key, value in network.state_dict().items()},
        "training": training,
        "resume": resume,
    }


def save_checkpoint(path: str | Path, checkpoint: dict) -> Path:
    """Write ``checkpoint`` atomically (a half-written file never replaces a good one)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    torch.save(checkpoint, partial)
    partial.replace(path)
    return path


def load_checkpoint(path: str | Path) -> dict:
    """Read and validate a checkpoint (``ValueError`` naming a missing file, a foreign file or a missing key)."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no checkpoint at {str(path)!r}")
    try:
        checkpoint = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # torch raises several types for a file that is not a checkpoint
        raise ValueError(f"{str(path)!r} is not a readable checkpoint: {error}") from None
    if not isinstance(checkpoint, dict) or checkpoint.get("format") != FORMAT:
        raise ValueError(f"{str(path)!r} is not a {FORMAT} checkpoint")
    missing = [key for key in REQUIRED_KEYS if key not in checkpoint]
    if missing:
        raise ValueError(f"checkpoint {str(path)!r} lacks {missing}")
    if checkpoint["head"] not in HEADS:
        raise ValueError(f"checkpoint {str(path)!r}: unknown head {checkpoint['head']!r}")
    return carried_to_current_layout(checkpoint, str(path))


def observation_blocks(game: str, config: dict) -> list[tuple[str, int]]:
    """The ``observation`` type's ``(name, size)`` blocks of ``game`` under env ``config`` (options the
    kernel's ``make_params`` does not take, such as Knüffeln's ``match``, do not change the layout)."""
    import inspect

    from trick_core.registry import kernel_module

    kernel = kernel_module(game)
    accepted = inspect.signature(kernel.make_params).parameters
    params = kernel.make_params(**{key: value for key, value in config.items() if key in accepted})
    return [(name, int(size)) for name, size in kernel.observation_layout(params, 0)]


def input_index_map(source_blocks, target_blocks, derived_size: int) -> tuple[np.ndarray, np.ndarray]:
    """``(target_index, source_index)``: the encoded-input entries the two layouts share (every source block
    must exist in the target with its size; ``ValueError`` naming one that does not), derived features last."""
    target_at, at = {}, 0
    for name, size in target_blocks:
        target_at[name] = (at, size)
        at += size
    target_size, source_index, target_index, at = at, [], [], 0
    for name, size in source_blocks:
        if name not in target_at or target_at[name][1] != size:
            raise ValueError(f"the target observation lacks the source's block {name!r} ({size} entries): "
                             "a widened network must read everything its source read")
        target_index += range(target_at[name][0], target_at[name][0] + size)
        source_index += range(at, at + size)
        at += size
    target_index += range(target_size, target_size + derived_size)
    source_index += range(at, at + derived_size)
    return np.asarray(target_index), np.asarray(source_index)


def carried_to_current_layout(checkpoint: dict, where: str = "checkpoint") -> dict:
    """``checkpoint`` reading today's observation layout of its game (module docstring): unchanged when it
    already does; ``ValueError`` when its blocks cannot be matched to today's."""
    current = observation_blocks(checkpoint["game"], checkpoint["config"])
    if "obs_blocks" in checkpoint:
        recorded = [(name, int(size)) for name, size in checkpoint["obs_blocks"]]
    else:
        recorded = [block for block in current if block[0] not in ADDED_BLOCKS]
    if sum(size for _, size in recorded) != checkpoint["obs_size"]:
        raise ValueError(f"{where}: its observation blocks add up to {sum(size for _, size in recorded)} "
                         f"entries, not its obs_size {checkpoint['obs_size']}")
    if recorded == current:
        return {**checkpoint, "obs_blocks": [list(block) for block in current]}
    state = dict(checkpoint["network"])
    derived = state["input_scale"].shape[0] - checkpoint["obs_size"]
    target_index, source_index = input_index_map(recorded, current, derived)
    new_size = sum(size for _, size in current) + derived
    # numpy, not torch: a torch operation here, before a training script sets torch's thread count, would
    # start torch's thread pool at its default size beside numba's (a training run ran 4x slower)
    scale = np.ones(new_size, dtype=np.float32)  # a new block's entries lie in [0, 1]
    scale[target_index] = state["input_scale"].numpy()[source_index]
    weight = state["torso.0.weight"].numpy()
    first = np.zeros((weight.shape[0], new_size), dtype=weight.dtype)
    first[:, target_index] = weight[:, source_index]
    state["input_scale"], state["torso.0.weight"] = torch.from_numpy(scale), torch.from_numpy(first)
    added = [name for name, _ in current if name not in dict(recorded)]
    return {**checkpoint, "network": state, "obs_size": new_size - derived,
            "obs_blocks": [list(block) for block in current],
            "carried_from_blocks": [list(block) for block in recorded], "added_blocks": added}


def build_network(checkpoint: dict) -> TrickNet:
    """The ``TrickNet`` of a checkpoint, weights loaded."""
    from .derived import FeatureEncoder

    state = checkpoint["network"]
    features = checkpoint.get("features", "none")
    encoder = None if features == "none" else FeatureEncoder(checkpoint["game"], checkpoint["config"], features)
    network = TrickNet(state["input_scale"].numpy(), state["action_features"].numpy(), checkpoint["hidden"], encoder)
    network.load_state_dict(state)
    return network


def load_agent_checkpoint(game: str, path: str | None, head: str | None) -> tuple[Path, dict, str]:
    """``(path, checkpoint, head)`` for an agent playing ``game``: the shipped checkpoint when ``path`` is
    None, checked to be trained for ``game``; ``head`` defaults to the checkpoint's acting head."""
    path = Path(path) if path is not None else shipped_checkpoint_path(game)
    checkpoint = load_checkpoint(path)
    if checkpoint["game"] != game:
        raise ValueError(f"checkpoint {str(path)!r} was trained for {checkpoint['game']!r}, not {game!r}")
    head = checkpoint["head"] if head is None else head
    if head not in HEADS:
        raise ValueError(f"unknown head {head!r}; choose from {HEADS}")
    return path, checkpoint, head


def load_agent_policy(game: str, path: str | None, head: str | None) -> tuple[Path, dict, NumpyPolicy]:
    """``(path, checkpoint, policy)``: ``load_agent_checkpoint`` and the numpy policy of its acting head (or
    of ``head``), what the ``neural`` and ``pimc_neural`` agents play with."""
    path, checkpoint, head = load_agent_checkpoint(game, path, head)
    return path, checkpoint, NumpyPolicy(build_network(checkpoint).numpy_weights(), head)


def shipped_checkpoint_path(game: str) -> Path:
    """``agents/neural/checkpoints/<game>.pt`` (``ValueError`` if none is shipped for ``game``)."""
    path = SHIPPED_DIR / f"{game}.pt"
    if not path.is_file():
        shipped = sorted(p.stem for p in SHIPPED_DIR.glob("*.pt"))
        raise ValueError(f"no shipped neural checkpoint for {game!r} (shipped: {shipped}); pass neural[path=...]")
    return path


def git_commit(directory: str | Path | None = None) -> str | None:
    """The commit of the source tree (with ``+dirty`` when it has changes), or None outside git."""
    directory = directory or Path(__file__).resolve().parent
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=directory, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], cwd=directory, capture_output=True, text=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return commit + ("+dirty" if dirty else "")
