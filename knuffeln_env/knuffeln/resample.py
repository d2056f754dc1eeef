"""What a seat of Knüffeln knows about the cards it cannot see: the constraints and the replay behind
``resample_hidden`` (the loop itself is ``trick_core.drivers.resample_hidden``).

The holders of hidden cards are the hands (rows ``0..players-1``; the five-player dealer's cards count as
the stock's), the free stock positions (row ``players``) and the non-Ole that ended the bottom check, if
the observer did not see it (row ``players + 1``: any card but an Ole). A seat holds every card it is known
to have held: played, given in an exchange, or shown to the observer. A King given for an Ole says that no
player held that Queen: it lies in the stock.

A sample is replayed from the deal: the cards of actions the observer did not see (another seat's
face-down lead not accepted, a card shown to the other partnership) are drawn afresh from the acting hand,
so the sampled world's history, talk and face-down card name its own cards, never the real ones. It is
kept only if every recorded action is legal in it and the observer had exactly its real legal actions at
each of its own decisions, past and present (it saw those choices: e.g. whether it was entitled to an
Ole). The five-player dealer knows the stock as a set: samples lay it in a fresh order (decision K25).
"""

from __future__ import annotations

import numpy as np

from trick_core.bits import lowest_bit, random_bit
from trick_core.drivers import RESAMPLING_PROTOCOL
from trick_core.jit import inline_njit, njit

from .deal import setup_hand
from .layout import (
    S_CHECK_STOP_POSITION,
    S_DEALER,
    S_DEALER_SEEN_MASK,
    S_DEALT_HANDS,
    S_EXCHANGED_OUT,
    S_HANDS,
    S_HISTORY_ACTIONS,
    S_HISTORY_LENGTH,
    S_HISTORY_SEATS,
    S_NUM_TURNED,
    S_OLE_LOG_GIVEN,
    S_OLES_TAKEN,
    S_PLAYED,
    S_PLAYERS,
    S_PUBLIC_STOCK_MASK,
    S_SEAT_TO_ACT,
    S_STOCK,
)
from .rules import apply, apply_action, is_legal, legal_sets
from .state import card_bit, copy_deal_setting, teammates
from .tables import (
    ACTION_ACCEPT,
    ACTION_EXCHANGE,
    ACTION_MISC,
    ACTION_SHOW,
    ACTION_TURN,
    CARDS_PER_HAND,
    FULL_MASK,
    MAX_SEATS,
    NUM_RANKS,
    OLE_MASK,
    RANK_K,
    RANK_Q,
    STOCK_SIZE,
)

__all__ = RESAMPLING_PROTOCOL
"""The resampling protocol of ``trick_core.drivers.resample_hidden`` (re-exported by ``kernel``)."""

MAX_HOLDERS = MAX_SEATS + 2
"""Holders of hidden cards: the hands (rows 0..players-1), the free stock positions (row ``players``) and
the checked non-Ole at the bottom of the stock (row ``players + 1``)."""
DEAL_TRIES = 200
"""Tries of ``deal_with_constraints`` per sample."""
RESAMPLE_ATTEMPTS = 256
"""Deals tried before ``resample_hidden`` gives up; rejections (a recorded action illegal in the sample,
or the observer offered other choices) are rare, so this bound is almost never reached."""
CHOICE_WIDTH = 6
"""A decision's legal actions as ``rules.legal_sets`` gives them: play, turn, exchange, show, misc, tokens."""


@njit
def known_stock_positions(state, seat):
    """Bit k set: the observer knows which card lies at stock position k."""
    known = (1 << state[S_NUM_TURNED]) - 1
    public = state[S_PUBLIC_STOCK_MASK]
    dealer_seen = state[S_DEALER_SEEN_MASK] if seat == state[S_DEALER] else 0
    for k in range(STOCK_SIZE):
        if (public | dealer_seen) & card_bit(state[S_STOCK + k]):
            known |= 1 << k
    return known


@njit
def hidden_from(state, seat, index):
    """Is history entry ``index`` an action whose card ``seat`` did not see (a show to someone else's
    partner, or a face-down lead not turned up)?"""
    actor = state[S_HISTORY_SEATS + index]
    action = state[S_HISTORY_ACTIONS + index]
    if actor == seat:
        return False
    if ACTION_SHOW <= action < ACTION_MISC:
        return not teammates(state, actor, seat)
    if ACTION_TURN <= action < ACTION_EXCHANGE:
        if index + 1 >= state[S_HISTORY_LENGTH]:
            return True
        return state[S_HISTORY_ACTIONS + index + 1] != ACTION_ACCEPT
    return False


