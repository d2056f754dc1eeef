"""Scoring a hand of Asserufen: the value item by item (game, hearts, schneider, schwarz, hoch, Du,
doublings) and the settlement in units.

Rules: ``docs/rules/palatinate_schafkopf.md#17-value`` and ``#36-score`` (decisions A6, A9): no hearts
point in the ace-call game, no solo point; a Du counts schneider and schwarz, won or lost, and doubles the
value; each double doubles it. Ace-call game: declarer and partner each +value, the opponents each -value
(reversed on a loss); a solo: each opponent -value, the declarer +3 x value.
"""

from __future__ import annotations

from schafkopf_env.trumps import consecutive_top_trumps
from trick_core.jit import inline_njit, njit_no_refcount
from trick_core.layout import card_mask

from .layout import (
    S_CONTRACT,
    S_DEALT_HANDS,
    S_DECLARER,
    S_DOUBLINGS,
    S_DU_LOST,
    S_PARTNER,
    S_PHASE,
    S_POINTS,
    S_TRICKS_WON,
    S_TRUMP_KIND,
)
from .state import is_du, is_solo, on_declarer_side
from .tables import (
    CONTRACT_ACE_CALL,
    CONTRACT_HEART_SOLO,
    CONTRACT_HEART_SOLO_DU,
    CONTRACT_NONE,
    NUM_SEATS,
    NUM_TRICKS,
    PHASE_OVER,
    SCORE_DOUBLINGS,
    SCORE_DU_FACTOR,
    SCORE_GAME,
    SCORE_HEARTS,
    SCORE_HOCH,
    SCORE_SCHNEIDER,
    SCORE_SCHWARZ,
    SCORE_SIDE_POINTS,
    SCORE_SIDE_TRICKS,
    SCORE_VALUE,
    SCORE_WON,
)

HOCH_FROM = 3
"""Fewest consecutive top trumps that count as hoch."""


@inline_njit
def declarer_side_mask(state):
    """Cards the declarer's side held at the start (declarer, plus the called card's holder)."""
    side = card_mask(state, S_DEALT_HANDS + state[S_DECLARER])
    if state[S_CONTRACT] == CONTRACT_ACE_CALL:
        side |= card_mask(state, S_DEALT_HANDS + state[S_PARTNER])
    return side


@inline_njit
def hand_value(state, side_points, side_tricks, du_lost):
    """(won, hearts, schneider, schwarz, hoch, du factor, value) of the hand if the declarer's side ends with
    ``side_points`` and ``side_tricks`` (``du_lost``: a trick already lost in a Du): the one statement of the
    value rule, read by ``score`` and by the solver's settlement classes (``solve.side_units``)."""
    contract = state[S_CONTRACT]
    du = is_du(contract)
    if du:
        won = not du_lost and side_tricks == NUM_TRICKS
        schneider = 1  # pinned: a Du counts schneider and schwarz, won or lost
        schwarz = 1
    else:
        won = side_points >= 61
        loser_points = 120 - side_points if won else side_points
        loser_tricks = NUM_TRICKS - side_tricks if won else side_tricks
        schneider = 1 if loser_points < 30 else 0
        schwarz = 1 if loser_tricks == 0 else 0
    top = consecutive_top_trumps(state[S_TRUMP_KIND], declarer_side_mask(state))
    hoch = top if top >= HOCH_FROM else 0
    hearts = 1 if contract == CONTRACT_HEART_SOLO or contract == CONTRACT_HEART_SOLO_DU else 0
    du_factor = 2 if du else 1
    value = (1 + hearts + schneider + schwarz + hoch) * du_factor * (1 << state[S_DOUBLINGS])
    return won, hearts, schneider, schwarz, hoch, du_factor, value


@inline_njit
def seat_units(state, seat, won, value):
    """The settlement of ``seat`` for a hand worth ``value`` that the declarer's side won or lost: the
    declarer of a solo 3 x value, every other seat of the declarer's side value, each opponent -value
    (signs reversed on a loss)."""
    signed = float(value) if won else -float(value)
    if seat == state[S_DECLARER]:
        return 3.0 * signed if is_solo(state[S_CONTRACT]) else signed
    return signed if on_declarer_side(state, seat) else -signed


@inline_njit
def score(state):
    """(won, side points, side tricks, hearts, schneider, schwarz, hoch, du factor, value) of a finished,
    not thrown-in hand."""
    side_points = 0
    side_tricks = 0
    for seat in range(NUM_SEATS):
        if on_declarer_side(state, seat):
            side_points += state[S_POINTS + seat]
            side_tricks += state[S_TRICKS_WON + seat]
    won, hearts, schneider, schwarz, hoch, du_factor, value = hand_value(
        state, side_points, side_tricks, state[S_DU_LOST] != 0
    )
    return won, side_points, side_tricks, hearts, schneider, schwarz, hoch, du_factor, value


@njit_no_refcount
def score_items(state, out):
    """The value of a finished (not thrown-in) hand, item by item, into int64 ``out[SCORE_SIZE]``."""
    out[:] = 0
    won, side_points, side_tricks, hearts, schneider, schwarz, hoch, du_factor, value = score(state)
    out[SCORE_WON] = 1 if won else 0
    out[SCORE_SIDE_POINTS] = side_points
    out[SCORE_SIDE_TRICKS] = side_tricks
    out[SCORE_GAME] = 1
    out[SCORE_HEARTS] = hearts
    out[SCORE_SCHNEIDER] = schneider
    out[SCORE_SCHWARZ] = schwarz
    out[SCORE_HOCH] = hoch
    out[SCORE_DU_FACTOR] = du_factor
    out[SCORE_DOUBLINGS] = state[S_DOUBLINGS]
    out[SCORE_VALUE] = value


@inline_njit
def settle(state, out):
    """Units per seat once over (zero-sum); zeros when thrown in or still running."""
    out[:] = 0.0
    if state[S_PHASE] != PHASE_OVER or state[S_CONTRACT] == CONTRACT_NONE:
        return
    won, _, _, _, _, _, _, _, value = score(state)
    for seat in range(NUM_SEATS):
        out[seat] = seat_units(state, seat, won, value)


@njit_no_refcount
def settlement(state, out):
    """The contract's settlement: ``settle`` compiled on its own (units per seat, zeros unless over)."""
    settle(state, out)
