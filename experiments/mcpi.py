"""Monte-Carlo policy iteration with batched rollouts: every legal action of sampled decisions is scored by
playing the hand out with the current policy, and the Q head learns those values.

    python -m experiments.warm_start --game bavarian --run-dir runs/bavarian_warm
    python -m experiments.mcpi --game bavarian --init-from runs/bavarian_warm/final.pt --time-limit-minutes 40

Deep Monte-Carlo (``experiments/dmc.py``) learns q(s, a) from one return per decision, and a hand's
return is dominated by the deal. Here the deal is held fixed across the actions compared: actors play
``num_envs`` hands of the batch env with the current policy; at a share ``probe_rate`` of the decisions
with a choice, the position (its kernel state) becomes a *probe*; every legal action of every probe is
played in a second batch env from that exact position and the hand is finished by the current policy at
every seat (``agents.neural.rollout.RolloutEvaluator``: thousands of hands at once, one network call per
step). The deciding seat's settlement is that action's return, and q(s, a) is regressed on it for all the
legal actions at once (squared error on returns scaled per game).

The rollouts start from the true deal, which the seat cannot see; but the regression averages over all
the positions that look alike to the seat (the network sees only the seat's observation), so q estimates
the value of each action given what the seat knows — a centralised critic, as in other work on
imperfect-information games, while the agent still acts on its observation alone. The greedy policy on q
improves on the policy that played the rollouts; acting and rolling out with it, q then learns the values
of the improved policy, and so on (policy iteration). With a warm start the first rollouts play the warm
start's imitation of its teacher (``policy_warmup_probes``), whose values q learns before it takes over.

Outputs, evaluation against ``rules``, resume and seeding: as ``experiments/dmc.py``. Decisions are
counted over the actors and the rollouts together (all the network's decisions). Single hands only
(Knüffeln ``match=True`` is not supported: a rollout ends with its hand).
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass
from typing import Literal

import numpy as np
import torch
import tyro

from agents.neural.network import masked_argmax, masked_logits
from agents.neural.rollout import RolloutEvaluator, make_batch_env
from agents.neural.training import OpponentPool, Run
from experiments.common import LossLog, TrainingArgs, begin_run, checked, starting_network

ALGO = "mcpi"


@dataclass
class Args(TrainingArgs):
    """Monte-Carlo policy iteration with batched rollouts scoring every legal action."""

    target: Literal["policy", "q"] = "policy"
    """what the rollouts teach: "policy" (all-action policy gradient on the policy head, which acts and
    rolls out) or "q" (q regression; greedy q acts and rolls out)"""
    rollout_policy: Literal["current", "start"] = "current"
    """who plays the rollouts and the actors: "current" (the acting head of the network being trained:
    policy iteration) or "start" (the starting network's policy head, frozen: q then learns the values of
    that one policy, and the greedy policy on q is one step of improvement over it)"""
    total_decisions: int = 100_000_000
    """stop after this many decisions (actors and rollouts)"""
    num_envs: int = 256
    """hands played by the actors (they only provide the probed positions)"""
    eval_every: int = 10_000_000
    """decisions between duplicate arena evaluations (0: none)"""
    save_every: int = 10_000_000
    """decisions between checkpoints (the envs are reseeded there, see experiments/dmc.py)"""
    probe_rate: float = 0.25
    """share of the actors' decisions with a choice that become probes"""
    probes_per_iteration: int = 1024
    """probes collected before their actions are rolled out and learned"""
    rollout_envs: int = 2048
    """hands played at once by the rollouts"""
    epsilon: float = 0.05
    """the actors' exploration (uniformly random legal actions), for more varied positions"""
    batch_size: int = 256
    """probes per gradient step (each with all its legal actions)"""
    epochs: int = 2
    """passes over each iteration's pairs"""
    value_coef: float = 0.1
    """weight of the error of q's mean over a probe's actions (the differences between actions, which
    decide the play, are fitted with weight 1)"""
    kl_coef: float = 0.05
    """target policy: weight of KL(starting network's policy || policy), keeping the warm start's play
    where the rollouts show no clear difference"""
    ent_coef: float = 0.0
    """target policy: entropy bonus"""
    policy_warmup_probes: int = 0
    """target q: for this many probes, actors and rollouts play the policy head (a warm start's imitation
    of its teacher) while q learns its values; then they play greedy q"""

    def check_options(self, config: dict) -> None:
        """mcpi's own checks, run by ``check_args`` before anything is built (``ValueError`` naming the option)."""
        if self.target not in ("policy", "q"):
            raise ValueError(f"target must be 'policy' or 'q', got {self.target!r}")
        if self.rollout_policy not in ("current", "start"):
            raise ValueError(f"rollout_policy must be 'current' or 'start', got {self.rollout_policy!r}")
        if config.get("match"):
            raise ValueError("mcpi plays single hands: match=True is not supported (use dmc.py or ppo.py)")


