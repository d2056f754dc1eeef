"""Scoring a hand of Bavarian Schafkopf: Laufende, the value of a contract, the settlement in units.

Rules: ``docs/rules/bavarian_schafkopf.md#5-scoring``.
"""

from __future__ import annotations

from schafkopf_env.trumps import consecutive_top_trumps
from trick_core.jit import inline_njit, njit_no_refcount

from .layout import (
    S_CONTRACT,
    S_DECLARER,
    S_LAUFENDE,
    S_PARTNER,
    S_PHASE,
    S_POINTS,
    S_TOUT_LOST,
    S_TRICKS_WON,
)
from .tables import (
    BASE_VALUE,
    LAUFENDE_FROM,
    LAUFENDE_UNIT,
    NUM_SEATS,
    NUM_TRICKS,
    PASS,
    PHASE_OVER,
    RUFER,
    SIE,
    SIE_LAUFENDE,
    SOLO_TOUT,
    WENZ_TOUT,
)


@inline_njit
def is_tout(contract):
    return contract == WENZ_TOUT or contract == SOLO_TOUT


@inline_njit
def counted_laufende(contract, kind, side_mask):
    """Laufende that count for a contract whose declarer side held ``side_mask`` at the start: the
    consecutive top trumps of either side, or 0 below the contract's minimum."""
    if contract == SIE:
        return SIE_LAUFENDE
    count = consecutive_top_trumps(kind, side_mask)
    return count if count >= LAUFENDE_FROM[contract] else 0


@inline_njit
def contract_value(contract, side_points, side_tricks, laufende, tout_lost):
    """Whether the declarer's side wins, and the value in units.

    ``side_points`` / ``side_tricks`` are the declarer side's card points and tricks, ``laufende`` the
    counted Laufende (0 below the contract's minimum)."""
    if contract == SIE:
        return True, BASE_VALUE[SIE] + SIE_LAUFENDE * LAUFENDE_UNIT[SIE]
    value = BASE_VALUE[contract] + laufende * LAUFENDE_UNIT[contract]
    if is_tout(contract):
        return tout_lost == 0 and side_tricks == NUM_TRICKS, value
    if side_tricks == NUM_TRICKS or side_tricks == 0:
        value += 2  # Schwarz
    elif side_points >= 91 or side_points <= 30:
        value += 1  # Schneider
    return side_points >= 61, value


@inline_njit
def declarer_side_totals(state):
    """Card points and tricks of the declarer's side (declarer plus, in a Rufer, the ace's holder)."""
    declarer = state[S_DECLARER]
    points = state[S_POINTS + declarer]
    tricks = state[S_TRICKS_WON + declarer]
    partner = state[S_PARTNER]
    if state[S_CONTRACT] == RUFER:
        points += state[S_POINTS + partner]
        tricks += state[S_TRICKS_WON + partner]
    return points, tricks


@inline_njit
def settle(state, out):
    """Units per seat once the hand is over (zero-sum); zeros when thrown in or still running. Rufer:
    each winner gains the value and each loser loses it; alone, the declarer gains or loses three times."""
    out[:] = 0.0
    contract = state[S_CONTRACT]
    if state[S_PHASE] != PHASE_OVER or contract == PASS:
        return
    points, tricks = declarer_side_totals(state)
    won, value = contract_value(contract, points, tricks, state[S_LAUFENDE], state[S_TOUT_LOST])
    sign = 1.0 if won else -1.0
    declarer = state[S_DECLARER]
    if contract == RUFER:
        partner = state[S_PARTNER]
        for seat in range(NUM_SEATS):
            on_side = seat == declarer or seat == partner
            out[seat] = sign * value if on_side else -sign * value
        return
    for seat in range(NUM_SEATS):
        out[seat] = -sign * value
    out[declarer] = 3.0 * sign * value


@njit_no_refcount
def settlement(state, out):
    """The contract's settlement: ``settle`` compiled on its own (units per seat, zeros unless over)."""
    settle(state, out)
