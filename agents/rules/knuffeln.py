"""Rule-based Knüffeln player (``agents.make("rules", "knuffeln")``).

It sees the table only through its own observation (decoded with the section list that
``knuffeln_env.kernel.observation_layout`` publishes), the action mask and the public configuration, and
plays like a sensible player of ``shared/rules/knuffeln.md``.

**Card play.** Every card has a *weight*, the share of a later trick it is still worth (Oles 0.8-1,
chosen beaters A J 6 2 3 4 0.75-0.25, a chosen 7 0.9 as a sure trick when led, chosen 9/8 0.3, an
unchosen ace 0.25, K 0.1, Q 0.05, the rest 0), and a card's *hold probability* is the chance that,
as provisional winner, it survives the opponents still to play: each card that could beat it and whose
place the seat does not know lies in those opponents' hands with probability (their unknown cards) /
(all unknown cards, the hidden stock included). The agent plays the card with the best score

    trick value x P(my team wins the trick with this card) - weight of the card

so it wins a trick with the lowest card that beats the provisional winner and holds, throws a worthless
card when the trick is lost or a teammate already wins it safely (it does not overtake a partner's card
unless that card is likely to be beaten and its own holds), and spends more when the trick is worth
more: 2 tricks while a Jann is possible for either side, 3 when the trick decides the hand or a Jann, 5
during a march. A teammate still to play is credited with a chance to take the trick (more when it said it
keeps an Ole, less when it said it feels bad, 0.85 when it is known to hold a card that beats).

**Leads.** A chosen 7 first (unbeatable when led, and the lead comes back); otherwise the same score,
plus half the weight of the cheapest beater the lead draws from the opponents -- which makes chosen
9/8, unchosen aces and K/Q the usual leads and keeps the beaters for the opponents' leads.

**Decisions.** The ten exchange whenever the turned card is worth more than the ten (the best turned
card of the suit); the bottom Ole always. Jann: it marches only when its own sure winners cover every
remaining trick, else it stops. Drehen: it leads face down when its team's chance of winning the hand
(a logistic in the expected tricks: tricks won plus the rest shared by card weight) reaches
``turn_threshold``, never while a Jann is still possible for its team and never during a march. It
accepts a turn when (2p - 1)(stake + 1) > -stake with p lowered by ``accept_threshold`` (the turn is a
sign of strength), else it flees. Five players: the dealer plays alone when the stock's chance of four
tricks reaches ``alone_threshold``.

**Talk** (``talk="lexicon"``). Once per card turn it says the first of these that is true:

| utterance | said when |
|---|---|
| say:22 "We'll play" | before leading to trick 6 after a Jann, when it marches |
| say:12 "Certainly" | a teammate plays later in this trick and the card it is about to play wins it for certain |
| say:14 "I can't, you must play a beater" | a teammate plays later, an opponent wins, no card of its hand beats |
| show:C | its strongest Ole / chosen beater / chosen 7 kept after this card and not shown yet |
| say:17 "I'll certainly make two tricks" | it keeps at least two sure winners after this card |
| say:6 "You play first, I have an Ole" | it keeps an Ole after this card |
| say:9 "I feel bad" | it keeps no Ole, no chosen beater and no chosen 7 |
| say:1 "Are you old?" | its first turn, when it has no Ole and nothing above applies |
| silent | otherwise |

It listens (``listen=True``) to its teammates only: "Certainly", "Let it come" or "Let it run" in this
trick means do not spend a card on it; "I can't, you must play a beater" or "Can you?" means beat if
possible; the last words of a teammate still to play (6 or 17: strong; 9: weak) set its chance to take
the trick; a card it showed is known to be in its hand (no longer a threat, and a sure beater for it).
``show=False`` keeps to phrases; ``speak=False`` stays silent.

**Talk** (``talk="tokens:N"``): with ``token_code=True`` (default) the same honest protocol through a
fixed code (``TOKEN_CODE``: 1 "Certainly", 2 "I can't, you must play a beater", 3 "I keep an Ole",
4 "I feel bad", 5 "two sure tricks", 6 "we march"; a token above N is left unsaid; cards cannot be
shown); with ``token_code=False`` it stays silent and ignores tokens.

It takes no random decisions: ``seed`` (and ``reset(seed)``) is accepted for the agent protocol, and one
observation always gives one action. About 0.2 ms per decision in pure Python.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from dataclasses import dataclass
from functools import cache

import numpy as np

from knuffeln_env import kernel as K

from ..base import Agent

ALL_CARDS = (1 << K.NUM_CARDS) - 1
OLE_MASK = K.OLE_MASK

# Lexicon phrases the agent says or understands (``say:k``, ``knuffeln_v0.PHRASES[k - 1]``).
ARE_YOU_OLD = 1
CAN_YOU = 3
I_HAVE_AN_OLE = 6
FEEL_BAD = 9
LET_IT_COME = 10
LET_IT_RUN = 11
CERTAINLY = 12
CANT_YOU_BEAT = 14
TWO_SURE_TRICKS = 17
WE_MARCH = 22

TOKEN_CODE = {CERTAINLY: 1, CANT_YOU_BEAT: 2, I_HAVE_AN_OLE: 3, FEEL_BAD: 4, TWO_SURE_TRICKS: 5, WE_MARCH: 6}
"""The fixed honest code used with ``talk="tokens:N"`` (phrase -> token number)."""
PHRASE_OF_TOKEN = {token: phrase for phrase, token in TOKEN_CODE.items()}

PARTNER_WINS = (CERTAINLY, LET_IT_COME, LET_IT_RUN)
PARTNER_ASKS_TO_BEAT = (CANT_YOU_BEAT, CAN_YOU)
PARTNER_STRONG_LATER = (I_HAVE_AN_OLE, TWO_SURE_TRICKS)

OLE_WEIGHT = {K.H2: 1.0, K.C4: 0.95, K.S8: 0.9, K.H9: 0.85, K.D9: 0.8}
BEATER_WEIGHT = {6: 0.75, 5: 0.65, 4: 0.5, 3: 0.4, 2: 0.3, 1: 0.25}
"""Expected share of a trick a card brings (by attack value for the chosen beaters): hand strength."""

LEAD_TEAMMATE_CHANCE = 0.25
FOLLOW_TEAMMATE_CHANCE = 0.45
STRONG_TEAMMATE_CHANCE = 0.8
WEAK_TEAMMATE_CHANCE = 0.05
KNOWN_BEATER_CHANCE = 0.85
DRAW_SHARE = 1.5
DECISIVE_TRICK_VALUE = 3.0
JANN_TRICK_VALUE = 1.5
MARCH_TRICK_VALUE = 5.0
"""Card-play judgement: a teammate still to play takes the trick with these chances (by default; after
it said it keeps an Ole or two sure tricks; after it said it feels bad; when it is known to hold a card
that beats); a lead is credited with this share of the worth of the beater it draws; a trick that
decides the hand, keeps a Jann possible, or decides a march is worth this many tricks."""

SHOW_MIN_COST = 9.0
"""Cards worth showing to the partner: Oles, chosen beaters and chosen 7s (the "power" cards)."""

_SECTIONS = (
    ("dealer", "dealer"), ("team", "my team"), ("active", "active seats"), ("phase", "phase"),
    ("to_act", "to act"), ("first_suit", "first chosen suit"), ("second_suit", "second chosen suit"),
    ("hand", "my hand"), ("turned", "cards turned"), ("face_up", "cards face up"),
    ("shown_stock", "stock cards shown"), ("known_stock", "face-down stock cards I know"),
    ("out", "out of play"), ("received", "received by exchange"), ("given", "given by exchange"),
    ("dealer_choice", "dealer choice"), ("ole_offer", "Ole on offer"), ("played", "played face up"),
    ("trick", "current trick,"), ("leader", "current trick leader"), ("awaiting", "face-down lead awaiting"),
    ("my_face_down", "my face-down card"), ("counters", "counters"), ("flags", "Jann pending"),
    ("result", "result"), ("talk", "talk"),
)
"""Observation sections the agent reads, by the name prefix of ``kernel.observation_layout``."""


def popcount(mask: int) -> int:
    return mask.bit_count()


def cards_of(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


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
        key = next((k for k, prefix in _SECTIONS if name.startswith(prefix) and k not in offsets), None)
        if key is not None:
            offsets[key] = (position, size)
        starts.append(position)
        keys.append(key)
        position += size
    missing = [key for key, _ in _SECTIONS if key not in offsets and key != "talk"]
    if missing:
        raise ValueError(f"knuffeln rules agent: the observation layout has no section {missing}")
    return Layout(offsets, tuple(starts), tuple(keys), offsets["counters"][0])


@cache
def beaten_by_table(ranking: int, chosen: int) -> tuple[int, ...]:
    """For every card: the mask of cards that, played later, take over from it as provisional winner
    (section 4's attack/defence rule, from the kernel's tables)."""
    attack = K.ATTACK[chosen]
    defence = K.DEFENCE[chosen]
    suit_rank = K.SUIT_RANK[ranking, chosen]
    table = []
    for winner in range(K.NUM_CARDS):
        mask = 0
        for challenger in range(K.NUM_CARDS):
            same_suit = challenger // K.NUM_RANKS == winner // K.NUM_RANKS
            if attack[challenger] > defence[winner] or (
                suit_rank[winner] > 0 and same_suit and suit_rank[challenger] > suit_rank[winner]
            ):
                mask |= 1 << challenger
        table.append(mask)
    return tuple(table)


@cache
def card_values(ranking: int, chosen: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """(cost, weight) of every card: what spending it gives up, and the trick share it brings."""
    costs, weights = [], []
    for card in range(K.NUM_CARDS):
        suit, rank = divmod(card, K.NUM_RANKS)
        attack = int(K.ATTACK[chosen, card])
        if card in OLE_WEIGHT:
            cost, weight = 20.0 + attack, OLE_WEIGHT[card]
        elif chosen >> suit & 1 and attack:
            cost, weight = 10.0 + attack, BEATER_WEIGHT[attack]
        elif chosen >> suit & 1 and rank == K.RANK_7:
            cost, weight = 9.0, 0.9
        elif chosen >> suit & 1 and rank in (K.RANK_9, K.RANK_8):
            cost, weight = 5.0, 0.3
        elif rank == K.RANK_A:
            cost, weight = 4.0, 0.25
        elif rank == K.RANK_K:
            cost, weight = 2.5, 0.1
        elif rank == K.RANK_Q:
            cost, weight = 1.5, 0.05
        elif chosen >> suit & 1 or ranking == K.RANKING_BOHMSTEDT:
            cost, weight = 0.0, 0.0
        else:  # Hattstedt-style unchosen suits: a higher card beats lower ones of its suit
            cost, weight = int(K.SUIT_RANK[ranking, chosen, card]) / 12.0, 0.0
        costs.append(cost)
        weights.append(weight)
    return tuple(costs), tuple(weights)


# --------------------------------------------------------------------------------------- the decoded table


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


# --------------------------------------------------------------------------------------- what the seat knows


class Situation:
    """The decoded table plus what follows from it: where cards may be, the trick so far, the teams."""

    def __init__(self, table: Table, listen: bool = True) -> None:
        self.t = table
        n = table.players
        self.n = n
        self.beaten_by = beaten_by_table(table.ranking, table.chosen)
        self.cost, self.weight = card_values(table.ranking, table.chosen)
        self.teammates = [r for r in range(1, n) if table.team >> r & 1 and table.active >> r & 1]
        self.opponents = [r for r in range(1, n) if not table.team >> r & 1 and table.active >> r & 1]
        self.dealer_alone = table.dealer_mode == K.DEALER_PLAYS_ALONE
        self.talkers = [r for r in range(n) if table.active >> r & 1 and not (self.dealer_alone and r == table.dealer)]
        self.order = self._trick_order()
        self._locate_cards(listen)
        self.trick_talk, self.last_words = self._talk_by_speaker() if listen else ({}, {})

    # ---- the trick in progress

    def _trick_order(self) -> list[int]:
        """Relative seats in playing order from the leader of the current trick (me first if I lead)."""
        start = self.t.leader if self.t.leader is not None else 0
        return [(start + k) % self.n for k in range(self.n) if self.t.active >> ((start + k) % self.n) & 1]

    def trick_cards(self) -> list[tuple[int, int]]:
        return [(r, self.t.trick[r]) for r in self.order if r in self.t.trick]

    def provisional_winner(self) -> tuple[int, int] | None:
        """(seat, card) currently winning the trick, or None before the lead."""
        cards = self.trick_cards()
        if not cards:
            return None
        best = cards[0]
        for seat, card in cards[1:]:
            if self.beaten_by[best[1]] >> card & 1:
                best = (seat, card)
        return best

    def still_to_play(self) -> list[int]:
        """Seats after me in this trick."""
        if not self.t.trick:
            return [r for r in self.order if r != 0]
        return [r for r in self.order if r not in self.t.trick and r != 0]

    # ---- where the cards may be

    def _hand_size(self, r: int) -> int:
        t = self.t
        if not t.active >> r & 1:
            return 0
        dealt = K.STOCK_SIZE - popcount(t.turned) if self.dealer_alone and r == t.dealer else K.CARDS_PER_HAND
        return dealt - popcount(t.played[r]) - (1 if t.turner == r and r != 0 else 0)

    def _locate_cards(self, listen: bool) -> None:
        t = self.t
        played = 0
        received = 0
        for r in range(self.n):
            played |= t.played[r]
            received |= t.received[r]
        shown_by = [0] * self.n
        for speaker, _phrase, shown in t.talk:
            if shown is not None and (listen or speaker == 0):
                shown_by[speaker] |= 1 << shown
        self.my_shown = shown_by[0]
        self.known_in = [0] * self.n
        for r in range(1, self.n):
            self.known_in[r] = (t.received[r] | shown_by[r]) & ~t.played[r] & ~t.hand
        gone = played | t.face_up | (t.shown_stock & ~received) | t.known_stock | t.out
        if t.my_face_down is not None:
            gone |= 1 << t.my_face_down
        known_elsewhere = 0
        for mask in self.known_in:
            known_elsewhere |= mask
        self.unknown = ALL_CARDS & ~t.hand & ~gone & ~known_elsewhere
        self.unknown_count = popcount(self.unknown)
        self.slots = [0] * self.n
        for r in range(1, self.n):
            self.slots[r] = max(0, self._hand_size(r) - popcount(self.known_in[r]))

    # ---- talk

    def _talk_by_speaker(self) -> tuple[dict, dict]:
        """Teammates' phrases in this trick, and each teammate's last phrase before this trick."""
        t = self.t
        in_trick = sum(1 for r in t.trick if r in self.talkers)
        if t.turner is not None:
            in_trick += 1
        if t.phase == K.PHASE_PLAY and 0 in self.talkers:
            in_trick += 1
        split = len(t.talk) - in_trick
        trick_talk, last_words = {}, {}
        for k, (speaker, phrase, _shown) in enumerate(t.talk):
            if speaker in self.teammates:
                (trick_talk if k >= split else last_words)[speaker] = phrase
        return trick_talk, last_words

    # ---- judgement

    def hold_probability(self, card: int, later_opponents: list[int]) -> float:
        """Chance that ``card``, as provisional winner, is not beaten by the opponents still to play."""
        threats = self.beaten_by[card]
        for r in later_opponents:
            if threats & self.known_in[r]:
                return 0.0
        slots = sum(self.slots[r] for r in later_opponents)
        if not slots or not self.unknown_count:
            return 1.0
        share = min(1.0, slots / self.unknown_count)
        return (1.0 - share) ** popcount(threats & self.unknown)

    def sure_leads(self, hand: int) -> int:
        """Cards of ``hand`` that win the trick for certain when led (no opponent can hold a beater)."""
        sure = 0
        for card in cards_of(hand):
            if self.hold_probability(card, self.opponents) >= 1.0:
                sure |= 1 << card
        return sure

    def expected_team_tricks(self) -> float:
        """Tricks my team may expect by the end: won so far plus a share of the rest proportional to the
        trick weight of the cards each side holds (unknown cards spread over the unknown slots)."""
        t = self.t
        total_tricks = K.MAX_TRICKS
        if self.dealer_alone:
            total_tricks = min(K.MAX_TRICKS, K.STOCK_SIZE - popcount(t.turned))
        remaining = max(0, total_tricks - t.tricks_played)
        mine = sum(self.weight[c] for c in cards_of(t.hand))
        average_unknown = sum(self.weight[c] for c in cards_of(self.unknown)) / max(1, self.unknown_count)
        ours, theirs = mine, 0.0
        for r in self.teammates:
            ours += self.seat_weight(r, average_unknown)
        for r in self.opponents:
            theirs += self.seat_weight(r, average_unknown)
        share = ours / (ours + theirs) if ours + theirs > 0 else 0.5
        return t.tricks_mine + remaining * share

    def seat_weight(self, r: int, average_unknown: float) -> float:
        known = sum(self.weight[c] for c in cards_of(self.known_in[r]))
        weight = known + self.slots[r] * average_unknown
        words = self.last_words.get(r)
        if words == FEEL_BAD:
            weight = known
        elif words == TWO_SURE_TRICKS:
            weight = max(weight, 2.0)
        elif words == I_HAVE_AN_OLE:
            weight = max(weight, 1.0)
        return weight

    def win_probability(self) -> float:
        """Rough chance that my team wins the hand (logistic in the expected-trick margin)."""
        margin = self.expected_team_tricks() - (self.t.need_mine - 0.5)
        return 1.0 / (1.0 + math.exp(-2.0 * margin))

    def best(self, mask: int, score) -> int:
        """The card of ``mask`` with the highest score; ties go to the cheaper card, then the lower index."""
        return max(cards_of(mask), key=lambda c: (round(score(c), 9), -self.cost[c], -c))

    def cheapest_threat(self, card: int) -> float:
        """Worth of the weakest card that may beat ``card``: what an opponent spends to take it."""
        threats = self.beaten_by[card] & (self.unknown | self.opponents_known())
        return min((self.weight[c] for c in cards_of(threats)), default=0.0)

    def opponents_known(self) -> int:
        known = 0
        for r in self.opponents:
            known |= self.known_in[r]
        return known

    def teammate_chance(self, teammates: list[int], base: float, to_beat: int | None = None) -> float:
        """Chance that a teammate still to play takes the trick: known to hold a card that beats ``to_beat``
        (it showed or exchanged it), or from what it last said, or ``base``."""
        chance = 0.0
        for r in teammates:
            words = self.last_words.get(r)
            own = base
            if to_beat is not None and self.known_in[r] & self.beaten_by[to_beat]:
                own = KNOWN_BEATER_CHANCE
            elif words in PARTNER_STRONG_LATER:
                own = STRONG_TEAMMATE_CHANCE
            elif words == FEEL_BAD:
                own = WEAK_TEAMMATE_CHANCE
            chance = 1.0 - (1.0 - chance) * (1.0 - own)
        return chance

    def trick_value(self) -> float:
        """What winning this trick is worth in trick units: more when it decides the hand, a march or a
        Jann (a card is worth its weight in later tricks, so this tips the balance towards spending)."""
        t = self.t
        if t.march_mine or t.march_theirs:
            return MARCH_TRICK_VALUE
        if t.need_theirs - t.tricks_theirs <= 1 or t.need_mine - t.tricks_mine <= 1:
            return DECISIVE_TRICK_VALUE
        if (t.tricks_mine == 0 and t.tricks_theirs >= 3) or (t.tricks_theirs == 0 and t.tricks_mine >= 3):
            return DECISIVE_TRICK_VALUE
        if t.tricks_mine == 0 or t.tricks_theirs == 0:
            return JANN_TRICK_VALUE  # a Jann is still possible for one side
        return 1.0


# --------------------------------------------------------------------------------------- decisions


@dataclass
class Plan:
    """A card decision: the card, or ``stop`` (take the Jann)."""

    card: int = -1
    stop: bool = False


class RulesAgent(Agent):
    """Heuristic Knüffeln player; see the module docstring. Keyword arguments (e.g. ``rules[listen=false]``):
    ``listen`` (use the teammates' talk), ``speak`` (talk at all), ``token_code`` (the fixed code in
    ``tokens:N`` mode), ``turn_threshold``, ``accept_threshold``, ``alone_threshold``."""

    name = "rules"

    def __init__(
        self,
        game: str = "knuffeln",
        seed: int | None = None,
        listen: bool = True,
        speak: bool = True,
        show: bool = True,
        token_code: bool = True,
        turn_threshold: float = 0.6,
        accept_threshold: float = 0.05,
        alone_threshold: float = 0.75,
    ) -> None:
        super().__init__(game, seed)
        if self.game != "knuffeln":
            raise ValueError(f"the Knüffeln rule-based agent plays knuffeln, not {game!r}")
        for label, value in (("turn_threshold", turn_threshold), ("accept_threshold", accept_threshold),
                             ("alone_threshold", alone_threshold)):
            if not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
                raise ValueError(f"{label} must be a number in [0, 1], got {value!r}")
        self.listen = bool(listen)
        self.speak = bool(speak)
        self.show = bool(show)
        self.token_code = bool(token_code)
        self.turn_threshold = float(turn_threshold)
        self.accept_threshold = float(accept_threshold)
        self.alone_threshold = float(alone_threshold)

    # ---- the agent protocol

    def act(self, env, agent: str) -> int:
        seen = env.observe(agent)
        mask = seen["action_mask"]
        config = env.unwrapped.config
        table = decode(seen["observation"], config, self.token_code)
        situation = Situation(table, listen=self.listen)
        action = self.decide(situation, mask, config["talk"])
        if not (0 <= action < len(mask) and mask[action]):
            raise RuntimeError(f"knuffeln rules agent chose illegal action {action} in phase {table.phase}")
        self.decisions += 1
        return int(action)

    def decide(self, s: Situation, mask, talk: str) -> int:
        phase = s.t.phase
        if phase == K.PHASE_TALK:
            return self.utterance(s, mask, talk)
        if phase == K.PHASE_PLAY:
            plan = self.plan_card(s)
            if plan.stop:
                return K.ACTION_STOP
            return (K.ACTION_TURN if self.turns(s, mask, plan.card) else K.ACTION_PLAY) + plan.card
        if phase == K.PHASE_ANSWER:
            return K.ACTION_ACCEPT if self.accepts(s) else K.ACTION_FLEE
        if phase == K.PHASE_TEN_EXCHANGE:
            return self.ten_exchange(s, mask)
        if phase == K.PHASE_OLE_EXCHANGE:
            return K.ACTION_TAKE_OLE if mask[K.ACTION_TAKE_OLE] else K.ACTION_DECLINE
        if phase == K.PHASE_DEALER_CHOICE:
            return K.ACTION_PLAY_ALONE if self.plays_alone(s) else K.ACTION_SIT_OUT
        raise RuntimeError(f"knuffeln rules agent asked to act in phase {phase}")

    # ---- exchanges and the dealer's choice

    def ten_exchange(self, s: Situation, mask) -> int:
        """Take the best turned card offered if it is worth more than the ten given for it."""
        offers = [c for c in range(K.NUM_CARDS) if mask[K.ACTION_EXCHANGE + c]]
        if offers:
            best = max(offers, key=lambda c: (s.cost[c], -c))
            ten = (best // K.NUM_RANKS) * K.NUM_RANKS + K.RANK_EXCHANGE
            if s.cost[best] > s.cost[ten]:
                return K.ACTION_EXCHANGE + best
        return K.ACTION_DECLINE

    def plays_alone(self, s: Situation) -> bool:
        """Five players: expected tricks of the stock as a hand against the four others' 36 cards."""
        t = s.t
        stock = t.known_stock
        tricks = min(K.MAX_TRICKS, popcount(stock))
        mine = sum(s.weight[c] for c in cards_of(stock))
        others = sum(s.weight[c] for c in cards_of(s.unknown))
        expected = tricks * mine / (mine + others) if mine + others else 0.0
        sure = sum(1 for c in cards_of(stock) if not s.beaten_by[c] & s.unknown)  # nobody else can beat it
        expected = max(expected, sure)
        probability = 1.0 / (1.0 + math.exp(-2.0 * (expected - 3.5)))
        return probability >= self.alone_threshold

    # ---- turning

    def accepts(self, s: Situation) -> bool:
        """Accept when (2p - 1)(stake + 1) beats paying the stake now, p shaded for the turner's signal."""
        stake = max(1, s.t.stake)
        p = s.win_probability() - self.accept_threshold
        return (2 * p - 1) * (stake + 1) > -stake

    def turns(self, s: Situation, mask, card: int) -> bool:
        t = s.t
        if not mask[K.ACTION_TURN + card] or t.march_mine or t.jann_mine:
            return False
        if t.tricks_theirs == 0:
            return False  # a Jann is still possible: turning lets them flee cheaply
        return s.win_probability() >= self.turn_threshold

    # ---- card play

    def plan_card(self, s: Situation) -> Plan:
        """The card to play (or stop for the Jann); the same at the talk turn and at the card turn, so
        that what is said about it is true. Whether to lead it face down is decided at the card turn."""
        t = s.t
        if t.jann_mine and not self.marches(s):
            return Plan(stop=True)
        if not t.trick and t.turner is None:
            return Plan(card=self.lead(s))
        return Plan(card=self.follow(s))

    def marches(self, s: Situation) -> bool:
        t = s.t
        total = K.MAX_TRICKS
        if s.dealer_alone:
            total = min(K.MAX_TRICKS, K.STOCK_SIZE - popcount(t.turned))
        return popcount(s.sure_leads(t.hand)) >= total - t.tricks_played

    def lead(self, s: Situation) -> int:
        """A chosen 7 first (a sure trick that keeps the lead); otherwise the card with the best score:
        trick value x chance that my team wins the trick, minus the card's own future worth, plus a share
        of the worth of the beater it is likely to draw from the opponents."""
        t = s.t
        sevens = [c for c in cards_of(t.hand) if t.chosen >> (c // K.NUM_RANKS) & 1 and c % K.NUM_RANKS == K.RANK_7]
        if sevens:
            return min(sevens)
        value = s.trick_value()
        def score(card: int) -> float:
            hold = s.hold_probability(card, s.opponents)
            chance = hold + (1.0 - hold) * s.teammate_chance(s.teammates, LEAD_TEAMMATE_CHANCE, card)
            return value * chance - s.weight[card] + DRAW_SHARE * (1.0 - hold) * s.cheapest_threat(card)

        return s.best(t.hand, score)

    def follow(self, s: Situation) -> int:
        """The card with the best score (as for a lead): the cheapest card that beats the provisional winner
        and holds, or a throw-away when the trick is lost or a teammate wins it safely."""
        t = s.t
        winner_seat, winner_card = s.provisional_winner()
        later = s.still_to_play()
        later_opponents = [r for r in later if r in s.opponents]
        later_teammates = [r for r in later if r in s.teammates]
        teammate = s.teammate_chance(later_teammates, FOLLOW_TEAMMATE_CHANCE)
        value = s.trick_value()
        beaters = t.hand & s.beaten_by[winner_card]
        if winner_seat in s.teammates:
            sure = s.trick_talk.get(winner_seat) in PARTNER_WINS
            standing = 1.0 if sure else s.hold_probability(winner_card, later_opponents)
            standing += (1.0 - standing) * teammate
        else:
            standing = s.teammate_chance(later_teammates, FOLLOW_TEAMMATE_CHANCE, winner_card)
        asked = beaters and any(words in PARTNER_ASKS_TO_BEAT for words in s.trick_talk.values())

        def score(card: int) -> float:
            if beaters >> card & 1:
                hold = s.hold_probability(card, later_opponents)
                chance = hold + (1.0 - hold) * teammate
            else:
                chance = standing
            return value * chance - s.weight[card]

        return s.best(beaters if asked else t.hand, score)

    # ---- talk

    def utterance(self, s: Situation, mask, talk: str) -> int:
        """The talk action: the protocol's phrase (module docstring) in the lexicon, or its token."""
        if not self.speak:
            return K.ACTION_SILENT
        phrase, shown = self.speech(s, show=talk == "lexicon" and self.show)
        if shown is not None:
            return K.ACTION_SHOW + shown
        if phrase and talk == "lexicon":
            return K.ACTION_SAY + phrase - 1
        if phrase and talk.startswith("tokens:") and self.token_code:
            action = K.ACTION_TOKEN + TOKEN_CODE.get(phrase, len(mask)) - 1
            if action < len(mask) and mask[action]:
                return action
        return K.ACTION_SILENT

    def speech(self, s: Situation, show: bool) -> tuple[int, int | None]:
        """(phrase, card to show): the first true statement of the protocol; (0, None) is silence."""
        t = s.t
        plan = self.plan_card(s)
        if plan.stop:
            return 0, None
        if t.jann_mine:
            return WE_MARCH, None
        later_teammates = [r for r in s.still_to_play() if r in s.teammates]
        if later_teammates:
            if self.wins_for_certain(s, plan.card):
                return CERTAINLY, None
            current = s.provisional_winner()
            if current is not None and current[0] in s.opponents and not t.hand & s.beaten_by[current[1]]:
                return CANT_YOU_BEAT, None
        keeps = t.hand & ~(1 << plan.card)
        unshown = [c for c in cards_of(keeps & ~s.my_shown) if s.cost[c] >= SHOW_MIN_COST]
        if show and unshown:
            return 0, max(unshown, key=lambda c: (s.cost[c], c))
        if popcount(s.sure_leads(keeps)) >= 2:
            return TWO_SURE_TRICKS, None
        if keeps & OLE_MASK:
            return I_HAVE_AN_OLE, None
        if not any(s.cost[c] >= SHOW_MIN_COST for c in cards_of(keeps)):
            return FEEL_BAD, None
        if not any(speaker == 0 for speaker, _, _ in t.talk) and not t.hand & OLE_MASK:
            return ARE_YOU_OLD, None
        return 0, None

    def wins_for_certain(self, s: Situation, card: int) -> bool:
        """Does ``card``, played now, win this trick whatever the opponents still to play hold?"""
        current = s.provisional_winner()
        if current is not None and not s.beaten_by[current[1]] >> card & 1:
            return False
        later_opponents = [r for r in s.still_to_play() if r in s.opponents]
        return s.hold_probability(card, later_opponents) >= 1.0

