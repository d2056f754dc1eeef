"""The plumbing the recipes of ``experiments/`` share: their common command-line options and the start of a
run (options parsed, threads set, everything seeded, the starting network built).

The options are dataclasses that a script's own ``Args`` extends (tyro reads inherited fields and their
docstrings like the script's own), from the most general to the most specific:

- ``GameArgs``: game, env options, seed, runs folder (every recipe of ``agents.neural``'s networks, the
  pipeline included);
- ``OptimiserArgs``: the learning rate, for every recipe that trains with Adam (mixed into ``RunArgs`` and
  ``LibraryArgs``);
- ``RunArgs``: one run's folder, device, torch threads, progress bar, network shape, reward scale and its
  evaluation in the duplicate arena (``experiments/warm_start.py`` and the training scripts);
- ``TrainingArgs``: what ``agents.neural.training.Run`` reads of a training run (budget, checkpoints,
  resume, warm start), the batch env's size and the gradient clipping (``experiments/mcpi.py``, ``ppo.py``, ``dmc.py``);
- ``SelfPlayArgs``: self-play rollouts with an opponent pool and their actors, in this process or on Ray
  (``experiments/ppo.py``, ``dmc.py``; ``experiments/selfplay.py``);
- ``LibraryArgs``: the few options of the third-party library recipes (``*_pettingzoo.py``,
  ``sb3_maskable_ppo.py``, ``ray_selfplay.py``), their policy's width among them;
- ``OneSeatArgs``: those of them that train one seat against fixed opponents (``sb3_maskable_ppo.py``,
  ``tianshou_pettingzoo.py``): the opponents, the learner's seat and the discount.

A script gives an inherited option its own default by declaring it again without a docstring (tyro takes
the help text from the class that documents it), so every option is documented once.

The algorithm itself (acting, credit, the update) stays in each script.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, NamedTuple

import numpy as np
import torch

from agents.config import parse_config
from agents.neural.network import TrickNet
from agents.neural.training import new_network, reward_scale, seed_everything, set_threads, warm_start_network


@dataclass
class GameArgs:
    """The game and its options, the seed, the runs folder."""

    game: str = "bavarian"
    """knuffeln, bavarian, palatinate or asserufen"""
    config: list[str] = field(default_factory=list)
    """env options as key=value, e.g. players=4, talk=lexicon, variant=hattstedt"""
    seed: int = 1
    """seed of the run: the network, the deals, the sampling and exploration"""
    runs_dir: str = "runs"
    """runs are written to runs_dir/{game}__{script}__{seed}__{time}"""


@dataclass
class OptimiserArgs:
    """The optimiser's options."""

    learning_rate: float = 3e-4
    """Adam step size"""


@dataclass
class RunArgs(GameArgs, OptimiserArgs):
    """One run: its folder, device, threads, network shape and the evaluations in the arena."""

    run_dir: str | None = None
    """write here instead of a new folder in runs_dir (a resumed run: by default its checkpoint's folder)"""
    device: str = "cpu"
    """torch device of the learner (and of the in-process actors): cpu or cuda"""
    torch_threads: int = 1
    """torch threads (one is fastest beside numba's on a small machine)"""
    progress: bool = True
    """show a progress bar"""
    hidden: tuple[int, ...] = (256, 256, 256)
    """widths of the torso's layers (a network training starts from keeps its own)"""
    features: str = "cards"
    """derived features appended to the observation: cards or none (agents.neural.derived)"""
    reward_scale: float | None = None
    """returns are divided by this (default: the game's agents.neural.rollout.REWARD_SCALE)"""
    eval_hands: int = 100
    """deals per duplicate evaluation match against eval_opponent (the warm start's final one: 0 skips it)"""
    eval_opponent: str = "rules"
    """the fixed opponent of the evaluations"""
    eval_seed: int = 1000
    """seed of the evaluation deals (the same deals every time)"""


