"""Plain-Python reference of Asserufen, written to read like ``docs/rules/palatinate_schafkopf.md``
(sections 1 and 3 with their pinned statements and decisions). Slow and obvious on purpose: the compiled
kernel (``schafkopf_env.asserufen.kernel``) is tested against it on thousands of random hands. It shares no
tables with the kernel: cards are strings such as ``"CQ"``, actions the env's action strings.
"""

from __future__ import annotations

from itertools import takewhile

SUITS = ("C", "S", "H", "D")
RANKS = ("A", "10", "K", "Q", "J", "9", "8", "7")
CARD_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}

# All Queens and all Jacks are permanent top trumps: Queens beat Jacks, clubs > spades > hearts > diamonds.
TOP_TRUMPS = ("CQ", "SQ", "HQ", "DQ", "CJ", "SJ", "HJ", "DJ")
PLAIN_ORDER = ("A", "10", "K", "9", "8", "7")  # a plain suit, and the trump suit below the top trumps

BID_LADDER = ("haenge_an", "darf_man", "solo", "heart_solo", "solo_du", "heart_solo_du")
SOLO_BIDS = ("solo", "heart_solo", "solo_du", "heart_solo_du")
NON_TRUMP_SUITS_OF_ACE_CALL = ("C", "S", "D")  # hearts are trump in the ace-call game


def suit_of(card: str) -> str:
    return card[0]


def rank_of(card: str) -> str:
    return card[1:]


def all_cards() -> list[str]:
    return [s + r for s in SUITS for r in RANKS]


