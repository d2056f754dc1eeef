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
- **Kontra and Re** (``doubling=True``): ``double_or_not`` of the common module, a defender doubling with
  trump strength ``contra`` in the declarer's trumps, the declaring side redoubling with ``re``; against a
  Wenz a defender doubles with a hand it could have played a Wenz with (``wenz``).
- **Klopfen** (``klopfen=True``): knock with ``knock_obers`` Obers or more among the first cards seen.
- **Ramsch** (``ramsch=True``, the card play without a contract): the legal card with the fewest card points,
  the lowest trump or plain card among equals, so as to take as few points as it can.
- **Geier, Farbwenz, Bettel** (``geier``, ``farbwenz``, ``bettel``): a Tout of either with a hand that takes every
  trick; a Geier with three Obers, ``EO`` among them, and six Obers and aces together; a Farbwenz with two
  Unters, ``EU`` among them, and six trumps in its best suit (the suit it then names: the most cards); a Bettel
  with no ace, King, Ober or Unter and the 7 of every suit with a 10 or 9 in it. Declaring a Bettel it plays
  the highest card that still loses the trick (leading its lowest); otherwise the common card play.

``seed`` seeds the tie-breaks; the thresholds can be overridden, e.g. ``rules[solo=12]``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from schafkopf_env.bavarian import kernel as K
from schafkopf_env.trumps import (
    NUM_TRUMPS,
    RANK_A,
    RANK_O,
    RANK_U,
    TRICK_POWER,
    TRUMP_BETTEL,
    TRUMP_FARBWENZ,
    TRUMP_GEIER,
    TRUMP_ORDER,
    TRUMP_WENZ,
)
from trick_core.cards import CARD_POINTS_32, GERMAN_32

from .schafkopf_card_play import PlayView, relations
from .schafkopf_cards import SUIT_PLAIN_CARDS, TRUMP_MASK, first_or_none, popcount
from .schafkopf_common import (
    HEARTS,
    AceCallLimits,
    BlockReader,
    DoublingLimits,
    FourSeatTable,
    SchafkopfRulesAgent,
    SoloLimits,
    ace_call_hand,
    decode_four_seat,
    double_or_not,
    four_seat_play_view,
    solo_hand,
    suits_named,
    trump_choice,
)
from .schafkopf_strength import best_call, suit_game_strength, wenz_strength, wins_every_trick

NUM_SEATS = 4
TRUMP_ORDER_OF_RAMSCH = [int(card) for card in TRUMP_ORDER[HEARTS, : NUM_TRUMPS[HEARTS]]]
"""A Ramsch's trumps, highest first (a Rufer's)."""
CONTRACTS = K.CONTRACT_NAMES[1:]  # rufer wenz solo wenz_tout solo_tout sie (the order of the contract block)
TOUTS = ("wenz_tout", "solo_tout", "geier_tout", "farbwenz_tout")
EXTRA_CONTRACTS = K.CONTRACT_NAMES[K.GEIER :]  # geier farbwenz geier_tout farbwenz_tout bettel (extra_contract)


@dataclass
class BavarianThresholds(AceCallLimits, SoloLimits, DoublingLimits):
    """Hand strength needed for each bid: the Rufer's as ``AceCallLimits``, the solo's as ``SoloLimits``
    (``suit_game_strength``), ``wenz`` on ``wenz_strength`` with three Unters or two and the club Unter;
    Kontra and Re as ``DoublingLimits``."""

    wenz: float = 7.0
    solo: float = 11.5
    knock_obers: float = 2


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


def bettel_hand(hand: int) -> bool:
    """No ace, King, Ober or Unter, and the 7 or the 8 of every suit in which it holds a 10 or a 9."""
    if any(hand >> (s * 8 + r) & 1 for s in range(4) for r in (RANK_A, 2, RANK_O, RANK_U)):
        return False
    low = [hand >> (s * 8 + 6) & 1 or hand >> (s * 8 + 7) & 1 for s in range(4)]
    return all(low[s] for s in range(4) if hand >> (s * 8 + 1) & 1 or hand >> (s * 8 + 5) & 1)


