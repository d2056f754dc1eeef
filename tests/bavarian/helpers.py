"""Helpers of the Bavarian tests: deals built around one chosen hand, twin records that deal anew the cards
one seat cannot see (the no-leak tests of the plain game and of its options), and a hand played by agents."""

from __future__ import annotations

import numpy as np

from schafkopf_env.bavarian import reference

AGENTS = [f"player_{s}" for s in range(4)]


def deal_with_hand(rng: np.random.Generator, pack, hand: list[str]) -> tuple[int, list[list[str]]]:
    """A random seat (the first draw of ``rng``) dealt ``hand``, the rest of ``pack`` dealt at random to the
    other three, as many cards each: ``(that seat, the four hands)``."""
    seat = int(rng.integers(4))
    size = len(hand)
    rest = [card for card in rng.permutation(pack) if card not in hand]
    hands = [list(rest[size * i : size * i + size]) for i in range(3)]
    hands.insert(seat, list(hand))
    return seat, hands


def _replayed(dealer: int, hands: list[list[str]], actions: list[str], config: dict) -> reference.BavarianGame:
    """The reference game after ``actions`` from this deal under the rule options ``config`` (``ValueError``
    at an action the deal makes illegal)."""
    game = reference.BavarianGame(dealer, hands, **config)
    for action in actions:
        game.play(action)
    return game


def hidden_permutation(record: dict, observer: int, rng: np.random.Generator,
                       config: dict | None = None) -> dict | None:
    """The record (under the rule options ``config``) with the cards ``observer`` cannot see shuffled among
    the other seats (each keeps its count and the cards it has played), or None when the history would be
    illegal under that deal."""
    config = config or {}
    dealer = record["deal"]["dealer"]
    hands = [list(record["deal"]["hands"][a]) for a in AGENTS]
    actions = [a for _, a in record["actions"]]
    game = _replayed(dealer, hands, actions, config)
    others = [s for s in range(4) if s != observer]
    pool = [card for s in others for card in game.hands[s]]
    rng.shuffle(pool)
    new_hands = [list(h) for h in hands]
    for s in others:
        played = [card for card in hands[s] if card not in game.hands[s]]
        count = len(game.hands[s])
        new_hands[s] = played + pool[:count]
        pool = pool[count:]
    try:
        _replayed(dealer, new_hands, actions, config)
    except ValueError:
        return None
    deal = {"dealer": dealer, "hands": {a: new_hands[s] for s, a in enumerate(AGENTS)}}
    return {**record, "deal": deal, "result": None}


def play_with_agents(env, players, seed: int) -> None:
    """Play one hand of ``env`` from ``reset(seed=seed)`` to its end, seat ``s`` by ``players[s]``."""
    env.reset(seed=seed)
    for agent in env.agent_iter():
        _, _, termination, truncation, _ = env.last()
        env.step(None if termination or truncation else players[int(agent[-1])].act(env, agent))
