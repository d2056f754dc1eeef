"""Scoring a hand of Bavarian Schafkopf: Laufende, the value of a contract, the settlement in units.

Rules: ``docs/rules/bavarian_schafkopf.md#5-scoring``.
"""

from __future__ import annotations

import numpy as np

from schafkopf_env.trumps import NUM_TRUMPS, TRUMP_ORDER
from trick_core.bits import ONE, ZERO
from trick_core.jit import inline_njit, njit_no_refcount

from .doubling import stakes_factor
from .layout import (
    S_CONTRACT,
    S_DECLARER,
    S_LAUFENDE,
    S_PARAMS,
    S_PARTNER,
    S_PHASE,
    S_POINTS,
    S_TOUT_LOST,
    S_TRICKS_WON,
)
from .ramsch import settle_ramsch
from .state import hand_size, pack_mask
from .tables import (
    BETTEL,
    CARD_TARIFF_PARAMS,
    FAMILY_OF_CONTRACT,
    FAMILY_PARAM_START,
    FARBWENZ_TOUT,
    FULL_MASK,
    GEIER_TOUT,
    HAND_SIZE,
    NUM_SEATS,
    PASS,
    PHASE_OVER,
    RAMSCH,
    RUFER,
    SIE,
    SIE_FACTOR,
    SOLO_TOUT,
    TARIFF_BASE,
    TARIFF_LAUFENDE,
    TARIFF_LAUFENDE_FROM,
    TARIFF_SCHNEIDER_SCHWARZ,
    TOUT_FACTOR,
    WENZ_TOUT,
)


@inline_njit
def is_tout(contract):
    return contract == WENZ_TOUT or contract == SOLO_TOUT or contract == GEIER_TOUT or contract == FARBWENZ_TOUT


@inline_njit
def tariff_entry(params, at, contract, key):
    """The tariff's ``key`` (``TARIFF_BASE`` ...) for the family of ``contract``, read from the params block
    at ``params[at:]`` (a params array and 0, or a state and ``S_PARAMS``: no slice, no allocation)."""
    return params[at + FAMILY_PARAM_START[FAMILY_OF_CONTRACT[contract]] + key]


@inline_njit
def top_trumps_in_pack(kind, side_mask, pack):
    """The consecutive top trumps of the pack ``pack`` that one side held, counted for the side holding the
    highest (openschafkopf's ``count_laufende``: the trumps outside the pack are skipped)."""
    with_top = ONE + ONE  # not yet read
    count = 0
    for i in range(NUM_TRUMPS[kind]):
        card = TRUMP_ORDER[kind, i]
        shift = np.uint64(card)
        if ((pack >> shift) & ONE) == ZERO:
            continue
        held = (side_mask >> shift) & ONE
        if with_top > ONE:
            with_top = held
        elif held != with_top:
            break
        count += 1
    return count


@inline_njit
def laufende_with(params, at, contract, kind, side_mask, size, pack):
    """Laufende that count for a contract whose declarer side held ``side_mask`` at the start, by the
    tariff of ``params``: the consecutive top trumps of either side, or 0 below the tariff's minimum; a
    Sie counts every card of its hand (``size``)."""
    if contract == SIE:
        return size
    if contract == BETTEL:
        return 0  # no trumps (decision B21)
    count = top_trumps_in_pack(kind, side_mask, pack)
    return count if count >= tariff_entry(params, at, contract, TARIFF_LAUFENDE_FROM) else 0


@inline_njit
def counted_laufende(contract, kind, side_mask):
    """``laufende_with`` of the default game (long pack, card tariff)."""
    return laufende_with(CARD_TARIFF_PARAMS, 0, contract, kind, side_mask, HAND_SIZE, FULL_MASK)


@inline_njit
def value_with(params, at, contract, side_points, side_tricks, laufende, tout_lost, size):
    """Whether the declarer's side wins, and the value per opponent in the tariff of ``params``
    (openschafkopf's payout deciders): base + Schneider (Schwarz twice) + Laufende; a Tout its family's base
    and Laufende doubled, won only with every trick (``size``); a Sie base and every card a Laufender,
    quadrupled, always won."""
    base = tariff_entry(params, at, contract, TARIFF_BASE)
    per_lauf = tariff_entry(params, at, contract, TARIFF_LAUFENDE)
    if contract == SIE:
        return True, SIE_FACTOR * (base + size * per_lauf)
    if contract == BETTEL:
        return side_tricks == 0, base  # won without a trick; no Schneider, no Laufende (decision B21)
    value = base + laufende * per_lauf
    if is_tout(contract):
        return tout_lost == 0 and side_tricks == size, TOUT_FACTOR * value
    schneider = tariff_entry(params, at, contract, TARIFF_SCHNEIDER_SCHWARZ)
    if side_tricks == size or side_tricks == 0:
        value += 2 * schneider  # Schwarz
    elif side_points >= 91 or side_points <= 30:
        value += schneider  # Schneider
    return side_points >= 61, value


@inline_njit
def contract_value(contract, side_points, side_tricks, laufende, tout_lost):
    """``value_with`` of the default game (long pack, card tariff): whether the declarer's side wins, and the
    value in units. ``side_points`` / ``side_tricks`` are the declarer side's card points and tricks,
    ``laufende`` the counted Laufende (0 below the contract's minimum)."""
    return value_with(CARD_TARIFF_PARAMS, 0, contract, side_points, side_tricks, laufende, tout_lost, HAND_SIZE)


@inline_njit
def state_laufende(state, contract, kind, side_mask):
    """``laufende_with`` by the state's own params."""
    return laufende_with(state, S_PARAMS, contract, kind, side_mask, hand_size(state), pack_mask(state))


@inline_njit
def declarer_side_totals(state):
    """Card points and tricks of the declarer's side (declarer plus, in a Rufer, the ace's holder)."""
    declarer = state[S_DECLARER]
    if declarer < 0:  # a Ramsch: nobody declared
        return 0, 0
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
    if contract == RAMSCH:
        settle_ramsch(state, out, stakes_factor(state), hand_size(state))
        return
    points, tricks = declarer_side_totals(state)
    won, value = value_with(state, S_PARAMS, contract, points, tricks, state[S_LAUFENDE], state[S_TOUT_LOST],
                            hand_size(state))
    sign = 1.0 if won else -1.0
    value *= stakes_factor(state)  # each knock, Kontra, Re ... doubles (klopfen, doubling)
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
