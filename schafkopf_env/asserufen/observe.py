"""What each seat of Asserufen observes: the float32 observation vector (the segments of
``layout.observation_layout``, the table of the env's docs page) holding all
and only what the seat may know. Seats are relative to the viewer: 0 self, 1 left, 2 across, 3 right.
"""

from __future__ import annotations

from schafkopf_env.trumps import NUM_CARDS, VOID_SUITS, mark_shown_void
from trick_core.bits import ONE, ZERO, lowest_bit
from trick_core.jit import inline_njit, njit_no_refcount
from trick_core.layout import card_mask

from . import layout
from .tables import (
    ACTION_ACCEPT,
    CONTRACT_ACE_CALL,
    CONTRACT_NONE,
    MAX_DOUBLINGS_LIMIT,
    NUM_PHASES,
    NUM_SEATS,
    NUM_TRICKS,
    PHASE_OFFER,
    PHASE_PLAY,
    PHASE_ROUND,
)


@inline_njit
def put_cards(out, at, mask):
    rest = mask
    while rest != ZERO:
        out[at + lowest_bit(rest)] = 1.0
        rest &= rest - ONE


@inline_njit
def relative_seat(seat, viewer):
    return (seat - viewer) % NUM_SEATS


@inline_njit
def put_seat(out, at, seat, viewer):
    if seat >= 0:
        out[at + relative_seat(seat, viewer)] = 1.0


@inline_njit
def partner_known_to(state, viewer):
    """The partnership is public, or ``viewer`` is the holder of the called card."""
    if state[layout.S_CONTRACT] != CONTRACT_ACE_CALL or state[layout.S_CALLED_CARD] < 0:
        return False
    return state[layout.S_PARTNER_KNOWN] == 1 or viewer == state[layout.S_PARTNER]


@inline_njit
def trick_in_progress(state):
    """Whether a trick is being played (or about to be, at a contra offer or a round of asking)."""
    phase = state[layout.S_PHASE]
    return phase == PHASE_OFFER or phase == PHASE_ROUND or phase == PHASE_PLAY


@njit_no_refcount
def observe(state, viewer, obs_type, out):
    """float32 observation of ``viewer`` (``obs_type`` 0 observation, 1 information_state, 2 perfect)."""
    out[:] = 0.0
    at = observe_table(state, viewer, out)
    at = observe_cards(state, viewer, out, at)
    if obs_type == layout.OBS_TYPE_OBSERVATION:
        return
    at = observe_history(state, viewer, out, at)
    if obs_type == layout.OBS_TYPE_INFORMATION_STATE:
        return
    for seat in range(NUM_SEATS):
        put_cards(out, at + relative_seat(seat, viewer) * NUM_CARDS, card_mask(state, layout.S_HANDS + seat))


@inline_njit
def observe_table(state, viewer, out):
    """The segments from the own hand to the doubles said (the bidding, the contract, the partnership);
    returns the offset after them."""
    at = 0
    put_cards(out, at, card_mask(state, layout.S_HANDS + viewer))
    at += NUM_CARDS
    put_seat(out, at, state[layout.S_DEALER], viewer)
    at += NUM_SEATS
    out[at + state[layout.S_PHASE]] = 1.0
    at += NUM_PHASES
    put_seat(out, at, state[layout.S_SEAT_TO_ACT], viewer)
    at += NUM_SEATS
    for seat in range(NUM_SEATS):
        out[at + relative_seat(seat, viewer) * layout.BID_SLOTS + state[layout.S_BIDS + seat] + 1] = 1.0
    at += NUM_SEATS * layout.BID_SLOTS
    if state[layout.S_ANSWER] >= 0:
        out[at + state[layout.S_ANSWER] - ACTION_ACCEPT] = 1.0
    at += 2
    if state[layout.S_CONTRACT] != CONTRACT_NONE:
        out[at + state[layout.S_CONTRACT] - 1] = 1.0
    at += 5
    put_seat(out, at, state[layout.S_DECLARER], viewer)
    at += NUM_SEATS
    if state[layout.S_TRUMP_KIND] >= 0:
        out[at + state[layout.S_TRUMP_KIND]] = 1.0
    at += 4
    if state[layout.S_CALLED_CARD] >= 0:
        out[at + state[layout.S_CALLED_CARD]] = 1.0
    at += NUM_CARDS
    out[at] = float(state[layout.S_PARTNER_KNOWN])
    at += 1
    if partner_known_to(state, viewer):
        put_seat(out, at, state[layout.S_PARTNER], viewer)
    at += NUM_SEATS
    out[at] = float(state[layout.S_CALLED_SUIT_DONE])
    out[at + 1] = float(state[layout.S_RAN_AWAY])
    at += 2
    out[at] = float(state[layout.S_DOUBLINGS])
    at += 1
    for k in range(state[layout.S_DOUBLINGS]):
        out[at + relative_seat(state[layout.S_DOUBLERS + k], viewer)] += 1.0
    return at + NUM_SEATS


