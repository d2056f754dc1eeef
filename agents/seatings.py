"""The seatings of a duplicate match: which of the two agents plays which seat, deal after deal.

A seating gives each seat to agent A (slot 0) or B (slot 1), or marks it ``PASSIVE``. The arena plays
every deal once per seating of the game's scheme.

**The seatings (why they are fair).** A seating gives each seat to agent A or B. Every scheme below is
closed under swapping A and B and gives each agent each seat equally often, so two copies of one
deterministic agent score exactly zero, and every seat's cards (and the dealer's position) favour
neither agent.

- **Knüffeln, 4 players**: ``ABAB`` and ``BABA``. Partnerships are fixed (seats 0+2 against 1+3), so
  each agent plays as a whole team, once with each half of the deal. (Mixed teams, ``AABB``, would cancel
  to exactly zero by construction and measure nothing.)
- **Knüffeln, 5 players**: the dealer's seat goes to A or B, and the four others are ``ABAB`` or ``BABA``
  counted from the dealer's left: 4 seatings. The dealer may play alone; otherwise the four play partners
  opposite, so each agent again forms whole teams, and each agent deals (and decides to play alone)
  equally often.
- **Bavarian, Asserufen**: all six ways to give two seats to A and two to B. Partners are hidden and
  change every hand (the called ace). Each agent sits each seat 3 times, and any two seats are held by the
  same agent in 2 of the 6 seatings and by different agents in 4, so every partnership a deal can produce
  is measured alike. ``ABAB``/``BABA`` alone would always make opposite seats partners of one agent and
  neighbours partners of different agents, tying the comparison to seat geometry.
- **Palatinate, 3 players**: all six non-constant seatings (``AAB`` and ``ABB`` in every rotation): at
  every seat each agent is alone and in a pair equally often, as declarer or as a defender.
- **Palatinate, ``players=4``**: as with 3 players, over the three active seats. The dealer sits out and
  never acts, so no agent plays that seat; it still scores with the defenders, and those units, which no
  agent earned, are removed by centring (below).
"""

from __future__ import annotations

from trick_core.game_spec import imported
from trick_core.registry import game_spec

PASSIVE = None
"""Seat marker of a seating: the seat takes no decision (Palatinate ``players=4`` dealer)."""
PARTNERSHIP = "partnership"
"""The scheme of fixed partnerships: each seating gives one agent a whole team (self-play's ``SeatMixer``
lets the learner hold one team by it)."""


# ---------------------------------------------------------------------------------------------- seatings


def seatings_for(game: str, num_seats: int, dealer: int) -> tuple[str, list[tuple]]:
    """The scheme name and the seatings of one deal: tuples giving each seat slot 0 (first agent), slot 1
    (second) or ``PASSIVE`` (see the module docstring). A game whose spec names a ``seating`` function
    gets that function's scheme where it returns one, every other game the balanced scheme."""
    seating = game_spec(game).seating
    own = imported(seating)(num_seats, dealer) if seating else None
    return own if own is not None else ("balanced", balanced_seatings(list(range(num_seats)), num_seats))


def knuffeln_seatings(num_seats: int, dealer: int) -> tuple[str, list[tuple]] | None:
    """Knüffeln's fixed partnerships (module docstring), the ``seating`` of its spec."""
    if num_seats == 4:
        return PARTNERSHIP, [(0, 1, 0, 1), (1, 0, 1, 0)]
    if num_seats == 5:
        return "dealer-and-partnerships", _knuffeln_five_seatings(dealer)
    return None


def palatinate_seatings(num_seats: int, dealer: int) -> tuple[str, list[tuple]] | None:
    """Palatinate with four players: the dealer sits out (module docstring), the ``seating`` of its spec;
    ``None`` (balanced over every seat) with three."""
    if num_seats == 4:
        active = [seat for seat in range(num_seats) if seat != dealer]
        return "balanced-active-seats", balanced_seatings(active, num_seats)
    return None


def balanced_seatings(active_seats: list[int], num_seats: int) -> list[tuple]:
    """Every two-agent seating of ``active_seats`` in which both agents hold the same number of seats
    (an even count), or every non-constant one (an odd count): each agent holds each seat equally often."""
    count = len(active_seats)
    seatings = []
    for bits in range(1, 2**count - 1):
        first_agent_seats = bin(bits).count("1")
        if count % 2 == 0 and first_agent_seats != count // 2:
            continue
        seating = [PASSIVE] * num_seats
        for position, seat in enumerate(active_seats):
            seating[seat] = 0 if bits >> position & 1 else 1
        seatings.append(tuple(seating))
    return seatings


def _knuffeln_five_seatings(dealer: int) -> list[tuple]:
    seatings = []
    for dealer_slot in (0, 1):
        for first_slot in (0, 1):
            seating = [PASSIVE] * 5
            seating[dealer] = dealer_slot
            for offset in range(1, 5):
                seating[(dealer + offset) % 5] = first_slot if offset % 2 else 1 - first_slot
            seatings.append(tuple(seating))
    return seatings
