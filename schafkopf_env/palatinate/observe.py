"""What each seat of Palatinate Schafkopf observes: the float32 observation vector (blocks:
``layout.observation_layout``, the table of the env's docs page) holding all and only what the seat may
know — the skat a simple-game declarer picked up and their discards only for the declarer, the skat of a
solo for nobody (decision P11).
"""

from __future__ import annotations

import numpy as np

from schafkopf_env.trumps import VOID_SUITS, mark_shown_void
from trick_core.bits import ONE, ZERO, lowest_bit
from trick_core.jit import njit, njit_no_refcount

from . import layout
from .tables import (
    CONTRACT_SIMPLE,
    FULL_POINTS,
    NUM_ACTIVE,
    NUM_CONTRACTS,
    NUM_PHASES,
    NUM_TRICKS,
    PHASE_CONTRA_OFFER,
    PHASE_PLAY,
    SCHENKEN_NONE,
)


@njit_no_refcount
def _put_mask(out, offset, mask):
    m = np.uint64(mask)
    while m != ZERO:
        out[offset + lowest_bit(m)] = 1.0
        m &= m - ONE


@njit
def observe(state, seat, obs_type, out):
    """The float32 observation of ``seat`` (blocks: ``layout.observation_layout``); ``obs_type`` 0 observation,
    1 information_state, 2 perfect. Holds all and only what the seat may know (all for ``perfect``)."""
    out[:] = 0.0
    n = state[layout.S_PLAYERS]
    max_doublings = state[layout.S_MAX_DOUBLINGS]
    declarer = state[layout.S_DECLARER]
    perfect = obs_type == layout.OBS_TYPE_PERFECT
    o = 0
    out[o + (state[layout.S_DEALER] - seat + n) % n] = 1.0
    o += n
    if state[layout.S_SEAT_TO_ACT] >= 0:
        out[o + (state[layout.S_SEAT_TO_ACT] - seat + n) % n] = 1.0
    o += n
    out[o + state[layout.S_PHASE]] = 1.0
    o += NUM_PHASES
    _put_mask(out, o, state[layout.S_HANDS + seat])
    o += layout.CARDS
    for other in range(n):
        position = (other - seat + n) % n
        if state[layout.S_BID_ONE + other] >= 0:
            out[o + position * 5 + state[layout.S_BID_ONE + other]] = 1.0
        if state[layout.S_BID_TWO + other] >= 0:
            out[o + n * 5 + position * 2 + state[layout.S_BID_TWO + other]] = 1.0
    o += n * 7
    if declarer >= 0:
        out[o + (declarer - seat + n) % n] = 1.0
    o += n
    if state[layout.S_CONTRACT] >= 0:
        out[o + state[layout.S_CONTRACT]] = 1.0
    o += NUM_CONTRACTS
    if state[layout.S_TRUMP] >= 0:
        out[o + state[layout.S_TRUMP]] = 1.0
    o += 4
    if state[layout.S_CONTRACT] == CONTRACT_SIMPLE and (seat == declarer or perfect):
        _put_mask(out, o, state[layout.S_SKAT])
        _put_mask(out, o + layout.CARDS, state[layout.S_DISCARDS])
    o += 2 * layout.CARDS
    for other in range(n):
        said = state[layout.S_SCHENKEN + other]
        if said >= 0:
            out[o + ((other - seat + n) % n) * 2 + (1 - said)] = 1.0
    o += n * 2
    if state[layout.S_SCHENKEN_ANSWER] != SCHENKEN_NONE:
        out[o + state[layout.S_SCHENKEN_ANSWER] - 1] = 1.0
    o += 2
    for k in range(state[layout.S_DOUBLINGS]):
        out[o + k * (n + 3) + (state[layout.S_DOUBLER + k] - seat + n) % n] = 1.0
        out[o + k * (n + 3) + n + state[layout.S_DOUBLED_AT + k]] = 1.0
    o += max_doublings * (n + 3)
    for other in range(n):
        _put_mask(out, o + ((other - seat + n) % n) * layout.CARDS, state[layout.S_PLAYED + other])
    o += n * layout.CARDS
    player = state[layout.S_LEADER]
    for i in range(state[layout.S_TRICK_SIZE]):
        out[o + ((player - seat + n) % n) * layout.CARDS + state[layout.S_TRICK_CARDS + i]] = 1.0
        player = state[layout.S_NEXT + player]
    o += n * layout.CARDS
    if PHASE_CONTRA_OFFER <= state[layout.S_PHASE] <= PHASE_PLAY:
        out[o + (state[layout.S_LEADER] - seat + n) % n] = 1.0
    o += n
    for other in range(n):
        position = (other - seat + n) % n
        out[o + position] = state[layout.S_POINTS + other] / float(FULL_POINTS)
        out[o + n + position] = state[layout.S_TRICKS_WON + other] / float(NUM_TRICKS)
    o += 2 * n
    _put_voids(state, seat, n, out, o)
    o += n * VOID_SUITS
    if obs_type == layout.OBS_TYPE_OBSERVATION:
        return
    _put_trick_history(state, seat, n, out, o)
    o += NUM_TRICKS * (n + n * layout.CARDS)
    if obs_type == layout.OBS_TYPE_INFORMATION_STATE:
        return
    for other in range(n):
        _put_mask(out, o + ((other - seat + n) % n) * layout.CARDS, state[layout.S_HANDS + other])
    o += n * layout.CARDS
    _put_mask(out, o, state[layout.S_SKAT])


@njit_no_refcount
def _put_trick_history(state, seat, n, out, o):
    """Per trick (completed, then the one in progress): the leader's position, then each one's card."""
    entry = n + n * layout.CARDS
    for t in range(NUM_TRICKS):
        if t < state[layout.S_TRICK_NUMBER]:
            log = layout.S_TRICK_LOG + t * layout.TRICK_LOG_ENTRY
            leader = state[log]
            size = NUM_ACTIVE
        elif t == state[layout.S_TRICK_NUMBER] and state[layout.S_TRICK_SIZE] > 0:
            log = layout.S_TRICK_CARDS - 1  # so that the cards are at log + 1 + i, as in the trick log
            leader = state[layout.S_LEADER]
            size = state[layout.S_TRICK_SIZE]
        else:
            break
        out[o + t * entry + (leader - seat + n) % n] = 1.0
        player = leader
        for i in range(size):
            out[o + t * entry + n + ((player - seat + n) % n) * layout.CARDS + state[log + 1 + i]] = 1.0
            player = state[layout.S_NEXT + player]


@njit_no_refcount
def _put_voids(state, seat, n, out, o):
    """The ``voids`` block: every card of a completed trick, or of the one in progress, that did not follow
    the led effective suit (``schafkopf_env.trumps.mark_shown_void``)."""
    kind = state[layout.S_TRUMP]
    for t in range(state[layout.S_TRICK_NUMBER] + 1):
        if t < state[layout.S_TRICK_NUMBER]:
            log = layout.S_TRICK_LOG + t * layout.TRICK_LOG_ENTRY
            leader = state[log]
            size = NUM_ACTIVE
        else:
            log = layout.S_TRICK_CARDS - 1  # so that the cards are at log + 1 + i, as in the trick log
            leader = state[layout.S_LEADER]
            size = state[layout.S_TRICK_SIZE]
        player = leader
        for i in range(1, size):
            player = state[layout.S_NEXT + player]
            mark_shown_void(out, o, kind, state[log + 1], state[log + 1 + i], (player - seat + n) % n)
