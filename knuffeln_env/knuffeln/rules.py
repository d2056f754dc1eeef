"""The rules of Knüffeln by phase, joined: the legal actions of the seat to act and the effect of an
action, as inline functions (the bodies live in ``deal``, ``exchanges``, ``talk``, ``play``, ``turning``
and ``scoring``).

Legal actions are computed as sets (``legal_sets``): four card masks (play, turn, exchange, show), one
32-bit mask of actions 192..223 (``misc``) and a count of tokens. The action mask, the legality check,
the uniformly random action of a playout and the heuristic policy all read these sets, so a random
playout draws an action with a few popcounts and one select (``random_step``).
"""

from __future__ import annotations

import numpy as np

from trick_core.bits import lowest_bit, nth_bit, popcount, uniform_below
from trick_core.jit import inline_njit, njit_no_refcount
from trick_core.layout import record_action

from .deal import choose_dealer_game
from .exchanges import decline_ole, decline_ten, exchange_ten, take_ole, ten_exchange_cards
from .layout import (
    S_HANDS,
    S_HISTORY_ACTIONS,
    S_HISTORY_LENGTH,
    S_HISTORY_SEATS,
    S_JANN_PENDING,
    S_OLE_ENTITLED,
    S_PHASE,
    S_SEAT_TO_ACT,
    S_TRICK_SIZE,
)
from .play import follow, lead
from .scoring import take_jann
from .tables import (
    ACTION_ACCEPT,
    ACTION_DECLINE,
    ACTION_EXCHANGE,
    ACTION_FLEE,
    ACTION_MISC,
    ACTION_PLAY,
    ACTION_PLAY_ALONE,
    ACTION_SHOW,
    ACTION_SIT_OUT,
    ACTION_STOP,
    ACTION_TAKE_OLE,
    ACTION_TOKEN,
    ACTION_TURN,
    PHASE_ANSWER,
    PHASE_DEALER_CHOICE,
    PHASE_OLE_EXCHANGE,
    PHASE_PLAY,
    PHASE_TALK,
    PHASE_TEN_EXCHANGE,
)
from .talk import legal_utterances, speak
from .turning import accept, flee, may_turn


@inline_njit
def misc_bit(action):
    """The bit of one of the actions 192..223 in the ``misc`` mask."""
    return np.int64(1) << (action - ACTION_MISC)


@inline_njit
def legal_sets(state):
    """The legal actions as (play, turn, exchange, show) card masks, a 32-bit mask of actions 192..223
    and the number of legal tokens (all empty once the hand is over)."""
    phase = state[S_PHASE]
    seat = state[S_SEAT_TO_ACT]
    play = turn = exchange = show = misc = tokens = np.int64(0)
    if seat < 0:
        return play, turn, exchange, show, misc, tokens
    hand = state[S_HANDS + seat]
    if phase == PHASE_PLAY:
        play = hand
        if state[S_TRICK_SIZE] == 0:
            if may_turn(state, seat):
                turn = hand
            if state[S_JANN_PENDING]:
                misc |= misc_bit(ACTION_STOP)
    elif phase == PHASE_TALK:
        show, misc, tokens = legal_utterances(state, hand)
    elif phase == PHASE_ANSWER:
        misc |= misc_bit(ACTION_ACCEPT) | misc_bit(ACTION_FLEE)
    elif phase == PHASE_TEN_EXCHANGE:
        exchange = ten_exchange_cards(state, seat)
        misc |= misc_bit(ACTION_DECLINE)
    elif phase == PHASE_OLE_EXCHANGE:
        misc |= misc_bit(ACTION_DECLINE)
        if seat == state[S_OLE_ENTITLED]:
            misc |= misc_bit(ACTION_TAKE_OLE)
    elif phase == PHASE_DEALER_CHOICE:
        misc |= misc_bit(ACTION_PLAY_ALONE) | misc_bit(ACTION_SIT_OUT)
    return play, turn, exchange, show, misc, tokens