@dataclass
class TrainingArgs(RunArgs):
    """A training run: its budget, the batch env, checkpoints, resume and warm start."""

    env_threads: int = 1
    """numba threads stepping the batch envs"""
    num_envs: int = 2048
    """hands stepped together by the actors"""
    total_decisions: int = 30_000_000
    """stop after this many decisions (all seats, all rows)"""
    max_grad_norm: float = 10.0
    """gradient clipping: the largest norm of all the gradients together"""
    time_limit_minutes: float | None = None
    """stop after this many minutes of wall time (counted over resumes), whichever comes first"""
    cpu_limit_minutes: float | None = None
    """stop after this many minutes of this process's CPU time (counted over resumes): the budget on a
    machine whose cores other work shares"""
    eval_every: int = 2_000_000
    """decisions between duplicate arena evaluations (0: none)"""
    eval_also: list[str] = field(default_factory=list)
    """further opponents matched at every evaluation, on the same deals, e.g. pimc (a match against pimc
    costs about three times one against rules); logged as charts/units_per_hand_vs_<opponent>"""
    save_every: int = 2_000_000
    """decisions between checkpoints (the envs are reseeded there, see experiments/dmc.py)"""
    resume: str | None = None
    """continue the run saved in this checkpoint.pt"""
    init_from: str | None = None
    """start from the network of this checkpoint (e.g. experiments/warm_start.py); fresh optimizer"""


@dataclass
class SelfPlayArgs(TrainingArgs):
    """Self-play: rollouts, the opponent pool and the experience actors."""

    rollout_steps: int = 16
    """batch steps of each actor between updates"""
    opponent_fraction: float = 0.0
    """share of hands in which a frozen past network plays half the seats (opponent pool)"""
    pool_size: int = 8
    """past networks kept in the pool"""
    pool_every: int = 2_000_000
    """decisions between snapshots added to the pool"""
    anchor_share: float = 0.0
    """with --init-from: share of opponent rollouts played by the starting network itself (e.g. the warm
    start's imitation of rules) instead of a past snapshot"""
    actors: int = 0
    """experience actors, each with its own batch env of num_envs hands (0: the learner's process plays)"""
    actor_backend: Literal["local", "ray"] = "ray"
    """with --actors: ray places each actor in a Ray worker; local steps them in this process in turn"""
    ray_address: str | None = None
    """with --actor-backend ray: None starts Ray here; "auto" or an address joins a running cluster"""


@dataclass
class LibraryArgs(OptimiserArgs):
    """The options every third-party library recipe shares."""

    game: str = "bavarian"
    """bavarian, palatinate, asserufen or knuffeln"""
    seed: int = 0
    """seed of the envs and the networks"""
    torch_threads: int = 1
    """torch threads (set in the script: torch's default beside numba on a small machine is 30-70x slower)"""
    hidden: int = 128
    """units of each hidden layer of the recipe's policy (two layers; one in the TorchRL recipe)"""


@dataclass
class OneSeatArgs(LibraryArgs):
    """One learning seat against fixed opponents."""

    opponents: str = "random"
    """the other seats: any agents.make name"""
    seat: str = "random"
    """the learner's seat: 'random' (drawn per hand) or a seat number"""
    gamma: float = 1.0
    """discount (a hand is short and only its result counts)"""

    @property
    def learner_seat(self) -> str | int:
        """``seat`` as the one-seat envs take it: ``"random"`` or the seat's number (``ValueError`` naming
        ``seat`` for anything else; the env checks the number's range)."""
        if self.seat == "random":
            return self.seat
        try:
            return int(self.seat)
        except ValueError:
            raise ValueError(f"seat must be 'random' or a seat number, got {self.seat!r}") from None


class LossLog:
    """Losses of every minibatch of an update (tensors or numbers), logged as their means: ``losses/<name>``."""

    def __init__(self, *names: str) -> None:
        self.values: dict[str, list[float]] = {name: [] for name in names}

    def add(self, **losses) -> None:
        for name, value in losses.items():
            self.values[name].append(value.item() if isinstance(value, torch.Tensor) else float(value))

    def means(self) -> dict[str, float]:
        return {f"losses/{name}": float(np.mean(values)) for name, values in self.values.items()}


class Start(NamedTuple):
    """What every training script starts from."""

    config: dict
    device: torch.device
    rng: np.random.Generator
    scale: float


def begin_run(args: RunArgs, env_threads: int) -> Start:
    """Parse the env options, set the threads, seed python, numpy and torch, and resolve the reward scale,
    in this order (a run's random draws follow it)."""
    config = parse_config(args.config)
    set_threads(args.torch_threads, env_threads)
    rng = seed_everything(args.seed)
    return Start(config, torch.device(args.device), rng, reward_scale(args.game, args.reward_scale))


def starting_network(args: TrainingArgs, config: dict, device: torch.device) -> TrickNet:
    """The network of ``--init-from``, or a fresh one of ``--hidden`` and ``--features``."""
    if args.init_from:
        return warm_start_network(args.init_from, args.game, config).to(device)
    return new_network(args.game, config, args.hidden, args.features).to(device)
