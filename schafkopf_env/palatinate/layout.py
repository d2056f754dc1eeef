"""Where everything lives: the kernel's state array and the observation vector of Palatinate Schafkopf.

The state is one flat ``int64`` array laid out with ``trick_core.layout.StateLayout`` (the common fields
first, under the names every game uses); bit masks are stored as ``int64`` and read back with
``np.uint64(...)``. Per-seat fields have ``MAX_SEATS`` entries, indexed by seat number.

The observation depends on ``players`` and ``max_doublings``: ``observation_layout(params, obs_type)`` lists
its blocks in the order the kernel writes them (the table of the env's docs page,
``schafkopf_env.palatinate_v0``, is the default configuration's).
"""

from __future__ import annotations

from schafkopf_env.trumps import VOID_SUITS
from trick_core.layout import StateLayout

from .tables import (
    MAX_DOUBLINGS_LIMIT,
    MAX_SEATS,
    NUM_ACTIVE,
    NUM_CONTRACTS,
    NUM_PHASES,
    NUM_TRICKS,
    PARAM_MAX_DOUBLINGS,
    PARAM_PLAYERS,
    PARAMS_SIZE,
)

# --------------------------------------------------------------------------- state
TRICK_LOG_ENTRY = 5
"""A completed trick in the state: leader, three cards in playing order, winner."""
HISTORY_CAPACITY = 96
"""Upper bound on the decisions of one hand: 9 bidding/skat/trump + 3 schenken + 2 offers
+ 3 per doubling (at most 10) + 2 final answers + 30 cards = 76."""

layout = StateLayout("palatinate")
S_PARAMS = layout.field("params", PARAMS_SIZE)
S_PLAYERS = S_PARAMS + PARAM_PLAYERS
S_MAX_DOUBLINGS = S_PARAMS + PARAM_MAX_DOUBLINGS
S_DEALER = layout.field("dealer")
S_PHASE = layout.field("phase")
S_SEAT_TO_ACT = layout.field("seat_to_act")  # -1 once over
S_ACTIVE = layout.field("active", NUM_ACTIVE)  # the active seats, forehand first
S_NEXT = layout.field("next", MAX_SEATS)  # per seat: the next active seat clockwise
S_DEALT_HANDS = layout.field("dealt_hands", MAX_SEATS)  # per seat: the ten dealt cards (mask)
S_SKAT = layout.field("skat")  # the two skat cards as dealt (mask)
S_HANDS = layout.field("hands", MAX_SEATS)  # per seat: cards held now (mask)
S_PLAYED = layout.field("played", MAX_SEATS)  # per seat: cards played to tricks (mask)
S_SPOKEN = layout.field("spoken")  # players who have spoken in the current bidding round
S_BID_ONE = layout.field("bid_one", MAX_SEATS)  # per seat: NOT_ASKED, 0 pass, 1..4 the solo kind named
S_BID_TWO = layout.field("bid_two", MAX_SEATS)  # per seat: NOT_ASKED, 0 pass, 1 simple
S_HIGH_BID = layout.field("high_bid")  # highest solo kind named so far (0: none)
S_HIGH_BIDDER = layout.field("high_bidder")
S_DECLARER = layout.field("declarer")
S_CONTRACT = layout.field("contract")  # CONTRACT_NONE until fixed
S_TRUMP = layout.field("trump")  # trump suit 0..3 (the trump kind of schafkopf_env.trumps), -1 before named
S_DISCARDS = layout.field("discards")  # mask of the simple-game declarer's discards
S_NUM_DISCARDS = layout.field("num_discards")
S_SCHENKEN = layout.field("schenken", MAX_SEATS)  # per seat: NOT_ASKED, 0 no_schenken, 1 schenken
S_SCHENKEN_ANSWER = layout.field("schenken_answer")  # SCHENKEN_NONE / _ACCEPTED / _REFUSED
S_DOUBLINGS = layout.field("doublings")
S_DOUBLER = layout.field("doubler", MAX_DOUBLINGS_LIMIT)  # per doubling: the seat that said it
S_DOUBLED_AT = layout.field("doubled_at", MAX_DOUBLINGS_LIMIT)  # per doubling: cards on the table in trick 1
S_OFFERED = layout.field("offered", MAX_SEATS)  # per seat: 1 once offered contra at the first card
S_ASK_LEFT = layout.field("ask_left")  # answers still due in the current doubling round
S_PENDING = layout.field("pending")  # the opponent whose first card waits for the doubling to end
S_TRICK_NUMBER = layout.field("trick_number")  # completed tricks
S_LEADER = layout.field("leader")  # leader of the trick in progress
S_TRICK_SIZE = layout.field("trick_size")  # cards in the trick in progress
S_TRICK_CARDS = layout.field("trick_cards", NUM_ACTIVE)  # the trick in progress, in playing order
S_POINTS = layout.field("points", MAX_SEATS)  # per seat: card points in tricks won
S_TRICKS_WON = layout.field("tricks_won", MAX_SEATS)
S_TRICK_LOG = layout.field("trick_log", NUM_TRICKS * TRICK_LOG_ENTRY)  # completed tricks
S_WON = layout.field("won")  # 1 if the declarer won (once over)
S_VALUE = layout.field("value")  # game value (once over)
S_HOCH = layout.field("hoch")  # top trumps counted (0 below three)
S_DECLARER_POINTS = layout.field("declarer_points")  # tricks plus skat (solo) or discards (simple)
S_THROWN_IN = layout.field("thrown_in")
S_HISTORY_LENGTH = layout.field("history_length")
S_HISTORY_SEATS = layout.field("history_seats", HISTORY_CAPACITY)
S_HISTORY_ACTIONS = layout.field("history_actions", HISTORY_CAPACITY)
STATE_SIZE = layout.size

