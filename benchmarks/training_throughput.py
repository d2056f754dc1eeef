"""Throughput of learning, printed as JSON: the batch env's raw steps/s, beside the decisions/s the actors
generate with the network in the loop, and the samples/s the learner takes in.

``python -m benchmarks.training_throughput [--games ...] [--num-envs 4096] [--hidden 256 256 256]
[--threads 1 2] [--processes 2] [--device cpu] [--json PATH]``

For each game (default configuration), each thread count ``t`` (torch and numba both get ``t``) and each
network width in ``--hidden`` and ``--small-hidden``:

- ``env_steps_per_second``: ``BatchEnv.step`` with ``sample_actions()`` (uniformly random legal actions,
  compiled) on ``num_envs`` rows: the ceiling any learner on this env can reach;
- ``dmc_actor_decisions_per_second``: the Deep Monte-Carlo actor of ``experiments/dmc.py`` — one batched
  network call per step for all rows (greedy legal action of ``q``), epsilon-greedy at 0.05, the batch step,
  and the ``HandRecorder`` bookkeeping that credits each decision when its hand ends;
- ``ppo_actor_decisions_per_second``: the PPO actor of ``experiments/ppo.py`` (sampled actions, log-probs
  and values recorded, masks kept);
- ``dmc_learner_samples_per_second`` / ``ppo_learner_samples_per_second``: decisions per second through one
  gradient step of each algorithm (minibatches of 2048 / 4096 recorded decisions; PPO counts one pass).

With ``--processes N`` (default 2) the env step and both actors are measured again in N processes at once,
one thread each, each with its own batch env: the decisions per second of N cores together, which is how
``--actors N --actor-backend ray`` of the training scripts runs its actors (a row per game in
``"processes"``, with each process's own rate beside the sum).

Every rate is the best of three windows of ``--seconds`` after a warm-up (numba compiled, torch warmed),
as ``benchmarks.compare`` measures. The JSON also gives each rate per CPU second (``*_per_cpu_second``:
decisions over the process's CPU time), which on a machine shared with other work is the steadier figure.
"""

from __future__ import annotations

import json
import platform
import time
from dataclasses import dataclass, field

import numpy as np
import torch

from benchmarks.timing import GAMES, check_games, check_positive
from trick_core.output_paths import check_output_file


@dataclass
class Args:
    """Throughput of the training loops (JSON)."""

    games: list[str] = field(default_factory=lambda: list(GAMES))
    """games to measure (default configurations)"""
    num_envs: int = 4096
    """rows of the batch env"""
    hidden: tuple[int, ...] = (256, 256, 256)
    """the training scripts' default network"""
    small_hidden: tuple[int, ...] = (128, 128)
    """a smaller network, measured too (empty: skip)"""
    threads: list[int] = field(default_factory=lambda: [1, 2])
    """thread counts to measure (torch and numba each get this many)"""
    device: str = "cpu"
    """torch device (cuda: the network on the GPU, the env on the CPU)"""
    seconds: float = 2.0
    """length of each timed window"""
    processes: int = 2
    """also run the actors in this many processes at once, one thread each, each on its own batch env of
    ``num_envs`` rows and timed in the same windows: what that many cores generate together (1: skip)"""
    json: str | None = None
    """also write the result here"""


def best_rate(work, units: int, seconds: float) -> dict:
    """Best of three windows: units per wall second and per CPU second of ``work()`` (one call = ``units``)."""
    work()
    rates, cpu_rates = [], []
    for _ in range(3):
        calls, wall0, cpu0 = 0, time.perf_counter(), time.process_time()
        while time.perf_counter() - wall0 < seconds:
            work()
            calls += 1
        rates.append(calls * units / (time.perf_counter() - wall0))
        cpu_rates.append(calls * units / max(time.process_time() - cpu0, 1e-9))
    return {"per_second": max(rates), "per_cpu_second": max(cpu_rates), "median_per_second": float(np.median(rates))}


