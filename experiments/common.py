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

import math
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

import numpy as np
import torch

from agents import check_option_agents
from agents.config import parse_config
from agents.neural.derived import FEATURE_SETS
from agents.neural.network import TrickNet
from agents.neural.training import (
    new_network,
    resume_checkpoint,
    reward_scale,
    seed_everything,
    set_threads,
    starting_checkpoint,
    warm_start_network,
)
from trick_core import command_line
from trick_core.checks import check_seed
from trick_core.output_paths import check_output_folder
from trick_core.registry import make_env


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
    """returns are divided by this (default: the game's reward scale for --config, GameSpec.reward_scale_for)"""
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
    symmetry: str = "none"
    """tokens: Other-Play for Knüffeln's token talk, each seat reading and saying the tokens under its own
    random relabelling per hand (agents.neural.symmetry; needs talk=tokens:N and --actors 0)"""


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


POSITIVE_COUNTS = ("num_envs", "rollout_steps", "total_decisions", "torch_threads", "env_threads", "minibatch_size",
                   "batch_size", "update_epochs", "epochs", "decisions", "workers", "probes_per_iteration",
                   "rollout_envs", "teacher_decisions", "warm_epochs",
                   # the library recipes (LibraryArgs)
                   "num_actors", "iterations", "steps", "total_timesteps", "n_steps", "n_epochs", "numba_threads",
                   "epoch_num_steps", "num_train_envs", "num_test_envs", "test_episodes", "buffer_size", "episodes",
                   "episodes_per_update", "train_batch_size")
COUNTS = ("eval_every", "eval_hands", "save_every", "pool_size", "pool_every", "actors", "epsilon_decay_decisions",
          "policy_warmup_decisions", "policy_warmup_probes", "target_update_freq")
SHARES = ("opponent_fraction", "anchor_share", "explore", "epsilon", "epsilon_start", "epsilon_end", "probe_rate",
          "gae_lambda", "gamma", "eps_train")
POSITIVE_NUMBERS = ("learning_rate", "max_grad_norm", "clip_coef", "reward_scale", "budget_cpu_minutes")
NUMBERS = ("time_limit_minutes", "cpu_limit_minutes", "budget_wall_minutes", "ent_coef", "vf_coef", "value_coef",
           "q_coef", "kl_coef", "max_minutes", "signal_coef")
"""The options checked by ``check_args`` wherever a script has them: counts (positive, or zero or more),
shares in [0, 1], and numbers (positive, or zero or more; None where an option allows it). ``hidden`` (a width,
or a tuple of widths) and a one-seat recipe's ``seat`` are checked beside them."""


def check_args(args, algo: str | None = None, *, warm_started: bool = False) -> None:
    """Every option of a run checked before anything is built, played or written: ``ValueError`` naming the
    first bad one (a size below one, an unknown game, env option, agent or device, a missing checkpoint, a
    checkpoint of another game, configuration or run), then the script's own (its ``Args.check_options(config)``,
    where it has one). ``algo`` is the script's, for ``--resume``;
    ``warm_started``: the run will be given its ``--init-from`` (the pipeline's RL stage)."""
    config = parse_config(getattr(args, "config", []))  # the library recipes have no env options
    table = make_env(args.game, **config)  # the game and its options
    check_seed(args.seed, args.game)
    for name in POSITIVE_COUNTS + COUNTS:
        value = getattr(args, name, 1)
        if isinstance(value, bool) or not isinstance(value, int) or value < (1 if name in POSITIVE_COUNTS else 0):
            least = "a positive" if name in POSITIVE_COUNTS else "a non-negative"
            raise ValueError(f"{name} must be {least} integer, got {value!r}")
    for name in SHARES + POSITIVE_NUMBERS + NUMBERS:
        value = getattr(args, name, None)
        low, high = (0.0, 1.0) if name in SHARES else (0.0, math.inf)
        if value is not None and not (low <= value <= high and (value > 0 or name not in POSITIVE_NUMBERS)):
            kind = "lie in [0, 1]" if name in SHARES else "be positive" if name in POSITIVE_NUMBERS else "be >= 0"
            raise ValueError(f"{name} must {kind}, got {value!r}")
    widths = getattr(args, "hidden", ())
    if any(isinstance(width, bool) or not isinstance(width, int) or width < 1
           for width in (widths if isinstance(widths, (tuple, list)) else (widths,))):
        what = "widths must be positive integers" if isinstance(widths, (tuple, list)) else "must be a positive integer"
        raise ValueError(f"hidden {what}, got {widths!r}")
    if hasattr(args, "learner_seat"):  # OneSeatArgs: 'random' or a seat of the table
        from trick_gym.one_seat import check_seat

        check_seat(args.learner_seat, table.unwrapped.num_seats)
    if getattr(args, "anchor_share", 0.0) > 0 and not (args.init_from or args.resume or warm_started) or (
            getattr(args, "anchor_share", 0.0) > 0 and args.opponent_fraction == 0):
        raise ValueError("anchor_share is the share of opponent rollouts played by the network of --init-from: it "
                         "needs --init-from and a positive opponent_fraction (else it would do nothing)")
    check_symmetry(args, config)
    if getattr(args, "probe_rate", 1.0) == 0.0:
        raise ValueError("probe_rate must be positive: at 0 no position is ever probed and the run never ends")
    if not 0.0 <= getattr(args, "holdout", 0.0) < 1.0:
        raise ValueError(f"holdout must lie in [0, 1), got {args.holdout!r}")
    if getattr(args, "features", "none") not in FEATURE_SETS:
        raise ValueError(f"unknown feature set {args.features!r}; choose from {FEATURE_SETS}")
    device = getattr(args, "device", "cpu")
    try:
        kind = torch.device(device).type
    except RuntimeError:
        raise ValueError(f"unknown device {device!r}; e.g. cpu, cuda or cuda:1") from None
    if kind == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"device {device!r}: torch sees no CUDA device here")
    for option in ("runs_dir", "run_dir"):  # where checkpoints and logs go, checked before training
        if getattr(args, option, None):
            check_output_folder(getattr(args, option), f"--{option.replace('_', '-')}")
    check_agents(args)
    check_ray_options(args)
    if getattr(args, "init_from", None):
        starting_checkpoint(args.init_from, args.game, config)
    if getattr(args, "resume", None):
        resume_checkpoint(args.resume, args.game, config, algo, args.seed)
    if callable(getattr(args, "check_options", None)):
        args.check_options(config)  # the script's own checks (e.g. warm_start's teacher data)


