"""Plain-Python reference of Knüffeln (``docs/rules/knuffeln.md``), written to read like the rules.

Slow and independent of the compiled kernel: cards are strings (``"H2"``), hands are sets, and the
course of a hand is one generator (``_hand``) that yields each decision ``(seat, legal action strings)``
and receives the chosen action — deal, chosen suits, ten exchange, bottom-Ole exchange, tricks, Jann,
march, drehen, talk, payment, in the order the rules tell them. ``ReferenceLadder`` scores a match of
such hands (section 9.4). The tests drive this and the kernel side by side with the same actions and
compare every decision, trick and payment, and the ladder after every hand.

The pins and decisions are those of the rules page (its decisions list, K1 to K25); the reference
follows them, written again from the rules text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

OLES = ("H2", "C4", "S8", "H9", "D9")
"""The five Oles, highest first."""
OLE_ATTACK = {"H2": 11, "C4": 10, "S8": 9, "H9": 8, "D9": 7}
CHOSEN_BEATER_ATTACK = {"A": 6, "J": 5, "6": 4, "2": 3, "3": 2, "4": 1}
SUITS = ("C", "S", "H", "D")
RANKS_WITH_TENS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "4", "3", "2")
RANKS_WITH_FIVES = ("A", "K", "Q", "J", "5", "9", "8", "7", "6", "4", "3", "2")
UNBEATABLE = 1000

HATTSTEDT_ORDER = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "4", "3", "2")
FIVES_ORDER = ("A", "K", "Q", "J", "9", "8", "7", "6", "5", "4", "3", "2")

PHRASES = 24
VARIANTS = ("bohmstedt", "hattstedt", "bernhard1924", "gruenberg1938")
# (base, Jann, march) per variant; each accepted turn adds one unit to every result.
PAYMENT = {
    "bohmstedt": (1, 10, 30),
    "hattstedt": (1, 2, 4),
    "bernhard1924": (1, 10, 30),
    "gruenberg1938": (5, 10, 20),
}


def suit_of(card: str) -> str:
    return card[0]


def rank_of(card: str) -> str:
    return card[1:]


# ----------------------------------------------------------------------------- section 2 and 4


def is_chosen_card(card: str, chosen: set[str]) -> bool:
    """A card of a chosen suit that is not an Ole."""
    return card not in OLES and suit_of(card) in chosen


def is_unchosen_card(card: str, chosen: set[str]) -> bool:
    return card not in OLES and suit_of(card) not in chosen


def attack(card: str, chosen: set[str]) -> int:
    """Oles 11..7, chosen beaters A 6, J 5, 6 4, 2 3, 3 2, 4 1; every other card 0."""
    if card in OLES:
        return OLE_ATTACK[card]
    if is_chosen_card(card, chosen):
        return CHOSEN_BEATER_ATTACK.get(rank_of(card), 0)
    return 0


def defence(card: str, chosen: set[str], was_led: bool) -> int:
    """Section 4's defence of the provisional winner."""
    if card in OLES:
        return OLE_ATTACK[card]
    rank = rank_of(card)
    if is_chosen_card(card, chosen):
        if rank in CHOSEN_BEATER_ATTACK:
            return CHOSEN_BEATER_ATTACK[rank]
        if rank == "7":
            return UNBEATABLE if was_led else 0
        if rank in ("9", "8"):
            return 4 if was_led else 0
        return {"K": 2, "Q": 1}.get(rank, 0)  # chosen K, Q, 10 (or 5)
    return {"A": 3, "K": 2, "Q": 1}.get(rank, 0)


def unchosen_rank(card: str, variant: str) -> int:
    """How high an unchosen card ranks within its own suit (higher beats lower of the same suit).
    Bohmstedt: only the ace has a rank; Hattstedt and the early variants: the whole suit."""
    rank = rank_of(card)
    if variant == "bohmstedt":
        return 1 if rank == "A" else 0
    order = FIVES_ORDER if variant == "bernhard1924" else HATTSTEDT_ORDER
    return len(order) - order.index(rank)


def beats(later: str, provisional: str, provisional_was_led: bool, chosen: set[str], variant: str) -> bool:
    """Does ``later`` take over from the provisional winner?"""
    if attack(later, chosen) > defence(provisional, chosen, provisional_was_led):
        return True
    return (
        is_unchosen_card(later, chosen)
        and is_unchosen_card(provisional, chosen)
        and suit_of(later) == suit_of(provisional)
        and unchosen_rank(later, variant) > unchosen_rank(provisional, variant)
    )


