"""Compiled rules of Asserufen (Palatinate Schafkopf for four players with a called ace).

The kernel contract of ``docs/architecture.md``: the whole hand lives in one 1-D ``int64`` array
``state`` (layout below); every function is ``@njit`` and works in place. The rules are those of
``shared/rules/palatinate_schafkopf.md`` sections 1 and 3 with every (pinned) statement; the decisions
taken where the rules are silent are listed in ``schafkopf_env.asserufen_v0`` (the docs page).

Card layout ``trick_core.cards.FRENCH_32``: card ``suit * 8 + rank``, suits ``C S H D``, ranks
``A 10 K Q J 9 8 7``. Hand masks are stored as ``int64`` (32 bits suffice) and converted with
``np.uint64`` for the bit helpers.

Action layout (one ``Discrete(NUM_ACTIONS)``):

| index | strings |
|---|---|
| 0..6 | ``weg`` ``haenge_an`` ``darf_man`` ``solo`` ``heart_solo`` ``solo_du`` ``heart_solo_du`` (index = level) |
| 7..8 | ``accept`` ``refuse`` (the haenge_an player's answer to darf_man) |
| 9..17 | ``call:C`` ``call:S`` ``call:D`` ``call:C10`` ``call:S10`` ``call:D10`` ``call:CK`` ``call:SK`` ``call:DK`` |
| 18..20 | ``trump:C`` ``trump:S`` ``trump:D`` |
| 21..23 | ``contra`` ``re`` ``no_double`` |
| 24..55 | card plays ``CA`` ... ``D7`` (action ``24 + card``) |
"""

from __future__ import annotations

import numpy as np

from schafkopf_env.trumps import (
    CARD_POINTS,
    EFFECTIVE_SUIT,
    EFFECTIVE_SUIT_MASK,
    HEARTS,
    TRICK_POWER,
    TRUMP,
    consecutive_top_trumps,
)
from trick_core.bits import lowest_bit, nth_bit, popcount, uniform_below
from trick_core.cards import FRENCH_32
from trick_core.jit import inline_njit, njit, njit_no_refcount

# ------------------------------------------------------------------ sizes

GAME = "asserufen"
NUM_SEATS = 4
MAX_SEATS = NUM_SEATS
NUM_CARDS = 32
NUM_TRICKS = 8
HAND_SIZE = 8
MAX_DOUBLINGS_LIMIT = 8
"""Largest allowed ``max_doublings`` (fixes the observation size; 2**8 is far beyond real play)."""
HISTORY_CAPACITY = 128
"""Actions one hand can take: 4 bids, 1 answer, 1 call/trump, <= 3 offers, doublings with their rounds
(<= 8 doubles + 3 answers each + 3), 32 cards: below 90."""
MAX_RESAMPLE_ATTEMPTS = 4000

# ------------------------------------------------------------------ actions

ACTION_WEG = 0
ACTION_HAENGE_AN = 1
ACTION_DARF_MAN = 2
ACTION_SOLO = 3
ACTION_HEART_SOLO = 4
ACTION_SOLO_DU = 5
ACTION_HEART_SOLO_DU = 6
ACTION_ACCEPT = 7
ACTION_REFUSE = 8
ACTION_CALL_FIRST = 9
NUM_CALL_ACTIONS = 9
ACTION_TRUMP_FIRST = 18
NUM_TRUMP_ACTIONS = 3
ACTION_CONTRA = 21
ACTION_RE = 22
ACTION_NO_DOUBLE = 23
ACTION_CARD_FIRST = 24
NUM_ACTIONS = ACTION_CARD_FIRST + NUM_CARDS
MAX_ACTIONS = NUM_ACTIONS

SUIT_C, SUIT_S, SUIT_H, SUIT_D = 0, 1, 2, 3
RANK_A, RANK_10, RANK_K = 0, 1, 2
NON_TRUMP_SUITS_OF_HEART_GAME = np.array([SUIT_C, SUIT_S, SUIT_D], dtype=np.int64)
CALL_CARDS = np.array([suit * 8 + rank for rank in (RANK_A, RANK_10, RANK_K) for suit in (0, 1, 3)], dtype=np.int64)
"""Card called by action ``ACTION_CALL_FIRST + i``: CA SA DA, C10 S10 D10, CK SK DK."""
TRUMP_ACTION_SUITS = np.array([SUIT_C, SUIT_S, SUIT_D], dtype=np.int64)

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

# ------------------------------------------------------------------ contracts and phases

CONTRACT_NONE = 0
CONTRACT_ACE_CALL = 1
CONTRACT_SOLO = 2
CONTRACT_HEART_SOLO = 3
CONTRACT_SOLO_DU = 4
CONTRACT_HEART_SOLO_DU = 5
CONTRACT_NAMES = ("none", "ace_call", "solo", "heart_solo", "solo_du", "heart_solo_du")

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
PHASE_NAMES = ("bidding", "answer", "call", "trump", "contra_offer", "doubling_round", "play", "over")

NOT_SPOKEN = -1

# ------------------------------------------------------------------ params and state layout

PARAM_MAX_DOUBLINGS = 0
PARAMS_SIZE = 1

_layout: list[tuple[str, int]] = []


def _field(name: str, size: int = 1) -> int:
    offset = sum(s for _, s in _layout)
    _layout.append((name, size))
    return offset


