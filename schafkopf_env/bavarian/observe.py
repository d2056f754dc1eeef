"""What each seat of Bavarian Schafkopf observes: the float32 observation vector (blocks: ``layout.observation_layout``,
the table of the env's docs page) holding all and only what the seat may know.
"""

from __future__ import annotations

from schafkopf_env.trumps import NUM_CARDS
from trick_core.bits import ONE, ZERO, lowest_bit
from trick_core.jit import inline_njit, njit_no_refcount
from trick_core.layout import card_mask

from . import layout
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
    partner = state[layout.S_PARTNER]
    if partner >= 0 and (state[layout.S_PARTNER_KNOWN] == 1 or partner == observer):
        return partner
    return -1


@njit_no_refcount
def observe(state, seat, obs_type, out):
    """Float32 observation of ``seat``: all and only what it may know (``layout.observation_layout``)."""
    out[:] = 0.0
    rel = (relative_seat(0, seat), relative_seat(1, seat), relative_seat(2, seat), relative_seat(3, seat))
    set_cards(out, layout.OBS_HAND, card_mask(state, layout.S_HANDS + seat))
    out[layout.OBS_DEALER + rel[state[layout.S_DEALER]]] = 1.0
    if state[layout.S_SEAT_TO_ACT] >= 0:
        out[layout.OBS_TO_ACT + rel[state[layout.S_SEAT_TO_ACT]]] = 1.0
    out[layout.OBS_PHASE + state[layout.S_PHASE]] = 1.0
    for s in range(NUM_SEATS):
        if state[layout.S_BIDS + s] >= 0:
            out[layout.OBS_BIDS + rel[s] * NUM_BIDS + state[layout.S_BIDS + s]] = 1.0
    if state[layout.S_CONTRACT] != PASS:
        out[layout.OBS_CONTRACT + state[layout.S_CONTRACT] - 1] = 1.0
    if state[layout.S_DECLARER] >= 0:
        out[layout.OBS_DECLARER + rel[state[layout.S_DECLARER]]] = 1.0
    if state[layout.S_TRUMP_KIND] >= 0:
        out[layout.OBS_TRUMP + state[layout.S_TRUMP_KIND]] = 1.0
    if state[layout.S_CALLED_SUIT] >= 0:
        out[layout.OBS_CALLED_SUIT + state[layout.S_CALLED_SUIT]] = 1.0
    partner = partner_known_to(state, seat)
    if partner >= 0:
        out[layout.OBS_PARTNER + rel[partner]] = 1.0
    out[layout.OBS_CALLED_DONE] = state[layout.S_CALLED_DONE]
    completed = state[layout.S_TRICK_NUMBER]
    if state[layout.S_PHASE] == PHASE_PLAYING:
        trick = layout.S_TRICKS + completed * layout.TRICK_RECORD
        leader = state[trick]
        out[layout.OBS_TRICK_LEADER + rel[leader]] = 1.0
        for i in range(state[layout.S_TRICK_SIZE]):
            out[layout.OBS_TRICK + rel[(leader + i) % NUM_SEATS] * NUM_CARDS + state[trick + 1 + i]] = 1.0
    for t in range(completed):
        trick = layout.S_TRICKS + t * layout.TRICK_RECORD
        leader = state[trick]
        for i in range(NUM_SEATS):
            out[layout.OBS_PLAYED + rel[(leader + i) % NUM_SEATS] * NUM_CARDS + state[trick + 1 + i]] = 1.0
    for s in range(NUM_SEATS):
        out[layout.OBS_POINTS + rel[s]] = state[layout.S_POINTS + s] / 120.0
        out[layout.OBS_TRICKS_WON + rel[s]] = state[layout.S_TRICKS_WON + s] / NUM_TRICKS
    if obs_type == layout.OBS_TYPE_OBSERVATION:
        return
    set_cards(out, layout.OBS_DEALT_HAND, card_mask(state, layout.S_DEALT_HANDS + seat))
    for t in range(completed):
        trick = layout.S_TRICKS + t * layout.TRICK_RECORD
        leader = state[trick]
        base = layout.OBS_HISTORY + t * layout.OBS_HISTORY_TRICK
        out[base + rel[leader]] = 1.0
        for i in range(NUM_SEATS):
            out[base + NUM_SEATS + rel[(leader + i) % NUM_SEATS] * NUM_CARDS + state[trick + 1 + i]] = 1.0
    if obs_type == layout.OBS_TYPE_PERFECT:
        for s in range(NUM_SEATS):
            set_cards(out, layout.OBS_ALL_HANDS + rel[s] * NUM_CARDS, card_mask(state, layout.S_HANDS + s))
