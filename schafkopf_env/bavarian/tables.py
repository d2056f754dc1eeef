"""Bavarian Schafkopf as data: contracts and their values, actions and their strings, phases, card masks.

Rules: ``docs/rules/bavarian_schafkopf.md``. Cards follow ``trick_core.cards.GERMAN_32``: card
``suit * 8 + rank``, suits ``E G H S``, ranks ``A 10 K O U 9 8 7``.

**Actions** (one ``Discrete(46)`` space):

| actions | meaning |
|---|---|
| 0..31 | play card ``i`` (the action is the card index) |
| 32..38 | bid: ``pass rufer wenz solo wenz_tout solo_tout sie`` (action ``32 + contract``) |
| 39..41 | ``call:E call:G call:S``: the called ace of a Rufer |
| 42..45 | ``trump:E trump:G trump:H trump:S``: the trump suit of a Solo or Solo Tout |

**Trump kinds** are those of ``schafkopf_env.trumps``: suit ``0..3`` (Obers, Unters, then that suit:
hearts for a Rufer, the chosen suit for a Solo) and ``TRUMP_WENZ`` (the Unters only).
"""

from __future__ import annotations

import numpy as np

from schafkopf_env.trumps import NUM_CARDS, NUM_RANKS, NUM_SUITS, RANK_A, RANK_O, RANK_U

GAME = "bavarian"
NUM_SEATS = 4
MAX_SEATS = NUM_SEATS
HAND_SIZE = 8
NUM_TRICKS = 8

# --------------------------------------------------------------------------- contracts (bidding ladder)
PASS, RUFER, WENZ, SOLO, WENZ_TOUT, SOLO_TOUT, SIE = range(7)
NUM_BIDS = 7
CONTRACT_NAMES = ("pass", "rufer", "wenz", "solo", "wenz_tout", "solo_tout", "sie")
BASE_VALUE = np.array([0, 1, 5, 5, 10, 10, 20], dtype=np.int64)
"""Units of each contract before Schneider, Schwarz and Laufende."""
LAUFENDE_FROM = np.array([99, 3, 2, 3, 2, 3, 0], dtype=np.int64)
"""Fewest Laufende that count: three in a Rufer, Solo, Solo Tout; two in a Wenz and Wenz Tout."""
LAUFENDE_UNIT = np.array([0, 1, 1, 1, 2, 2, 4], dtype=np.int64)
"""Units per Laufender: one, two in a Tout, four in a Sie."""
SIE_LAUFENDE = 8
"""(pinned) A Sie counts exactly its eight Obers and Unters: 20 + 8 x 4 = 52."""

# --------------------------------------------------------------------------- actions
CARD_ACTION_BASE = 0
BID_ACTION_BASE = 32
CALL_ACTION_BASE = 39
TRUMP_ACTION_BASE = 42
NUM_ACTIONS = 46
MAX_ACTIONS = NUM_ACTIONS
CALLABLE_SUITS = np.array([0, 1, 3], dtype=np.int64)
"""Suits whose ace a Rufer may call (hearts are trumps): Eichel, Gras, Schellen."""
_SUIT_LETTERS = "EGHS"
_RANK_NAMES = ("A", "10", "K", "O", "U", "9", "8", "7")
ACTION_NAMES = (
    tuple(s + r for s in _SUIT_LETTERS for r in _RANK_NAMES)
    + CONTRACT_NAMES
    + tuple(f"call:{_SUIT_LETTERS[s]}" for s in CALLABLE_SUITS)
    + tuple(f"trump:{s}" for s in _SUIT_LETTERS)
)
assert len(ACTION_NAMES) == NUM_ACTIONS

# --------------------------------------------------------------------------- phases
PHASE_BIDDING, PHASE_CALLING, PHASE_TRUMP, PHASE_PLAYING, PHASE_OVER = range(5)
NUM_PHASES = 5
PHASE_NAMES = ("bidding", "calling", "choosing_trump", "playing", "over")

# --------------------------------------------------------------------------- card masks
FULL_MASK = np.uint64((1 << NUM_CARDS) - 1)
OBER_UNTER_MASK = np.uint64(sum(1 << (s * NUM_RANKS + r) for s in range(NUM_SUITS) for r in (RANK_O, RANK_U)))
PLAIN_SUIT_MASK = np.array(
    [sum(1 << (s * NUM_RANKS + r) for r in range(NUM_RANKS) if r not in (RANK_O, RANK_U)) for s in range(NUM_SUITS)],
    dtype=np.uint64,
)
"""Cards of each suit other than its Ober and Unter: what counts as 'a plain card of the suit'."""
ACE_OF_SUIT = np.array([s * NUM_RANKS + RANK_A for s in range(NUM_SUITS)], dtype=np.int64)

# --------------------------------------------------------------------------- params
PARAMS_SIZE = 1
PARAM_RULES_VERSION = 0
RULES_VERSION = 0
"""Bavarian Schafkopf has no rule options; the params array only carries the rules version."""


def make_params(**options) -> np.ndarray:
    """Validate the rule configuration and return the params array (this game has no rule options, so
    any option is unknown)."""
    if options:
        raise ValueError(f"bavarian: unknown rule option(s) {sorted(options)}; this game has none")
    params = np.zeros(PARAMS_SIZE, dtype=np.int64)
    params[PARAM_RULES_VERSION] = RULES_VERSION
    return params
