"""Schenken (giving up) in Palatinate Schafkopf: after trump is named the opponents, from the declarer's
left, may offer to give up; if both offer, the declarer accepts (wins at once) or refuses (plays on and
must make the opponents schneider). Never in a Du.

Rules: ``docs/rules/palatinate_schafkopf.md#24-giving-up-schenken`` (decisions P4, P8, P9).
"""

from __future__ import annotations

import numpy as np

from trick_core.jit import inline_njit, njit_no_refcount

from .layout import S_CONTRACT, S_DECLARER, S_NEXT, S_PHASE, S_SCHENKEN, S_SCHENKEN_ANSWER, S_SEAT_TO_ACT
from .play import start_play
from .scoring import finish_hand
from .tables import (
    ACTION_ACCEPT,
    ACTION_NO_SCHENKEN,
    ACTION_REFUSE,
    ACTION_SCHENKEN,
    CONTRACT_SOLO_DU,
    HIGH_WORD_BASE,
    PHASE_SCHENKEN,
    PHASE_SCHENKEN_ANSWER,
    SCHENKEN_ACCEPTED,
    SCHENKEN_REFUSED,
)

OFFER_BITS = np.uint64(1 << (ACTION_SCHENKEN - HIGH_WORD_BASE) | 1 << (ACTION_NO_SCHENKEN - HIGH_WORD_BASE))
"""High-word bits of an opponent asked to give up: ``schenken`` or ``no_schenken``."""
ANSWER_BITS = np.uint64(1 << (ACTION_ACCEPT - HIGH_WORD_BASE) | 1 << (ACTION_REFUSE - HIGH_WORD_BASE))
"""High-word bits of the declarer's answer: ``accept`` or ``refuse``."""


@njit_no_refcount
def after_trump(state):
    """Schenken is offered except in a Du; then play starts."""
    if state[S_CONTRACT] >= CONTRACT_SOLO_DU:
        start_play(state)
        return
    state[S_PHASE] = PHASE_SCHENKEN
    state[S_SEAT_TO_ACT] = state[S_NEXT + state[S_DECLARER]]


@njit_no_refcount
def answer_schenken(state, seat, action):
    """An opponent offers to give up, or not (then play starts); after both offered, the declarer answers."""
    if action == ACTION_NO_SCHENKEN:
        state[S_SCHENKEN + seat] = 0
        start_play(state)
        return
    state[S_SCHENKEN + seat] = 1
    following = state[S_NEXT + seat]
    if following == state[S_DECLARER]:
        state[S_PHASE] = PHASE_SCHENKEN_ANSWER
    state[S_SEAT_TO_ACT] = following


@inline_njit
def answer_offer(state, action):
    """The declarer accepts (the hand is won without play) or refuses (play starts)."""
    if action == ACTION_ACCEPT:
        state[S_SCHENKEN_ANSWER] = SCHENKEN_ACCEPTED
        finish_hand(state)
    else:
        state[S_SCHENKEN_ANSWER] = SCHENKEN_REFUSED
        start_play(state)
