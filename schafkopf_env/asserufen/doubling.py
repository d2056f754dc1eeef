"""Contra and re in Asserufen: the offer before a player's first card, the rounds of asking after each
double, and the cap ``max_doublings``, by the machinery Bavarian Schafkopf shares
(``schafkopf_env.doubling``) on this game's state layout.

Rules: ``docs/rules/palatinate_schafkopf.md#16-contra`` and decisions A1, A2, A8
(``docs/rules/palatinate_schafkopf.md#decisions-asserufen``). Each player but the declarer is offered
``contra`` before their own first card while nobody has doubled (the hidden partner too, which keeps it
hidden, but it may only decline). After a double every other player, from the doubler's left, is asked
``re`` / ``no_double``; only the doubled side may say ``re``, which restarts the asking; three answers in
a row without a double, or the cap, end it, and the player who was about to play plays.
"""

from __future__ import annotations

from schafkopf_env import doubling
from trick_core.jit import inline_njit

from .layout import S_LAST_DOUBLER, S_PARAMS, S_TRICK_LEADERS, layout
from .state import forehand
from .tables import (
    ACTION_CONTRA,
    ACTION_NO_DOUBLE,
    ACTION_RE,
    CONTRACT_ACE_CALL,
    NUM_SEATS,
    PARAM_MAX_DOUBLINGS,
    PHASE_OFFER,
    PHASE_PLAY,
    PHASE_ROUND,
)

DOUBLING = doubling.doubling_layout(
    layout, max_doublings=S_PARAMS + PARAM_MAX_DOUBLINGS, phases=(PHASE_OFFER, PHASE_ROUND, PHASE_PLAY),
    actions=(ACTION_CONTRA, ACTION_RE, ACTION_NO_DOUBLE), partnered_contract=CONTRACT_ACE_CALL,
    undoubled_contract=-1, num_seats=NUM_SEATS,  # every contract may be doubled
)
"""Where Asserufen keeps what the shared doubling reads and writes."""


@inline_njit
def to_play(state, seat):
    """``seat`` is about to play a card: first offer contra if this is their first card (pinned)."""
    doubling.to_play(state, seat, DOUBLING)


@inline_njit
def start_play(state):
    """The contract is settled: forehand leads the first trick (after its contra offer)."""
    leader = forehand(state)
    state[S_TRICK_LEADERS] = leader
    to_play(state, leader)


@inline_njit
def legal_doubling_bits(state, seat):
    """The legal answers of ``seat`` in either doubling phase: the offer or a round of asking."""
    return doubling.legal_doubling_bits(state, seat, DOUBLING)


@inline_njit
def answer_doubling(state, seat, action):
    """``seat``'s answer in either doubling phase; a double also records ``seat`` as the last doubler
    (``S_LAST_DOUBLER``, a field of this game's state)."""
    if action == ACTION_CONTRA or action == ACTION_RE:
        state[S_LAST_DOUBLER] = seat
    doubling.answer_doubling(state, seat, action, DOUBLING)
