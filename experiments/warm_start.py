"""Warm start by behaviour cloning: a teacher agent's decisions, then a network that imitates them and
estimates the returns they lead to. Its checkpoint starts ``experiments/ppo.py`` or ``experiments/dmc.py``
(``--init-from``) near the teacher's strength instead of at random play.

    python -m experiments.warm_start --game bavarian --teacher rules --decisions 1_000_000
    python -m experiments.ppo --game bavarian --init-from runs/bavarian__warm_start__1__.../final.pt

**Teacher data.** ``workers`` processes play whole hands through the game's PettingZoo env, every seat
the ``teacher`` (any ``agents.make`` name, default ``rules``), each decision replaced with probability
``explore`` by a uniformly random legal action so that the returns of other actions are seen too. Each
decision is kept with the seat's observation, action mask, action, whether the teacher chose it, and the
seat's settlement of the hand (the Monte-Carlo return). The data are saved as ``teacher_data.npz`` in the
run folder (``--data`` reuses such a file instead of playing). The teacher plays at a few thousand
decisions per second per process: count this time in a training budget (the run's JSON line reports it).

**Fit.** One network, three heads trained together on the data (``agents.neural.network``): the policy
head by cross-entropy on the teacher's own choices, the value head and the Q head (at the action taken)
by squared error on the scaled returns. A held-out share of hands reports the imitation accuracy.
"""

from __future__ import annotations

import json
import time
import zipfile
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch
import tyro

from agents import make
from agents.neural.checkpoint import checkpoint_dict, save_checkpoint
from agents.neural.network import masked_logits
from agents.neural.training import (
    Clock,
    evaluate,
    make_progress,
    new_network,
    run_name,
    training_record,
)
from experiments.common import RunArgs, begin_run, checked
from trick_core.bits import derived_seed
from trick_core.registry import make_env
from trick_core.worker_pool import map_in_workers

ALGO = "warm_start"
TEACHER_COLUMNS = ("observation", "action_mask", "action", "teacher", "returns", "hand")
HEADER_READERS = {(1, 0): np.lib.format.read_array_header_1_0, (2, 0): np.lib.format.read_array_header_2_0}


@dataclass
class Args(RunArgs):
    """Warm start by behaviour cloning: record a teacher's decisions, train a network to imitate them."""

    teacher: str = "rules"
    """the agent imitated (an agents.make name)"""
    decisions: int = 1_000_000
    """teacher decisions to record (all seats)"""
    explore: float = 0.05
    """probability that a decision is a uniformly random legal action instead of the teacher's"""
    workers: int = 2
    """processes playing the teacher's hands"""
    data: str | None = None
    """use this teacher_data.npz instead of playing"""
    epochs: int = 4
    """passes over the data"""
    batch_size: int = 1024
    """decisions per gradient step"""
    learning_rate: float = 1e-3
    """Adam step size at the start (decayed linearly to zero over the epochs)"""
    value_coef: float = 0.5
    """weight of the value head's squared error"""
    q_coef: float = 0.5
    """weight of the Q head's squared error"""
    holdout: float = 0.05
    """share of hands held out to measure the imitation accuracy"""

    def check_options(self, config: dict) -> None:
        """warm_start's own check, run by ``check_args`` before the run folder is made: ``--data`` is teacher
        data of this game and configuration."""
        if self.data:
            check_teacher_data(self.data, make_env(self.game, **config).unwrapped.obs_size)


# ---------------------------------------------------------------------------------------------- teacher data


def play_teacher_hands(game: str, config: dict, teacher: str, explore: float, seed: int, decisions: int) -> dict:
    """Hands played by ``teacher`` at every seat until ``decisions`` decisions are recorded (one worker)."""
    env = make_env(game, **config)
    agent = make(teacher, game)
    rng = np.random.default_rng(seed)
    columns = {key: [] for key in TEACHER_COLUMNS}
    hand = 0
    while len(columns["action"]) < decisions:
        env.reset(seed=derived_seed(seed, hand))
        if callable(getattr(agent, "reset", None)):
            agent.reset(derived_seed(seed, hand, 1))
        seats = []
        while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            name = env.agent_selection
            seen = env.observe(name)
            legal = np.flatnonzero(seen["action_mask"])
            action = agent.act(env, name)
            chosen_by_teacher = not (len(legal) > 1 and rng.random() < explore)
            if not chosen_by_teacher:
                action = int(rng.choice(legal))
            columns["observation"].append(seen["observation"].astype(np.float16))
            columns["action_mask"].append(seen["action_mask"].astype(bool))
            columns["action"].append(action)
            columns["teacher"].append(chosen_by_teacher)
            columns["hand"].append(hand)
            seats.append(env.unwrapped.agent_name_mapping[name])
            env.step(action)
        settlement = env.unwrapped.game_record()["result"]
        columns["returns"].extend(float(settlement[seat]) for seat in seats)
        hand += 1
    return {
        "observation": np.stack(columns["observation"]),
        "action_mask": np.stack(columns["action_mask"]),
        "action": np.asarray(columns["action"], dtype=np.int64),
        "teacher": np.asarray(columns["teacher"], dtype=bool),
        "returns": np.asarray(columns["returns"], dtype=np.float32),
        "hand": np.asarray(columns["hand"], dtype=np.int64),
    }


