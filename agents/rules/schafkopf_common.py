"""The judgement the three rule-based Schafkopf players share (Bavarian, Palatinate, Asserufen).

Both 32-card packs share one layout (``trick_core.cards``): card ``suit * 8 + rank``, ranks
``A 10 K O/Q U/J 9 8 7``, and a hand is an int bit mask. The trump tables of ``schafkopf_env.trumps``
(trump kinds 0..3: Obers, Unters, then that suit; 4: Wenz) serve all three games, so the card play and the
hand evaluation live here once; each game module only decodes its own observation into a ``PlayView``
and decides its own bidding.

**What a player may use.** Everything here works on what the seat sees: its hand, the cards played so
far (``unseen`` = the cards that may still lie in other hands or in a skat), the trick in progress, the
contract and what it knows about the partnerships. Nothing reads hidden state.

**Card play** (``choose_card``), the habits of a club player:

- *Leading on the declarer's side*: pull trumps while the opponents may still hold some (the master
  trump; without it the cheapest trump, never the second best into the best, and never a trump ten or
  ace into unknown higher trumps), then cash plain masters whose suit is fresh enough not to be
  trumped, then lead low from a short suit.
- *Leading as a defender*: in an ace-call game lead the called suit (a low card) to find the partner
  while its first trick is still to come; cash aces in fresh suits; otherwise lead low, from the long
  suit through a declarer sitting next and from a short suit when the declarer plays last; trumps only
  when nothing else is left.
- *Following*: every legal card is valued by the points of the trick (the cards on it plus its own)
  won or lost, with the chance that the trick ends on the observer's side (``beaten_risk``: who still
  plays, which higher cards and trumps are out, voids judged from how many cards of the suit are out,
  a declaring opponent holding more than its share of trumps), minus what the card would be worth
  later (``future_value``: trumps by rank, plain masters, voids to be made). This gives the club
  habits: schmieren to a partner's safe trick (tens and aces, not trumps), taking an opponent's trick
  with the cheapest card that holds, not spending a high trump on a poor trick, and throwing low cards
  of short suits when the trick is lost. A seat of unknown side counts as a partner with the chance
  that it is one.
- *Tout / Du*: the declarer plays its safest winner every trick; defenders try to win any trick.

**The agent frame** (``SchafkopfRulesAgent``): what the three agents do alike around their own decisions:
the forced move, the action names, decoding the observation, choosing the decision of the phase, and
card play through ``choose_card``; with the helpers their decoders and decisions share (``current_trick``,
``positions_after``, ``four_seat_play_view``, ``trump_choice``, ``du_bid``, ``double_or_not``).

**Hand evaluation** (``suit_game_strength``, ``wenz_strength``, ``wins_every_trick``, ``trump_stopper``):
weighted counts of Obers/Queens, Unters/Jacks, trumps, aces, tens beside aces and voids, the usual
club rules of thumb in numeric form; the thresholds belong to each game's agent.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from schafkopf_env.trumps import (
    CARD_POINTS,
    EFFECTIVE_SUIT,
    EFFECTIVE_SUIT_MASK,
    NUM_TRUMPS,
    RANK_10,
    RANK_A,
    RANK_O,
    RANK_U,
    TRICK_POWER,
    TRUMP,
    TRUMP_ORDER,
    TRUMP_WENZ,
)

from ..base import Agent, legal_actions

NUM_CARDS = 32
NUM_SUITS = 4
NUM_KINDS = 5
FULL_MASK = (1 << NUM_CARDS) - 1

PARTNER, UNKNOWN, OPPONENT = 1, 0, -1
"""How a seat relates to the observer: known partner, side not known yet, known opponent."""

# Python copies of the numpy rule tables (plain ints are much faster in this per-decision code).
POINTS = tuple(int(p) for p in CARD_POINTS)
EFFECTIVE = tuple(tuple(int(s) for s in row) for row in EFFECTIVE_SUIT)
POWER = tuple(tuple(int(p) for p in row) for row in TRICK_POWER)
SUIT_MASK = tuple(tuple(int(m) for m in row) for row in EFFECTIVE_SUIT_MASK)
TRUMP_MASK = tuple(row[TRUMP] for row in SUIT_MASK)
TRUMPS_HIGH_FIRST = tuple(tuple(int(c) for c in TRUMP_ORDER[k, : NUM_TRUMPS[k]]) for k in range(NUM_KINDS))
TRUMP_STRENGTH = tuple(
    {card: len(order) - 1 - i for i, card in enumerate(order)} for order in TRUMPS_HIGH_FIRST
)
"""``TRUMP_STRENGTH[kind][card]``: 0 for the lowest trump, up to 13 (Solo) or 3 (Wenz) for the top one."""


def _above_masks(kind: int) -> tuple[int, ...]:
    """Per card: the cards of the same effective suit that beat it."""
    out = []
    for card in range(NUM_CARDS):
        suit = EFFECTIVE[kind][card]
        higher = [
            c for c in range(NUM_CARDS) if EFFECTIVE[kind][c] == suit and POWER[kind][c] > POWER[kind][card]
        ]
        out.append(sum(1 << c for c in higher))
    return tuple(out)


ABOVE = tuple(_above_masks(k) for k in range(NUM_KINDS))
SUIT_PLAIN_CARDS = tuple(
    sum(1 << (s * 8 + r) for r in range(8) if r not in (RANK_O, RANK_U)) for s in range(NUM_SUITS)
)
"""The cards of each printed suit other than its Ober and Unter (Queen and Jack)."""


PLAIN_SUITS = tuple(tuple(s for s in range(NUM_SUITS) if s != kind) for kind in range(NUM_KINDS))
"""``PLAIN_SUITS[kind]``: the suits that are not trump under ``kind`` (all four in a Wenz)."""


def cards_in(mask: int) -> list[int]:
    """Card indices of a bit mask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def count(mask: int) -> int:
    return mask.bit_count()


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