MAX_DOUBLINGS = _field("max_doublings")
DEALER = _field("dealer")
PHASE = _field("phase")
SEAT_TO_ACT = _field("seat_to_act")
DEAL_HANDS = _field("deal_hands", NUM_SEATS)
HANDS = _field("hands", NUM_SEATS)
PLAYED_BY = _field("played_by", NUM_SEATS)
BIDS = _field("bids", NUM_SEATS)
NUM_SPOKEN = _field("num_spoken")
HIGHEST_BID = _field("highest_bid")
HIGHEST_BIDDER = _field("highest_bidder")
HAENGE_AN_SEAT = _field("haenge_an_seat")
ANSWER = _field("answer")
CONTRACT = _field("contract")
DECLARER = _field("declarer")
TRUMP_KIND = _field("trump_kind")
CALLED_CARD = _field("called_card")
PARTNER = _field("partner")
PARTNER_KNOWN = _field("partner_known")
CALLED_SUIT_DONE = _field("called_suit_done")
RAN_AWAY = _field("ran_away")
DOUBLINGS = _field("doublings")
LAST_DOUBLER = _field("last_doubler")
ROUND_ANSWERS = _field("round_answers")
PENDING_PLAYER = _field("pending_player")
DOUBLERS = _field("doublers", MAX_DOUBLINGS_LIMIT)
TRICK_NUMBER = _field("trick_number")
TRICK_COUNT = _field("trick_count")
TRICK_LEADERS = _field("trick_leaders", NUM_TRICKS)
TRICK_CARDS = _field("trick_cards", NUM_TRICKS * NUM_SEATS)
TRICK_WINNERS = _field("trick_winners", NUM_TRICKS)
POINTS = _field("points", NUM_SEATS)
TRICKS_WON = _field("tricks_won", NUM_SEATS)
VOID_SUITS = _field("void_suits", NUM_SEATS)
DU_LOST = _field("du_lost")
HISTORY_LENGTH = _field("history_length")
HISTORY_SEATS = _field("history_seats", HISTORY_CAPACITY)
HISTORY_ACTIONS = _field("history_actions", HISTORY_CAPACITY)
STATE_SIZE = sum(size for _, size in _layout)
STATE_LAYOUT = tuple(_layout)
"""(name, size) of every state field in order, for inspection and tests."""

# ------------------------------------------------------------------ observation layout

BID_SLOTS = 8  # not yet spoken + the seven bid actions
OBSERVATION_SEGMENTS = (
    ("own hand (card one-hot)", NUM_CARDS),
    ("dealer (relative seat)", NUM_SEATS),
    ("phase: bidding, answer, call, trump, contra_offer, doubling_round, play, over", 8),
    ("seat to act (relative seat; zeros once over)", NUM_SEATS),
    (
        "bids: 8 slots per relative seat (not yet spoken, then weg ... heart_solo_du in action order)",
        NUM_SEATS * BID_SLOTS,
    ),
    ("answer to darf_man: accept, refuse", 2),
    ("contract: ace_call, solo, heart_solo, solo_du, heart_solo_du", 5),
    ("declarer (relative seat)", NUM_SEATS),
    ("trump suit: C S H D", 4),
    ("called card (card one-hot)", NUM_CARDS),
    ("partnership public (called card played, partner said re, or partner ran away)", 1),
    ("partner (relative seat) if this seat knows it: public, or this seat is the partner", NUM_SEATS),
    ("called-suit rules over (first trick led in the called suit complete), partner ran away", 2),
    ("doublings so far (count)", 1),
    ("doubles said per relative seat (count)", NUM_SEATS),
    ("leader of the current trick (relative seat)", NUM_SEATS),
    ("current trick: card played by each relative seat (4 x 32)", NUM_SEATS * NUM_CARDS),
    ("cards played so far by each relative seat (4 x 32)", NUM_SEATS * NUM_CARDS),
    ("tricks won per relative seat (count)", NUM_SEATS),
    ("card points taken per relative seat", NUM_SEATS),
    ("tricks completed (count)", 1),
)
TRICK_RECORD_SIZE = NUM_SEATS + NUM_SEATS * NUM_CARDS + NUM_SEATS
INFORMATION_STATE_SEGMENTS = (
    ("trick history: 8 tricks x (leader 4, card by relative seat 4 x 32, winner 4)", NUM_TRICKS * TRICK_RECORD_SIZE),
    ("doubling history: 8 slots x the relative seat that said the k-th double", MAX_DOUBLINGS_LIMIT * NUM_SEATS),
)
PERFECT_SEGMENTS = (("cards still held by each relative seat (4 x 32)", NUM_SEATS * NUM_CARDS),)

OBS_SIZE_OBSERVATION = sum(size for _, size in OBSERVATION_SEGMENTS)
OBS_SIZE_INFORMATION_STATE = OBS_SIZE_OBSERVATION + sum(size for _, size in INFORMATION_STATE_SEGMENTS)
OBS_SIZE_PERFECT = OBS_SIZE_INFORMATION_STATE + sum(size for _, size in PERFECT_SEGMENTS)
OBS_SIZES = (OBS_SIZE_OBSERVATION, OBS_SIZE_INFORMATION_STATE, OBS_SIZE_PERFECT)
OBS_HIGH = 120.0
"""Largest value in any observation (card points of one seat)."""

# ------------------------------------------------------------------ score items

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

FULL_MASK = np.uint64((1 << NUM_CARDS) - 1)
ONE = np.uint64(1)
NON_TRUMP_ACES_MASK = np.uint64(sum(1 << (s * 8 + RANK_A) for s in (0, 1, 3)))
NON_TRUMP_TENS_MASK = np.uint64(sum(1 << (s * 8 + RANK_10) for s in (0, 1, 3)))
NON_TRUMP_KINGS_MASK = np.uint64(sum(1 << (s * 8 + RANK_K) for s in (0, 1, 3)))


def make_params(max_doublings: int = 4, **unknown) -> np.ndarray:
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


