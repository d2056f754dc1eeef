"""Palatinate Schafkopf's kernel: the contract of ``docs/architecture.md`` in one module.

Everything a user of the rules needs — the env (``palatinate_v0``), the batch env, the drivers of
``trick_core.drivers`` (playouts, resampling, search), the agents, the benchmarks — is imported from
here; the rules themselves live in the modules of this package, by concern:

| module | holds |
|---|---|
| ``tables`` | seats, contracts, actions and their strings, phases, ``make_params`` |
| ``layout`` | the state array's fields and the observation's blocks (``observation_layout``) |
| ``state`` | the active seats, dealing, starting and ending a hand |
| ``bidding`` | round one (the solo kinds), round two (the simple game, its discards), naming trump |
| ``schenken`` | the opponents' offer to give up and the declarer's answer |
| ``doubling`` | contra at an opponent's first card, the rounds of asking, the cap |
| ``play`` | legal cards, tricks and their winners, the end of a Du at its first lost trick |
| ``scoring`` | hoch, the declarer's points, the value of the hand, the settlement |
| ``rules`` | the phases joined: legal actions and the effect of an action |
| ``observe`` | the observation of a seat |
| ``resample`` | what a seat knows of the hidden cards (constraints and replay for ``resample_hidden``) |
| ``heuristic`` | the playout policy of the ``pimc`` agent |
| ``reference`` | the plain-Python twin of the rules the kernel is tested against |

The entry points of the contract are defined where their rules live (``init_state``, ``deal_random``
and ``current_seat`` in ``state``, ``legal_action_mask`` and ``apply_action`` in ``rules``, ``settlement``
in ``scoring``, ``observe``) and imported here. The rules are those of
``docs/rules/palatinate_schafkopf.md`` (sections 1 and 2).

**Fixed deals.** ``init_state(state, params, dealer, deal_cards)``: ``deal_cards`` holds 32 card indices,
the ten cards of each *active* seat in increasing seat number, then the two skat cards.
"""

from __future__ import annotations

from schafkopf_env.trumps import CARD_POINTS, NUM_CARDS  # noqa: F401  (re-exported for the tests and agents)

from .layout import *  # noqa: F403  (re-exported: the state and observation layout)
from .observe import observe  # noqa: F401
from .play import legal_card_bits  # noqa: F401
from .resample import *  # noqa: F403  (re-exported: the resampling protocol of trick_core.drivers)
from .rules import apply_action, is_legal, legal_action_bits, legal_action_mask, random_step  # noqa: F401
from .scoring import declarer_card_points, hand_value, hoch_count, settlement  # noqa: F401
from .state import current_seat, deal_random, init_state  # noqa: F401
from .tables import *  # noqa: F403  (re-exported: the game's constants and make_params)
