"""Palatinate Schafkopf for three active players, written plainly to read like the rules.

This is the slow, obviously-correct twin of the kernel (``schafkopf_env.palatinate.kernel``): plain Python
over card strings (``"CQ"``, ``"H10"``), its own rank lists and no shared tables, following
``docs/rules/palatinate_schafkopf.md`` sections 1 and 2 with its pins and decisions. The tests play
thousands of seeded random hands through both and compare legal actions, trick winners and settlements.

Usage::

    hand = ReferenceHand(dealer=0, hands={1: [...], 2: [...], 0: [...]}, skat=["C7", "S7"])
    while hand.to_act is not None:
        hand.act(some_choice(hand.legal_actions()))
    hand.settlement()   # units per seat
"""

from __future__ import annotations

from itertools import takewhile

SUITS = ("C", "S", "H", "D")
RANKS = ("A", "10", "K", "Q", "J", "9", "8", "7")
CARD_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
ALL_CARDS = [suit + rank for suit in SUITS for rank in RANKS]

QUEENS = ["CQ", "SQ", "HQ", "DQ"]
JACKS = ["CJ", "SJ", "HJ", "DJ"]
PLAIN_SUIT_ORDER = ["A", "10", "K", "9", "8", "7"]

SOLO_KINDS = ["solo", "heart_solo", "solo_du", "heart_solo_du"]
"""Round-one bids from lowest to highest."""


def rank_of(card: str) -> str:
    """``"10"`` of ``"H10"``."""
    return card[1:]


def suit_of(card: str) -> str:
    """``"H"`` of ``"H10"``."""
    return card[0]


def points_of(cards) -> int:
    return sum(CARD_POINTS[rank_of(card)] for card in cards)


def trumps_in_order(trump_suit: str) -> list[str]:
    """The 14 trumps from highest: CQ SQ HQ DQ CJ SJ HJ DJ, then the trump suit's A 10 K 9 8 7."""
    return QUEENS + JACKS + [trump_suit + rank for rank in PLAIN_SUIT_ORDER]


def is_trump(card: str, trump_suit: str) -> bool:
    return card in trumps_in_order(trump_suit)


def effective_suit(card: str, trump_suit: str) -> str:
    """``"trump"`` for Queens, Jacks and the trump suit; otherwise the printed suit."""
    return "trump" if is_trump(card, trump_suit) else suit_of(card)


def trick_winner(cards: list[str], trump_suit: str) -> int:
    """Index (in playing order) of the winning card: the highest trump, else the highest card of the led
    suit."""
    trumps = trumps_in_order(trump_suit)
    played_trumps = [card for card in cards if card in trumps]
    if played_trumps:
        best = min(played_trumps, key=trumps.index)
    else:
        led = suit_of(cards[0])
        followers = [card for card in cards if suit_of(card) == led]
        best = min(followers, key=lambda card: PLAIN_SUIT_ORDER.index(rank_of(card)))
    return cards.index(best)


def may_play(hand: list[str], trick: list[str], trump_suit: str) -> list[str]:
    """Follow the led effective suit if possible (Queens and Jacks are trumps); otherwise anything."""
    if not trick:
        return list(hand)
    led = effective_suit(trick[0], trump_suit)
    following = [card for card in hand if effective_suit(card, trump_suit) == led]
    return following if following else list(hand)


def top_trumps_in_sequence(declarer_cards: set[str], trump_suit: str) -> int:
    """Hoch: how many trumps from CQ down one side held without a gap ("with" or "without" alike); it
    counts only from three upward."""
    held_by_declarer = [card in declarer_cards for card in trumps_in_order(trump_suit)]
    same_side_as_top = list(takewhile(lambda held: held == held_by_declarer[0], held_by_declarer))
    return len(same_side_as_top) if len(same_side_as_top) >= 3 else 0


def game_value(
    contract: str,
    trump_suit: str,
    hoch: int,
    declarer_points: int,
    declarer_tricks: int,
    opponent_tricks: int,
    doublings: int,
    schenken_answer: str | None,
) -> tuple[bool, int]:
    """(declarer won, value) by the value table: game 1, hearts +1, schneider +1, schwarz +1, solo +1,
    hoch +count, Du x2, each double x2.

    ``declarer_points`` includes the skat (solo) or the discards (simple game); ``schenken_answer`` is
    None, ``"accept"`` or ``"refuse"``.
    """
    du = contract in ("solo_du", "heart_solo_du")
    opponent_points = 120 - declarer_points
    if schenken_answer == "accept":
        # The opponents gave up: the declarer wins without schneider or schwarz.
        won, schneider, schwarz = True, False, False
    elif du:
        # A Du must take every trick; schneider and schwarz count won or lost.
        won = declarer_tricks == 10
        schneider, schwarz = True, True
    elif schenken_answer == "refuse":
        # Refusing commits the declarer to making the opponents schneider.
        won = opponent_points < 30
        schneider = True
        schwarz = declarer_tricks == 0 or opponent_tricks == 0
    else:
        won = declarer_points >= 61
        if won:
            loser_points, loser_tricks = opponent_points, opponent_tricks
        else:
            loser_points, loser_tricks = declarer_points, declarer_tricks
        schneider = loser_points < 30
        schwarz = loser_tricks == 0
    value = 1  # the game itself
    if trump_suit == "H":
        value += 1
    if schneider:
        value += 1
    if schwarz:
        value += 1
    if contract != "simple":
        value += 1  # a solo
    value += hoch
    if du:
        value *= 2
    for _ in range(doublings):
        value *= 2
    return won, value