def mask_of(indices) -> int:
    mask = 0
    for index in indices:
        mask |= 1 << index
    return mask


def first_or_none(indices) -> int | None:
    return indices[0] if indices else None


def pick_best(candidates, score, rng):
    """The candidate with the highest ``score``; ties are broken by the seeded ``rng``."""
    best, best_score = [], None
    for candidate in candidates:
        value = score(candidate)
        if best_score is None or value > best_score + 1e-9:
            best, best_score = [candidate], value
        elif abs(value - best_score) <= 1e-9:
            best.append(candidate)
    if len(best) == 1:
        return best[0]
    return best[int(rng.integers(len(best)))]


# ---------------------------------------------------------------------------------------------- thresholds


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


# ---------------------------------------------------------------------------------------------- hand strength

OBER_WEIGHT = (3.0, 2.5, 2.2, 2.0)
"""Obers / Queens by suit (E/C highest): the backbone of every suit game."""
UNTER_WEIGHT = (1.8, 1.6, 1.5, 1.4)
WENZ_UNTER_WEIGHT = (2.5, 2.0, 1.7, 1.5)


def suit_game_strength(hand: int, kind: int) -> float:
    """Strength of ``hand`` as the declaring side of a game with trump kind ``kind`` (0..3): weighted
    trumps (Obers, Unters, then the trump suit) plus aces, tens beside them and voids."""
    trumps = hand & TRUMP_MASK[kind]
    score = 0.0
    for card in cards_in(trumps):
        suit, rank = divmod(card, 8)
        if rank == RANK_O:
            score += OBER_WEIGHT[suit]
        elif rank == RANK_U:
            score += UNTER_WEIGHT[suit]
        else:
            score += 1.3 if rank == RANK_A else 1.1 if rank == RANK_10 else 1.0
    num_trumps = count(trumps)
    for suit in PLAIN_SUITS[kind]:
        held = hand & SUIT_MASK[kind][suit]
        if not held:
            score += 0.5 if num_trumps >= 4 else 0.0
            continue
        if held >> (suit * 8 + RANK_A) & 1:
            score += 1.0
            if held >> (suit * 8 + RANK_10) & 1:
                score += 0.6
        elif held >> (suit * 8 + RANK_10) & 1 and count(held) == 1:
            score -= 0.3  # a blank ten is a present for the opponents
    return score


