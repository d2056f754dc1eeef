"""What the exact solver (``trick_core.solver``) needs to know of Asserufen: the card play is the only
searched decision (the doubling offers of the first trick take ``no_double``), the sides are the declarer
(with the called card's holder in the ace-call game) against the rest, and the rest of a hand depends on
the declarer side's card points and tricks and on whether the called suit has been led (the called-card
rules).

A settlement depends only on the declarer side's points and tricks (``scoring.score``: 61 points, the
loser under 30 or without a trick; a Du is won with every trick, and a lost Du ends at once) and rises
with ``score`` (9 x points + tricks, added up trick by trick): the search maximises the score for the
declarer's side, and ``side_units`` writes a class's settlement from the two numbers.
"""

from __future__ import annotations

import numpy as np

from schafkopf_env import lean_solve, solving
from schafkopf_env.card_play import SCRATCH_SIZE  # noqa: F401  (the solver's scratch for card ordering)
from schafkopf_env.lean_solve import LEAN_SIZE, lean_value  # noqa: F401  (looked up by ``trick_core.solver``)
from schafkopf_env.solving import extra_action, searched_tricks  # noqa: F401  (looked up by ``trick_core.solver``)
from trick_core.bits import lowest_bit
from trick_core.jit import inline_njit, njit

from . import heuristic, scoring
from .layout import (
    S_CALLED_CARD,
    S_CALLED_SUIT_DONE,
    S_CONTRACT,
    S_DECLARER,
    S_HANDS,
    S_PARTNER,
    S_PHASE,
    S_POINTS,
    S_SEAT_TO_ACT,
    S_TRICK_CARDS,
    S_TRICK_LEADERS,
    S_TRICK_NUMBER,
    S_TRICK_SIZE,
    S_TRICKS_WON,
    S_TRUMP_KIND,
)
from .play import legal_card_bits
from .rules import legal_action_bits
from .state import is_du, on_declarer_side
from .tables import (
    ACTION_NO_DOUBLE,
    CARD_ACTION_BASE,
    CONTRACT_ACE_CALL,
    NUM_SEATS,
    NUM_TRICKS,
    PHASE_PLAY,
)

EXACT_TRICKS = NUM_TRICKS
"""A whole hand is solved exactly."""
TOTAL_POINTS = 120
SCORE_PER_POINT = NUM_TRICKS + 1
"""``score`` counts a card point as more than all tricks together."""
CLASS_TOTALS = solving.settlement_classes(30, NUM_TRICKS)
"""The six settlement classes of ``scoring.score`` (the loser schneider under 30; a Du: lost unless every
trick)."""


@inline_njit
def searched_cards(state):
    """The cards the seat to act may play (0 outside the card play, e.g. a doubling offer)."""
    return legal_card_bits(state, state[S_SEAT_TO_ACT]) if state[S_PHASE] == PHASE_PLAY else np.uint64(0)


@inline_njit
def card_action(card):
    return CARD_ACTION_BASE + card


@inline_njit
def default_action(state):
    """A doubling offer or round inside the solve: ``no_double`` (else the lowest legal action)."""
    legal = legal_action_bits(state)
    if (legal >> np.uint64(ACTION_NO_DOUBLE)) & np.uint64(1):
        return ACTION_NO_DOUBLE
    return lowest_bit(legal)


@inline_njit
def counted(state, seat, other):
    """The declarer's side maximises the score (``score``), whichever seat is solved for."""
    return on_declarer_side(state, other)


@inline_njit
def declarer_seats(state):
    """The declarer side's seats as a bitmask (``on_declarer_side``)."""
    return solving.side_seats(state[S_DECLARER], state[S_PARTNER], state[S_CONTRACT] == CONTRACT_ACE_CALL)


@inline_njit
def score(state):
    """``SCORE_PER_POINT`` x the declarer side's card points + its tricks: added up trick by trick, and
    the settlement rises with it."""
    return solving.side_score(state, S_POINTS, S_TRICKS_WON, NUM_SEATS, declarer_seats(state), SCORE_PER_POINT)


@inline_njit
def final_value(state, seat):
    return score(state)


@inline_njit
def position_key(state):
    """Whether the called suit has been led (the called-card rules); the score is kept apart."""
    return state[S_CALLED_SUIT_DONE]


