"""Asserufen as data: actions and their strings, contracts, phases, card masks, score items, ``make_params``.

Rules: ``docs/rules/palatinate_schafkopf.md#3-asserufen-for-four-active-players`` (with the common rules of
section 1). Cards follow ``trick_core.cards.FRENCH_32``: card ``suit * 8 + rank``, suits ``C S H D``, ranks
``A 10 K Q J 9 8 7``.

**Actions** (one ``Discrete(56)`` space):

| actions | meaning |
|---|---|
| 0..6 | bid: ``weg haenge_an darf_man solo heart_solo solo_du heart_solo_du`` (the action is the bid's level) |
| 7..8 | ``accept refuse``: the ``haenge_an`` player's answer to ``darf_man`` |
| 9..17 | ``call:C call:S call:D call:C10 call:S10 call:D10 call:CK call:SK call:DK`` |
| 18..20 | ``trump:C trump:S trump:D``: the trump suit of a Solo or Solo Du |
| 21..23 | ``contra re no_double`` |
| 24..55 | play card ``action - 24`` (``CA`` ... ``D7``) |

**Trump kinds** are those of ``schafkopf_env.trumps``: suit ``0..3`` (Queens, Jacks, then that suit).
"""

from __future__ import annotations

import numpy as np

from schafkopf_env.trumps import NUM_CARDS, RANK_10, RANK_A, RANK_K
from trick_core.cards import FRENCH_32

GAME = "asserufen"
NUM_SEATS = 4
MAX_SEATS = NUM_SEATS
HAND_SIZE = 8
NUM_TRICKS = 8
MAX_DOUBLINGS_LIMIT = 8
"""Largest allowed ``max_doublings`` (fixes the observation size; 2**8 is far beyond real play)."""

# --------------------------------------------------------------------------- actions
ACTION_WEG = 0
ACTION_HAENGE_AN = 1
ACTION_DARF_MAN = 2
ACTION_SOLO = 3
ACTION_HEART_SOLO = 4
ACTION_SOLO_DU = 5
ACTION_HEART_SOLO_DU = 6
ACTION_ACCEPT = 7
ACTION_REFUSE = 8
CALL_ACTION_BASE = 9
NUM_CALL_ACTIONS = 9
TRUMP_ACTION_BASE = 18
NUM_TRUMP_ACTIONS = 3
ACTION_CONTRA = 21
ACTION_RE = 22
ACTION_NO_DOUBLE = 23
CARD_ACTION_BASE = 24
NUM_ACTIONS = CARD_ACTION_BASE + NUM_CARDS
MAX_ACTIONS = NUM_ACTIONS

SUIT_C, SUIT_S, SUIT_H, SUIT_D = 0, 1, 2, 3
NON_HEART_SUITS = np.array([SUIT_C, SUIT_S, SUIT_D], dtype=np.int64)
"""The suits that are not trump in the ace-call game: whose aces (tens, Kings) may be called."""
CALL_CARDS = np.array([suit * 8 + rank for rank in (RANK_A, RANK_10, RANK_K) for suit in (0, 1, 3)], dtype=np.int64)
"""Card called by action ``CALL_ACTION_BASE + i``: CA SA DA, C10 S10 D10, CK SK DK."""
TRUMP_ACTION_SUITS = NON_HEART_SUITS
"""Suit named by action ``TRUMP_ACTION_BASE + i`` (hearts need no naming: Heart Solo is its own bid)."""

BID_NAMES = ("weg", "haenge_an", "darf_man", "solo", "heart_solo", "solo_du", "heart_solo_du")
ACTION_NAMES = (
    BID_NAMES
    + ("accept", "refuse")
    + ("call:C", "call:S", "call:D", "call:C10", "call:S10", "call:D10", "call:CK", "call:SK", "call:DK")
    + tuple("trump:" + "CSHD"[int(s)] for s in TRUMP_ACTION_SUITS)
    + ("contra", "re", "no_double")
    + tuple(FRENCH_32.name_of(c) for c in range(NUM_CARDS))
)
assert len(ACTION_NAMES) == NUM_ACTIONS

# --------------------------------------------------------------------------- contracts
CONTRACT_NONE = 0
CONTRACT_ACE_CALL = 1
CONTRACT_SOLO = 2
CONTRACT_HEART_SOLO = 3
CONTRACT_SOLO_DU = 4
CONTRACT_HEART_SOLO_DU = 5
CONTRACT_NAMES = ("none", "ace_call", "solo", "heart_solo", "solo_du", "heart_solo_du")
NOT_SPOKEN = -1
"""A seat's bid before it has spoken."""

# --------------------------------------------------------------------------- phases
PHASE_BIDDING = 0
PHASE_ANSWER = 1
PHASE_CALL = 2
PHASE_TRUMP = 3
PHASE_OFFER = 4
"""An opponent (or the hidden partner) at their first card: contra or no_double."""
PHASE_ROUND = 5
"""After a double: every other player in turn is asked re or no_double."""
PHASE_PLAY = 6
PHASE_OVER = 7
NUM_PHASES = 8
PHASE_NAMES = ("bidding", "answer", "call", "trump", "contra_offer", "doubling_round", "play", "over")

# --------------------------------------------------------------------------- card masks
FULL_MASK = np.uint64((1 << NUM_CARDS) - 1)
NON_TRUMP_ACES_MASK = np.uint64(sum(1 << (s * 8 + RANK_A) for s in (0, 1, 3)))
NON_TRUMP_TENS_MASK = np.uint64(sum(1 << (s * 8 + RANK_10) for s in (0, 1, 3)))
NON_TRUMP_KINGS_MASK = np.uint64(sum(1 << (s * 8 + RANK_K) for s in (0, 1, 3)))

# --------------------------------------------------------------------------- score items
SCORE_WON = 0
SCORE_SIDE_POINTS = 1
SCORE_SIDE_TRICKS = 2
SCORE_GAME = 3
SCORE_HEARTS = 4
SCORE_SCHNEIDER = 5
SCORE_SCHWARZ = 6
SCORE_HOCH = 7
SCORE_DU_FACTOR = 8
SCORE_DOUBLINGS = 9
SCORE_VALUE = 10
SCORE_SIZE = 11
SCORE_NAMES = (
    "declarer_won",
    "declarer_side_points",
    "declarer_side_tricks",
    "game",
    "hearts",
    "schneider",
    "schwarz",
    "hoch",
    "du_factor",
    "doublings",
    "value",
)

# --------------------------------------------------------------------------- params
PARAM_MAX_DOUBLINGS = 0
PARAMS_SIZE = 1
DEFAULT_MAX_DOUBLINGS = 4
"""(pinned) Doubling is capped; four doublings by default."""


def make_params(max_doublings: int = DEFAULT_MAX_DOUBLINGS, **unknown) -> np.ndarray:
    """Validate the rule options and pack them; ``ValueError`` names any unknown or bad option."""
    if unknown:
        raise ValueError(f"asserufen: unknown option(s) {sorted(unknown)}; known: ['max_doublings']")
    if isinstance(max_doublings, bool) or not isinstance(max_doublings, (int, np.integer)):
        raise ValueError(f"asserufen: max_doublings must be an integer, got {max_doublings!r}")
    if not 0 <= int(max_doublings) <= MAX_DOUBLINGS_LIMIT:
        raise ValueError(f"asserufen: max_doublings must be in 0..{MAX_DOUBLINGS_LIMIT}, got {max_doublings}")
    params = np.zeros(PARAMS_SIZE, dtype=np.int64)
    params[PARAM_MAX_DOUBLINGS] = int(max_doublings)
    return params
