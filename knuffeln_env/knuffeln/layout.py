"""Where everything lives: the kernel's state array and the observation vector of Knüffeln.

The state is one flat ``int64`` array laid out with ``trick_core.layout.StateLayout`` (the common fields
under the names every game uses); card masks are stored as ``int64``. Knüffeln counts tricks only, so a
seat's ``points`` are the tricks it took, as ``tricks_won``; the rules read the tricks of each team
(``S_TEAM_TRICKS``). The observation is laid out block by block (``observation_layout``), its size
depending on the players and the talk option; the env's docs page (``knuffeln_v0``) shows the table.
"""

from __future__ import annotations

from trick_core.layout import StateLayout

from . import tables

# --------------------------------------------------------------------------- state
MAX_TALK = 36
"""Talk turns in a hand at most: nine tricks of four talking players (the lone dealer does not talk)."""
HISTORY_CAPACITY = 128
"""Actions in a hand at most: 100 with four players (6 ten-exchange asks, 12 Ole asks, 36 cards, 36 talk
turns, 9 answers, a stop), 99 with five (the dealer's choice, 7 asks, 45 cards, 36 talk turns, 9 answers, a
stop)."""
TRICK_LOG_WIDTH = 3 + tables.MAX_SEATS
"""Per completed trick: leader, winner, led face down and accepted (0/1), then the card of each seat (-1)."""
OLE_LOG_SIZE = 3
"""At most three bottom Oles are taken in a hand."""

layout = StateLayout("knuffeln")
S_PARAMS = layout.field("params", tables.PARAMS_SIZE)
S_VARIANT = S_PARAMS + tables.PARAM_VARIANT
S_PLAYERS = S_PARAMS + tables.PARAM_PLAYERS
S_TALK = S_PARAMS + tables.PARAM_TALK
S_TOKENS = S_PARAMS + tables.PARAM_TOKENS
S_DEALER = layout.field("dealer")
S_PHASE = layout.field("phase")
S_SEAT_TO_ACT = layout.field("seat_to_act")  # -1 once over
S_FOREHAND = layout.field("forehand")
S_REDEALS = layout.field("redeals")  # new deals by the same dealer: four of one suit turned
S_DEALT_HANDS = layout.field("dealt_hands", tables.MAX_SEATS)  # as dealt (after any redeal): the record of the deal
S_STOCK = layout.field("stock", tables.STOCK_SIZE)  # stock cards, top (turned first) to bottom
S_HANDS = layout.field("hands", tables.MAX_SEATS)
S_FIRST_SUIT = layout.field("first_suit")
S_SECOND_SUIT = layout.field("second_suit")
S_CHOSEN = layout.field("chosen")  # 4-bit mask of the chosen suits
S_NUM_TURNED = layout.field("num_turned")
S_TURNED_MASK = layout.field("turned_mask")  # the cards turned to choose the suits
S_FACE_UP_MASK = layout.field("face_up_mask")  # turned cards now lying face up beside the stock (tens included)
S_STOCK_MASK = layout.field("stock_mask")  # face-down stock cards still in it (not turned, not taken)
S_OUT_MASK = layout.field("out_mask")  # Queens/Kings given for Oles: face down in the stock, out of play
S_PUBLIC_STOCK_MASK = layout.field("public_stock_mask")  # stock cards shown to all (bottom Oles, 1924 three)
S_DEALER_SEEN_MASK = layout.field("dealer_seen_mask")  # stock cards the dealer looked at
S_EXCHANGED_IN = layout.field("exchanged_in", tables.MAX_SEATS)  # cards each seat received by exchange (public)
S_EXCHANGED_OUT = layout.field("exchanged_out", tables.MAX_SEATS)  # cards each seat gave by exchange (public)
S_TENS_EXCHANGED = layout.field("tens_exchanged")  # suit mask of chosen suits whose ten was exchanged
S_ASK_ORDER = layout.field("ask_order", tables.MAX_SEATS)  # seats asked in the running exchange round, in order
S_ASK_LENGTH = layout.field("ask_length")
S_ASK_INDEX = layout.field("ask_index")
S_OLE_POSITION = layout.field("ole_position")  # stock index of the Ole on offer (or being checked)
S_OLE_ENTITLED = layout.field("ole_entitled")  # seat that may take it (-1: nobody)
S_OLE_GIVE = layout.field("ole_give")  # the Queen or King that seat would give
S_OLES_TAKEN = layout.field("oles_taken")
S_CHECK_STOP_POSITION = layout.field("check_stop_position")  # stock index of the non-Ole ending the check (-1)
S_OLE_LOG_TAKER = layout.field("ole_log_taker", OLE_LOG_SIZE)
S_OLE_LOG_GIVEN = layout.field("ole_log_given", OLE_LOG_SIZE)
S_OLE_LOG_TAKEN = layout.field("ole_log_taken", OLE_LOG_SIZE)
S_DEALER_MODE = layout.field("dealer_mode")  # DEALER_* of tables
S_TEAM = layout.field("team", tables.MAX_SEATS)  # team of each seat, -1 sitting out
S_NEXT = layout.field("next", tables.MAX_SEATS)  # next seat in playing order
S_NUM_ACTIVE = layout.field("num_active")
S_TARGET = layout.field("target", 2)  # tricks a team needs to win the hand
S_MAX_TRICKS = layout.field("max_tricks")
S_TRICK_NUMBER = layout.field("trick_number")  # completed tricks
S_LEADER = layout.field("leader")
S_TRICK_SIZE = layout.field("trick_size")  # cards on the table in the current trick
S_TRICK_CARD = layout.field("trick_card", tables.MAX_SEATS)  # in playing order
S_TRICK_SEAT = layout.field("trick_seat", tables.MAX_SEATS)
S_TRICK_FACE_DOWN = layout.field("trick_face_down")  # the led card lies face down awaiting the answer
S_FACE_DOWN_CARD = layout.field("face_down_card")  # that card (kept after a flee: it stays hidden), -1
S_TURNER = layout.field("turner")
S_DECIDER = layout.field("decider")
S_TEAM_TRICKS = layout.field("team_tricks", 2)
S_STREAK_TEAM = layout.field("streak_team")  # team that won every trick so far (-1)
S_JANN_PENDING = layout.field("jann_pending")  # the leader chooses: stop (take the Jann) or lead (march)
S_COMMITTED = layout.field("committed")  # team committed to a Durchmarsch (-1)
S_ACCEPTED = layout.field("accepted")  # accepted turns in this hand
S_ACCEPTED_BY = layout.field("accepted_by", 2)  # accepted turns offered by each team
S_PLAYED = layout.field("played", tables.MAX_SEATS)  # cards each seat has played face up (or face down, accepted)
S_TRICK_LOG = layout.field("trick_log", tables.MAX_TRICKS * TRICK_LOG_WIDTH)
S_TALK_COUNT = layout.field("talk_count")
S_TALK_SEAT = layout.field("talk_seat", MAX_TALK)
S_TALK_ACTION = layout.field("talk_action", MAX_TALK)
S_RESULT_KIND = layout.field("result_kind")
S_WINNER_TEAM = layout.field("winner_team")
S_RESULT_UNITS = layout.field("result_units")
S_RESULT_BY_FLEE = layout.field("result_by_flee")
S_SETTLEMENT = layout.field("settlement", tables.MAX_SEATS)
S_POINTS = layout.field("points", tables.MAX_SEATS)  # tricks taken: only tricks count in Knüffeln
S_TRICKS_WON = layout.field("tricks_won", tables.MAX_SEATS)
S_HISTORY_LENGTH = layout.field("history_length")
S_HISTORY_SEATS = layout.field("history_seats", HISTORY_CAPACITY)
S_HISTORY_ACTIONS = layout.field("history_actions", HISTORY_CAPACITY)
S_PACK = layout.field("pack", tables.NUM_CARDS)  # scratch: the shuffled pack while dealing
STATE_SIZE = layout.size

