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

**Perfect-information critic** (``--critic perfect``, PerfectDou's idea; ``agents.neural.critic``). The
values that GAE and the returns are built on come from a second network that also sees every seat's held
cards; the deal's luck, which the seat cannot see, is then mostly inside the baseline instead of in the
advantages. The policy still reads only its seat's observation; the network's own value head learns the same
returns; the critic is trained beside it (same optimizer, its weights kept in the training checkpoint for
``--resume``) and is not part of the saved network. It needs ``--actors 0`` (the actors receive the policy's
weights only).

Outputs, evaluation against ``rules``, resume, seeding and experience actors (``--actors``): as
``experiments/dmc.py``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Literal

import numpy as np
import torch
import tyro

from agents.neural.checkpoint import load_checkpoint
from agents.neural.critic import CriticOptimizer, make_critic, seat_hands
from agents.neural.network import masked_logits
from experiments.common import LossLog, SelfPlayArgs, begin_run, checked, starting_network
from experiments.selfplay import SelfPlay, SelfPlayCollector
from trick_core.registry import game_spec, make_env

ALGO = "ppo"


@dataclass
class Args(SelfPlayArgs):
    """Masked PPO self-play on the compiled batch envs, with an opponent pool."""

    learning_rate: float = 2.5e-4
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
    norm_adv: bool = True
    """normalise advantages per minibatch"""
    opponent_fraction: float = 0.2
    signal_coef: float = 0.0
    """positive signalling (Eccles et al. 2019) on the talk decisions (Knüffeln's talk turns): this weight
    times the batch's estimate of I(message; state), H(mean policy) - mean H(policy), is added to the
    objective, so that what a seat says comes to depend on what it holds (0: off)"""
    critic: Literal["none", "perfect"] = "none"
    """perfect: a critic that also sees every seat's held cards gives the values of GAE and the returns (a
    training aid, not saved with the network; needs --actors 0)"""

    def check_options(self, config: dict) -> None:
        """The critic's own conditions: no experience actors, and a resumed run's critic as it was."""
        if self.critic == "perfect" and self.actors:
            raise ValueError("--critic perfect needs --actors 0: the actors receive the policy's weights only, "
                             "not the critic's")
        if self.signal_coef and str(config.get("talk", "off")) == "off":
            raise ValueError(f"--signal-coef acts on talk turns: {self.game} {config} has none (talk is off)")
        if self.resume:
            saved = (load_checkpoint(self.resume).get("training") or {}).get("args", {}).get("critic", "none")
            if saved != self.critic:
                raise ValueError(f"{self.resume!r} was trained with --critic {saved}, not {self.critic}: a resumed "
                                 "run takes the arguments of the run it continues")


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


class PPOCollector(SelfPlayCollector):
    """The rollout: sampled actions with their log-probabilities and values; rewards scaled as they arrive,
    advantages estimated along each seat's chain when the hands end."""

    extras = ("logprob", "value")
    record_masks = True

    def __init__(self, *args, critic=None, **kwargs) -> None:
        """``critic``: the perfect-information critic whose values replace the policy's (``--critic perfect``)."""
        self.critic = critic
        if critic is not None:
            self.extras = (*PPOCollector.extras, "hands")
        super().__init__(*args, **kwargs)

    def start_rollout(self, worker) -> None:
        worker.generator.manual_seed(int(self.rng.integers(2**62)))

    def act(self, worker, learner, encoded):
        """Actions of every row: the learner's policy in its rows, the pool policy in the others."""
        mask = worker.out.action_mask
        if learner.all():
            actions, log_probs, values = sample_actions(worker.policy, encoded, mask, worker.generator, self.device)
        else:
            actions = np.empty(worker.env.num_envs, dtype=np.int64)
            log_probs = np.zeros(worker.env.num_envs, dtype=np.float32)
            values = np.zeros(worker.env.num_envs, dtype=np.float32)
            for rows, player in ((np.flatnonzero(learner), worker.policy), (np.flatnonzero(~learner), self.opponent)):
                if rows.size:
                    actions[rows], log_probs[rows], values[rows] = sample_actions(
                        player, encoded[rows], mask[rows], worker.generator, self.device)
        if self.critic is None:
            return actions, {"logprob": log_probs, "value": values}
        hands = seat_hands(worker.env.held_cards(), worker.out.current_player, worker.env.num_cards)
        hands = hands.reshape(hands.shape[0], -1).astype(np.float32)
        return actions, {"logprob": log_probs, "value": self.critic_values(worker.policy, encoded, hands),
                         "hands": hands}

    def critic_values(self, policy, encoded: np.ndarray, hands: np.ndarray) -> np.ndarray:
        """The critic's values of every row (the seat to act's view and every seat's cards)."""
        with torch.inference_mode():
            scaled = torch.from_numpy(encoded).to(self.device).float() * policy.input_scale
            return self.critic(scaled, torch.from_numpy(hands).to(self.device)).cpu().numpy()

    def outcome(self, out) -> None:
        self.recorder.outcome(out.rewards / self.scale, out.terminated)

    def finished(self):
        return self.recorder.finished(self.args.gae_lambda)


def signalling_information(log_probs: torch.Tensor) -> torch.Tensor:
    """``H(mean policy) - mean H(policy)`` in nats over the rows of ``log_probs``: the mutual information
    between the message and the row (the state) when the rows are equally likely, the positive-signalling
    term (0 when every state says the same, log K when K states each say their own message for sure)."""
    probs = log_probs.exp()
    mean = probs.mean(0)
    marginal_entropy = -(mean * torch.log(mean.clamp_min(1e-12))).sum()
    conditional_entropy = -(probs * log_probs.clamp_min(-1e9)).sum(1).mean()
    return marginal_entropy - conditional_entropy


def talk_only_rows(legal: torch.Tensor, talk_columns: torch.Tensor) -> torch.Tensor:
    """The rows whose every legal action is talk (a talk turn)."""
    return ~(legal.bool() & ~talk_columns).any(1)


def update(args: Args, network, optimizer, decisions, rng, device, critic=None, talk_columns=None) -> dict:
    """PPO's clipped update over the finished hands' decisions (with ``critic``: the recorded values are the
    critic's, and the critic learns the returns beside the value head; with ``talk_columns``, a bool per
    action, and ``signal_coef``: the positive-signalling term on the talk turns)."""
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
    hands = None if critic is None else torch.from_numpy(decisions.extras["hands"]).to(device)
    parameters = list(network.parameters()) + ([] if critic is None else list(critic.parameters()))
    losses = LossLog("policy_loss", "value_loss", "entropy", "approx_kl", "clipfrac",
                     *(() if critic is None else ("critic_loss",)),
                     *(("signal_information",) if args.signal_coef and talk_columns is not None else ()))
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
            critic_loss = {}
            if critic is not None:
                estimate = critic(observation[batch].float() * network.input_scale, hands[batch])
                critic_loss = {"critic_loss": 0.5 * ((estimate - returns[batch]) ** 2).mean()}
                loss = loss + args.vf_coef * critic_loss["critic_loss"]
            signal = {}
            if args.signal_coef and talk_columns is not None:
                talk = talk_only_rows(legal[batch], talk_columns)
                if talk.sum() > 1:
                    signal = {"signal_information": signalling_information(log_probs[talk])}
                    loss = loss - args.signal_coef * signal["signal_information"]
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(parameters, args.max_grad_norm)
            optimizer.step()
            with torch.no_grad():
                losses.add(policy_loss=policy_loss, value_loss=value_loss, entropy=entropy,
                           approx_kl=((ratio - 1) - log_ratio).mean(),
                           clipfrac=((ratio - 1.0).abs() > args.clip_coef).float().mean(), **critic_loss,
                           **signal)
    return losses.means()


def main(args: Args) -> dict:
    config, device, rng, scale = begin_run(args, ALGO, args.env_threads)
    network = starting_network(args, config, device)
    critic = None
    if args.critic == "perfect":
        table = make_env(args.game, **config).unwrapped
        critic = make_critic(network, table.num_seats, table.deck.num_cards, args.hidden).to(device)
        optimizer = CriticOptimizer(network, critic, lr=args.learning_rate, eps=1e-5)
    else:
        optimizer = torch.optim.Adam(network.parameters(), lr=args.learning_rate, eps=1e-5)
    selfplay = SelfPlay(args, algo=ALGO, head="policy", config=config, network=network, optimizer=optimizer,
                        rng=rng, device=device, scale=scale,
                        collector_class=functools.partial(PPOCollector, critic=critic))
    run, rng = selfplay.run, selfplay.rng
    talk_columns = torch.tensor([game_spec(args.game).is_talk(name) for name in run.action_names], device=device)
    metrics: dict = {}
    with selfplay:
        while not run.done():
            decisions = selfplay.rollout()
            with selfplay.learning(len(decisions) * args.update_epochs):
                metrics = update(args, network, optimizer, decisions, rng, device, critic, talk_columns) or metrics
            settlement = float(np.abs(decisions.hand_returns).mean()) * scale if decisions.hands else 0.0
            if run.log({**metrics, **selfplay.throughput(), "charts/mean_abs_settlement": settlement}):
                run.show(f"entropy {metrics.get('losses/entropy', float('nan')):.3f}")
            selfplay.advance()
        return run.finish()


if __name__ == "__main__":
    from trick_core.command_line import command_prog

    main(checked(tyro.cli(Args, prog=command_prog()), ALGO))
