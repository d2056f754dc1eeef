"""Bavarian Schafkopf in plain Python: ``docs/rules/bavarian_schafkopf.md`` read as code.

This is the slow twin of the kernel (``schafkopf_env.bavarian.kernel``): cards are strings such as ``"EO"``,
every rule is written out where the rules page states it, and nothing (tables, masks, layouts) is shared
with the kernel, so that the tests comparing the two would catch a mistake in either. Actions are the
strings fixed by the public API: ``"pass" "rufer" "wenz" "solo" "wenz_tout" "solo_tout" "sie"``,
``"call:E"``, ``"trump:H"``, and a bare card (``"EO"``) to play it.

    game = BavarianGame(dealer=3, hands=[[...8 cards...], ...])
    while not game.is_over():
        game.play(game.legal_actions()[0])
    game.settlement()  # units per seat

Rule options (``docs/rules/bavarian_schafkopf.md``, "Options"): ``tariff`` (``"card"``, ``"sauspiel"`` or a
mapping family -> key -> value, missing keys from ``"sauspiel"``), ``pack`` (``"long"``, ``"short"``) and
``doubling`` (Kontra and Re: ``"contra"``, ``"re"``, ``"no_double"``) and ``klopfen`` (``"knock"``,
``"no_knock"`` from forehand to the dealer before the bidding), ``ramsch``, and ``geier`` (``"geier"``,
``"geier_tout"``), ``farbwenz`` (``"farbwenz"``, ``"farbwenz_tout"``, then ``"trump:X"``), ``bettel``
(``"bettel"``): decisions B18-B22.
"""

from __future__ import annotations

from dataclasses import dataclass

# ---------------------------------------------------------------- 1. Cards
SUITS = ("E", "G", "H", "S")  # Eichel, Gras, Herz, Schellen
RANKS = ("A", "10", "K", "O", "U", "9", "8", "7")
PACK = tuple(suit + rank for suit in SUITS for rank in RANKS)
SHORT_PACK = tuple(suit + rank for suit in SUITS for rank in ("A", "10", "K", "O", "U", "9"))
"""``pack="short"``: the 8s and 7s left out, 24 cards, six a hand."""
CARD_POINTS = {"A": 11, "10": 10, "K": 4, "O": 3, "U": 2, "9": 0, "8": 0, "7": 0}
HEARTS = "H"


def suit_of(card: str) -> str:
    return card[0]


def rank_of(card: str) -> str:
    return card[1:]


def card_points(cards) -> int:
    return sum(CARD_POINTS[rank_of(card)] for card in cards)


# ---------------------------------------------------------------- 3. Contracts
LADDER = ("rufer", "bettel", "geier", "farbwenz", "wenz", "solo", "geier_tout", "farbwenz_tout", "wenz_tout",
          "solo_tout", "sie")
"""The bidding ladder, lowest first (decision B18: openschafkopf's priorities)."""
OPTION_OF = {"bettel": "bettel", "geier": "geier", "geier_tout": "geier", "farbwenz": "farbwenz",
             "farbwenz_tout": "farbwenz"}
"""The contracts only their option offers."""
WENZ_GAMES = ("wenz", "wenz_tout")
SOLO_GAMES = ("solo", "solo_tout")
GEIER_GAMES = ("geier", "geier_tout")
FARBWENZ_GAMES = ("farbwenz", "farbwenz_tout")
TOUTS = ("wenz_tout", "solo_tout", "geier_tout", "farbwenz_tout")
CALLABLE_SUITS = ("E", "G", "S")


def is_plain_card_of(card: str, suit: str) -> bool:
    """A card of ``suit`` that is neither Ober nor Unter (what a call or a Solo suit requires)."""
    return suit_of(card) == suit and rank_of(card) not in ("O", "U")


def rufer_calls(hand) -> list[str]:
    """Suits whose ace the hand may call: not holding that ace, holding a plain card of its suit."""
    return [
        suit for suit in CALLABLE_SUITS if suit + "A" not in hand and any(is_plain_card_of(card, suit) for card in hand)
    ]


def solo_suits(hand) -> list[str]:
    """Suits the hand may name as trump in a Solo: it must hold a plain card of that suit."""
    return [suit for suit in SUITS if any(is_plain_card_of(card, suit) for card in hand)]


