"""The decoded table of the rule-based Knüffeln player (``agents.rules.knuffeln``): where the sections it
reads lie in an observation vector (``observation_layout``), and one seat's observation decoded into a
``Table`` of named facts (``decode``)."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from functools import cache

import numpy as np

from knuffeln_env.knuffeln import kernel as K

from .knuffeln_cards import ALL_CARDS
from .knuffeln_phrases import PHRASE_OF_TOKEN

_SECTIONS = (
    ("dealer", "dealer"), ("team", "team"), ("active", "active"), ("phase", "phase"), ("to_act", "to_act"),
    ("first_suit", "first_suit"), ("second_suit", "second_suit"), ("hand", "hand"), ("turned", "turned"),
    ("face_up", "face_up"), ("shown_stock", "stock_shown_to_all"), ("known_stock", "stock_known"),
    ("out", "out_of_play"), ("received", "received"), ("given", "given"), ("dealer_choice", "dealer_choice"),
    ("ole_offer", "ole_on_offer"), ("played", "played"), ("trick", "trick"), ("leader", "leader"),
    ("awaiting", "awaiting_answer"), ("my_face_down", "my_face_down"), ("counters", "counters"), ("flags", "flags"),
    ("result", "result"), ("talk", "talk"),
)
"""Observation blocks the agent reads: its name of each, and the block's name in ``kernel.observation_layout``."""
_KEY_OF_BLOCK = {block: key for key, block in _SECTIONS}


@dataclass(frozen=True)
class Layout:
    """Where the sections the agent reads lie in the observation vector of one configuration."""

    offsets: dict  # section -> (offset, size)
    starts: tuple  # offset of every section of the layout, in order
    keys: tuple  # the agent's name of each of those sections (None: not read)
    bits_end: int  # every section before this offset holds 0/1 entries only


@cache
def observation_layout(variant: str, players: int, talk: str) -> Layout:
    """The sections of this configuration's observation (any observation type: the sections read here
    come first), from ``kernel.observation_layout``; ``ValueError`` if one the agent needs is missing."""
    params = K.make_params(variant, players, talk)
    offsets, starts, keys, position = {}, [], [], 0
    for name, size in K.observation_layout(params, K.OBS_OBSERVATION):
        key = _KEY_OF_BLOCK.get(name)
        if key is not None:
            offsets[key] = (position, size)
        starts.append(position)
        keys.append(key)
        position += size
    missing = [key for key, _ in _SECTIONS if key not in offsets and key != "talk"]
    if missing:
        raise ValueError(f"knuffeln rules agent: the observation layout has no section {missing}")
    return Layout(offsets, tuple(starts), tuple(keys), offsets["counters"][0])


@dataclass
class Table:
    """One seat's observation decoded. Seats are relative: 0 is the observer, r the seat r places to its
    left (playing order is increasing r, skipping inactive seats). Card sets are int bit masks."""

    players: int
    phase: int
    dealer: int
    team: int  # relative seats of my team (bit r), me included
    active: int  # relative seats that play
    chosen: int  # 4-bit suit mask
    ranking: int
    hand: int
    turned: int
    face_up: int
    shown_stock: int
    known_stock: int
    out: int
    received: list
    given: list
    dealer_mode: int  # 0 undecided / not applicable, 1 plays alone, 2 sits out
    played: list
    trick: dict  # relative seat -> card
    leader: int | None
    turner: int | None
    my_face_down: int | None
    tricks_mine: int
    tricks_theirs: int
    need_mine: int
    need_theirs: int
    tricks_played: int
    stake: int
    jann_mine: bool
    march_mine: bool
    march_theirs: bool
    talk: list  # (relative speaker, phrase number or 0, shown card or None), in speaking order


def _one_hot(bits: int) -> int | None:
    return bits.bit_length() - 1 if bits else None


def _per_seat(bits: int, players: int) -> list[int]:
    return [(bits >> (r * K.NUM_CARDS)) & ALL_CARDS for r in range(players)]


