"""The Schafkopf observations' ``voids`` block: a seat that did not follow the led effective suit has shown
it holds none of it (everyone must follow). Checked on random hands of every Schafkopf game against the
plays themselves, tracked here trick by trick: every such play is marked, nothing else is, and no seat
marked void in a suit ever holds a card of it (the hands in ``state()``'s kernel array)."""

from __future__ import annotations

import numpy as np
import pytest

from schafkopf_env.trumps import EFFECTIVE_SUIT, VOID_SUITS
from trick_core.bits import ONE, ZERO
from trick_core.cards import FRENCH_32, GERMAN_32
from trick_core.layout import block_starts
from trick_core.registry import kernel_module, make_env

CONFIGURATIONS = [
    ("bavarian", {}),
    ("bavarian", {"geier": True, "farbwenz": True, "bettel": True, "ramsch": True}),
    ("palatinate", {}),
    ("palatinate", {"players": 4}),
    ("asserufen", {}),
]
HANDS = 60


def trump_kind(game: str, state) -> int:
    kernel = kernel_module(game)
    return int(state[kernel.S_TRUMP if game == "palatinate" else kernel.S_TRUMP_KIND])


def held_cards(game: str, state, seat: int) -> list[int]:
    mask = np.uint64(state[kernel_module(game).S_HANDS + seat])
    return [card for card in range(32) if (mask >> np.uint64(card)) & ONE != ZERO]


def expected_voids(kind: int, tricks, observer: int, positions: int) -> np.ndarray:
    """``positions x VOID_SUITS`` from the tricks so far (lists of ``(seat, card)`` in playing order)."""
    voids = np.zeros((positions, VOID_SUITS), dtype=np.float32)
    for trick in tricks:
        led_suit = EFFECTIVE_SUIT[kind, trick[0][1]]
        for seat, card in trick[1:]:
            if EFFECTIVE_SUIT[kind, card] != led_suit:
                voids[(seat - observer) % positions, led_suit] = 1.0
    return voids


def check_every_seat(env, game, tricks, positions, at):
    """Checks every seat's block; returns how many entries are set in all of them together."""
    state = env.unwrapped._state
    kind = trump_kind(game, state)
    marked = 0
    for observer, agent in enumerate(env.possible_agents):
        seen = env.observe(agent)["observation"][at : at + positions * VOID_SUITS].reshape(positions, VOID_SUITS)
        assert np.array_equal(seen, expected_voids(kind, tricks, observer, positions)), (game, agent, tricks)
        for position, suit in zip(*np.nonzero(seen), strict=True):
            holder = (observer + position) % positions
            assert all(EFFECTIVE_SUIT[kind, card] != suit for card in held_cards(game, state, holder))
        marked += int(seen.sum())
    return marked


@pytest.mark.parametrize(("game", "config"), CONFIGURATIONS)
def test_voids_mark_exactly_the_plays_that_did_not_follow(game, config):
    env = make_env(game, **config)
    kernel = kernel_module(game)
    params = kernel.make_params(**{key: value for key, value in config.items() if key == "players"})
    at = block_starts(kernel.observation_layout(params, 0))["voids"]
    positions = dict(kernel.observation_layout(params, 0))["voids"] // VOID_SUITS
    cards_per_trick = 3 if game == "palatinate" else 4
    pack = GERMAN_32 if game == "bavarian" else FRENCH_32
    card_of_name = {pack.name_of(card): card for card in range(32)}
    rng = np.random.default_rng(17)
    hands_with_voids = 0
    for hand in range(HANDS):
        env.reset(seed=hand)
        tricks = []
        for agent in env.agent_iter():
            marked = check_every_seat(env, game, tricks, positions, at)
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            action = int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"])))
            card = card_of_name.get(env.unwrapped.action_names[action])
            if card is not None:  # a card played to a trick
                if not tricks or len(tricks[-1]) == cards_per_trick:
                    tricks.append([])
                tricks[-1].append((env.possible_agents.index(agent), card))
            env.step(action)
        hands_with_voids += marked > 0
    assert hands_with_voids > HANDS // 6, "random play ends many hands with voids shown"
