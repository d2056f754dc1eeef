"""Palatinate Schafkopf as data: seats and sizes, contracts, actions and their strings, phases, the
answers to schenken, and the rule options (``make_params``).

Rules: ``docs/rules/palatinate_schafkopf.md`` (sections 1 and 2). Cards follow
``trick_core.cards.FRENCH_32``: card ``suit * 8 + rank``, suits ``C S H D``, ranks ``A 10 K Q J 9 8 7``.

**Seats.** ``players`` is 3 (everybody plays, the dealer included) or 4 (the dealer sits out: never acts,
scores with the opponents). Seat numbers stay ``0..players - 1``; the three *active* seats are those dealt
to, from forehand (left of the dealer) clockwise.

**Actions** (one ``Discrete(81)`` space; ``ACTION_NAMES`` holds the fixed strings):

| range | string | meaning |
|---|---|---|
| 0..31 | ``"CA"`` ... ``"D7"`` | play the card (the action is the card index) |
| 32..63 | ``"discard:CA"`` ... | simple game: lay the card away (twice) |
| 64 | ``"pass"`` | bidding, either round |
| 65..68 | ``"solo"`` ``"heart_solo"`` ``"solo_du"`` ``"heart_solo_du"`` | round one: name a solo kind |
| 69 | ``"simple"`` | round two: ask for the simple game |
| 70..73 | ``"trump:C"`` ``"trump:S"`` ``"trump:H"`` ``"trump:D"`` | the declarer names trump |
| 74, 75, 76 | ``"contra"`` ``"re"`` ``"no_double"`` | doubling |
| 77, 78 | ``"schenken"`` ``"no_schenken"`` | an opponent offers to give up, or not |
| 79, 80 | ``"accept"`` ``"refuse"`` | the declarer's answer to the offer |

Legal actions are two ``uint64`` bit words (``rules.legal_action_bits``): actions 0..63 in the low word,
actions 64..80 in the high word (bit ``a - HIGH_WORD_BASE``).
"""

from __future__ import annotations

import numpy as np

from schafkopf_env.trumps import NUM_CARDS
from trick_core.cards import FRENCH_32

GAME = "palatinate"
NUM_ACTIVE = 3
"""Players who take part in a hand (the fourth, with ``players=4``, is the dealer sitting out)."""
MAX_SEATS = 4
HAND_SIZE = 10
SKAT_SIZE = 2
NUM_TRICKS = 10
MAX_DOUBLINGS_LIMIT = 10
"""Largest allowed ``max_doublings`` (a hand is worth at most 2**10 times its base value)."""
FULL_DECK = np.uint64((1 << NUM_CARDS) - 1)
FULL_POINTS = 120
"""Card points of the whole pack."""
WINNING_POINTS = 61
SCHNEIDER_BELOW = 30
"""A side with fewer card points than this is schneider."""
HOCH_FROM = 3
"""Fewest top trumps in sequence that count (hoch)."""

# --------------------------------------------------------------------------- contracts (by precedence)
CONTRACT_NONE = -1
CONTRACT_SIMPLE = 0
CONTRACT_SOLO = 1
CONTRACT_HEART_SOLO = 2
CONTRACT_SOLO_DU = 3
CONTRACT_HEART_SOLO_DU = 4
CONTRACT_NAMES = ("simple", "solo", "heart_solo", "solo_du", "heart_solo_du")
NUM_CONTRACTS = 5
"""A solo kind's bid action is ``ACTION_PASS + contract``; ``CONTRACT_SOLO_DU`` and up are the Du."""

# --------------------------------------------------------------------------- actions
CARD_ACTION_BASE = 0
DISCARD_ACTION_BASE = 32
ACTION_PASS = 64
ACTION_SOLO = 65
ACTION_HEART_SOLO = 66
ACTION_SOLO_DU = 67
ACTION_HEART_SOLO_DU = 68
ACTION_SIMPLE = 69
TRUMP_ACTION_BASE = 70
ACTION_CONTRA = 74
ACTION_RE = 75
ACTION_NO_DOUBLE = 76
ACTION_SCHENKEN = 77
ACTION_NO_SCHENKEN = 78
ACTION_ACCEPT = 79
ACTION_REFUSE = 80
NUM_ACTIONS = 81
MAX_ACTIONS = NUM_ACTIONS
HIGH_WORD_BASE = 64
"""Actions from here on live in the second bit word of a legal-action set."""


def _action_names() -> tuple[str, ...]:
    cards = [FRENCH_32.name_of(c) for c in range(NUM_CARDS)]
    names = cards + [f"discard:{c}" for c in cards]
    names += ["pass", *CONTRACT_NAMES[1:], "simple"]
    names += [f"trump:{s}" for s in FRENCH_32.suits]
    names += ["contra", "re", "no_double", "schenken", "no_schenken", "accept", "refuse"]
    assert len(names) == NUM_ACTIONS
    return tuple(names)


ACTION_NAMES = _action_names()

# --------------------------------------------------------------------------- phases
PHASE_BID_ONE = 0
PHASE_TRUMP = 1
PHASE_BID_TWO = 2
PHASE_DISCARD = 3
PHASE_SCHENKEN = 4
PHASE_SCHENKEN_ANSWER = 5
PHASE_CONTRA_OFFER = 6
PHASE_DOUBLING = 7
PHASE_PLAY = 8
PHASE_OVER = 9
NUM_PHASES = 10
PHASE_NAMES = (
    "bid_one",
    "trump",
    "bid_two",
    "discard",
    "schenken",
    "schenken_answer",
    "contra_offer",
    "doubling",
    "play",
    "over",
)

# --------------------------------------------------------------------------- answers
NOT_ASKED = -1
"""A seat's entry in the bids and schenken fields before it is asked."""
SCHENKEN_NONE = 0
SCHENKEN_ACCEPTED = 1
SCHENKEN_REFUSED = 2
"""The declarer's answer to a schenken offer (``SCHENKEN_NONE``: no offer answered)."""

# --------------------------------------------------------------------------- params
PARAM_PLAYERS = 0
PARAM_MAX_DOUBLINGS = 1
PARAMS_SIZE = 2


def _is_integer(value) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, np.integer))


def make_params(players: int = 3, max_doublings: int = 4) -> np.ndarray:
    """Validated configuration as the kernel's ``int64`` params array (``ValueError`` naming a bad value)."""
    if not _is_integer(players) or players not in (3, 4):
        raise ValueError(f"palatinate: players must be 3 or 4 (4: the dealer sits out), got {players!r}")
    if not _is_integer(max_doublings) or not 0 <= max_doublings <= MAX_DOUBLINGS_LIMIT:
        raise ValueError(
            f"palatinate: max_doublings must be an integer 0..{MAX_DOUBLINGS_LIMIT}, got {max_doublings!r}"
        )
    params = np.zeros(PARAMS_SIZE, dtype=np.int64)
    params[PARAM_PLAYERS] = players
    params[PARAM_MAX_DOUBLINGS] = max_doublings
    return params