def check_symmetry(args, config: dict) -> None:
    """``--symmetry``: one of ``SYMMETRIES``; ``tokens`` on Knüffeln's token talk, in the learner's process."""
    from agents.neural.symmetry import SYMMETRIES

    symmetry = getattr(args, "symmetry", "none")
    if symmetry not in SYMMETRIES:
        raise ValueError(f"unknown symmetry {symmetry!r}; choose from {SYMMETRIES}")
    if symmetry == "tokens":
        if args.game != "knuffeln" or not str(config.get("talk", "off")).startswith("tokens:"):
            raise ValueError(f"--symmetry tokens relabels Knüffeln's talk tokens: it needs --game knuffeln "
                             f"--config talk=tokens:N, not {args.game} {config}")
        if args.actors:
            raise ValueError("--symmetry tokens wraps the learner's own env: it needs --actors 0")


def check_ray_options(args) -> None:
    """Ray is installed where the options ask for it: experience actors on Ray (``--actors N
    --actor-backend ray``, the self-play scripts) or the Ray backend of ``experiments.ray_selfplay``."""
    from agents.ray_arena import check_ray_installed

    if getattr(args, "actors", 0) > 0 and getattr(args, "actor_backend", "local") == "ray":
        check_ray_installed("--actors with --actor-backend ray")
    if getattr(args, "backend", "local") == "ray":
        check_ray_installed("--backend ray")


def check_agents(args) -> None:
    """The agents a run will meet exist for its game: the teacher, a one-seat recipe's opponents, and the
    evaluation opponents when it evaluates (their deals need at least one hand); a bad one is named with its
    option."""
    options = {"teacher": [args.teacher]} if hasattr(args, "teacher") else {}
    if hasattr(args, "opponents"):  # OneSeatArgs: the fixed opponents
        options["opponents"] = [args.opponents]
    evaluates = getattr(args, "eval_every", getattr(args, "eval_hands", 0)) > 0
    if evaluates and hasattr(args, "eval_opponent"):
        if args.eval_hands < 1:
            raise ValueError(f"eval_hands must be positive when the run evaluates (eval_every {args.eval_every}); "
                             "--eval-every 0 turns the evaluations off")
        check_seed(args.eval_seed, args.game)
        options["eval_opponent"] = [args.eval_opponent]
        options["eval_also"] = getattr(args, "eval_also", [])
    for option, names in options.items():
        check_option_agents(option, names, args.game)


def checked(args, algo: str | None = None, check=None):
    """``args`` from a script's command line, checked (``check(args)``, by default ``check_args``): a bad option
    ends the process with one line naming it (``trick_core.command_line.checked``)."""
    return command_line.checked(args, check or (lambda options: check_args(options, algo)))


def begin_run(args: RunArgs, algo: str, env_threads: int) -> Start:
    """Check the options (``check_args``), parse the env options, set the threads, seed python, numpy and
    torch, and resolve the reward scale, in this order (a run's random draws follow it)."""
    check_args(args, algo)
    config = parse_config(args.config)
    set_threads(args.torch_threads, env_threads)
    rng = seed_everything(args.seed)
    return Start(config, torch.device(args.device), rng, reward_scale(args.game, config, args.reward_scale))


def starting_network(args: TrainingArgs, config: dict, device: torch.device) -> TrickNet:
    """The network of ``--init-from``, or a fresh one of ``--hidden`` and ``--features``."""
    if args.init_from:
        return warm_start_network(args.init_from, args.game, config).to(device)
    return new_network(args.game, config, args.hidden, args.features).to(device)
