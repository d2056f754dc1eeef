"""Bavarian Schafkopf's kernel: the contract of ``docs/architecture.md`` in one module.

Everything a user of the rules needs — the env (``bavarian_v0``), the batch env, the drivers of
``trick_core.drivers`` (playouts, resampling, search), the agents, the benchmarks — is imported from
here; the rules themselves live in the modules of this package, by concern:

| module | holds |
|---|---|
| ``tables`` | contracts and values, actions and their strings, phases, card masks, ``make_params`` |
| ``layout`` | the state array's fields and the observation's offsets |
| ``state`` | dealing, starting and ending a hand |
| ``bidding`` | bids, the called ace, the trump suit |
| ``play`` | legal cards (the called-ace rules), tricks and their winners |
| ``scoring`` | Laufende, contract values, the settlement |
| ``rules`` | the phases joined: legal actions and the effect of an action |
| ``observe`` | the observation of a seat |
| ``resample`` | what a seat knows of the hidden cards (constraints and replay for ``resample_hidden``) |
| ``heuristic`` | the playout policy of the ``pimc`` agent |
| ``reference`` | the plain-Python twin of the rules the kernel is tested against |

The rules are those of ``docs/rules/bavarian_schafkopf.md``.
"""

from __future__ import annotations

import sys

from schafkopf_env.trumps import TRUMP_WENZ  # noqa: F401
from trick_core.entry_points import entry_points
from trick_core.jit import inline_njit, njit

from .layout import *  # noqa: F403  (re-exported: the state and observation layout)
from .layout import S_SEAT_TO_ACT
from .observe import observe, partner_known_to  # noqa: F401
from .play import legal_card_bits  # noqa: F401
from .resample import *  # noqa: F403  (re-exported: the resampling protocol of trick_core.drivers)
from .rules import apply, legal_action_bits, random_step  # noqa: F401
from .scoring import contract_value, counted_laufende, declarer_side_totals, settle  # noqa: F401
from .state import deal_random_with, hands_of, start_hand  # noqa: F401  (deal_random_with: for entry_points)
from .tables import *  # noqa: F403  (re-exported: the game's constants and make_params)


@njit  # not njit_no_refcount: a caller's deal given as a Python list needs reference counting
def init_state(state, params, dealer, deal_cards):
    """Start a hand: ``deal_cards`` holds 32 card indices, seat 0's eight cards first, then seat 1's..."""
    h0, h1, h2, h3 = hands_of(deal_cards, 0)
    start_hand(state, params, dealer, h0, h1, h2, h3)


@inline_njit
def current_seat(state):
    """The seat to act, -1 once the hand is over."""
    return state[S_SEAT_TO_ACT]


deal_random, deal_random_for_dealer, legal_action_mask, apply_action, settlement = entry_points(sys.modules[__name__])
"""The remaining entry points of the contract, written once (``trick_core.entry_points``)."""
