"""What the training scripts of ``experiments/`` share: run folders and logging, seeding, the clock and the
budget, checkpoints with resume state, the opponent pool, and evaluation in the duplicate arena.

The algorithms themselves (``experiments/dmc.py``, ``experiments/ppo.py``) stay one readable file each;
this module holds the bookkeeping around them.
"""

from __future__ import annotations

import json
import os
import random
import shlex
import sys
import time
from dataclasses import asdict
from pathlib import Path

import numpy as np
import torch

from trick_core.bits import derived_seed
from trick_core.registry import game_spec
from trick_core.worker_pool import worker_cpu_seconds

from .checkpoint import build_network, checkpoint_dict, git_commit, load_checkpoint, save_checkpoint
from .derived import FeatureEncoder
from .features import action_features, observation_scale
from .network import TrickNet
from .rollout import make_batch_env

SCALE_ENVS, SCALE_STEPS, SCALE_SEED = 128, 250, 12345
"""The random hands on which a fresh network's ``input_scale`` is measured (fixed: the scale is part of
the network and must not depend on the training seed's luck)."""


def set_threads(torch_threads: int, env_threads: int) -> None:
    """Threads for torch and for numba's batch loops (on a small machine, one each: several torch threads
    beside numba's slowed both down by an order of magnitude in our measurements)."""
    torch.set_num_threads(torch_threads)
    import numba

    numba.set_num_threads(min(env_threads, numba.config.NUMBA_NUM_THREADS))


def seed_everything(seed: int) -> np.random.Generator:
    """Seed python, numpy and torch; return the numpy generator the script draws from."""
    random.seed(seed)
    np.random.seed(seed % 2**32)
    torch.manual_seed(seed)
    return np.random.default_rng(seed)


def run_name(game: str, algo: str, seed: int) -> str:
    return f"{game}__{algo}__{seed}__{int(time.time())}"


def command_line() -> str:
    """This process's command, as run from the repository root: a script of the repository is written as
    ``python -m package.module`` (how ``-m`` was called; ``sys.argv[0]`` then holds its absolute path)."""
    script, root = Path(sys.argv[0]).resolve(), Path(__file__).resolve().parents[2]
    head = [script.name]
    if script.suffix == ".py" and script.is_relative_to(root):
        head = ["-m", ".".join(script.relative_to(root).with_suffix("").parts)]
    return " ".join(shlex.quote(part) for part in ["python", *head, *sys.argv[1:]])


def new_network(game: str, config: dict, hidden, features: str = "cards") -> TrickNet:
    """A fresh ``TrickNet`` for ``game``: the derived ``features`` (``agents.neural.derived``), the input
    scale measured on random hands, the action features from the action names."""
    env = make_batch_env(game, SCALE_ENVS, seed=SCALE_SEED, num_threads=1, **config)
    encoder = None if features == "none" else FeatureEncoder(game, config, features)
    scale = observation_scale(env, SCALE_STEPS, encoder)
    return TrickNet(scale, action_features(env.action_names), hidden, encoder)


def starting_checkpoint(path: str, game: str, config: dict) -> dict:
    """The checkpoint a run starts from (``--init-from``), checked to fit ``game`` and ``config``."""
    checkpoint = load_checkpoint(path)
    if checkpoint["game"] != game or checkpoint["config"] != config:
        raise ValueError(
            f"{path!r} was trained on {checkpoint['game']} {checkpoint['config']}, not {game} {config}"
        )
    return checkpoint


def warm_start_network(path: str, game: str, config: dict) -> TrickNet:
    """The network of a checkpoint, checked to fit ``game`` and ``config``."""
    return build_network(starting_checkpoint(path, game, config))


def reward_scale(game: str, config: dict, override: float | None) -> float:
    """``override``, or the reward scale of ``game`` under the env config ``config`` (its spec's
    ``reward_scale_for``: Bavarian's depends on the tariff); positive. A bad option raises the env's error."""
    scale = game_spec(game).reward_scale_for(config) if override is None else float(override)
    if scale <= 0:
        raise ValueError(f"reward_scale must be positive, got {scale}")
    return scale


