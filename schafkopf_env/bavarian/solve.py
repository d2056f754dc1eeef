"""What the exact solver (``trick_core.solver``) needs to know of Bavarian Schafkopf: the card play is
the only searched decision, the sides are the declarer (with the called ace's holder in a Rufer) against
the rest, and the rest of a hand depends on the declarer side's card points and tricks and, in a Rufer,
on whether the called suit has been led (the called-ace rules).

A settlement depends only on the declarer side's points and tricks (``scoring.contract_value``: 31, 61,
91 points, no trick, every trick; a Tout is won with every trick) and rises with ``score`` (9 x points +
tricks, added up trick by trick), so the search maximises the score for the declarer's side, its table
holds what the rest of a hand adds to it, and ``outcome_classes`` lists the six classes' settlements
(``seat_units``: ``scoring.contract_value`` and the sharing of ``scoring.settle``). Every option's hand is
solved exactly:

- **Geier, Farbwenz and their Touts** are games alone like a Solo; only the trump kind (5..9 of
  ``schafkopf_env.trumps``) and the Laufende (counted at the contract, ``S_LAUFENDE``) differ.
- **The short pack** (``pack="short"``): the classes, the Tout's every trick and ``tricks_left`` use the
  hand's size (six tricks); the cards left out of the pack are never live.
- **Bettel**: the declarer wins only with no trick, so its settlement *falls* with the score (which is 0
  exactly while it has taken none): the declarer *minimises* the score and the defenders maximise it
  (``counted``); the classes are the same rows (merged to won at 0 and lost from 1). Every trick is played
  (decision B21), so the bounds hold as for any game.
- **Ramsch** (no sides: everyone for itself) is solved for the **paranoid value**: the solved seat
  maximises its own settlement and the other three minimise it, as if they were one side against it
  (``counted``). It is exact for that two-sided game, a lower bound on what the seat can force against any
  three players, and no equilibrium of the four-player game. The searched value is the seat's settlement
  itself (``score`` 0; the table's key holds every seat's points and tricks, ``position_key``), its
  classes the settlements the tariff's Ramsch rule can pay (``ramsch_classes``).
"""

from __future__ import annotations

import numpy as np

from schafkopf_env import lean_solve, solving
from schafkopf_env.card_play import SCRATCH_SIZE  # noqa: F401  (the solver's scratch for card ordering)
from schafkopf_env.lean_solve import LEAN_SIZE, lean_value  # noqa: F401  (looked up by ``trick_core.solver``)
from schafkopf_env.solving import card_action, extra_action  # noqa: F401  (looked up by ``trick_core.solver``)
from trick_core.bits import lowest_bit
from trick_core.jit import inline_njit, njit

from . import heuristic
from .doubling import stakes_factor
from .layout import (
    S_CALLED_DONE,
    S_CALLED_SUIT,
    S_CONTRACT,
    S_DECLARER,
    S_HANDS,
    S_LAUFENDE,
    S_PARAMS,
    S_PARTNER,
    S_PHASE,
    S_POINTS,
    S_SEAT_TO_ACT,
    S_TRICK_NUMBER,
    S_TRICK_SIZE,
    S_TRICKS,
    S_TRICKS_WON,
    S_TRUMP_KIND,
    TRICK_RECORD,
)
from .play import legal_card_bits
from .ramsch import JUNGFRAU_DOUBLE_ALL, JUNGFRAU_NONE, JUNGFRAU_ONCE, settle_ramsch
from .rules import legal_action_bits
from .scoring import declarer_side_totals, is_tout, value_with
from .state import hand_size
from .tables import (
    ACE_OF_SUIT,
    ACTION_NO_DOUBLE,
    BETTEL,
    DURCHMARSCH_NONE,
    NUM_SEATS,
    NUM_TRICKS,
    PARAM_RAMSCH_DURCHMARSCH,
    PARAM_RAMSCH_JUNGFRAU,
    PARAM_RAMSCH_PRICE,
    PHASE_PLAYING,
    RAMSCH,
    RUFER,
    SHORT_HAND_SIZE,
)

TOTAL_POINTS = 120

EXACT_TRICKS = NUM_TRICKS
"""A whole hand is solved exactly (a Ramsch: at most ``RAMSCH_EXACT_TRICKS``)."""
RAMSCH_EXACT_TRICKS = 5
"""The most tricks of a Ramsch solved exactly, whatever the caller asks (``searched_tricks``): its paranoid value
has no lean search and its table shares few positions, so six long-pack tricks took up to a tenth of a second a
solve and seven several seconds, against well under a millisecond for five (the playout policy plays the cards
before; measured once on a few seeded hands, not kept)."""

