"""Rule-based player of Bavarian Schafkopf (``agents.make("rules", "bavarian")``).

It reads only its own observation (``schafkopf_env.bavarian_v0``, offsets ``schafkopf_env.bavarian.layout.OBS_*``) and
the action mask, and plays like a careful club player:

- **Bidding**, from hand strength (``agents.rules.schafkopf_strength``): ``sie`` whenever it is legal (all
  Obers and Unters); a Tout only with a hand that takes every trick whatever the others hold (top trumps
  in sequence to draw all the others' trumps, every plain card a master); a Solo with at least five trumps
  of strength ``solo`` (Obers weigh most); a Wenz with two or more Unters, ``EU`` or three of them, and
  aces with their tens (``wenz``); a Rufer with three or more trumps of strength ``rufer`` (hearts trump).
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
from .schafkopf_cards import SUIT_PLAIN_CARDS, TRUMP_MASK, count, first_or_none, mask_of
from .schafkopf_common import (
    HEARTS,
    BlockReader,
    SchafkopfRulesAgent,
    current_trick,
    four_seat_play_view,
    next_of_four,
    suits_named,
    trump_choice,
)
from .schafkopf_strength import best_call, suit_game_strength, wenz_strength, wins_every_trick

NUM_SEATS = 4
CONTRACTS = K.CONTRACT_NAMES[1:]  # rufer wenz solo wenz_tout solo_tout sie (the OBS_CONTRACT order)
TOUTS = ("wenz_tout", "solo_tout")


@dataclass
class BavarianThresholds:
    """Hand strength needed for each bid (see ``suit_game_strength`` and ``wenz_strength``)."""

    rufer: float = 7.0
    rufer_min_trumps: float = 4
    rufer_three_trumps: float = 8.5
    wenz: float = 7.0
    solo: float = 11.5
    solo_min_trumps: float = 5


@dataclass
class BavarianTable:
    """The seat's observation decoded (positions relative to the seat: 0 itself, 1 left, ...)."""

    hand: int
    phase: str
    dealer: int
    contract: str | None
    declarer: int | None
    kind: int | None
    called_suit: int | None
    partner: int | None
    called_done: bool
    leader: int | None
    trick: list
    played: int


_READER = BlockReader(
    [
        ("hand", K.OBS_HAND, 32),
        ("dealer", K.OBS_DEALER, NUM_SEATS),
        ("phase", K.OBS_PHASE, K.NUM_PHASES),
        ("contract", K.OBS_CONTRACT, len(CONTRACTS)),
        ("declarer", K.OBS_DECLARER, NUM_SEATS),
        ("trump", K.OBS_TRUMP, 5),
        ("called_suit", K.OBS_CALLED_SUIT, 4),
        ("partner", K.OBS_PARTNER, NUM_SEATS),
        ("called_done", K.OBS_CALLED_DONE, 1),
        ("leader", K.OBS_TRICK_LEADER, NUM_SEATS),
        ("trick", K.OBS_TRICK, NUM_SEATS * 32),
        ("played", K.OBS_PLAYED, NUM_SEATS * 32),
    ]
)


def decode(observation) -> BavarianTable:
    """Read a Bavarian observation vector (any observation type: the first block is the same)."""
    blocks = _READER.read(observation)
    leader = first_or_none(blocks["leader"])
    contract = first_or_none(blocks["contract"])
    return BavarianTable(
        hand=mask_of(blocks["hand"]),
        phase=K.PHASE_NAMES[blocks["phase"][0]],
        dealer=first_or_none(blocks["dealer"]),
        contract=None if contract is None else CONTRACTS[contract],
        declarer=first_or_none(blocks["declarer"]),
        kind=first_or_none(blocks["trump"]),
        called_suit=first_or_none(blocks["called_suit"]),
        partner=first_or_none(blocks["partner"]),
        called_done=bool(blocks["called_done"]),
        leader=leader,
        trick=current_trick(blocks["trick"], leader, next_of_four),
        played=mask_of(index % 32 for index in blocks["played"]),
    )


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

    def __init__(self, game: str = "bavarian", seed: int | None = None, **thresholds) -> None:
        super().__init__(game, seed, **thresholds)

    def decode_table(self, env, agent: str) -> BavarianTable:
        return decode(env.observe(agent)["observation"])

    # ------------------------------------------------------------------ decisions

    def bid(self, table: BavarianTable, names: dict) -> str:
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
                if (
                    count(hand & TRUMP_MASK[best]) >= limits.solo_min_trumps
                    and suit_game_strength(hand, best) >= limits.solo
                ):
                    return "solo"
        if "wenz" in names:
            unters = unters_of(hand)
            if (
                count(unters) >= 3 or (count(unters) == 2 and unters & 1 << (0 * 8 + RANK_U))
            ) and wenz_strength(hand) >= limits.wenz:
                return "wenz"
        if "rufer" in names:
            trumps = count(hand & TRUMP_MASK[HEARTS])
            strength = suit_game_strength(hand, HEARTS)
            if (trumps >= limits.rufer_min_trumps and strength >= limits.rufer) or (
                trumps == limits.rufer_min_trumps - 1 and strength >= limits.rufer_three_trumps
            ):
                return "rufer"
        return "pass"

    def call(self, table: BavarianTable, names: dict) -> str:
        suits = suits_named(names, "call:", GERMAN_32)
        return f"call:{GERMAN_32.suits[best_call(table.hand, suits, self.rng, HEARTS)]}"

    def trump(self, table: BavarianTable, names: dict) -> str:
        leads_first = table.dealer == NUM_SEATS - 1
        return trump_choice(names, GERMAN_32, table.hand, table.contract == "solo_tout", leads_first, self.rng)

    def play_view(self, table: BavarianTable) -> PlayView:
        """The card-play view: who is on which side, what is still out, the trick so far."""
        called_card = -1 if table.called_suit is None else table.called_suit * 8 + RANK_A
        return four_seat_play_view(table, table.kind, table.contract == "rufer", table.contract in TOUTS, called_card)

    # ------------------------------------------------------------------ helpers

    @staticmethod
    def _tout_suits(hand: int, leads_first: bool) -> list[int]:
        return [s for s in range(4) if plain_cards_of(hand, s) and wins_every_trick(hand, s, leads_first)]


__all__ = ["BavarianThresholds", "RulesAgent", "decode"]