def cpu_seconds() -> float:
    """CPU seconds of this process (all its threads) and of the finished jobs of its worker processes (the
    warm start's teacher games, an evaluation's arena workers: ``trick_core.worker_pool``, which counts them
    whatever starts the workers; a fork server's are not this process's children)."""
    times = os.times()
    return times.user + times.system + worker_cpu_seconds()


class Clock:
    """Wall-clock and CPU seconds of a run, carried over a resume."""

    def __init__(self, wall: float = 0.0, cpu: float = 0.0) -> None:
        self._wall0, self._cpu0 = wall, cpu
        self._start_wall, self._start_cpu = time.perf_counter(), cpu_seconds()

    @property
    def wall(self) -> float:
        return self._wall0 + time.perf_counter() - self._start_wall

    @property
    def cpu(self) -> float:
        return self._cpu0 + cpu_seconds() - self._start_cpu

    def state(self) -> dict:
        return {"wall_seconds": self.wall, "cpu_seconds": self.cpu}


class OpponentPool:
    """Frozen networks for the opponent rows of a rollout: past snapshots of the learner (newest last, at
    most ``size``) and optionally an *anchor*, the network training started from (a warm start's
    imitation of its teacher), drawn with probability ``anchor_share`` so that the learner keeps
    meeting its teacher's style of play."""

    def __init__(self, size: int, anchor_share: float = 0.0) -> None:
        if not 0.0 <= anchor_share <= 1.0:
            raise ValueError(f"anchor_share must lie in [0, 1], got {anchor_share!r}")
        self.size = size
        self.anchor_share = anchor_share
        self.snapshots: list[dict] = []
        self.anchor: dict | None = None

    @staticmethod
    def _frozen(network: TrickNet) -> dict:
        return {k: v.detach().cpu().clone() for k, v in network.state_dict().items()}

    def add(self, network: TrickNet) -> None:
        if self.size <= 0:
            return
        self.snapshots.append(self._frozen(network))
        del self.snapshots[: -self.size]

    def set_anchor(self, network: TrickNet) -> None:
        self.anchor = self._frozen(network)

    def load_random(self, into: TrickNet, rng: np.random.Generator) -> bool:
        """Load the anchor (with probability ``anchor_share``) or a uniformly drawn snapshot into ``into``;
        False when there is nothing to load."""
        use_anchor = self.anchor is not None and (not self.snapshots or rng.random() < self.anchor_share)
        if use_anchor:
            into.load_state_dict(self.anchor)
            return True
        if not self.snapshots:
            return False
        into.load_state_dict(self.snapshots[int(rng.integers(len(self.snapshots)))])
        return True

    def state(self) -> dict:
        return {"snapshots": self.snapshots, "anchor": self.anchor}

    def load_state(self, state: dict) -> None:
        self.snapshots = list(state["snapshots"])
        self.anchor = state["anchor"]


def training_record(args, algo: str, step: dict, clock: Clock, evaluations: list[dict]) -> dict:
    """The JSON-able ``training`` entry of a checkpoint."""
    return {
        "algo": algo,
        "args": json.loads(json.dumps(asdict(args), default=str)),
        "command": command_line(),
        "commit": git_commit(),
        **step,
        **clock.state(),
        "evaluations": evaluations,
    }


def save_training_checkpoint(
    path: Path, network: TrickNet, args, *, algo: str, head: str, action_names, config: dict, step: dict,
    clock: Clock, evaluations: list[dict], optimizer, rng: np.random.Generator, pool: OpponentPool,
) -> Path:
    """A checkpoint with everything a resume needs (optimizer, random state, opponent pool)."""
    resume = {
        "optimizer": optimizer.state_dict(),
        "rng": json.dumps(rng.bit_generator.state),
        "pool": pool.state(),
    }
    checkpoint = checkpoint_dict(
        network, game=args.game, config=config, action_names=action_names, head=head, algo=algo,
        training=training_record(args, algo, step, clock, evaluations), resume=resume,
    )
    return save_checkpoint(path, checkpoint)