class RulesAgent(SchafkopfRulesAgent):
    """A club player's heuristics for Bavarian Schafkopf (module docstring)."""

    game_name = "bavarian"
    deck = GERMAN_32
    thresholds_class = BavarianThresholds
    phase_decisions = {"bidding": "bid", "calling": "call", "choosing_trump": "trump", "doubling": "double",
                       "klopfen": "knock", "ramsch": "ramsch_card", "bettel": "bettel_card"}

    def decode_table(self, env, agent: str) -> FourSeatTable:
        """The decoded observation; with ``doubling`` a Kontra offer or a round of asking is the phase
        ``"doubling"`` (the phase block shows the card play there)."""
        observation = env.observe(agent)["observation"]
        table = decode(observation)
        config = env.unwrapped.config
        if config.get("doubling") and observation[K.OBS_EXTRA : K.OBS_EXTRA + 2].any():
            table = replace(table, phase="doubling")
        klopfen_turn = K.OBS_EXTRA + (K.DOUBLING_OBS_SIZE if config.get("doubling") else 0)
        if config.get("klopfen") and observation[klopfen_turn]:
            table = replace(table, phase="klopfen")
        if any(config.get(name) for name in K.CONTRACT_OPTIONS):  # the options' contract block
            at = klopfen_turn + (K.KLOPFEN_OBS_SIZE if config.get("klopfen") else 0) + 4 * len(EXTRA_CONTRACTS)
            shown = observation[at : at + len(EXTRA_CONTRACTS)].nonzero()[0]
            if len(shown):
                contract = EXTRA_CONTRACTS[int(shown[0])]
                table = replace(table, contract=contract, trump=self._kind_of(contract, table.trump))
        if table.contract == "bettel" and table.declarer == 0 and table.phase == "playing":
            table = replace(table, phase="bettel")
        if table.phase == "playing" and table.contract is None:  # all passed: a Ramsch
            table = replace(table, phase="ramsch")
        return table

    def ramsch_card(self, table: FourSeatTable, names: dict) -> str:
        """The legal card worth the fewest points; among equals the weakest (module docstring)."""
        cards = [GERMAN_32.parse(name) for name in names if GERMAN_32.is_card(name)]
        order = TRUMP_ORDER_OF_RAMSCH

        def weight(card: int) -> tuple:
            return CARD_POINTS_32[card % 8], -order.index(card) if card in order else -99, -(card % 8)

        return GERMAN_32.name_of(min(cards, key=weight))

    def bettel_card(self, table: FourSeatTable, names: dict) -> str:
        """Declaring a Bettel: the highest legal card that still loses the trick, else the lowest; leading,
        the lowest card."""
        cards = [GERMAN_32.parse(name) for name in names if GERMAN_32.is_card(name)]
        power = TRICK_POWER[TRUMP_BETTEL]
        if table.trick:
            led = table.trick[0][1] // 8
            best = max(power[card] for _, card in table.trick if card // 8 == led)
            losing = [card for card in cards if card // 8 != led or power[card] < best]
            if losing:
                return GERMAN_32.name_of(max(losing, key=lambda card: (power[card], -card)))
        return GERMAN_32.name_of(min(cards, key=lambda card: (power[card], card)))

    @staticmethod
    def _geier_farbwenz_or_bettel(hand: int, names: dict) -> str | None:
        """``farbwenz`` with two Unters, ``EU`` among them, and six trumps in the best suit; ``geier`` with three
        Obers, ``EO`` among them, and six Obers and aces; ``bettel`` with a Bettel hand; else ``None``."""
        unters, obers = unters_of(hand), hand & TRUMP_MASK[TRUMP_GEIER]
        if "farbwenz" in names and popcount(unters) >= 2 and unters & 1 << RANK_U and max(
                popcount(hand & TRUMP_MASK[TRUMP_FARBWENZ + s]) for s in range(4)) >= 6:
            return "farbwenz"
        aces = sum(1 for s in range(4) if hand >> (s * 8 + RANK_A) & 1)
        if "geier" in names and popcount(obers) >= 3 and obers & 1 << RANK_O and popcount(obers) + aces >= 6:
            return "geier"
        if "bettel" in names and bettel_hand(hand):
            return "bettel"
        return None

    @staticmethod
    def _kind_of(contract: str, suit: int | None) -> int:
        if contract.startswith("geier"):
            return TRUMP_GEIER
        if contract == "bettel":
            return TRUMP_BETTEL
        return TRUMP_FARBWENZ + (suit or 0)

    def knock(self, table: FourSeatTable, names: dict) -> str:
        """Knock with ``knock_obers`` Obers or more among the first cards (all the hand block shows now)."""
        obers = sum(1 for suit in range(4) if table.hand >> (suit * 8 + RANK_O) & 1)
        return "knock" if obers >= self.thresholds.knock_obers else "no_knock"

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
        if "farbwenz_tout" in names and any(wins_every_trick(hand, TRUMP_FARBWENZ + s, leads_first) for s in range(4)):
            return "farbwenz_tout"
        if "geier_tout" in names and wins_every_trick(hand, TRUMP_GEIER, leads_first):
            return "geier_tout"
        special = self._geier_farbwenz_or_bettel(hand, names)  # before Solo and Wenz: the hand fits it better
        if special is not None:
            return special
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
        if table.contract in ("farbwenz", "farbwenz_tout"):  # the suit with the most trumps, then the most points
            suits = [s for s in range(4) if f"trump:{GERMAN_32.suits[s]}" in names]
            best = max(suits, key=lambda s: (popcount(table.hand & TRUMP_MASK[TRUMP_FARBWENZ + s]),
                                             sum(CARD_POINTS_32[c % 8] for c in range(s * 8, s * 8 + 8)
                                                 if table.hand >> c & 1)))
            return f"trump:{GERMAN_32.suits[best]}"
        return trump_choice(names, GERMAN_32, table.hand, table.contract == "solo_tout", leads_first, self.rng)

    def double(self, table: FourSeatTable, names: dict) -> str:
        """Kontra, Re or ``no_double`` (module docstring)."""
        _, declaring = relations(table.declarer, table.partner, table.contract == "rufer")
        if table.trump == TRUMP_WENZ:
            word = "contra" if "contra" in names else "re"
            strong = wenz_strength(table.hand) >= self.thresholds.wenz
            return word if word in names and strong else "no_double"
        return double_or_not(names, table.hand, table.trump, declaring, False, self.thresholds)

    def play_view(self, table: FourSeatTable) -> PlayView:
        """The card-play view: who is on which side, what is still out, the trick so far."""
        called_card = -1 if table.called_card is None else table.called_card
        return four_seat_play_view(table, table.trump, table.contract == "rufer", table.contract in TOUTS, called_card)

    # ------------------------------------------------------------------ helpers

    @staticmethod
    def _tout_suits(hand: int, leads_first: bool) -> list[int]:
        return [s for s in range(4) if plain_cards_of(hand, s) and wins_every_trick(hand, s, leads_first)]


__all__ = ["BavarianThresholds", "RulesAgent", "decode"]