@inline_njit
def observe_cards(state, viewer, out, at):
    """The segments from the current trick to the tricks completed; returns the offset after them."""
    trick = state[layout.S_TRICK_NUMBER]
    if trick_in_progress(state):
        leader = state[layout.S_TRICK_LEADERS + trick]
        put_seat(out, at, leader, viewer)
        for i in range(state[layout.S_TRICK_SIZE]):
            seat = (leader + i) % NUM_SEATS
            card = state[layout.S_TRICK_CARDS + trick * NUM_SEATS + i]
            out[at + NUM_SEATS + relative_seat(seat, viewer) * NUM_CARDS + card] = 1.0
    at += NUM_SEATS + NUM_SEATS * NUM_CARDS
    for seat in range(NUM_SEATS):
        put_cards(out, at + relative_seat(seat, viewer) * NUM_CARDS, card_mask(state, layout.S_PLAYED_BY + seat))
    at += NUM_SEATS * NUM_CARDS
    for seat in range(NUM_SEATS):
        out[at + relative_seat(seat, viewer)] = float(state[layout.S_TRICKS_WON + seat])
        out[at + NUM_SEATS + relative_seat(seat, viewer)] = float(state[layout.S_POINTS + seat])
    at += 2 * NUM_SEATS
    out[at] = float(state[layout.S_TRICK_NUMBER])
    observe_voids(state, viewer, trick_in_progress(state), out, at + 1)
    return at + 1 + NUM_SEATS * VOID_SUITS


@inline_njit
def observe_voids(state, viewer, in_progress, out, at):
    """The ``voids`` block: every card of a completed trick, or of the one ``in_progress``, that did not
    follow the led effective suit (``schafkopf_env.trumps.mark_shown_void``)."""
    kind = state[layout.S_TRUMP_KIND]
    completed = state[layout.S_TRICK_NUMBER]
    for t in range(completed + 1 if in_progress else completed):
        leader = state[layout.S_TRICK_LEADERS + t]
        cards = layout.S_TRICK_CARDS + t * NUM_SEATS
        size = NUM_SEATS if t < completed else state[layout.S_TRICK_SIZE]
        for i in range(1, size):
            position = relative_seat((leader + i) % NUM_SEATS, viewer)
            mark_shown_void(out, at, kind, state[cards], state[cards + i], position)


@inline_njit
def observe_history(state, viewer, out, at):
    """The information state's perfect recall: every completed trick and the order of the doubles;
    returns the offset after them."""
    for t in range(state[layout.S_TRICK_NUMBER]):
        base = at + t * layout.OBS_HISTORY_TRICK
        leader = state[layout.S_TRICK_LEADERS + t]
        put_seat(out, base, leader, viewer)
        for i in range(NUM_SEATS):
            seat = (leader + i) % NUM_SEATS
            card = state[layout.S_TRICK_CARDS + t * NUM_SEATS + i]
            out[base + NUM_SEATS + relative_seat(seat, viewer) * NUM_CARDS + card] = 1.0
        put_seat(out, base + NUM_SEATS + NUM_SEATS * NUM_CARDS, state[layout.S_TRICK_WINNERS + t], viewer)
    at += NUM_TRICKS * layout.OBS_HISTORY_TRICK
    for k in range(state[layout.S_DOUBLINGS]):
        put_seat(out, at + k * NUM_SEATS, state[layout.S_DOUBLERS + k], viewer)
    return at + MAX_DOUBLINGS_LIMIT * NUM_SEATS