def farbwenz_suits(hand) -> list[str]:
    """Suits a Farbwenz may name (decision B19): the hand holds a card of that suit other than its Unter."""
    return [suit for suit in SUITS if any(suit_of(card) == suit and rank_of(card) != "U" for card in hand)]


def holds_sie(hand) -> bool:
    """A Sie needs all four Obers and all four Unters; with six cards (the short pack) the six highest
    trumps: the four Obers, the Eichel and the Gras Unter."""
    sie = [suit + "O" for suit in SUITS] + [suit + "U" for suit in SUITS]
    return sorted(hand) == sorted(sie[: len(hand)])


def may_bid(hand, contract: str) -> bool:
    if contract == "rufer":
        return bool(rufer_calls(hand))  # (pinned) no Rufer without a legal call
    if contract in SOLO_GAMES:
        return bool(solo_suits(hand))
    if contract == "sie":
        return holds_sie(hand)
    if contract in FARBWENZ_GAMES:
        return bool(farbwenz_suits(hand))
    return True


# ---------------------------------------------------------------- Options: the tariff
TARIFFS = {
    "card": {"rufer": (1, 1, 1, 3), "solo": (5, 1, 1, 3), "wenz": (5, 1, 1, 2), "ramsch": (1, "all", "double_all"),
             "geier": (5, 1, 1, 2), "farbwenz": (5, 1, 1, 3), "bettel": (1,)},
    "sauspiel": {"rufer": (20, 10, 10, 3), "solo": (50, 10, 10, 3), "wenz": (50, 10, 10, 2),
                 "ramsch": (10, "all", "double_all"), "geier": (50, 10, 10, 2), "farbwenz": (50, 10, 10, 3),
                 "bettel": (20,)},
}
"""Per family: base, Schneider (Schwarz twice), per Laufender, fewest Laufende counted; the Ramsch's price,
Durchmarsch and Jungfrau rule. ``"card"`` is the rule card's units, ``"sauspiel"`` sauspiel.de's cents."""
TARIFF_KEYS = ("base", "schneider_schwarz", "laufende", "laufende_from")
RAMSCH_KEYS = ("base", "durchmarsch", "jungfrau")
FAMILY = {"rufer": "rufer", "wenz": "wenz", "wenz_tout": "wenz", "solo": "solo", "solo_tout": "solo", "sie": "solo",
          "geier": "geier", "geier_tout": "geier", "farbwenz": "farbwenz", "farbwenz_tout": "farbwenz",
          "bettel": "bettel"}


def tariff_table(tariff) -> dict:
    """The tariff as family -> (base, schneider_schwarz, laufende, laufende_from): a preset's name, or a
    mapping whose missing entries are sauspiel.de's."""
    if isinstance(tariff, str):
        if tariff not in TARIFFS:
            raise ValueError(f"unknown tariff {tariff!r}")
        return dict(TARIFFS[tariff])
    table = dict(TARIFFS["sauspiel"])
    for family, values in tariff.items():
        keys = RAMSCH_KEYS if family == "ramsch" else ("base",) if family == "bettel" else TARIFF_KEYS
        if family not in table or any(key not in keys for key in values):
            raise ValueError(f"unknown tariff entry {family!r}: {values!r}")
        table[family] = tuple(values.get(key, table[family][i]) for i, key in enumerate(keys))
    return table


def ramsch_settlement(points: list[int], tricks_won: list[int], dealt, trumps, price: int, durchmarsch,
                      jungfrau) -> list[int]:
    """A Ramsch's payments (openschafkopf's ``SRulesRamsch``): a Durchmarsch is paid ``price`` by everyone;
    else the most card points pay (a tie: whoever was dealt the highest trump; none: the first seat), each
    other player ``price``, doubled by the Jungfrau rule for players without a trick."""
    most = max(points)
    tied = [seat for seat in range(4) if points[seat] == most]

    def highest(seat: int) -> int:
        held = [trumps.order.index(card) for card in dealt[seat] if trumps.is_trump(card)]
        return min(held) if held else 99

    loser = min(tied, key=lambda seat: (highest(seat), seat))
    if durchmarsch == "all":
        marched = tricks_won[loser] == sum(tricks_won)
    else:
        marched = durchmarsch is not None and most >= durchmarsch
    if marched:
        return [3 * price if seat == loser else -price for seat in range(4)]
    virgins = sum(1 for count in tricks_won if count == 0)
    paid = [0, 0, 0, 0]
    for seat in range(4):
        if seat == loser:
            continue
        virgin = tricks_won[seat] == 0
        paid[seat] = price * {None: 1, "double_all": 2**virgins, "double_individually_once": 2 if virgin else 1,
                              "double_individually_multiple": 2**virgins if virgin else 1}[jungfrau]
    paid[loser] = -sum(paid)
    return paid


