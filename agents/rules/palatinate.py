"""Rule-based player of Palatinate Schafkopf, three active players and a skat
(``agents.make("rules", "palatinate")``, also with ``players=4``).

It reads only its own observation (``schafkopf_env.palatinate_v0``; the blocks of
``schafkopf_env.palatinate.kernel.observation_layout``) and the action mask:

- **Round one** (solo kinds): a Du (``heart_solo_du`` / ``solo_du``) only with a hand that takes every
  trick whatever the others and the skat hold; a Heart Solo or Solo with at least ``solo_min_trumps``
  trumps and strength ``solo`` (Queens weigh most), hearts preferred (worth a point more).
- **Round two**: ``simple`` when the best trump suit (hearts +``hearts_bonus``, being worth a point more)
  reaches ``simple`` before the skat is seen.
- **Discarding** (simple game): every pair of non-trumps is tried for every trump suit; the pair kept
  leaves the strongest hand, counting that the discards' points are the declarer's (a blank ten or King
  is banked rather than lost, a short suit is emptied to trump it). Trumps are never laid away while
  two non-trumps are left. Then the trump suit of that plan is named.
- **Schenken**: an opponent offers to give up only with a hopeless hand (strength at most ``schenken``);
  the declarer accepts unless the hand is sure of every trick or very strong (``refuse_schenken``).
- **Contra / re**: an opponent doubles with a strong defence (strength ``contra`` in the declarer's trump
  suit, or a sure trump trick against a Du); the declarer redoubles with a very strong hand (``re``).
- **Play**: ``choose_card`` of ``agents.rules.schafkopf_card_play`` (the declarer alone against two; a Du
  declarer must win every trick).

``seed`` seeds the tie-breaks; thresholds can be overridden, e.g. ``rules[simple=9]``.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from schafkopf_env.palatinate import kernel as K
from trick_core.cards import FRENCH_32

from .schafkopf_card_play import OPPONENT, PARTNER, PlayView
from .schafkopf_cards import FULL_MASK, POINTS, TRUMP_MASK, cards_of, first_or_none, mask_of, pick_best, popcount
from .schafkopf_common import (
    HEARTS,
    NON_HEART_SUITS,
    BlockReader,
    DoublingLimits,
    SchafkopfRulesAgent,
    SchafkopfTable,
    SoloLimits,
    current_trick,
    double_or_not,
    du_bid,
    positions_after,
    solo_hand,
    trick_mask,
    trump_choice,
)
from .schafkopf_strength import suit_game_strength, wins_every_trick

SOLO_SUITS = NON_HEART_SUITS  # clubs, spades, diamonds: the suits a (non-heart) solo may name
DU_CONTRACTS = ("solo_du", "heart_solo_du")


@dataclass
class PalatinateThresholds(SoloLimits, DoublingLimits):
    """Hand strength (``suit_game_strength`` on ten cards) needed for each decision: solo, contra and re as
    the shared limits say; ``simple`` for the simple game, whose best suit counts ``hearts_bonus`` more if
    it is hearts; a defender offers schenken with at most ``schenken``, the declarer refuses it with
    ``refuse_schenken``."""

    simple: float = 10.0
    hearts_bonus: float = 0.8
    schenken: float = 3.0
    refuse_schenken: float = 16.0
    solo: float = 13.5
    contra: float = 10.5
    re: float = 15.0


@dataclass
class PalatinateTable(SchafkopfTable):
    """The seat's observation decoded (``SchafkopfTable``) with the table's size and the cards the seat
    laid away."""

    players: int
    discards: int

    @property
    def active(self) -> list[int]:
        """Positions that take part in the hand, clockwise from the observer's own."""
        return [p for p in range(self.players) if not (self.players == 4 and p == self.dealer)]

    def next_active(self, position: int) -> int:
        following = (position + 1) % self.players
        return following if following in self.active else (following + 1) % self.players

    @property
    def forehand(self) -> int:
        return self.next_active(self.dealer)


_READERS: dict[tuple[int, int], BlockReader] = {}


def _reader(players: int, max_doublings: int) -> BlockReader:
    key = (players, max_doublings)
    if key not in _READERS:
        params = K.make_params(players=players, max_doublings=max_doublings)
        _READERS[key] = BlockReader.of_layout(K.observation_layout(params, K.OBS_TYPE_OBSERVATION))
    return _READERS[key]


def decode(observation, players: int, max_doublings: int) -> PalatinateTable:
    """Read a Palatinate observation vector (any observation type: the first blocks are the same)."""
    blocks = _reader(players, max_doublings).read(observation)
    leader = first_or_none(blocks["leader"])
    contract = first_or_none(blocks["contract"])
    table = PalatinateTable(
        players=players,
        hand=mask_of(blocks["hand"]),
        phase=K.PHASE_NAMES[blocks["phase"][0]],
        dealer=blocks["dealer"][0],
        contract=None if contract is None else K.CONTRACT_NAMES[contract],
        declarer=first_or_none(blocks["declarer"]),
        trump=first_or_none(blocks["trump"]),
        discards=mask_of(blocks["discards"]),
        leader=leader,
        trick=[],
        played=mask_of(index % 32 for index in blocks["played"]),
    )
    table.trick = current_trick(blocks["trick"], leader, table.next_active)
    return table


def best_suit_strength(hand: int, suits, hearts_bonus: float = 0.0) -> tuple[int, float]:
    """The trump suit among ``suits`` that makes ``hand`` strongest (hearts counting ``hearts_bonus``
    more, for the point they add to the game value), and that strength."""
    scored = [(suit_game_strength(hand, s) + (hearts_bonus if s == HEARTS else 0.0), s) for s in suits]
    strength, suit = max(scored)
    return suit, strength