def training_steps(game: str, hidden: tuple[int, ...], threads: int, args: Args) -> tuple[dict, dict]:
    """``({name: (step function, units per call)}, facts)`` for one game: the env step, both actors and
    both learners of the module docstring, on a fresh batch env and network."""
    from agents.neural.network import masked_argmax, masked_logits
    from agents.neural.rollout import HandRecorder, make_batch_env
    from agents.neural.training import new_network

    device = torch.device(args.device)
    env = make_batch_env(game, args.num_envs, seed=0, num_threads=threads, copy=False)
    network = new_network(game, {}, hidden).to(device)
    rng = np.random.default_rng(0)
    generator = torch.Generator(device=device).manual_seed(0)
    state = {"out": env.reset()}
    dmc_recorder = HandRecorder(env.num_envs, env.num_seats)
    ppo_recorder = HandRecorder(env.num_envs, env.num_seats, record_masks=True, extras=("logprob", "value"))
    learner_everywhere = np.ones(env.num_envs, dtype=bool)

    def env_step():
        state["out"] = env.step(env.sample_actions())

    def dmc_actor_step():
        out = state["out"]
        with torch.inference_mode():
            encoded = network.encode(out.observation)
            scores = network(torch.from_numpy(encoded).to(device), "q")
            actions = masked_argmax(scores, torch.from_numpy(out.action_mask).to(device).bool()).cpu().numpy()
        explore = rng.random(env.num_envs) < 0.05
        actions[explore] = env.sample_actions()[explore]
        dmc_recorder.record(encoded, actions, out.current_player, learner_everywhere)
        state["out"] = env.step(actions)
        dmc_recorder.outcome(state["out"].rewards, state["out"].terminated)
        if dmc_recorder.pending_steps >= 16:
            dmc_recorder.finished()

    def ppo_actor_step():
        out = state["out"]
        with torch.inference_mode():
            encoded = network.encode(out.observation)
            features = network.features(torch.from_numpy(encoded).to(device))
            legal = torch.from_numpy(out.action_mask).to(device).bool()
            log_probs = torch.log_softmax(masked_logits(network.scores(features, "policy"), legal), dim=1)
            actions = torch.multinomial(log_probs.exp(), 1, generator=generator).squeeze(1)
            chosen = log_probs.gather(1, actions[:, None]).squeeze(1).cpu().numpy()
            values = network.value(features).cpu().numpy()
            actions = actions.cpu().numpy()
        ppo_recorder.record(encoded, actions, out.current_player, learner_everywhere, out.action_mask,
                            logprob=chosen, value=values)
        state["out"] = env.step(actions)
        ppo_recorder.outcome(state["out"].rewards, state["out"].terminated)
        if ppo_recorder.pending_steps >= 16:
            ppo_recorder.finished(0.95)

    optimizer = torch.optim.Adam(network.parameters(), lr=1e-5)
    observations = torch.from_numpy(
        network.encode(np.concatenate([env.step(env.sample_actions()).observation.copy() for _ in range(2)]))
    ).to(device)

    def learner_batch(size: int):
        rows = torch.from_numpy(rng.integers(observations.shape[0], size=size)).to(device)
        return observations[rows], torch.from_numpy(rng.integers(env.num_actions, size=size)).to(device)

    def dmc_learner_step():
        observation, action = learner_batch(2048)
        q = network(observation, "q").gather(1, action[:, None]).squeeze(1)
        loss = ((q - 0.5) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    def ppo_learner_step():
        observation, action = learner_batch(4096)
        features = network.features(observation)
        log_probs = torch.log_softmax(network.scores(features, "policy"), dim=1)
        ratio = (log_probs.gather(1, action[:, None]).squeeze(1) - log_probs.detach().gather(1, action[:, None])
                 .squeeze(1)).exp()
        loss = -(ratio.clamp(0.8, 1.2)).mean() + ((network.value(features) - 0.5) ** 2).mean() - 0.01 * (
            -(log_probs.exp() * log_probs).sum(1).mean())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    rows = env.num_envs
    steps = {
        "env_steps": (env_step, rows),
        "dmc_actor_decisions": (dmc_actor_step, rows),
        "ppo_actor_decisions": (ppo_actor_step, rows),
        "dmc_learner_samples": (dmc_learner_step, 2048),
        "ppo_learner_samples": (ppo_learner_step, 4096),
    }
    facts = {"obs_size": env.obs_size, "num_actions": env.num_actions,
             "parameters": sum(p.numel() for p in network.parameters())}
    return steps, facts


def measure_game(game: str, hidden: tuple[int, ...], threads: int, args: Args) -> dict:
    """Every rate of one game in this process (see the module docstring)."""
    steps, flat = training_steps(game, hidden, threads, args)
    results = {name: best_rate(work, units, args.seconds) for name, (work, units) in steps.items()}
    for name, rate in results.items():
        flat[f"{name}_per_second"] = rate["per_second"]
        flat[f"{name}_per_cpu_second"] = rate["per_cpu_second"]
    flat["dmc_actor_share_of_env_speed"] = flat["dmc_actor_decisions_per_second"] / flat["env_steps_per_second"]
    return flat


ACTOR_STEPS = ("env_steps", "dmc_actor_decisions", "ppo_actor_decisions")


def _actor_process(game: str, hidden: tuple[int, ...], args: Args, barrier) -> dict:
    """One of ``args.processes`` actor processes: ``{name: [(units, seconds) per window]}``, every window
    started together with the other processes' (``barrier``)."""
    from agents.neural.training import set_threads

    set_threads(1, 1)
    steps, _ = training_steps(game, hidden, 1, args)
    windows: dict[str, list[tuple[int, float]]] = {}
    for name in ACTOR_STEPS:
        work, units = steps[name]
        work()  # compiled and warmed before the clocks start
        windows[name] = []
        for _ in range(3):
            barrier.wait()
            calls, start = 0, time.perf_counter()
            while time.perf_counter() - start < args.seconds:
                work()
                calls += 1
            windows[name].append((calls * units, time.perf_counter() - start))
    return windows


def measure_processes(game: str, hidden: tuple[int, ...], args: Args) -> dict:
    """The actors (and the random-action env) in ``args.processes`` processes at once: the sum of their
    rates in the best of three common windows."""
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager, context.Pool(args.processes) as pool:
        barrier = manager.Barrier(args.processes)
        per_process = pool.starmap(_actor_process, [(game, hidden, args, barrier)] * args.processes)
    row = {}
    for name in ACTOR_STEPS:
        totals = [sum(units / seconds for units, seconds in (windows[name][w] for windows in per_process))
                  for w in range(3)]
        row[f"{name}_per_second"] = max(totals)
        row[f"{name}_per_second_each"] = [max(units / seconds for units, seconds in windows[name])
                                          for windows in per_process]
    return row


def check(args: Args) -> None:
    """The options, checked before a network is built: ``ValueError`` naming the first bad one."""
    if args.json is not None:
        check_output_file(args.json, "--json")
    check_positive(args, "num_envs", "hidden", "small_hidden", "threads", "seconds", "processes")
    check_games(args.games, GAMES)
    try:
        device = torch.device(args.device)
    except RuntimeError as error:
        raise ValueError(f"--device {args.device!r} is not a torch device ({error})") from None
    if device.type == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"--device {args.device!r}: torch sees no CUDA device here")


