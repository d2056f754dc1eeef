"""What the exact solver (``trick_core.solver``) needs to know of Palatinate Schafkopf (three players, or
four with the dealer sitting out): the card play is the only searched decision (contra offers and
doubling rounds inside it take ``no_double``), the declarer plays alone against the others (the dealer
sitting out pays or receives like an opponent), and the rest of a hand depends on the declarer's card
points (the skat or the discards included) and tricks.

A settlement depends only on the declarer's points, its tricks and the opponents' tricks
(``scoring.hand_value``, with the contract, Du, hoch, doublings and schenken of the hand); it rises with
``score`` (11 x the declarer's trick points + its tricks, added up trick by trick), which the search
maximises for the declarer, and ``side_units`` writes a class's settlement.
"""

from __future__ import annotations

import numpy as np

from schafkopf_env import lean_solve, solving
from schafkopf_env.card_play import SCRATCH_SIZE  # noqa: F401  (the solver's scratch for card ordering)
from schafkopf_env.lean_solve import LEAN_SIZE, lean_value  # noqa: F401  (looked up by ``trick_core.solver``)
from schafkopf_env.solving import card_action, extra_action, searched_tricks  # noqa: F401  (looked up by ``trick_core.solver``)
from trick_core.bits import lowest_bit
from trick_core.jit import inline_njit, njit

from . import heuristic
from .layout import (
    S_CONTRACT,
    S_DECLARER,
    S_DOUBLINGS,
    S_HANDS,
    S_LEADER,
    S_NEXT,
    S_PHASE,
    S_PLAYERS,
    S_POINTS,
    S_SCHENKEN_ANSWER,
    S_SEAT_TO_ACT,
    S_TRICK_CARDS,
    S_TRICK_NUMBER,
    S_TRICK_SIZE,
    S_TRICKS_WON,
    S_TRUMP,
)
from .play import legal_card_bits
from .rules import legal_action_bits
from .scoring import declarer_card_points, hand_value, hoch_count
from .tables import (
    ACTION_NO_DOUBLE,
    CONTRACT_SOLO_DU,
    FULL_POINTS,
    HIGH_WORD_BASE,
    MAX_SEATS,
    NUM_ACTIVE,
    NUM_TRICKS,
    PHASE_CONTRA_OFFER,
    PHASE_DOUBLING,
    PHASE_PLAY,
)

EXACT_TRICKS = NUM_TRICKS
"""A whole hand is solved exactly."""
SCORE_PER_POINT = NUM_TRICKS + 1
"""``score`` counts a card point as more than all tricks together."""


@inline_njit
def searched_cards(state):
    """The cards the seat to act may play (0 outside the card play, e.g. a contra offer)."""
    return legal_card_bits(state, state[S_SEAT_TO_ACT]) if state[S_PHASE] == PHASE_PLAY else np.uint64(0)


@inline_njit
def default_action(state):
    """A contra offer or doubling round inside the solve: ``no_double`` (else the lowest legal action)."""
    phase = state[S_PHASE]
    if phase == PHASE_CONTRA_OFFER or phase == PHASE_DOUBLING:
        return ACTION_NO_DOUBLE
    low, high = legal_action_bits(state)
    return lowest_bit(low) if low != np.uint64(0) else HIGH_WORD_BASE + lowest_bit(high)


@inline_njit
def counted(state, seat, other):
    """The declarer maximises the score (``score``), whichever seat is solved for."""
    return other == state[S_DECLARER]


@inline_njit
def score(state):
    """``SCORE_PER_POINT`` x the declarer's card points from tricks + its tricks: added up trick by trick,
    and the settlement rises with it (the skat or discards are added in ``side_units``)."""
    declarer = state[S_DECLARER]
    return float(SCORE_PER_POINT * state[S_POINTS + declarer] + state[S_TRICKS_WON + declarer])


@inline_njit
def final_value(state, seat):
    return score(state)


@inline_njit
def position_key(state):
    """Nothing beyond the hands: the score is kept apart (``score``)."""
    return 0


@inline_njit
def hands_key(state):
    """The hands at a trick boundary, in relative ranks (``schafkopf_env.solving``)."""
    return solving.relative_hands_key(state, S_HANDS, MAX_SEATS, state[S_TRUMP], np.uint64(0))


@inline_njit
def tricks_left(state):
    return NUM_TRICKS - state[S_TRICK_NUMBER]


