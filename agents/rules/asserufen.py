"""Rule-based player of Asserufen, Palatinate Schafkopf for four (``agents.make("rules", "asserufen")``).

It reads only its own observation (``schafkopf_env.asserufen_v0``; the segments of
``schafkopf_env.asserufen.kernel.observation_layout``) and the action mask:

- **Bidding** (one pass in seat order): a Du only with a hand that takes every trick whatever the others
  hold; a Heart Solo / Solo with at least five trumps and strength ``solo``, hearts preferred (worth a
  point more); *ich hänge an* with an ace-call hand (strength ``ace_call`` in hearts, four trumps, or three
  with ``ace_call_three_trumps``); *darf man?* over it with good trumps (``darf_man``) — the source's
  second bidder; otherwise *weg*.
- **Answering darf man?**: the first bidder accepts when holding a non-heart ace (it hopes to be called,
  as the source says) unless its own trumps are strong (``refuse_darf_man``); without an ace it refuses
  and declares itself.
- **Calling**: the ace (ten, King) of the legal suit in which it holds the fewest cards.
- **Trump** (Solo, Solo Du): the strongest suit among clubs, spades and diamonds.
- **Contra / re**: contra with a strong defence (``contra`` in the declarer's trump suit, or a sure trump
  trick against a Du); re on the declarer's side only with a very strong hand (``re``).
- **Play**: ``choose_card`` of ``agents.rules.schafkopf_card_play`` (defenders lead the called suit to find
  the partner, the partner schmiert to the declarer's safe tricks, ...).

``seed`` seeds the tie-breaks; thresholds can be overridden, e.g. ``rules[solo=12]``.
"""

from __future__ import annotations

from dataclasses import dataclass

from schafkopf_env.asserufen import kernel as K
from schafkopf_env.trumps import RANK_A
from trick_core.cards import FRENCH_32

from .schafkopf_card_play import PlayView, relations
from .schafkopf_cards import SUIT_PLAIN_CARDS, first_or_none
from .schafkopf_common import (
    HEARTS,
    NON_HEART_SUITS,
    AceCallLimits,
    BlockReader,
    DoublingLimits,
    FourSeatTable,
    SchafkopfRulesAgent,
    SoloLimits,
    ace_call_hand,
    decode_four_seat,
    double_or_not,
    du_bid,
    four_seat_play_view,
    solo_hand,
    trump_choice,
)
from .schafkopf_strength import best_call, suit_game_strength

NUM_SEATS = 4
SOLO_SUITS = NON_HEART_SUITS
DU_CONTRACTS = ("solo_du", "heart_solo_du")
CONTRACTS = K.CONTRACT_NAMES[1:]  # ace_call solo heart_solo solo_du heart_solo_du (the observation order)
NON_HEART_ACES = sum(1 << (s * 8 + RANK_A) for s in SOLO_SUITS)

_READER = BlockReader.of_layout(
    K.observation_layout(K.make_params(), K.OBS_TYPE_OBSERVATION),
    ("hand", "dealer", "phase", "contract", "declarer", "trump", "called_card", "partner", "called_rules", "leader",
     "trick", "played"),
)


@dataclass
class AsserufenThresholds(AceCallLimits, SoloLimits, DoublingLimits):
    """Hand strength (``suit_game_strength`` on eight cards, hearts trump where no suit is named) needed
    for each decision: haenge an, solo, contra and re as the shared limits say; ``darf_man`` to bid darf
    man?, ``refuse_darf_man`` to refuse one and declare instead."""

    darf_man: float = 7.5
    refuse_darf_man: float = 9.5
    contra: float = 9.5
    re: float = 12.0


def decode(observation) -> FourSeatTable:
    """Read an Asserufen observation vector (any observation type: the first segments are the same)."""
    blocks = _READER.read(observation)
    called_done = 0 in blocks["called_rules"]
    return decode_four_seat(blocks, K.PHASE_NAMES, CONTRACTS, first_or_none(blocks["called_card"]), called_done)


class RulesAgent(SchafkopfRulesAgent):
    """A club player's heuristics for Asserufen (module docstring)."""

    game_name = "asserufen"
    deck = FRENCH_32
    thresholds_class = AsserufenThresholds
    phase_decisions = {
        "bidding": "bid",
        "answer": "answer",
        "call": "call",
        "trump": "trump",
        "contra_offer": "double",
        "doubling_round": "double",
    }

    def decode_table(self, env, agent: str) -> FourSeatTable:
        return decode(env.observe(agent)["observation"])

    # ------------------------------------------------------------------ bidding

    def bid(self, table: FourSeatTable, names: dict) -> str:
        hand, limits = table.hand, self.thresholds
        du = du_bid(names, hand, table.dealer == NUM_SEATS - 1)
        if du is not None:
            return du
        for bid, suits in (("heart_solo", (HEARTS,)), ("solo", SOLO_SUITS)):
            if bid in names:
                suit = max(suits, key=lambda s: suit_game_strength(hand, s))
                if solo_hand(hand, suit, suit_game_strength(hand, suit), limits):
                    return bid
        strength = suit_game_strength(hand, HEARTS)
        if "darf_man" in names and strength >= limits.darf_man:
            return "darf_man"
        if "haenge_an" in names and ace_call_hand(hand, limits):
            return "haenge_an"
        return "weg"

    def answer(self, table: FourSeatTable, names: dict) -> str:
        """Accept darf man? with an ace to be called by (unless strong enough to declare), else refuse."""
        has_ace = bool(table.hand & NON_HEART_ACES)
        strong = suit_game_strength(table.hand, HEARTS) >= self.thresholds.refuse_darf_man
        return "accept" if has_ace and not strong else "refuse"

    def call(self, table: FourSeatTable, names: dict) -> str:
        by_suit = {}
        for name in names:
            if name.startswith("call:"):
                by_suit[FRENCH_32.suits.index(name[5])] = name
        hand_plain = {s: table.hand & SUIT_PLAIN_CARDS[s] for s in by_suit}
        with_cards = [s for s in by_suit if hand_plain[s]] or list(by_suit)
        return by_suit[best_call(table.hand, with_cards, self.rng, HEARTS)]

    def trump(self, table: FourSeatTable, names: dict) -> str:
        must_win_all = table.contract in DU_CONTRACTS
        return trump_choice(names, FRENCH_32, table.hand, must_win_all, table.dealer == NUM_SEATS - 1, self.rng)

    def double(self, table: FourSeatTable, names: dict) -> str:
        _, declaring = self._relations(table)
        against_du = table.contract in DU_CONTRACTS
        return double_or_not(names, table.hand, table.trump, declaring, against_du, self.thresholds)

    # ------------------------------------------------------------------ play

    def play_view(self, table: FourSeatTable) -> PlayView:
        called = -1 if table.called_card is None else table.called_card
        ace_call = table.contract == "ace_call"
        return four_seat_play_view(table, table.trump, ace_call, table.contract in DU_CONTRACTS, called)

    @staticmethod
    def _relations(table) -> tuple[dict, bool]:
        return relations(table.declarer, table.partner, table.contract == "ace_call")


__all__ = ["AsserufenThresholds", "RulesAgent", "decode"]