# ------------------------------------------------------------------ small helpers
# The hot path is written as small ``inline_njit`` helpers that numba inlines into the public entry points,
# which are ``njit_no_refcount`` where they allocate nothing (``trick_core.jit_fast`` says why both matter
# with ``cache=True``: about five times the random hands per second).


@inline_njit
def _bit(card):
    return ONE << np.uint64(card)


@inline_njit
def _mask(state, index):
    return np.uint64(state[index])


@inline_njit
def _has(mask, card):
    return (mask >> np.uint64(card)) & ONE != np.uint64(0)


@inline_njit
def _plain_suit_mask(kind, suit):
    """Cards of a plain suit under trump kind ``kind`` (its Queen and Jack are trumps)."""
    return EFFECTIVE_SUIT_MASK[kind, suit]


@inline_njit
def _is_solo(contract):
    return contract >= CONTRACT_SOLO


@inline_njit
def _is_du(contract):
    return contract == CONTRACT_SOLO_DU or contract == CONTRACT_HEART_SOLO_DU


@inline_njit
def on_declarer_side(state, seat):
    """Whether ``seat`` plays with the declarer (the declarer, or the holder of the called card)."""
    return seat == state[DECLARER] or (state[CONTRACT] == CONTRACT_ACE_CALL and seat == state[PARTNER])


@inline_njit
def may_say_darf_man(hand_mask):
    """Pinned: the player holds a non-heart plain card of a suit whose ace they do not hold."""
    for i in range(3):
        suit = NON_TRUMP_SUITS_OF_HEART_GAME[i]
        ace = suit * 8 + RANK_A
        if not _has(hand_mask, ace) and hand_mask & _plain_suit_mask(HEARTS, suit) != np.uint64(0):
            return True
    return False


@inline_njit
def callable_cards(hand_mask):
    """Cards the declarer of an ace-call game may call (bit mask).

    The ace of a non-trump suit not held, of a suit in which the declarer holds a card if there is one;
    with all three aces a ten not held; with all three aces and tens a King not held."""
    if hand_mask & NON_TRUMP_ACES_MASK != NON_TRUMP_ACES_MASK:
        preferred = np.uint64(0)
        allowed = np.uint64(0)
        for i in range(3):
            suit = NON_TRUMP_SUITS_OF_HEART_GAME[i]
            ace = suit * 8 + RANK_A
            if not _has(hand_mask, ace):
                allowed |= _bit(ace)
                if hand_mask & _plain_suit_mask(HEARTS, suit) != np.uint64(0):
                    preferred |= _bit(ace)
        return preferred if preferred != np.uint64(0) else allowed
    if hand_mask & NON_TRUMP_TENS_MASK != NON_TRUMP_TENS_MASK:
        return NON_TRUMP_TENS_MASK & ~hand_mask
    return NON_TRUMP_KINGS_MASK & ~hand_mask


@inline_njit
def _uniform_below(rng, n):
    """Uniform integer in ``[0, n)`` for small ``n`` from the top 32 random bits (multiply-shift: no
    division in the hot loop)."""
    return uniform_below(rng, n)


@inline_njit
def random_card(rng, mask):
    """A uniformly chosen card of a non-empty mask (branch-free select of the drawn set bit: random card
    choice must not cost a mispredicted loop per card)."""
    x = np.uint64(mask)
    return nth_bit(x, _uniform_below(rng, popcount(x)))


# ------------------------------------------------------------------ start of a hand


@inline_njit
def _start_hand(state, max_doublings, dealer):
    """A fresh hand with empty hands (``_give`` fills them); all of the state is cleared, so that a state
    is a function of the deal and the actions alone."""
    state[:] = 0
    state[MAX_DOUBLINGS] = max_doublings
    state[DEALER] = dealer
    for seat in range(NUM_SEATS):
        state[BIDS + seat] = NOT_SPOKEN
    for field in (
        HIGHEST_BID,
        HIGHEST_BIDDER,
        HAENGE_AN_SEAT,
        ANSWER,
        DECLARER,
        TRUMP_KIND,
        CALLED_CARD,
        PARTNER,
        LAST_DOUBLER,
        PENDING_PLAYER,
    ):
        state[field] = -1
    state[PHASE] = PHASE_BIDDING
    state[SEAT_TO_ACT] = (dealer + 1) % NUM_SEATS


@inline_njit
def _give(state, seat, card):
    bit = _bit(card)
    state[DEAL_HANDS + seat] = np.int64(_mask(state, DEAL_HANDS + seat) | bit)
    state[HANDS + seat] = np.int64(_mask(state, HANDS + seat) | bit)


@inline_njit
def _start_hand_with(state, max_doublings, dealer, hand_masks):
    _start_hand(state, max_doublings, dealer)
    for seat in range(NUM_SEATS):
        state[DEAL_HANDS + seat] = np.int64(hand_masks[seat])
        state[HANDS + seat] = np.int64(hand_masks[seat])


@njit  # not njit_no_refcount: a caller's deal given as a Python list needs reference counting
def init_state(state, params, dealer, deal_cards):
    """Start a hand from a fixed deal: ``deal_cards`` holds 32 card indices, seat 0's eight first."""
    _start_hand(state, params[PARAM_MAX_DOUBLINGS], dealer)
    for seat in range(NUM_SEATS):
        for i in range(HAND_SIZE):
            _give(state, seat, deal_cards[seat * HAND_SIZE + i])


@njit  # not njit_no_refcount: a caller's deal given as a Python list needs reference counting
def init_state_from_masks(state, params, dealer, hand_masks):
    """Start a hand from four hand masks (``int64`` or ``uint64`` array, seat by seat)."""
    _start_hand_with(state, params[PARAM_MAX_DOUBLINGS], dealer, hand_masks)