@inline_njit
def card_order(state, card):
    return solving.power_first(state[S_TRUMP], card)


@inline_njit
def distinct(state, cards):
    """``cards`` less those equivalent to another of them (``schafkopf_env.solving``)."""
    return solving.live_distinct(state, cards, state[S_TRUMP], S_TRICK_CARDS, state[S_TRICK_SIZE], S_HANDS, MAX_SEATS,
                                 np.uint64(0))


@inline_njit
def first_card(state, cards, scratch):
    """The card tried first: the playout policy's choice among ``cards``."""
    lone = solving.lone_card(cards)
    return lone if lone >= 0 else heuristic._card(state, cards, scratch, state[S_SEAT_TO_ACT])


@inline_njit
def side_units(state, seat, points, tricks, opponent_tricks):
    """The settlement of ``seat`` if the declarer ends with ``points`` (skat or discards included),
    ``tricks`` and the opponents with ``opponent_tricks`` (``scoring.hand_value`` and ``settlement``)."""
    won, value = hand_value(state[S_CONTRACT], state[S_TRUMP], hoch_count(state), points, tricks, opponent_tricks,
                            state[S_DOUBLINGS], state[S_SCHENKEN_ANSWER])
    signed = float(value) if won else -float(value)
    if seat >= state[S_PLAYERS]:
        return 0.0  # no such seat at a three-player table
    return signed * (state[S_PLAYERS] - 1) if seat == state[S_DECLARER] else -signed


@inline_njit
def extra_points(state):
    """The declarer's points outside its tricks: the skat (solo) or the discards (simple game)."""
    return declarer_card_points(state) - state[S_POINTS + state[S_DECLARER]]


@inline_njit
def value_bounds(state, seat):
    """The lowest and highest final score from any position: the declarer takes none or all of the
    points and tricks still out (the other seats' top trumps, ``sure_trump_points``, cut almost no
    position here: the declarer mostly holds them); at a trick boundary, unless a Du (which may end
    first), the declarer is sure of its own top trumps' points and a trick (``sure_side_score``)."""
    out = solving.points_out(state, S_POINTS, MAX_SEATS, FULL_POINTS - extra_points(state))
    low, high = solving.score_bounds(state, score(state), out, tricks_left(state), SCORE_PER_POINT, S_HANDS, MAX_SEATS,
                                     0, state[S_TRUMP], False)
    if state[S_TRICK_SIZE] == 0 and state[S_CONTRACT] < CONTRACT_SOLO_DU:
        low += solving.sure_side_score(state, S_HANDS, MAX_SEATS, 1 << state[S_DECLARER], state[S_TRUMP],
                                       SCORE_PER_POINT)
    return low, high


@njit
def outcome_classes(state, seat, values, settlements):
    """The lowest score of each settlement class and the settlement of ``seat`` in it: no trick, a trick,
    the declarer's points reaching each threshold of ``hand_value`` (the skat or discards counted), every
    trick."""
    extra = extra_points(state)
    count = 0
    for tricks_points, tricks in ((0, 0), (0, 1), (30 - extra, 1), (61 - extra, 1), (91 - extra, 1),
                                  (FULL_POINTS - extra, NUM_TRICKS)):
        if tricks_points < 0:
            continue  # a threshold the skat or discards alone reach: every class has it
        values[count] = float(SCORE_PER_POINT * tricks_points + tricks)
        settlements[count] = side_units(state, seat, tricks_points + extra, tricks, NUM_TRICKS - tricks)
        count += 1
    return count


@inline_njit
def lean_position(state, seat, lean):
    """The card play of ``state`` as a lean position (``schafkopf_env.lean_solve``), which the solver
    searches in place of the kernel's state (the three active seats, the dealer of a four-player table out);
    False outside the card play."""
    if state[S_PHASE] != PHASE_PLAY:
        return False
    lean_solve.set_position(lean, state, S_HANDS, S_TRICK_CARDS, state[S_TRICK_SIZE], state[S_LEADER],
                            state[S_SEAT_TO_ACT], state[S_TRUMP], 1 << state[S_DECLARER], True, NUM_ACTIVE, S_NEXT)
    out = solving.points_out(state, S_POINTS, MAX_SEATS, FULL_POINTS - extra_points(state))
    lean_solve.set_value(lean, np.int64(score(state)), SCORE_PER_POINT, out, tricks_left(state),
                         state[S_CONTRACT] >= CONTRACT_SOLO_DU)
    return True