def wenz_strength(hand: int) -> float:
    """Strength of ``hand`` for a Wenz: weighted Unters, then per suit the sure tricks of its top
    sequence (``A``, ``A 10``, ``A 10 K``), a bonus for length behind an ace, a penalty per loser."""
    kind = TRUMP_WENZ
    score = 0.0
    for card in cards_in(hand & TRUMP_MASK[kind]):
        score += WENZ_UNTER_WEIGHT[card // 8]
    for suit in range(NUM_SUITS):
        held = hand & SUIT_MASK[kind][suit]
        length = count(held)
        top = _top_sequence_length(held, kind, suit)
        score += 1.3 * top
        if top and length >= 4:
            score += 0.5 * (length - 3)
        losers = length - top
        if top == 0 and length >= 4:
            losers -= 1  # a long suit without the ace still makes a trick eventually
        score -= 0.4 * max(losers, 0)
    return score


def _plain_order(kind: int, suit: int) -> list[int]:
    """The plain cards of ``suit`` under ``kind``, highest first."""
    suit_cards = cards_in(SUIT_MASK[kind][suit])
    return sorted(suit_cards, key=lambda c: -POWER[kind][c])


def _top_sequence_length(held: int, kind: int, suit: int, gone: int = 0) -> int:
    """How many of ``held`` form an unbroken sequence from the top of the suit (cards in ``gone`` are
    out of play and do not break it)."""
    length = 0
    for card in _plain_order(kind, suit):
        if held >> card & 1:
            length += 1
        elif not gone >> card & 1:
            break
    return length


def wins_every_trick(hand: int, kind: int, leads_first: bool, others: int | None = None) -> bool:
    """Whether ``hand`` takes every trick whatever the others hold (Tout, Du, Sie): enough top trumps in
    sequence to draw all the others' trumps (one more when an opponent leads first and might force a
    ruff), and every plain card in a top sequence of its suit. ``others`` are the cards that may be
    against the declarer (default: all cards not in ``hand``)."""
    others = (FULL_MASK & ~hand) if others is None else others
    trumps = hand & TRUMP_MASK[kind]
    outstanding = count(others & TRUMP_MASK[kind])
    top = 0
    for card in TRUMPS_HIGH_FIRST[kind]:
        if hand >> card & 1:
            top += 1
        elif others >> card & 1:
            break
    has_void = any(not hand & SUIT_MASK[kind][s] for s in PLAIN_SUITS[kind])
    needed = outstanding + (0 if leads_first or not has_void or outstanding == 0 else 1)
    if outstanding and (not trumps or top < needed):
        return False
    gone = FULL_MASK & ~hand & ~others
    for suit in PLAIN_SUITS[kind]:
        held = hand & SUIT_MASK[kind][suit]
        if _top_sequence_length(held, kind, suit, gone) != count(held):
            return False
    return True


def trump_stopper(hand: int, kind: int) -> bool:
    """Whether ``hand`` is sure to win a trick against a declarer who must take them all: some trump
    with at least as many lower trumps beside it as there are trumps above it (it becomes master
    before it can be drawn)."""
    trumps = [c for c in TRUMPS_HIGH_FIRST[kind] if hand >> c & 1]
    for index, card in enumerate(TRUMPS_HIGH_FIRST[kind]):
        if hand >> card & 1:
            above = index
            below_mine = sum(1 for c in trumps if TRUMP_STRENGTH[kind][c] < TRUMP_STRENGTH[kind][card])
            if below_mine >= above:
                return True
    return False


def relations(declarer: int, partner: int | None, ace_call: bool) -> tuple[dict, bool]:
    """How the three other seats (positions 1..3 of a four-player table) relate to the observer, and
    whether the observer plays on the declarer's side. In a solo the declarer is alone; in an ace-call
    game (Rufer, Asserufen) ``partner`` is the called card's holder as far as the observer knows it
    (``None`` while hidden; 0 when the observer holds it)."""
    others = (1, 2, 3)
    if not ace_call:
        if declarer == 0:
            return {p: OPPONENT for p in others}, True
        return {p: OPPONENT if p == declarer else PARTNER for p in others}, False
    if declarer == 0:
        if partner is None:
            return {p: UNKNOWN for p in others}, True
        return {p: PARTNER if p == partner else OPPONENT for p in others}, True
    if partner == 0:
        return {p: PARTNER if p == declarer else OPPONENT for p in others}, True
    if partner is None:
        return {p: OPPONENT if p == declarer else UNKNOWN for p in others}, False
    return {p: OPPONENT if p in (declarer, partner) else PARTNER for p in others}, False


def best_call(hand: int, callable_suits: list[int], rng, kind: int = 2) -> int:
    """The suit whose ace to call: the one where the caller holds the fewest plain cards (a short suit
    lets the partner's ace take the trick and the caller trump the next round), then the fewest points
    there (a ten beside a called ace is at risk), ties at random."""

    def score(suit: int) -> float:
        held = hand & SUIT_MASK[kind][suit]
        return -10.0 * count(held) - sum(POINTS[c] for c in cards_in(held)) / 11.0

    return pick_best(callable_suits, score, rng)


# ---------------------------------------------------------------------------------------------- card play


@dataclass
class PlayView:
    """What a seat knows when it plays a card, in positions relative to it (0 = itself)."""

    kind: int
    """trump kind (0..3 suit games, 4 Wenz)"""
    hand: int
    trick: list
    """(position, card) of the trick in progress, in playing order"""
    positions_after: list
    """positions still to play to this trick after the observer"""
    unseen: int
    """cards that may still lie in another hand or a skat"""
    relation: dict
    """position -> PARTNER / UNKNOWN / OPPONENT for every other active position"""
    declaring: bool
    """the observer plays on the declarer's side"""
    must_win_all: bool = False
    """Tout or Du: the declarer loses at the first trick it does not take"""
    called_card: int = -1
    """the called ace (ten, King) of an ace-call game, -1 otherwise"""
    called_open: bool = False
    """the called card's first trick is still to come"""
    hidden_hands: int = 3
    """how many places the unseen cards are spread over (other hands, a skat nobody has seen)"""
    strong_threat: int | None = None
    """position of the declarer when it is an opponent (it holds more trumps than its share)"""

    @property
    def unknown_partner_chance(self) -> float:
        """Chance that a seat of unknown side is the observer's partner (one partner among them)."""
        unknown = sum(1 for r in self.relation.values() if r == UNKNOWN)
        known_partner = any(r == PARTNER for r in self.relation.values())
        return 0.0 if unknown == 0 or known_partner else 1.0 / unknown


LEAD_RISK = 0.4
"""A plain card is cashed (led to win) while its chance of being beaten is at most this."""


def choose_card(view: PlayView, legal: int, rng) -> int:
    """The card to play (a club player's heuristics; see the module docstring)."""
    options = cards_in(legal)
    if len(options) == 1:
        return options[0]
    if not view.trick:
        return _lead(view, legal, rng)
    return _follow(view, legal, rng)


def trick_winner(kind: int, trick) -> int:
    """Index into ``trick`` of the card winning it so far."""
    best = 0
    for i in range(1, len(trick)):
        if beats(kind, trick[i][1], trick[best][1]):
            best = i
    return best


def beats(kind: int, card: int, best: int) -> bool:
    """Whether ``card`` beats ``best``, the card winning the trick so far."""
    suit, best_suit = EFFECTIVE[kind][card], EFFECTIVE[kind][best]
    if suit == TRUMP and best_suit != TRUMP:
        return True
    return suit == best_suit and POWER[kind][card] > POWER[kind][best]


DECLARER_TRUMP_SHARE = 1.6
DECLARER_PLAIN_SHARE = 0.6
"""A declaring opponent holds more than its even share of the unseen trumps and less of the plain cards
(it bid on its trumps): the chance that it holds a given unseen card is these shares over the number of
hidden hands."""


def beaten_risk(view: PlayView, card: int, led_suit: int, threats: list) -> float:
    """Chance that one of ``threats`` (positions still to play) beats ``card`` once it leads the trick.

    An unseen card lies in a given hidden hand with chance ``1 / hidden_hands`` (a declaring opponent:
    ``DECLARER_TRUMP_SHARE`` times that for trumps, ``DECLARER_PLAIN_SHARE`` times for plain cards). A
    player follows the led suit unless void in it; it beats a plain card by holding a higher one of the
    suit, or by being void and holding a trump; it beats a trump by holding a higher trump (when trumps
    are led, or when void in the plain suit led). A seat of unknown side counts with the chance that it
    is an opponent."""
    if not threats:
        return 0.0
    kind, unseen = view.kind, view.unseen
    higher = count(unseen & ABOVE[kind][card])
    card_is_trump = EFFECTIVE[kind][card] == TRUMP
    suit_out = 0 if led_suit == TRUMP else count(unseen & SUIT_MASK[kind][led_suit])
    trumps_out = count(unseen & TRUMP_MASK[kind])
    even = 1.0 / max(view.hidden_hands, 1)
    unknown_opponent = 1.0 - view.unknown_partner_chance
    survives = 1.0
    for position in threats:
        strong = position == view.strong_threat
        trump_share = min(0.95, DECLARER_TRUMP_SHARE * even) if strong else even
        plain_share = DECLARER_PLAIN_SHARE * even if strong else even
        if led_suit == TRUMP:
            each = 1.0 - (1.0 - trump_share) ** higher
        else:
            void = (1.0 - plain_share) ** suit_out
            if card_is_trump:
                each = void * (1.0 - (1.0 - trump_share) ** higher)
            else:
                holds_higher = 1.0 - (1.0 - plain_share) ** higher
                holds_trump = 1.0 - (1.0 - trump_share) ** trumps_out
                each = 1.0 - (1.0 - holds_higher) * (1.0 - void * holds_trump)
        weight = unknown_opponent if view.relation.get(position, UNKNOWN) == UNKNOWN else 1.0
        survives *= 1.0 - weight * each
    return 1.0 - survives


def future_value(view: PlayView, card: int) -> float:
    """What keeping ``card`` is worth for later tricks, in card points: trumps by rank (3 for the lowest,
    15 for the top one) plus half their own points (a kept trump ace or ten usually comes home later);
    5 for the master of a plain suit that is still out; a last card of a short plain suit is worth one
    point less (throwing it makes a void to trump)."""
    kind = view.kind
    if EFFECTIVE[kind][card] == TRUMP:
        return 3.0 + 12.0 * TRUMP_STRENGTH[kind][card] / (NUM_TRUMPS[kind] - 1) + 0.5 * POINTS[card]
    suit_mask = SUIT_MASK[kind][EFFECTIVE[kind][card]]
    value = 0.0
    if not view.unseen & ABOVE[kind][card] and view.unseen & suit_mask:
        value += 5.0
    if count(view.hand & suit_mask) == 1 and view.hand & TRUMP_MASK[kind]:
        value -= 1.0
    return value


def _threats(view: PlayView) -> list:
    return [p for p in view.positions_after if view.relation.get(p, UNKNOWN) != PARTNER]


def _team_chance(view: PlayView, relation: int) -> float:
    if relation == PARTNER:
        return 1.0
    if relation == UNKNOWN:
        return view.unknown_partner_chance
    return 0.0


def _follow(view: PlayView, legal: int, rng) -> int:
    """Every legal card is valued by the points its trick brings the observer's side (won with the chance
    computed by ``beaten_risk``, lost otherwise) minus what the card would have been worth later."""
    kind, trick = view.kind, view.trick
    led_suit = EFFECTIVE[kind][trick[0][1]]
    win_position, win_card = trick[trick_winner(kind, trick)]
    trick_points = sum(POINTS[c] for _, c in trick)
    threats = _threats(view)
    relation = view.relation.get(win_position, UNKNOWN)
    winner_holds = 1.0 - beaten_risk(view, win_card, led_suit, threats)
    ours_now = _team_chance(view, relation) * winner_holds
    options = cards_in(legal)
    if view.must_win_all:
        return _follow_all_or_nothing(view, options, win_card, led_suit, threats, ours_now, rng)

    def value(card: int) -> float:
        ours = ours_now
        if beats(kind, card, win_card):
            ours = max(ours, 1.0 - beaten_risk(view, card, led_suit, threats))
        return (2.0 * ours - 1.0) * (trick_points + POINTS[card]) - future_value(view, card)

    return pick_best(options, value, rng)


def _follow_all_or_nothing(view, options, win_card, led_suit, threats, ours_now, rng) -> int:
    """Tout / Du: the declarer must take every trick and the defenders need just one; card points do not
    matter, only the chance of winning the trick, then the least valuable card."""
    kind = view.kind

    def value(card: int) -> float:
        ours = ours_now
        if beats(kind, card, win_card):
            ours = max(ours, 1.0 - beaten_risk(view, card, led_suit, threats))
        return 100.0 * ours - future_value(view, card)

    return pick_best(options, value, rng)


def _lead(view: PlayView, legal: int, rng) -> int:
    kind = view.kind
    trumps = legal & TRUMP_MASK[kind]
    plain = legal & ~TRUMP_MASK[kind]
    unseen_trumps = view.unseen & TRUMP_MASK[kind]
    if view.must_win_all and view.declaring:
        if trumps and unseen_trumps:
            return pick_best(cards_in(trumps), lambda c: POWER[kind][c], rng)
        others = [p for p in view.relation if view.relation[p] != PARTNER]
        return pick_best(cards_in(legal), lambda c: -_lead_risk(view, c, others) + POWER[kind][c] / 1000, rng)
    if view.declaring:
        if trumps and unseen_trumps and _pull_trumps(view, trumps):
            return _trump_lead(view, trumps, rng)
        master = _master_lead(view, plain, rng)
        if master is not None:
            return master
        return _low_lead(view, plain or legal, short_first=True, rng=rng)
    called = _called_suit_lead(view, plain, rng)
    if called is not None:
        return called
    master = _master_lead(view, plain, rng)
    if master is not None:
        return master
    if plain:
        return _low_lead(view, plain, short_first=view.strong_threat == _last_position(view), rng=rng)
    return pick_best(cards_in(legal), lambda c: -(POINTS[c] + future_value(view, c)), rng)


def _last_position(view: PlayView):
    """The position that plays last to a trick the observer leads."""
    return max(view.relation) if view.relation else None


def _lead_risk(view: PlayView, card: int, others: list) -> float:
    return beaten_risk(view, card, EFFECTIVE[view.kind][card], others)


def _pull_trumps(view: PlayView, trumps: int) -> bool:
    """Whether the declaring side should lead trumps: with the master trump, or with two or more when
    the cheapest of them is not a ten or an ace (those are not thrown into the opponents' high trumps)."""
    kind = view.kind
    mine = cards_in(trumps)
    top = max(mine, key=lambda c: POWER[kind][c])
    if not view.unseen & ABOVE[kind][top]:
        return True
    return len(mine) >= 2 and min(POINTS[c] for c in mine) < 10


def _trump_lead(view: PlayView, trumps: int, rng) -> int:
    """The master trump; without it the cheapest trump (never the second best into the best)."""
    kind = view.kind
    top = max(cards_in(trumps), key=lambda c: POWER[kind][c])
    if not view.unseen & ABOVE[kind][top]:
        return top
    return pick_best(cards_in(trumps), lambda c: -(future_value(view, c) + POINTS[c]), rng)


def _master_lead(view: PlayView, plain: int, rng):
    """A plain card that will very likely take the trick (usually an ace in a fresh suit), most points
    first."""
    others = [p for p in view.relation if view.relation[p] != PARTNER]
    kind = view.kind
    candidates = []
    for card in cards_in(plain):
        if card == view.called_card and view.called_open:
            continue  # the called ace's holder keeps it for the called suit's first trick
        if _lead_risk(view, card, others) <= LEAD_RISK:
            candidates.append(card)
    if not candidates:
        return None

    def score(card: int) -> float:
        suit_out = count(view.unseen & SUIT_MASK[kind][EFFECTIVE[kind][card]])
        return POINTS[card] + suit_out / 10.0

    return pick_best(candidates, score, rng)


def _called_suit_lead(view: PlayView, plain: int, rng):
    """A defender's lead into the called suit (the partner's ace must fall, the partnership shows)."""
    if view.called_card < 0 or not view.called_open or view.hand >> view.called_card & 1:
        return None
    suit_cards = plain & SUIT_MASK[view.kind][EFFECTIVE[view.kind][view.called_card]]
    candidates = [c for c in cards_in(suit_cards) if POINTS[c] < 10]
    if not candidates:
        return None
    return pick_best(candidates, lambda c: -POINTS[c], rng)


def _low_lead(view: PlayView, cards: int, short_first: bool, rng) -> int:
    """A cheap lead: few points, from a short suit or a long one. The declaring side leads short suits
    (to trump them later); a defender leads its long suit through a declarer sitting next, and a short
    one when the declarer plays last (the skat players' "long way, short suit")."""
    kind = view.kind

    def score(card: int) -> float:
        length = count(view.hand & SUIT_MASK[kind][EFFECTIVE[kind][card]])
        shape = -length if short_first else length
        return -(POINTS[card] + future_value(view, card)) + 0.5 * shape

    return pick_best(cards_in(cards), score, rng)


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

    def __init__(self, game: str, seed: int | None = None, **thresholds) -> None:
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
        if self._names is None:
            base = env.unwrapped
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