@inline_njit
def pinned(state):
    """The called card while its suit has not been led: never merged, kept apart in the table's keys."""
    open_call = state[S_CONTRACT] == CONTRACT_ACE_CALL and state[S_CALLED_SUIT_DONE] == 0
    return solving.pinned_card(open_call, state[S_CALLED_CARD])


@inline_njit
def hands_key(state):
    """The hands at a trick boundary, in relative ranks (``schafkopf_env.solving``), ``pinned`` apart."""
    return solving.relative_hands_key(state, S_HANDS, NUM_SEATS, state[S_TRUMP_KIND], pinned(state))


@inline_njit
def tricks_left(state):
    return NUM_TRICKS - state[S_TRICK_NUMBER]


@inline_njit
def distinct(state, cards):
    """``cards`` less those equivalent to another of them (``schafkopf_env.solving``); the called card is
    never merged while its suit has not been led."""
    trick_at = S_TRICK_CARDS + state[S_TRICK_NUMBER] * NUM_SEATS
    return solving.live_distinct(state, cards, state[S_TRUMP_KIND], trick_at, state[S_TRICK_SIZE], S_HANDS, NUM_SEATS,
                                 pinned(state))


@inline_njit
def first_card(state, cards, scratch):
    """The card tried first: the playout policy's choice among ``cards``."""
    lone = solving.lone_card(cards)
    return lone if lone >= 0 else heuristic.card(state, cards, scratch, state[S_SEAT_TO_ACT])


@inline_njit
def card_order(state, card):
    return solving.power_first(state[S_TRUMP_KIND], card)


@inline_njit
def side_units(state, seat, points, tricks):
    """The settlement of ``seat`` if the declarer's side ends with ``points`` and ``tricks``: the value rule
    of ``scoring.hand_value`` (a Du counts as lost unless every trick is taken) and the payments of
    ``scoring.seat_units``."""
    won, _, _, _, _, _, value = scoring.hand_value(state, points, tricks, False)
    return scoring.seat_units(state, seat, won, value)


@inline_njit
def value_bounds(state, seat):
    """The lowest and highest final score from any position (``schafkopf_env.solving.score_bounds``),
    the other side's top trumps cut at a trick boundary, and (unless a Du, which may end first) the
    declarer side's own raising the lowest (``sure_side_score``)."""
    out = solving.points_out(state, S_POINTS, NUM_SEATS, TOTAL_POINTS)
    return solving.side_bounds(state, score(state), out, tricks_left(state), SCORE_PER_POINT, S_HANDS, NUM_SEATS,
                               declarer_seats(state), state[S_TRUMP_KIND], state[S_TRICK_SIZE] == 0,
                               is_du(state[S_CONTRACT]))


@njit
def outcome_classes(state, seat, values, settlements):
    """The lowest score of each settlement class (``CLASS_TOTALS``) and the settlement of ``seat`` in it."""
    count = solving.class_values(CLASS_TOTALS, SCORE_PER_POINT, values)
    for i in range(count):
        settlements[i] = side_units(state, seat, CLASS_TOTALS[i, 0], CLASS_TOTALS[i, 1])
    return count


@inline_njit
def lean_position(state, seat, lean):
    """The card play of ``state`` as a lean position (``schafkopf_env.lean_solve``), which the solver
    searches in place of the kernel's state; False outside the card play."""
    if state[S_PHASE] != PHASE_PLAY:
        return False
    trick = state[S_TRICK_NUMBER]
    leader = state[S_TRICK_LEADERS + trick]
    lean_solve.set_position(lean, state, S_HANDS, S_TRICK_CARDS + trick * NUM_SEATS, state[S_TRICK_SIZE], leader,
                            state[S_SEAT_TO_ACT], state[S_TRUMP_KIND], declarer_seats(state), True, NUM_SEATS, -1)
    if state[S_CONTRACT] == CONTRACT_ACE_CALL:
        called = state[S_CALLED_CARD]
        lean_solve.set_called(lean, called, called // 8, state[S_CALLED_SUIT_DONE] != 0)
    out = solving.points_out(state, S_POINTS, NUM_SEATS, TOTAL_POINTS)
    lean_solve.set_value(lean, np.int64(score(state)), SCORE_PER_POINT, out, tricks_left(state),
                         is_du(state[S_CONTRACT]))
    return True