# ---------------------------------------------------------------- 4. Trumps and tricks
def trumps_high_to_low(contract: str, trump_suit: str | None) -> list[str]:
    """Wenz: the Unters only; Geier: the Obers only; Farbwenz: the Unters, then the suit A 10 K O 9 8 7;
    Bettel: none. Otherwise all Obers, all Unters (each E > G > H > S), then the trump suit A 10 K 9 8 7."""
    if contract in WENZ_GAMES:
        return [suit + "U" for suit in SUITS]
    if contract in GEIER_GAMES:
        return [suit + "O" for suit in SUITS]
    if contract in FARBWENZ_GAMES:
        return [suit + "U" for suit in SUITS] + [trump_suit + rank for rank in ("A", "10", "K", "O", "9", "8", "7")]
    if contract == "bettel":
        return []
    obers = [suit + "O" for suit in SUITS]
    unters = [suit + "U" for suit in SUITS]
    return obers + unters + [trump_suit + rank for rank in ("A", "10", "K", "9", "8", "7")]


def plain_ranks_high_to_low(contract: str) -> list[str]:
    """Plain suits rank A 10 K 9 8 7; in a Wenz and Farbwenz the Obers return to their suits: A 10 K O 9 8 7,
    in a Geier the Unters: A 10 K U 9 8 7; in a Bettel every card ranks in its suit A K O U 10 9 8 7."""
    if contract in WENZ_GAMES or contract in FARBWENZ_GAMES:
        return ["A", "10", "K", "O", "9", "8", "7"]
    if contract in GEIER_GAMES:
        return ["A", "10", "K", "U", "9", "8", "7"]
    if contract == "bettel":
        return ["A", "K", "O", "U", "10", "9", "8", "7"]
    return ["A", "10", "K", "9", "8", "7"]


@dataclass
class Trumps:
    """The trump order of a fixed contract; answers what suit a card belongs to and who wins."""

    contract: str
    trump_suit: str | None

    def __post_init__(self) -> None:
        self.order = trumps_high_to_low(self.contract, self.trump_suit)

    def is_trump(self, card: str) -> bool:
        return card in self.order

    def effective_suit(self, card: str) -> str:
        """``"trump"`` or the card's printed suit."""
        return "trump" if self.is_trump(card) else suit_of(card)

    def trick_winner(self, cards: list[str]) -> int:
        """Position of the winning card in playing order: the highest trump, else the highest card
        of the suit led."""
        trumps = [card for card in cards if self.is_trump(card)]
        if trumps:
            best = min(trumps, key=self.order.index)
        else:
            led = suit_of(cards[0])
            ranks = plain_ranks_high_to_low(self.contract)
            best = min((card for card in cards if suit_of(card) == led), key=lambda c: ranks.index(rank_of(c)))
        return cards.index(best)


# ---------------------------------------------------------------- 5. Scoring
def laufende(contract: str, trump_suit: str | None, side_cards, minimum: int | None = None, pack=PACK) -> int:
    """Counted Laufende: the consecutive top trumps of the pack held at the start by either side (counted
    from the side's cards: held from the top, or missing from the top), if at least the contract's minimum
    (the rule card's unless ``minimum`` is given: the tariff's)."""
    if contract == "sie":
        return len(pack) // 4  # (pinned) exactly its cards: eight Obers and Unters, or six in the short pack
    if contract == "bettel":
        return 0  # no trumps
    order = [card for card in trumps_high_to_low(contract, trump_suit) if card in pack]
    side_has_top = order[0] in side_cards
    count = 0
    for card in order:
        if (card in side_cards) != side_has_top:
            break
        count += 1
    if minimum is None:
        minimum = 2 if contract in WENZ_GAMES or contract in GEIER_GAMES else 3
    return count if count >= minimum else 0


