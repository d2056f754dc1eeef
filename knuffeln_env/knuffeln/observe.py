"""What each seat of Knüffeln observes: the float32 observation vector (blocks: ``layout.observation_layout``,
the table of the env's docs page) holding all and only what the seat may know.

Seats are relative: index 0 of a per-seat block is the observer, 1 the player to its left, and so on. A
face-down card is seen only by its turner until accepted (decision K8); a shown card's identity only by
the shower's partners (``docs/rules/knuffeln.md#7-table-talk``).
"""

from __future__ import annotations

from trick_core.bits import lowest_bit
from trick_core.jit import inline_njit, njit_no_refcount

from .layout import (
    MAX_TALK,
    NUM_COUNTERS,
    NUM_DEALER_CHOICES,
    NUM_FLAGS,
    NUM_RESULT_FEATURES,
    OBS_INFORMATION_STATE,
    OBS_PERFECT,
    S_ACCEPTED,
    S_ACCEPTED_BY,
    S_COMMITTED,
    S_DEALER,
    S_DEALER_MODE,
    S_DEALER_SEEN_MASK,
    S_EXCHANGED_IN,
    S_EXCHANGED_OUT,
    S_FACE_DOWN_CARD,
    S_FACE_UP_MASK,
    S_FIRST_SUIT,
    S_HANDS,
    S_JANN_PENDING,
    S_LEADER,
    S_OLE_POSITION,
    S_OUT_MASK,
    S_PHASE,
    S_PLAYED,
    S_PLAYERS,
    S_PUBLIC_STOCK_MASK,
    S_RESULT_KIND,
    S_SEAT_TO_ACT,
    S_SECOND_SUIT,
    S_STOCK,
    S_STOCK_MASK,
    S_TALK,
    S_TALK_ACTION,
    S_TALK_COUNT,
    S_TALK_SEAT,
    S_TARGET,
    S_TEAM,
    S_TEAM_TRICKS,
    S_TOKENS,
    S_TRICK_CARD,
    S_TRICK_FACE_DOWN,
    S_TRICK_LOG,
    S_TRICK_NUMBER,
    S_TRICK_SEAT,
    S_TRICK_SIZE,
    S_TURNED_MASK,
    S_TURNER,
    S_WINNER_TEAM,
    TALK_CARD_FEATURES,
    TRICK_LOG_WIDTH,
)
from .scoring import stake
from .state import teammates
from .tables import (
    ACTION_MISC,
    ACTION_SAY,
    ACTION_SHOW,
    ACTION_SILENT,
    ACTION_TOKEN,
    MAX_TRICKS,
    NUM_CARDS,
    NUM_PHASES,
    NUM_PHRASES,
    NUM_RANKS,
    NUM_SUITS,
    PHASE_ANSWER,
    PHASE_OLE_EXCHANGE,
    PHASE_OVER,
    TALK_LEXICON,
    TALK_OFF,
)


@inline_njit
def put_mask(out, offset, mask):
    while mask:
        out[offset + lowest_bit(mask)] = 1.0
        mask &= mask - 1


@inline_njit
def reference_team(state, seat):
    """The observer's team; a seat that sits out takes the team of the player to its left (decision K13)."""
    team = state[S_TEAM + seat]
    if team < 0:
        team = state[S_TEAM + (seat + 1) % state[S_PLAYERS]]
    return max(team, 0)  # before the five-player dealer has chosen, nobody has a team yet


