"""Deep Monte-Carlo self-play (the DouZero recipe) on the compiled batch envs, for every game and variant.

    python -m experiments.dmc --game bavarian --time-limit-minutes 30
    python -m experiments.dmc --game knuffeln --config talk=lexicon --total-decisions 50_000_000
    python -m experiments.dmc --game palatinate --resume runs/palatinate__dmc__1__1700000000/checkpoint.pt

A Q network scores every action of the seat to act, ``q(s, a)``, from the seat's observation and fixed
action features (``agents.neural.network``). Actors play every seat of ``num_envs`` hands at once in the
batch env with one batched network call per step, epsilon-greedy (epsilon decays linearly); when a hand
ends, each of its decisions is credited with the final settlement of the seat that took it (the
Monte-Carlo return, scaled per game), and the Q head is regressed on those returns (mean squared error).
Bids, calls, doubles, Knüffeln's turns and table talk are actions like card plays, so the whole game is
learned. A share of hands can be played against frozen past networks (the opponent pool), and a duplicate
arena match against ``rules`` every ``eval_every`` decisions gives the learning curve in units per hand.

Outputs under ``runs/{game}__dmc__{seed}__{time}``: TensorBoard scalars (``charts/``, ``losses/``),
``checkpoint.pt`` (latest, with the resume state), ``final.pt`` (the network alone), ``evaluations.jsonl``
and ``eval/`` (the network at each evaluation). ``agents.make("neural", game, path=...)`` plays any of them.

Same seed, same run: the actors' and learner's randomness comes from the seed, and the envs are reseeded
(running hands abandoned) at every save, so a run resumed from ``checkpoint.pt`` continues exactly as the
uninterrupted run would (on the same machine and thread counts).
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field

import numpy as np
import torch
import tyro

from agents.config import parse_config
from agents.neural.network import masked_argmax
from agents.neural.rollout import HandRecorder, SeatMixer, make_batch_env
from agents.neural.training import (
    OpponentPool,
    Run,
    new_network,
    reward_scale,
    seed_everything,
    set_threads,
    warm_start_network,
)

ALGO = "dmc"


@dataclass
class Args:
    game: str = "bavarian"
    """knuffeln, bavarian, palatinate or asserufen"""
    config: list[str] = field(default_factory=list)
    """env options as key=value, e.g. players=4, talk=lexicon, variant=hattstedt"""
    seed: int = 1
    """seed of the network, the deals and the exploration"""
    runs_dir: str = "runs"
    """runs are written to runs_dir/{game}__dmc__{seed}__{time}"""
    device: str = "cpu"
    """torch device of the learner and the actors: cpu or cuda"""
    torch_threads: int = 1
    """torch threads (one is fastest on a two-core machine)"""
    env_threads: int = 1
    """numba threads stepping the batch env"""
    progress: bool = True
    """show a progress bar"""

    total_decisions: int = 30_000_000
    """stop after this many decisions (all seats, all rows)"""
    time_limit_minutes: float | None = None
    """stop after this many minutes of wall time (counted over resumes), whichever comes first"""
    cpu_limit_minutes: float | None = None
    """stop after this many minutes of this process's CPU time (counted over resumes): the budget on a
    machine whose cores other work shares"""
    num_envs: int = 2048
    """hands stepped together by the actors"""
    rollout_steps: int = 16
    """batch steps between learning phases"""
    hidden: tuple[int, ...] = (256, 256, 256)
    """widths of the torso's layers"""
    features: str = "cards"
    """derived features appended to the observation: cards or none (agents.neural.derived)"""
    learning_rate: float = 3e-4
    """Adam step size"""
    batch_size: int = 2048
    """decisions per gradient step"""
    max_grad_norm: float = 10.0
    """gradient clipping"""
    epsilon_start: float = 0.2
    """exploration rate at the start (a uniformly random legal action)"""
    epsilon_end: float = 0.02
    """exploration rate after the decay"""
    epsilon_decay_decisions: int = 15_000_000
    """decisions over which epsilon decays linearly"""
    reward_scale: float | None = None
    """returns are divided by this (default: the game's agents.neural.rollout.REWARD_SCALE)"""

    opponent_fraction: float = 0.0
    """share of hands in which a frozen past network plays half the seats (opponent pool)"""
    pool_size: int = 8
    """past networks kept in the pool"""
    pool_every: int = 2_000_000
    """decisions between snapshots added to the pool"""
    anchor_share: float = 0.0
    """with --init-from: share of opponent rollouts played by the starting network itself (e.g. the warm
    start's imitation of rules) instead of a past snapshot"""

    eval_every: int = 2_000_000
    """decisions between duplicate arena evaluations (0: none)"""
    eval_hands: int = 100
    """deals per evaluation match"""
    eval_opponent: str = "rules"
    """the fixed opponent of the evaluations"""
    eval_seed: int = 1000
    """seed of the evaluation deals (the same deals every time)"""
    save_every: int = 2_000_000
    """decisions between checkpoints (the envs are reseeded there, see the docstring)"""
    resume: str | None = None
    """continue the run saved in this checkpoint.pt"""
    init_from: str | None = None
    """start from the network of this checkpoint (e.g. experiments/warm_start.py); fresh optimizer"""
    policy_warmup_decisions: int = 0
    """for this many decisions the actors play the network's policy head (a warm start's imitation of its
    teacher) while q learns the values of that play; then greedy q takes over"""
    run_dir: str | None = None
    """write here instead of a new runs_dir/{game}__dmc__{seed}__{time} (the folder of --resume by default)"""