# --------------------------------------------------------------------------- observation
OBS_TYPE_OBSERVATION, OBS_TYPE_INFORMATION_STATE, OBS_TYPE_PERFECT = range(3)
CARDS = 32
"""Entries of a card block (one per card)."""


def observation_layout(params, obs_type: int) -> list[tuple[str, int]]:
    """The observation vector as ``(name, size)`` blocks in the order ``observe`` writes them; it depends on
    the rule options ``players`` and ``max_doublings`` of ``params``. The docs page's table says what each
    block holds, with its indices for the default configuration.

    Positions are relative to the observing seat: position 0 is the seat itself, 1 the next seat
    clockwise, and so on (``players`` positions; with four the dealer who sits out has one too).
    """
    n = int(params[PARAM_PLAYERS])
    max_doublings = int(params[PARAM_MAX_DOUBLINGS])
    blocks = [
        ("dealer", n),
        ("to_act", n),
        ("phase", NUM_PHASES),
        ("hand", CARDS),
        ("bid_one", n * 4 + n),
        ("bid_two", n * 2),
        ("declarer", n),
        ("contract", NUM_CONTRACTS),
        ("trump", 4),
        ("skat_taken", CARDS),
        ("discards", CARDS),
        ("schenken", n * 2),
        ("schenken_answer", 2),
        ("doublings", max_doublings * (n + 3)),
        ("played", n * CARDS),
        ("trick", n * CARDS),
        ("leader", n),
        ("points", n),
        ("tricks_won", n),
        ("voids", n * VOID_SUITS),
    ]
    if obs_type >= OBS_TYPE_INFORMATION_STATE:
        blocks.append(("trick_history", NUM_TRICKS * (n + n * CARDS)))
    if obs_type == OBS_TYPE_PERFECT:
        blocks.append(("hands", n * CARDS))
        blocks.append(("skat", CARDS))
    return blocks


def observation_size(params, obs_type: int) -> int:
    """Entries of the observation vector (the sum of ``observation_layout``)."""
    return sum(size for _, size in observation_layout(params, obs_type))
