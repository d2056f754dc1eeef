"""Bavarian Schafkopf's kernel: the contract of ``docs/architecture.md`` in one module.

Everything a user of the rules needs — the env (``bavarian_v0``), the batch env, the drivers of
``trick_core.drivers`` (playouts, resampling, search), the agents, the benchmarks — is imported from
here; the rules themselves live in the modules of this package, by concern:

| module | holds |
|---|---|
| ``tables`` | contracts and values, actions and their strings, phases, card masks, ``make_params`` |
| ``layout`` | the state array's fields and the observation's blocks (``observation_layout``) |
| ``state`` | dealing, starting and ending a hand (``init_state``, ``deal_random``, ``current_seat``) |
| ``bidding`` | bids, the called ace, the trump suit |
| ``play`` | legal cards (the called-ace rules), tricks and their winners |
| ``scoring`` | Laufende, contract values, the settlement (``settlement``) |
| ``rules`` | the phases joined: legal actions and the effect of an action (``legal_action_mask``, ``apply_action``) |
| ``observe`` | the observation of a seat |
| ``resample`` | what a seat knows of the hidden cards (constraints and replay for ``resample_hidden``) |
| ``heuristic`` | the playout policy of the ``pimc`` agent |
| ``reference`` | the plain-Python twin of the rules the kernel is tested against |

The rules are those of ``docs/rules/bavarian_schafkopf.md``. Each entry point of the contract is defined beside its rule
(in brackets in the table) and imported here.
"""

from __future__ import annotations

from schafkopf_env.trumps import TRUMP_BETTEL, TRUMP_FARBWENZ, TRUMP_GEIER, TRUMP_WENZ  # noqa: F401

from .layout import *  # noqa: F403  (re-exported: the state and observation layout)
from .observe import observe, partner_known_to  # noqa: F401
from .play import legal_card_bits  # noqa: F401
from .resample import *  # noqa: F403  (re-exported: the resampling protocol of trick_core.drivers)
from .rules import apply, apply_action, legal_action_bits, legal_action_mask, random_step  # noqa: F401
from .scoring import (  # noqa: F401
    contract_value,
    counted_laufende,
    declarer_side_totals,
    laufende_with,
    settle,
    settlement,
    value_with,
)
from .state import current_seat, deal_random, deal_random_for_dealer, init_state  # noqa: F401
from .tables import *  # noqa: F403  (re-exported: the game's constants and make_params)