def trick_winner(cards: list[str], chosen: set[str], variant: str) -> int:
    """Index (in playing order) of the card that wins the trick."""
    winner = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[winner], winner == 0, chosen, variant):
            winner = i
    return winner


# ----------------------------------------------------------------------------- the hand


class RedealNeeded(Exception):
    """The first four stock cards share a suit: the same dealer must deal again."""


@dataclass
class Trick:
    leader: int
    plays: list[tuple[int, str]] = field(default_factory=list)
    face_down_accepted: bool = False
    winner: int = -1


class ReferenceHand:
    """One hand of Knüffeln. ``start(dealer, hands, stock)``, then ``legal_actions()`` / ``apply(a)``
    until ``over``; ``settlement`` gives units per seat."""

    def __init__(self, variant: str = "bohmstedt", players: int = 4, talk: str = "off") -> None:
        self.variant = variant
        self.players = players
        self.talk = talk
        self.ten_rank = "5" if variant == "bernhard1924" else "10"

    # ---------------------------------------------------------------- driving

    def start(self, dealer: int, hands: dict[int, list[str]], stock: list[str]) -> None:
        """``hands``: seat -> 9 cards (five players: the four non-dealers); ``stock`` top to bottom."""
        self.dealer = dealer
        self.forehand = (dealer + 1) % self.players
        self.hands = {seat: set(hands.get(seat, [])) for seat in range(self.players)}
        self.stock = list(stock)
        self.history: list[tuple[int, str]] = []
        self.tricks: list[Trick] = []
        self.talk_log: list[tuple[int, str]] = []
        self.settlement = [0] * self.players
        self.result = None
        self._flow = self._hand()
        self._decision = next(self._flow, None)

    @property
    def over(self) -> bool:
        return self._decision is None

    @property
    def current_player(self) -> int:
        return -1 if self._decision is None else self._decision[0]

    def legal_actions(self) -> list[str]:
        return [] if self._decision is None else sorted(set(self._decision[1]))

    def apply(self, action: str) -> None:
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action!r}; legal: {self.legal_actions()}")
        self.history.append((self.current_player, action))
        try:
            self._decision = self._flow.send(action)
        except StopIteration:
            self._decision = None

    # ---------------------------------------------------------------- section 3

    def _hand(self):
        self._turn_chosen_suits()
        self.got_by_ten_exchange = {seat: set() for seat in range(self.players)}
        self.dealer_alone = False
        if self.players == 5:
            choice = yield self.dealer, ["play_alone", "sit_out"]
            self.dealer_alone = choice == "play_alone"
            if self.dealer_alone:
                self.hands[self.dealer] = set(self.stock[len(self.turned):])
                self.active = [(self.dealer + k) % 5 for k in range(5)]
                self.team = {seat: (0 if seat == self.dealer else 1) for seat in range(5)}
                self.needed = {0: 4, 1: 5}
                self.tricks_in_hand = min(9, len(self.hands[self.dealer]))
                first_leader = (self.dealer + 3) % 5
                exchange_order = [(self.dealer + k) % 5 for k in range(1, 6)]
            else:
                self.active = [(self.dealer + k) % 5 for k in range(1, 5)]
                self.team = {seat: k % 2 for k, seat in enumerate(self.active)}
                self.needed = {0: 5, 1: 5}
                self.tricks_in_hand = 9
                first_leader = self.active[0]
                exchange_order = list(self.active)
        else:
            self.active = [(self.forehand + k) % 4 for k in range(4)]
            self.team = {seat: seat % 2 for seat in range(4)}
            self.needed = {0: 5, 1: 5}
            self.tricks_in_hand = 9
            first_leader = self.forehand
            exchange_order = list(self.active)
        yield from self._ten_exchanges(exchange_order)
        if self.players == 4:
            if self.variant in ("bohmstedt", "hattstedt"):
                yield from self._bottom_check()
            else:
                yield from self._bottom_three_face_up()
        yield from self._play(first_leader)

    def _turn_chosen_suits(self) -> None:
        """Turn the top card, then the next until one of another suit shows; four of one suit: redeal."""
        self.turned = [self.stock[0]]
        while suit_of(self.stock[len(self.turned)]) == suit_of(self.stock[0]):
            self.turned.append(self.stock[len(self.turned)])
            if len(self.turned) == 4:
                raise RedealNeeded("four cards of one suit turned")
        self.turned.append(self.stock[len(self.turned)])
        self.first_suit = suit_of(self.turned[0])
        self.second_suit = suit_of(self.turned[-1])
        self.chosen = {self.first_suit, self.second_suit}
        self.face_up = list(self.turned)

    def _ten_exchanges(self, seats):
        """Each seat in turn may give the ten of a chosen suit for a turned card of that suit (asked again
        after an exchange: it may hold both tens)."""
        exchanged_suits = set()
        for seat in seats:
            while True:
                options = []
                for suit in (self.first_suit, self.second_suit):
                    if suit not in exchanged_suits and suit + self.ten_rank in self.hands[seat]:
                        options += [f"exchange:{card}" for card in self.face_up if suit_of(card) == suit]
                action = yield seat, options + ["decline"]
                if action == "decline":
                    break
                card = action.split(":", 1)[1]
                ten = suit_of(card) + self.ten_rank
                self.hands[seat].remove(ten)
                self.hands[seat].add(card)
                self.face_up.remove(card)
                self.face_up.append(ten)
                self.got_by_ten_exchange[seat].add(card)
                exchanged_suits.add(suit_of(card))

    def _bottom_check(self):
        """The dealer looks at the bottom card; an Ole is offered; if taken, the next from the bottom;
        at most three. A non-Ole or a refused Ole ends the checking."""
        position = len(self.stock) - 1
        for _ in range(3):
            card = self.stock[position]
            if card not in OLES:
                return
            taken = yield from self._offer_ole(card)
            if not taken:
                return
            position -= 1

    def _bottom_three_face_up(self):
        """1924/1938: the three bottom cards lie face up; each Ole among them is offered, bottom first."""
        for position in (len(self.stock) - 1, len(self.stock) - 2, len(self.stock) - 3):
            if self.stock[position] in OLES:
                yield from self._offer_ole(self.stock[position])

    def _holder(self, card: str):
        for seat in range(self.players):
            if card in self.hands[seat]:
                return seat
        return None

    def _offer_ole(self, ole: str):
        """Queen holder, else King holder, may exchange; not with a card got by the ten exchange.
        Every seat is asked in turn from forehand; returns whether the Ole was taken."""
        queen, king = suit_of(ole) + "Q", suit_of(ole) + "K"
        holder, give = self._holder(queen), queen
        if holder is None:
            holder, give = self._holder(king), king
        if holder is not None and give in self.got_by_ten_exchange[holder]:
            holder = None  # no double exchange
        for seat in [(self.forehand + k) % 4 for k in range(4)]:
            action = yield seat, ["decline"] + (["take_ole"] if seat == holder else [])
            if action == "take_ole":
                self.hands[seat].remove(give)
                self.hands[seat].add(ole)
                return True
        return False

    # ---------------------------------------------------------------- sections 4 to 7

    def _talks(self, seat: int) -> bool:
        return self.talk != "off" and not (self.dealer_alone and seat == self.dealer)

    def _talk_turn(self, seat: int):
        if not self._talks(seat):
            return
        if self.talk == "lexicon":
            options = ["silent"] + [f"say:{k}" for k in range(1, PHRASES + 1)]
            options += [f"show:{card}" for card in self.hands[seat]]
        else:
            options = ["silent"] + [f"token:{k}" for k in range(1, int(self.talk.split(":")[1]) + 1)]
        utterance = yield seat, options
        self.talk_log.append((seat, utterance))

    def _after(self, seat: int) -> int:
        return self.active[(self.active.index(seat) + 1) % len(self.active)]

    def _may_turn(self, team: int) -> bool:
        if self.variant == "hattstedt":
            return False
        if self.variant == "bernhard1924":
            return self.won[team] >= 2 * (self.accepted_by[team] + 1)
        return True

    def _play(self, leader: int):
        base, jann, march = PAYMENT[self.variant]
        self.won = {0: 0, 1: 0}
        self.accepted = 0
        self.accepted_by = {0: 0, 1: 0}
        committed = None
        jann_offered = False
        while True:
            team = self.team[leader]
            yield from self._talk_turn(leader)
            options = sorted(self.hands[leader])
            if self._may_turn(team):
                options += [f"turn:{card}" for card in self.hands[leader]]
            if jann_offered:
                options.append("stop")
            action = yield leader, options
            if action == "stop":
                return self._finish(team, jann + self.accepted, "jann")
            if jann_offered:
                committed, jann_offered = team, False
            trick = Trick(leader)
            if action.startswith("turn:"):
                card = action.split(":", 1)[1]
                self.hands[leader].remove(card)
                answerer = self._after(leader)
                while self.team[answerer] == team:
                    answerer = self._after(answerer)
                answer = yield answerer, ["accept", "flee"]
                if answer == "flee":
                    if committed == team:
                        return self._finish(1 - team, march + self.accepted, "failed_march")
                    return self._finish(team, base + self.accepted, "fled")
                self.accepted += 1
                self.accepted_by[team] += 1
                trick.face_down_accepted = True
            else:
                card = action
                self.hands[leader].remove(card)
            trick.plays.append((leader, card))
            seat = leader
            for _ in range(len(self.active) - 1):
                seat = self._after(seat)
                yield from self._talk_turn(seat)
                card = yield seat, sorted(self.hands[seat])
                self.hands[seat].remove(card)
                trick.plays.append((seat, card))
            position = trick_winner([card for _, card in trick.plays], self.chosen, self.variant)
            trick.winner = trick.plays[position][0]
            self.tricks.append(trick)
            winning_team = self.team[trick.winner]
            self.won[winning_team] += 1
            leader = trick.winner
            if committed is not None:
                if winning_team != committed:
                    return self._finish(winning_team, march + self.accepted, "failed_march")
                if len(self.tricks) == self.tricks_in_hand:
                    return self._finish(committed, march + self.accepted, "march")
                continue
            if self.won[winning_team] >= self.needed[winning_team]:
                all_in_a_row = all(self.team[t.winner] == winning_team for t in self.tricks)
                if all_in_a_row and len(self.tricks) < self.tricks_in_hand:
                    jann_offered = True
                    continue
                return self._finish(winning_team, base + self.accepted, "plain")

    # ---------------------------------------------------------------- section 8

    def _finish(self, winning_team: int, units: int, kind: str) -> None:
        """Each member of the losing team pays each member of the winning team ``units``."""
        self.result = (kind, winning_team, units)
        for winner in self.active:
            for loser in self.active:
                if self.team[winner] == winning_team and self.team[loser] != winning_team:
                    self.settlement[winner] += units
                    self.settlement[loser] -= units


