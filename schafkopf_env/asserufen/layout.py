"""Where everything lives: the kernel's state array and the observation vector of Asserufen.

The state is one flat ``int64`` array laid out with ``trick_core.layout.StateLayout`` (the common fields
under the names every game uses); bit masks are stored as ``int64`` and read back with ``np.uint64(...)``.
The observation is laid out by blocks (``observation_layout``), the index table of the env's docs page
(``asserufen_v0``; a test checks the two agree).
"""

from __future__ import annotations

from schafkopf_env.trumps import NUM_CARDS, VOID_SUITS
from trick_core.layout import StateLayout, fixed_observation_layout

from .tables import MAX_DOUBLINGS_LIMIT, NUM_PHASES, NUM_SEATS, NUM_TRICKS, PARAMS_SIZE

# --------------------------------------------------------------------------- state
HISTORY_CAPACITY = 128
"""Actions one hand can take: 4 bids, 1 answer, 1 call/trump, <= 3 offers, doublings with their rounds
(<= 8 doubles + 3 answers each + 3), 32 cards: below 90."""

layout = StateLayout("asserufen")
S_PARAMS = layout.field("params", PARAMS_SIZE)  # params[PARAM_MAX_DOUBLINGS]: the cap on doublings
S_DEALER = layout.field("dealer")
S_PHASE = layout.field("phase")
S_SEAT_TO_ACT = layout.field("seat_to_act")  # -1 once over
S_DEALT_HANDS = layout.field("dealt_hands", NUM_SEATS)
S_HANDS = layout.field("hands", NUM_SEATS)
S_PLAYED_BY = layout.field("played_by", NUM_SEATS)  # per seat: the cards it has played (mask)
S_BIDS = layout.field("bids", NUM_SEATS)  # each seat's bid action, NOT_SPOKEN before it speaks
S_NUM_SPOKEN = layout.field("num_spoken")
S_HIGHEST_BID = layout.field("highest_bid")  # -1 while everybody said weg
S_HIGHEST_BIDDER = layout.field("highest_bidder")
S_HAENGE_AN_SEAT = layout.field("haenge_an_seat")  # who said haenge_an, -1 if nobody
S_ANSWER = layout.field("answer")  # ACTION_ACCEPT / ACTION_REFUSE once answered, else -1
S_CONTRACT = layout.field("contract")  # CONTRACT_NONE until the bidding is over; stays so when thrown in
S_DECLARER = layout.field("declarer")
S_TRUMP_KIND = layout.field("trump_kind")  # -1 until the contract is fixed
S_CALLED_CARD = layout.field("called_card")  # -1 unless an ace-call game
S_PARTNER = layout.field("partner")  # holder of the called card (hidden information), -1 if none
S_PARTNER_KNOWN = layout.field("partner_known")  # 1 once the partnership is public
S_CALLED_SUIT_DONE = layout.field("called_suit_done")  # 1 once the first trick led in the called suit is complete
S_RAN_AWAY = layout.field("ran_away")  # 1 if the partner ran away (that trick complete without the called card)
S_DOUBLINGS = layout.field("doublings")
S_LAST_DOUBLER = layout.field("last_doubler")
S_ROUND_ANSWERS = layout.field("round_answers")  # no_double answers in a row in the doubling round
S_PENDING_PLAYER = layout.field("pending_player")  # the seat about to play when the doubling began
S_DOUBLERS = layout.field("doublers", MAX_DOUBLINGS_LIMIT)  # the seat of each double, in order
S_TRICK_NUMBER = layout.field("trick_number")  # completed tricks
S_TRICK_SIZE = layout.field("trick_size")  # cards in the trick in progress
S_TRICK_LEADERS = layout.field("trick_leaders", NUM_TRICKS)
S_TRICK_CARDS = layout.field("trick_cards", NUM_TRICKS * NUM_SEATS)  # per trick, the cards in playing order
S_TRICK_WINNERS = layout.field("trick_winners", NUM_TRICKS)
S_POINTS = layout.field("points", NUM_SEATS)
S_TRICKS_WON = layout.field("tricks_won", NUM_SEATS)
S_VOID_SUITS = layout.field("void_suits", NUM_SEATS)  # per seat: bits of the effective suits it failed to follow
S_DU_LOST = layout.field("du_lost")  # 1 once the opponents won a trick in a Du
S_HISTORY_LENGTH = layout.field("history_length")
S_HISTORY_SEATS = layout.field("history_seats", HISTORY_CAPACITY)
S_HISTORY_ACTIONS = layout.field("history_actions", HISTORY_CAPACITY)
STATE_SIZE = layout.size

SHUFFLE_SCRATCH = S_TRICK_CARDS
"""Where a random deal shuffles the pack: the trick cards, empty until play begins (and cleared again by
the deal), so that dealing allocates nothing."""
assert NUM_TRICKS * NUM_SEATS >= NUM_CARDS

# --------------------------------------------------------------------------- observation
BID_SLOTS = 8
"""Per seat in the observation: not yet spoken, then the seven bid actions."""
OBS_HISTORY_TRICK = NUM_SEATS + NUM_SEATS * NUM_CARDS + NUM_SEATS
"""One completed trick in the information state: leader, the card of each relative seat, winner."""
OBSERVATION_BLOCKS = (  # seats relative to the observer; the docs page's table says what each holds
    ("hand", NUM_CARDS),
    ("dealer", NUM_SEATS),
    ("phase", NUM_PHASES),
    ("to_act", NUM_SEATS),
    ("bids", NUM_SEATS * BID_SLOTS),
    ("answer", 2),
    ("contract", 5),
    ("declarer", NUM_SEATS),
    ("trump", 4),
    ("called_card", NUM_CARDS),
    ("partner_known", 1),
    ("partner", NUM_SEATS),
    ("called_rules", 2),
    ("doublings", 1),
    ("doubles_by_seat", NUM_SEATS),
    ("leader", NUM_SEATS),
    ("trick", NUM_SEATS * NUM_CARDS),
    ("played", NUM_SEATS * NUM_CARDS),
    ("tricks_won", NUM_SEATS),
    ("points", NUM_SEATS),
    ("tricks_completed", 1),
    ("voids", NUM_SEATS * VOID_SUITS),  # per seat: suits E G H S and trumps it has shown it lacks
)
INFORMATION_STATE_BLOCKS = (
    ("trick_history", NUM_TRICKS * OBS_HISTORY_TRICK),
    ("doubling_history", MAX_DOUBLINGS_LIMIT * NUM_SEATS),
)
PERFECT_BLOCKS = (("hands", NUM_SEATS * NUM_CARDS),)
observation_layout, observation_size = fixed_observation_layout(
    (OBSERVATION_BLOCKS, INFORMATION_STATE_BLOCKS, PERFECT_BLOCKS)
)
OBS_TYPE_OBSERVATION, OBS_TYPE_INFORMATION_STATE, OBS_TYPE_PERFECT = range(3)
OBS_SIZE_OBSERVATION, OBS_SIZE_INFORMATION_STATE, OBS_SIZE_PERFECT = OBS_SIZES = tuple(
    observation_size(None, obs_type) for obs_type in range(3)
)
OBS_HIGH = 120.0
"""Largest value in any observation (card points of one seat)."""
