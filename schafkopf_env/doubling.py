"""Contra and re as Bavarian Schafkopf (``doubling=True``) and Asserufen play them, written once: the offer
before a player's first card, the rounds of asking after each double, and the cap on doublings.

The rules (``docs/rules/bavarian_schafkopf.md#6-options``, ``docs/rules/palatinate_schafkopf.md#16-contra``):
each player but the declarer is offered ``contra`` before their own first card while nobody has doubled
(the hidden partner too, which keeps it hidden, but it may only decline). After a double every other
player, from the doubler's left, is asked ``re`` / ``no_double``; only the doubled side may say ``re``,
which restarts the asking; three answers in a row without a double, or the cap, end it, and the player
who was about to play plays. Each double doubles the settlement.

The two games keep these fields at different offsets and number their phases and actions differently, so
every helper takes the game's ``DoublingLayout`` (a module-level constant, which numba compiles in as
constants), built by ``doubling_layout`` from the state fields both games name alike. Palatinate Schafkopf
doubles by other rules (the sides alternate) and has its own module.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from trick_core.bits import ONE
from trick_core.jit import inline_njit
from trick_core.layout import StateLayout


class DoublingLayout(NamedTuple):
    """Where a game keeps the doubling's fields in its state array, and how it numbers what they hold."""

    phase: int
    seat_to_act: int
    pending_player: int
    """The seat about to play when the doubling began."""
    trick_number: int
    doublings: int
    doublers: int
    """The first of the ``max_doublings`` entries naming the seat of each double, in order."""
    round_answers: int
    """``no_double`` answers in a row in the current round of asking."""
    declarer: int
    contract: int
    partner: int
    partner_known: int
    max_doublings: int
    """The offset of the rule option ``max_doublings`` (0: no doubling)."""
    offer_phase: int
    round_phase: int
    play_phase: int
    action_contra: int
    action_re: int
    action_no_double: int
    partnered_contract: int
    """The contract whose declarer plays with a (hidden) partner: the Rufer / ace call."""
    undoubled_contract: int
    """A contract nobody may double (Bavarian Ramsch, without a declarer), or -1 where there is none."""
    num_seats: int


STATE_FIELDS = ("phase", "seat_to_act", "pending_player", "trick_number", "doublings", "doublers", "round_answers",
                "declarer", "contract", "partner", "partner_known")
"""The fields of ``DoublingLayout`` read from the game's ``StateLayout`` by these (common) names."""


def doubling_layout(layout: StateLayout, *, max_doublings: int, phases: tuple[int, int, int],
                    actions: tuple[int, int, int], partnered_contract: int, undoubled_contract: int,
                    num_seats: int) -> DoublingLayout:
    """A game's ``DoublingLayout``: the ``STATE_FIELDS`` from its state ``layout``, the offset of its
    ``max_doublings`` option, its ``(offer, round, play)`` phases and ``(contra, re, no_double)`` actions."""
    offsets = {name: layout.offset(name) for name in STATE_FIELDS}
    offer_phase, round_phase, play_phase = phases
    action_contra, action_re, action_no_double = actions
    return DoublingLayout(**offsets, max_doublings=max_doublings, offer_phase=offer_phase, round_phase=round_phase,
                          play_phase=play_phase, action_contra=action_contra, action_re=action_re,
                          action_no_double=action_no_double, partnered_contract=partnered_contract,
                          undoubled_contract=undoubled_contract, num_seats=num_seats)


@inline_njit
def on_declarer_side(state, seat, at):
    """Whether ``seat`` plays with the declarer: the declarer, or its partner in a partnered contract."""
    return seat == state[at.declarer] or (state[at.contract] == at.partnered_contract and seat == state[at.partner])


@inline_njit
def to_play(state, seat, at):
    """``seat`` is about to play a card: first the contra offer if this is its first card, nobody has
    doubled yet, doubling is on, ``seat`` is not the declarer and the contract may be doubled."""
    if (
        state[at.trick_number] == 0
        and state[at.doublings] == 0
        and state[at.max_doublings] > 0
        and seat != state[at.declarer]
        and state[at.contract] != at.undoubled_contract
    ):
        state[at.phase] = at.offer_phase
        state[at.pending_player] = seat
    else:
        state[at.phase] = at.play_phase
    state[at.seat_to_act] = seat


@inline_njit
def legal_doubling_bits(state, seat, at):
    """``no_double``, and ``contra`` at an offer unless ``seat`` is the (hidden) partner, or ``re`` in a
    round of asking where the cap is not reached and ``seat`` is on the doubled side."""
    bits = ONE << np.uint64(at.action_no_double)
    if state[at.phase] == at.offer_phase:
        if not on_declarer_side(state, seat, at):
            bits |= ONE << np.uint64(at.action_contra)
        return bits
    last = state[at.doublers + state[at.doublings] - 1]
    if state[at.doublings] < state[at.max_doublings] and on_declarer_side(state, seat, at) != on_declarer_side(
        state, last, at
    ):
        bits |= ONE << np.uint64(at.action_re)
    return bits


@inline_njit
def end_doubling(state, at):
    """The doubling is over: the player who was about to play plays."""
    state[at.phase] = at.play_phase
    state[at.seat_to_act] = state[at.pending_player]


@inline_njit
def double(state, seat, at):
    """``seat`` says contra or re: the value doubles, and everyone else is asked from its left."""
    count = state[at.doublings]
    state[at.doublers + count] = seat
    state[at.doublings] = count + 1
    if state[at.contract] == at.partnered_contract and seat == state[at.partner]:
        state[at.partner_known] = 1  # a partner who says re is revealed
    if count + 1 >= state[at.max_doublings]:
        end_doubling(state, at)
    else:
        state[at.phase] = at.round_phase
        state[at.round_answers] = 0
        state[at.seat_to_act] = (seat + 1) % at.num_seats


@inline_njit
def answer_doubling(state, seat, action, at):
    """``seat``'s (legal) answer at an offer or in a round of asking."""
    if action == at.action_contra or action == at.action_re:
        double(state, seat, at)
    elif state[at.phase] == at.offer_phase:
        state[at.phase] = at.play_phase
    else:
        state[at.round_answers] += 1
        if state[at.round_answers] == at.num_seats - 1:
            end_doubling(state, at)
        else:
            state[at.seat_to_act] = (seat + 1) % at.num_seats
