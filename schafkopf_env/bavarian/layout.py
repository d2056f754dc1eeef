"""Where everything lives: the kernel's state array and the observation vector of Bavarian Schafkopf.

The state is one flat ``int64`` array laid out with ``trick_core.layout.StateLayout`` (the common fields
first, under the names every game uses); bit masks are stored as ``int64`` and read back with
``np.uint64(...)``. The observation offsets are the table of the env's docs page (``bavarian_v0``).
"""

from __future__ import annotations

from schafkopf_env.trumps import NUM_CARDS, NUM_SUITS
from trick_core.layout import StateLayout

from .tables import NUM_BIDS, NUM_PHASES, NUM_SEATS, NUM_TRICKS, PARAMS_SIZE

# --------------------------------------------------------------------------- state
TRICK_RECORD = 6
"""A trick in the state: leader, four cards in playing order, winner (-1 until complete)."""
HISTORY_CAPACITY = 40
"""At most 4 bids + 1 call or trump + 32 cards = 37 actions."""

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
OBS_HAND = 0  # 32 cards held
OBS_DEALER = OBS_HAND + NUM_CARDS  # 4 relative seat of the dealer
OBS_TO_ACT = OBS_DEALER + NUM_SEATS  # 4 relative seat to act (zeros once over)
OBS_PHASE = OBS_TO_ACT + NUM_SEATS  # 5 bidding, calling, choosing_trump, playing, over
OBS_BIDS = OBS_PHASE + NUM_PHASES  # 4 x 7 each seat's bid (pass..sie); zeros: not bid yet
OBS_CONTRACT = OBS_BIDS + NUM_SEATS * NUM_BIDS  # 6 rufer..sie once fixed
OBS_DECLARER = OBS_CONTRACT + NUM_BIDS - 1  # 4 highest bidder so far
OBS_TRUMP = OBS_DECLARER + NUM_SEATS  # 5 trump kind: suit E G H S, or Wenz (Unters only)
OBS_CALLED_SUIT = OBS_TRUMP + NUM_SUITS + 1  # 4 called ace's suit E G H S (H never)
OBS_PARTNER = OBS_CALLED_SUIT + NUM_SUITS  # 4 holder of the called ace, once this seat knows it
OBS_CALLED_DONE = OBS_PARTNER + NUM_SEATS  # 1 the first trick led in the called suit is complete
OBS_TRICK_LEADER = OBS_CALLED_DONE + 1  # 4 leader of the trick in progress
OBS_TRICK = OBS_TRICK_LEADER + NUM_SEATS  # 4 x 32 card each seat played to the trick in progress
OBS_PLAYED = OBS_TRICK + NUM_SEATS * NUM_CARDS  # 4 x 32 cards each seat played to completed tricks
OBS_POINTS = OBS_PLAYED + NUM_SEATS * NUM_CARDS  # 4 card points taken / 120
OBS_TRICKS_WON = OBS_POINTS + NUM_SEATS  # 4 tricks taken / 8
OBS_SIZE_OBSERVATION = OBS_TRICKS_WON + NUM_SEATS
# information_state adds perfect recall of the own deal and of every completed trick:
OBS_DEALT_HAND = OBS_SIZE_OBSERVATION  # 32 the hand as dealt
OBS_HISTORY = OBS_DEALT_HAND + NUM_CARDS  # 8 x (4 leader + 4 x 32 card of each seat)
OBS_HISTORY_TRICK = NUM_SEATS + NUM_SEATS * NUM_CARDS
OBS_SIZE_INFORMATION_STATE = OBS_HISTORY + NUM_TRICKS * OBS_HISTORY_TRICK
# perfect adds every seat's cards:
OBS_ALL_HANDS = OBS_SIZE_INFORMATION_STATE  # 4 x 32 cards each seat holds
OBS_SIZE_PERFECT = OBS_ALL_HANDS + NUM_SEATS * NUM_CARDS
OBS_TYPE_OBSERVATION, OBS_TYPE_INFORMATION_STATE, OBS_TYPE_PERFECT = range(3)
OBS_SIZES = (OBS_SIZE_OBSERVATION, OBS_SIZE_INFORMATION_STATE, OBS_SIZE_PERFECT)
