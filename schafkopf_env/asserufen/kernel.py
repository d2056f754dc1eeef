"""Asserufen's kernel: the contract of ``docs/architecture.md`` in one module.

Everything a user of the rules needs — the env (``asserufen_v0``), the batch env, the drivers of
``trick_core.drivers`` (playouts, resampling, search), the agents, the benchmarks — is imported from
here; the rules themselves live in the modules of this package, by concern:

| module | holds |
|---|---|
| ``tables`` | actions and their strings, contracts, phases, card masks, score items, ``make_params`` |
| ``layout`` | the state array's fields and the observation's segments |
| ``state`` | dealing, starting and ending a hand; who plays with the declarer |
| ``bidding`` | weg and the bids, the answer to darf man, the called card, the trump suit |
| ``doubling`` | the contra offers, the rounds of asking, the cap on doublings |
| ``play`` | legal cards (the called card's rules), tricks and their winners |
| ``scoring`` | the value item by item and the settlement |
| ``rules`` | the phases joined: legal actions and the effect of an action |
| ``observe`` | the observation of a seat |
| ``resample`` | what a seat knows of the hidden cards (constraints and replay for ``resample_hidden``) |
| ``heuristic`` | the playout policy of the ``pimc`` agent |
| ``reference`` | the plain-Python twin of the rules the kernel is tested against |

The rules are those of ``docs/rules/palatinate_schafkopf.md`` sections 1 and 3.
"""

from __future__ import annotations

import sys

from trick_core.entry_points import entry_points
from trick_core.jit import inline_njit, njit

from .bidding import callable_cards, may_say_darf_man  # noqa: F401
from .layout import *  # noqa: F403  (re-exported: the state and observation layout)
from .layout import S_SEAT_TO_ACT
from .observe import observe, partner_known_to  # noqa: F401
from .play import legal_card_bits  # noqa: F401
from .resample import *  # noqa: F403  (re-exported: the resampling protocol of trick_core.drivers)
from .rules import apply, is_legal, legal_action_bits, random_step  # noqa: F401
from .scoring import declarer_side_mask, score_items, settle  # noqa: F401
from .state import deal_random_with, on_declarer_side, start_hand_with_cards  # noqa: F401
from .tables import *  # noqa: F403  (re-exported: the game's constants and make_params)


@njit  # not njit_no_refcount: a caller's deal given as a Python list needs reference counting
def init_state(state, params, dealer, deal_cards):
    """Start a hand from a fixed deal: ``deal_cards`` holds 32 card indices, seat 0's eight first."""
    start_hand_with_cards(state, params, dealer, deal_cards)


@inline_njit
def current_seat(state):
    """The seat to act, -1 once the hand is over."""
    return state[S_SEAT_TO_ACT]


deal_random, deal_random_for_dealer, legal_action_mask, apply_action, settlement = entry_points(sys.modules[__name__])
"""The remaining entry points of the contract, written once (``trick_core.entry_points``)."""
