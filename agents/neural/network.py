"""The network every trained agent uses: an MLP over the scaled observation, two action heads that are
bilinear in fixed action features, and a state-value head.

```
x = encode(observation) * input_scale                           (input_size,)   observation + derived features
h = relu(W_k ... relu(W_1 x + b_1) ... + b_k)                   (hidden[-1],)  the torso
q(s, a)      = [h, 1] . Q_embed(phi(a))                          Deep Monte-Carlo: the hand's value after a
logits(s, a) = [h, 1] . P_embed(phi(a))                          PPO: the policy's logits (masked outside)
v(s)         = w_v . h + b_v                                     PPO's critic; warm start fits it too
```

``encode`` appends the derived card features of ``agents.neural.derived`` (computed from the observation
alone; ``features="none"`` leaves it as it is).
``phi(a)`` are the fixed action features of ``agents.neural.features.action_features`` (the action's
one-hot index, kind, suit and rank), and ``Q_embed`` / ``P_embed`` are linear maps from them to
``hidden[-1] + 1`` numbers (a weight row and a bias per action). Evaluating a head for every action is
one product ``h @ M.T`` with the ``(num_actions, hidden + 1)`` matrix ``M = embed(phi)``, so a decision
costs one torso pass whatever the number of legal actions.

**For compiled search later.** ``numpy_weights()`` exports the torso as ``(W, b)`` pairs and each head as
its matrix ``M``: a plain ReLU MLP and one product, which a numba playout policy can evaluate without
torch (``NumpyPolicy`` is that forward pass in numpy, and the agent uses it).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch
from torch import nn

HEADS = ("q", "policy")
"""The action heads: ``q`` (Deep Monte-Carlo) and ``policy`` (PPO)."""


class TrickNet(nn.Module):
    """Torso, Q head, policy head and value head (see the module docstring)."""

    def __init__(
        self, input_scale: np.ndarray, action_features: np.ndarray, hidden: Sequence[int], encoder=None
    ) -> None:
        """``input_scale``: per entry of the encoded observation; ``encoder``: an
        ``agents.neural.derived.FeatureEncoder`` (None: the raw observation is the input)."""
        super().__init__()
        self.encoder = encoder
        if not hidden or any(int(width) < 1 for width in hidden):
            raise ValueError(f"hidden must list one or more positive layer widths, got {list(hidden)!r}")
        input_scale = np.asarray(input_scale, dtype=np.float32)
        action_features = np.asarray(action_features, dtype=np.float32)
        if input_scale.ndim != 1 or action_features.ndim != 2:
            raise ValueError("input_scale must be 1-D and action_features 2-D")
        self.hidden = tuple(int(width) for width in hidden)
        self.register_buffer("input_scale", torch.from_numpy(input_scale.copy()))
        self.register_buffer("action_features", torch.from_numpy(action_features.copy()))
        layers: list[nn.Module] = []
        width_in = input_scale.shape[0]
        for width in self.hidden:
            layers += [nn.Linear(width_in, width), nn.ReLU()]
            width_in = width
        self.torso = nn.Sequential(*layers)
        feature_count = action_features.shape[1]
        self.q_embedding = nn.Linear(feature_count, width_in + 1)
        self.policy_embedding = nn.Linear(feature_count, width_in + 1)
        self.value_head = nn.Linear(width_in, 1)
        self._initialise()

    @property
    def input_size(self) -> int:
        """Entries of the encoded observation the torso reads."""
        return int(self.input_scale.shape[0])

    @property
    def features_name(self) -> str:
        return "none" if self.encoder is None else self.encoder.name

    def encode(self, observation: np.ndarray) -> np.ndarray:
        """float32 ``(N, input_size)``: raw observations with the derived features appended (numpy)."""
        observation = np.asarray(observation, dtype=np.float32)
        return observation if self.encoder is None else self.encoder(observation)

    @property
    def num_actions(self) -> int:
        return int(self.action_features.shape[0])

    def _initialise(self) -> None:
        """Orthogonal torso (as CleanRL's PPO); a near-uniform initial policy; small initial values."""
        for layer in self.torso:
            if isinstance(layer, nn.Linear):
                nn.init.orthogonal_(layer.weight, np.sqrt(2))
                nn.init.zeros_(layer.bias)
        for head, gain in ((self.q_embedding, 0.1), (self.policy_embedding, 0.01), (self.value_head, 0.1)):
            nn.init.orthogonal_(head.weight, gain)
            nn.init.zeros_(head.bias)

    def features(self, observation: torch.Tensor) -> torch.Tensor:
        """The torso's output ``h`` for a batch of encoded observations ``(N, input_size)``."""
        return self.torso(observation.float() * self.input_scale)

    def head_matrix(self, head: str) -> torch.Tensor:
        """``(num_actions, hidden + 1)``: the weight row and bias of every action in ``head``."""
        if head == "q":
            return self.q_embedding(self.action_features)
        if head == "policy":
            return self.policy_embedding(self.action_features)
        raise ValueError(f"unknown head {head!r}; choose from {HEADS}")

    def scores(self, features: torch.Tensor, head: str) -> torch.Tensor:
        """``(N, num_actions)``: Q values (``"q"``) or logits (``"policy"``) of every action."""
        matrix = self.head_matrix(head)
        return features @ matrix[:, :-1].T + matrix[:, -1]

    def value(self, features: torch.Tensor) -> torch.Tensor:
        """``(N,)``: the state value of the seat to act."""
        return self.value_head(features).squeeze(-1)

    def forward(self, observation: torch.Tensor, head: str = "q") -> torch.Tensor:
        return self.scores(self.features(observation), head)

    def numpy_weights(self) -> dict:
        """The weights as float32 numpy arrays: ``input_scale``, ``torso`` (list of ``(W, b)``, ``W`` of shape
        ``(out, in)``), ``heads`` (``{"q": M, "policy": M}``, ``M`` of shape ``(num_actions, hidden + 1)``),
        ``value`` (``(w, b)``). Enough for a forward pass without torch."""
        with torch.no_grad():
            torso = [
                (layer.weight.detach().cpu().numpy().copy(), layer.bias.detach().cpu().numpy().copy())
                for layer in self.torso
                if isinstance(layer, nn.Linear)
            ]
            heads = {head: self.head_matrix(head).detach().cpu().numpy().copy() for head in HEADS}
            value = (self.value_head.weight.detach().cpu().numpy()[0].copy(), float(self.value_head.bias.item()))
        return {"input_scale": self.input_scale.cpu().numpy().copy(), "torso": torso, "heads": heads, "value": value,
                "encoder": self.encoder}


class NumpyPolicy:
    """The forward pass of one head of a ``TrickNet`` in numpy (what the agent runs: no torch call, a few
    tens of microseconds per decision)."""

    def __init__(self, weights: dict, head: str) -> None:
        if head not in HEADS:
            raise ValueError(f"unknown head {head!r}; choose from {HEADS}")
        self.head = head
        self.encoder = weights.get("encoder")
        self.input_scale = weights["input_scale"]
        self.torso = weights["torso"]
        matrix = weights["heads"][head]
        self.head_weight = np.ascontiguousarray(matrix[:, :-1].T)
        self.head_bias = matrix[:, -1].copy()
        self.input_size = int(self.input_scale.shape[0])
        self.num_actions = int(matrix.shape[0])

    def scores(self, observation: np.ndarray) -> np.ndarray:
        """``(N, num_actions)`` scores for raw observations ``(N, obs_size)`` (or one ``(obs_size,)``)."""
        observation = np.asarray(observation, dtype=np.float32)
        if self.encoder is not None:
            observation = self.encoder(observation)
        hidden = observation * self.input_scale
        for weight, bias in self.torso:
            hidden = np.maximum(hidden @ weight.T + bias, 0.0)
        return hidden @ self.head_weight + self.head_bias


def masked_argmax(scores: torch.Tensor, legal: torch.Tensor) -> torch.Tensor:
    """Index of the best legal action per row (``legal``: bool ``(N, num_actions)``)."""
    return scores.masked_fill(~legal, -torch.inf).argmax(dim=1)


def masked_logits(logits: torch.Tensor, legal: torch.Tensor) -> torch.Tensor:
    """Logits with illegal actions at a large negative value (finite, so that entropies stay finite)."""
    return logits.masked_fill(~legal, -1e9)