def score(contract: str, side_points: int, side_tricks: int, counted_laufende: int, tout_lost: bool,
          tariff="card", tricks: int = 8):
    """(declarer side wins, value in units) from the scoring table of ``tariff`` (a preset's name or a
    ``tariff_table``; a hand of ``tricks``)."""
    table = TARIFFS[tariff] if isinstance(tariff, str) else tariff
    if contract == "bettel":  # won without a trick; the base alone (decision B21)
        return side_tricks == 0, table["bettel"][0]
    base, schneider, per_lauf, _ = table[FAMILY[contract]]
    if contract == "sie":
        return True, 4 * (base + per_lauf * counted_laufende)
    if contract in TOUTS:
        return (not tout_lost and side_tricks == tricks), 2 * (base + per_lauf * counted_laufende)
    value = base + per_lauf * counted_laufende
    if side_tricks in (0, tricks):
        value += 2 * schneider  # Schwarz: one side takes every trick
    elif side_points >= 91 or 120 - side_points >= 90:
        value += schneider  # Schneider
    return side_points >= 61, value


# ---------------------------------------------------------------- the game
class BavarianGame:
    """One hand from a deal: bidding, the call or trump, eight tricks, settlement."""

    def __init__(self, dealer: int, hands, tariff="card", pack: str = "long", doubling: bool = False,
                 klopfen: bool = False, ramsch: bool = False, geier: bool = False, farbwenz: bool = False,
                 bettel: bool = False) -> None:
        self.ramsch = ramsch
        chosen = {"geier": geier, "farbwenz": farbwenz, "bettel": bettel}
        self.ladder = [bid for bid in LADDER if bid not in OPTION_OF or chosen[OPTION_OF[bid]]]
        self.doubling = doubling
        self.knocked: list[int] = []  # the seats that knocked
        self.doublers: list[int] = []  # who said each Kontra, Re ... (at most four)
        self.pending_player: int | None = None  # who plays once the doubling is over
        self.answers_in_round = 0
        self.pack = {"long": PACK, "short": SHORT_PACK}[pack]
        self.hand_size = len(self.pack) // 4
        self.tariff = tariff_table(tariff)
        if len(hands) != 4 or any(len(hand) != self.hand_size for hand in hands):
            raise ValueError(f"four hands of {self.hand_size} cards are needed")
        if sorted(card for hand in hands for card in hand) != sorted(self.pack):
            raise ValueError(f"the hands must hold the {len(self.pack)} cards of the pack, each once")
        self.dealer = dealer
        self.forehand = (dealer + 1) % 4
        self.dealt = [list(hand) for hand in hands]
        self.hands = [list(hand) for hand in hands]
        self.phase = "bidding"
        self.to_act = self.forehand
        self.bids: dict[int, str] = {}
        self.contract: str | None = None
        self.declarer: int | None = None
        self.trump_suit: str | None = None
        self.called_suit: str | None = None
        self.partner: int | None = None
        self.trumps: Trumps | None = None
        self.trick: list[tuple[int, str]] = []  # (seat, card) in playing order
        self.completed_tricks: list[dict] = []  # leader, cards, seats, winner
        self.points = [0, 0, 0, 0]
        self.tricks_won = [0, 0, 0, 0]
        self.called_suit_trick_complete = False
        self.tout_lost = False
        self.history: list[tuple[int, str]] = []
        if klopfen:  # each seat, from forehand, sees its first cards and knocks or not
            self.phase = "klopfen"

    # ------------------------------------------------------------ queries
    def is_over(self) -> bool:
        return self.phase == "over"

    def highest_bid(self) -> str | None:
        bids = [bid for bid in self.bids.values() if bid != "pass"]
        return max(bids, key=LADDER.index) if bids else None

    def legal_actions(self) -> list[str]:
        seat = self.to_act
        hand = self.hands[seat] if seat is not None else []
        if self.phase == "klopfen":
            return ["knock", "no_knock"]
        if self.phase == "bidding":
            highest = self.highest_bid()
            higher = self.ladder[self.ladder.index(highest) + 1 :] if highest else self.ladder
            return ["pass"] + [bid for bid in higher if may_bid(hand, bid)]
        if self.phase == "calling":
            return ["call:" + suit for suit in rufer_calls(hand)]
        if self.phase == "choosing_trump":
            suits = farbwenz_suits(hand) if self.contract in FARBWENZ_GAMES else solo_suits(hand)
            return ["trump:" + suit for suit in suits]
        if self.phase == "playing":
            return self.legal_cards(seat)
        if self.phase == "contra_offer":  # not the declarer (never offered), nor the hidden partner
            return ["no_double"] + (["contra"] if seat not in self.declarer_side() else [])
        if self.phase == "doubling_round":  # only the side that was doubled last may double again
            last = self.doublers[-1]
            doubled_side = (seat in self.declarer_side()) != (last in self.declarer_side())
            return ["no_double"] + (["re"] if len(self.doublers) < 4 and doubled_side else [])
        return []

    def called_ace(self) -> str | None:
        return self.called_suit + "A" if self.called_suit else None

    def called_ace_rules_apply(self, seat: int) -> bool:
        """The called-ace restrictions bind the ace's holder until the first trick led in the called
        suit is complete."""
        return (
            self.contract == "rufer" and not self.called_suit_trick_complete and self.called_ace() in self.hands[seat]
        )

    def legal_cards(self, seat: int) -> list[str]:
        hand = self.hands[seat]
        ace = self.called_ace()
        restricted = self.called_ace_rules_apply(seat)
        if not self.trick:
            if not restricted:
                return list(hand)
            called_cards = [card for card in hand if self.trumps.effective_suit(card) == self.called_suit]
            if len(called_cards) >= 4:  # the ace and at least three others: may run away
                return list(hand)
            # leading the called suit means leading the ace
            return [card for card in hand if self.trumps.effective_suit(card) != self.called_suit or card == ace]
        led_suit = self.trumps.effective_suit(self.trick[0][1])
        following = [card for card in hand if self.trumps.effective_suit(card) == led_suit]
        allowed = following if following else list(hand)
        if restricted:
            if led_suit == self.called_suit:
                return [ace]  # even when the trick is already trumped
            if len(hand) > 1:
                allowed = [card for card in allowed if card != ace]  # no discarding the called ace
        return allowed

    # ------------------------------------------------------------ actions
    def play(self, action: str) -> None:
        legal = self.legal_actions()
        if action not in legal:
            raise ValueError(f"illegal action {action!r} for seat {self.to_act}; legal: {legal}")
        seat = self.to_act
        self.history.append((seat, action))
        if self.phase == "klopfen":
            if action == "knock":
                self.knocked.append(seat)
            if seat == self.dealer:
                self.phase = "bidding"
            self.to_act = (seat + 1) % 4
        elif self.phase == "bidding":
            self._bid(seat, action)
        elif self.phase == "calling":
            self.called_suit = action.split(":")[1]
            self.trump_suit = HEARTS
            self.partner = next(s for s in range(4) if self.called_ace() in self.dealt[s])
            self._start_play()
        elif self.phase == "choosing_trump":
            self.trump_suit = action.split(":")[1]
            self._start_play()
        elif self.phase in ("contra_offer", "doubling_round"):
            self._answer_doubling(seat, action)
        else:
            self._play_card(seat, action)

    def _to_play(self, seat: int) -> None:
        """``seat`` plays next; with ``doubling``, at its first card, while nobody has doubled and unless it
        is the declarer, it is first offered Kontra."""
        first_card = not self.completed_tricks
        declared = self.contract != "ramsch"
        if self.doubling and declared and first_card and not self.doublers and seat != self.declarer:
            self.phase = "contra_offer"
            self.pending_player = seat
        else:
            self.phase = "playing"
        self.to_act = seat

    def _answer_doubling(self, seat: int, action: str) -> None:
        if action in ("contra", "re"):
            self.doublers.append(seat)
            if len(self.doublers) == 4:
                self.phase, self.to_act = "playing", self.pending_player
            else:  # everyone else is asked, from the doubler's left
                self.phase, self.answers_in_round, self.to_act = "doubling_round", 0, (seat + 1) % 4
        elif self.phase == "contra_offer":
            self.phase = "playing"  # the same seat now plays its card
        else:
            self.answers_in_round += 1
            if self.answers_in_round == 3:
                self.phase, self.to_act = "playing", self.pending_player
            else:
                self.to_act = (seat + 1) % 4

    def _bid(self, seat: int, bid: str) -> None:
        self.bids[seat] = bid
        if bid == "sie":  # wins at once; nobody may bid higher
            self.contract, self.declarer = "sie", seat
            self._finish()
            return
        if len(self.bids) < 4:
            self.to_act = (seat + 1) % 4
            return
        highest = self.highest_bid()
        if highest is None and self.ramsch:  # four passes: a Ramsch, hearts trump as in a Rufer
            self.contract, self.trump_suit = "ramsch", HEARTS
            self._start_play()
            return
        if highest is None:  # four passes: thrown in
            self._finish()
            return
        self.contract = highest
        # earlier seats have priority, and later seats had to bid strictly higher, so the highest bid
        # is unique
        self.declarer = next(s for s, b in self.bids.items() if b == highest)
        self.to_act = self.declarer
        if highest == "rufer":
            self.phase = "calling"
        elif highest in SOLO_GAMES or highest in FARBWENZ_GAMES:
            self.phase = "choosing_trump"
        else:
            self._start_play()

    def _start_play(self) -> None:
        self.trumps = Trumps(self.contract, self.trump_suit)
        self._to_play(self.forehand)

    def declarer_side(self) -> list[int]:
        if self.contract == "ramsch":
            return []
        if self.contract == "rufer":
            return [self.declarer, self.partner]
        return [self.declarer]

    def _play_card(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < 4:
            self._to_play((seat + 1) % 4)
            return
        cards = [c for _, c in self.trick]
        winner = self.trick[self.trumps.trick_winner(cards)][0]
        self.completed_tricks.append(
            {"leader": self.trick[0][0], "seats": [s for s, _ in self.trick], "cards": cards, "winner": winner}
        )
        self.points[winner] += card_points(cards)
        self.tricks_won[winner] += 1
        if self.contract == "rufer" and self.trumps.effective_suit(cards[0]) == self.called_suit:
            self.called_suit_trick_complete = True
        self.trick = []
        if self.contract in TOUTS and winner != self.declarer:
            self.tout_lost = True  # a Tout ends at once, lost
            self._finish()
        elif len(self.completed_tricks) == self.hand_size:
            self._finish()
        else:
            self.to_act = winner

    def _finish(self) -> None:
        self.phase = "over"
        self.to_act = None

    # ------------------------------------------------------------ results
    def laufende(self) -> int:
        if self.contract in (None, "ramsch", "bettel"):
            return 0
        side_cards = [card for seat in self.declarer_side() for card in self.dealt[seat]]
        minimum = self.tariff[FAMILY[self.contract]][3]
        return laufende(self.contract, self.trump_suit, side_cards, minimum, self.pack)

    def declarer_side_points(self) -> int:
        return sum(self.points[seat] for seat in self.declarer_side())

    def declarer_side_tricks(self) -> int:
        return sum(self.tricks_won[seat] for seat in self.declarer_side())

    def settlement(self) -> list[int]:
        """Units per seat (zero-sum): in a Rufer each winner gains the value and each loser loses it;
        alone, the declarer gains or loses three times the value. Thrown in: all zero."""
        if not self.is_over():
            raise ValueError("the hand is not over")
        if self.contract is None:
            return [0, 0, 0, 0]
        factor = 2 ** (len(self.knocked) + len(self.doublers))  # each knock, Kontra, Re ... doubles
        if self.contract == "ramsch":
            price, durchmarsch, jungfrau = self.tariff["ramsch"]
            paid = ramsch_settlement(self.points, self.tricks_won, self.dealt, self.trumps, price, durchmarsch,
                                     jungfrau)
            return [units * factor for units in paid]
        won, value = score(
            self.contract, self.declarer_side_points(), self.declarer_side_tricks(), self.laufende(), self.tout_lost,
            self.tariff, self.hand_size,
        )
        value *= factor
        side = self.declarer_side()
        result = []
        for seat in range(4):
            if seat in side:
                units = value if len(side) == 2 else 3 * value
            else:
                units = -value
            result.append(units if won else -units)
        return result


def play_hand(dealer: int, hands, actions) -> BavarianGame:
    """Play a whole hand from a deal and a list of action strings (each checked for legality)."""
    game = BavarianGame(dealer, hands)
    for action in actions:
        game.play(action)
    return game