def greedy_policy(network, head: str, device):
    """``policy(observation, action_mask)``: the legal action of highest score of ``head`` in every row."""

    def policy(observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        with torch.inference_mode():
            scores = network(torch.from_numpy(network.encode(observation)).to(device), head)
            return masked_argmax(scores, torch.from_numpy(action_mask).to(device).bool()).cpu().numpy()

    return policy


def collect_probes(args: Args, env, state: dict, policy, encode, rng) -> tuple[dict, int]:
    """Play the actors until ``probes_per_iteration`` positions with a choice are probed; returns the
    probes (kernel state, observation, action mask, seat) and the decisions played."""
    parts = {key: [] for key in ("state", "observation", "action_mask", "seat")}
    found = decisions = 0
    while found < args.probes_per_iteration:
        out = state["out"]
        choice = out.action_mask.sum(axis=1) > 1
        probed = np.flatnonzero(choice & (rng.random(env.num_envs) < args.probe_rate))
        probed = probed[: args.probes_per_iteration - found]
        if probed.size:
            parts["state"].append(env.kernel_states()[probed])
            parts["observation"].append(encode(out.observation[probed]).astype(np.float16))
            parts["action_mask"].append(out.action_mask[probed].astype(bool))
            parts["seat"].append(out.current_player[probed].copy())
            found += probed.size
        actions = policy(out.observation, out.action_mask)
        explore = rng.random(env.num_envs) < args.epsilon
        if explore.any():
            actions[explore] = env.sample_actions()[explore]
        state["out"] = env.step(actions)
        decisions += env.num_envs
    return {key: np.concatenate(value) for key, value in parts.items()}, decisions


def expand_pairs(probes: dict) -> tuple[np.ndarray, np.ndarray]:
    """(probe index, action) of every legal action of every probe."""
    probe_index, action = np.nonzero(probes["action_mask"])
    return probe_index, action


def probe_targets(probes: dict, probe_index, action, returns, scale, device):
    """Per probe and action: 1 for the legal actions, and their scaled rollout returns."""
    legal = np.zeros(probes["action_mask"].shape, dtype=np.float32)
    targets = np.zeros(probes["action_mask"].shape, dtype=np.float32)
    legal[probe_index, action] = 1.0
    targets[probe_index, action] = returns / scale
    return torch.from_numpy(legal).to(device), torch.from_numpy(targets).to(device)


def centred(values: torch.Tensor, weight: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Each row minus its mean over the legal actions (``weight`` 1), and that mean."""
    mean = (values * weight).sum(1) / weight.sum(1)
    return (values - mean[:, None]) * weight, mean


def minibatches(args: Args, count: int, rng, device):
    for _ in range(args.epochs):
        order = torch.from_numpy(rng.permutation(count)).to(device)
        for start in range(0, count, args.batch_size):
            yield order[start : start + args.batch_size]


def step(args: Args, network, optimizer, loss) -> None:
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(network.parameters(), args.max_grad_norm)
    optimizer.step()


def learn_q(args: Args, network, optimizer, observation, legal, targets, rng, device) -> dict:
    """Fit q on the rollout returns of every probe's legal actions: the differences between a probe's
    actions (``q(s, a) - mean_b q(s, b)`` against the same for the returns, all on one deal, so the deal's
    luck cancels) and, with weight ``value_coef``, the mean itself."""
    losses = LossLog("difference_loss", "mean_loss")
    for batch in minibatches(args, observation.shape[0], rng, device):
        weight = legal[batch]
        q_differences, q_mean = centred(network(observation[batch].float(), "q"), weight)
        target_differences, target_mean = centred(targets[batch], weight)
        difference_loss = ((q_differences - target_differences) ** 2).sum() / weight.sum()
        mean_loss = ((q_mean - target_mean) ** 2).mean()
        step(args, network, optimizer, difference_loss + args.value_coef * mean_loss)
        losses.add(difference_loss=difference_loss, mean_loss=mean_loss)
    return losses.means()


def learn_policy(args: Args, network, anchor, optimizer, observation, legal, targets, rng, device) -> dict:
    """All-action policy gradient: raise the expected rollout return ``sum_a pi(a|s) R(s, a)`` of every
    probe, with the returns centred per probe (the same deal for every action: the deal's luck cancels and
    nothing is biased, the objective being linear in the returns), minus ``kl_coef`` times the divergence
    from the starting network's policy."""
    losses = LossLog("policy_loss", "kl_to_start", "entropy")
    for batch in minibatches(args, observation.shape[0], rng, device):
        weight, seen = legal[batch], observation[batch].float()
        log_probs = torch.log_softmax(masked_logits(network(seen, "policy"), weight > 0), dim=1)
        probs = log_probs.exp()
        advantages, _ = centred(targets[batch], weight)
        policy_loss = -(probs * advantages).sum(1).mean()
        entropy = -(probs * log_probs * weight).sum(1).mean()
        with torch.no_grad():
            anchor_log_probs = torch.log_softmax(masked_logits(anchor(seen, "policy"), weight > 0), dim=1)
        kl = (anchor_log_probs.exp() * (anchor_log_probs - log_probs) * weight).sum(1).mean()
        step(args, network, optimizer, policy_loss + args.kl_coef * kl - args.ent_coef * entropy)
        losses.add(policy_loss=policy_loss, kl_to_start=kl, entropy=entropy)
    return losses.means()


def main(args: Args) -> dict:
    config, device, rng, scale = begin_run(args, ALGO, args.env_threads)
    network = starting_network(args, config, device)
    optimizer = torch.optim.Adam(network.parameters(), lr=args.learning_rate)
    env = make_batch_env(args.game, args.num_envs, num_threads=args.env_threads, copy=False, **config)
    rollout_env = make_batch_env(args.game, args.rollout_envs, seed=0, num_threads=args.env_threads, copy=False,
                                 **config)
    pool = OpponentPool(0)
    pool.set_anchor(network)  # the starting network, for the KL term (restored from the checkpoint on --resume)
    run = Run(args, algo=ALGO, head="policy" if args.target == "policy" else "q", config=config, network=network,
              optimizer=optimizer, pool=pool, rng=rng, action_names=env.action_names, counters=("probes",))
    rng = run.rng  # restored on --resume
    anchor = copy.deepcopy(network).eval()
    anchor.load_state_dict(pool.anchor)
    state = {"out": env.reset(seed=run.env_seed())}
    evaluator = RolloutEvaluator(rollout_env)
    probes_seen = run.step["probes"]
    timing = {"actor": 0.0, "rollout": 0.0, "learner": 0.0}
    counts = {"actor": 0, "rollout": 0, "pairs": 0}
    probes_seen_run = 0  # in this process (for the rates)
    with run:
        while not run.done():
            head = "policy" if args.target == "policy" or probes_seen < args.policy_warmup_probes else "q"
            policy = greedy_policy(anchor, "policy", device) if args.rollout_policy == "start" else greedy_policy(
                network, head, device)
            start = time.perf_counter()
            probes, actor_decisions = collect_probes(args, env, state, policy, network.encode, rng)
            timing["actor"] += time.perf_counter() - start
            probe_index, action = expand_pairs(probes)
            start = time.perf_counter()
            returns, rollout_decisions = evaluator.evaluate(
                probes["state"][probe_index], probes["seat"][probe_index], action, policy)
            timing["rollout"] += time.perf_counter() - start
            start = time.perf_counter()
            observation = torch.from_numpy(probes["observation"]).to(device)
            legal, targets = probe_targets(probes, probe_index, action, returns, scale, device)
            if args.target == "policy":
                metrics = learn_policy(args, network, anchor, optimizer, observation, legal, targets, rng, device)
            else:
                metrics = learn_q(args, network, optimizer, observation, legal, targets, rng, device)
            timing["learner"] += time.perf_counter() - start
            probes_seen += len(probes["seat"])
            probes_seen_run += len(probes["seat"])
            run.step["probes"] = probes_seen
            counts["actor"] += actor_decisions
            counts["rollout"] += rollout_decisions
            counts["pairs"] += action.size
            spread = returns.reshape(-1)
            run.log({
                **metrics,
                "charts/probes": probes_seen,
                "charts/acting_head_is_q": float(head == "q"),
                "charts/actor_decisions_per_second": counts["actor"] / max(timing["actor"], 1e-9),
                "charts/rollout_decisions_per_second": counts["rollout"] / max(timing["rollout"], 1e-9),
                "charts/learner_probes_per_second": args.epochs * probes_seen_run / max(timing["learner"], 1e-9),
                "charts/mean_abs_return": float(np.abs(spread).mean()),
            })
            run.show(f"head {head}")
            new_segment, _ = run.advance(actor_decisions + rollout_decisions)
            if new_segment:
                state["out"] = env.reset(seed=run.env_seed())
                run.save()
        return run.finish()


if __name__ == "__main__":
    from trick_core.command_line import command_prog

    main(checked(tyro.cli(Args, prog=command_prog()), ALGO))
