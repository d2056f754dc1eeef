"""What each seat of Bavarian Schafkopf observes: the float32 observation vector (layout: ``layout.OBS_*``,
the table of the env's docs page) holding all and only what the seat may know.
"""

from __future__ import annotations

from schafkopf_env.trumps import NUM_CARDS
from trick_core.bits import ONE, ZERO, lowest_bit
from trick_core.jit import inline_njit, njit_no_refcount

from .layout import (
    OBS_ALL_HANDS,
    OBS_BIDS,
    OBS_CALLED_DONE,
    OBS_CALLED_SUIT,
    OBS_CONTRACT,
    OBS_DEALER,
    OBS_DEALT_HAND,
    OBS_DECLARER,
    OBS_HAND,
    OBS_HISTORY,
    OBS_HISTORY_TRICK,
    OBS_PARTNER,
    OBS_PHASE,
    OBS_PLAYED,
    OBS_POINTS,
    OBS_TO_ACT,
    OBS_TRICK,
    OBS_TRICK_LEADER,
    OBS_TRICKS_WON,
    OBS_TRUMP,
    OBS_TYPE_OBSERVATION,
    OBS_TYPE_PERFECT,
    S_BIDS,
    S_CALLED_DONE,
    S_CALLED_SUIT,
    S_CONTRACT,
    S_DEALER,
    S_DEALT_HANDS,
    S_DECLARER,
    S_HANDS,
    S_PARTNER,
    S_PARTNER_KNOWN,
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
from .state import card_mask
from .tables import NUM_BIDS, NUM_SEATS, NUM_TRICKS, PASS, PHASE_PLAYING


@inline_njit
def set_cards(out, offset, mask):
    while mask != ZERO:
        card = lowest_bit(mask)
        out[offset + card] = 1.0
        mask &= mask - ONE


@inline_njit
def relative_seat(seat, observer):
    return (seat - observer + NUM_SEATS) % NUM_SEATS


@inline_njit
def partner_known_to(state, observer):
    """The ace holder's seat if ``observer`` knows it (the table knows, or it holds the ace), else -1."""
    partner = state[S_PARTNER]
    if partner >= 0 and (state[S_PARTNER_KNOWN] == 1 or partner == observer):
        return partner
    return -1


@njit_no_refcount
def observe(state, seat, obs_type, out):
    """Float32 observation of ``seat``: all and only what it may know (layout: the ``OBS_*`` table)."""
    out[:] = 0.0
    rel = (relative_seat(0, seat), relative_seat(1, seat), relative_seat(2, seat), relative_seat(3, seat))
    set_cards(out, OBS_HAND, card_mask(state, S_HANDS + seat))
    out[OBS_DEALER + rel[state[S_DEALER]]] = 1.0
    if state[S_SEAT_TO_ACT] >= 0:
        out[OBS_TO_ACT + rel[state[S_SEAT_TO_ACT]]] = 1.0
    out[OBS_PHASE + state[S_PHASE]] = 1.0
    for s in range(NUM_SEATS):
        if state[S_BIDS + s] >= 0:
            out[OBS_BIDS + rel[s] * NUM_BIDS + state[S_BIDS + s]] = 1.0
    if state[S_CONTRACT] != PASS:
        out[OBS_CONTRACT + state[S_CONTRACT] - 1] = 1.0
    if state[S_DECLARER] >= 0:
        out[OBS_DECLARER + rel[state[S_DECLARER]]] = 1.0
    if state[S_TRUMP_KIND] >= 0:
        out[OBS_TRUMP + state[S_TRUMP_KIND]] = 1.0
    if state[S_CALLED_SUIT] >= 0:
        out[OBS_CALLED_SUIT + state[S_CALLED_SUIT]] = 1.0
    partner = partner_known_to(state, seat)
    if partner >= 0:
        out[OBS_PARTNER + rel[partner]] = 1.0
    out[OBS_CALLED_DONE] = state[S_CALLED_DONE]
    completed = state[S_TRICK_NUMBER]
    if state[S_PHASE] == PHASE_PLAYING:
        trick = S_TRICKS + completed * TRICK_RECORD
        leader = state[trick]
        out[OBS_TRICK_LEADER + rel[leader]] = 1.0
        for i in range(state[S_TRICK_SIZE]):
            out[OBS_TRICK + rel[(leader + i) % NUM_SEATS] * NUM_CARDS + state[trick + 1 + i]] = 1.0
    for t in range(completed):
        trick = S_TRICKS + t * TRICK_RECORD
        leader = state[trick]
        for i in range(NUM_SEATS):
            out[OBS_PLAYED + rel[(leader + i) % NUM_SEATS] * NUM_CARDS + state[trick + 1 + i]] = 1.0
    for s in range(NUM_SEATS):
        out[OBS_POINTS + rel[s]] = state[S_POINTS + s] / 120.0
        out[OBS_TRICKS_WON + rel[s]] = state[S_TRICKS_WON + s] / NUM_TRICKS
    if obs_type == OBS_TYPE_OBSERVATION:
        return
    set_cards(out, OBS_DEALT_HAND, card_mask(state, S_DEALT_HANDS + seat))
    for t in range(completed):
        trick = S_TRICKS + t * TRICK_RECORD
        leader = state[trick]
        base = OBS_HISTORY + t * OBS_HISTORY_TRICK
        out[base + rel[leader]] = 1.0
        for i in range(NUM_SEATS):
            out[base + NUM_SEATS + rel[(leader + i) % NUM_SEATS] * NUM_CARDS + state[trick + 1 + i]] = 1.0
    if obs_type == OBS_TYPE_PERFECT:
        for s in range(NUM_SEATS):
            set_cards(out, OBS_ALL_HANDS + rel[s] * NUM_CARDS, card_mask(state, S_HANDS + s))
