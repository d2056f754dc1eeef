"""Validation of fixed deals given through ``reset(options=...)``, shared by every game.

Every problem raises ``ValueError`` naming it: a card that is not in the pack, a card given twice, a
hand of the wrong size, a missing or extra player, a dealer out of range, cards left over.
"""

from __future__ import annotations

from .cards import Deck, parse_card_list


class DealBuilder:
    """Collect the parts of a deal, checking each card once across all parts."""

    def __init__(self, deck: Deck, game: str) -> None:
        self.deck = deck
        self.game = game
        self.used_mask = 0
        self._where: dict[int, str] = {}

    def take(self, cards, what: str, count: int | None = None) -> list[int]:
        """Parse ``cards`` (a list of written cards) as part ``what``; return card indices in order."""
        indices = parse_card_list(self.deck, cards, f"{self.game}: {what}")
        if count is not None and len(indices) != count:
            raise ValueError(f"{self.game}: {what} must have {count} cards, got {len(indices)}")
        for card in indices:
            if card in self._where:
                raise ValueError(
                    f"{self.game}: duplicate card {self.deck.name_of(card)} "
                    f"(in {self._where[card]} and in {what})"
                )
            self._where[card] = what
            self.used_mask |= 1 << card
        return indices

    def missing_mask(self) -> int:
        return self.deck.full_mask & ~self.used_mask

    def require_complete(self) -> None:
        missing = self.missing_mask()
        if missing:
            raise ValueError(f"{self.game}: the deal is missing {self.deck.format_mask(missing)}")


def parse_dealer(options: dict, num_seats: int, game: str, default: int) -> int:
    dealer = options.get("dealer", default)
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < num_seats:
        raise ValueError(f"{game}: dealer must be a seat number 0..{num_seats - 1}, got {dealer!r}")
    return dealer


def parse_hands(
    builder: DealBuilder, options: dict, agents: list[str], cards_per_hand: int
) -> dict[str, list[int]]:
    """The ``hands`` option: exactly ``agents`` as keys, each with ``cards_per_hand`` cards."""
    hands = options.get("hands")
    if not isinstance(hands, dict):
        raise ValueError(f"{builder.game}: reset option 'hands' must map each of {agents} to a list of cards")
    missing = [a for a in agents if a not in hands]
    extra = [a for a in hands if a not in agents]
    if missing or extra:
        raise ValueError(f"{builder.game}: 'hands' must name exactly {agents}; missing {missing}, extra {extra}")
    return {a: builder.take(hands[a], f"hand of {a}", cards_per_hand) for a in agents}
