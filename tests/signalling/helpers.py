"""Helpers of the signalling tests: brute-force partner posteriors by replaying every deal through the env."""

from __future__ import annotations

import itertools
from collections import Counter

from agents import make
from signalling.partners import knowledge
from trick_core.registry import make_env


def play_hand(game: str, agent_names, seed: int, config: dict | None = None) -> dict:
    """One hand of ``game`` with the given agents (one name per seat), seeded; its game record."""
    env = make_env(game, **(config or {}))
    agents = [make(name, game) for name in agent_names]
    for index, agent in enumerate(agents):
        if callable(getattr(agent, "reset", None)):
            agent.reset(seed * 10 + index)
    env.reset(seed=seed)
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        seat = env.agent_selection
        env.step(agents[env.unwrapped.possible_agents.index(seat)].act(env, seat))
    return env.unwrapped.game_record()


def _deals(cards: list[str], capacity: list[int]):
    """Every way to give the cards to the seats, seat s taking capacity[s] of them."""
    if not cards:
        yield [[] for _ in capacity]
        return
    seat = next(s for s, free in enumerate(capacity) if free)
    rest_capacity = list(capacity)
    rest_capacity[seat] = 0
    for chosen in itertools.combinations(cards, capacity[seat]):
        remaining = [c for c in cards if c not in chosen]
        for rest in _deals(remaining, rest_capacity):
            rest[seat] = list(chosen)
            yield rest


SEATS = range(4)


class _HolderCounts:
    """Deals counted by the seat holding the called card: each seat holds what ``viewer`` knows of it after
    ``point`` cards plus the deal's hidden cards, and only deals under which the env replays the record's
    actions up to that point are counted."""

    def __init__(self, record: dict, hand, point: int, viewer: int | None) -> None:
        self.know = knowledge(hand, point, viewer)
        self.record, self.called = record, hand.called
        self.known = [list(hand.dealt[s]) if s == viewer else [card for seat, card in hand.plays[:point] if seat == s]
                      for s in SEATS]
        self.cutoff = _actions_before_card(record, point)
        self.env = make_env(record["game"], **record.get("config", {}))
        self.counts = Counter()

    def add(self, hidden: list[list[str]]) -> None:
        """Count the deal giving seat s its known cards and ``hidden[s]``, if the record replays under it."""
        hands = {f"player_{s}": self.known[s] + list(hidden[s]) for s in SEATS}
        try:
            self.env.reset(options={"dealer": self.record["deal"]["dealer"], "hands": hands})
            for _agent, action in self.record["actions"][: self.cutoff]:
                self.env.step(self.env.unwrapped.string_to_action(action))
        except ValueError:
            return
        self.counts[next(s for s in SEATS if self.called in hands[f"player_{s}"])] += 1

    def by_seat(self) -> list[int]:
        return [self.counts[s] for s in SEATS]


def brute_force_holder_counts(record: dict, hand, point: int, viewer: int | None) -> list[int]:
    """Every deal of the cards ``viewer`` cannot see after ``point`` cards, counted by the seat holding the
    called card, keeping those under which the record's actions up to that point were all legal."""
    counts = _HolderCounts(record, hand, point, viewer)
    for deal in _deals(sorted(counts.know.unseen), counts.know.capacity):
        counts.add(deal)
    return counts.by_seat()


def _actions_before_card(record: dict, point: int) -> int:
    """Index in the record's actions just before card number ``point`` + 1 is played (all actions up to
    and including the point-th card and anything said before the next card)."""
    cards = 0
    for index, (_agent, action) in enumerate(record["actions"]):
        is_card = len(action) <= 3 and action[0] in "EGHSCD" and ":" not in action
        if is_card:
            if cards == point:
                return index
            cards += 1
    return len(record["actions"])


def sampled_holder_frequencies(record: dict, hand, point: int, viewer: int | None, samples: int, seed: int):
    """Uniformly random deals of what ``viewer`` cannot see, kept when the env replays the record legally:
    (accepted deals per holder seat, deals drawn). A Monte Carlo check of the exact counts."""
    import numpy as np

    counts = _HolderCounts(record, hand, point, viewer)
    rng = np.random.default_rng(seed)
    unseen = sorted(counts.know.unseen)
    for _ in range(samples):
        order = list(rng.permutation(unseen))
        counts.add([[order.pop() for _ in range(free)] for free in counts.know.capacity])
    return counts.by_seat(), samples
