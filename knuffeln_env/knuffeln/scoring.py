"""How a hand of Knüffeln ends and what it pays: five tricks, the Jann (five in a row: stop, or lead on
and be committed to the Durchmarsch), the march, and the payment between the teams.

Rules: ``docs/rules/knuffeln.md#5-end-of-the-hand-jann-and-durchmarsch`` and
``docs/rules/knuffeln.md#8-stakes-and-payment``; a five-player dealer game has min(9, dealer's cards)
tricks (decision K11).
"""

from __future__ import annotations

from trick_core.jit import inline_njit, njit_no_refcount

from .layout import (
    S_ACCEPTED,
    S_COMMITTED,
    S_JANN_PENDING,
    S_MAX_TRICKS,
    S_PHASE,
    S_PLAYERS,
    S_RESULT_KIND,
    S_RESULT_UNITS,
    S_SEAT_TO_ACT,
    S_SETTLEMENT,
    S_STREAK_TEAM,
    S_TARGET,
    S_TEAM,
    S_TEAM_TRICKS,
    S_VARIANT,
    S_WINNER_TEAM,
)
from .tables import (
    PAY_BASE,
    PAY_JANN,
    PAY_MARCH,
    PAY_PER_TURN,
    PHASE_OVER,
    RESULT_FAILED_MARCH,
    RESULT_JANN,
    RESULT_MARCH,
    RESULT_PLAIN,
)


@inline_njit
def stake(state):
    """Units of a plain game at this moment: base plus accepted turns."""
    return PAY_BASE[state[S_VARIANT]] + PAY_PER_TURN * state[S_ACCEPTED]


@inline_njit
def march_value(state):
    """Units of a march (won or failed): the march plus accepted turns."""
    return PAY_MARCH[state[S_VARIANT]] + state[S_ACCEPTED]


@inline_njit
def end_hand(state, winning_team, units, kind):
    """Each member of the losing team pays each member of the winning team ``units``."""
    state[S_WINNER_TEAM] = winning_team
    state[S_RESULT_UNITS] = units
    state[S_RESULT_KIND] = kind
    state[S_PHASE] = PHASE_OVER
    state[S_SEAT_TO_ACT] = -1
    state[S_JANN_PENDING] = 0
    players = state[S_PLAYERS]
    for a in range(players):
        for b in range(players):
            if state[S_TEAM + a] == winning_team and state[S_TEAM + b] == 1 - winning_team:
                state[S_SETTLEMENT + a] += units
                state[S_SETTLEMENT + b] -= units


@inline_njit
def take_jann(state, seat):
    """``stop``: the Jann is taken, the hand ends."""
    end_hand(state, state[S_TEAM + seat], PAY_JANN[state[S_VARIANT]] + state[S_ACCEPTED], RESULT_JANN)


@inline_njit
def hand_ends_with_trick(state, team, trick_number):
    """After ``team`` won trick ``trick_number`` (1-based): end the hand if that decides it (a march
    completed or failed, five tricks without a Jann) and return True; else False (with a Jann pending
    when ``team`` won every trick so far and tricks remain: its leader chooses stop or march)."""
    committed = state[S_COMMITTED]
    if committed >= 0:
        if team != committed:
            end_hand(state, team, march_value(state), RESULT_FAILED_MARCH)
            return True
        if trick_number == state[S_MAX_TRICKS]:
            end_hand(state, team, march_value(state), RESULT_MARCH)
            return True
        return False
    if state[S_TEAM_TRICKS + team] >= state[S_TARGET + team]:
        if state[S_STREAK_TEAM] == team and trick_number < state[S_MAX_TRICKS]:
            state[S_JANN_PENDING] = 1
            return False
        end_hand(state, team, stake(state), RESULT_PLAIN)
        return True
    return False


@inline_njit
def settle(state, out):
    """Units per seat once the hand is over (zero-sum)."""
    for seat in range(state[S_PLAYERS]):
        out[seat] = state[S_SETTLEMENT + seat]


@njit_no_refcount
def settlement(state, out):
    """The contract's settlement: units per seat once the hand is over (zero-sum; 0 for a five-player dealer
    who sat out)."""
    settle(state, out)
