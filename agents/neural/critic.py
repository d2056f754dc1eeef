"""A perfect-information critic: a training aid that sees every seat's cards (PerfectDou's idea).

The policy plays from its seat's observation alone; during training a second network, the critic, may also
read the cards every seat still holds. Much of a hand's settlement is the luck of the deal, which the seat
cannot see but the critic can, so the critic's estimate of the settlement is far less noisy than one made
from the seat's view, and the advantages and value targets built on it carry less of the deal's luck.
The critic is never part of the agent: a shipped checkpoint holds the policy network alone.

Input: the policy network's scaled, encoded observation of the seat to act, then each seat's held cards as
bits, the seat to act first and the others in seat order after it (``seat_hands``), so one critic serves
every seat.

Used by ``experiments/ppo.py`` (``--critic perfect``: the critic's values drive GAE and the returns) and
``experiments/distil.py`` (``--critic perfect``: the value head learns the critic's estimate).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch
from torch import nn


class PerfectCritic(nn.Module):
    """The settlement of the seat to act from its encoded observation and every seat's cards (see the
    module docstring)."""

    def __init__(self, input_size: int, hidden: Sequence[int]) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        for width in hidden:
            layers += [nn.Linear(input_size, width), nn.ReLU()]
            input_size = width
        self.net = nn.Sequential(*layers, nn.Linear(input_size, 1))

    def forward(self, encoded: torch.Tensor, hands: torch.Tensor) -> torch.Tensor:
        """``encoded``: ``(N, input_size of the policy)``, already scaled; ``hands``: ``(N, seats, cards)`` or
        ``(N, seats * cards)``, 1 where a seat holds a card."""
        return self.net(torch.cat([encoded.float(), hands.flatten(1).float()], dim=1)).squeeze(1)


def make_critic(network, num_seats: int, num_cards: int, hidden: Sequence[int]) -> PerfectCritic:
    """A critic for ``network``'s encoded observations at a table of ``num_seats`` and a deck of
    ``num_cards`` (its first two hidden widths: the critic only has to fit values)."""
    return PerfectCritic(network.input_size + num_seats * num_cards, tuple(hidden)[:2])


def seat_hands(held: np.ndarray, seats: np.ndarray, num_cards: int) -> np.ndarray:
    """``bool (N, S, num_cards)``: the held-card masks ``held`` (``int64 (N, S)``, one per seat, as a batch env's
    ``held_cards()``) as bits, each row rolled so that its seat in ``seats`` comes first."""
    held = np.asarray(held, dtype=np.int64)
    seats = np.asarray(seats, dtype=np.int64)
    num_seats = held.shape[1]
    order = (seats[:, None] + np.arange(num_seats)[None, :]) % num_seats
    rolled = np.take_along_axis(held, order, axis=1)
    card_bits = np.int64(1) << np.arange(num_cards, dtype=np.int64)
    return (rolled[:, :, None] & card_bits[None, None, :]) != 0


class CriticOptimizer:
    """One Adam over the policy network and the critic, whose ``state_dict`` also carries the critic's
    weights: a training checkpoint saves both and ``--resume`` restores both through the optimizer slot
    the training ``Run`` already keeps (``agents.neural.training``)."""

    def __init__(self, network: nn.Module, critic: PerfectCritic, **adam_options) -> None:
        self.critic = critic
        self.adam = torch.optim.Adam(list(network.parameters()) + list(critic.parameters()), **adam_options)
        self.param_groups = self.adam.param_groups

    def zero_grad(self) -> None:
        self.adam.zero_grad()

    def step(self) -> None:
        self.adam.step()

    def state_dict(self) -> dict:
        return {"adam": self.adam.state_dict(), "critic": self.critic.state_dict()}

    def load_state_dict(self, state: dict) -> None:
        if set(state) != {"adam", "critic"}:
            raise ValueError("this checkpoint was trained without --critic perfect: resume it without that option")
        self.critic.load_state_dict(state["critic"])
        self.adam.load_state_dict(state["adam"])
