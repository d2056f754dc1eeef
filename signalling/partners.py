"""Hidden partners in Schafkopf: when does each player know who its partner is?

In a Bavarian Rufer and in Asserufen's ace-call game the declarer calls a card it does not hold (an ace;
in Asserufen a ten or King when it holds the aces) and its holder is the secret partner. The rules make
the partnership public when the called card is played or its holder runs away; but the play reveals it
earlier to anyone who reasons about it. This module computes, after every card, the **exact Bayesian
posterior over the holder of the called card**:

- from the **public** play (an observer who sees every action but no hand), and
- from each **seat's own observation** (its own cards included),

under a uniform prior over deals and the rules as the only model of the players (a policy-agnostic,
rules-aware observer): a deal is possible when every recorded action was legal under it. The posterior is

``P(holder = s | what the viewer saw) = N_s / sum_t N_t``, ``N_s`` = number of possible deals of the cards
the viewer cannot see in which seat s holds the called card,

counted exactly (integers, no sampling). The partner is *certain* once every other candidate has
``N_t = 0``. ``certainty_point`` gives the number of cards played when that happens; ``certainty_trick``
turns it into the trick (0: before the first card, 1..8: during that trick).

**What makes a deal impossible** (read from the record, both games unless said):

1. a seat that did not follow the led effective suit holds no card of it (trumps: Obers, Unters and hearts
   in a Rufer; Queens, Jacks and hearts in Asserufen);
2. the declarer does not hold the called card; a seat that played a card to the first trick led in the
   called suit without playing the called card does not hold it; the called card in a trick shows its
   holder;
3. the leader of the first trick led in the called suit with another card of that suit held the called
   card only if it held at least four plain cards of that suit then (running away);
4. the call was legal: Rufer, the declarer holds a plain card of the called suit; Asserufen, an ace call
   needs a plain card of that suit unless no suit offers an ace not held with a plain card held, a ten
   call needs all three plain-suit aces, a King call the aces and the tens;
5. Asserufen: the ``darf_man`` bidder holds a plain card of a suit whose ace it does not hold; a ``contra``
   comes from the declarer's opponents, and each ``re`` from the side opposite the previous doubler
   (so a double says whether its author holds the called card).

The count runs over groups of interchangeable cards (same seats allowed, same role in the rules above) as
a compiled dynamic programme over the seats' free places; the conditions of rules 4 and 5 ("holds some
card of a set") enter by inclusion-exclusion over exclusions "holds none of it", and rule 3 by a counter
of the runaway leader's plain cards (the dynamic programme is ``signalling.deal_counting``). Tests compare
the counts with brute force (every deal of the unseen cards replayed through the env), and the early
posteriors with deals sampled and replayed the same way.

``partner_timeline(record)`` parses one ace-call hand; ``posterior(hand, point, viewer)`` gives the
posterior after ``point`` cards; ``hand_summary`` the certainty point of the public observer and of each
seat, beside the point at which the env itself declares the partnership public. Self-play studies across
hands (``self_play_ace_calls``, ``aggregate``) are ``signalling.partners_study``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .deal_counting import CARDS_PER_SEAT, NUM_SEATS, distribute

ACE_CALL_CONTRACTS = {"bavarian": "rufer", "asserufen": "ace_call"}
CARDS_PER_TRICK = 4
TRUMP = "T"


@dataclass(frozen=True)
class AceCallRules:
    """Card roles of an ace-call game: the 32 cards, the trumps, the plain (non-trump) suits."""

    game: str
    suits: str
    ranks: tuple[str, ...]
    trump_ranks: frozenset[str]
    trump_suit: str = "H"

    @property
    def cards(self) -> tuple[str, ...]:
        return tuple(s + r for s in self.suits for r in self.ranks)

    @property
    def plain_suits(self) -> str:
        return "".join(s for s in self.suits if s != self.trump_suit)

    def effective_suit(self, card: str) -> str:
        suit, rank = card[0], card[1:]
        return TRUMP if rank in self.trump_ranks or suit == self.trump_suit else suit

    def plain(self, suit: str) -> frozenset[str]:
        """The non-trump cards of a plain suit."""
        return frozenset(c for c in self.cards if c[0] == suit and self.effective_suit(c) == suit)


RULES = {
    "bavarian": AceCallRules("bavarian", "EGHS", ("A", "10", "K", "O", "U", "9", "8", "7"), frozenset({"O", "U"})),
    "asserufen": AceCallRules("asserufen", "CSHD", ("A", "10", "K", "Q", "J", "9", "8", "7"), frozenset({"Q", "J"})),
}


# --------------------------------------------------------------------------------------- the hand


@dataclass
class AceCallHand:
    """One ace-call hand as the observers see it (``partner_timeline``)."""

    game: str
    declarer: int
    holder: int
    called: str
    call: str  # the call action, e.g. "call:E", "call:C10"
    dealt: list[frozenset[str]]  # each seat's dealt hand (the truth; a viewer uses only its own)
    plays: list[tuple[int, str]]  # (seat, card) in playing order
    sides: list[tuple[int, int, bool]]  # (cards played before it, seat, on the declarer's side) per double
    darf_man: int | None  # Asserufen: the seat that said darf_man
    public_reveal: int | None  # cards played when the env declared the partnership public
    agents: dict = field(default_factory=dict)  # seat -> agent label, when the record names them

    @property
    def rules(self) -> AceCallRules:
        return RULES[self.game]


def partner_timeline(record: dict) -> AceCallHand | None:
    """The ace-call hand of a Bavarian or Asserufen record, or None for any other contract."""
    from trick_core.registry import make_env

    game = record.get("game")
    if game not in ACE_CALL_CONTRACTS:
        raise ValueError(f"hidden partners are studied in {sorted(ACE_CALL_CONTRACTS)}, not {game!r}")
    env = make_env(game, **record.get("config", {}))
    env.reset(options={"record": record})
    base = env.unwrapped
    seats = base.possible_agents
    plays, sides, darf_man, reveal, last_side = [], [], None, None, None
    for agent, action in record["actions"]:
        seat = seats.index(agent)
        if action == "darf_man":
            darf_man = seat
        elif action in ("contra", "re"):
            last_side = False if action == "contra" else not last_side
            sides.append((len(plays), seat, last_side))
        elif _is_card(action, RULES[game]):
            plays.append((seat, action))
        env.step(base.string_to_action(action))
        if reveal is None and plays and base.state().get("partner_known"):
            reveal = len(plays)
    state = base.state()
    if state.get("contract") != ACE_CALL_CONTRACTS[game]:
        return None
    called = state["called_suit"] + "A" if game == "bavarian" else state["called_card"]
    call = next(action for _, action in record["actions"] if action.startswith("call:"))
    seating = (record.get("arena") or {}).get("seating", {})
    return AceCallHand(
        game=game, declarer=seats.index(state["declarer"]), holder=seats.index(state["partner"]),
        called=called, call=call,
        dealt=[frozenset(record["deal"]["hands"][a]) for a in seats], plays=plays, sides=sides,
        darf_man=darf_man, public_reveal=reveal, agents={seats.index(a): v for a, v in seating.items()},
    )


def _is_card(action: str, rules: AceCallRules) -> bool:
    return action in rules.cards


# --------------------------------------------------------------------------------------- what a viewer knows


@dataclass
class Knowledge:
    """What a viewer knows after some cards: the cards it cannot place, the seats' free places, voids, the
    seats that may hold the called card, and the cards known to have been dealt to each seat."""

    hand: AceCallHand
    viewer: int | None
    unseen: frozenset[str]
    capacity: list[int]
    voids: list[set[str]]
    candidates: list[int]
    known_holder: int | None
    known_at: list[frozenset[str]]
    runaway: tuple[int, int] | None  # (leader, plain called-suit cards it is known to have held at its lead)


def knowledge(hand: AceCallHand, point: int, viewer: int | None = None) -> Knowledge:
    """What ``viewer`` (None: the public) knows once ``point`` cards have been played."""
    if not 0 <= point <= len(hand.plays):
        raise ValueError(f"point must lie in 0..{len(hand.plays)}, got {point}")
    if viewer is not None and viewer not in range(NUM_SEATS):
        raise ValueError(f"viewer must be a seat 0..3 or None, got {viewer!r}")
    rules = hand.rules
    plays = hand.plays[:point]
    played = [set() for _ in range(NUM_SEATS)]
    for seat, card in plays:
        played[seat].add(card)
    own = set(hand.dealt[viewer]) if viewer is not None else set()
    unseen = frozenset(rules.cards) - set().union(*played) - own
    capacity = [0 if seat == viewer else CARDS_PER_SEAT - len(played[seat]) for seat in range(NUM_SEATS)]
    voids = _voids(plays, rules)
    known = _known_holder(hand, plays, viewer)
    candidates, runaway = _candidates(hand, plays, voids)
    if known is not None:
        candidates = [known]
    known_at = [frozenset(played[seat] | (own if seat == viewer else set())) for seat in range(NUM_SEATS)]
    if runaway is not None:
        leader, lead_index = runaway
        since_lead = {card for seat, card in plays[lead_index:] if seat == leader}
        runaway = (leader, len(since_lead & rules.plain(rules.effective_suit(hand.called))))
    return Knowledge(hand, viewer, unseen, capacity, voids, candidates, known, known_at, runaway)


def _voids(plays: Sequence[tuple[int, str]], rules: AceCallRules) -> list[set[str]]:
    voids = [set() for _ in range(NUM_SEATS)]
    for start in range(0, len(plays), CARDS_PER_TRICK):
        trick = plays[start:start + CARDS_PER_TRICK]
        led = rules.effective_suit(trick[0][1])
        for seat, card in trick[1:]:
            if rules.effective_suit(card) != led:
                voids[seat].add(led)
    return voids


def _known_holder(hand: AceCallHand, plays, viewer: int | None) -> int | None:
    if viewer is not None and hand.called in hand.dealt[viewer]:
        return viewer
    for seat, card in plays:
        if card == hand.called:
            return seat
    return None


def _first_called_suit_trick(hand: AceCallHand, plays) -> list[tuple[int, str]] | None:
    rules = hand.rules
    suit = rules.effective_suit(hand.called)
    for start in range(0, len(plays), CARDS_PER_TRICK):
        trick = plays[start:start + CARDS_PER_TRICK]
        if rules.effective_suit(trick[0][1]) == suit:
            return trick
    return None


def _candidates(hand: AceCallHand, plays, voids) -> tuple[list[int], tuple[int, int] | None]:
    """Seats that may hold the called card (rules 1, 2, 5), and the runaway (leader, index of its lead)."""
    suit = hand.rules.effective_suit(hand.called)
    excluded = {hand.declarer} | {seat for seat in range(NUM_SEATS) if suit in voids[seat]}
    forced = None
    for cards_before, seat, declarer_side in hand.sides:
        if cards_before <= len(plays) and seat != hand.declarer:
            if declarer_side:
                forced = seat
            else:
                excluded.add(seat)
    runaway = None
    trick = _first_called_suit_trick(hand, plays)
    if trick is not None and trick[0][1] != hand.called:
        leader = trick[0][0]
        excluded |= {seat for seat, card in trick[1:] if card != hand.called}
        runaway = (leader, plays.index(trick[0]))
    candidates = [seat for seat in range(NUM_SEATS) if seat not in excluded]
    if forced is not None:
        candidates = [forced] if forced in candidates else []
    return candidates, runaway


# --------------------------------------------------------------------------------------- rules 4 and 5 as sums
#
# The call and darf_man conditions say that a seat holds at least one card of some set, or none of it.
# Written with the indicators Z(t, S) = "seat t holds no card of S", each condition is a polynomial in
# them; a product of indicators of one seat is the indicator of the union of their sets, so every monomial
# is a set of exclusions "seat t holds none of S_t", and the number of deals satisfying the condition is
# the signed sum, over monomials, of the number of deals honouring those exclusions (inclusion-exclusion).
# Those counts need no bookkeeping beyond the seats each card may go to.

Monomial = tuple[tuple[int, frozenset[str]], ...]
ONE: dict[Monomial, int] = {(): 1}
ZERO: dict[Monomial, int] = {}


def _poly_add(a: dict, b: dict, sign: int = 1) -> dict:
    result = dict(a)
    for monomial, coeff in b.items():
        result[monomial] = result.get(monomial, 0) + sign * coeff
    return {m: c for m, c in result.items() if c}


def _poly_mul(a: dict, b: dict) -> dict:
    result: dict = {}
    for ma, ca in a.items():
        for mb, cb in b.items():
            merged: dict[int, frozenset[str]] = dict(ma)
            for seat, cards in mb:
                merged[seat] = merged.get(seat, frozenset()) | cards
            key = tuple(sorted(merged.items(), key=lambda item: item[0]))
            result[key] = result.get(key, 0) + ca * cb
    return {m: c for m, c in result.items() if c}


def _not(a: dict) -> dict:
    return _poly_add(ONE, a, -1)


def _holds_none(know: Knowledge, seat: int, cards: frozenset[str], holder: int) -> dict:
    """The indicator Z(seat, cards) given that ``holder`` holds the called card."""
    called = know.hand.called
    if cards & know.known_at[seat] or (called in cards and holder == seat):
        return ZERO
    possible = (cards & know.unseen) - {called}
    if not possible or know.capacity[seat] == 0:
        return ONE
    return {((seat, frozenset(possible)),): 1}


def _holds_some(know: Knowledge, seat: int, cards: frozenset[str], holder: int) -> dict:
    return _not(_holds_none(know, seat, cards, holder))


def rule_polynomial(know: Knowledge, holder: int) -> dict:
    """Rules 4 and 5 (the call, the darf_man bid) as a polynomial in the indicators Z."""
    hand = know.hand
    rules = hand.rules
    declarer = hand.declarer
    suit = rules.effective_suit(hand.called)
    if hand.game == "bavarian":
        return _holds_some(know, declarer, rules.plain(suit), holder)

    def ace(s: str) -> frozenset[str]:
        return frozenset({s + "A"})

    def others(s: str) -> frozenset[str]:
        return rules.plain(s) - ace(s)

    if hand.call.endswith(("10", "K")):
        condition = ONE
        for s in rules.plain_suits:
            condition = _poly_mul(condition, _holds_some(know, declarer, ace(s), holder))
            if hand.call.endswith("K"):
                condition = _poly_mul(condition, _holds_some(know, declarer, frozenset({s + "10"}), holder))
    else:
        # legal iff a plain card of the called suit is held, or no suit offers an ace not held together
        # with a plain card held (then any ace not held may be called)
        has_called_suit = _holds_some(know, declarer, others(suit), holder)
        nothing_preferred = ONE
        for s in rules.plain_suits:
            if s != suit:
                offered = _poly_mul(_holds_none(know, declarer, ace(s), holder),
                                    _holds_some(know, declarer, others(s), holder))
                nothing_preferred = _poly_mul(nothing_preferred, _not(offered))
        condition = _poly_add(has_called_suit, _poly_mul(_not(has_called_suit), nothing_preferred))
    if hand.darf_man is not None:
        bidder = hand.darf_man
        none_offered = ONE
        for s in rules.plain_suits:
            offered = _poly_mul(_holds_none(know, bidder, ace(s), holder), _holds_some(know, bidder, others(s), holder))
            none_offered = _poly_mul(none_offered, _not(offered))
        condition = _poly_mul(condition, _not(none_offered))
    return condition


# --------------------------------------------------------------------------------------- exact counting


def count_deals(know: Knowledge, holder: int) -> int:
    """Number of deals of the unseen cards in which ``holder`` holds the called card and every rule holds."""
    total = 0
    for monomial, coeff in rule_polynomial(know, holder).items():
        total += coeff * _count_with_exclusions(know, holder, dict(monomial))
    return total


def _count_with_exclusions(know: Knowledge, holder: int, exclusions: dict[int, frozenset[str]]) -> int:
    """Deals of the unseen cards (the called card at ``holder``) honouring voids, the exclusions, and the
    runaway rule (3) when the holder is the leader who ran away."""
    hand = know.hand
    rules = hand.rules
    capacity = list(know.capacity)
    if hand.called in know.unseen:
        if capacity[holder] == 0:
            return 0
        capacity[holder] -= 1
    tracked_seat, need, tracked_cards = None, 0, frozenset()
    if know.runaway is not None and know.runaway[0] == holder and holder != know.viewer:
        tracked_seat = holder
        tracked_cards = rules.plain(rules.effective_suit(hand.called))
        need = max(0, 4 - know.runaway[1] - (1 if hand.called in know.unseen else 0))
    grouped: dict = {}
    for card in know.unseen - {hand.called}:
        seats = tuple(s for s in range(NUM_SEATS) if capacity[s] > 0
                      and rules.effective_suit(card) not in know.voids[s] and card not in exclusions.get(s, ()))
        key = (seats, card in tracked_cards)
        grouped[key] = grouped.get(key, 0) + 1
    groups = tuple(sorted(((size, seats, tracked) for (seats, tracked), size in grouped.items()),
                          key=lambda group: (not group[2], group[0], group[1])))
    return distribute(groups, tuple(capacity), tracked_seat, need)

def holder_counts(hand: AceCallHand, point: int, viewer: int | None = None) -> list[int]:
    """``N_s`` for every seat s: possible deals (of what ``viewer`` cannot see) with s holding the called card."""
    know = knowledge(hand, point, viewer)
    counts = [0] * NUM_SEATS
    for seat in know.candidates:
        if know.known_holder is not None:
            counts[seat] = 1
        else:
            counts[seat] = count_deals(know, seat)
    return counts


def posterior(hand: AceCallHand, point: int, viewer: int | None = None) -> list[float]:
    """P(seat holds the called card) for every seat, after ``point`` cards, for ``viewer`` (None: public)."""
    counts = holder_counts(hand, point, viewer)
    total = sum(counts)
    if total == 0:
        raise RuntimeError(f"no deal is consistent with the record at point {point} for viewer {viewer}")
    return [c / total for c in counts]


def certainty_point(hand: AceCallHand, viewer: int | None = None) -> int | None:
    """Cards played when the viewer first knows the holder for certain (None: never in this hand)."""
    for point in range(len(hand.plays) + 1):
        counts = holder_counts(hand, point, viewer)
        if sum(1 for c in counts if c) == 1:
            return point
    return None


def certainty_trick(point: int | None) -> int | None:
    """0 before the first card; otherwise the trick (1..8) during which the point falls."""
    if point is None:
        return None
    return 0 if point == 0 else (point - 1) // CARDS_PER_TRICK + 1


def hand_summary(hand: AceCallHand, points: Sequence[int] | None = None) -> dict:
    """Certainty points of the public and of each seat's view, the env's public reveal, and the public and
    per-role posterior on the true holder at ``points`` (default: before each trick and at the end)."""
    if points is None:
        points = sorted(set(range(0, len(hand.plays) + 1, CARDS_PER_TRICK)) | {len(hand.plays)})
    viewers = {"public": None, "declarer": hand.declarer}
    defenders = [s for s in range(NUM_SEATS) if s not in (hand.declarer, hand.holder)]
    viewers.update({f"defender_{k}": seat for k, seat in enumerate(defenders)})
    summary = {"game": hand.game, "declarer": hand.declarer, "holder": hand.holder, "called": hand.called,
               "public_reveal": hand.public_reveal, "certain_at": {}, "posterior_on_holder": {}}
    for role, viewer in viewers.items():
        summary["certain_at"][role] = _certainty_scan(hand, viewer, points, summary, role)
    summary["certain_at"]["partner"] = 0
    return summary


def _certainty_scan(hand, viewer, points, summary, role) -> int | None:
    """The certainty point of one viewer, recording its posterior on the true holder at ``points`` along
    the way (once certain, the posterior stays 1: knowledge only grows)."""
    trajectory = {}
    certain = None
    for point in range(len(hand.plays) + 1):
        if certain is not None:
            if point in points:
                trajectory[point] = 1.0
            continue
        counts = holder_counts(hand, point, viewer)
        total = sum(counts)
        if total == 0:
            raise RuntimeError(f"{hand.game}: no consistent deal for {role} at point {point}")
        if point in points:
            trajectory[point] = counts[hand.holder] / total
        if sum(1 for c in counts if c) == 1:
            certain = point
            if point in points:
                trajectory[point] = 1.0
    summary["posterior_on_holder"][role] = trajectory
    return certain