def epsilon_at(args: Args, decisions: int) -> float:
    progress = min(1.0, decisions / max(1, args.epsilon_decay_decisions))
    return args.epsilon_start + progress * (args.epsilon_end - args.epsilon_start)


def greedy_actions(network, observation, action_mask, device, head: str = "q") -> np.ndarray:
    """The legal action of highest score in every row (one batched network call on encoded observations)."""
    with torch.inference_mode():
        scores = network(torch.from_numpy(observation).to(device), head)
        legal = torch.from_numpy(action_mask).to(device).bool()
        return masked_argmax(scores, legal).cpu().numpy()


def choose_actions(env, out, encoded, network, opponent, learner, rng, epsilon, device, head) -> np.ndarray:
    """Epsilon-greedy actions in the learner's rows (``learner``: bool per row), greedy actions of the
    pool network in the others; ``encoded``: the rows' encoded observations; ``head`` is ``"q"``, or
    ``"policy"`` during the policy warm-up."""
    if learner.all():
        actions = greedy_actions(network, encoded, out.action_mask, device, head)
    else:
        actions = np.empty(env.num_envs, dtype=np.int64)
        for rows, player in ((np.flatnonzero(learner), network), (np.flatnonzero(~learner), opponent)):
            if rows.size:
                actions[rows] = greedy_actions(player, encoded[rows], out.action_mask[rows], device, head)
    explore = learner & (rng.random(env.num_envs) < epsilon)
    if explore.any():
        actions[explore] = env.sample_actions()[explore]
    return actions


def learn(args: Args, network, optimizer, decisions, scale: float, rng, device) -> dict:
    """One pass over the finished hands' decisions: regress q(s, a) on the scaled Monte-Carlo returns."""
    if len(decisions) == 0:
        return {}
    order = rng.permutation(len(decisions))
    losses = []
    for start in range(0, len(decisions), args.batch_size):
        batch = order[start : start + args.batch_size]
        observation = torch.from_numpy(decisions.observation[batch]).to(device).float()
        action = torch.from_numpy(decisions.action[batch]).to(device)
        target = torch.from_numpy(decisions.returns[batch] / scale).to(device)
        q = network(observation, "q").gather(1, action[:, None]).squeeze(1)
        loss = torch.nn.functional.mse_loss(q, target)
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(network.parameters(), args.max_grad_norm)
        optimizer.step()
        losses.append(loss.item())
    return {"losses/q_loss": float(np.mean(losses))}


