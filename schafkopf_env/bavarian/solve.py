"""What the exact solver (``trick_core.solver``) needs to know of Bavarian Schafkopf: the card play is
the only searched decision, the sides are the declarer (with the called ace's holder in a Rufer) against
the rest, and the rest of a hand depends on the declarer side's card points and tricks and, in a Rufer,
on whether the called suit has been led (the called-ace rules).

A settlement depends only on the declarer side's points and tricks (``scoring.contract_value``: 31, 61,
91 points, no trick, every trick; a Tout is won with every trick) and rises with ``score`` (9 x points +
tricks, added up trick by trick), so the search maximises the score for the declarer's side, its table
holds what the rest of a hand adds to it, and ``outcome_classes`` lists the six classes' settlements
(``seat_units``: ``scoring.contract_value`` and the sharing of ``scoring.settle``).
"""

from __future__ import annotations

import numpy as np

from schafkopf_env import solving
from schafkopf_env.card_play import SCRATCH_SIZE  # noqa: F401  (the solver's scratch for card ordering)
from schafkopf_env.solving import card_action, extra_action  # noqa: F401  (looked up by ``trick_core.solver``)
from trick_core.bits import lowest_bit
from trick_core.jit import inline_njit, njit

from . import heuristic
from .layout import (
    S_CALLED_DONE,
    S_CALLED_SUIT,
    S_CONTRACT,
    S_DECLARER,
    S_HANDS,
    S_LAUFENDE,
    S_PARTNER,
    S_PHASE,
    S_POINTS,
    S_SEAT_TO_ACT,
    S_TRICK_NUMBER,
    S_TRICK_SIZE,
    S_TRICKS,
    S_TRUMP_KIND,
    TRICK_RECORD,
)
from .play import legal_card_bits
from .rules import legal_action_bits
from .scoring import contract_value, declarer_side_totals
from .tables import ACE_OF_SUIT, NUM_SEATS, NUM_TRICKS, PHASE_PLAYING, RUFER

TOTAL_POINTS = 120

EXACT_TRICKS = NUM_TRICKS
"""A whole hand is solved exactly."""

SCORE_PER_POINT = NUM_TRICKS + 1
"""``score`` counts a card point as more than all tricks together."""
CLASS_TOTALS = solving.settlement_classes(31, NUM_TRICKS)
"""The classes of ``scoring.contract_value`` (schneider from 31 points; a Tout: lost unless every trick)."""


@inline_njit
def searched_cards(state):
    """The cards the seat to act may play (0 outside the card play)."""
    return legal_card_bits(state, state[S_SEAT_TO_ACT]) if state[S_PHASE] == PHASE_PLAYING else np.uint64(0)


@inline_njit
def default_action(state):
    """Never needed once the card play runs (every decision is a card); the lowest legal action."""
    return lowest_bit(legal_action_bits(state))


@inline_njit
def on_declarer_side(state, seat):
    return seat == state[S_DECLARER] or (state[S_CONTRACT] == RUFER and seat == state[S_PARTNER])


@inline_njit
def counted(state, seat, other):
    """The declarer's side maximises the score (``score``), whichever seat is solved for."""
    return on_declarer_side(state, other)


@inline_njit
def final_value(state, seat):
    return score(state)


@inline_njit
def score(state):
    """``SCORE_PER_POINT`` x the declarer side's card points + its tricks: added up trick by trick, and
    the settlement rises with it."""
    points, tricks = declarer_side_totals(state)
    return float(SCORE_PER_POINT * points + tricks)


@inline_njit
def position_key(state):
    """Whether the called suit has been led (the called-ace rules); the score is kept apart (``score``)."""
    return state[S_CALLED_DONE]


@inline_njit
def tricks_left(state):
    return NUM_TRICKS - state[S_TRICK_NUMBER]


@inline_njit
def pinned(state):
    """The called ace in a Rufer while its suit has not been led: never merged, kept apart in keys."""
    if state[S_CONTRACT] != RUFER:
        return np.uint64(0)
    return solving.pinned_card(state[S_CALLED_DONE] == 0, ACE_OF_SUIT[state[S_CALLED_SUIT]])


@inline_njit
def hands_key(state):
    """The hands at a trick boundary, in relative ranks (``schafkopf_env.solving``), ``pinned`` apart."""
    return solving.relative_hands_key(state, S_HANDS, NUM_SEATS, state[S_TRUMP_KIND], pinned(state))


@inline_njit
def distinct(state, cards):
    """``cards`` less those equivalent to another of them (``schafkopf_env.solving``); the called ace is
    never merged while its suit has not been led."""
    trick_at = S_TRICKS + state[S_TRICK_NUMBER] * TRICK_RECORD + 1
    return solving.live_distinct(state, cards, state[S_TRUMP_KIND], trick_at, state[S_TRICK_SIZE], S_HANDS, NUM_SEATS,
                                 pinned(state))


@inline_njit
def card_order(state, card):
    return solving.power_first(state[S_TRUMP_KIND], card)


@inline_njit
def first_card(state, cards, scratch):
    """The card tried first: the playout policy's choice among ``cards``."""
    lone = solving.lone_card(cards)
    return lone if lone >= 0 else heuristic.card(state, cards, scratch, state[S_SEAT_TO_ACT])


@inline_njit
def seat_units(state, seat, points, tricks):
    """The settlement of ``seat`` if the declarer's side ends with ``points`` and ``tricks`` (the rule of
    ``scoring.settle``; a Tout counts as lost unless every trick is taken)."""
    contract = state[S_CONTRACT]
    won, value = contract_value(contract, points, tricks, state[S_LAUFENDE], 0 if tricks == NUM_TRICKS else 1)
    units = float(value) if won else -float(value)
    if not on_declarer_side(state, seat):
        return -units
    return units if contract == RUFER else 3.0 * units


@inline_njit
def value_bounds(state, seat):
    """The lowest and highest final score (``schafkopf_env.solving.score_bounds``): what is still out,
    less the other side's sure top trumps at a trick boundary."""
    side = solving.side_seats(state[S_DECLARER], state[S_PARTNER], state[S_CONTRACT] == RUFER)
    out = solving.points_out(state, S_POINTS, NUM_SEATS, TOTAL_POINTS)
    return solving.score_bounds(state, score(state), out, tricks_left(state), SCORE_PER_POINT, S_HANDS, NUM_SEATS, side,
                                state[S_TRUMP_KIND], state[S_TRICK_SIZE] == 0)


@njit
def outcome_classes(state, seat, values, settlements):
    """The six classes (``CLASS_TOTALS``): their lowest scores, and what ``seat`` is paid in each."""
    for i in range(solving.class_values(CLASS_TOTALS, SCORE_PER_POINT, values)):
        settlements[i] = seat_units(state, seat, CLASS_TOTALS[i, 0], CLASS_TOTALS[i, 1])
    return CLASS_TOTALS.shape[0]
