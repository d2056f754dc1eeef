"""Kontra and Re (``doubling=True``) in Bavarian Schafkopf: the contra offer before a player's first card,
the rounds of asking after each double, the cap of four doublings; and Klopfen (``klopfen=True``): before
the bidding, each seat from forehand sees the first half of its hand and knocks or not, each knock doubling.

Rules: ``docs/rules/bavarian_schafkopf.md#6-options`` (decisions B14, B15, B16). Each player but the declarer is offered
``contra`` before their own first card while nobody has doubled (the hidden partner of a Rufer too, which
keeps it hidden, but it may only decline). After a double every other player, from the doubler's left, is
asked ``re`` / ``no_double``; only the doubled side may say ``re``, which restarts the asking; three answers
in a row without a double, or the fourth double, end it, and the player who was about to play plays. Each
double doubles the settlement.
"""

from __future__ import annotations

import numpy as np

from schafkopf_env import doubling
from trick_core.bits import ONE
from trick_core.jit import inline_njit

from .layout import S_DEALER, S_DOUBLINGS, S_KNOCKED, S_KNOCKS, S_PARAMS, S_PHASE, S_SEAT_TO_ACT, layout
from .tables import (
    ACTION_CONTRA,
    ACTION_KNOCK,
    ACTION_NO_DOUBLE,
    ACTION_NO_KNOCK,
    ACTION_RE,
    NUM_SEATS,
    PARAM_MAX_DOUBLINGS,
    PHASE_BIDDING,
    PHASE_CONTRA_OFFER,
    PHASE_DOUBLING_ROUND,
    PHASE_PLAYING,
    RAMSCH,
    RUFER,
)

DOUBLING = doubling.doubling_layout(
    layout, max_doublings=S_PARAMS + PARAM_MAX_DOUBLINGS, phases=(PHASE_CONTRA_OFFER, PHASE_DOUBLING_ROUND,
    PHASE_PLAYING), actions=(ACTION_CONTRA, ACTION_RE, ACTION_NO_DOUBLE),
    partnered_contract=RUFER, undoubled_contract=RAMSCH, num_seats=NUM_SEATS,  # nobody declared a Ramsch: no Kontra
)
"""Where Bavarian Schafkopf keeps what the Kontra and Re shared with Asserufen (``schafkopf_env.doubling``) reads
and writes."""


@inline_njit
def to_play(state, seat):
    """``seat`` is about to play a card: first the contra offer if this is its first card, nobody has
    doubled yet and it is not the declarer (``schafkopf_env.doubling.to_play``)."""
    doubling.to_play(state, seat, DOUBLING)


@inline_njit
def legal_doubling_bits(state, seat):
    return doubling.legal_doubling_bits(state, seat, DOUBLING)


@inline_njit
def answer_doubling(state, seat, action):
    """``seat``'s answer at an offer or in a round of asking."""
    doubling.answer_doubling(state, seat, action, DOUBLING)


@inline_njit
def stakes_factor(state):
    """2 to the power of the knocks and doublings said: what multiplies the settlement."""
    return 1 << (state[S_DOUBLINGS] + state[S_KNOCKS])


@inline_njit
def legal_klopfen_bits(state):
    return (ONE << np.uint64(ACTION_KNOCK)) | (ONE << np.uint64(ACTION_NO_KNOCK))


@inline_njit
def answer_klopfen(state, seat, action):
    """``seat`` knocks or not; after the dealer (the fourth) the bidding starts with forehand."""
    if action == ACTION_KNOCK:
        state[S_KNOCKED + seat] = 1
        state[S_KNOCKS] += 1
    if seat == state[S_DEALER]:
        state[S_PHASE] = PHASE_BIDDING
    state[S_SEAT_TO_ACT] = (seat + 1) % NUM_SEATS


@inline_njit
def in_card_play(phase):
    """The card play, the doubling phases of its first trick included (a trick may be in progress)."""
    return phase == PHASE_PLAYING or phase == PHASE_CONTRA_OFFER or phase == PHASE_DOUBLING_ROUND

