"""Rule-based player of Bavarian Schafkopf (``agents.make("rules", "bavarian")``).

It reads only its own observation (``schafkopf_env.bavarian_v0``, its blocks by name from
``schafkopf_env.bavarian.kernel.observation_layout``) and the action mask, and plays like a careful club player:

- **Bidding**, from hand strength (``agents.rules.schafkopf_strength``): ``sie`` whenever it is legal (all
  Obers and Unters); a Tout only with a hand that takes every trick whatever the others hold (top trumps
  in sequence to draw all the others' trumps, every plain card a master); a Solo with at least five trumps
  of strength ``solo`` (Obers weigh most); a Wenz with two or more Unters, ``EU`` or three of them, and
  aces with their tens (``wenz``); a Rufer with three or more trumps of strength ``ace_call`` (hearts trump).
  The highest of these that the ladder still allows is bid.
- **Calling**: the ace of the legal suit in which it holds the fewest cards (then the fewest points).
- **Trump** (Solo): the suit that makes the strongest hand, among the legal ones.
- **Play**: ``choose_card`` of the common module (trump pulling as declarer, the called suit led by
  defenders, schmieren to a safe partner, the cheapest safe winner against opponents, low discards).

``seed`` seeds the tie-breaks; the thresholds can be overridden, e.g. ``rules[solo=12]``.
"""

from __future__ import annotations

from dataclasses import dataclass

from schafkopf_env.bavarian import kernel as K
from schafkopf_env.trumps import RANK_A, RANK_U, TRUMP_WENZ
from trick_core.cards import GERMAN_32

from .schafkopf_card_play import PlayView
from .schafkopf_cards import SUIT_PLAIN_CARDS, TRUMP_MASK, first_or_none, popcount
from .schafkopf_common import (
    HEARTS,
    AceCallLimits,
    BlockReader,
    FourSeatTable,
    SchafkopfRulesAgent,
    SoloLimits,
    ace_call_hand,
    decode_four_seat,
    four_seat_play_view,
    solo_hand,
    suits_named,
    trump_choice,
)
from .schafkopf_strength import best_call, suit_game_strength, wenz_strength, wins_every_trick

NUM_SEATS = 4
CONTRACTS = K.CONTRACT_NAMES[1:]  # rufer wenz solo wenz_tout solo_tout sie (the order of the contract block)
TOUTS = ("wenz_tout", "solo_tout")


@dataclass
class BavarianThresholds(AceCallLimits, SoloLimits):
    """Hand strength needed for each bid: the Rufer's as ``AceCallLimits``, the solo's as ``SoloLimits``
    (``suit_game_strength``), ``wenz`` on ``wenz_strength`` with three Unters or two and the club Unter."""

    wenz: float = 7.0
    solo: float = 11.5


_READER = BlockReader.of_layout(
    K.observation_layout(K.make_params(), K.OBS_TYPE_OBSERVATION),
    ("hand", "dealer", "phase", "contract", "declarer", "trump", "called_suit", "partner", "called_done", "leader",
     "trick", "played"),
)


def decode(observation) -> FourSeatTable:
    """Read a Bavarian observation vector (any observation type: the first block is the same)."""
    blocks = _READER.read(observation)
    suit = first_or_none(blocks["called_suit"])
    called_ace = None if suit is None else suit * 8 + RANK_A
    return decode_four_seat(blocks, K.PHASE_NAMES, CONTRACTS, called_ace, bool(blocks["called_done"]))


def plain_cards_of(hand: int, suit: int) -> int:
    """The non-Ober, non-Unter cards of ``suit`` in ``hand`` (what a call or a Solo suit requires)."""
    return hand & SUIT_PLAIN_CARDS[suit]


def unters_of(hand: int) -> int:
    return hand & TRUMP_MASK[TRUMP_WENZ]


class RulesAgent(SchafkopfRulesAgent):
    """A club player's heuristics for Bavarian Schafkopf (module docstring)."""

    game_name = "bavarian"
    deck = GERMAN_32
    thresholds_class = BavarianThresholds
    phase_decisions = {"bidding": "bid", "calling": "call", "choosing_trump": "trump"}

    def decode_table(self, env, agent: str) -> FourSeatTable:
        return decode(env.observe(agent)["observation"])

    # ------------------------------------------------------------------ decisions

    def bid(self, table: FourSeatTable, names: dict) -> str:
        """The highest contract the hand is good for among the legal bids, else ``pass``."""
        hand, limits = table.hand, self.thresholds
        if "sie" in names:
            return "sie"
        leads_first = table.dealer == NUM_SEATS - 1
        if "solo_tout" in names and self._tout_suits(hand, leads_first):
            return "solo_tout"
        if "wenz_tout" in names and wins_every_trick(hand, TRUMP_WENZ, leads_first):
            return "wenz_tout"
        if "solo" in names:
            suits = [s for s in range(4) if plain_cards_of(hand, s)]
            if suits:
                best = max(suits, key=lambda s: suit_game_strength(hand, s))
                if solo_hand(hand, best, suit_game_strength(hand, best), limits):
                    return "solo"
        if "wenz" in names:
            unters = unters_of(hand)
            if (
                popcount(unters) >= 3 or (popcount(unters) == 2 and unters & 1 << (0 * 8 + RANK_U))
            ) and wenz_strength(hand) >= limits.wenz:
                return "wenz"
        if "rufer" in names and ace_call_hand(hand, limits):
            return "rufer"
        return "pass"

    def call(self, table: FourSeatTable, names: dict) -> str:
        suits = suits_named(names, "call:", GERMAN_32)
        return f"call:{GERMAN_32.suits[best_call(table.hand, suits, self.rng, HEARTS)]}"

    def trump(self, table: FourSeatTable, names: dict) -> str:
        leads_first = table.dealer == NUM_SEATS - 1
        return trump_choice(names, GERMAN_32, table.hand, table.contract == "solo_tout", leads_first, self.rng)

    def play_view(self, table: FourSeatTable) -> PlayView:
        """The card-play view: who is on which side, what is still out, the trick so far."""
        called_card = -1 if table.called_card is None else table.called_card
        return four_seat_play_view(table, table.trump, table.contract == "rufer", table.contract in TOUTS, called_card)

    # ------------------------------------------------------------------ helpers

    @staticmethod
    def _tout_suits(hand: int, leads_first: bool) -> list[int]:
        return [s for s in range(4) if plain_cards_of(hand, s) and wins_every_trick(hand, s, leads_first)]


__all__ = ["BavarianThresholds", "RulesAgent", "decode"]
