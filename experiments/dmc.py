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

**Actors.** ``--actors N`` plays the rollouts on N experience actors instead of the learner's process,
each with a batch env of ``num_envs`` hands: Ray workers (``--actor-backend ray``, ``--ray-address auto``
on a cluster) or in-process ones (``local``); every iteration the learner broadcasts its weights,
concatenates the actors' decisions in actor order and makes the same update (``experiments/selfplay.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
import tyro

from agents.neural.network import masked_argmax
from experiments.common import SelfPlayArgs, begin_run, checked, starting_network
from experiments.selfplay import SelfPlay, SelfPlayCollector

ALGO = "dmc"


@dataclass
class Args(SelfPlayArgs):
    """Deep Monte-Carlo self-play (the DouZero recipe) on the compiled batch envs."""

    batch_size: int = 2048
    """decisions per gradient step"""
    epsilon_start: float = 0.2
    """exploration rate at the start (a uniformly random legal action)"""
    epsilon_end: float = 0.02
    """exploration rate after the decay"""
    epsilon_decay_decisions: int = 15_000_000
    """decisions over which epsilon decays linearly"""
    policy_warmup_decisions: int = 0
    """for this many decisions the actors play the network's policy head (a warm start's imitation of its
    teacher) while q learns the values of that play; then greedy q takes over"""


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


class DMCCollector(SelfPlayCollector):
    """The rollout: epsilon-greedy actions (``epsilon`` and ``head`` set by the learner for each rollout);
    each decision is credited with its seat's settlement when its hand ends."""

    def act(self, worker, learner, encoded):
        epsilon, head = self.settings["epsilon"], self.settings["head"]
        return choose_actions(worker.env, worker.out, encoded, worker.policy, self.opponent, learner, self.rng,
                              epsilon, self.device, head), {}


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
    config, device, rng, scale = begin_run(args, ALGO, args.env_threads)
    network = starting_network(args, config, device)
    optimizer = torch.optim.Adam(network.parameters(), lr=args.learning_rate)
    selfplay = SelfPlay(args, algo=ALGO, head="q", config=config, network=network, optimizer=optimizer, rng=rng,
                        device=device, scale=scale, collector_class=DMCCollector)
    run, rng = selfplay.run, selfplay.rng
    metrics: dict = {}
    with selfplay:
        while not run.done():
            epsilon = epsilon_at(args, run.decisions)
            head = "policy" if run.decisions < args.policy_warmup_decisions else "q"
            decisions = selfplay.rollout(epsilon=epsilon, head=head)
            with selfplay.learning(len(decisions)):
                metrics = learn(args, network, optimizer, decisions, scale, rng, device) or metrics
            settlement = float(np.abs(decisions.hand_returns).mean()) if decisions.hands else 0.0
            if run.log({**metrics, "charts/epsilon": epsilon, **selfplay.throughput(),
                        "charts/mean_abs_settlement": settlement}):
                run.show(f"q_loss {metrics.get('losses/q_loss', float('nan')):.3f} eps {epsilon:.3f}")
            selfplay.advance()
        return run.finish()


if __name__ == "__main__":
    from trick_core.command_line import command_prog

    main(checked(tyro.cli(Args, prog=command_prog()), ALGO))