@inline_njit
def fill_action_mask(state, out):
    """Fill the int8 ``out`` with the legal actions of the seat to act (all zero when over)."""
    out[:] = 0
    play, turn, exchange, show, misc, tokens = legal_sets(state)
    for base, mask in ((ACTION_PLAY, play), (ACTION_TURN, turn), (ACTION_EXCHANGE, exchange), (ACTION_SHOW, show)):
        while mask:
            out[base + lowest_bit(mask)] = 1
            mask &= mask - 1
    while misc:
        out[ACTION_MISC + lowest_bit(misc)] = 1
        misc &= misc - 1
    for k in range(tokens):
        out[ACTION_TOKEN + k] = 1


@njit_no_refcount
def is_legal(state, action):
    """Whether ``action`` is legal for the seat to act."""
    play, turn, exchange, show, misc, tokens = legal_sets(state)
    if action < ACTION_TURN:
        return (play >> action) & 1 == 1
    if action < ACTION_EXCHANGE:
        return (turn >> (action - ACTION_TURN)) & 1 == 1
    if action < ACTION_SHOW:
        return (exchange >> (action - ACTION_EXCHANGE)) & 1 == 1
    if action < ACTION_MISC:
        return (show >> (action - ACTION_SHOW)) & 1 == 1
    if action < ACTION_TOKEN:
        return (misc >> (action - ACTION_MISC)) & 1 == 1
    return action - ACTION_TOKEN < tokens


_BLOCK_STARTS = (ACTION_PLAY, ACTION_TURN, ACTION_EXCHANGE, ACTION_SHOW, ACTION_MISC)
"""The first action of each block of ``draw_legal_action``, in its order."""


@inline_njit
def draw_legal_action(state, rng):
    """A uniformly drawn legal action, straight from the legal sets (one draw, no mask array): the r-th
    legal action in action order, over the card blocks (play, turn, exchange, show), the misc actions and
    the tokens."""
    play, turn, exchange, show, misc, tokens = legal_sets(state)
    masks = (play, turn, exchange, show, misc)
    counts = (popcount(play), popcount(turn), popcount(exchange), popcount(show), popcount(misc))
    r = uniform_below(rng, counts[0] + counts[1] + counts[2] + counts[3] + counts[4] + tokens)
    for block in range(5):
        if r < counts[block]:
            return _BLOCK_STARTS[block] + nth_bit(masks[block], r)
        r -= counts[block]
    return ACTION_TOKEN + r


@inline_njit
def apply(state, action):
    """Apply a legal action of the seat to act, recording it in the history."""
    seat = state[S_SEAT_TO_ACT]
    record_action(state, seat, action, S_HISTORY_LENGTH, S_HISTORY_SEATS, S_HISTORY_ACTIONS)
    phase = state[S_PHASE]
    if phase == PHASE_PLAY:
        if action == ACTION_STOP:
            take_jann(state, seat)
        elif action >= ACTION_TURN:
            lead(state, seat, action - ACTION_TURN, True)
        elif state[S_TRICK_SIZE] == 0:
            lead(state, seat, action, False)
        else:
            follow(state, seat, action)
    elif phase == PHASE_TALK:
        speak(state, seat, action)
    elif phase == PHASE_ANSWER:
        if action == ACTION_ACCEPT:
            accept(state)
        else:
            flee(state)
    elif phase == PHASE_TEN_EXCHANGE:
        if action == ACTION_DECLINE:
            decline_ten(state)
        else:
            exchange_ten(state, seat, action - ACTION_EXCHANGE)
    elif phase == PHASE_OLE_EXCHANGE:
        if action == ACTION_TAKE_OLE:
            take_ole(state, seat)
        else:
            decline_ole(state)
    elif phase == PHASE_DEALER_CHOICE:
        choose_dealer_game(state, action == ACTION_PLAY_ALONE)


@njit_no_refcount
def legal_action_mask(state, out):
    """The contract's legal actions: the int8 ``out`` (length ``num_actions(params)``) filled from the legal
    sets (all zero when over)."""
    fill_action_mask(state, out)


random_legal_action = draw_legal_action
"""A uniformly drawn legal action, straight from the legal sets (no mask array)."""


@njit_no_refcount
def apply_action(state, action):
    """Apply a legal action of the seat to act (callers check legality with the mask)."""
    apply(state, action)


@inline_njit
def random_step(state, rng):
    """Apply a uniformly random legal action (``draw_legal_action``'s draw)."""
    apply(state, draw_legal_action(state, rng))