@njit
def stock_knowledge(state, seat):
    """Stock positions ``seat`` knows (bits), those it knows only as a set (the five-player dealer),
    and the unknown position of the non-Ole that ended the bottom check (-1: none or known)."""
    known_positions = known_stock_positions(state, seat)
    unordered_positions = 0
    if state[S_PLAYERS] == 5 and seat == state[S_DEALER]:
        # The five-player dealer looks at the stock as a set (its observation holds no order, and with five
        # players no order matters after the turn-up): the sample lays those cards in a fresh order.
        unordered_positions = known_positions & ~((1 << state[S_NUM_TURNED]) - 1)
    non_ole_position = -1
    if state[S_CHECK_STOP_POSITION] >= 0 and not (known_positions >> state[S_CHECK_STOP_POSITION]) & 1:
        non_ole_position = state[S_CHECK_STOP_POSITION]
    return known_positions, unordered_positions, non_ole_position


@njit
def hidden_card_constraints(state, seat, counts, allowed, forced):
    """Per holder (``MAX_HOLDERS``): how many hidden cards it holds, which it may hold and which it
    must hold (cards it played, gave in an exchange or showed to ``seat``); returns the cards hidden from
    ``seat``. A King given for an Ole says no player held that Queen: it lies in the stock."""
    players = state[S_PLAYERS]
    dealer = state[S_DEALER]
    known_positions, _, non_ole_position = stock_knowledge(state, seat)
    known_stock_cards = np.int64(0)
    unknown_positions = 0
    for k in range(STOCK_SIZE):
        if (known_positions >> k) & 1:
            known_stock_cards |= card_bit(state[S_STOCK + k])
        else:
            unknown_positions += 1
    unknown = np.int64(FULL_MASK) & ~state[S_DEALT_HANDS + seat] & ~known_stock_cards
    # cards the observer knows were dealt to a holder (index players = the stock)
    known_in = np.zeros(MAX_SEATS + 1, dtype=np.int64)
    for other in range(players):
        if other == seat:
            continue
        holder = players if (players == 5 and other == dealer) else other
        known_in[holder] |= (state[S_PLAYED + other] | state[S_EXCHANGED_OUT + other]) & unknown
    for i in range(state[S_HISTORY_LENGTH]):
        actor = state[S_HISTORY_SEATS + i]
        action = state[S_HISTORY_ACTIONS + i]
        if ACTION_SHOW <= action < ACTION_MISC and actor != seat and not hidden_from(state, seat, i):
            known_in[actor] |= card_bit(action - ACTION_SHOW) & unknown
    forced_to_stock = np.int64(0)
    for k in range(state[S_OLES_TAKEN]):
        given = state[S_OLE_LOG_GIVEN + k]
        if given % NUM_RANKS == RANK_K:  # a King was given: no player held the Queen at the time
            forced_to_stock |= card_bit(given - RANK_K + RANK_Q) & unknown
    for holder in range(MAX_SEATS + 1):
        forced_to_stock &= ~known_in[holder]
    for other in range(players):
        if other == seat or (players == 5 and other == dealer):
            continue
        counts[other] = CARDS_PER_HAND
        forced[other] = np.uint64(known_in[other])
        allowed[other] = np.uint64(unknown & ~forced_to_stock)
    counts[players] = unknown_positions - (1 if non_ole_position >= 0 else 0)
    forced[players] = np.uint64(known_in[players])
    allowed[players] = np.uint64(unknown)
    if non_ole_position >= 0:
        counts[players + 1] = 1
        allowed[players + 1] = np.uint64(unknown & ~np.int64(OLE_MASK))
    return np.uint64(unknown)


@njit
def resample_context(state, seat):
    """The legal sets ``seat`` saw at each of its decisions (``choices_of_seat``)."""
    return choices_of_seat(state, seat)


