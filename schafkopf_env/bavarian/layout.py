"""Where everything lives: the kernel's state array and the observation vector of Bavarian Schafkopf.

The state is one flat ``int64`` array laid out with ``trick_core.layout.StateLayout`` (the common fields
first, under the names every game uses); bit masks are stored as ``int64`` and read back with
``np.uint64(...)``. The observation is laid out by blocks (``observation_layout``, the table of the env's
docs page ``bavarian_v0``; ``OBS_*`` the offsets the compiled ``observe`` writes at).
"""

from __future__ import annotations

from schafkopf_env.trumps import NUM_CARDS, NUM_SUITS, VOID_SUITS
from trick_core.layout import StateLayout, block_starts

from .tables import (
    MAX_DOUBLINGS,
    NUM_BIDS,
    NUM_CONTRACTS,
    NUM_SEATS,
    NUM_TRICKS,
    OBSERVED_PHASES,
    PARAM_CONTRACTS,
    PARAM_KLOPFEN,
    PARAM_MAX_DOUBLINGS,
    PARAMS_SIZE,
)

# --------------------------------------------------------------------------- state
TRICK_RECORD = 6
"""A trick in the state: leader, four cards in playing order, winner (-1 until complete)."""
HISTORY_CAPACITY = 64
"""At most 4 bids + 1 call or trump + 32 cards = 37 actions, with ``doubling`` three contra offers and
three answers after each of four doublings (+ the four doublings said), with ``klopfen`` four answers."""

layout = StateLayout("bavarian")
S_PARAMS = layout.field("params", PARAMS_SIZE)
S_DEALER = layout.field("dealer")
S_PHASE = layout.field("phase")
S_SEAT_TO_ACT = layout.field("seat_to_act")  # -1 once over
S_HIGHEST_BID = layout.field("highest_bid")
S_DECLARER = layout.field("declarer")  # -1 until someone bids
S_CONTRACT = layout.field("contract")  # PASS (0) until the bidding is over; stays PASS when thrown in
S_TRUMP_KIND = layout.field("trump_kind")  # -1 until the contract is fixed
S_CALLED_SUIT = layout.field("called_suit")  # -1 unless a Rufer
S_PARTNER = layout.field("partner")  # holder of the called ace (hidden information), -1 unless a Rufer
S_PARTNER_KNOWN = layout.field("partner_known")  # 1 once the table knows the partner
S_CALLED_DONE = layout.field("called_done")  # 1 once the first trick led in the called suit is complete
S_LAUFENDE = layout.field("laufende")  # counted Laufende (0 when fewer than the contract's minimum)
S_TOUT_LOST = layout.field("tout_lost")
S_TRICK_NUMBER = layout.field("trick_number")  # completed tricks
S_TRICK_SIZE = layout.field("trick_size")  # cards in the trick in progress
S_HISTORY_LENGTH = layout.field("history_length")
S_BIDS = layout.field("bids", NUM_SEATS)  # each seat's bid (-1 not yet)
S_DEALT_HANDS = layout.field("dealt_hands", NUM_SEATS)
S_HANDS = layout.field("hands", NUM_SEATS)
S_POINTS = layout.field("points", NUM_SEATS)
S_TRICKS_WON = layout.field("tricks_won", NUM_SEATS)
S_DOUBLINGS = layout.field("doublings")  # Kontra, Re ... said so far (doubling=True)
S_DOUBLERS = layout.field("doublers", MAX_DOUBLINGS)  # the seat that said each
S_PENDING_PLAYER = layout.field("pending_player")  # the seat to play once the doubling is over
S_ROUND_ANSWERS = layout.field("round_answers")  # no_double answers since the last doubling
S_KNOCKS = layout.field("knocks")  # seats that knocked (klopfen=True)
S_KNOCKED = layout.field("knocked", NUM_SEATS)  # 1 if the seat knocked
S_FIRST_CARDS = layout.field("first_cards", NUM_SEATS)  # the first half of each hand dealt (what Klopfen sees)
S_TRICKS = layout.field("tricks", NUM_TRICKS * TRICK_RECORD)
S_HISTORY_SEATS = layout.field("history_seats", HISTORY_CAPACITY)
S_HISTORY_ACTIONS = layout.field("history_actions", HISTORY_CAPACITY)
STATE_SIZE = layout.size

SHUFFLE_SCRATCH = S_HISTORY_SEATS
"""Where a random deal shuffles the pack: the action history, empty until the hand starts and cleared
by it, so that dealing allocates nothing."""
assert HISTORY_CAPACITY >= NUM_CARDS