def main(args: Args) -> dict:
    import numba

    from agents.neural.training import set_threads

    check(args)
    machine = {
        "cpus": numba.config.NUMBA_NUM_THREADS,
        "processor": platform.processor() or platform.machine(),
        "torch": torch.__version__,
        "device": args.device,
        "cuda": torch.cuda.get_device_name(0) if args.device == "cuda" else None,
    }
    report = {"machine": machine, "num_envs": args.num_envs, "results": []}
    widths = [args.hidden] + ([args.small_hidden] if args.small_hidden else [])
    for threads in args.threads:
        set_threads(threads, threads)
        for hidden in widths:
            for game in args.games:
                row = {"game": game, "threads": threads, "hidden": list(hidden),
                       **measure_game(game, tuple(hidden), threads, args)}
                report["results"].append(row)
                print(json.dumps(row), flush=True)
    report["processes"] = []
    for hidden in widths if args.processes > 1 else []:
        for game in args.games:
            row = {"game": game, "processes": args.processes, "threads": 1, "hidden": list(hidden),
                   **measure_processes(game, tuple(hidden), args)}
            report["processes"].append(row)
            print(json.dumps(row), flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(report, out, indent=2)
    return report


if __name__ == "__main__":
    import tyro

    from trick_core.command_line import checked, command_prog

    main(checked(tyro.cli(Args, prog=command_prog()), check))