SCORE_PER_POINT = NUM_TRICKS + 1
"""``score`` counts a card point as more than all tricks together."""
CLASS_TOTALS = solving.settlement_classes(31, NUM_TRICKS)
"""The classes of ``scoring.contract_value`` (schneider from 31 points; a Tout: lost unless every trick)."""
SHORT_CLASS_TOTALS = solving.settlement_classes(31, SHORT_HAND_SIZE)
"""``CLASS_TOTALS`` of the short pack (``pack="short"``: schwarz and a Tout's win with six tricks)."""


@inline_njit
def searched_cards(state):
    """The cards the seat to act may play (0 outside the card play)."""
    return legal_card_bits(state, state[S_SEAT_TO_ACT]) if state[S_PHASE] == PHASE_PLAYING else np.uint64(0)


@inline_njit
def default_action(state):
    """The decisions inside the card play that are not cards: no double (``doubling``); else the lowest legal
    action."""
    legal = legal_action_bits(state)
    if (legal >> np.uint64(ACTION_NO_DOUBLE)) & np.uint64(1):
        return ACTION_NO_DOUBLE
    return lowest_bit(legal)


@inline_njit
def on_declarer_side(state, seat):
    return seat == state[S_DECLARER] or (state[S_CONTRACT] == RUFER and seat == state[S_PARTNER])


@inline_njit
def counted(state, seat, other):
    """The declarer's side maximises the score (``score``), whichever seat is solved for; in a Bettel the
    defenders do (the declarer wins only at score 0); in a Ramsch ``seat`` alone maximises its own settlement
    (the paranoid value, module docstring)."""
    contract = state[S_CONTRACT]
    if contract == RAMSCH:
        return other == seat
    if contract == BETTEL:
        return not on_declarer_side(state, other)
    return on_declarer_side(state, other)


@inline_njit
def ramsch_units(state, seat):
    """``seat``'s settlement of a finished Ramsch (``ramsch.settle_ramsch``, the knocks counted)."""
    units = np.zeros(NUM_SEATS, dtype=np.float64)
    settle_ramsch(state, units, stakes_factor(state), hand_size(state))
    return units[seat]


@inline_njit
def final_value(state, seat):
    """The score (``score``); in a Ramsch ``seat``'s settlement."""
    if state[S_CONTRACT] == RAMSCH:
        return ramsch_units(state, seat)
    return score(state)


@inline_njit
def score(state):
    """``SCORE_PER_POINT`` x the declarer side's card points + its tricks: added up trick by trick, and
    the settlement rises with it (falls, in a Bettel). A Ramsch has no score: 0 (its value is the settlement)."""
    if state[S_CONTRACT] == RAMSCH:
        return 0.0
    points, tricks = declarer_side_totals(state)
    return float(SCORE_PER_POINT * points + tricks)


@inline_njit
def position_key(state):
    """Whether the called suit has been led (the called-ace rules); the score is kept apart (``score``). In a
    Ramsch the settlement depends on every seat's card points and tricks so far: seven and four bits each."""
    if state[S_CONTRACT] == RAMSCH:
        key = 0
        for seat in range(NUM_SEATS):
            key = (key << 11) | (state[S_POINTS + seat] << 4) | state[S_TRICKS_WON + seat]
        return key
    return state[S_CALLED_DONE]


@inline_njit
def searched_tricks(state, exact_tricks):
    """The tricks solved exactly when ``exact_tricks`` are asked: in a Ramsch at most ``RAMSCH_EXACT_TRICKS``."""
    if state[S_CONTRACT] == RAMSCH:
        return min(exact_tricks, RAMSCH_EXACT_TRICKS)
    return exact_tricks


@inline_njit
def tricks_left(state):
    """The hand's tricks (eight, six with the short pack) less those played."""
    return hand_size(state) - state[S_TRICK_NUMBER]


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
    size = hand_size(state)
    won, value = value_with(state, S_PARAMS, contract, points, tricks, state[S_LAUFENDE],
                            0 if tricks == size else 1, size)  # the hand's own tariff and size
    value *= stakes_factor(state)  # the knocks and doublings said (klopfen, doubling)
    units = float(value) if won else -float(value)
    if not on_declarer_side(state, seat):
        return -units
    return units if contract == RUFER else 3.0 * units


@inline_njit
def value_bounds(state, seat):
    """The lowest and highest final score (``schafkopf_env.solving.score_bounds``): what is still out,
    less the other side's sure top trumps at a trick boundary, and (unless a Tout, which may end first)
    at least the declarer side's own (``sure_side_score``). A Ramsch: ``ramsch_bounds``."""
    if state[S_CONTRACT] == RAMSCH:
        return ramsch_bounds(state)
    side = solving.side_seats(state[S_DECLARER], state[S_PARTNER], state[S_CONTRACT] == RUFER)
    out = solving.points_out(state, S_POINTS, NUM_SEATS, TOTAL_POINTS)
    return solving.side_bounds(state, score(state), out, tricks_left(state), SCORE_PER_POINT, S_HANDS, NUM_SEATS,
                               side, state[S_TRUMP_KIND], state[S_TRICK_SIZE] == 0, is_tout(state[S_CONTRACT]))


