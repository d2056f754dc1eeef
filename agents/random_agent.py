"""The ``random`` agent: a uniformly random legal action, from a seeded stream."""

from __future__ import annotations

from .base import Agent, legal_actions


class RandomAgent(Agent):
    """Uniform over the legal actions of the ``action_mask`` (the baseline every agent must beat)."""

    name = "random"

    def act(self, env, agent: str) -> int:
        legal = legal_actions(env, agent)
        self.decisions += 1
        return int(legal[self.rng.integers(legal.size)])