def teacher_data(args: Args, config: dict) -> dict:
    """Play the teacher's hands over ``workers`` processes (hand ids made unique across workers)."""
    share = -(-args.decisions // args.workers)
    jobs = [(args.game, config, args.teacher, args.explore, derived_seed(args.seed, 7, w), share)
            for w in range(args.workers)]
    if args.workers == 1:
        parts = [play_teacher_hands(*jobs[0])]
    else:
        import multiprocessing

        parts = map_in_workers(play_teacher_hands, jobs, args.workers, mp_context=multiprocessing.get_context("fork"))
    offset = 0
    for part in parts:
        part["hand"] = part["hand"] + offset
        offset = int(part["hand"].max()) + 1
    return {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}


def check_teacher_data(path: str, obs_size: int) -> None:
    """``path`` is a ``teacher_data.npz`` with every column, whose observations have ``obs_size`` entries
    (``ValueError`` naming what is wrong). Reads only the arrays' headers, not the data."""
    if not Path(path).is_file():
        raise ValueError(f"no teacher data at {path!r}")
    try:
        with zipfile.ZipFile(path) as archive:
            shapes = {}
            for name in archive.namelist():
                with archive.open(name) as member:
                    read_header = HEADER_READERS.get(np.lib.format.read_magic(member), HEADER_READERS[(2, 0)])
                    shapes[name.removesuffix(".npy")] = read_header(member)[0]
    except (zipfile.BadZipFile, ValueError) as error:
        raise ValueError(f"{path!r} is not teacher data (an .npz written by warm_start): {error}") from None
    missing = [column for column in TEACHER_COLUMNS if column not in shapes]
    if missing:
        raise ValueError(f"teacher data {path!r} lacks the columns {missing} (it has {sorted(shapes)})")
    width = shapes["observation"][1] if len(shapes["observation"]) == 2 else None
    if width != obs_size:
        raise ValueError(f"the observations of teacher data {path!r} have {width} entries, this game's {obs_size}: "
                         "data of another game or variant?")


# ---------------------------------------------------------------------------------------------- fit


def fit(args: Args, network, data: dict, scale: float, rng: np.random.Generator, writer, device) -> dict:
    """Train the three heads on the teacher data; returns the held-out metrics of the last epoch."""
    hands = np.unique(data["hand"])
    held_out_hands = rng.choice(hands, size=max(1, int(args.holdout * hands.size)), replace=False)
    held_out = np.isin(data["hand"], held_out_hands)
    train_rows, test_rows = np.flatnonzero(~held_out), np.flatnonzero(held_out)
    optimizer = torch.optim.Adam(network.parameters(), lr=args.learning_rate)
    steps_per_epoch = -(-train_rows.size // args.batch_size)
    total_steps = args.epochs * steps_per_epoch
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: 1.0 - step / total_steps)
    step, metrics = 0, {}
    progress = make_progress() if args.progress else None
    if progress:
        task = progress.add_task(f"{args.game} warm start", total=total_steps * args.batch_size, status="")
        progress.start()
    for epoch in range(args.epochs):
        order = rng.permutation(train_rows)
        for start in range(0, order.size, args.batch_size):
            losses = head_losses(network, data, order[start : start + args.batch_size], scale, device)
            loss = losses["policy"] + args.value_coef * losses["value"] + args.q_coef * losses["q"]
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(network.parameters(), 10.0)
            optimizer.step()
            schedule.step()
            step += 1
            if progress:
                progress.update(task, advance=args.batch_size)
            if step % 50 == 0:
                for name, value in losses.items():
                    writer.add_scalar(f"losses/{name}", float(value.detach()), step)
        metrics = held_out_metrics(network, data, test_rows, scale, device)
        for name, value in metrics.items():
            writer.add_scalar(f"charts/held_out_{name}", value, epoch + 1)
        if progress:
            progress.update(task, status=f"held-out accuracy {metrics['accuracy']:.3f}")
        else:
            print(json.dumps({"epoch": epoch + 1, **metrics}))
    if progress:
        progress.stop()
    return metrics


def head_losses(network, data: dict, rows: np.ndarray, scale: float, device) -> dict:
    observation = torch.from_numpy(network.encode(data["observation"][rows])).to(device)
    legal = torch.from_numpy(data["action_mask"][rows]).to(device)
    action = torch.from_numpy(data["action"][rows]).to(device)
    target = torch.from_numpy(data["returns"][rows] / scale).to(device)
    by_teacher = torch.from_numpy(data["teacher"][rows]).to(device)
    features = network.features(observation)
    logits = masked_logits(network.scores(features, "policy"), legal)
    cross_entropy = torch.nn.functional.cross_entropy(logits, action, reduction="none")
    q = network.scores(features, "q").gather(1, action[:, None]).squeeze(1)
    return {
        "policy": (cross_entropy * by_teacher).sum() / by_teacher.sum().clamp(min=1),
        "value": torch.nn.functional.mse_loss(network.value(features), target),
        "q": torch.nn.functional.mse_loss(q, target),
    }


def held_out_metrics(network, data: dict, rows: np.ndarray, scale: float, device) -> dict:
    """Imitation accuracy on the teacher's decisions with a choice, and the heads' losses, on held-out hands."""
    with torch.inference_mode():
        losses = head_losses(network, data, rows, scale, device)
        observation = torch.from_numpy(network.encode(data["observation"][rows])).to(device)
        legal = torch.from_numpy(data["action_mask"][rows]).to(device)
        chosen = masked_logits(network(observation, "policy"), legal).argmax(1).cpu().numpy()
    choice = data["teacher"][rows] & (data["action_mask"][rows].sum(axis=1) > 1)
    accuracy = float((chosen == data["action"][rows])[choice].mean()) if choice.any() else float("nan")
    return {"accuracy": accuracy, **{name: float(value) for name, value in losses.items()}}


def main(args: Args) -> dict:
    config, device, rng, scale = begin_run(args, ALGO, env_threads=1)
    clock = Clock()
    run_dir = Path(args.run_dir or Path(args.runs_dir) / run_name(args.game, ALGO, args.seed))
    run_dir.mkdir(parents=True, exist_ok=True)
    from torch.utils.tensorboard import SummaryWriter

    writer = SummaryWriter(str(run_dir))
    writer.add_text("args", json.dumps(asdict(args), default=str))
    start = time.perf_counter()
    if args.data:
        data = dict(np.load(args.data))
    else:
        data = teacher_data(args, config)
        np.savez(run_dir / "teacher_data.npz", **data)
    data_seconds = time.perf_counter() - start
    network = new_network(args.game, config, args.hidden, args.features).to(device)
    start = time.perf_counter()
    metrics = fit(args, network, data, scale, rng, writer, device)
    fit_seconds = time.perf_counter() - start
    step = {"decisions": int(data["action"].size), "updates": 0, "segment": 0,
            "teacher_seconds": data_seconds, "fit_seconds": fit_seconds}
    action_names = make_env(args.game, **config).unwrapped.action_names

    def network_checkpoint(evaluations):
        return checkpoint_dict(network, game=args.game, config=config, action_names=action_names, head="policy",
                               algo=ALGO, training=training_record(args, ALGO, step, clock, evaluations))

    final = save_checkpoint(run_dir / "final.pt", network_checkpoint([]))
    evaluations = []
    if args.eval_hands:
        evaluations.append(evaluate(final, args.game, config, args.eval_opponent, args.eval_hands, args.eval_seed))
        save_checkpoint(final, network_checkpoint(evaluations))
    writer.close()
    summary = {"run_dir": str(run_dir), "final": str(final), **step, **clock.state(), "held_out": metrics,
               "evaluation": evaluations[-1] if evaluations else None}
    print(json.dumps(summary))
    return summary


if __name__ == "__main__":
    from trick_core.command_line import command_prog

    main(checked(tyro.cli(Args, prog=command_prog()), ALGO))
