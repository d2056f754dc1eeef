"""The ``neural`` agent: a trained network's best legal action, from the seat's observation alone."""

from __future__ import annotations

import numpy as np

from trick_core.registry import make_env

from ..base import Agent
from .checkpoint import load_agent_policy


class NeuralAgent(Agent):
    """Plays the legal action with the highest score of a checkpoint's acting head (its Q value for Deep
    Monte-Carlo, its logit for PPO): deterministic, greedy, numpy only at play time.

    It reads ``env.observe(agent)`` (observation and action mask) and the table's public rule options (it
    plays only the configuration it was trained on, as ``pimc_neural``), nothing else, so tables that differ
    only in what the seat cannot see get the same decision. ``path`` selects a checkpoint (default: the
    one shipped for ``game``); ``head`` overrides the checkpoint's acting head (``"q"`` or ``"policy"``)."""

    name = "neural"

    def __init__(self, game: str, path: str | None = None, head: str | None = None, seed: int | None = None) -> None:
        super().__init__(game, seed)
        self.path, checkpoint, self.policy = load_agent_policy(self.game, path, head)
        self.config = checkpoint["config"]
        self.obs_size = int(checkpoint["obs_size"])
        self.action_names = list(checkpoint["action_names"])
        self._trained_table = dict(make_env(self.game, **self.config).unwrapped.config)
        """Every rule option of the table the network was trained on, defaults filled in."""

    def act(self, env, agent: str) -> int:
        if env.unwrapped.config != self._trained_table:
            raise ValueError(
                f"checkpoint {str(self.path)!r} was trained on {self.game} with config {self.config}; this table "
                f"has config {dict(env.unwrapped.config)}: pass neural[path=...] for a checkpoint trained on it"
            )
        seen = env.observe(agent)
        observation, legal = seen["observation"], seen["action_mask"].astype(bool)
        self._check_table(observation, legal)
        if not legal.any():
            raise ValueError(f"{agent} has no legal action: it is not its turn or the hand is over")
        scores = self.policy.scores(observation[None, :])[0]
        self.decisions += 1
        return int(np.flatnonzero(legal)[np.argmax(scores[legal])])

    def _check_table(self, observation: np.ndarray, legal: np.ndarray) -> None:
        if observation.shape != (self.obs_size,) or legal.shape != (self.policy.num_actions,):
            raise ValueError(
                f"checkpoint {str(self.path)!r} was trained on {self.game} with config {self.config} "
                f"(observation {self.obs_size}, actions {self.policy.num_actions}); this table has "
                f"observation {observation.shape[0]} and {legal.shape[0]} actions (another variant or "
                "observation_type): pass neural[path=...] for a checkpoint trained on it"
            )

    def __repr__(self) -> str:
        return f"NeuralAgent(game={self.game!r}, path={str(self.path)!r})"