@njit
def replay_sample(state, seat, dealt, rng, out_state, context):
    """Lay the sampled hands and stock into ``out_state`` and replay the history (module docstring);
    False unless every recorded action is legal in it and ``seat`` had exactly its real choices
    (``context``) at each of its own decisions."""
    players = state[S_PLAYERS]
    dealer = state[S_DEALER]
    known_positions, unordered_positions, non_ole_position = stock_knowledge(state, seat)
    out_state[:] = 0
    copy_deal_setting(state, out_state)
    for other in range(players):
        out_state[S_DEALT_HANDS + other] = state[S_DEALT_HANDS + other]
        if other != seat and not (players == 5 and other == dealer):
            out_state[S_DEALT_HANDS + other] = np.int64(dealt[other])
    stock_pool = np.int64(dealt[players])
    seen_pool = np.int64(0)
    for k in range(STOCK_SIZE):
        if (unordered_positions >> k) & 1:
            seen_pool |= card_bit(state[S_STOCK + k])
    for k in range(STOCK_SIZE):
        if (unordered_positions >> k) & 1:
            card = random_bit(rng, seen_pool)
            out_state[S_STOCK + k] = card
            seen_pool &= ~card_bit(card)
        elif (known_positions >> k) & 1:
            out_state[S_STOCK + k] = state[S_STOCK + k]
        elif k == non_ole_position:
            out_state[S_STOCK + k] = lowest_bit(dealt[players + 1])
        else:
            card = random_bit(rng, stock_pool)
            out_state[S_STOCK + k] = card
            stock_pool &= ~card_bit(card)
    setup_hand(out_state)
    return replay_history(state, seat, rng, out_state, context)


@inline_njit
def store_choices(state, choices, row):
    play, turn, exchange, show, misc, tokens = legal_sets(state)
    choices[row, 0] = play
    choices[row, 1] = turn
    choices[row, 2] = exchange
    choices[row, 3] = show
    choices[row, 4] = misc
    choices[row, 5] = tokens


@inline_njit
def same_choices(state, choices, row):
    play, turn, exchange, show, misc, tokens = legal_sets(state)
    return (
        choices[row, 0] == play and choices[row, 1] == turn and choices[row, 2] == exchange
        and choices[row, 3] == show and choices[row, 4] == misc and choices[row, 5] == tokens
    )


@njit
def choices_of_seat(state, seat):
    """The legal sets ``seat`` saw at each of its decisions: row ``i`` for history entry ``i`` it made,
    row ``history length`` for the decision now pending (if it is ``seat``'s). Found by replaying the
    real history from the real deal once, so that each sampled world is compared with it during its own
    replay."""
    length = state[S_HISTORY_LENGTH]
    choices = np.zeros((length + 1, CHOICE_WIDTH), dtype=np.int64)
    real = np.zeros_like(state)
    copy_deal_setting(state, real)
    for k in range(MAX_SEATS):
        real[S_DEALT_HANDS + k] = state[S_DEALT_HANDS + k]
    for k in range(STOCK_SIZE):
        real[S_STOCK + k] = state[S_STOCK + k]
    setup_hand(real)
    for i in range(length):
        if real[S_SEAT_TO_ACT] == seat:
            store_choices(real, choices, i)
        apply(real, state[S_HISTORY_ACTIONS + i])
    if state[S_SEAT_TO_ACT] == seat:
        store_choices(state, choices, length)
    return choices


@njit
def replay_history(state, seat, rng, out_state, seat_choices):
    """Replay the real history in the sampled world ``out_state``, drawing the cards of actions hidden
    from ``seat`` from the acting hand; False if an action is illegal there or ``seat``'s choices at
    one of its decisions differ from ``seat_choices``."""
    length = state[S_HISTORY_LENGTH]
    for i in range(length):
        action = state[S_HISTORY_ACTIONS + i]
        if out_state[S_SEAT_TO_ACT] != state[S_HISTORY_SEATS + i]:
            return False
        if out_state[S_SEAT_TO_ACT] == seat and not same_choices(out_state, seat_choices, i):
            return False
        if hidden_from(state, seat, i):
            hand = out_state[S_HANDS + out_state[S_SEAT_TO_ACT]]
            if hand == 0:
                return False
            card = random_bit(rng, hand)
            action = (ACTION_SHOW if action >= ACTION_SHOW else ACTION_TURN) + card
        if not is_legal(out_state, action):
            return False
        apply_action(out_state, action)
    return out_state[S_SEAT_TO_ACT] != seat or same_choices(out_state, seat_choices, length)