# --------------------------------------------------------------------------- observation
OBS_OBSERVATION, OBS_INFORMATION_STATE, OBS_PERFECT = range(3)
OBS_HIGH = 64.0
NUM_COUNTERS = 9
"""Tricks mine, theirs; tricks needed mine, theirs; tricks played; accepted turns all, mine, theirs; stake."""
NUM_FLAGS = 4
"""Jann pending mine, theirs; march committed mine, theirs."""
NUM_RESULT_FEATURES = 8
"""Over, won, lost, then the result kind one-hot (``tables.RESULT_NAMES``)."""
NUM_DEALER_CHOICES = 3
"""Five players: the dealer's choice undecided, alone, sits out (``tables.DEALER_*``)."""
TALK_CARD_FEATURES = tables.NUM_SUITS + tables.NUM_RANKS


def talk_vocabulary(params) -> int:
    """Utterance classes of a talk slot: lexicon = silent, 24 phrases, show; tokens = silent, N tokens."""
    mode = int(params[tables.PARAM_TALK])
    if mode == tables.TALK_OFF:
        return 0
    if mode == tables.TALK_LEXICON:
        return 2 + tables.NUM_PHRASES
    return 1 + int(params[tables.PARAM_TOKENS])


def observation_layout(params, obs_type: int) -> list[tuple[str, int]]:
    """The observation vector as ``(name, size)`` blocks in the order ``observe`` writes them, for the
    configuration ``params`` (the docs page's table says what each holds, with its indices for the default
    configuration). Per-seat blocks have ``n`` relative seats, card blocks one entry per card."""
    n = int(params[tables.PARAM_PLAYERS])
    c = tables.NUM_CARDS
    blocks = [
        ("dealer", n), ("team", n), ("active", n), ("phase", tables.NUM_PHASES), ("to_act", n),
        ("first_suit", tables.NUM_SUITS), ("second_suit", tables.NUM_SUITS),
        ("hand", c), ("turned", c), ("face_up", c), ("stock_shown_to_all", c), ("stock_known", c),
        ("out_of_play", c), ("received", n * c), ("given", n * c), ("dealer_choice", NUM_DEALER_CHOICES),
        ("ole_on_offer", c), ("played", n * c), ("trick", n * c), ("leader", n), ("awaiting_answer", n),
        ("my_face_down", c), ("counters", NUM_COUNTERS), ("flags", NUM_FLAGS), ("result", NUM_RESULT_FEATURES),
    ]
    vocabulary = talk_vocabulary(params)
    if vocabulary:  # per talk slot: the speaker, the utterance, the shown card's suit and rank
        blocks.append(("talk", MAX_TALK * (n + vocabulary + TALK_CARD_FEATURES)))
    if obs_type >= OBS_INFORMATION_STATE:  # per trick: its leader, each seat's card, led face down and accepted
        blocks.append(("trick_history", tables.MAX_TRICKS * (n + n * c + 1)))
    if obs_type == OBS_PERFECT:
        blocks += [("hands", n * c), ("stock", c), ("face_down_lead", c)]
    return blocks


def observation_size(params, obs_type: int) -> int:
    return sum(size for _, size in observation_layout(params, obs_type))