@inline_njit
def ramsch_unit(state):
    """The price of a Ramsch times the knocks: every Ramsch settlement is a whole multiple of it."""
    return state[S_PARAMS + PARAM_RAMSCH_PRICE] * stakes_factor(state)


@inline_njit
def ramsch_bounds(state):
    """The lowest and highest Ramsch settlement of any seat still possible: a player is paid at most the price
    doubled once per player still without a trick (Jungfrau; at least 3 by a Durchmarsch) and pays at most
    three such payments."""
    virgins = 0
    for seat in range(NUM_SEATS):
        if state[S_TRICKS_WON + seat] == 0:
            virgins += 1
    most = 1 << virgins
    unit = float(ramsch_unit(state))
    return -3.0 * most * unit, float(max(most, 3)) * unit


@njit
def ramsch_classes(state, values, settlements):
    """The settlements a Ramsch can pay a seat (each its own class, the value the settlement itself): paid
    ``p`` of the Jungfrau rule's payments (``1``; ``1, 2`` individually once; ``1, 2, 4, 8`` doubled), paying
    three of them as the loser (all equal where every payment is doubled alike), and a Durchmarsch's 3 and
    -1; the number of classes."""
    rule = state[S_PARAMS + PARAM_RAMSCH_JUNGFRAU]
    kinds = 1 if rule == JUNGFRAU_NONE else (2 if rule == JUNGFRAU_ONCE else 4)
    unit = float(ramsch_unit(state))
    count = 0
    found = np.zeros(64, dtype=np.int64)  # multiples of ``unit`` seen, from -32
    for a in range(kinds):
        found[32 + (1 << a)] = 1
        for b in range(kinds):
            for c in range(kinds):
                if rule != JUNGFRAU_DOUBLE_ALL or (a == b and b == c):
                    found[32 - (1 << a) - (1 << b) - (1 << c)] = 1
    if state[S_PARAMS + PARAM_RAMSCH_DURCHMARSCH] != DURCHMARSCH_NONE:
        found[32 + 3] = 1
        found[32 - 1] = 1
    for multiple in range(64):
        if found[multiple]:
            values[count] = (multiple - 32) * unit
            settlements[count] = values[count]
            count += 1
    return count


@njit
def outcome_classes(state, seat, values, settlements):
    """The six classes (``CLASS_TOTALS``, ``SHORT_CLASS_TOTALS`` for the short pack): their lowest scores, and
    what ``seat`` is paid in each; a Ramsch's settlements (``ramsch_classes``)."""
    if state[S_CONTRACT] == RAMSCH:
        return ramsch_classes(state, values, settlements)
    totals = SHORT_CLASS_TOTALS if hand_size(state) == SHORT_HAND_SIZE else CLASS_TOTALS
    for i in range(solving.class_values(totals, SCORE_PER_POINT, values)):
        settlements[i] = seat_units(state, seat, totals[i, 0], totals[i, 1])
    return totals.shape[0]


@inline_njit
def lean_position(state, seat, lean):
    """The card play of ``state`` as a lean position (``schafkopf_env.lean_solve``), which the solver
    searches in place of the kernel's state; False for a Ramsch (no two sides: the general search solves
    its paranoid value) or outside the card play."""
    contract = state[S_CONTRACT]
    if contract == RAMSCH or state[S_PHASE] != PHASE_PLAYING:
        return False
    trick = S_TRICKS + state[S_TRICK_NUMBER] * TRICK_RECORD
    side = solving.side_seats(state[S_DECLARER], state[S_PARTNER], contract == RUFER)
    lean_solve.set_position(lean, state, S_HANDS, trick + 1, state[S_TRICK_SIZE], state[trick], state[S_SEAT_TO_ACT],
                            state[S_TRUMP_KIND], side, contract != BETTEL, NUM_SEATS, -1)
    if contract == RUFER:
        lean_solve.set_called(lean, ACE_OF_SUIT[state[S_CALLED_SUIT]], state[S_CALLED_SUIT], state[S_CALLED_DONE] != 0)
    out = solving.points_out(state, S_POINTS, NUM_SEATS, TOTAL_POINTS)
    lean_solve.set_value(lean, np.int64(score(state)), SCORE_PER_POINT, out, tricks_left(state), is_tout(contract))
    return True
