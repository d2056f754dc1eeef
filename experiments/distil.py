"""Expert iteration: a search agent labels the positions the network reaches, the network learns the labels,
and the better network plays the next positions.

    python -m experiments.distil --game bavarian --teacher pimc --iterations 8 --hands-per-iteration 400
    python -m experiments.distil --game bavarian --init-from agents/neural/checkpoints/bavarian.pt
    python -m experiments.distil --game bavarian --resume runs/bavarian__distil__1__.../checkpoint.pt

**Positions and labels** (``experiments/distil_data.py``). Each iteration ``workers`` processes play
``hands_per_iteration`` hands with the current network at every seat (greedy, ``explore`` random decisions;
the first iteration of a fresh network is played by ``first_player``, ``rules``), and the ``teacher``
(``pimc`` or ``pimc_dd``, any ``agents.make`` spec such as ``"pimc[samples=8]"``) labels every decision with
a choice: its own choice and its value of every legal action. The search is the cost: the positions are
played through the PettingZoo env in the workers, where the teacher acts exactly as in the arena (a batch env
would make positions a hundred times faster than the teacher can label them). Each iteration's labels are
saved as ``data/iteration_<k>.npz`` in the run folder, a documented format (``distil_data``'s docstring,
``load_labelled``) that other models can be trained on.

**Fit.** The network (``agents.neural.network.TrickNet``, the ``neural`` agent's) trains on the last
``window`` iterations' labels, ``epochs`` passes per iteration, except a held-out share of hands:

- the policy head: cross-entropy to the teacher's choice (``--policy-target choice``), or to the softmax
  of its action values at ``temperature`` units (``values``: a soft target that says which moves were
  close; a teacher that values nothing cannot give it);
- the value head: the seat's settlement of the hand (``--value-target outcome``), the teacher's value of
  its choice (``search``), or their mean (``mean``); with ``--critic perfect`` a second network that sees
  every seat's cards (the file's ``hands``) learns the settlement, and the value head learns the critic's
  estimate instead of the settlement (the same mean, less noise: the luck of the deal the seat cannot see
  is averaged out); the policy reads the seat's observation only, always;
- the Q head: squared error to the teacher's value of every legal action.

The held-out hands of the newest iteration give the imitation accuracy (agreement with the teacher's
choice where there was one), before and after the fit, and the *regret*: the teacher's value of its best
action minus its value of the network's choice, in units per decision (0 plays like the teacher).

**Evaluation.** Every ``eval_every`` iterations (and at the start of a run from ``--init-from``, and at
the end) the network plays a duplicate arena match of ``eval_hands`` deals against ``eval_opponent``
(``rules``) — the same deals every time (``eval_seed``), every deal at every seating — and against each of
``eval_also`` (e.g. ``pimc``) on the first ``eval_also_hands`` of them. The defaults (500 and 200 deals)
make the interval against ``rules`` about ±0.1 units per hand in Bavarian, narrower than the steps the curve
should show; the cost is about 10 s of one core per 100 deals against ``rules``, three times that against
``pimc``. Logged as ``charts/units_per_hand_vs_<opponent>`` and in ``evaluations.jsonl``
(``experiments/learning_curves.py`` plots them from ``final.pt``).

**Budget and resume.** ``iterations``, ``--time-limit-minutes`` (wall) and ``--cpu-limit-minutes`` (this
process and its finished workers), whichever ends first, counted over resumes; ``checkpoint.pt`` after
every iteration holds the optimizer, the random state and the counters, and a resumed run reads its
labelled files back from ``data/``. ``final.pt`` is the network alone (``neural[path=...]``).

**Measured** (``docs/training.md``, "Distillation"; ``docs/training/distil_bavarian.json``): in Bavarian,
eight iterations from the shipped network with ``pimc`` as the teacher raised the held-out imitation of
the teacher steadily, but not the arena result: the distilled network lost to the shipped one head to head,
so it was not shipped. The defaults of the options (choice targets, outcome values, no critic) are those
that did best in ``experiments.distil_compare``'s measurement there.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np
import torch
import tyro
from torch import nn

from agents import make
from agents.neural.checkpoint import checkpoint_dict, load_checkpoint, save_checkpoint
from agents.neural.critic import PerfectCritic, make_critic
from agents.neural.network import masked_logits
from agents.neural.training import Clock, evaluate, make_progress, run_name, training_record
from experiments.common import RunArgs, begin_run, checked, starting_network
from experiments.distil_data import label_in_workers, load_labelled, save_labelled
from trick_core.bits import derived_seed
from trick_core.registry import make_env

ALGO = "distil"


@dataclass
class Args(RunArgs):
    """Expert iteration: a search agent labels the network's positions, the network learns its labels."""

    teacher: str = "pimc"
    """the search agent whose choices and action values are learned (an agents.make spec: pimc, pimc_dd, ...)"""
    first_player: str = "rules"
    """plays the first iteration's positions of a fresh network (one from --init-from plays its own)"""
    iterations: int = 8
    """label-and-fit iterations (the run also ends at a time or CPU limit)"""
    hands_per_iteration: int = 400
    """hands played and labelled per iteration (all seats' decisions with a choice are labelled)"""
    workers: int = 2
    """processes playing and labelling the hands"""
    explore: float = 0.1
    """probability that a decision with a choice is a uniformly random legal action instead of the network's"""
    window: int = 3
    """the network trains on the labels of this many newest iterations"""
    epochs: int = 2
    """passes over the window per iteration"""
    batch_size: int = 512
    """decisions per gradient step"""
    learning_rate: float = 1e-3
    policy_target: Literal["choice", "values"] = "choice"
    """choice: cross-entropy to the teacher's choice; values: to the softmax of its action values"""
    temperature: float = 0.5
    """with --policy-target values: the softmax's temperature, in units of settlement"""
    value_target: Literal["outcome", "search", "mean"] = "outcome"
    """the value head's target: the hand's settlement, the teacher's value of its choice, or their mean"""
    critic: Literal["none", "perfect"] = "none"
    """perfect: a critic that sees every seat's cards learns the settlement, the value head learns the critic"""
    value_coef: float = 0.5
    """weight of the value head's squared error"""
    q_coef: float = 0.5
    """weight of the Q head's squared error to the teacher's action values"""
    max_grad_norm: float = 10.0
    """gradient clipping: the largest norm of all the gradients together"""
    holdout: float = 0.1
    """share of each iteration's hands never trained on (the held-out accuracy and regret)"""
    eval_every: int = 1
    """iterations between duplicate arena evaluations (0: none)"""
    eval_hands: int = 500
    eval_also: list[str] = field(default_factory=list)
    """further opponents matched at every evaluation, on the first eval_also_hands of the same deals"""
    eval_also_hands: int = 200
    """deals per match against each of eval_also"""
    time_limit_minutes: float | None = None
    """stop after the iteration in which this many wall minutes (counted over resumes) are reached"""
    cpu_limit_minutes: float | None = None
    """stop after the iteration in which this many CPU minutes of this process and its finished workers are
    reached (counted over resumes): the budget on a machine whose cores other work shares"""
    resume: str | None = None
    """continue the run saved in this checkpoint.pt (with the same arguments)"""
    init_from: str | None = None
    """start from the network of this checkpoint (e.g. the shipped agents/neural/checkpoints/<game>.pt)"""

    def check_options(self, config: dict) -> None:
        """distil's own checks, run by ``check_args`` before anything is built: the sizes, the first player,
        and a teacher that values actions where the targets need its values."""
        for name in ("iterations", "hands_per_iteration", "workers", "window", "epochs", "batch_size",
                     "eval_also_hands"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive integer, got {value!r}")
        if not 0.0 <= self.explore <= 1.0:
            raise ValueError(f"explore must lie in [0, 1], got {self.explore!r}")
        if not self.temperature > 0:
            raise ValueError(f"temperature must be positive, got {self.temperature!r}")
        if not 0.0 < self.holdout < 1.0:
            raise ValueError(f"holdout must lie in (0, 1): the held-out hands measure the imitation, got "
                             f"{self.holdout!r}")
        from agents import check_option_agents

        check_option_agents("first_player", [self.first_player], self.game)
        needs_values = self.policy_target == "values" or self.value_target != "outcome"
        if needs_values and not callable(getattr(make(self.teacher, self.game), "action_values", None)):
            raise ValueError(f"--teacher {self.teacher!r} values no actions (no action_values): --policy-target "
                             "values and --value-target search/mean need a search agent such as pimc")


# ---------------------------------------------------------------------------------------------- the critic


def critic_for(network, game: str, config: dict, hidden: tuple[int, ...]) -> PerfectCritic:
    """The perfect-information critic (``agents.neural.critic``) of the game's table and deck."""
    table = make_env(game, **config).unwrapped
    return make_critic(network, table.num_seats, table.deck.num_cards, hidden)


# ---------------------------------------------------------------------------------------------- fit


def held_out_rows(data: dict, iteration: int, seed: int, share: float) -> np.ndarray:
    """bool per decision: its hand is held out (drawn per iteration from the seed, so a resumed run holds out
    the same hands)."""
    hands = int(data["hand"].max()) + 1 if data["hand"].size else 0
    held = np.random.default_rng(derived_seed(seed, iteration, 11)).random(hands) < share
    return held[data["hand"]]


def batch_tensors(network, data: dict, rows: np.ndarray, scale: float, device) -> dict:
    """The columns of ``rows`` as tensors, the observation encoded, the units divided by ``scale``."""
    values = data["values"][rows]
    return {
        "encoded": torch.from_numpy(network.encode(data["observation"][rows])).to(device),
        "legal": torch.from_numpy(data["action_mask"][rows]).to(device),
        "values": torch.from_numpy(values / scale).to(device),
        "teacher_action": torch.from_numpy(data["teacher_action"][rows]).to(device),
        "labelled": torch.from_numpy(data["labelled"][rows]).to(device),
        "outcome": torch.from_numpy(data["outcome"][rows] / scale).to(device),
        "hands": torch.from_numpy(data["hands"][rows]).to(device),
        "scale": scale,
    }


def losses(args: Args, network, critic, batch: dict) -> dict:
    """The heads' losses on one batch (module docstring)."""
    features = network.features(batch["encoded"])
    logits = masked_logits(network.scores(features, "policy"), batch["legal"])
    valued = torch.isfinite(batch["values"])
    has_values = valued.any(1) & batch["labelled"]
    if args.policy_target == "values":
        soft = batch["values"].masked_fill(~valued, -torch.inf) * (batch["scale"] / args.temperature)
        target = torch.softmax(soft[has_values], dim=1)
        log_policy = torch.log_softmax(logits[has_values], dim=1)
        policy = -(target * log_policy.masked_fill(~valued[has_values], 0.0)).sum(1).mean() if has_values.any() \
            else logits.sum() * 0.0
    else:
        chosen = batch["labelled"]
        cross_entropy = nn.functional.cross_entropy(logits, batch["teacher_action"], reduction="none")
        policy = (cross_entropy * chosen).sum() / chosen.sum().clamp(min=1)
    result = {"policy": policy}
    outcome_target = batch["outcome"]
    if critic is not None:
        estimate = critic(batch["encoded"] * network.input_scale, batch["hands"])
        result["critic"] = nn.functional.mse_loss(estimate, batch["outcome"])
        outcome_target = estimate.detach()
    search_value = batch["values"].gather(1, batch["teacher_action"][:, None]).squeeze(1)
    search_value = torch.where(torch.isfinite(search_value), search_value, outcome_target)
    value_target = {"outcome": outcome_target, "search": search_value,
                    "mean": (outcome_target + search_value) / 2}[args.value_target]
    result["value"] = nn.functional.mse_loss(network.value(features), value_target)
    q = network.scores(features, "q")
    squared = (q - torch.nan_to_num(batch["values"])) ** 2
    result["q"] = (squared * valued).sum() / valued.sum().clamp(min=1)
    return result


def fit(args: Args, network, critic, optimizer, window: list[tuple[int, dict]], scale: float,
        rng: np.random.Generator, device) -> dict:
    """``epochs`` passes over the window's training rows; the mean losses of the last pass."""
    data = {key: np.concatenate([part[key] for _, part in window]) for key in window[0][1] if key != "metadata"}
    train = np.concatenate([~held_out_rows(part, k, args.seed, args.holdout) for k, part in window])
    rows = np.flatnonzero(train)
    parameters = list(network.parameters()) + ([] if critic is None else list(critic.parameters()))
    means: dict[str, list[float]] = {}
    for _ in range(args.epochs):
        means = {}
        order = rng.permutation(rows)
        for start in range(0, order.size, args.batch_size):
            batch = batch_tensors(network, data, order[start : start + args.batch_size], scale, device)
            parts = losses(args, network, critic, batch)
            loss = parts["policy"] + args.value_coef * parts["value"] + args.q_coef * parts["q"] + parts.get(
                "critic", 0.0)
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(parameters, args.max_grad_norm)
            optimizer.step()
            for name, value in parts.items():
                means.setdefault(name, []).append(float(value.detach()))
    return {f"loss_{name}": float(np.mean(values)) for name, values in means.items()}


def imitation(network, data: dict, rows: np.ndarray, device) -> dict:
    """On ``rows`` (decisions with a choice among them): how often the network's choice is the teacher's,
    and its regret in units (the teacher's value of its best action minus that of the network's choice)."""
    rows = rows[data["labelled"][rows]]
    if rows.size == 0:
        return {"accuracy": float("nan"), "regret": float("nan"), "decisions": 0}
    with torch.inference_mode():
        encoded = torch.from_numpy(network.encode(data["observation"][rows])).to(device)
        legal = torch.from_numpy(data["action_mask"][rows]).to(device)
        chosen = masked_logits(network(encoded, "policy"), legal).argmax(1).cpu().numpy()
    values = data["values"][rows].astype(np.float64)
    valued = np.isfinite(values).any(1)
    regret = float("nan")
    if valued.any():
        best = np.nanmax(values[valued], axis=1)
        regret = float(np.mean(best - values[valued][np.arange(valued.sum()), chosen[valued]]))
    return {"accuracy": float(np.mean(chosen == data["teacher_action"][rows])), "regret": regret,
            "decisions": int(rows.size)}


# ---------------------------------------------------------------------------------------------- the run


class DistilRun:
    """The bookkeeping of one run: folder, writer, counters, clock, evaluations, checkpoints and resume."""

    def __init__(self, args: Args, config: dict, network, critic, optimizer, rng: np.random.Generator) -> None:
        self.args, self.config, self.network, self.critic, self.optimizer = args, config, network, critic, optimizer
        self.rng = rng
        self.action_names = list(make_env(args.game, **config).unwrapped.action_names)
        self.step = {"decisions": 0, "updates": 0, "segment": 0, "iterations": 0, "labels": 0}
        self.evaluations: list[dict] = []
        self.clock = Clock()
        if args.resume:
            checkpoint = load_checkpoint(args.resume)
            training, resume = checkpoint["training"], checkpoint["resume"]
            network.load_state_dict(checkpoint["network"])
            optimizer.load_state_dict(resume["optimizer"])
            if critic is not None:
                if resume.get("critic") is None:
                    raise ValueError(f"{args.resume!r} was trained without --critic perfect")
                critic.load_state_dict(resume["critic"])
            self.rng = np.random.default_rng()
            self.rng.bit_generator.state = json.loads(resume["rng"])
            self.step = {key: training[key] for key in self.step}
            self.evaluations = training["evaluations"]
            self.clock = Clock(training["wall_seconds"], training["cpu_seconds"])
        self.dir = Path(args.run_dir or (Path(args.resume).parent if args.resume else
                                         Path(args.runs_dir) / run_name(args.game, ALGO, args.seed)))
        self.dir.mkdir(parents=True, exist_ok=True)
        from torch.utils.tensorboard import SummaryWriter

        self.writer = SummaryWriter(str(self.dir))
        self.writer.add_text("args", json.dumps(asdict(args), default=str))

    def done(self) -> bool:
        wall, cpu = self.args.time_limit_minutes, self.args.cpu_limit_minutes
        return (self.step["iterations"] >= self.args.iterations
                or (wall is not None and self.clock.wall >= 60 * wall)
                or (cpu is not None and self.clock.cpu >= 60 * cpu))

    def checkpoint(self, resume: bool) -> dict:
        state = None
        if resume:
            state = {"optimizer": self.optimizer.state_dict(), "rng": json.dumps(self.rng.bit_generator.state),
                     "critic": None if self.critic is None else
                     {key: value.detach().cpu().clone() for key, value in self.critic.state_dict().items()}}
        return checkpoint_dict(self.network, game=self.args.game, config=self.config,
                               action_names=self.action_names, head="policy", algo=ALGO,
                               training=training_record(self.args, ALGO, self.step, self.clock, self.evaluations),
                               resume=state)

    def save_network(self, path: Path) -> Path:
        return save_checkpoint(path, self.checkpoint(resume=False))

    def evaluate(self) -> dict:
        """Duplicate matches of the current network against ``eval_opponent`` and each of ``eval_also``."""
        args = self.args
        path = self.save_network(self.dir / "eval" / f"iteration_{self.step['iterations']}.pt")
        result = {"iteration": self.step["iterations"], "decisions": self.step["decisions"],
                  "wall_seconds": self.clock.wall, "cpu_seconds": self.clock.cpu,
                  **evaluate(path, args.game, self.config, args.eval_opponent, args.eval_hands, args.eval_seed)}
        matches = [result] + [evaluate(path, args.game, self.config, opponent, args.eval_also_hands, args.eval_seed)
                              for opponent in args.eval_also]
        for match in matches:
            name = f"charts/units_per_hand_vs_{match['opponent']}"
            self.writer.add_scalar(name, match["units_per_hand"], self.step["iterations"])
            if match["ci95"][0] is not None:
                self.writer.add_scalar(name + "_ci_low", match["ci95"][0], self.step["iterations"])
                self.writer.add_scalar(name + "_ci_high", match["ci95"][1], self.step["iterations"])
        if args.eval_also:
            result["also"] = matches[1:]
        self.evaluations.append(result)
        with open(self.dir / "evaluations.jsonl", "a", encoding="utf-8") as log:
            log.write(json.dumps(result) + "\n")
        return result


def data_path(run_dir: Path, iteration: int) -> Path:
    return run_dir / "data" / f"iteration_{iteration:03d}.npz"


def main(args: Args) -> dict:
    config, device, rng, scale = begin_run(args, ALGO, env_threads=1)
    network = starting_network(args, config, device)
    critic = critic_for(network, args.game, config, args.hidden).to(device) if args.critic == "perfect" else None
    optimizer = torch.optim.Adam(list(network.parameters()) + ([] if critic is None else list(critic.parameters())),
                                 lr=args.learning_rate)
    run = DistilRun(args, config, network, critic, optimizer, rng)
    player_path = run.dir / "player.pt"
    if args.eval_every and args.init_from and not args.resume:
        run.evaluate()  # the starting point of the curve
    progress = make_progress() if args.progress else None
    if progress:
        task = progress.add_task(f"{args.game} distil", total=args.iterations, completed=run.step["iterations"],
                                 status="")
        progress.start()
    metrics: dict = {}
    while not run.done():
        k = run.step["iterations"]
        fresh = k == 0 and not args.init_from
        player = args.first_player if fresh else f"neural[path={run.save_network(player_path)}]"
        start = time.perf_counter()
        data = label_in_workers(args.game, config, args.teacher, player, args.explore, derived_seed(args.seed, 100 + k),
                                args.hands_per_iteration, args.workers)
        label_seconds = time.perf_counter() - start
        save_labelled(data_path(run.dir, k), data, {
            "game": args.game, "config": config, "teacher": args.teacher, "player": args.first_player if fresh else
            f"neural (iteration {k} of {run.dir.name})", "explore": args.explore, "seed": args.seed, "iteration": k,
            "commit": training_record(args, ALGO, run.step, run.clock, [])["commit"],
            "obs_size": int(data["observation"].shape[1]), "action_names": run.action_names})
        window = [(i, load_labelled(data_path(run.dir, i), args.game, config))
                  for i in range(max(0, k + 1 - args.window), k + 1)]
        newest = window[-1][1]
        test_rows = np.flatnonzero(held_out_rows(newest, k, args.seed, args.holdout))
        before = imitation(network, newest, test_rows, device)
        start = time.perf_counter()
        network.train()
        losses_seen = fit(args, network, critic, optimizer, window, scale, run.rng, device)
        after = imitation(network, newest, test_rows, device)
        run.step["iterations"] += 1
        run.step["updates"] += 1
        run.step["decisions"] += int(data["action"].size)
        run.step["labels"] += int(data["labelled"].sum())
        metrics = {"iteration": k + 1, "decisions": int(data["action"].size), "labels": int(data["labelled"].sum()),
                   "label_seconds": label_seconds, "fit_seconds": time.perf_counter() - start,
                   "held_out_accuracy_before": before["accuracy"], "held_out_accuracy": after["accuracy"],
                   "held_out_regret_before": before["regret"], "held_out_regret": after["regret"],
                   "held_out_decisions": after["decisions"], **losses_seen, **run.clock.state()}
        for name, value in metrics.items():
            if name != "iteration" and np.isfinite(value):
                run.writer.add_scalar(("losses/" if name.startswith("loss") else "charts/") + name, value, k + 1)
        if args.eval_every and ((k + 1) % args.eval_every == 0 or run.done()):
            metrics["evaluation"] = run.evaluate()
        save_checkpoint(run.dir / "checkpoint.pt", run.checkpoint(resume=True))
        if progress:
            progress.update(task, completed=k + 1, status=f"held-out accuracy {after['accuracy']:.3f}")
        else:
            print(json.dumps(metrics))
    if progress:
        progress.stop()
    final = run.save_network(run.dir / "final.pt")
    run.writer.close()
    summary = {"run_dir": str(run.dir), "final": str(final), **run.step, **run.clock.state(), "last": metrics,
               "last_evaluation": run.evaluations[-1] if run.evaluations else None}
    print(json.dumps(summary))
    return summary


if __name__ == "__main__":
    from trick_core.command_line import command_prog

    main(checked(tyro.cli(Args, prog=command_prog()), ALGO))
