"""An outside agent: a myopic greedy player, written only against the public API.

It enters the arena the way a third-party agent would::

    python -m agents.arena --game bavarian --agents pimc agents.examples.outside_greedy:make_agent

and deliberately imports nothing from ``agents``: ``make_agent(game, **kwargs)`` returns an object with
``name`` and ``act(env, agent)``, which is all the arena needs. ``pimc`` was never tuned against it.

Policy (the same for every game):

- **Card play**: for each legal card, estimate in ``samples`` worlds drawn by
  ``env.unwrapped.resample_from_infostate`` how often the current trick ends up won by this seat when the
  rest of the trick is played at random (or, if the hand ends with the trick, how often the hand is won).
  Play the card with the best chance; among cards within ``tolerance`` of the best it plays the lowest
  card (the highest card index: every pack lists ranks from high to low within a suit), keeping high
  cards when it cannot win anyway.
- **Everything else** is myopic: take an immediate gain (a Jann, an Ole, a ten exchange), otherwise the
  most cautious word (pass, weg, no double, no gift, silence, accepting a turn); a choice with no such
  option (which ace to call, which trump to name) goes to the first legal action.
"""

from __future__ import annotations

import numpy as np

GAIN_PREFIXES = ("stop", "take_ole", "exchange:")
CAUTIOUS_ACTIONS = ("pass", "weg", "no_double", "no_schenken", "silent", "sit_out", "accept", "decline", "refuse")


class GreedyTrickAgent:
    """Win the current trick when it can, cheaply; never bid (see the module docstring)."""

    name = "outside_greedy"

    def __init__(self, game: str, samples: int = 6, tolerance: float = 0.05, seed: int | None = None) -> None:
        self.game = game
        self.samples = int(samples)
        self.tolerance = float(tolerance)
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, env, agent: str) -> int:
        legal = np.flatnonzero(env.observe(agent)["action_mask"])
        if legal.size == 1:
            return int(legal[0])
        base = env.unwrapped
        names = [base.action_to_string(int(a)) for a in legal]
        cards = [int(a) for a, n in zip(legal, names, strict=True) if base.deck.is_card(n)]
        if len(cards) > 1:
            return self._play_card(env, agent, cards)
        for prefix in GAIN_PREFIXES:
            for action, name in zip(legal, names, strict=True):
                if name.startswith(prefix):
                    return int(action)
        for cautious in CAUTIOUS_ACTIONS:
            if cautious in names:
                return int(legal[names.index(cautious)])
        return int(cards[0]) if cards else int(legal[0])

    def _play_card(self, env, agent: str, cards: list[int]) -> int:
        chances = np.array([self._trick_chance(env, agent, card) for card in cards])
        good = [card for card, chance in zip(cards, chances, strict=True) if chance >= chances.max() - self.tolerance]
        return max(good)

    def _trick_chance(self, env, agent: str, card: int) -> float:
        won = 0
        for _ in range(self.samples):
            world = env.unwrapped.resample_from_infostate(agent, self.rng)
            tricks_before = len(world.state()["tricks"])
            world.step(card)
            won += self._finish_trick(world, agent, tricks_before)
        return won / self.samples

    def _finish_trick(self, world, agent: str, tricks_before: int) -> bool:
        """Play the trick out at random: did ``agent`` win it (or the hand, if that ended first)?"""
        while True:
            tricks = world.state()["tricks"]
            if len(tricks) > tricks_before:
                return tricks[tricks_before]["winner"] == agent
            if world.terminations[world.agent_selection]:
                return world.game_record()["result"][world.possible_agents.index(agent)] > 0
            world.step(int(self.rng.choice(world.legal_actions())))


def make_agent(game: str, **kwargs) -> GreedyTrickAgent:
    """The factory the arena calls as ``agents.examples.outside_greedy:make_agent``."""
    return GreedyTrickAgent(game, **kwargs)