class ReferenceHand:
    """One hand, from the deal to the settlement."""

    def __init__(
        self,
        dealer: int,
        hands: dict[int, list[str]],
        skat: list[str],
        players: int = 3,
        max_doublings: int = 4,
    ) -> None:
        self.players = players
        self.max_doublings = max_doublings
        self.dealer = dealer
        # With four at the table the dealer deals to the other three and sits out.
        seats_from_forehand = [(dealer + step) % players for step in range(1, players + 1)]
        self.active = [seat for seat in seats_from_forehand if not (players == 4 and seat == dealer)]
        self.dealt = {seat: list(cards) for seat, cards in hands.items()}
        self.hands = {seat: list(cards) for seat, cards in hands.items()}
        self.skat = list(skat)
        self.phase = "bid_one"
        self.to_act: int | None = self.active[0]
        self.round_one: dict[int, str] = {}
        self.round_two: dict[int, str] = {}
        self.declarer: int | None = None
        self.contract: str | None = None
        self.trump_suit: str | None = None
        self.discards: list[str] = []
        self.schenken: dict[int, str] = {}
        self.schenken_answer: str | None = None
        self.doublers: list[int] = []
        self.doubled_at: list[int] = []
        self.offered: set[int] = set()
        self.waiting_to_play: int | None = None
        self.answers_due = 0
        self.trick: list[tuple[int, str]] = []
        self.tricks: list[dict] = []
        self.thrown_in = False

    # ------------------------------------------------------------------ seats

    def left_of(self, seat: int) -> int:
        """The next active player clockwise."""
        if seat not in self.active:
            return self.active[0]
        return self.active[(self.active.index(seat) + 1) % 3]

    def opponents(self) -> list[int]:
        """The two active opponents, from the declarer's left."""
        first = self.left_of(self.declarer)
        return [first, self.left_of(first)]

    def is_du(self) -> bool:
        return self.contract in ("solo_du", "heart_solo_du")

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[str]:
        if self.to_act is None:
            return []
        seat = self.to_act
        if self.phase == "bid_one":
            named = [kind for kind in self.round_one.values() if kind != "pass"]
            highest = max((SOLO_KINDS.index(kind) for kind in named), default=-1)
            return ["pass"] + SOLO_KINDS[highest + 1 :]
        if self.phase == "bid_two":
            return ["pass", "simple"]
        if self.phase == "discard":
            return ["discard:" + card for card in self.hands[seat]]
        if self.phase == "trump":
            suits = SUITS if self.contract == "simple" else ("C", "S", "D")
            return ["trump:" + suit for suit in suits]
        if self.phase == "schenken":
            return ["schenken", "no_schenken"]
        if self.phase == "schenken_answer":
            return ["accept", "refuse"]
        if self.phase in ("contra_offer", "doubling"):
            if self.may_double(seat):
                return ["contra" if not self.doublers else "re", "no_double"]
            return ["no_double"]
        return may_play(self.hands[seat], [card for _, card in self.trick], self.trump_suit)

    def may_double(self, seat: int) -> bool:
        """The sides double alternately, the opponents first, up to the cap."""
        if len(self.doublers) >= self.max_doublings:
            return False
        declarer_side_next = len(self.doublers) % 2 == 1
        return (seat == self.declarer) == declarer_side_next

    # ------------------------------------------------------------------ acting

    def act(self, action: str) -> None:
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action!r}; legal: {self.legal_actions()}")
        seat = self.to_act
        getattr(self, "_" + self.phase)(seat, action)

    def _bid_one(self, seat: int, action: str) -> None:
        self.round_one[seat] = action
        if len(self.round_one) < 3:
            self.to_act = self.left_of(seat)
            return
        named = [(SOLO_KINDS.index(kind), s) for s, kind in self.round_one.items() if kind != "pass"]
        if not named:
            self.phase = "bid_two"
            self.to_act = self.active[0]
            return
        _, self.declarer = max(named)
        self.contract = self.round_one[self.declarer]
        if self.contract in ("heart_solo", "heart_solo_du"):
            self.trump_suit = "H"
            self._trump_named()
        else:
            self.phase = "trump"
            self.to_act = self.declarer

    def _bid_two(self, seat: int, action: str) -> None:
        self.round_two[seat] = action
        if action == "simple":
            self.declarer = seat
            self.contract = "simple"
            self.hands[seat] += self.skat
            self.phase = "discard"
            return
        if len(self.round_two) < 3:
            self.to_act = self.left_of(seat)
            return
        self.thrown_in = True
        self.phase = "over"
        self.to_act = None

    def _discard(self, seat: int, action: str) -> None:
        card = action.split(":")[1]
        self.hands[seat].remove(card)
        self.discards.append(card)
        if len(self.discards) == 2:
            self.phase = "trump"

    def _trump(self, seat: int, action: str) -> None:
        self.trump_suit = action.split(":")[1]
        self._trump_named()

    def _trump_named(self) -> None:
        if self.is_du():
            self._start_play()
        else:
            self.phase = "schenken"
            self.to_act = self.opponents()[0]

    def _schenken(self, seat: int, action: str) -> None:
        self.schenken[seat] = action
        if action == "no_schenken":
            self._start_play()
        elif seat == self.opponents()[0]:
            self.to_act = self.opponents()[1]
        else:
            self.phase = "schenken_answer"
            self.to_act = self.declarer

    def _schenken_answer(self, seat: int, action: str) -> None:
        self.schenken_answer = action
        if action == "accept":
            self.phase = "over"
            self.to_act = None
        else:
            self._start_play()

    def _start_play(self) -> None:
        self._turn_of(self.active[0])

    def _turn_of(self, seat: int) -> None:
        """An opponent about to play their first card is offered contra first (if their side may)."""
        self.to_act = seat
        first_card = not any(seat == player for trick in self.tricks for player, _ in trick["cards"])
        first_card = first_card and all(player != seat for player, _ in self.trick)
        if first_card and seat not in self.offered and seat != self.declarer and self.may_double(seat):
            self.offered.add(seat)
            self.waiting_to_play = seat
            self.phase = "contra_offer"
        else:
            self.phase = "play"

    def _contra_offer(self, seat: int, action: str) -> None:
        if action == "no_double":
            self.phase = "play"
        else:
            self._double(seat)

    def _doubling(self, seat: int, action: str) -> None:
        if action != "no_double":
            self._double(seat)
            return
        self.answers_due -= 1
        if self.answers_due == 0:
            self.phase = "play"
            self.to_act = self.waiting_to_play
        else:
            self.to_act = self.left_of(seat)

    def _double(self, seat: int) -> None:
        """After a double the other two are asked in turn from the doubler's left; a full round without a
        double (or the cap) ends the doubling."""
        self.doublers.append(seat)
        self.doubled_at.append(len(self.trick))
        if len(self.doublers) >= self.max_doublings:
            self.phase = "play"
            self.to_act = self.waiting_to_play
            return
        self.phase = "doubling"
        self.answers_due = 2
        self.to_act = self.left_of(seat)

    def _play(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < 3:
            self._turn_of(self.left_of(seat))
            return
        cards = [c for _, c in self.trick]
        winner = self.trick[trick_winner(cards, self.trump_suit)][0]
        self.tricks.append({"leader": self.trick[0][0], "cards": list(self.trick), "winner": winner})
        self.trick = []
        du_lost = self.is_du() and winner != self.declarer
        if du_lost or len(self.tricks) == 10:
            self.phase = "over"
            self.to_act = None
        else:
            self.phase = "play"
            self.to_act = winner

    # ------------------------------------------------------------------ scoring

    def declarer_points(self) -> int:
        """Cards in the declarer's tricks, plus the skat in a solo or the discards in a simple game."""
        won = [card for trick in self.tricks if trick["winner"] == self.declarer for _, card in trick["cards"]]
        extra = self.discards if self.contract == "simple" else self.skat
        return points_of(won) + points_of(extra)

    def hoch(self) -> int:
        return top_trumps_in_sequence(set(self.dealt[self.declarer]) | set(self.skat), self.trump_suit)

    def outcome(self) -> tuple[bool, int]:
        """(declarer won, game value)."""
        declarer_tricks = sum(1 for trick in self.tricks if trick["winner"] == self.declarer)
        return game_value(
            contract=self.contract,
            trump_suit=self.trump_suit,
            hoch=self.hoch(),
            declarer_points=self.declarer_points(),
            declarer_tricks=declarer_tricks,
            opponent_tricks=len(self.tricks) - declarer_tricks,
            doublings=len(self.doublers),
            schenken_answer=self.schenken_answer,
        )

    def settlement(self) -> list[int]:
        """Each other seat pays the value to the declarer, or receives it."""
        result = [0] * self.players
        if self.thrown_in:
            return result
        won, value = self.outcome()
        for seat in range(self.players):
            if seat != self.declarer:
                result[seat] = -value if won else value
        result[self.declarer] = -sum(result)
        return result