class AsserufenReference:
    """One hand of Asserufen. ``hands[seat]`` lists the eight cards dealt to each seat; play is clockwise
    in increasing seat order and forehand (left of the dealer) speaks and leads first."""

    def __init__(self, dealer: int, hands: list[list[str]], max_doublings: int = 4) -> None:
        self.dealer = dealer
        self.dealt = [list(h) for h in hands]
        self.hands = [set(h) for h in hands]
        self.max_doublings = max_doublings
        self.forehand = (dealer + 1) % 4
        # bidding
        self.phase = "bidding"
        self.to_act = self.forehand
        self.bids: list[str | None] = [None] * 4
        self.highest_bid: str | None = None
        self.highest_bidder: int | None = None
        self.haenge_an_player: int | None = None
        # contract
        self.contract: str | None = None  # "ace_call" or one of SOLO_BIDS
        self.declarer: int | None = None
        self.trump_suit: str | None = None
        self.called_card: str | None = None
        self.partner: int | None = None
        self.partnership_known = False
        self.called_suit_rules_over = False
        # doubling
        self.doublings = 0
        self.last_doubler: int | None = None
        self.answers_in_round = 0
        self.waiting_to_play: int | None = None
        # play
        self.trick: list[tuple[int, str]] = []
        self.tricks: list[tuple[list[tuple[int, str]], int]] = []  # (cards in playing order, winner)
        self.taken: list[list[str]] = [[], [], [], []]
        self.lost_du = False

    # ------------------------------------------------------------ cards under the contract

    def is_trump(self, card: str) -> bool:
        return rank_of(card) in ("Q", "J") or suit_of(card) == self.trump_suit

    def effective_suit(self, card: str) -> str:
        return "trump" if self.is_trump(card) else suit_of(card)

    def trump_order(self) -> list[str]:
        return list(TOP_TRUMPS) + [self.trump_suit + r for r in PLAIN_ORDER]

    def trick_winner(self, trick: list[tuple[int, str]]) -> int:
        """The highest trump wins, else the highest card of the led suit."""
        trumps = [(seat, card) for seat, card in trick if self.is_trump(card)]
        if trumps:
            order = self.trump_order()
            return min(trumps, key=lambda sc: order.index(sc[1]))[0]
        led = suit_of(trick[0][1])
        followers = [(seat, card) for seat, card in trick if suit_of(card) == led]
        return min(followers, key=lambda sc: PLAIN_ORDER.index(rank_of(sc[1])))[0]

    def suit_cards(self, seat: int, suit: str) -> set[str]:
        return {c for c in self.hands[seat] if self.effective_suit(c) == suit}

    # ------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[str]:
        if self.phase == "over":
            return []
        seat = self.to_act
        return {
            "bidding": self.legal_bids,
            "answer": lambda s: ["accept", "refuse"],
            "call": self.legal_calls,
            "trump": lambda s: ["trump:C", "trump:S", "trump:D"],
            "contra_offer": self.legal_contra_offer,
            "doubling_round": self.legal_doubling_answer,
            "play": self.legal_cards,
        }[self.phase](seat)

    def legal_bids(self, seat: int) -> list[str]:
        """Weg, or a bid higher than any before: haenge_an only as the first bid, darf_man only directly
        over haenge_an and only with a non-heart plain card of a suit whose ace the player lacks."""
        legal = ["weg"]
        level = -1 if self.highest_bid is None else BID_LADDER.index(self.highest_bid)
        for bid in BID_LADDER[level + 1 :]:
            if bid == "haenge_an" and self.highest_bid is not None:
                continue
            if bid == "darf_man" and (self.highest_bid != "haenge_an" or not self.may_say_darf_man(seat)):
                continue
            legal.append(bid)
        return legal

    def may_say_darf_man(self, seat: int) -> bool:
        for suit in NON_TRUMP_SUITS_OF_ACE_CALL:
            plain = [c for c in self.hands[seat] if suit_of(c) == suit and rank_of(c) not in ("Q", "J")]
            if plain and suit + "A" not in self.hands[seat]:
                return True
        return False

    def legal_calls(self, seat: int) -> list[str]:
        """An ace not held, of a suit in which the declarer holds a card if possible; holding all three
        aces, a ten not held; holding the tens too, a King not held."""
        hand = self.hands[seat]

        def plain_cards(suit):
            return [c for c in hand if suit_of(c) == suit and rank_of(c) not in ("Q", "J")]

        aces_not_held = [s for s in NON_TRUMP_SUITS_OF_ACE_CALL if s + "A" not in hand]
        if aces_not_held:
            with_a_card = [s for s in aces_not_held if plain_cards(s)]
            return ["call:" + s for s in (with_a_card or aces_not_held)]
        tens_not_held = [s for s in NON_TRUMP_SUITS_OF_ACE_CALL if s + "10" not in hand]
        if tens_not_held:
            return ["call:" + s + "10" for s in tens_not_held]
        return ["call:" + s + "K" for s in NON_TRUMP_SUITS_OF_ACE_CALL if s + "K" not in hand]

    def side_of(self, seat: int) -> str:
        if seat == self.declarer or (self.contract == "ace_call" and seat == self.partner):
            return "declarer"
        return "opponents"

    def legal_contra_offer(self, seat: int) -> list[str]:
        # The hidden partner is asked like everyone else, but may only decline.
        return ["no_double"] if self.side_of(seat) == "declarer" else ["contra", "no_double"]

    def legal_doubling_answer(self, seat: int) -> list[str]:
        doubled_side = "opponents" if self.side_of(self.last_doubler) == "declarer" else "declarer"
        if self.side_of(seat) == doubled_side and self.doublings < self.max_doublings:
            return ["re", "no_double"]
        return ["no_double"]

    def legal_cards(self, seat: int) -> list[str]:
        hand = self.hands[seat]
        if not self.trick:
            legal = set(hand)
        else:
            led = self.effective_suit(self.trick[0][1])
            legal = self.suit_cards(seat, led) or set(hand)
        if self.contract == "ace_call" and seat == self.partner and not self.called_suit_rules_over:
            legal = self.apply_called_card_rules(seat, legal)
        return sorted(legal, key=all_cards().index)

    def apply_called_card_rules(self, seat: int, legal: set[str]) -> set[str]:
        called = self.called_card
        called_suit = suit_of(called)
        if not self.trick:
            # Rule 2 (and 4): leading the called suit means leading the called card, unless holding four.
            if len(self.suit_cards(seat, called_suit)) < 4:
                legal = {c for c in legal if self.effective_suit(c) != called_suit or c == called}
            return legal
        if self.effective_suit(self.trick[0][1]) == called_suit:
            return {called}  # Rule 1: another player led the called suit first
        # Rule 3: the called card is not discarded to another suit, unless it is the last card.
        if len(self.hands[seat]) > 1:
            legal = legal - {called}
        return legal

    # ------------------------------------------------------------ applying actions

    def apply(self, action: str) -> None:
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action!r} in phase {self.phase}; legal {self.legal_actions()}")
        seat = self.to_act
        if self.phase == "bidding":
            self.bid(seat, action)
        elif self.phase == "answer":
            self.declare_ace_call(self.highest_bidder if action == "accept" else self.haenge_an_player)
        elif self.phase == "call":
            self.call(action)
        elif self.phase == "trump":
            self.trump_suit = action.split(":")[1]
            self.start_play()
        elif self.phase == "contra_offer":
            if action == "contra":
                self.double(seat)
            else:
                self.phase = "play"
        elif self.phase == "doubling_round":
            self.answer_in_round(seat, action)
        else:
            self.play(seat, action)

    def bid(self, seat: int, action: str) -> None:
        self.bids[seat] = action
        if action != "weg":
            self.highest_bid, self.highest_bidder = action, seat
            if action == "haenge_an":
                self.haenge_an_player = seat
        if seat != self.dealer:  # one pass in seat order: the dealer speaks last
            self.to_act = (seat + 1) % 4
            return
        if self.highest_bid is None:
            self.phase = "over"  # all four said weg: thrown in
        elif self.highest_bid == "haenge_an":
            self.declare_ace_call(self.highest_bidder)
        elif self.highest_bid == "darf_man":
            self.phase, self.to_act = "answer", self.haenge_an_player
        else:
            self.contract, self.declarer = self.highest_bid, self.highest_bidder
            if self.contract in ("heart_solo", "heart_solo_du"):
                self.trump_suit = "H"
                self.start_play()
            else:
                self.phase, self.to_act = "trump", self.declarer

    def declare_ace_call(self, declarer: int) -> None:
        self.contract, self.declarer, self.trump_suit = "ace_call", declarer, "H"
        self.phase, self.to_act = "call", declarer

    def call(self, action: str) -> None:
        target = action.split(":")[1]
        self.called_card = target + "A" if len(target) == 1 else target
        self.partner = next(s for s in range(4) if self.called_card in self.hands[s])
        self.start_play()

    def start_play(self) -> None:
        self.about_to_play(self.forehand)

    def about_to_play(self, seat: int) -> None:
        """Contra is offered to each player but the declarer at their own first card, until a double."""
        self.to_act = seat
        first_card = len(self.tricks) == 0
        if first_card and self.doublings == 0 and self.max_doublings > 0 and seat != self.declarer:
            self.phase, self.waiting_to_play = "contra_offer", seat
        else:
            self.phase = "play"

    def double(self, seat: int) -> None:
        self.doublings += 1
        self.last_doubler = seat
        if self.contract == "ace_call" and seat == self.partner:
            self.partnership_known = True  # a partner who says rekontra is revealed
        if self.doublings == self.max_doublings:
            self.phase, self.to_act = "play", self.waiting_to_play
        else:
            self.phase, self.to_act, self.answers_in_round = "doubling_round", (seat + 1) % 4, 0

    def answer_in_round(self, seat: int, action: str) -> None:
        if action == "re":
            self.double(seat)
            return
        self.answers_in_round += 1
        if self.answers_in_round == 3:  # a full round of answers without a double ends the doubling
            self.phase, self.to_act = "play", self.waiting_to_play
        else:
            self.to_act = (seat + 1) % 4

    def play(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if card == self.called_card:
            self.partnership_known = True
        if len(self.trick) < 4:
            self.about_to_play((seat + 1) % 4)
            return
        winner = self.trick_winner(self.trick)
        self.tricks.append((self.trick, winner))
        self.taken[winner].extend(card for _, card in self.trick)
        if (
            self.contract == "ace_call"
            and not self.called_suit_rules_over
            and self.effective_suit(self.trick[0][1]) == suit_of(self.called_card)
        ):
            self.called_suit_rules_over = True  # rules 1-3 end with the first trick led in the called suit
            if self.called_card not in [c for _, c in self.trick]:
                self.partnership_known = True  # the leader ran away: everyone knows the partner
        self.trick = []
        if self.contract in ("solo_du", "heart_solo_du") and winner != self.declarer:
            self.lost_du = True
            self.phase = "over"
        elif len(self.tricks) == 8:
            self.phase = "over"
        else:
            self.about_to_play(winner)

    # ------------------------------------------------------------ value and settlement

    def trick_winners(self) -> list[int]:
        return [winner for _, winner in self.tricks]

    def declarer_side(self) -> list[int]:
        return [s for s in range(4) if self.side_of(s) == "declarer"]

    def game_value(self) -> tuple[bool, int]:
        """(declarer's side won, value): game 1, hearts 1 in a heart solo, schneider, schwarz, hoch from
        three; Du doubles and counts schneider and schwarz won or lost; each double doubles."""
        side = self.declarer_side()
        side_points = sum(CARD_POINTS[rank_of(c)] for s in side for c in self.taken[s])
        side_tricks = sum(1 for _, winner in self.tricks if winner in side)
        du = self.contract in ("solo_du", "heart_solo_du")
        if du:
            won = not self.lost_du and side_tricks == 8
            schneider = schwarz = 1
        else:
            won = side_points >= 61
            loser_points = 120 - side_points if won else side_points
            loser_tricks = 8 - side_tricks if won else side_tricks
            schneider = 1 if loser_points < 30 else 0
            schwarz = 1 if loser_tricks == 0 else 0
        hearts = 1 if self.contract in ("heart_solo", "heart_solo_du") else 0
        value = 1 + hearts + schneider + schwarz + self.hoch()
        if du:
            value *= 2
        value *= 2**self.doublings
        return won, value

    def hoch(self) -> int:
        """Consecutive top trumps from CQ down held by one side at the start (with or without), from 3."""
        side_cards = {c for s in self.declarer_side() for c in self.dealt[s]}
        order = self.trump_order()
        with_top = order[0] in side_cards  # "with" the top trumps, or "without" them
        run = len(list(takewhile(lambda card: (card in side_cards) == with_top, order)))
        return run if run >= 3 else 0

    def settlement(self) -> list[int]:
        if self.phase != "over" or self.contract is None:
            return [0, 0, 0, 0]
        won, value = self.game_value()
        signed = value if won else -value
        result = []
        for seat in range(4):
            if seat == self.declarer and self.contract != "ace_call":
                result.append(3 * signed)  # a soloist settles with each of the three opponents
            elif self.side_of(seat) == "declarer":
                result.append(signed)
            else:
                result.append(-signed)
        return result