@njit_no_refcount
def deal_hands(state, params, dealer, rng):
    """Shuffle and deal packets of four from forehand round the table twice, for a given dealer.

    The (still empty) trick area of the new state serves as the shuffling table, so a deal allocates
    nothing."""
    _deal_hands(state, params, dealer, rng)


@inline_njit
def _deal_hands(state, params, dealer, rng):
    _start_hand(state, params[PARAM_MAX_DOUBLINGS], dealer)
    pack = TRICK_CARDS
    for i in range(NUM_CARDS):
        state[pack + i] = i
    for i in range(NUM_CARDS - 1, 0, -1):
        j = _uniform_below(rng, i + 1)
        state[pack + i], state[pack + j] = state[pack + j], state[pack + i]
    for packet in range(NUM_CARDS // 4):
        seat = (dealer + 1 + packet) % NUM_SEATS
        for k in range(4):
            _give(state, seat, state[pack + packet * 4 + k])
    for i in range(NUM_CARDS):
        state[pack + i] = 0


@njit_no_refcount
def deal_random(state, params, rng):
    """Draw the dealer, then deal at random (``deal_hands``)."""
    _deal_random(state, params, rng)


@inline_njit
def _deal_random(state, params, rng):
    _deal_hands(state, params, _uniform_below(rng, NUM_SEATS), rng)


@inline_njit
def current_seat(state):
    """Seat to act, -1 once the hand is over."""
    return state[SEAT_TO_ACT]


# ------------------------------------------------------------------ legality


@inline_njit
def legal_card_mask(state, seat):
    """Cards ``seat`` may play now: follow the led effective suit if possible, plus rules 1-3 of the
    called card while the first trick led in the called suit is not complete."""
    kind = state[TRUMP_KIND]
    hand = _mask(state, HANDS + seat)
    trick_start = TRICK_CARDS + state[TRICK_NUMBER] * NUM_SEATS
    leading = state[TRICK_COUNT] == 0
    if leading:
        legal = hand
    else:
        led_suit = EFFECTIVE_SUIT[kind, state[trick_start]]
        legal = hand & EFFECTIVE_SUIT_MASK[kind, led_suit]
        if legal == np.uint64(0):
            legal = hand
    if state[CONTRACT] != CONTRACT_ACE_CALL or state[CALLED_SUIT_DONE] == 1 or seat != state[PARTNER]:
        return legal
    called = state[CALLED_CARD]
    called_bit = _bit(called)
    called_suit_mask = EFFECTIVE_SUIT_MASK[kind, called // 8]
    if leading:
        # Rule 2: a called-suit lead must be the called card unless holding four or more of the suit.
        if popcount(hand & called_suit_mask) < 4:
            legal = (hand & ~called_suit_mask) | (hand & called_bit)
        return legal
    if EFFECTIVE_SUIT[kind, state[trick_start]] == called // 8:
        return called_bit  # Rule 1: the first trick led in the called suit by another player.
    # Rule 3: not discarded to another suit, unless it is the last card.
    without_called = legal & ~called_bit
    return without_called if without_called != np.uint64(0) else legal


@inline_njit
def _may_double_again(state, seat):
    return state[DOUBLINGS] < state[MAX_DOUBLINGS] and on_declarer_side(state, seat) != on_declarer_side(
        state, state[LAST_DOUBLER]
    )


@inline_njit
def _action_bit(action):
    return ONE << np.uint64(action)


@inline_njit
def legal_action_bits(state):
    """The legal actions of the seat to act as the bits of a ``uint64`` (56 actions fit; 0 once over)."""
    phase = state[PHASE]
    seat = state[SEAT_TO_ACT]
    if phase == PHASE_PLAY:
        return legal_card_mask(state, seat) << np.uint64(ACTION_CARD_FIRST)
    bits = np.uint64(0)
    if phase == PHASE_BIDDING:
        bits |= _action_bit(ACTION_WEG)
        highest = state[HIGHEST_BID]
        if highest == -1:
            bits |= _action_bit(ACTION_HAENGE_AN)
        if highest == ACTION_HAENGE_AN and may_say_darf_man(_mask(state, HANDS + seat)):
            bits |= _action_bit(ACTION_DARF_MAN)
        for bid in range(max(ACTION_SOLO, highest + 1), ACTION_HEART_SOLO_DU + 1):
            bits |= _action_bit(bid)
    elif phase == PHASE_ANSWER:
        bits |= _action_bit(ACTION_ACCEPT) | _action_bit(ACTION_REFUSE)
    elif phase == PHASE_CALL:
        callable_mask = callable_cards(_mask(state, HANDS + seat))
        for i in range(NUM_CALL_ACTIONS):
            if _has(callable_mask, CALL_CARDS[i]):
                bits |= _action_bit(ACTION_CALL_FIRST + i)
    elif phase == PHASE_TRUMP:
        for i in range(NUM_TRUMP_ACTIONS):
            bits |= _action_bit(ACTION_TRUMP_FIRST + i)
    elif phase == PHASE_OFFER:
        bits |= _action_bit(ACTION_NO_DOUBLE)
        if not on_declarer_side(state, seat):  # the hidden partner is asked but may only decline
            bits |= _action_bit(ACTION_CONTRA)
    elif phase == PHASE_ROUND:
        bits |= _action_bit(ACTION_NO_DOUBLE)
        if _may_double_again(state, seat):
            bits |= _action_bit(ACTION_RE)
    return bits


@inline_njit
def _bits_to_mask(bits, out):
    for action in range(NUM_ACTIONS):
        out[action] = (bits >> np.uint64(action)) & ONE


@njit_no_refcount
def legal_action_mask(state, out):
    """Fill int8 ``out[NUM_ACTIONS]`` with the legal actions of the seat to act (zeros once over)."""
    _bits_to_mask(legal_action_bits(state), out)


@inline_njit
def _is_legal(state, action):
    if action < 0 or action >= NUM_ACTIONS:
        return False
    return _has(legal_action_bits(state), action)


@njit_no_refcount
def is_legal(state, action):
    """Whether ``action`` is legal for the seat to act."""
    return _is_legal(state, action)


# ------------------------------------------------------------------ transitions


@inline_njit
def _to_play(state, seat):
    """``seat`` is about to play a card: first offer contra if this is their first card (pinned)."""
    if state[TRICK_NUMBER] == 0 and state[DOUBLINGS] == 0 and state[MAX_DOUBLINGS] > 0 and seat != state[DECLARER]:
        state[PHASE] = PHASE_OFFER
        state[PENDING_PLAYER] = seat
    else:
        state[PHASE] = PHASE_PLAY
    state[SEAT_TO_ACT] = seat


@inline_njit
def _start_play(state):
    state[TRICK_LEADERS] = (state[DEALER] + 1) % NUM_SEATS
    _to_play(state, (state[DEALER] + 1) % NUM_SEATS)


@inline_njit
def _end_hand(state):
    state[PHASE] = PHASE_OVER
    state[SEAT_TO_ACT] = -1


@inline_njit
def _end_bidding(state):
    highest = state[HIGHEST_BID]
    if highest == -1:
        state[CONTRACT] = CONTRACT_NONE  # all four said weg: thrown in
        _end_hand(state)
    elif highest == ACTION_DARF_MAN:
        state[PHASE] = PHASE_ANSWER
        state[SEAT_TO_ACT] = state[HAENGE_AN_SEAT]
    elif highest == ACTION_HAENGE_AN:
        _declare_ace_call(state, state[HIGHEST_BIDDER])
    else:
        state[CONTRACT] = highest - 1  # solo 3 -> 2, ..., heart_solo_du 6 -> 5
        state[DECLARER] = state[HIGHEST_BIDDER]
        if highest == ACTION_HEART_SOLO or highest == ACTION_HEART_SOLO_DU:
            state[TRUMP_KIND] = SUIT_H
            _start_play(state)
        else:
            state[PHASE] = PHASE_TRUMP
            state[SEAT_TO_ACT] = state[DECLARER]


@inline_njit
def _declare_ace_call(state, declarer):
    state[CONTRACT] = CONTRACT_ACE_CALL
    state[DECLARER] = declarer
    state[TRUMP_KIND] = SUIT_H
    state[PHASE] = PHASE_CALL
    state[SEAT_TO_ACT] = declarer


@inline_njit
def _apply_bid(state, seat, action):
    state[BIDS + seat] = action
    if action != ACTION_WEG:
        state[HIGHEST_BID] = action
        state[HIGHEST_BIDDER] = seat
        if action == ACTION_HAENGE_AN:
            state[HAENGE_AN_SEAT] = seat
    state[NUM_SPOKEN] += 1
    if state[NUM_SPOKEN] < NUM_SEATS:
        state[SEAT_TO_ACT] = (seat + 1) % NUM_SEATS
    else:
        _end_bidding(state)


@inline_njit
def _apply_call(state, action):
    card = CALL_CARDS[action - ACTION_CALL_FIRST]
    state[CALLED_CARD] = card
    for seat in range(NUM_SEATS):
        if _has(_mask(state, HANDS + seat), card):
            state[PARTNER] = seat
    _start_play(state)


@inline_njit
def _end_round(state):
    state[PHASE] = PHASE_PLAY
    state[SEAT_TO_ACT] = state[PENDING_PLAYER]


@inline_njit
def _double(state, seat):
    count = state[DOUBLINGS]
    state[DOUBLERS + count] = seat
    state[DOUBLINGS] = count + 1
    state[LAST_DOUBLER] = seat
    if state[CONTRACT] == CONTRACT_ACE_CALL and seat == state[PARTNER]:
        state[PARTNER_KNOWN] = 1  # a partner who says re is revealed
    if count + 1 >= state[MAX_DOUBLINGS]:
        _end_round(state)
    else:
        state[PHASE] = PHASE_ROUND
        state[ROUND_ANSWERS] = 0
        state[SEAT_TO_ACT] = (seat + 1) % NUM_SEATS


@inline_njit
def _apply_round_answer(state, seat, action):
    if action == ACTION_RE:
        _double(state, seat)
        return
    state[ROUND_ANSWERS] += 1
    if state[ROUND_ANSWERS] == NUM_SEATS - 1:
        _end_round(state)
    else:
        state[SEAT_TO_ACT] = (seat + 1) % NUM_SEATS


@inline_njit
def _winning_position(state, kind, start):
    """Position in playing order of the winning card of the four at ``state[start:start + 4]``: the
    highest trump, else the highest card of the led suit (``common.trick_winner_index`` without the
    array view, whose reference counting costs more than the trick itself)."""
    led_suit = EFFECTIVE_SUIT[kind, state[start]]
    best = 0
    best_trump = led_suit == TRUMP
    best_power = TRICK_POWER[kind, state[start]]
    for i in range(1, NUM_SEATS):
        card = state[start + i]
        suit = EFFECTIVE_SUIT[kind, card]
        power = TRICK_POWER[kind, card]
        if suit == TRUMP:
            if not best_trump or power > best_power:
                best, best_trump, best_power = i, True, power
        elif suit == led_suit and not best_trump and power > best_power:
            best, best_power = i, power
    return best


@inline_njit
def _complete_trick(state):
    kind = state[TRUMP_KIND]
    trick = state[TRICK_NUMBER]
    start = TRICK_CARDS + trick * NUM_SEATS
    leader = state[TRICK_LEADERS + trick]
    winner = (leader + _winning_position(state, kind, start)) % NUM_SEATS
    points = 0
    for i in range(NUM_SEATS):
        points += CARD_POINTS[state[start + i]]
    state[POINTS + winner] += points
    state[TRICKS_WON + winner] += 1
    state[TRICK_WINNERS + trick] = winner
    if (
        state[CONTRACT] == CONTRACT_ACE_CALL
        and state[CALLED_SUIT_DONE] == 0
        and EFFECTIVE_SUIT[kind, state[start]] == state[CALLED_CARD] // 8
    ):
        state[CALLED_SUIT_DONE] = 1
        called_played = False
        for i in range(NUM_SEATS):
            if state[start + i] == state[CALLED_CARD]:
                called_played = True
        if not called_played:
            state[RAN_AWAY] = 1  # rule 4: the leader is the partner, holding three more of the suit
            state[PARTNER_KNOWN] = 1
    state[TRICK_NUMBER] = trick + 1
    state[TRICK_COUNT] = 0
    if _is_du(state[CONTRACT]) and winner != state[DECLARER]:
        state[DU_LOST] = 1  # a lost Du ends as soon as the opponents win a trick
        _end_hand(state)
    elif trick + 1 == NUM_TRICKS:
        _end_hand(state)
    else:
        state[TRICK_LEADERS + trick + 1] = winner
        _to_play(state, winner)


@inline_njit
def _apply_card(state, seat, card):
    bit = _bit(card)
    kind = state[TRUMP_KIND]
    state[HANDS + seat] = np.int64(_mask(state, HANDS + seat) & ~bit)
    state[PLAYED_BY + seat] = np.int64(_mask(state, PLAYED_BY + seat) | bit)
    start = TRICK_CARDS + state[TRICK_NUMBER] * NUM_SEATS
    count = state[TRICK_COUNT]
    if count > 0:
        led_suit = EFFECTIVE_SUIT[kind, state[start]]
        if EFFECTIVE_SUIT[kind, card] != led_suit:
            state[VOID_SUITS + seat] |= 1 << led_suit
    state[start + count] = card
    if card == state[CALLED_CARD]:
        state[PARTNER_KNOWN] = 1
    state[TRICK_COUNT] = count + 1
    if count + 1 < NUM_SEATS:
        _to_play(state, (seat + 1) % NUM_SEATS)
    else:
        _complete_trick(state)


@njit_no_refcount
def apply_action(state, action):
    """Apply a legal action of the seat to act (unchecked: callers check the mask)."""
    _apply(state, action)


@inline_njit
def _apply(state, action):
    phase = state[PHASE]
    seat = state[SEAT_TO_ACT]
    length = state[HISTORY_LENGTH]
    state[HISTORY_SEATS + length] = seat
    state[HISTORY_ACTIONS + length] = action
    state[HISTORY_LENGTH] = length + 1
    if phase == PHASE_PLAY:
        _apply_card(state, seat, action - ACTION_CARD_FIRST)
    elif phase == PHASE_BIDDING:
        _apply_bid(state, seat, action)
    elif phase == PHASE_ANSWER:
        state[ANSWER] = action
        _declare_ace_call(state, state[HIGHEST_BIDDER] if action == ACTION_ACCEPT else state[HAENGE_AN_SEAT])
    elif phase == PHASE_CALL:
        _apply_call(state, action)
    elif phase == PHASE_TRUMP:
        state[TRUMP_KIND] = TRUMP_ACTION_SUITS[action - ACTION_TRUMP_FIRST]
        _start_play(state)
    elif phase == PHASE_OFFER:
        if action == ACTION_CONTRA:
            _double(state, seat)
        else:
            state[PHASE] = PHASE_PLAY
    elif phase == PHASE_ROUND:
        _apply_round_answer(state, seat, action)


# ------------------------------------------------------------------ scoring


@inline_njit
def declarer_side_mask(state):
    """Cards the declarer's side held at the start (declarer, plus the called card's holder)."""
    side = _mask(state, DEAL_HANDS + state[DECLARER])
    if state[CONTRACT] == CONTRACT_ACE_CALL:
        side |= _mask(state, DEAL_HANDS + state[PARTNER])
    return side


@inline_njit
def _score(state):
    """(won, side points, side tricks, hearts, schneider, schwarz, hoch, du factor, value) of a finished,
    not thrown-in hand."""
    contract = state[CONTRACT]
    du = _is_du(contract)
    side_points = 0
    side_tricks = 0
    for seat in range(NUM_SEATS):
        if on_declarer_side(state, seat):
            side_points += state[POINTS + seat]
            side_tricks += state[TRICKS_WON + seat]
    if du:
        won = state[DU_LOST] == 0 and side_tricks == NUM_TRICKS
        schneider = 1  # pinned: a Du counts schneider and schwarz, won or lost
        schwarz = 1
    else:
        won = side_points >= 61
        loser_points = 120 - side_points if won else side_points
        loser_tricks = NUM_TRICKS - side_tricks if won else side_tricks
        schneider = 1 if loser_points < 30 else 0
        schwarz = 1 if loser_tricks == 0 else 0
    top = consecutive_top_trumps(state[TRUMP_KIND], declarer_side_mask(state))
    hoch = top if top >= 3 else 0
    hearts = 1 if contract == CONTRACT_HEART_SOLO or contract == CONTRACT_HEART_SOLO_DU else 0
    du_factor = 2 if du else 1
    value = (1 + hearts + schneider + schwarz + hoch) * du_factor * (1 << state[DOUBLINGS])
    return won, side_points, side_tricks, hearts, schneider, schwarz, hoch, du_factor, value


@njit_no_refcount
def score_items(state, out):
    """The value of a finished (not thrown-in) hand, item by item, into int64 ``out[SCORE_SIZE]``."""
    out[:] = 0
    won, side_points, side_tricks, hearts, schneider, schwarz, hoch, du_factor, value = _score(state)
    out[SCORE_WON] = 1 if won else 0
    out[SCORE_SIDE_POINTS] = side_points
    out[SCORE_SIDE_TRICKS] = side_tricks
    out[SCORE_GAME] = 1
    out[SCORE_HEARTS] = hearts
    out[SCORE_SCHNEIDER] = schneider
    out[SCORE_SCHWARZ] = schwarz
    out[SCORE_HOCH] = hoch
    out[SCORE_DU_FACTOR] = du_factor
    out[SCORE_DOUBLINGS] = state[DOUBLINGS]
    out[SCORE_VALUE] = value


@njit_no_refcount
def settlement(state, out):
    """Units per seat once over: ace-call 2 v 2 each +-value; solo opponents +-value, declarer -+3x."""
    _settle(state, out)


@inline_njit
def _settle(state, out):
    out[:] = 0.0
    if state[PHASE] != PHASE_OVER or state[CONTRACT] == CONTRACT_NONE:
        return
    won, _, _, _, _, _, _, _, value = _score(state)
    signed = float(value) if won else -float(value)
    solo = _is_solo(state[CONTRACT])
    for seat in range(NUM_SEATS):
        if seat == state[DECLARER]:
            out[seat] = 3.0 * signed if solo else signed
        elif on_declarer_side(state, seat):
            out[seat] = signed
        else:
            out[seat] = -signed


# ------------------------------------------------------------------ observation


@inline_njit
def _put_cards(out, at, mask):
    rest = np.uint64(mask)
    while rest != np.uint64(0):
        out[at + lowest_bit(rest)] = 1.0
        rest &= rest - ONE


@inline_njit
def _relative(seat, viewer):
    return (seat - viewer) % NUM_SEATS


@inline_njit
def _put_seat(out, at, seat, viewer):
    if seat >= 0:
        out[at + _relative(seat, viewer)] = 1.0


@inline_njit
def partner_known_to(state, viewer):
    """The partnership is public, or ``viewer`` is the holder of the called card."""
    if state[CONTRACT] != CONTRACT_ACE_CALL or state[CALLED_CARD] < 0:
        return False
    return state[PARTNER_KNOWN] == 1 or viewer == state[PARTNER]


@njit_no_refcount
def observe(state, viewer, obs_type, out):
    """float32 observation of ``viewer`` (0 observation, 1 information_state, 2 perfect); see
    ``OBSERVATION_SEGMENTS``. Seats are relative to the viewer: 0 self, 1 left, 2 across, 3 right."""
    out[:] = 0.0
    at = 0
    _put_cards(out, at, _mask(state, HANDS + viewer))
    at += NUM_CARDS
    _put_seat(out, at, state[DEALER], viewer)
    at += NUM_SEATS
    out[at + state[PHASE]] = 1.0
    at += 8
    _put_seat(out, at, state[SEAT_TO_ACT], viewer)
    at += NUM_SEATS
    for seat in range(NUM_SEATS):
        out[at + _relative(seat, viewer) * BID_SLOTS + state[BIDS + seat] + 1] = 1.0
    at += NUM_SEATS * BID_SLOTS
    if state[ANSWER] >= 0:
        out[at + state[ANSWER] - ACTION_ACCEPT] = 1.0
    at += 2
    if state[CONTRACT] != CONTRACT_NONE:
        out[at + state[CONTRACT] - 1] = 1.0
    at += 5
    _put_seat(out, at, state[DECLARER], viewer)
    at += NUM_SEATS
    if state[TRUMP_KIND] >= 0:
        out[at + state[TRUMP_KIND]] = 1.0
    at += 4
    if state[CALLED_CARD] >= 0:
        out[at + state[CALLED_CARD]] = 1.0
    at += NUM_CARDS
    out[at] = float(state[PARTNER_KNOWN])
    at += 1
    if partner_known_to(state, viewer):
        _put_seat(out, at, state[PARTNER], viewer)
    at += NUM_SEATS
    out[at] = float(state[CALLED_SUIT_DONE])
    out[at + 1] = float(state[RAN_AWAY])
    at += 2
    out[at] = float(state[DOUBLINGS])
    at += 1
    for k in range(state[DOUBLINGS]):
        out[at + _relative(state[DOUBLERS + k], viewer)] += 1.0
    at += NUM_SEATS
    trick = state[TRICK_NUMBER]
    if state[PHASE] == PHASE_OFFER or state[PHASE] == PHASE_ROUND or state[PHASE] == PHASE_PLAY:
        leader = state[TRICK_LEADERS + trick]
        _put_seat(out, at, leader, viewer)
        for i in range(state[TRICK_COUNT]):
            seat = (leader + i) % NUM_SEATS
            card = state[TRICK_CARDS + trick * NUM_SEATS + i]
            out[at + NUM_SEATS + _relative(seat, viewer) * NUM_CARDS + card] = 1.0
    at += NUM_SEATS + NUM_SEATS * NUM_CARDS
    for seat in range(NUM_SEATS):
        _put_cards(out, at + _relative(seat, viewer) * NUM_CARDS, _mask(state, PLAYED_BY + seat))
    at += NUM_SEATS * NUM_CARDS
    for seat in range(NUM_SEATS):
        out[at + _relative(seat, viewer)] = float(state[TRICKS_WON + seat])
        out[at + NUM_SEATS + _relative(seat, viewer)] = float(state[POINTS + seat])
    at += 2 * NUM_SEATS
    out[at] = float(state[TRICK_NUMBER])
    at += 1
    if obs_type == 0:
        return
    completed = state[TRICK_NUMBER]
    for t in range(completed):
        base = at + t * TRICK_RECORD_SIZE
        leader = state[TRICK_LEADERS + t]
        _put_seat(out, base, leader, viewer)
        for i in range(NUM_SEATS):
            seat = (leader + i) % NUM_SEATS
            out[base + NUM_SEATS + _relative(seat, viewer) * NUM_CARDS + state[TRICK_CARDS + t * NUM_SEATS + i]] = 1.0
        _put_seat(out, base + NUM_SEATS + NUM_SEATS * NUM_CARDS, state[TRICK_WINNERS + t], viewer)
    at += NUM_TRICKS * TRICK_RECORD_SIZE
    for k in range(state[DOUBLINGS]):
        _put_seat(out, at + k * NUM_SEATS, state[DOUBLERS + k], viewer)
    at += MAX_DOUBLINGS_LIMIT * NUM_SEATS
    if obs_type == 1:
        return
    for seat in range(NUM_SEATS):
        _put_cards(out, at + _relative(seat, viewer) * NUM_CARDS, _mask(state, HANDS + seat))


# ------------------------------------------------------------------ random play and search


@inline_njit
def _random_action(state, rng):
    """A uniformly random legal action: the k-th set bit of the legal action bits, k drawn uniformly."""
    bits = legal_action_bits(state)
    return nth_bit(bits, _uniform_below(rng, popcount(bits)))


@inline_njit
def random_step(state, rng):
    """Apply a uniformly random legal action (drawn with ``uniform_below`` over the legal bits)."""
    _apply(state, _random_action(state, rng))


# ------------------------------------------------------------------ resampling hidden cards


@inline_njit
def void_cards(state, seat):
    """Cards ``seat`` cannot hold: those of every effective suit it has failed to follow."""
    voids = state[VOID_SUITS + seat]
    mask = np.uint64(0)
    if state[TRUMP_KIND] < 0:
        return mask
    for suit in range(TRUMP + 1):
        if voids >> suit & 1:
            mask |= EFFECTIVE_SUIT_MASK[state[TRUMP_KIND], suit]
    return mask


@njit
def _called_card_constraints(state, viewer, unknown, allowed, must):
    """What ``viewer`` knows about the called card and the declarer's hand in an ace-call game."""
    if state[CONTRACT] != CONTRACT_ACE_CALL or state[CALLED_CARD] < 0:
        return
    declarer = state[DECLARER]
    called = state[CALLED_CARD]
    if viewer != declarer:
        # A ten is called only holding all three aces; a King, holding the tens too.
        if called % 8 != RANK_A:
            must[declarer] |= NON_TRUMP_ACES_MASK & unknown
        if called % 8 == RANK_K:
            must[declarer] |= NON_TRUMP_TENS_MASK & unknown
    if not _has(unknown, called):
        return
    if state[PARTNER_KNOWN] == 1:
        must[state[PARTNER]] |= _bit(called)
        return
    allowed[declarer] &= ~_bit(called)
    for k in range(state[DOUBLINGS]):
        allowed[state[DOUBLERS + k]] &= ~_bit(called)  # doublers are opponents while the partner is hidden


@njit_no_refcount
def _replay(state, hand_masks, out_state):
    """Start ``out_state`` from ``hand_masks`` and replay ``state``'s history; False at the first action
    that is out of turn or illegal there."""
    _start_hand_with(out_state, state[MAX_DOUBLINGS], state[DEALER], hand_masks)
    for i in range(state[HISTORY_LENGTH]):
        action = state[HISTORY_ACTIONS + i]
        if out_state[SEAT_TO_ACT] != state[HISTORY_SEATS + i] or not is_legal(out_state, action):
            return False
        apply_action(out_state, action)
    return True


MAX_HOLDERS = NUM_SEATS
RESAMPLE_ATTEMPTS = MAX_RESAMPLE_ATTEMPTS
DEAL_TRIES = 16


@njit
def hidden_card_constraints(state, viewer, counts, allowed, forced):
    """Per seat: how many hidden cards it holds, which it may hold (voids shown, the called card's
    rules, doublings) and which it must hold (a revealed partner's called card; the aces or tens a
    ten or King call implies); returns the cards ``viewer`` cannot see."""
    unknown = FULL_MASK & ~_mask(state, HANDS + viewer)
    for seat in range(NUM_SEATS):
        unknown &= ~_mask(state, PLAYED_BY + seat)
    for seat in range(NUM_SEATS):
        if seat != viewer:
            counts[seat] = popcount(_mask(state, HANDS + seat))
            allowed[seat] = unknown & ~void_cards(state, seat)
    _called_card_constraints(state, viewer, unknown, allowed, forced)
    return unknown


@njit
def resample_context(state, viewer):
    """Nothing to prepare: a sample is checked by replaying the history alone."""
    return np.zeros((0, 0), dtype=np.int64)


@njit
def replay_sample(state, viewer, hand_masks, rng, out_state, context):
    """Complete the sample (the viewer's dealt hand, every seat's played cards) and replay the history
    into ``out_state``; False at the first action that is out of turn or illegal there."""
    for seat in range(NUM_SEATS):
        if seat == viewer:
            hand_masks[seat] = _mask(state, DEAL_HANDS + seat)
        else:
            hand_masks[seat] |= _mask(state, PLAYED_BY + seat)
    return _replay(state, hand_masks, out_state)
