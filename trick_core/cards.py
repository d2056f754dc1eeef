"""The one card layout of the project, and card notation.

**Layout (documented once, used everywhere).** A pack has ``num_suits`` suits of ``num_ranks`` ranks.
Card index ``i = suit * num_ranks + rank``: suit-major, suits and ranks in the order the ``Deck`` lists
them. A hand is an integer bit mask in which bit ``i`` is card ``i`` (``uint64``; the largest pack has
48 cards). Names of bit masks end in ``_mask``; ``action_mask`` is kept for PettingZoo's int8 array.

| deck | suits (index 0..3) | ranks (index 0..) |
|---|---|---|
| ``GERMAN_32`` (Bavarian) | ``E G H S`` | ``A 10 K O U 9 8 7`` |
| ``FRENCH_32`` (Palatinate, Asserufen) | ``C S H D`` | ``A 10 K Q J 9 8 7`` |
| ``KNUFFELN_48`` | ``C S H D`` | ``A K Q J 10 9 8 7 6 4 3 2`` |
| ``KNUFFELN_48_FIVES`` (Bernhard 1924) | ``C S H D`` | ``A K Q J 5 9 8 7 6 4 3 2`` |

The two 32-card packs share one layout on purpose: ``EO`` and ``CQ`` are both card 3, so the Schafkopf
kernels serve both rule sets without converters. Cards are written suit first (``"EO"``, ``"H10"``,
``"C4"``), as the public API fixes (``docs/rules/*.md``, section 1 of each).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Deck:
    """A pack: suit letters, rank names, and the parsing/printing of its cards."""

    name: str
    suits: tuple[str, ...]
    ranks: tuple[str, ...]
    _index: dict[str, int] = field(init=False, repr=False, compare=False)
    _full_mask: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index = {s + r: self.card(si, ri) for si, s in enumerate(self.suits) for ri, r in enumerate(self.ranks)}
        object.__setattr__(self, "_index", index)
        object.__setattr__(self, "_full_mask", (1 << (len(self.suits) * len(self.ranks))) - 1)

    @property
    def num_suits(self) -> int:
        return len(self.suits)

    @property
    def num_ranks(self) -> int:
        return len(self.ranks)

    @property
    def num_cards(self) -> int:
        return self.num_suits * self.num_ranks

    @property
    def full_mask(self) -> int:
        return self._full_mask

    def card(self, suit: int, rank: int) -> int:
        """Card index of (suit index, rank index)."""
        return suit * self.num_ranks + rank

    def suit_of(self, card: int) -> int:
        return card // self.num_ranks

    def rank_of(self, card: int) -> int:
        return card % self.num_ranks

    def suit_mask(self, suit: int) -> int:
        return ((1 << self.num_ranks) - 1) << (suit * self.num_ranks)

    def name_of(self, card: int) -> str:
        """``"EO"`` for the German Ober of acorns; raises ``ValueError`` for an index off the pack."""
        if not 0 <= int(card) < self.num_cards:
            raise ValueError(f"card index {card} is not in the {self.name} pack (0..{self.num_cards - 1})")
        return self.suits[self.suit_of(card)] + self.ranks[self.rank_of(card)]

    def parse(self, text: str) -> int:
        """Card index of a written card; raises ``ValueError`` naming an unknown card."""
        try:
            return self._index[text.strip().upper()]
        except (KeyError, AttributeError):
            raise ValueError(
                f"unknown card {text!r} for the {self.name} pack "
                f"(suits {' '.join(self.suits)}, ranks {' '.join(self.ranks)}, suit first, e.g. "
                f"{self.suits[0] + self.ranks[0]!r})"
            ) from None

    def is_card(self, text: str) -> bool:
        return isinstance(text, str) and text.strip().upper() in self._index

    def mask_of(self, cards: Iterable[str | int]) -> int:
        """Bit mask of a collection of written cards or indices."""
        mask = 0
        for c in cards:
            mask |= 1 << (self.parse(c) if isinstance(c, str) else int(c))
        return mask

    def cards_of(self, mask: int) -> list[int]:
        """Card indices in a mask, in layout order."""
        mask = int(mask) & self._full_mask
        cards = []
        while mask:  # one step per card held, not per card of the pack
            lowest = mask & -mask
            cards.append(lowest.bit_length() - 1)
            mask ^= lowest
        return cards

    def names_of(self, mask: int) -> list[str]:
        return [self.name_of(c) for c in self.cards_of(mask)]

    def format_mask(self, mask: int) -> str:
        return " ".join(self.names_of(mask))


GERMAN_32 = Deck("German 32-card", ("E", "G", "H", "S"), ("A", "10", "K", "O", "U", "9", "8", "7"))
FRENCH_32 = Deck("French 32-card", ("C", "S", "H", "D"), ("A", "10", "K", "Q", "J", "9", "8", "7"))
KNUFFELN_48 = Deck(
    "Knüffeln 48-card", ("C", "S", "H", "D"), ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "4", "3", "2")
)
KNUFFELN_48_FIVES = Deck(
    "Knüffeln 48-card with fives", ("C", "S", "H", "D"), ("A", "K", "Q", "J", "5", "9", "8", "7", "6", "4", "3", "2")
)

CARD_POINTS_32 = (11, 10, 4, 3, 2, 0, 0, 0)
"""Card points by rank index of either 32-card pack (A 10 K O/Q U/J 9 8 7): 120 in the pack."""


def parse_card_list(deck: Deck, cards, what: str) -> list[int]:
    """Parse a list of written cards, raising ``ValueError`` that names ``what`` and the bad entry."""
    if isinstance(cards, str) or not isinstance(cards, (list, tuple)):
        raise ValueError(f"{what} must be a list of cards, got {cards!r}")
    out = []
    for c in cards:
        if not isinstance(c, str):
            raise ValueError(f"{what}: card {c!r} must be written as a string such as {deck.name_of(0)!r}")
        try:
            out.append(deck.parse(c))
        except ValueError as err:
            raise ValueError(f"{what}: {err}") from None
    return out
