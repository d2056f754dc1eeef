"""How much of a hand's settlement can a critic that sees every seat's cards explain, beyond the network's
own value head? The question behind PPO's ``--critic perfect`` (``agents.neural.critic``), answered offline.

    python -m experiments.critic_check --checkpoint agents/neural/checkpoints/bavarian.pt --json critic.json

The network plays itself (sampling its policy, every seat) in the batch env; every decision is kept with
the seat's encoded observation, every seat's held cards (rolled to the seat to act, as the critic reads
them), the value head's estimate and the hand's settlement for that seat (in the training scale). The
last ``holdout`` share of the decisions is held out. Each variant is fitted on the rest for ``epochs``
passes, and its squared error on the held-out decisions is reported after each pass, beside the value
head's and the variance of the settlements (all in the training scale, ``reward_scale``):

- ``fresh``: the critic of ``--critic perfect``, a new MLP over the encoded observation and the cards;
- ``residual``: the value head's estimate plus a correction learned from the network's torso features and
  the cards (the correction starts at zero, so this variant starts at the value head's error).

A critic is worth its cost in PPO only if its error is clearly below the value head's: the advantages are
settlement minus estimate, so their variance is what the estimate leaves unexplained.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch
import tyro
from torch import nn

from agents.neural.checkpoint import build_network, load_checkpoint
from agents.neural.critic import make_critic, seat_hands
from agents.neural.network import masked_logits
from agents.neural.rollout import HandRecorder, make_batch_env
from agents.neural.training import reward_scale, seed_everything, set_threads
from experiments.common import checked

VARIANTS = ("fresh", "residual")


@dataclass
class Args:
    """Fit perfect-information critics offline on the network's self-play; held-out squared errors."""

    checkpoint: str
    """the network that plays (and whose value head is the baseline)"""
    num_envs: int = 1024
    """hands played at once"""
    steps: int = 800
    """batch steps of self-play (decisions: about num_envs x steps)"""
    holdout: float = 0.2
    """share of the decisions (the last ones) held out"""
    epochs: int = 3
    """passes over the training decisions"""
    learning_rate: float = 3e-4
    """Adam step size of every variant"""
    batch_size: int = 4096
    variants: list[str] = field(default_factory=lambda: list(VARIANTS))
    """fresh, residual"""
    seed: int = 1
    json: str | None = None
    """write the results here"""


