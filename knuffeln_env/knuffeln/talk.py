"""Table talk: the talk turn that precedes every card-play turn when talk is on, its legal utterances,
and the public log of what was said.

Rules: ``docs/rules/knuffeln.md#7-table-talk``; a talk turn precedes every lead (face up or down), every
follow and the Jann choice, but not an answer, an exchange or the dealer's choice (decision K9); the lone
five-player dealer does not talk (decision K12). The engine never checks the truth of a phrase.
"""

from __future__ import annotations

import numpy as np

from trick_core.jit import inline_njit

from .layout import (
    MAX_TALK,
    S_DEALER,
    S_DEALER_MODE,
    S_PHASE,
    S_SEAT_TO_ACT,
    S_TALK,
    S_TALK_ACTION,
    S_TALK_COUNT,
    S_TALK_SEAT,
    S_TOKENS,
)
from .tables import (
    ACTION_MISC,
    ACTION_SAY,
    ACTION_SILENT,
    DEALER_PLAYS_ALONE,
    PHASE_PLAY,
    PHASE_TALK,
    TALK_LEXICON,
    TALK_OFF,
)


@inline_njit
def talks(state, seat):
    """Talk turns precede card plays when talk is on and the seat has a partner (not the lone dealer)."""
    if state[S_TALK] == TALK_OFF:
        return False
    return not (state[S_DEALER_MODE] == DEALER_PLAYS_ALONE and seat == state[S_DEALER])


@inline_njit
def begin_card_turn(state, seat):
    """``seat`` is to play a card next: after a talk turn if it talks."""
    state[S_SEAT_TO_ACT] = seat
    state[S_PHASE] = PHASE_TALK if talks(state, seat) else PHASE_PLAY


@inline_njit
def legal_utterances(state, hand):
    """A talk turn's legal actions as ``rules.legal_sets`` carries them: the cards that may be shown, the
    misc bits (``silent``, the 24 phrases) and the number of tokens."""
    misc = np.int64(1) << (ACTION_SILENT - ACTION_MISC)
    if state[S_TALK] == TALK_LEXICON:
        return hand, misc | (np.int64(0xFFFFFF) << (ACTION_SAY - ACTION_MISC)), np.int64(0)
    return np.int64(0), misc, state[S_TOKENS]


@inline_njit
def speak(state, seat, action):
    """Log the utterance (public, in speaking order); the same seat then plays its card."""
    count = state[S_TALK_COUNT]
    if count < MAX_TALK:
        state[S_TALK_SEAT + count] = seat
        state[S_TALK_ACTION + count] = action
        state[S_TALK_COUNT] = count + 1
    state[S_PHASE] = PHASE_PLAY