def resume_checkpoint(path: str, game: str, config: dict, algo: str, seed: int) -> dict:
    """The checkpoint a run resumes from, checked to hold resume state of a run of the same game, config,
    algorithm and seed (the seed draws every segment's deals: another one would not continue the run)."""
    checkpoint = load_checkpoint(path)
    if checkpoint.get("resume") is None:
        raise ValueError(f"{path!r} has no resume state (a shipped checkpoint?); resume from a run's checkpoint")
    if (checkpoint["game"], checkpoint["config"], checkpoint["algo"]) != (game, config, algo):
        raise ValueError(
            f"{path!r} is a {checkpoint['algo']} run on {checkpoint['game']} {checkpoint['config']}, "
            f"not {algo} on {game} {config}"
        )
    saved_seed = (checkpoint.get("training") or {}).get("args", {}).get("seed", seed)
    if saved_seed != seed:
        raise ValueError(f"{path!r} is a run of seed {saved_seed}, not {seed}: a resumed run takes the arguments "
                         "of the run it continues")
    if checkpoint.get("carried_from_blocks") is not None:
        raise ValueError(f"{path!r} was saved before the observation gained {checkpoint['added_blocks']}: its "
                         "optimizer state does not fit the wider network; start a new run with --init-from it")
    return checkpoint


def restore(path: str, network: TrickNet, optimizer, pool: OpponentPool, game: str, config: dict, algo: str,
            seed: int):
    """Load a training checkpoint of the same game, config, algorithm and seed into ``network``, ``optimizer``
    and ``pool``; return ``(training, rng)``."""
    checkpoint = resume_checkpoint(path, game, config, algo, seed)
    if tuple(checkpoint["hidden"]) != network.hidden:
        raise ValueError(f"{path!r} has hidden layers {checkpoint['hidden']}, the arguments ask {list(network.hidden)}")
    network.load_state_dict(checkpoint["network"])
    optimizer.load_state_dict(checkpoint["resume"]["optimizer"])
    pool.load_state(checkpoint["resume"]["pool"])
    rng = np.random.default_rng()
    rng.bit_generator.state = json.loads(checkpoint["resume"]["rng"])
    return checkpoint["training"], rng


def evaluate(checkpoint_path: Path, game: str, config: dict, opponent: str, hands: int, seed: int) -> dict:
    """A duplicate arena match of the checkpoint against ``opponent``: the neural agent's units per hand
    (its ``mean_units_per_hand`` and 95% interval; the difference of the two agents is twice that)."""
    from ..arena import run_arena

    spec = f"neural[path={checkpoint_path}]"
    start = time.perf_counter()
    summary = run_arena(game, [spec, opponent], hands, seed, config=config or None)
    row = summary["agents"][spec]
    return {
        "opponent": opponent,
        "hands": hands,
        "seed": seed,
        "units_per_hand": row["mean_units_per_hand"],
        "ci95": row["ci95"],
        "difference": summary["difference"]["first_minus_second"],
        "difference_ci95": summary["difference"]["ci95"],
        "significant": summary["difference"]["significant"],
        "seconds": time.perf_counter() - start,
    }


