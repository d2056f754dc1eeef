"""A seat view of a Knüffeln table that rewrites the talk one seat observes.

An agent sees the table through ``env.observe(agent)`` (and ``env.unwrapped`` for action strings and the
configuration). ``TalkView`` wraps an env and hands the agent the same observation with its talk section
rewritten by a function: this is how the message-scramble test changes what a listener hears of its
partner, and how the token-permutation control re-labels tokens, without touching the env or the agent.

The talk section (``knuffeln_v0`` docs, "Observation"): 36 slots in speaking order, each
``speaker (n, relative seat) | utterance (V) | shown card suit (4) | shown card rank (12)``, all zeros
until used. The utterance one-hot is ``silent, say:1..24, show`` (``lexicon``, V = 26) or ``silent,
token:1..N`` (``tokens:N``, V = N + 1); the shown card is filled only for the shower's teammates.
``TalkSlot`` is one slot decoded; a rewrite function maps ``(slot index, TalkSlot, observer) -> TalkSlot``.

The view forwards everything else to the env, so ``resample_from_infostate`` still samples worlds of the
*true* talk (a card shown by the partner constrains them): a rewritten view is meant for agents that
read their observation only, as the rule-based talker does.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from agents.rules.knuffeln_table import observation_layout
from knuffeln_env.knuffeln import kernel as K

TALK_CARD_FEATURES = K.NUM_SUITS + K.NUM_RANKS


@dataclass(frozen=True)
class TalkSlot:
    """One talk slot: relative speaker, utterance index (0 = silent), shown card index (or None)."""

    speaker: int
    utterance: int
    card: int | None


@dataclass(frozen=True)
class TalkLayout:
    """Where the talk section and the sections a rewrite may need lie in one configuration's observation."""

    players: int
    vocabulary: int
    talk_offset: int
    width: int
    team: tuple[int, int]
    hand: tuple[int, int]
    played: tuple[int, int]
    lexicon: bool

    @property
    def show_utterance(self) -> int | None:
        """Utterance index of ``show`` (lexicon only)."""
        return self.vocabulary - 1 if self.lexicon else None

    def slots(self, observation: np.ndarray) -> list[TalkSlot]:
        """The filled talk slots, in speaking order."""
        n, v = self.players, self.vocabulary
        block = np.asarray(observation[self.talk_offset:self.talk_offset + K.MAX_TALK * self.width])
        block = block.reshape(K.MAX_TALK, self.width)
        count = int(np.count_nonzero(block[:, :n].max(axis=1) > 0.5))
        block = block[:count]
        speakers = block[:, :n].argmax(axis=1).tolist()
        utterances = block[:, n:n + v].argmax(axis=1).tolist()
        has_card = (block[:, n + v:n + v + K.NUM_SUITS].max(axis=1, initial=0.0) > 0.5).tolist()
        suits = block[:, n + v:n + v + K.NUM_SUITS].argmax(axis=1).tolist() if count else []
        ranks = block[:, n + v + K.NUM_SUITS:].argmax(axis=1).tolist() if count else []
        return [TalkSlot(speakers[k], utterances[k], suits[k] * K.NUM_RANKS + ranks[k] if has_card[k] else None)
                for k in range(count)]

    def write(self, observation: np.ndarray, index: int, slot: TalkSlot) -> None:
        start = self.talk_offset + index * self.width
        block = observation[start:start + self.width]
        block[:] = 0.0
        block[slot.speaker] = 1.0
        block[self.players + slot.utterance] = 1.0
        if slot.card is not None:
            suit, rank = divmod(slot.card, K.NUM_RANKS)
            block[self.players + self.vocabulary + suit] = 1.0
            block[self.players + self.vocabulary + K.NUM_SUITS + rank] = 1.0

    def mask_of(self, observation: np.ndarray, section: tuple[int, int]) -> int:
        offset, size = section
        bits = 0
        for index in np.flatnonzero(observation[offset:offset + size] > 0.5).tolist():
            bits |= 1 << index
        return bits

    def teammates(self, observation: np.ndarray) -> set[int]:
        """Relative seats of the observer's teammates (the observer excluded)."""
        team = self.mask_of(observation, self.team)
        return {r for r in range(1, self.players) if team >> r & 1}

    def visible_cards(self, observation: np.ndarray) -> int:
        """Cards the observer holds or has seen played (bit mask)."""
        offset, size = self.played
        played = 0
        for index in np.flatnonzero(observation[offset:offset + size] > 0.5).tolist():
            played |= 1 << (index % K.NUM_CARDS)
        return self.mask_of(observation, self.hand) | played


def talk_layout(config: dict) -> TalkLayout:
    """The talk layout of a Knüffeln configuration (``ValueError`` when talk is off)."""
    talk = config.get("talk", "off")
    if talk == "off":
        raise ValueError("the configuration has talk='off': there is no talk to rewrite")
    players = int(config.get("players", 4))
    layout = observation_layout(config.get("variant", "bohmstedt"), players, talk)
    offset, size = layout.offsets["talk"]
    width = size // K.MAX_TALK
    return TalkLayout(
        players=players, vocabulary=width - players - TALK_CARD_FEATURES, talk_offset=offset, width=width,
        team=layout.offsets["team"], hand=layout.offsets["hand"], played=layout.offsets["played"],
        lexicon=talk == "lexicon",
    )


class _UnwrappedView:
    """``env.unwrapped`` as the view shows it: everything forwarded."""

    def __init__(self, base) -> None:
        self._base = base

    def __getattr__(self, name):
        return getattr(self._base, name)


class TalkView:
    """``env`` with the talk of each observation rewritten by ``rewrite(index, slot, observation) -> slot``
    (``observation`` is the observer's unmodified vector, for context)."""

    def __init__(self, env, rewrite) -> None:
        self._env = env
        self._rewrite = rewrite
        self._layout = talk_layout(env.unwrapped.config)
        self.unwrapped = _UnwrappedView(env.unwrapped)

    @property
    def layout(self) -> TalkLayout:
        return self._layout

    def observe(self, agent: str) -> dict:
        seen = self._env.observe(agent)
        observation = np.array(seen["observation"], copy=True)
        original = seen["observation"]
        for index, slot in enumerate(self._layout.slots(original)):
            new = self._rewrite(index, slot, original)
            if new != slot:
                self._layout.write(observation, index, new)
        return {"observation": observation, "action_mask": seen["action_mask"]}

    def __getattr__(self, name):
        return getattr(self._env, name)
