"""What one seat of the rule-based Knüffeln player (``agents.rules.knuffeln``) knows: the decoded table plus
what follows from it (``Situation``): where cards may be, the trick so far, the teams, its teammates'
talk, and the judgement built on them (hold probability, expected tricks, the worth of a trick)."""

from __future__ import annotations

import math

from knuffeln_env.knuffeln import kernel as K

from .knuffeln_cards import ALL_CARDS, beaten_by_table, card_values, cards_of, popcount
from .knuffeln_phrases import FEEL_BAD, I_HAVE_AN_OLE, PARTNER_STRONG_LATER, TWO_SURE_TRICKS
from .knuffeln_table import Table

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
