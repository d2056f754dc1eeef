"""What the network reads: the seat's observation, scaled, and fixed features of every action.

**Observations.** The network reads exactly ``env.observe(agent)["observation"]`` (the default
``observation_type="observation"``), so an agent built on it sees all and only what its seat may know.
Most entries are one-hots in [0, 1], but a few are counts (Asserufen keeps card points as 0..120,
Knüffeln counts tricks and stakes), so each entry is multiplied by a fixed ``input_scale``:
``1 / max(1, largest value seen)`` over observations of random hands (``observation_scale``). One-hots
keep scale 1, counts land in about [0, 1]. The scale is stored in the checkpoint, never re-estimated.

**Actions.** Each action has a fixed feature row (``action_features``) built from its string: its own
one-hot index, its kind (a card play, ``turn``, ``discard``, ``call``, ``pass``...), and the suit and
rank of the card or suit it names. The network's action heads are bilinear in these rows (see
``agents.neural.network``), so what it learns about playing ``C10`` also informs turning ``C10`` down
or discarding it — the action features of the DouZero recipe, at the cost of one matrix product.
"""

from __future__ import annotations

import re

import numpy as np

CARD_PATTERN = re.compile(r"^([A-Z])(A|K|Q|J|O|U|10|[2-9])$")
"""A written card: suit letter, then rank (``"EO"``, ``"H10"``, ``"C4"``)."""
SUIT_PATTERN = re.compile(r"^[A-Z]$")


def parse_action_name(name: str) -> tuple[str, str | None, str | None]:
    """``(kind, suit, rank)`` of an action string: ``"EO"`` -> ``("card", "E", "O")``, ``"turn:C10"`` ->
    ``("turn", "C", "10")``, ``"call:E"`` -> ``("call", "E", None)``, ``"say:5"`` -> ``("say", None, None)``,
    ``"pass"`` -> ``("pass", None, None)``."""
    kind, separator, argument = name.partition(":")
    if not separator:
        card = CARD_PATTERN.match(name)
        return ("card", card.group(1), card.group(2)) if card else (name, None, None)
    card = CARD_PATTERN.match(argument)
    if card:
        return kind, card.group(1), card.group(2)
    if SUIT_PATTERN.match(argument):
        return kind, argument, None
    return kind, None, None


def action_feature_labels(action_names: list[str] | tuple[str, ...]) -> list[tuple[str, str]]:
    """What each column of ``action_features(action_names)`` stands for: ``("action", name)``, ``("kind", k)``,
    ``("suit", s)`` or ``("rank", r)`` (``agents.neural.widen`` matches the columns of two action lists by it)."""
    parsed = [parse_action_name(name) for name in action_names]
    kinds = list(dict.fromkeys(kind for kind, _, _ in parsed))
    suits = list(dict.fromkeys(suit for _, suit, _ in parsed if suit is not None))
    ranks = list(dict.fromkeys(rank for _, _, rank in parsed if rank is not None))
    return ([("action", name) for name in action_names] + [("kind", kind) for kind in kinds]
            + [("suit", suit) for suit in suits] + [("rank", rank) for rank in ranks])


def action_features(action_names: list[str] | tuple[str, ...]) -> np.ndarray:
    """``float32 (num_actions, num_features)``: per action, its one-hot index, then one-hots of its kind,
    its suit and its rank (the vocabularies are those present among ``action_names``, in order of first
    appearance, so the rows depend only on the game's action list)."""
    parsed = [parse_action_name(name) for name in action_names]
    kinds = list(dict.fromkeys(kind for kind, _, _ in parsed))
    suits = list(dict.fromkeys(suit for _, suit, _ in parsed if suit is not None))
    ranks = list(dict.fromkeys(rank for _, _, rank in parsed if rank is not None))
    count = len(action_names)
    features = np.zeros((count, count + len(kinds) + len(suits) + len(ranks)), dtype=np.float32)
    for index, (kind, suit, rank) in enumerate(parsed):
        features[index, index] = 1.0
        features[index, count + kinds.index(kind)] = 1.0
        if suit is not None:
            features[index, count + len(kinds) + suits.index(suit)] = 1.0
        if rank is not None:
            features[index, count + len(kinds) + len(suits) + ranks.index(rank)] = 1.0
    return features


def observation_scale(batch_env, steps: int = 400, encode=None) -> np.ndarray:
    """``float32 (input_size,)``: ``1 / max(1, largest |value|)`` of each entry of the (``encode``-d)
    observation over ``steps`` uniformly random steps of ``batch_env`` (every row's observation, and every
    seat's now and then, from a reset)."""
    encode = encode or (lambda observation: observation)
    out = batch_env.reset()
    largest = np.abs(encode(out.observation)).max(axis=0)
    for step in range(steps):
        out = batch_env.step(batch_env.sample_actions())
        largest = np.maximum(largest, np.abs(encode(out.observation)).max(axis=0))
        if step % 50 == 0:
            every_seat = batch_env.observe_all().reshape(-1, batch_env.obs_size)
            largest = np.maximum(largest, np.abs(encode(every_seat)).max(axis=0))
    return (1.0 / np.maximum(largest, 1.0)).astype(np.float32)
