"""Knüffeln's kernel: the contract of ``docs/architecture.md`` in one module.

Everything a user of the rules needs — the env (``knuffeln_v0``), the batch env, the drivers of
``trick_core.drivers`` (playouts, resampling, search), the agents, the benchmarks — is imported from
here; the rules themselves live in the modules of this package, by concern:

| module | holds |
|---|---|
| ``tables`` | cards and their roles, variants, options (``make_params``), actions and their strings, phases |
| ``layout`` | the state array's fields and the observation's blocks (``observation_layout``) |
| ``state`` | small readers: card masks, suits, teams |
| ``deal`` | dealing, the turn-up of the chosen suits, the start of a hand, the five-player dealer's choice |
| ``exchanges`` | the ten exchange and the bottom-Ole exchange |
| ``talk`` | talk turns, utterances and their log |
| ``play`` | which card beats which, leading, following, completing a trick |
| ``turning`` | drehen: leading face down, accepting, fleeing |
| ``scoring`` | five tricks, Jann, Durchmarsch, the payment |
| ``rules`` | the phases joined: legal actions and the effect of an action |
| ``observe`` | the observation of a seat |
| ``resample`` | what a seat knows of the hidden cards (constraints and replay for ``resample_hidden``) |
| ``match`` | the ladder of match play (``match=True``), used by the env and the batch env |
| ``heuristic`` | the playout policy of the ``pimc`` agent |
| ``reference`` | the plain-Python twin of the rules (and the ladder) the kernel is tested against |

The entry points of the contract are defined where their rules live (``init_state`` and ``deal_random`` in
``deal``, ``current_seat`` in ``state``, ``legal_action_mask`` and ``apply_action`` in ``rules``,
``settlement`` in ``scoring``, ``observe``) and imported here. The rules are those of
``docs/rules/knuffeln.md``. **Deal cards** for ``init_state``: the hands seat by
seat (five players: the four non-dealers in seat order), 9 cards each, then the 12 stock cards from the top
(turned first) to the bottom.
"""

from __future__ import annotations

from .deal import deal_random, init_state  # noqa: F401
from .layout import *  # noqa: F403  (re-exported: the state and observation layout)
from .observe import observe  # noqa: F401
from .play import beats, trick_winner_position  # noqa: F401
from .resample import *  # noqa: F403  (re-exported: the resampling protocol of trick_core.drivers)
from .rules import (  # noqa: F401
    apply_action,
    draw_legal_action,
    is_legal,
    legal_action_mask,
    legal_sets,
    random_legal_action,
    random_step,
)
from .scoring import settlement  # noqa: F401
from .state import current_seat  # noqa: F401
from .tables import *  # noqa: F403  (re-exported: the game's constants, make_params, action_names)
