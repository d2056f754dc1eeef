"""Rule-based Knüffeln player (``agents.make("rules", "knuffeln")``).

It sees the table only through its own observation (decoded with the section list that
``knuffeln_env.knuffeln.kernel.observation_layout`` publishes), the action mask and the public configuration, and
plays like a sensible player of ``docs/rules/knuffeln.md``.

**Card play.** Every card has a *weight*, the share of a later trick it is still worth (Oles 0.8-1,
chosen beaters A J 6 2 3 4 0.75-0.25, a chosen 7 0.9 as a sure trick when led, chosen 9/8 0.3, an
unchosen ace 0.25, K 0.1, Q 0.05, the rest 0), and a card's *hold probability* is the chance that,
as provisional winner, it survives the opponents still to play: each card that could beat it and whose
place the seat does not know lies in those opponents' hands with probability (their unknown cards) /
(all unknown cards, the hidden stock included). The agent plays the card with the best score

    trick value x P(my team wins the trick with this card) - weight of the card

so it wins a trick with the lowest card that beats the provisional winner and holds, throws a worthless
card when the trick is lost or a teammate already wins it safely (it does not overtake a partner's card
unless that card is likely to be beaten and its own holds), and spends more when the trick is worth
more: 2 tricks while a Jann is possible for either side, 3 when the trick decides the hand or a Jann, 5
during a march. A teammate still to play is credited with a chance to take the trick (more when it said it
keeps an Ole, less when it said it feels bad, 0.85 when it is known to hold a card that beats).

**Leads.** A chosen 7 first (unbeatable when led, and the lead comes back); otherwise the same score,
plus half the weight of the cheapest beater the lead draws from the opponents -- which makes chosen
9/8, unchosen aces and K/Q the usual leads and keeps the beaters for the opponents' leads.

**Decisions.** The ten exchange whenever the turned card is worth more than the ten (the best turned
card of the suit); the bottom Ole always. Jann: it marches only when its own sure winners cover every
remaining trick, else it stops. Drehen: it leads face down when its team's chance of winning the hand
(a logistic in the expected tricks: tricks won plus the rest shared by card weight) reaches
``turn_threshold``, never while a Jann is still possible for its team and never during a march. It
accepts a turn when (2p - 1)(stake + 1) > -stake with p lowered by ``accept_threshold`` (the turn is a
sign of strength), else it flees. Five players: the dealer plays alone when the stock's chance of four
tricks reaches ``alone_threshold``.

**Talk** (``talk="lexicon"``). Once per card turn it says the first of these that is true:

| utterance | said when |
|---|---|
| say:22 "We'll play" | before leading to trick 6 after a Jann, when it marches |
| say:12 "Certainly" | a teammate plays later in this trick and the card it is about to play wins it for certain |
| say:14 "I can't, you must play a beater" | a teammate plays later, an opponent wins, no card of its hand beats |
| show:C | its strongest Ole / chosen beater / chosen 7 kept after this card and not shown yet |
| say:17 "I'll certainly make two tricks" | it keeps at least two sure winners after this card |
| say:6 "You play first, I have an Ole" | it keeps an Ole after this card |
| say:9 "I feel bad" | it keeps no Ole, no chosen beater and no chosen 7 |
| say:1 "Are you old?" | its first turn, when it has no Ole and nothing above applies |
| silent | otherwise |

It listens (``listen=True``) to its teammates only: "Certainly", "Let it come" or "Let it run" in this
trick means do not spend a card on it; "I can't, you must play a beater" or "Can you?" means beat if
possible; the last words of a teammate still to play (6 or 17: strong; 9: weak) set its chance to take
the trick; a card it showed is known to be in its hand (no longer a threat, and a sure beater for it).
``show=False`` keeps to phrases; ``speak=False`` stays silent.

**Talk** (``talk="tokens:N"``): with ``token_code=True`` (default) the same honest protocol through a
fixed code (``TOKEN_CODE``: 1 "Certainly", 2 "I can't, you must play a beater", 3 "I keep an Ole",
4 "I feel bad", 5 "two sure tricks", 6 "we march"; a token above N is left unsaid; cards cannot be
shown); with ``token_code=False`` it stays silent and ignores tokens.

It takes no random decisions: ``seed`` (and ``reset(seed)``) is accepted for the agent protocol, and one
observation always gives one action. About 0.2 ms per decision in pure Python.

**Modules.** This one holds the decisions (``RulesAgent``); ``knuffeln_table`` decodes the observation,
``knuffeln_situation`` derives what the seat knows and judges from it, ``knuffeln_cards`` holds the card
tables and ``knuffeln_phrases`` the talk vocabulary (``TOKEN_CODE``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from knuffeln_env.knuffeln import kernel as K

from ..base import Agent
from .knuffeln_cards import OLE_MASK, cards_of, popcount
from .knuffeln_phrases import (
    ARE_YOU_OLD,
    CANT_YOU_BEAT,
    CERTAINLY,
    FEEL_BAD,
    I_HAVE_AN_OLE,
    PARTNER_ASKS_TO_BEAT,
    PARTNER_WINS,
    TOKEN_CODE,
    TWO_SURE_TRICKS,
    WE_MARCH,
)
from .knuffeln_situation import DRAW_SHARE, FOLLOW_TEAMMATE_CHANCE, LEAD_TEAMMATE_CHANCE, Situation
from .knuffeln_table import decode

SHOW_MIN_COST = 9.0
"""Cards worth showing to the partner: Oles, chosen beaters and chosen 7s (the "power" cards)."""


@dataclass
class Plan:
    """A card decision: the card, or ``stop`` (take the Jann)."""

    card: int = -1
    stop: bool = False


class RulesAgent(Agent):
    """Heuristic Knüffeln player; see the module docstring. Keyword arguments (e.g. ``rules[listen=false]``):
    ``listen`` (use the teammates' talk), ``speak`` (talk at all), ``token_code`` (the fixed code in
    ``tokens:N`` mode), ``turn_threshold``, ``accept_threshold``, ``alone_threshold``."""

    name = "rules"

    def __init__(
        self,
        game: str = "knuffeln",
        seed: int | None = None,
        listen: bool = True,
        speak: bool = True,
        show: bool = True,
        token_code: bool = True,
        turn_threshold: float = 0.6,
        accept_threshold: float = 0.05,
        alone_threshold: float = 0.75,
    ) -> None:
        super().__init__(game, seed)
        if self.game != "knuffeln":
            raise ValueError(f"the Knüffeln rule-based agent plays knuffeln, not {game!r}")
        for label, value in (("turn_threshold", turn_threshold), ("accept_threshold", accept_threshold),
                             ("alone_threshold", alone_threshold)):
            if not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
                raise ValueError(f"{label} must be a number in [0, 1], got {value!r}")
        self.listen = bool(listen)
        self.speak = bool(speak)
        self.show = bool(show)
        self.token_code = bool(token_code)
        self.turn_threshold = float(turn_threshold)
        self.accept_threshold = float(accept_threshold)
        self.alone_threshold = float(alone_threshold)

    # ---- the agent protocol

    def act(self, env, agent: str) -> int:
        seen = env.observe(agent)
        mask = seen["action_mask"]
        config = env.unwrapped.config
        table = decode(seen["observation"], config, self.token_code)
        situation = Situation(table, listen=self.listen)
        action = self.decide(situation, mask, config["talk"])
        if not (0 <= action < len(mask) and mask[action]):
            raise RuntimeError(f"knuffeln rules agent chose illegal action {action} in phase {table.phase}")
        self.decisions += 1
        return int(action)

    def decide(self, s: Situation, mask, talk: str) -> int:
        phase = s.t.phase
        if phase == K.PHASE_TALK:
            return self.utterance(s, mask, talk)
        if phase == K.PHASE_PLAY:
            plan = self.plan_card(s)
            if plan.stop:
                return K.ACTION_STOP
            return (K.ACTION_TURN if self.turns(s, mask, plan.card) else K.ACTION_PLAY) + plan.card
        if phase == K.PHASE_ANSWER:
            return K.ACTION_ACCEPT if self.accepts(s) else K.ACTION_FLEE
        if phase == K.PHASE_TEN_EXCHANGE:
            return self.ten_exchange(s, mask)
        if phase == K.PHASE_OLE_EXCHANGE:
            return K.ACTION_TAKE_OLE if mask[K.ACTION_TAKE_OLE] else K.ACTION_DECLINE
        if phase == K.PHASE_DEALER_CHOICE:
            return K.ACTION_PLAY_ALONE if self.plays_alone(s) else K.ACTION_SIT_OUT
        raise RuntimeError(f"knuffeln rules agent asked to act in phase {phase}")

    # ---- exchanges and the dealer's choice

    def ten_exchange(self, s: Situation, mask) -> int:
        """Take the best turned card offered if it is worth more than the ten given for it."""
        offers = [c for c in range(K.NUM_CARDS) if mask[K.ACTION_EXCHANGE + c]]
        if offers:
            best = max(offers, key=lambda c: (s.cost[c], -c))
            ten = (best // K.NUM_RANKS) * K.NUM_RANKS + K.RANK_EXCHANGE
            if s.cost[best] > s.cost[ten]:
                return K.ACTION_EXCHANGE + best
        return K.ACTION_DECLINE

    def plays_alone(self, s: Situation) -> bool:
        """Five players: expected tricks of the stock as a hand against the four others' 36 cards."""
        t = s.t
        stock = t.known_stock
        tricks = min(K.MAX_TRICKS, popcount(stock))
        mine = sum(s.weight[c] for c in cards_of(stock))
        others = sum(s.weight[c] for c in cards_of(s.unknown))
        expected = tricks * mine / (mine + others) if mine + others else 0.0
        sure = sum(1 for c in cards_of(stock) if not s.beaten_by[c] & s.unknown)  # nobody else can beat it
        expected = max(expected, sure)
        probability = 1.0 / (1.0 + math.exp(-2.0 * (expected - 3.5)))
        return probability >= self.alone_threshold

    # ---- turning

    def accepts(self, s: Situation) -> bool:
        """Accept when (2p - 1)(stake + 1) beats paying the stake now, p shaded for the turner's signal."""
        stake = max(1, s.t.stake)
        p = s.win_probability() - self.accept_threshold
        return (2 * p - 1) * (stake + 1) > -stake

    def turns(self, s: Situation, mask, card: int) -> bool:
        t = s.t
        if not mask[K.ACTION_TURN + card] or t.march_mine or t.jann_mine:
            return False
        if t.tricks_theirs == 0:
            return False  # a Jann is still possible: turning lets them flee cheaply
        return s.win_probability() >= self.turn_threshold

    # ---- card play

    def plan_card(self, s: Situation) -> Plan:
        """The card to play (or stop for the Jann); the same at the talk turn and at the card turn, so
        that what is said about it is true. Whether to lead it face down is decided at the card turn."""
        t = s.t
        if t.jann_mine and not self.marches(s):
            return Plan(stop=True)
        if not t.trick and t.turner is None:
            return Plan(card=self.lead(s))
        return Plan(card=self.follow(s))

    def marches(self, s: Situation) -> bool:
        t = s.t
        total = K.MAX_TRICKS
        if s.dealer_alone:
            total = min(K.MAX_TRICKS, K.STOCK_SIZE - popcount(t.turned))
        return popcount(s.sure_leads(t.hand)) >= total - t.tricks_played

    def lead(self, s: Situation) -> int:
        """A chosen 7 first (a sure trick that keeps the lead); otherwise the card with the best score:
        trick value x chance that my team wins the trick, minus the card's own future worth, plus a share
        of the worth of the beater it is likely to draw from the opponents."""
        t = s.t
        sevens = [c for c in cards_of(t.hand) if t.chosen >> (c // K.NUM_RANKS) & 1 and c % K.NUM_RANKS == K.RANK_7]
        if sevens:
            return min(sevens)
        value = s.trick_value()
        def score(card: int) -> float:
            hold = s.hold_probability(card, s.opponents)
            chance = hold + (1.0 - hold) * s.teammate_chance(s.teammates, LEAD_TEAMMATE_CHANCE, card)
            return value * chance - s.weight[card] + DRAW_SHARE * (1.0 - hold) * s.cheapest_threat(card)

        return s.best(t.hand, score)

    def follow(self, s: Situation) -> int:
        """The card with the best score (as for a lead): the cheapest card that beats the provisional winner
        and holds, or a throw-away when the trick is lost or a teammate wins it safely."""
        t = s.t
        winner_seat, winner_card = s.provisional_winner()
        later = s.still_to_play()
        later_opponents = [r for r in later if r in s.opponents]
        later_teammates = [r for r in later if r in s.teammates]
        teammate = s.teammate_chance(later_teammates, FOLLOW_TEAMMATE_CHANCE)
        value = s.trick_value()
        beaters = t.hand & s.beaten_by[winner_card]
        if winner_seat in s.teammates:
            sure = s.trick_talk.get(winner_seat) in PARTNER_WINS
            standing = 1.0 if sure else s.hold_probability(winner_card, later_opponents)
            standing += (1.0 - standing) * teammate
        else:
            standing = s.teammate_chance(later_teammates, FOLLOW_TEAMMATE_CHANCE, winner_card)
        asked = beaters and any(words in PARTNER_ASKS_TO_BEAT for words in s.trick_talk.values())

        def score(card: int) -> float:
            if beaters >> card & 1:
                hold = s.hold_probability(card, later_opponents)
                chance = hold + (1.0 - hold) * teammate
            else:
                chance = standing
            return value * chance - s.weight[card]

        return s.best(beaters if asked else t.hand, score)

    # ---- talk

    def utterance(self, s: Situation, mask, talk: str) -> int:
        """The talk action: the protocol's phrase (module docstring) in the lexicon, or its token."""
        if not self.speak:
            return K.ACTION_SILENT
        phrase, shown = self.speech(s, show=talk == "lexicon" and self.show)
        if shown is not None:
            return K.ACTION_SHOW + shown
        if phrase and talk == "lexicon":
            return K.ACTION_SAY + phrase - 1
        if phrase and talk.startswith("tokens:") and self.token_code:
            action = K.ACTION_TOKEN + TOKEN_CODE.get(phrase, len(mask)) - 1
            if action < len(mask) and mask[action]:
                return action
        return K.ACTION_SILENT

    def speech(self, s: Situation, show: bool) -> tuple[int, int | None]:
        """(phrase, card to show): the first true statement of the protocol; (0, None) is silence."""
        t = s.t
        plan = self.plan_card(s)
        if plan.stop:
            return 0, None
        if t.jann_mine:
            return WE_MARCH, None
        later_teammates = [r for r in s.still_to_play() if r in s.teammates]
        if later_teammates:
            if self.wins_for_certain(s, plan.card):
                return CERTAINLY, None
            current = s.provisional_winner()
            if current is not None and current[0] in s.opponents and not t.hand & s.beaten_by[current[1]]:
                return CANT_YOU_BEAT, None
        keeps = t.hand & ~(1 << plan.card)
        unshown = [c for c in cards_of(keeps & ~s.my_shown) if s.cost[c] >= SHOW_MIN_COST]
        if show and unshown:
            return 0, max(unshown, key=lambda c: (s.cost[c], c))
        if popcount(s.sure_leads(keeps)) >= 2:
            return TWO_SURE_TRICKS, None
        if keeps & OLE_MASK:
            return I_HAVE_AN_OLE, None
        if not any(s.cost[c] >= SHOW_MIN_COST for c in cards_of(keeps)):
            return FEEL_BAD, None
        if not any(speaker == 0 for speaker, _, _ in t.talk) and not t.hand & OLE_MASK:
            return ARE_YOU_OLD, None
        return 0, None

    def wins_for_certain(self, s: Situation, card: int) -> bool:
        """Does ``card``, played now, win this trick whatever the opponents still to play hold?"""
        current = s.provisional_winner()
        if current is not None and not s.beaten_by[current[1]] >> card & 1:
            return False
        later_opponents = [r for r in s.still_to_play() if r in s.opponents]
        return s.hold_probability(card, later_opponents) >= 1.0