# --------------------------------------------------------------------------- observation
# Seats are relative to the observer: 0 = itself, 1 = next to act after it (left), 2 = across, 3 = right.
# Every entry is in [0, 1]. The env's docs page (bavarian_v0) shows this table.
OBS_HISTORY_TRICK = NUM_SEATS + NUM_SEATS * NUM_CARDS
"""One completed trick in the information state: its leader, then the card of each relative seat."""
OBSERVATION_BLOCKS = (
    ("hand", NUM_CARDS),  # cards held
    ("dealer", NUM_SEATS),  # relative seat of the dealer
    ("to_act", NUM_SEATS),  # relative seat to act (zeros once over)
    ("phase", OBSERVED_PHASES),  # bidding, calling, choosing_trump, playing, over
    ("bids", NUM_SEATS * NUM_BIDS),  # each seat's bid (pass..sie); zeros: not bid yet
    ("contract", NUM_BIDS - 1),  # rufer..sie once fixed
    ("declarer", NUM_SEATS),  # highest bidder so far
    ("trump", NUM_SUITS + 1),  # trump kind: suit E G H S, or Wenz (Unters only)
    ("called_suit", NUM_SUITS),  # called ace's suit E G H S (H never)
    ("partner", NUM_SEATS),  # holder of the called ace, once this seat knows it
    ("called_done", 1),  # 1 the first trick led in the called suit is complete
    ("leader", NUM_SEATS),  # leader of the trick in progress
    ("trick", NUM_SEATS * NUM_CARDS),  # card each seat played to the trick in progress
    ("played", NUM_SEATS * NUM_CARDS),  # cards each seat played to completed tricks
    ("points", NUM_SEATS),  # card points taken / 120
    ("tricks_won", NUM_SEATS),  # tricks taken / tricks of a hand (8, or 6 with the short pack)
    ("voids", NUM_SEATS * VOID_SUITS),  # per seat: suits E G H S and trumps it has shown it lacks
)
INFORMATION_STATE_BLOCKS = (  # perfect recall of the own deal and of every completed trick
    ("dealt_hand", NUM_CARDS),
    ("trick_history", NUM_TRICKS * OBS_HISTORY_TRICK),
)
PERFECT_BLOCKS = (("hands", NUM_SEATS * NUM_CARDS),)  # every seat's cards
DOUBLING_BLOCKS = (  # doubling=True only: after the observation's blocks, before the information state's
    ("doubling_turn", 2),  # this decision: a contra offer, a round of asking after a double
    ("doublers", MAX_DOUBLINGS * NUM_SEATS),  # the relative seat that said the k-th double (Kontra, Re, ...)
)
DOUBLING_OBS_SIZE = sum(size for _, size in DOUBLING_BLOCKS)
KLOPFEN_BLOCKS = (  # klopfen=True only: after the doubling blocks (if any)
    ("klopfen_turn", 1),  # this decision is Klopfen (the hand block shows the first cards only)
    ("knocked", NUM_SEATS),  # the relative seats that knocked
)
KLOPFEN_OBS_SIZE = sum(size for _, size in KLOPFEN_BLOCKS)
NUM_EXTRA_CONTRACTS = NUM_CONTRACTS - NUM_BIDS - 1
"""geier, farbwenz, geier_tout, farbwenz_tout, bettel: the contracts of the options (after the Ramsch)."""
CONTRACT_BLOCKS = (  # geier, farbwenz or bettel only: after the Klopfen blocks (if any)
    ("extra_bids", NUM_SEATS * NUM_EXTRA_CONTRACTS),  # each relative seat's bid if one of these five
    ("extra_contract", NUM_EXTRA_CONTRACTS),  # the contract once fixed, if one of these five
)
CONTRACT_OBS_SIZE = sum(size for _, size in CONTRACT_BLOCKS)


def observation_layout(params, obs_type: int) -> list[tuple[str, int]]:
    """The observation vector as ``(name, size)`` blocks in the order ``observe`` writes them: with
    ``doubling`` and ``klopfen`` (``params``) their blocks follow the observation's own, in that order
    (``params`` None: the default)."""
    extra = ()
    if params is not None and params[PARAM_MAX_DOUBLINGS] > 0:
        extra += DOUBLING_BLOCKS
    if params is not None and params[PARAM_KLOPFEN] > 0:
        extra += KLOPFEN_BLOCKS
    if params is not None and params[PARAM_CONTRACTS] > 0:
        extra += CONTRACT_BLOCKS
    blocks = (OBSERVATION_BLOCKS + extra, INFORMATION_STATE_BLOCKS, PERFECT_BLOCKS)
    return [block for kind in blocks[: obs_type + 1] for block in kind]


def observation_size(params, obs_type: int) -> int:
    """Entries of the observation vector (the sum of ``observation_layout``)."""
    return sum(size for _, size in observation_layout(params, obs_type))


_START = block_starts(observation_layout(None, 2))
OBS_DOUBLING_TURN = _START["voids"] + NUM_SEATS * VOID_SUITS
OBS_DOUBLERS = OBS_DOUBLING_TURN + 2
"""With ``doubling``: the doubling blocks' offsets; every later block lies ``DOUBLING_OBS_SIZE`` further on."""
OBS_EXTRA = OBS_DOUBLING_TURN
"""Where the options' blocks start: the doubling blocks, then the Klopfen blocks (``DOUBLING_OBS_SIZE`` on
with ``doubling``); the information state's blocks follow them."""
OBS_HAND = _START["hand"]
OBS_DEALER = _START["dealer"]
OBS_TO_ACT = _START["to_act"]
OBS_PHASE = _START["phase"]
OBS_BIDS = _START["bids"]
OBS_CONTRACT = _START["contract"]
OBS_DECLARER = _START["declarer"]
OBS_TRUMP = _START["trump"]
OBS_CALLED_SUIT = _START["called_suit"]
OBS_PARTNER = _START["partner"]
OBS_CALLED_DONE = _START["called_done"]
OBS_TRICK_LEADER = _START["leader"]
OBS_TRICK = _START["trick"]
OBS_PLAYED = _START["played"]
OBS_POINTS = _START["points"]
OBS_TRICKS_WON = _START["tricks_won"]
OBS_VOIDS = _START["voids"]
OBS_DEALT_HAND = _START["dealt_hand"]
OBS_HISTORY = _START["trick_history"]
OBS_ALL_HANDS = _START["hands"]
"""The blocks' offsets, which the compiled ``observe`` writes at."""
OBS_TYPE_OBSERVATION, OBS_TYPE_INFORMATION_STATE, OBS_TYPE_PERFECT = range(3)
OBS_SIZE_OBSERVATION, OBS_SIZE_INFORMATION_STATE, OBS_SIZE_PERFECT = OBS_SIZES = tuple(
    observation_size(None, obs_type) for obs_type in range(3)
)
