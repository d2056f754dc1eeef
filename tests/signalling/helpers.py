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


def brute_force_holder_counts(record: dict, hand, point: int, viewer: int | None) -> list[int]:
    """Deals of the cards ``viewer`` cannot see after ``point`` cards, counted by the seat holding the called
    card, keeping those under which the record's actions up to that point were all legal (env replay)."""
    know = knowledge(hand, point, viewer)
    seats = list(range(4))
    agents = [f"player_{s}" for s in seats]
    played = [[card for seat, card in hand.plays[:point] if seat == s] for s in seats]
    cutoff = _actions_before_card(record, point)
    env = make_env(record["game"], **record.get("config", {}))
    counts = Counter()
    for deal in _deals(sorted(know.unseen), know.capacity):
        hands = {}
        for s in seats:
            known = list(hand.dealt[s]) if s == viewer else played[s]
            hands[agents[s]] = known + deal[s]
        try:
            env.reset(options={"dealer": record["deal"]["dealer"], "hands": hands})
            for _agent, action in record["actions"][:cutoff]:
                env.step(env.unwrapped.string_to_action(action))
        except ValueError:
            continue
        holder = next(s for s in seats if hand.called in hands[agents[s]])
        counts[holder] += 1
    return [counts[s] for s in seats]


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

    know = knowledge(hand, point, viewer)
    rng = np.random.default_rng(seed)
    seats = list(range(4))
    agents = [f"player_{s}" for s in seats]
    played = [[card for s2, card in hand.plays[:point] if s2 == s] for s in seats]
    cutoff = _actions_before_card(record, point)
    env = make_env(record["game"], **record.get("config", {}))
    unseen = sorted(know.unseen)
    counts = Counter()
    for _ in range(samples):
        order = list(rng.permutation(unseen))
        hands = {}
        for s in seats:
            known = list(hand.dealt[s]) if s == viewer else played[s]
            hands[agents[s]] = known + [order.pop() for _ in range(know.capacity[s])]
        try:
            env.reset(options={"dealer": record["deal"]["dealer"], "hands": hands})
            for _agent, action in record["actions"][:cutoff]:
                env.step(env.unwrapped.string_to_action(action))
        except ValueError:
            continue
        counts[next(s for s in seats if hand.called in hands[agents[s]])] += 1
    return [counts[s] for s in seats], samples
