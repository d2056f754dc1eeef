"""What each seat of Bavarian Schafkopf observes: the float32 observation vector (blocks: ``layout.observation_layout``,
the table of the env's docs page) holding all and only what the seat may know.
"""

from __future__ import annotations

from schafkopf_env.trumps import NUM_CARDS, NUM_TRUMP_KINDS, TRUMP_FARBWENZ, TRUMP_GEIER, mark_shown_void
from trick_core.bits import ONE, ZERO, lowest_bit
from trick_core.jit import inline_njit, njit_no_refcount
from trick_core.layout import card_mask

from . import layout
from .doubling import in_card_play
from .state import hand_size
from .tables import (
    GEIER,
    NUM_BIDS,
    NUM_SEATS,
    PARAM_CONTRACTS,
    PARAM_KLOPFEN,
    PARAM_MAX_DOUBLINGS,
    PASS,
    PHASE_BIDDING,
    PHASE_CONTRA_OFFER,
    PHASE_DOUBLING_ROUND,
    PHASE_KLOPFEN,
    PHASE_PLAYING,
)


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


@inline_njit
def observe_voids(state, rel, in_progress, out):
    """The ``voids`` block: every card of a completed trick, or of the one ``in_progress``, that did not
    follow the led effective suit (``schafkopf_env.trumps.mark_shown_void``)."""
    kind = state[layout.S_TRUMP_KIND]
    completed = state[layout.S_TRICK_NUMBER]
    for t in range(completed + 1 if in_progress else completed):
        trick = layout.S_TRICKS + t * layout.TRICK_RECORD
        size = NUM_SEATS if t < completed else state[layout.S_TRICK_SIZE]
        for i in range(1, size):
            position = rel[(state[trick] + i) % NUM_SEATS]
            mark_shown_void(out, layout.OBS_VOIDS, kind, state[trick + 1], state[trick + 1 + i], position)


@njit_no_refcount
def observe(state, seat, obs_type, out):
    """Float32 observation of ``seat``: all and only what it may know (``layout.observation_layout``)."""
    out[:] = 0.0
    rel = (relative_seat(0, seat), relative_seat(1, seat), relative_seat(2, seat), relative_seat(3, seat))
    phase = state[layout.S_PHASE]
    klopfen = phase == PHASE_KLOPFEN  # the seat has seen the first half of its hand only
    own = card_mask(state, layout.S_FIRST_CARDS + seat) if klopfen else card_mask(state, layout.S_HANDS + seat)
    set_cards(out, layout.OBS_HAND, own)
    out[layout.OBS_DEALER + rel[state[layout.S_DEALER]]] = 1.0
    if state[layout.S_SEAT_TO_ACT] >= 0:
        out[layout.OBS_TO_ACT + rel[state[layout.S_SEAT_TO_ACT]]] = 1.0
    shown = PHASE_PLAYING if in_card_play(phase) else (PHASE_BIDDING if klopfen else phase)
    out[layout.OBS_PHASE + shown] = 1.0
    for s in range(NUM_SEATS):
        if 0 <= state[layout.S_BIDS + s] < NUM_BIDS:  # the options' bids: their own block
            out[layout.OBS_BIDS + rel[s] * NUM_BIDS + state[layout.S_BIDS + s]] = 1.0
    if state[layout.S_CONTRACT] != PASS and state[layout.S_CONTRACT] < NUM_BIDS:  # a Ramsch shows none
        out[layout.OBS_CONTRACT + state[layout.S_CONTRACT] - 1] = 1.0
    if state[layout.S_DECLARER] >= 0:
        out[layout.OBS_DECLARER + rel[state[layout.S_DECLARER]]] = 1.0
    kind = state[layout.S_TRUMP_KIND]
    if 0 <= kind < NUM_TRUMP_KINDS:
        out[layout.OBS_TRUMP + kind] = 1.0
    elif TRUMP_FARBWENZ <= kind < TRUMP_GEIER:  # a Farbwenz shows its suit (the contract says the rest)
        out[layout.OBS_TRUMP + kind - TRUMP_FARBWENZ] = 1.0
    if state[layout.S_CALLED_SUIT] >= 0:
        out[layout.OBS_CALLED_SUIT + state[layout.S_CALLED_SUIT]] = 1.0
    partner = partner_known_to(state, seat)
    if partner >= 0:
        out[layout.OBS_PARTNER + rel[partner]] = 1.0
    out[layout.OBS_CALLED_DONE] = state[layout.S_CALLED_DONE]
    completed = state[layout.S_TRICK_NUMBER]
    if in_card_play(phase):
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
    observe_voids(state, rel, in_card_play(phase), out)
    tricks = hand_size(state)
    for s in range(NUM_SEATS):
        out[layout.OBS_POINTS + rel[s]] = state[layout.S_POINTS + s] / 120.0
        out[layout.OBS_TRICKS_WON + rel[s]] = state[layout.S_TRICKS_WON + s] / tricks
    shift = 0  # the options' blocks (doubling, klopfen) follow; the information state's lie after them
    if state[layout.S_PARAMS + PARAM_MAX_DOUBLINGS] > 0:
        if phase == PHASE_CONTRA_OFFER:
            out[layout.OBS_EXTRA] = 1.0
        elif phase == PHASE_DOUBLING_ROUND:
            out[layout.OBS_EXTRA + 1] = 1.0
        for k in range(state[layout.S_DOUBLINGS]):
            out[layout.OBS_EXTRA + 2 + k * NUM_SEATS + rel[state[layout.S_DOUBLERS + k]]] = 1.0
        shift += layout.DOUBLING_OBS_SIZE
    if state[layout.S_PARAMS + PARAM_KLOPFEN] > 0:
        out[layout.OBS_EXTRA + shift] = 1.0 if klopfen else 0.0
        for s in range(NUM_SEATS):
            out[layout.OBS_EXTRA + shift + 1 + rel[s]] = state[layout.S_KNOCKED + s]
        shift += layout.KLOPFEN_OBS_SIZE
    if state[layout.S_PARAMS + PARAM_CONTRACTS] > 0:
        at = layout.OBS_EXTRA + shift
        for s in range(NUM_SEATS):
            if state[layout.S_BIDS + s] >= GEIER:
                out[at + rel[s] * layout.NUM_EXTRA_CONTRACTS + state[layout.S_BIDS + s] - GEIER] = 1.0
        if state[layout.S_CONTRACT] >= GEIER:
            out[at + NUM_SEATS * layout.NUM_EXTRA_CONTRACTS + state[layout.S_CONTRACT] - GEIER] = 1.0
        shift += layout.CONTRACT_OBS_SIZE
    if obs_type == layout.OBS_TYPE_OBSERVATION:
        return
    dealt = own if klopfen else card_mask(state, layout.S_DEALT_HANDS + seat)
    set_cards(out, shift + layout.OBS_DEALT_HAND, dealt)
    for t in range(completed):
        trick = layout.S_TRICKS + t * layout.TRICK_RECORD
        leader = state[trick]
        base = shift + layout.OBS_HISTORY + t * layout.OBS_HISTORY_TRICK
        out[base + rel[leader]] = 1.0
        for i in range(NUM_SEATS):
            out[base + NUM_SEATS + rel[(leader + i) % NUM_SEATS] * NUM_CARDS + state[trick + 1 + i]] = 1.0
    if obs_type == layout.OBS_TYPE_PERFECT:
        for s in range(NUM_SEATS):
            set_cards(out, shift + layout.OBS_ALL_HANDS + rel[s] * NUM_CARDS, card_mask(state, layout.S_HANDS + s))