class Run:
    """The bookkeeping of one training run around an algorithm's loop: the run folder and TensorBoard
    writer, restoring ``--resume``, counters, the budget, checkpoints, evaluations and the progress bar.

    Decisions are counted over all rows and seats. Every ``save_every`` decisions a new *segment* begins:
    the script reseeds its batch env with ``env_seed()`` (abandoning the hands in progress) and the run
    saves ``checkpoint.pt``; a resumed run starts from that state, so it continues exactly as the
    uninterrupted run does."""

    def __init__(self, args, *, algo: str, head: str, config: dict, network: TrickNet, optimizer, pool: OpponentPool,
                 rng: np.random.Generator, action_names, counters: tuple[str, ...] = ()) -> None:
        self.args, self.algo, self.head, self.config = args, algo, head, config
        self.network, self.optimizer, self.pool, self.rng = network, optimizer, pool, rng
        self.action_names = list(action_names)
        self.step = {"decisions": 0, "updates": 0, "segment": 0, **{name: 0 for name in counters}}
        self.evaluations: list[dict] = []
        self.clock = Clock()
        if args.resume:
            training, self.rng = restore(args.resume, network, optimizer, pool, args.game, config, algo,
                                                args.seed)
            self.step = {key: training[key] for key in self.step}
            self.evaluations = training["evaluations"]
            self.clock = Clock(training["wall_seconds"], training["cpu_seconds"])
        if args.run_dir:
            self.dir = Path(args.run_dir)
        elif args.resume:
            self.dir = Path(args.resume).parent
        else:
            self.dir = Path(args.runs_dir) / run_name(args.game, algo, args.seed)
        self.dir.mkdir(parents=True, exist_ok=True)
        from torch.utils.tensorboard import SummaryWriter

        self.writer = SummaryWriter(str(self.dir))
        self.writer.add_text("args", json.dumps(asdict(args), default=str))
        self.writer.add_text("command", command_line())
        self._progress = None
        self._last_log = 0.0
        self.status = ""
        self.metrics: dict = {}
        self._segment_just_began = True

    @property
    def decisions(self) -> int:
        return self.step["decisions"]

    def env_seed(self) -> int:
        """The batch env's seed for the current segment."""
        return derived_seed(self.args.seed, self.step["segment"])

    def done(self) -> bool:
        """Out of budget: decisions, wall minutes or CPU minutes (each counted over resumes)."""
        wall, cpu = self.args.time_limit_minutes, getattr(self.args, "cpu_limit_minutes", None)
        return (
            self.decisions >= self.args.total_decisions
            or (wall is not None and self.clock.wall >= 60 * wall)
            or (cpu is not None and self.clock.cpu >= 60 * cpu)
        )

    def advance(self, decisions: int) -> tuple[bool, bool]:
        """Count one iteration of ``decisions``; evaluate and snapshot into the pool where due. Returns
        ``(new_segment, opponent_snapshot)``: whether the script must reseed its env now (then call
        ``save()``), and whether a snapshot joined the pool."""
        before = self.decisions
        self.step["decisions"] += decisions
        self.step["updates"] += 1
        # pool_every is a self-play option (SelfPlayArgs): read only where the pool keeps snapshots
        snapshot = self.pool.size > 0 and crossed(before, self.decisions, self.args.pool_every)
        if snapshot:
            self.pool.add(self.network)
        if self.args.eval_every and crossed(before, self.decisions, self.args.eval_every):
            self.evaluate()
        new_segment = crossed(before, self.decisions, self.args.save_every)
        if new_segment:
            self.step["segment"] += 1
        self._segment_just_began = new_segment
        if self._progress is not None:
            self._progress.update(self._task, completed=min(self.decisions, self.args.total_decisions),
                                  status=self.status)
        return new_segment, snapshot

    def log(self, metrics: dict, force: bool = False) -> bool:
        """Write scalars (at most every 10 s unless ``force``); returns whether it wrote."""
        self.metrics = dict(metrics)
        if not force and time.perf_counter() - self._last_log < 10:
            return False
        self._last_log = time.perf_counter()
        for key, value in metrics.items():
            self.writer.add_scalar(key, value, self.decisions)
        self.writer.add_scalar("charts/SPS", self.decisions / max(self.clock.wall, 1e-9), self.decisions)
        return True

    def show(self, status: str) -> None:
        """The progress bar's status: ``status`` and the last evaluation's units per hand."""
        last = self.evaluations[-1]["units_per_hand"] if self.evaluations else None
        self.status = status + ("" if last is None else f" vs {self.args.eval_opponent} {last:+.2f}/hand")

    def save(self) -> Path:
        """``checkpoint.pt``: the network with the resume state."""
        return save_training_checkpoint(
            self.dir / "checkpoint.pt", self.network, self.args, algo=self.algo, head=self.head,
            action_names=self.action_names, config=self.config, step=self.step, clock=self.clock,
            evaluations=self.evaluations, optimizer=self.optimizer, rng=self.rng, pool=self.pool,
        )

    def save_network(self, path: Path, evaluations: list[dict] | None = None) -> Path:
        """The network alone (no resume state): what ``neural[path=...]`` plays."""
        return save_checkpoint(path, checkpoint_dict(
            self.network, game=self.args.game, config=self.config, action_names=self.action_names,
            head=self.head, algo=self.algo,
            training=training_record(self.args, self.algo, self.step, self.clock, evaluations or []),
        ))

    def evaluate(self) -> dict:
        """A duplicate arena match of the current network against ``eval_opponent``, logged."""
        args = self.args
        path = self.save_network(self.dir / "eval" / f"decisions_{self.decisions}.pt")
        result = {"decisions": self.decisions, "wall_seconds": self.clock.wall,
                  **evaluate(path, args.game, self.config, args.eval_opponent, args.eval_hands, args.eval_seed)}
        self._log_evaluation(result)
        also = [evaluate(path, args.game, self.config, opponent, args.eval_hands, args.eval_seed)
                for opponent in args.eval_also]
        for match in also:
            self._log_evaluation(match)
        if also:
            result["also"] = also
        self.evaluations.append(result)
        with open(self.dir / "evaluations.jsonl", "a", encoding="utf-8") as log:
            log.write(json.dumps(result) + "\n")
        return result

    def _log_evaluation(self, match: dict) -> None:
        """``charts/units_per_hand_vs_<opponent>`` (and its interval) at the current decision count."""
        name = f"charts/units_per_hand_vs_{match['opponent']}"
        self.writer.add_scalar(name, match["units_per_hand"], self.decisions)
        low, high = match["ci95"]
        if low is not None:
            self.writer.add_scalar(name + "_ci_low", low, self.decisions)
            self.writer.add_scalar(name + "_ci_high", high, self.decisions)

    def __enter__(self) -> Run:
        if self.args.progress:
            self._progress = make_progress()
            self._task = self._progress.add_task(f"{self.args.game} {self.algo}", total=self.args.total_decisions,
                                                 completed=self.decisions, status="")
            self._progress.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None

    def finish(self) -> dict:
        """Final evaluation (unless the last one was at this point), ``checkpoint.pt`` and ``final.pt``; returns
        a summary (also printed as JSON)."""
        if self.metrics:
            self.log(self.metrics, force=True)
        if not self._segment_just_began:
            self.step["segment"] += 1  # a resumed run deals fresh hands rather than this segment's again
        if self.args.eval_every and (not self.evaluations or self.evaluations[-1]["decisions"] != self.decisions):
            self.evaluate()
        self.save()
        final = self.save_network(self.dir / "final.pt", self.evaluations)
        self.writer.close()
        summary = {"run_dir": str(self.dir), "final": str(final), **self.step, **self.clock.state(),
                   "metrics": self.metrics, "last_evaluation": self.evaluations[-1] if self.evaluations else None}
        print(json.dumps(summary))
        return summary


def crossed(before: int, after: int, every: int) -> bool:
    """Whether a multiple of ``every`` lies in ``(before, after]``."""
    return every > 0 and after // every > before // every


def make_progress():
    """The scripts' progress bar (rich)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    return Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("decisions"),
        TimeElapsedColumn(), TextColumn("{task.fields[status]}"), transient=False,
    )