def discard_plan(hand: int, to_discard: int, hearts_bonus: float) -> tuple[int, tuple[int, ...], float]:
    """(trump suit, cards to lay away, value) of the best way to lay ``to_discard`` cards away from
    ``hand`` and then name trump: the strength of what is kept, plus the points laid away (they are the
    declarer's), minus the points left unprotected in plain suits."""
    best = None
    for suit in range(4):
        trumps = TRUMP_MASK[suit]
        plain = cards_of(hand & ~trumps)
        pool = plain if len(plain) >= to_discard else cards_of(hand)
        for laid in combinations(pool, to_discard):
            kept = hand
            for card in laid:
                kept &= ~(1 << card)
            value = suit_game_strength(kept, suit) + (hearts_bonus if suit == HEARTS else 0.0)
            value += 0.08 * sum(POINTS[c] for c in laid) - 0.04 * _unprotected_points(kept, suit)
            if best is None or value > best[2] + 1e-9:
                best = (suit, laid, value)
    return best


def _unprotected_points(hand: int, kind: int) -> int:
    """Points in plain suits not headed by their ace (tens and Kings the opponents may catch)."""
    total = 0
    for suit in range(4):
        if suit == kind:
            continue
        held = hand & ~TRUMP_MASK[kind] & (0xFF << (8 * suit))
        if held and not held >> (suit * 8) & 1:
            total += sum(POINTS[c] for c in cards_of(held))
    return total


class RulesAgent(SchafkopfRulesAgent):
    """A club player's heuristics for Palatinate Schafkopf (module docstring)."""

    game_name = "palatinate"
    deck = FRENCH_32
    thresholds_class = PalatinateThresholds
    phase_decisions = {
        "bid_one": "bid_one",
        "bid_two": "bid_two",
        "trump": "trump",
        "discard": "discard",
        "schenken": "schenken",
        "schenken_answer": "answer_schenken",
        "contra_offer": "double",
        "doubling": "double",
    }

    def decode_table(self, env, agent: str) -> PalatinateTable:
        config = env.unwrapped.config
        return decode(env.observe(agent)["observation"], int(config["players"]), int(config["max_doublings"]))

    # ------------------------------------------------------------------ bidding

    def bid_one(self, table: PalatinateTable, names: dict) -> str:
        hand, limits = table.hand, self.thresholds
        du = du_bid(names, hand, table.forehand == 0)
        if du is not None:
            return du
        for bid, suits in (("heart_solo", (HEARTS,)), ("solo", SOLO_SUITS)):
            if bid in names:
                suit, strength = best_suit_strength(hand, suits)
                if solo_hand(hand, suit, strength, limits):
                    return bid
        return "pass"

    def bid_two(self, table: PalatinateTable, names: dict) -> str:
        _, strength = best_suit_strength(table.hand, range(4), self.thresholds.hearts_bonus)
        return "simple" if strength >= self.thresholds.simple else "pass"

    def discard(self, table: PalatinateTable, names: dict) -> str:
        to_discard = 2 - popcount(table.discards)
        _, laid, _ = discard_plan(table.hand, to_discard, self.thresholds.hearts_bonus)
        options = [c for c in laid if f"discard:{FRENCH_32.name_of(c)}" in names]
        card = pick_best(options, lambda c: POINTS[c], self.rng)
        return f"discard:{FRENCH_32.name_of(card)}"

    def trump(self, table: PalatinateTable, names: dict) -> str:
        must_win_all = table.contract in DU_CONTRACTS
        bonus = self.thresholds.hearts_bonus if table.contract == "simple" else 0.0
        return trump_choice(names, FRENCH_32, table.hand, must_win_all, table.forehand == 0, self.rng, bonus)

    # ------------------------------------------------------------------ schenken and doubling

    def schenken(self, table: PalatinateTable, names: dict) -> str:
        hopeless = suit_game_strength(table.hand, table.trump) <= self.thresholds.schenken
        return "schenken" if hopeless else "no_schenken"

    def answer_schenken(self, table: PalatinateTable, names: dict) -> str:
        sure = wins_every_trick(table.hand, table.trump, table.forehand == 0, self._others(table))
        strong = suit_game_strength(table.hand, table.trump) >= self.thresholds.refuse_schenken
        return "refuse" if sure or strong else "accept"

    def double(self, table: PalatinateTable, names: dict) -> str:
        against_du = table.contract in DU_CONTRACTS
        return double_or_not(names, table.hand, table.trump, table.declarer == 0, against_du, self.thresholds)

    # ------------------------------------------------------------------ play

    def play_view(self, table: PalatinateTable) -> PlayView:
        others = [p for p in table.active if p != 0]
        if table.declarer == 0:
            relation = {p: OPPONENT for p in others}
        else:
            relation = {p: OPPONENT if p == table.declarer else PARTNER for p in others}
        skat_hidden = not (table.declarer == 0 and table.contract == "simple")
        return PlayView(
            kind=table.trump,
            hand=table.hand,
            trick=table.trick,
            positions_after=positions_after(table.leader, table.next_active, 3),
            unseen=self._others(table) & ~trick_mask(table.trick),
            relation=relation,
            declaring=table.declarer == 0,
            must_win_all=table.contract in DU_CONTRACTS,
            hidden_hands=len(others) + (1 if skat_hidden else 0),
            strong_threat=None if table.declarer == 0 else table.declarer,
        )

    @staticmethod
    def _others(table: PalatinateTable) -> int:
        """Cards that may be in another hand or the skat (not held, not played, not laid away by us)."""
        return FULL_MASK & ~table.hand & ~table.played & ~table.discards


__all__ = ["PalatinateThresholds", "RulesAgent", "decode", "discard_plan"]