def _read_bits(observation, layout: Layout) -> dict[str, int]:
    """Every 0/1 section before the counters as one int bit mask per section (one numpy call)."""
    bits = dict.fromkeys(layout.offsets, 0)
    starts, keys = layout.starts, layout.keys
    for index in np.flatnonzero(observation[:layout.bits_end] > 0.5).tolist():
        section = bisect_right(starts, index) - 1
        key = keys[section]
        if key is not None:
            bits[key] |= 1 << (index - starts[section])
    return bits


def decode(observation, config: dict, token_code: bool = True) -> Table:
    """Read the sections the agent needs from an observation vector of this configuration."""
    players = int(config["players"])
    layout = observation_layout(config["variant"], players, config["talk"])
    bits = _read_bits(observation, layout)
    counters_at = layout.offsets["counters"][0]
    counters = observation[counters_at:counters_at + K.NUM_COUNTERS].tolist()
    flags_at = layout.offsets["flags"][0]
    flags = (observation[flags_at:flags_at + 4] > 0.5).tolist()
    trick = _per_seat(bits["trick"], players)
    return Table(
        players=players,
        phase=_one_hot(bits["phase"]),
        dealer=_one_hot(bits["dealer"]),
        team=bits["team"],
        active=bits["active"],
        chosen=(1 << _one_hot(bits["first_suit"])) | (1 << _one_hot(bits["second_suit"])),
        ranking=int(K.RANKING_OF_VARIANT[K.VARIANTS.index(config["variant"])]),
        hand=bits["hand"],
        turned=bits["turned"],
        face_up=bits["face_up"],
        shown_stock=bits["shown_stock"],
        known_stock=bits["known_stock"],
        out=bits["out"],
        received=_per_seat(bits["received"], players),
        given=_per_seat(bits["given"], players),
        dealer_mode=_one_hot(bits["dealer_choice"]) or 0,
        played=_per_seat(bits["played"], players),
        trick={r: _one_hot(m) for r, m in enumerate(trick) if m},
        leader=_one_hot(bits["leader"]),
        turner=_one_hot(bits["awaiting"]),
        my_face_down=_one_hot(bits["my_face_down"]),
        tricks_mine=int(counters[0]),
        tricks_theirs=int(counters[1]),
        need_mine=int(counters[2]),
        need_theirs=int(counters[3]),
        tricks_played=int(counters[4]),
        stake=int(counters[8]),
        jann_mine=flags[0],
        march_mine=flags[2],
        march_theirs=flags[3],
        talk=_decode_talk(observation, layout.offsets.get("talk"), players, config["talk"], token_code),
    )


def _decode_talk(observation, section, players: int, talk: str, token_code: bool) -> list:
    """(relative speaker, phrase, shown card) of every talk slot filled so far, in speaking order. Token
    utterances are read through ``TOKEN_CODE`` (or ignored without the code)."""
    if section is None:
        return []
    offset, size = section
    width = size // K.MAX_TALK
    vocabulary = width - players - K.TALK_CARD_FEATURES
    slots: dict[int, list] = {}
    for index in np.flatnonzero(observation[offset:offset + size] > 0.5).tolist():
        slot, position = divmod(index, width)
        entry = slots.setdefault(slot, [None, 0, None, None])
        if position < players:
            entry[0] = position
        elif position < players + vocabulary:
            entry[1] = position - players
        elif position < players + vocabulary + K.NUM_SUITS:
            entry[2] = position - players - vocabulary
        else:
            entry[3] = position - players - vocabulary - K.NUM_SUITS
    spoken = []
    for slot in sorted(slots):
        speaker, utterance, suit, rank = slots[slot]
        phrase, shown = 0, None
        if talk == "lexicon":
            if utterance == vocabulary - 1:  # show:C -- the card is filled in for the shower's team only
                if suit is not None and rank is not None:
                    shown = suit * K.NUM_RANKS + rank
            else:
                phrase = utterance
        elif token_code:
            phrase = PHRASE_OF_TOKEN.get(utterance, 0)
        spoken.append((speaker, phrase, shown))
    return spoken