@njit_no_refcount
def observe(state, seat, obs_type, out):
    """Fill ``out`` (float32) with what ``seat`` may know; returns the number of entries written."""
    out[:] = 0.0
    n = state[S_PLAYERS]
    c = NUM_CARDS
    o = 0
    my_team = reference_team(state, seat)
    out[o + (state[S_DEALER] - seat) % n] = 1.0
    o += n
    for rel in range(n):
        other = (seat + rel) % n
        if state[S_TEAM + other] >= 0 and state[S_TEAM + other] == my_team:
            out[o + rel] = 1.0
        if state[S_TEAM + other] >= 0:
            out[o + n + rel] = 1.0
    o += 2 * n
    out[o + state[S_PHASE]] = 1.0
    o += NUM_PHASES
    if state[S_SEAT_TO_ACT] >= 0:
        out[o + (state[S_SEAT_TO_ACT] - seat) % n] = 1.0
    o += n
    out[o + state[S_FIRST_SUIT]] = 1.0
    out[o + NUM_SUITS + state[S_SECOND_SUIT]] = 1.0
    o += 2 * NUM_SUITS
    put_mask(out, o, state[S_HANDS + seat])
    put_mask(out, o + c, state[S_TURNED_MASK])
    put_mask(out, o + 2 * c, state[S_FACE_UP_MASK])
    put_mask(out, o + 3 * c, state[S_PUBLIC_STOCK_MASK])
    known_stock = state[S_PUBLIC_STOCK_MASK]
    if seat == state[S_DEALER]:
        known_stock |= state[S_DEALER_SEEN_MASK]
    put_mask(out, o + 4 * c, known_stock & state[S_STOCK_MASK])
    put_mask(out, o + 5 * c, state[S_OUT_MASK])
    o += 6 * c
    for rel in range(n):
        other = (seat + rel) % n
        put_mask(out, o + rel * c, state[S_EXCHANGED_IN + other])
        put_mask(out, o + (n + rel) * c, state[S_EXCHANGED_OUT + other])
    o += 2 * n * c
    if n == 5:
        out[o + state[S_DEALER_MODE]] = 1.0
    o += NUM_DEALER_CHOICES
    if state[S_PHASE] == PHASE_OLE_EXCHANGE:
        out[o + state[S_STOCK + state[S_OLE_POSITION]]] = 1.0
    o += c
    for rel in range(n):
        other = (seat + rel) % n
        put_mask(out, o + rel * c, state[S_PLAYED + other])
    o += n * c
    for k in range(state[S_TRICK_SIZE]):
        if k == 0 and state[S_TRICK_FACE_DOWN]:
            continue
        rel = (state[S_TRICK_SEAT + k] - seat) % n
        out[o + rel * c + state[S_TRICK_CARD + k]] = 1.0
    o += n * c
    if state[S_TRICK_SIZE] > 0:
        out[o + (state[S_LEADER] - seat) % n] = 1.0
    o += n
    if state[S_TRICK_FACE_DOWN] and state[S_PHASE] == PHASE_ANSWER:
        out[o + (state[S_TURNER] - seat) % n] = 1.0
    o += n
    if state[S_FACE_DOWN_CARD] >= 0 and state[S_TURNER] == seat:
        out[o + state[S_FACE_DOWN_CARD]] = 1.0
    o += c
    other_team = 1 - my_team
    out[o] = state[S_TEAM_TRICKS + my_team]
    out[o + 1] = state[S_TEAM_TRICKS + other_team]
    out[o + 2] = state[S_TARGET + my_team]
    out[o + 3] = state[S_TARGET + other_team]
    out[o + 4] = state[S_TRICK_NUMBER]
    out[o + 5] = state[S_ACCEPTED]
    out[o + 6] = state[S_ACCEPTED_BY + my_team]
    out[o + 7] = state[S_ACCEPTED_BY + other_team]
    out[o + 8] = stake(state)
    o += NUM_COUNTERS
    if state[S_JANN_PENDING]:
        out[o + (0 if state[S_TEAM + state[S_SEAT_TO_ACT]] == my_team else 1)] = 1.0
    if state[S_COMMITTED] >= 0:
        out[o + (2 if state[S_COMMITTED] == my_team else 3)] = 1.0
    o += NUM_FLAGS
    if state[S_PHASE] == PHASE_OVER:
        out[o] = 1.0
        if state[S_TEAM + seat] >= 0:
            out[o + (1 if state[S_WINNER_TEAM] == my_team else 2)] = 1.0
        out[o + 2 + state[S_RESULT_KIND]] = 1.0
    o += NUM_RESULT_FEATURES
    talk_mode = state[S_TALK]
    if talk_mode != TALK_OFF:
        vocabulary = 2 + NUM_PHRASES if talk_mode == TALK_LEXICON else 1 + state[S_TOKENS]
        width = n + vocabulary + TALK_CARD_FEATURES
        for k in range(state[S_TALK_COUNT]):
            slot = o + k * width
            speaker = state[S_TALK_SEAT + k]
            action = state[S_TALK_ACTION + k]
            out[slot + (speaker - seat) % n] = 1.0
            if action == ACTION_SILENT:
                utterance = 0
            elif ACTION_SAY <= action < ACTION_TOKEN:
                utterance = action - ACTION_SAY + 1
            elif action >= ACTION_TOKEN:
                utterance = action - ACTION_TOKEN + 1
            else:
                utterance = 1 + NUM_PHRASES
            out[slot + n + utterance] = 1.0
            if ACTION_SHOW <= action < ACTION_MISC and (speaker == seat or teammates(state, speaker, seat)):
                card = action - ACTION_SHOW
                out[slot + n + vocabulary + card // NUM_RANKS] = 1.0
                out[slot + n + vocabulary + NUM_SUITS + card % NUM_RANKS] = 1.0
        o += MAX_TALK * width
    if obs_type >= OBS_INFORMATION_STATE:
        width = n + n * c + 1
        for t in range(state[S_TRICK_NUMBER]):
            log = S_TRICK_LOG + t * TRICK_LOG_WIDTH
            slot = o + t * width
            out[slot + (state[log] - seat) % n] = 1.0
            for other in range(n):
                card = state[log + 3 + other]
                if card >= 0:
                    out[slot + n + ((other - seat) % n) * c + card] = 1.0
            out[slot + n + n * c] = state[log + 2]
        o += MAX_TRICKS * width
    if obs_type == OBS_PERFECT:
        for rel in range(n):
            put_mask(out, o + rel * c, state[S_HANDS + (seat + rel) % n])
        o += n * c
        put_mask(out, o, state[S_STOCK_MASK])
        o += c
        if state[S_FACE_DOWN_CARD] >= 0:
            out[o + state[S_FACE_DOWN_CARD]] = 1.0
        o += c
    return o