# ----------------------------------------------------------------------------- section 9.4


class ReferenceLadder:
    """Ladder scoring of a match (section 9.4): each team starts with four rungs; the winners of a hand
    wipe one for a plain win (a fled turn counts as the turner's plain win, K20), two for a Jann, one more
    per accepted turn, and all for a march or a failed march (K20), never more than they have left. The
    first team to wipe all its rungs wins the match: a Brille (double) if it wiped all four in one hand
    (K21), else a Knüppel."""

    RUNGS = 4

    def __init__(self) -> None:
        self.rungs = {0: self.RUNGS, 1: self.RUNGS}
        self.hands_played = 0
        self.winner: int | None = None
        self.brille = False

    def score(self, kind: str, winning_team: int, accepted_turns: int) -> None:
        """Record a finished hand: its result kind (``ReferenceHand.result[0]``), winning team and the
        turns accepted in it."""
        if self.winner is not None:
            raise ValueError("the match is over")
        if kind in ("march", "failed_march"):
            wiped = self.RUNGS
        elif kind == "jann":
            wiped = 2 + accepted_turns
        else:  # "plain" or "fled"
            wiped = 1 + accepted_turns
        before = self.rungs[winning_team]
        self.rungs[winning_team] = max(0, before - wiped)
        self.hands_played += 1
        if self.rungs[winning_team] == 0:
            self.winner = winning_team
            self.brille = before == self.RUNGS

    def rewards(self, players: int = 4) -> list[float]:
        """Per seat once the match is over: +1 each winner, -1 each loser (Knüppel), doubled for a Brille;
        all zero while it goes on."""
        if self.winner is None:
            return [0.0] * players
        points = 2.0 if self.brille else 1.0
        return [points if seat % 2 == self.winner else -points for seat in range(players)]
