"""Masked PPO self-play on the compiled batch envs, one shared policy for every seat, with an opponent pool.

    python -m experiments.ppo --game asserufen --time-limit-minutes 30
    python -m experiments.ppo --game knuffeln --config talk=tokens:8 --opponent-fraction 0.3
    python -m experiments.ppo --game bavarian --init-from runs/bavarian__warm_start__1__.../final.pt

One network (``agents.neural.network``) gives the policy's logits over every action and the value of the
seat to act, from that seat's observation; illegal actions get a large negative logit (the action mask
applied to the logits), so they are never sampled and carry no gradient. Actors play ``num_envs`` hands
of the batch env at once, one batched network call per step. Each seat's decisions in a hand form its own
chain: its next state is its next decision, and the hand's settlement for that seat (scaled per game)
is the reward after its last one; generalised advantage estimates (``gae_lambda``, no discount inside a
hand) are computed along these chains when the hand ends (``agents.neural.rollout``). The update is the
clipped PPO objective with a value loss and an entropy bonus, over several epochs of minibatches.

**Opponent pool.** Every ``pool_every`` decisions a frozen copy of the policy joins the pool (the newest
``pool_size`` are kept). In a share ``opponent_fraction`` of the hands a pool network, drawn anew for each
rollout, plays one team (Knüffeln) or half the seats (the other games) and only the learner's decisions
are trained on: the policy keeps beating its past selves rather than cycling.

Outputs, evaluation against ``rules``, resume and seeding: as ``experiments/dmc.py``.
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field

import numpy as np
import torch
import tyro

from agents.config import parse_config
from agents.neural.network import masked_logits
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

ALGO = "ppo"


@dataclass
class Args:
    game: str = "bavarian"
    """knuffeln, bavarian, palatinate or asserufen"""
    config: list[str] = field(default_factory=list)
    """env options as key=value, e.g. players=4, talk=lexicon, variant=hattstedt"""
    seed: int = 1
    """seed of the network, the deals and the sampling"""
    runs_dir: str = "runs"
    """runs are written to runs_dir/{game}__ppo__{seed}__{time}"""
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
    """batch steps between updates"""
    hidden: tuple[int, ...] = (256, 256, 256)
    """widths of the torso's layers"""
    features: str = "cards"
    """derived features appended to the observation: cards or none (agents.neural.derived)"""
    learning_rate: float = 2.5e-4
    """Adam step size"""
    update_epochs: int = 3
    """passes over each rollout's decisions"""
    minibatch_size: int = 4096
    """decisions per gradient step"""
    gae_lambda: float = 0.95
    """GAE lambda along each seat's chain of decisions"""
    clip_coef: float = 0.2
    """PPO's ratio clipping"""
    ent_coef: float = 0.01
    """entropy bonus"""
    vf_coef: float = 0.5
    """weight of the value loss"""
    max_grad_norm: float = 0.5
    """gradient clipping"""
    norm_adv: bool = True
    """normalise advantages per minibatch"""
    reward_scale: float | None = None
    """settlements are divided by this (default: the game's agents.neural.rollout.REWARD_SCALE)"""

    opponent_fraction: float = 0.2
    """share of hands in which a frozen past policy plays half the seats (opponent pool)"""
    pool_size: int = 8
    """past policies kept in the pool"""
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
    """decisions between checkpoints (the envs are reseeded there, see experiments/dmc.py)"""
    resume: str | None = None
    """continue the run saved in this checkpoint.pt"""
    init_from: str | None = None
    """start from the network of this checkpoint (e.g. experiments/warm_start.py); fresh optimizer"""
    run_dir: str | None = None
    """write here instead of a new runs_dir/{game}__ppo__{seed}__{time} (the folder of --resume by default)"""


def sample_actions(network, observation, action_mask, generator, device):
    """Sampled legal actions, their log-probabilities and the values, for every row (one network call on
    the encoded observations)."""
    with torch.inference_mode():
        features = network.features(torch.from_numpy(observation).to(device))
        logits = masked_logits(network.scores(features, "policy"), torch.from_numpy(action_mask).to(device).bool())
        log_probs = torch.log_softmax(logits, dim=1)
        actions = torch.multinomial(log_probs.exp(), 1, generator=generator).squeeze(1)
        chosen = log_probs.gather(1, actions[:, None]).squeeze(1)
        return actions.cpu().numpy(), chosen.cpu().numpy(), network.value(features).cpu().numpy()


def act(env, out, encoded, network, opponent, learner, generator, device):
    """Actions of every row: the learner's policy in its rows, the pool policy in the others."""
    if learner.all():
        return sample_actions(network, encoded, out.action_mask, generator, device)
    actions = np.empty(env.num_envs, dtype=np.int64)
    log_probs = np.zeros(env.num_envs, dtype=np.float32)
    values = np.zeros(env.num_envs, dtype=np.float32)
    for rows, player in ((np.flatnonzero(learner), network), (np.flatnonzero(~learner), opponent)):
        if rows.size:
            actions[rows], log_probs[rows], values[rows] = sample_actions(
                player, encoded[rows], out.action_mask[rows], generator, device)
    return actions, log_probs, values