class ResidualCritic(nn.Module):
    """The value head's estimate plus a learned correction from the torso's features and every seat's cards."""

    def __init__(self, feature_size: int, cards_size: int, hidden: int = 256) -> None:
        super().__init__()
        self.correction = nn.Sequential(nn.Linear(feature_size + cards_size, hidden), nn.ReLU(),
                                        nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        nn.init.zeros_(self.correction[-1].weight)
        nn.init.zeros_(self.correction[-1].bias)

    def forward(self, features, hands, value):
        return value + self.correction(torch.cat([features, hands], dim=1)).squeeze(1)


def self_play(network, game: str, config: dict, args: Args, scale: float):
    """The decisions of the hands the network finished against itself: encoded observations, cards, value
    head estimates and settlements (scaled)."""
    env = make_batch_env(game, args.num_envs, seed=args.seed, num_threads=1, **config)
    out = env.reset(seed=args.seed)
    recorder = HandRecorder(env.num_envs, env.num_seats, extras=("value", "hands"))
    generator = torch.Generator().manual_seed(args.seed)
    everyone = np.ones(env.num_envs, dtype=bool)
    for _ in range(args.steps):
        encoded = network.encode(out.observation)
        with torch.inference_mode():
            features = network.features(torch.from_numpy(encoded))
            logits = masked_logits(network.scores(features, "policy"), torch.from_numpy(out.action_mask).bool())
            actions = torch.multinomial(torch.softmax(logits, 1), 1, generator=generator).squeeze(1).numpy()
            values = network.value(features).numpy()
        hands = seat_hands(env.held_cards(), out.current_player, env.num_cards).reshape(env.num_envs, -1)
        recorder.record(encoded, actions, out.current_player, everyone, value=values, hands=hands)
        out = env.step(actions)
        recorder.outcome(out.rewards / scale, out.terminated)
    return recorder.finished(), env


def mean_squared(estimate: torch.Tensor, target: torch.Tensor) -> float:
    return float(((estimate - target) ** 2).mean())


def fit_variant(name: str, network, data: dict, train: np.ndarray, test: np.ndarray, args: Args,
                num_seats: int, num_cards: int) -> list[float]:
    """The held-out squared error of variant ``name`` after each epoch."""
    torch.manual_seed(args.seed)
    if name == "fresh":
        critic = make_critic(network, num_seats, num_cards, network.hidden)

        def estimate(rows):
            return critic(data["scaled"][rows], data["hands"][rows])
    else:
        critic = ResidualCritic(data["features"].shape[1], data["hands"].shape[1])

        def estimate(rows):
            return critic(data["features"][rows], data["hands"][rows], data["value"][rows])
    optimizer = torch.optim.Adam(critic.parameters(), lr=args.learning_rate)
    rng = np.random.default_rng(args.seed)
    errors = []
    for _ in range(args.epochs):
        order = rng.permutation(train)
        for start in range(0, order.size, args.batch_size):
            rows = order[start : start + args.batch_size]
            loss = ((estimate(rows) - data["target"][rows]) ** 2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            errors.append(mean_squared(estimate(test), data["target"][test]))
    return errors


def main(args: Args) -> dict:
    set_threads(1, 1)
    seed_everything(args.seed)
    checkpoint = load_checkpoint(args.checkpoint)
    network = build_network(checkpoint).eval()
    game, config = checkpoint["game"], dict(checkpoint["config"])
    scale = reward_scale(game, config, None)
    start = time.perf_counter()
    decisions, env = self_play(network, game, config, args, scale)
    encoded = torch.from_numpy(decisions.observation).float()
    with torch.no_grad():
        features = torch.cat([network.features(encoded[i : i + 65536]) for i in range(0, len(encoded), 65536)])
    data = {"scaled": encoded * network.input_scale, "features": features,
            "hands": torch.from_numpy(decisions.extras["hands"]), "value": torch.from_numpy(decisions.extras["value"]),
            "target": torch.from_numpy(decisions.returns)}
    count = len(decisions)
    test = np.arange(int(count * (1 - args.holdout)), count)
    train = np.arange(test[0])
    result = {
        "checkpoint": args.checkpoint, "game": game, "config": config, "decisions": count, "held_out": int(test.size),
        "scale": scale, "settlement_variance": float(decisions.returns[test].var()),
        "value_head_error": mean_squared(data["value"][test], data["target"][test]),
        "epochs": args.epochs, "learning_rate": args.learning_rate, "seed": args.seed,
        "variants": {name: fit_variant(name, network, data, train, test, args, env.num_seats, env.num_cards)
                     for name in args.variants},
        "seconds": time.perf_counter() - start,
    }
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    return result


def check_options(args: Args) -> None:
    unknown = [name for name in args.variants if name not in VARIANTS]
    if unknown:
        raise ValueError(f"unknown variants {unknown}; choose from {list(VARIANTS)}")
    for name in ("num_envs", "steps", "epochs", "batch_size"):
        if getattr(args, name) < 1:
            raise ValueError(f"{name} must be a positive integer, got {getattr(args, name)!r}")
    if not 0.0 < args.holdout < 1.0:
        raise ValueError(f"holdout must lie in (0, 1), got {args.holdout!r}")
    if not Path(args.checkpoint).is_file():
        raise ValueError(f"no checkpoint at {args.checkpoint!r}")


if __name__ == "__main__":
    from trick_core.command_line import command_prog

    main(checked(tyro.cli(Args, prog=command_prog()), check=check_options))
