"""Card play of the rule-based Schafkopf players (``agents.rules.schafkopf_common``): the partnerships as the
observer knows them (``relations``), what it knows when it plays (``PlayView``) and the card it plays
(``choose_card``).

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
"""

from __future__ import annotations

from dataclasses import dataclass

from schafkopf_env.trumps import NUM_TRUMPS, TRUMP

from .schafkopf_cards import (
    ABOVE,
    EFFECTIVE,
    POINTS,
    POWER,
    SUIT_MASK,
    TRUMP_MASK,
    TRUMP_STRENGTH,
    cards_of,
    pick_best,
    popcount,
)

PARTNER, UNKNOWN, OPPONENT = 1, 0, -1
"""How a seat relates to the observer: known partner, side not known yet, known opponent."""


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
    options = cards_of(legal)
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
    higher = popcount(unseen & ABOVE[kind][card])
    card_is_trump = EFFECTIVE[kind][card] == TRUMP
    suit_out = 0 if led_suit == TRUMP else popcount(unseen & SUIT_MASK[kind][led_suit])
    trumps_out = popcount(unseen & TRUMP_MASK[kind])
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
    if popcount(view.hand & suit_mask) == 1 and view.hand & TRUMP_MASK[kind]:
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
    options = cards_of(legal)
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
            return pick_best(cards_of(trumps), lambda c: POWER[kind][c], rng)
        others = [p for p in view.relation if view.relation[p] != PARTNER]
        return pick_best(cards_of(legal), lambda c: -_lead_risk(view, c, others) + POWER[kind][c] / 1000, rng)
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
    return pick_best(cards_of(legal), lambda c: -(POINTS[c] + future_value(view, c)), rng)


def _last_position(view: PlayView):
    """The position that plays last to a trick the observer leads."""
    return max(view.relation) if view.relation else None


def _lead_risk(view: PlayView, card: int, others: list) -> float:
    return beaten_risk(view, card, EFFECTIVE[view.kind][card], others)


def _pull_trumps(view: PlayView, trumps: int) -> bool:
    """Whether the declaring side should lead trumps: with the master trump, or with two or more when
    the cheapest of them is not a ten or an ace (those are not thrown into the opponents' high trumps)."""
    kind = view.kind
    mine = cards_of(trumps)
    top = max(mine, key=lambda c: POWER[kind][c])
    if not view.unseen & ABOVE[kind][top]:
        return True
    return len(mine) >= 2 and min(POINTS[c] for c in mine) < 10


def _trump_lead(view: PlayView, trumps: int, rng) -> int:
    """The master trump; without it the cheapest trump (never the second best into the best)."""
    kind = view.kind
    top = max(cards_of(trumps), key=lambda c: POWER[kind][c])
    if not view.unseen & ABOVE[kind][top]:
        return top
    return pick_best(cards_of(trumps), lambda c: -(future_value(view, c) + POINTS[c]), rng)


def _master_lead(view: PlayView, plain: int, rng):
    """A plain card that will very likely take the trick (usually an ace in a fresh suit), most points
    first."""
    others = [p for p in view.relation if view.relation[p] != PARTNER]
    kind = view.kind
    candidates = []
    for card in cards_of(plain):
        if card == view.called_card and view.called_open:
            continue  # the called ace's holder keeps it for the called suit's first trick
        if _lead_risk(view, card, others) <= LEAD_RISK:
            candidates.append(card)
    if not candidates:
        return None

    def score(card: int) -> float:
        suit_out = popcount(view.unseen & SUIT_MASK[kind][EFFECTIVE[kind][card]])
        return POINTS[card] + suit_out / 10.0

    return pick_best(candidates, score, rng)


def _called_suit_lead(view: PlayView, plain: int, rng):
    """A defender's lead into the called suit (the partner's ace must fall, the partnership shows)."""
    if view.called_card < 0 or not view.called_open or view.hand >> view.called_card & 1:
        return None
    suit_cards = plain & SUIT_MASK[view.kind][EFFECTIVE[view.kind][view.called_card]]
    candidates = [c for c in cards_of(suit_cards) if POINTS[c] < 10]
    if not candidates:
        return None
    return pick_best(candidates, lambda c: -POINTS[c], rng)


def _low_lead(view: PlayView, cards: int, short_first: bool, rng) -> int:
    """A cheap lead: few points, from a short suit or a long one. The declaring side leads short suits
    (to trump them later); a defender leads its long suit through a declarer sitting next, and a short
    one when the declarer plays last (the skat players' "long way, short suit")."""
    kind = view.kind

    def score(card: int) -> float:
        length = popcount(view.hand & SUIT_MASK[kind][EFFECTIVE[kind][card]])
        shape = -length if short_first else length
        return -(POINTS[card] + future_value(view, card)) + 0.5 * shape

    return pick_best(cards_of(cards), score, rng)