def update(args: Args, network, optimizer, decisions, rng, device) -> dict:
    """PPO's clipped update over the finished hands' decisions."""
    count = len(decisions)
    if count == 0:
        return {}
    observation = torch.from_numpy(decisions.observation).to(device)
    legal = torch.from_numpy(decisions.action_mask).to(device)
    action = torch.from_numpy(decisions.action).to(device)
    old_log_prob = torch.from_numpy(decisions.extras["logprob"]).to(device)
    old_value = torch.from_numpy(decisions.extras["value"]).to(device)
    advantages = torch.from_numpy(decisions.advantages).to(device)
    returns = advantages + old_value
    stats = {key: [] for key in ("policy_loss", "value_loss", "entropy", "approx_kl", "clipfrac")}
    for _ in range(args.update_epochs):
        order = torch.from_numpy(rng.permutation(count)).to(device)
        for start in range(0, count, args.minibatch_size):
            batch = order[start : start + args.minibatch_size]
            features = network.features(observation[batch].float())
            logits = masked_logits(network.scores(features, "policy"), legal[batch])
            log_probs = torch.log_softmax(logits, dim=1)
            new_log_prob = log_probs.gather(1, action[batch, None]).squeeze(1)
            entropy = -(log_probs.exp() * log_probs).sum(1).mean()
            log_ratio = new_log_prob - old_log_prob[batch]
            ratio = log_ratio.exp()
            batch_advantages = advantages[batch]
            if args.norm_adv and batch.numel() > 1:
                batch_advantages = (batch_advantages - batch_advantages.mean()) / (batch_advantages.std() + 1e-8)
            policy_loss = torch.max(
                -batch_advantages * ratio,
                -batch_advantages * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef),
            ).mean()
            value_loss = 0.5 * ((network.value(features) - returns[batch]) ** 2).mean()
            loss = policy_loss - args.ent_coef * entropy + args.vf_coef * value_loss
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(network.parameters(), args.max_grad_norm)
            optimizer.step()
            with torch.no_grad():
                stats["approx_kl"].append(((ratio - 1) - log_ratio).mean().item())
                stats["clipfrac"].append(((ratio - 1.0).abs() > args.clip_coef).float().mean().item())
            stats["policy_loss"].append(policy_loss.item())
            stats["value_loss"].append(value_loss.item())
            stats["entropy"].append(entropy.item())
    return {f"losses/{key}": float(np.mean(values)) for key, values in stats.items()}


def main(args: Args) -> dict:
    config = parse_config(args.config)
    set_threads(args.torch_threads, args.env_threads)
    device = torch.device(args.device)
    rng = seed_everything(args.seed)
    scale = reward_scale(args.game, args.reward_scale)
    network = (warm_start_network(args.init_from, args.game, config) if args.init_from
               else new_network(args.game, config, args.hidden, args.features)).to(device)
    optimizer = torch.optim.Adam(network.parameters(), lr=args.learning_rate, eps=1e-5)
    pool = OpponentPool(args.pool_size if args.opponent_fraction > 0 else 0, args.anchor_share)
    if args.init_from and args.anchor_share > 0:
        pool.set_anchor(network)
    env = make_batch_env(args.game, args.num_envs, num_threads=args.env_threads, **config)
    run = Run(args, algo=ALGO, head="policy", config=config, network=network, optimizer=optimizer, pool=pool,
              rng=rng, action_names=env.action_names)
    rng = run.rng  # restored on --resume
    opponent = copy.deepcopy(network) if args.opponent_fraction > 0 else None
    generator = torch.Generator(device=device)
    out = env.reset(seed=run.env_seed())
    mixer = SeatMixer(args.game, env.num_envs, env.num_seats, args.opponent_fraction, rng)
    recorder = HandRecorder(env.num_envs, env.num_seats, record_masks=True, extras=("logprob", "value"))
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
            generator.manual_seed(int(rng.integers(2**62)))
            start = time.perf_counter()
            for _ in range(args.rollout_steps):
                learner = mixer.learner_acts(out.current_player)
                encoded = network.encode(out.observation)
                actions, log_probs, values = act(env, out, encoded, network, opponent, learner, generator, device)
                recorder.record(encoded, actions, out.current_player, learner, out.action_mask,
                                logprob=log_probs, value=values)
                out = env.step(actions)
                recorder.outcome(out.rewards / scale, out.terminated)
                mixer.redraw(out.terminated)
            decisions = recorder.finished(args.gae_lambda)
            actor_seconds += time.perf_counter() - start
            acted += args.rollout_steps * env.num_envs

            start = time.perf_counter()
            metrics = update(args, network, optimizer, decisions, rng, device) or metrics
            learner_seconds += time.perf_counter() - start
            learned += len(decisions) * args.update_epochs

            logged = run.log({
                **metrics,
                "charts/actor_decisions_per_second": acted / max(actor_seconds, 1e-9),
                "charts/learner_samples_per_second": learned / max(learner_seconds, 1e-9),
                "charts/mean_abs_settlement": float(np.abs(decisions.hand_returns).mean()) * scale
                if decisions.hands else 0.0,
            })
            if logged:
                last = run.evaluations[-1]["units_per_hand"] if run.evaluations else None
                run.status = f"entropy {metrics.get('losses/entropy', float('nan')):.3f}" + (
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
