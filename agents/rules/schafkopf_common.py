"""The judgement the three rule-based Schafkopf players share (Bavarian, Palatinate, Asserufen).

Both 32-card packs share one layout (``trick_core.cards``): card ``suit * 8 + rank``, ranks
``A 10 K O/Q U/J 9 8 7``, and a hand is an int bit mask. The trump tables of ``schafkopf_env.trumps``
(trump kinds 0..3: Obers, Unters, then that suit; 4: Wenz) serve all three games, so the card play and the
hand evaluation live in this package once; each game module only decodes its own observation into a
``PlayView`` and decides its own bidding.

**What a player may use.** Everything here works on what the seat sees: its hand, the cards played so
far (``unseen`` = the cards that may still lie in other hands or in a skat), the trick in progress, the
contract and what it knows about the partnerships. Nothing reads hidden state.

The shared parts live in sibling modules: ``schafkopf_cards`` (card tables and bit-mask helpers),
``schafkopf_strength`` (hand evaluation), ``schafkopf_card_play`` (card play: ``PlayView``,
``choose_card``). This module holds the agent frame.

**The agent frame** (``SchafkopfRulesAgent``): what the three agents do alike around their own decisions:
the forced move, the action names, decoding the observation, choosing the decision of the phase, and
card play through ``choose_card``; with the helpers their decoders and decisions share (``current_trick``,
``positions_after``, ``four_seat_play_view``, ``trump_choice``, ``du_bid``, ``double_or_not``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from trick_core.layout import block_starts

from ..base import Agent, legal_actions
from .schafkopf_card_play import PlayView, choose_card, relations
from .schafkopf_cards import FULL_MASK, NUM_CARDS, TRUMP_MASK, first_or_none, mask_of, pick_best, popcount
from .schafkopf_strength import suit_game_strength, trump_stopper, wins_every_trick


class BlockReader:
    """Reads the non-zero entries of an observation block by block with a few numpy calls.

    ``blocks`` lists ``(name, offset, size)``; ``read(observation)`` returns ``{name: [indices within the
    block of its non-zero entries]}`` (every name present, empty lists for all-zero blocks)."""

    def __init__(self, blocks) -> None:
        self.blocks = sorted(blocks, key=lambda block: block[1])
        self.names = [name for name, _, _ in self.blocks]
        self.starts = np.array([offset for _, offset, _ in self.blocks], dtype=np.int64)
        self.sizes = np.array([size for _, _, size in self.blocks], dtype=np.int64)
        self.end = int(max(offset + size for _, offset, size in self.blocks))

    @classmethod
    def of_layout(cls, layout, names=None) -> BlockReader:
        """A reader of the blocks ``names`` (default: all) of a kernel's ``observation_layout(params,
        obs_type)`` (``(name, size)`` blocks in order); ``ValueError`` naming a block it does not have."""
        starts, sizes = block_starts(layout), dict(layout)
        names = list(sizes) if names is None else list(names)
        missing = [name for name in names if name not in starts]
        if missing:
            raise ValueError(f"the observation layout has no block {missing} (it has {list(sizes)})")
        return cls([(name, starts[name], sizes[name]) for name in names])

    def read(self, observation) -> dict:
        out = {name: [] for name in self.names}
        indices = np.flatnonzero(observation[: self.end])
        block = np.searchsorted(self.starts, indices, side="right") - 1
        inside = indices - self.starts[block]
        keep = inside < self.sizes[block]
        names = self.names
        for b, index in zip(block[keep].tolist(), inside[keep].tolist(), strict=True):
            out[names[b]].append(index)
        return out

# ---------------------------------------------------------------------------------------------- thresholds


@dataclass
class SoloLimits:
    """The solo bid of the three games: strength ``solo`` with that suit trump (``suit_game_strength``)
    and at least ``solo_min_trumps`` trumps (``solo_hand``)."""

    solo: float = 12.5
    solo_min_trumps: float = 5


@dataclass
class AceCallLimits:
    """The ace-call bid (Bavarian Rufer, Asserufen's haenge an; hearts trump): strength ``ace_call`` with
    ``ace_call_min_trumps`` trumps, or ``ace_call_three_trumps`` with one trump fewer (``ace_call_hand``)."""

    ace_call: float = 7.0
    ace_call_min_trumps: float = 4
    ace_call_three_trumps: float = 8.5


@dataclass
class DoublingLimits:
    """Contra and re of the French games: the strength a defender needs to double and the declaring side
    to redouble (``double_or_not``)."""

    contra: float = 10.0
    re: float = 13.0


def make_thresholds(defaults, overrides: dict, game: str):
    """``defaults`` (a dataclass instance) with ``overrides`` applied; unknown names raise ``ValueError``."""
    names = {f.name for f in fields(defaults)}
    for key, value in overrides.items():
        if key not in names:
            raise ValueError(f"rules agent for {game}: unknown option {key!r}; options are {sorted(names)}")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"rules agent for {game}: option {key!r} must be a number, got {value!r}")
        setattr(defaults, key, float(value))
    return defaults

# ---------------------------------------------------------------------------------------------- the agent frame

HEARTS = 2
"""Hearts in both packs' suit order (German ``E G H S``, French ``C S H D``): the ace-call trump suit and
the French games' Heart Solo."""
NON_HEART_SUITS = (0, 1, 3)
"""The suits a (non-heart) Solo or Solo Du of the French games may name."""


def current_trick(trick_indices, leader: int | None, next_position) -> list[tuple[int, int]]:
    """The trick in progress as ``(position, card)`` in playing order, from the non-zero entries of a
    per-position trick block (``position * 32 + card``): from ``leader``, each position after the one
    before (``next_position``), up to the first that has not played or back at the leader."""
    cards = {index // NUM_CARDS: index % NUM_CARDS for index in trick_indices}
    trick = []
    if leader is None:
        return trick
    position = leader
    while position in cards:
        trick.append((position, cards[position]))
        position = next_position(position)
        if position == leader:
            break
    return trick


def next_of_four(position: int) -> int:
    """The position after ``position`` at a four-seat table where every seat plays."""
    return (position + 1) % 4


def positions_after(leader: int | None, next_position, trick_size: int) -> list[int]:
    """Positions that play to the trick led by ``leader`` after the observer (position 0); none before
    a leader is known."""
    if leader is None:
        return []
    order = [leader]
    while len(order) < trick_size:
        order.append(next_position(order[-1]))
    return order[order.index(0) + 1 :]


def trick_mask(trick) -> int:
    """The cards of the trick in progress as a bit mask."""
    return mask_of(card for _, card in trick)


@dataclass
class SchafkopfTable:
    """What every Schafkopf agent decodes of a seat's observation; positions relative to the seat (0 itself,
    then clockwise)."""

    hand: int
    phase: str
    dealer: int
    contract: str | None
    declarer: int | None
    trump: int | None
    """the trump kind (``schafkopf_env.trumps``)"""
    leader: int | None
    trick: list
    played: int


@dataclass
class FourSeatTable(SchafkopfTable):
    """The decoded observation in a four-seat ace-call game (Bavarian, Asserufen)."""

    called_card: int | None
    partner: int | None
    called_done: bool


def decode_four_seat(blocks: dict, phase_names, contracts, called_card: int | None, called_done: bool):
    """The ``FourSeatTable`` of the observation blocks read by a game's ``BlockReader`` (names ``hand
    dealer phase contract declarer trump partner leader trick played``), its phase and contract names
    (in observation order), and what the game's own blocks say of the called card."""
    leader = first_or_none(blocks["leader"])
    contract = first_or_none(blocks["contract"])
    return FourSeatTable(
        hand=mask_of(blocks["hand"]),
        phase=phase_names[blocks["phase"][0]],
        dealer=first_or_none(blocks["dealer"]),
        contract=None if contract is None else contracts[contract],
        declarer=first_or_none(blocks["declarer"]),
        trump=first_or_none(blocks["trump"]),
        called_card=called_card,
        partner=first_or_none(blocks["partner"]),
        called_done=called_done,
        leader=leader,
        trick=current_trick(blocks["trick"], leader, next_of_four),
        played=mask_of(index % 32 for index in blocks["played"]),
    )


def four_seat_play_view(table, kind: int, ace_call: bool, must_win_all: bool, called_card: int) -> PlayView:
    """The card-play view at a four-seat table where every seat plays (Bavarian, Asserufen); ``table``
    has the fields ``hand declarer partner called_done leader trick played`` of those games' decoders.
    ``called_card`` is -1 outside an ace-call game."""
    relation, declaring = relations(table.declarer, table.partner, ace_call)
    return PlayView(
        kind=kind,
        hand=table.hand,
        trick=table.trick,
        positions_after=positions_after(table.leader, next_of_four, 4),
        unseen=FULL_MASK & ~table.hand & ~table.played & ~trick_mask(table.trick),
        relation=relation,
        declaring=declaring,
        must_win_all=must_win_all,
        called_card=called_card,
        strong_threat=None if declaring else table.declarer,
        called_open=called_card >= 0 and not table.called_done,
    )


def suits_named(names, prefix: str, deck) -> list[int]:
    """The suits of the legal actions ``prefix + suit letter`` (``"trump:H"``, ``"call:S"``)."""
    return [deck.suits.index(name[-1]) for name in names if name.startswith(prefix)]


def trump_choice(names, deck, hand: int, must_win_all: bool, leads_first: bool, rng, hearts_bonus: float = 0.0) -> str:
    """The ``trump:`` action naming the suit that makes ``hand`` strongest (hearts counting
    ``hearts_bonus`` more); when the game must win every trick, only among the suits that are sure to."""
    suits = suits_named(names, "trump:", deck)
    if must_win_all:
        sure = [s for s in suits if wins_every_trick(hand, s, leads_first)]
        suits = sure or suits
    suit = pick_best(suits, lambda s: suit_game_strength(hand, s) + (hearts_bonus if s == HEARTS else 0.0), rng)
    return f"trump:{deck.suits[suit]}"


def solo_hand(hand: int, suit: int, strength: float, limits) -> bool:
    """Whether ``hand``, of ``strength`` with ``suit`` trump, is good for a solo: ``limits.solo`` and
    ``limits.solo_min_trumps`` trumps."""
    return strength >= limits.solo and popcount(hand & TRUMP_MASK[suit]) >= limits.solo_min_trumps


def ace_call_hand(hand: int, limits: AceCallLimits) -> bool:
    """Whether ``hand`` is good for calling an ace (hearts trump): ``limits.ace_call_min_trumps`` trumps
    and strength ``limits.ace_call``, or one trump fewer and strength ``limits.ace_call_three_trumps``."""
    trumps = popcount(hand & TRUMP_MASK[HEARTS])
    strength = suit_game_strength(hand, HEARTS)
    if trumps >= limits.ace_call_min_trumps and strength >= limits.ace_call:
        return True
    return trumps == limits.ace_call_min_trumps - 1 and strength >= limits.ace_call_three_trumps


def du_bid(names, hand: int, leads_first: bool) -> str | None:
    """``heart_solo_du`` or ``solo_du`` (French games) when legal and ``hand`` takes every trick whatever
    the others hold in hearts, or in some other suit; else ``None``."""
    if "heart_solo_du" in names and wins_every_trick(hand, HEARTS, leads_first):
        return "heart_solo_du"
    if "solo_du" in names and any(wins_every_trick(hand, s, leads_first) for s in NON_HEART_SUITS):
        return "solo_du"
    return None


def double_or_not(names, hand: int, trump: int, declaring: bool, against_du: bool, limits) -> str:
    """Contra or re (whichever is legal) or ``no_double``: the declaring side redoubles with strength
    ``limits.re`` in its trump suit; a defender doubles a Du with a sure trump trick (``trump_stopper``),
    otherwise with strength ``limits.contra`` (``limits.re`` for a defender's re)."""
    word = "contra" if "contra" in names else "re"
    if word not in names:
        return "no_double"
    strength = suit_game_strength(hand, trump)
    if declaring:
        return word if strength >= limits.re else "no_double"
    if against_du:
        return word if trump_stopper(hand, trump) else "no_double"
    limit = limits.contra if word == "contra" else limits.re
    return word if strength >= limit else "no_double"


def legal_cards_mask(names, deck) -> int:
    """The legal cards among the legal action names, as a bit mask."""
    return mask_of(deck.parse(name) for name in names if deck.is_card(name))


class SchafkopfRulesAgent(Agent):
    """What the three rule-based Schafkopf agents do alike; a game's agent sets the class attributes,
    decodes its observation (``decode_table``) and builds the card-play view (``play_view``).

    ``act``: a forced move is played at once; otherwise the legal actions are looked up by name, the
    observation is decoded, and the decision method named for the table's phase in ``phase_decisions``
    (called with the table and the legal names, returning a legal name) decides; in a phase not listed
    the agent plays a card by ``choose_card``."""

    name = "rules"
    game_name: str = ""
    deck = None
    """the game's ``trick_core.cards`` pack (action names of cards)"""
    thresholds_class: type = type(None)
    """the dataclass of the game's thresholds (defaults; overridable by keyword)"""
    phase_decisions: dict[str, str] = {}
    """phase name -> name of the method deciding it"""

    def __init__(self, game: str | None = None, seed: int | None = None, **thresholds) -> None:
        """``game`` defaults to the agent's own game (any other raises ``ValueError``)."""
        game = self.game_name if game is None else game
        super().__init__(game, seed)
        if game != self.game_name:
            raise ValueError(f"agents.rules_{self.game_name} plays {self.game_name}, not {game!r}")
        self.thresholds = make_thresholds(self.thresholds_class(), thresholds, game)
        self._names: tuple[str, ...] | None = None

    def act(self, env, agent: str) -> int:
        legal = legal_actions(env, agent)
        self.decisions += 1
        if legal.size == 1:
            return int(legal[0])
        base = env.unwrapped
        if self._names is None or len(self._names) != base.num_actions:  # options may add actions (Bavarian)
            self._names = tuple(base.action_to_string(a) for a in range(base.num_actions))
        names = {self._names[a]: int(a) for a in legal}
        table = self.decode_table(env, agent)
        decision = self.phase_decisions.get(table.phase)
        if decision is not None:
            return names[getattr(self, decision)(table, names)]
        card = choose_card(self.play_view(table), legal_cards_mask(names, self.deck), self.rng)
        return names[self.deck.name_of(card)]

    def decode_table(self, env, agent: str):
        """The seat's observation decoded (a table with at least ``phase``)."""
        raise NotImplementedError

    def play_view(self, table) -> PlayView:
        raise NotImplementedError
