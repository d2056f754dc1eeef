"""Ramsch (``ramsch=True``) in Bavarian Schafkopf: when all four pass, the hand is played with the Rufer's
trumps, everyone for itself, and the player with the most card points pays.

Rules: ``docs/rules/bavarian_schafkopf.md#6-options`` (decision B17); the settlement is openschafkopf's
``SRulesRamsch``: a Durchmarsch (one player takes every trick, or the tariff's card points) is paid the price
by each other player; otherwise the player with the most card points pays the price to each other player
(ties: the tied player who held the highest trump pays), changed by the tariff's Jungfrau rule for the
players who took no trick. Knocks double it; there is no Kontra in a Ramsch.
"""

from __future__ import annotations

from schafkopf_env.trumps import HEARTS, NUM_TRUMPS, TRUMP_ORDER
from trick_core.jit import inline_njit

from .layout import (
    S_CONTRACT,
    S_DEALT_HANDS,
    S_LAUFENDE,
    S_PARAMS,
    S_POINTS,
    S_TRICKS_WON,
    S_TRUMP_KIND,
)
from .tables import (
    DURCHMARSCH_ALL,
    DURCHMARSCH_NONE,
    NUM_SEATS,
    PARAM_RAMSCH_DURCHMARSCH,
    PARAM_RAMSCH_JUNGFRAU,
    PARAM_RAMSCH_PRICE,
    RAMSCH,
)

JUNGFRAU_NONE, JUNGFRAU_DOUBLE_ALL, JUNGFRAU_ONCE, JUNGFRAU_MULTIPLE = range(4)
"""The indices of ``tables.JUNGFRAU_RULES``."""


@inline_njit
def start_ramsch(state):
    """All four passed: the contract is Ramsch, hearts trump as in a Rufer, no declarer, no Laufende."""
    state[S_CONTRACT] = RAMSCH
    state[S_TRUMP_KIND] = HEARTS
    state[S_LAUFENDE] = 0


@inline_njit
def highest_trump_rank(state, seat):
    """The rank (0 highest) of the highest trump ``seat`` was dealt, or a large number without one."""
    hand = state[S_DEALT_HANDS + seat]
    kind = state[S_TRUMP_KIND]
    for i in range(NUM_TRUMPS[kind]):
        if (hand >> TRUMP_ORDER[kind, i]) & 1:
            return i
    return 99


@inline_njit
def ramsch_loser(state):
    """The player with the most card points; among tied players the one that held the highest trump
    (openschafkopf: the one that played it; at the end of the hand every card has been played), and if none
    of them held a trump, the first of them in seat order (decision B17)."""
    best = 0
    for seat in range(1, NUM_SEATS):
        if state[S_POINTS + seat] > state[S_POINTS + best]:
            best = seat
    loser = best
    for seat in range(NUM_SEATS):
        if seat != loser and state[S_POINTS + seat] == state[S_POINTS + best]:
            if highest_trump_rank(state, seat) < highest_trump_rank(state, loser):
                loser = seat
    return loser


@inline_njit
def settle_ramsch(state, out, factor, tricks):
    """The Ramsch's settlement per seat into ``out`` (times ``factor``: the knocks), ``tricks`` a hand's."""
    price = state[S_PARAMS + PARAM_RAMSCH_PRICE]
    durchmarsch = state[S_PARAMS + PARAM_RAMSCH_DURCHMARSCH]
    loser = ramsch_loser(state)
    most = state[S_POINTS + loser]
    marched = False
    if durchmarsch == DURCHMARSCH_ALL:
        marched = state[S_TRICKS_WON + loser] == tricks
    elif durchmarsch != DURCHMARSCH_NONE:
        marched = most >= durchmarsch
    if marched:  # the one player who took them is paid the price by each other player
        for seat in range(NUM_SEATS):
            out[seat] = -float(price * factor)
        out[loser] = float(3 * price * factor)
        return
    virgins = 0
    for seat in range(NUM_SEATS):
        if state[S_TRICKS_WON + seat] == 0:
            virgins += 1
    rule = state[S_PARAMS + PARAM_RAMSCH_JUNGFRAU]
    total = 0
    for seat in range(NUM_SEATS):
        if seat == loser:
            continue
        paid = price
        if rule == JUNGFRAU_DOUBLE_ALL:
            paid = price << virgins
        elif state[S_TRICKS_WON + seat] == 0 and rule == JUNGFRAU_ONCE:
            paid = 2 * price
        elif state[S_TRICKS_WON + seat] == 0 and rule == JUNGFRAU_MULTIPLE:
            paid = price << virgins
        out[seat] = float(paid * factor)
        total += paid
    out[loser] = -float(total * factor)