def main(args: Args) -> dict:
    config = parse_config(args.config)
    set_threads(args.torch_threads, args.env_threads)
    device = torch.device(args.device)
    rng = seed_everything(args.seed)
    scale = reward_scale(args.game, args.reward_scale)
    network = (warm_start_network(args.init_from, args.game, config) if args.init_from
               else new_network(args.game, config, args.hidden, args.features)).to(device)
    optimizer = torch.optim.Adam(network.parameters(), lr=args.learning_rate)
    pool = OpponentPool(args.pool_size if args.opponent_fraction > 0 else 0, args.anchor_share)
    if args.init_from and args.anchor_share > 0:
        pool.set_anchor(network)
    env = make_batch_env(args.game, args.num_envs, num_threads=args.env_threads, **config)
    run = Run(args, algo=ALGO, head="q", config=config, network=network, optimizer=optimizer, pool=pool, rng=rng,
              action_names=env.action_names)
    rng = run.rng  # restored on --resume
    opponent = copy.deepcopy(network) if args.opponent_fraction > 0 else None
    out = env.reset(seed=run.env_seed())
    mixer = SeatMixer(args.game, env.num_envs, env.num_seats, args.opponent_fraction, rng)
    recorder = HandRecorder(env.num_envs, env.num_seats)
    actor_seconds = learner_seconds = 0.0
    acted = learned = 0
    metrics: dict = {}
    fresh_hands = True  # every row holds a new hand: draw the seatings
    with run:
        while not run.done():
            if fresh_hands:
                mixer.redraw(np.ones(env.num_envs, dtype=bool))
                fresh_hands = False
            if opponent is not None:
                pool.load_random(opponent, rng)
            epsilon = epsilon_at(args, run.decisions)
            head = "policy" if run.decisions < args.policy_warmup_decisions else "q"
            start = time.perf_counter()
            for _ in range(args.rollout_steps):
                learner = mixer.learner_acts(out.current_player)
                encoded = network.encode(out.observation)
                actions = choose_actions(env, out, encoded, network, opponent, learner, rng, epsilon, device, head)
                recorder.record(encoded, actions, out.current_player, learner)
                out = env.step(actions)
                recorder.outcome(out.rewards, out.terminated)
                mixer.redraw(out.terminated)
            decisions = recorder.finished()
            actor_seconds += time.perf_counter() - start
            acted += args.rollout_steps * env.num_envs

            start = time.perf_counter()
            metrics = learn(args, network, optimizer, decisions, scale, rng, device) or metrics
            learner_seconds += time.perf_counter() - start
            learned += len(decisions)

            logged = run.log({
                **metrics,
                "charts/epsilon": epsilon,
                "charts/actor_decisions_per_second": acted / max(actor_seconds, 1e-9),
                "charts/learner_samples_per_second": learned / max(learner_seconds, 1e-9),
                "charts/mean_abs_settlement": float(np.abs(decisions.hand_returns).mean()) if decisions.hands else 0.0,
            })
            if logged:
                last = run.evaluations[-1]["units_per_hand"] if run.evaluations else None
                run.status = f"q_loss {metrics.get('losses/q_loss', float('nan')):.3f} eps {epsilon:.3f}" + (
                    "" if last is None else f" vs {args.eval_opponent} {last:+.2f}/hand")
            new_segment, _ = run.advance(args.rollout_steps * env.num_envs)
            if new_segment:
                out = env.reset(seed=run.env_seed())
                recorder.drop_unfinished()
                run.save()
                fresh_hands = True
        return run.finish()


if __name__ == "__main__":
    main(tyro.cli(Args))
