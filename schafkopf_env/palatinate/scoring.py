"""Scoring a hand of Palatinate Schafkopf: the declarer's card points, hoch, the value of the hand and the
settlement in units.

Rules: ``docs/rules/palatinate_schafkopf.md#14-winning``, ``#15-hoch-top-trumps``, ``#17-value`` and
``#25-score``.
"""

from __future__ import annotations

from schafkopf_env.trumps import CARD_POINTS, HEARTS, consecutive_top_trumps
from trick_core.bits import ONE, ZERO, lowest_bit
from trick_core.jit import njit, njit_no_refcount
from trick_core.layout import card_mask

from .layout import (
    S_CONTRACT,
    S_DEALT_HANDS,
    S_DECLARER,
    S_DECLARER_POINTS,
    S_DISCARDS,
    S_DOUBLINGS,
    S_HOCH,
    S_PHASE,
    S_PLAYERS,
    S_POINTS,
    S_SCHENKEN_ANSWER,
    S_SKAT,
    S_THROWN_IN,
    S_TRICK_NUMBER,
    S_TRICKS_WON,
    S_TRUMP,
    S_VALUE,
    S_WON,
)
from .state import end_hand
from .tables import (
    CONTRACT_SIMPLE,
    CONTRACT_SOLO_DU,
    FULL_POINTS,
    HOCH_FROM,
    NUM_TRICKS,
    PHASE_OVER,
    SCHENKEN_ACCEPTED,
    SCHENKEN_REFUSED,
    SCHNEIDER_BELOW,
    WINNING_POINTS,
)


@njit
def hand_value(contract, trump, hoch, declarer_points, declarer_tricks, opponent_tricks, doublings, schenken):
    """``(declarer_won, value)`` of a finished hand, by the value table of the rules.

    ``declarer_points`` includes the skat (solo) or the discards (simple game); ``hoch`` is the count of
    top trumps in sequence (0 when below three); ``schenken`` is ``SCHENKEN_NONE``, ``_ACCEPTED`` or
    ``_REFUSED``.
    """
    du = contract >= CONTRACT_SOLO_DU
    opponent_points = FULL_POINTS - declarer_points
    if schenken == SCHENKEN_ACCEPTED:
        won = True
        schneider = 0
        schwarz = 0
    elif du:
        # (pinned) a Du counts schneider and schwarz won or lost.
        won = opponent_tricks == 0 and declarer_tricks == NUM_TRICKS
        schneider = 1
        schwarz = 1
    elif schenken == SCHENKEN_REFUSED:
        # (pinned) the refusing declarer must make the opponents schneider; the point counts won or lost.
        won = opponent_points < SCHNEIDER_BELOW
        schneider = 1
        schwarz = 1 if opponent_tricks == 0 or declarer_tricks == 0 else 0
    else:
        won = declarer_points >= WINNING_POINTS
        loser_points = opponent_points if won else declarer_points
        loser_tricks = opponent_tricks if won else declarer_tricks
        schneider = 1 if loser_points < SCHNEIDER_BELOW else 0
        schwarz = 1 if loser_tricks == 0 else 0
    value = 1 + schneider + schwarz + hoch
    if trump == HEARTS:
        value += 1
    if contract != CONTRACT_SIMPLE:
        value += 1
    if du:
        value *= 2
    return won, value << doublings


@njit_no_refcount
def hoch_count(state):
    """Top trumps in sequence held by one side (from three on; else 0). The declarer's holding is the
    dealt hand plus the skat, in a simple game (pinned) and in a solo (the skat counts as theirs)."""
    declarer_cards = card_mask(state, S_DEALT_HANDS + state[S_DECLARER]) | card_mask(state, S_SKAT)
    count = consecutive_top_trumps(state[S_TRUMP], declarer_cards)
    return count if count >= HOCH_FROM else 0


@njit_no_refcount
def declarer_card_points(state):
    """Card points in the declarer's tricks, plus the skat (solo) or the discards (simple game)."""
    declarer = state[S_DECLARER]
    extra = card_mask(state, S_DISCARDS) if state[S_CONTRACT] == CONTRACT_SIMPLE else card_mask(state, S_SKAT)
    total = state[S_POINTS + declarer]
    while extra != ZERO:
        total += CARD_POINTS[lowest_bit(extra)]
        extra &= extra - ONE
    return total


@njit_no_refcount
def finish_hand(state):
    """Score the hand (won, value, hoch, the declarer's points) and end it."""
    declarer = state[S_DECLARER]
    declarer_tricks = state[S_TRICKS_WON + declarer]
    opponent_tricks = state[S_TRICK_NUMBER] - declarer_tricks
    points = declarer_card_points(state)
    hoch = hoch_count(state)
    won, value = hand_value(
        state[S_CONTRACT],
        state[S_TRUMP],
        hoch,
        points,
        declarer_tricks,
        opponent_tricks,
        state[S_DOUBLINGS],
        state[S_SCHENKEN_ANSWER],
    )
    state[S_WON] = 1 if won else 0
    state[S_VALUE] = value
    state[S_HOCH] = hoch
    state[S_DECLARER_POINTS] = points
    end_hand(state)


@njit
def settlement(state, out):
    """Units per seat once over: each other seat (the sitting-out dealer included) pays the value to the
    declarer or receives it, so the declarer gets ``(players - 1) * value``. Zeros when thrown in."""
    out[:] = 0.0
    if state[S_PHASE] != PHASE_OVER or state[S_THROWN_IN] == 1:
        return
    players = state[S_PLAYERS]
    declarer = state[S_DECLARER]
    signed = float(state[S_VALUE]) if state[S_WON] == 1 else -float(state[S_VALUE])
    for seat in range(players):
        out[seat] = signed * (players - 1) if seat == declarer else -signed
