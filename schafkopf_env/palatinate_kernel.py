"""Palatinate Schafkopf for three active players (two-card skat) as one compiled kernel.

The rules are those of ``shared/rules/palatinate_schafkopf.md`` sections 1 and 2; the docs page is the
docstring of ``schafkopf_env.palatinate_v0``. This module follows the kernel contract of
``docs/architecture.md``: the whole hand lives in one ``int64`` array ``state`` laid out by the ``S_*``
offsets below, and every rule is an ``@njit`` function over it.

**Seats.** ``players`` is 3 (everybody plays, the dealer included) or 4 (the dealer sits out: never acts,
scores with the opponents). The three *active* seats, from forehand (left of the dealer) clockwise, are
``state[S_ACTIVE : S_ACTIVE + 3]``.

**Actions** (one ``Discrete(81)`` space; ``ACTION_NAMES`` holds the fixed strings):

| range | string | meaning |
|---|---|---|
| 0..31 | ``"CA"`` ... ``"D7"`` | play the card (``trick_core.cards.FRENCH_32`` index) |
| 32..63 | ``"discard:CA"`` ... | simple game: lay the card away (twice) |
| 64 | ``"pass"`` | bidding, either round |
| 65..68 | ``"solo"`` ``"heart_solo"`` ``"solo_du"`` ``"heart_solo_du"`` | round one: name a solo kind |
| 69 | ``"simple"`` | round two: ask for the simple game |
| 70..73 | ``"trump:C"`` ``"trump:S"`` ``"trump:H"`` ``"trump:D"`` | the declarer names trump |
| 74, 75, 76 | ``"contra"`` ``"re"`` ``"no_double"`` | doubling |
| 77, 78 | ``"schenken"`` ``"no_schenken"`` | an opponent offers to give up, or not |
| 79, 80 | ``"accept"`` ``"refuse"`` | the declarer's answer to the offer |

**Fixed deals.** ``init_state(state, params, dealer, deal_cards)``: ``deal_cards`` holds 32 card indices,
the ten cards of each *active* seat in increasing seat number, then the two skat cards.
"""

from __future__ import annotations

import numpy as np

from schafkopf_env.trumps import (
    CARD_POINTS,
    EFFECTIVE_SUIT,
    EFFECTIVE_SUIT_MASK,
    HEARTS,
    NUM_CARDS,
    TRICK_POWER,
    TRUMP,
    consecutive_top_trumps,
    follow_mask,
)
from trick_core.bits import lowest_bit, nth_bit, popcount, uniform_below_modulo
from trick_core.cards import FRENCH_32
from trick_core.jit import inline_njit, njit, njit_no_refcount

# ------------------------------------------------------------------------------------------- game constants

GAME = "palatinate"
NUM_ACTIVE = 3
"""Players who take part in a hand (the fourth, with ``players=4``, is the dealer sitting out)."""
HAND_SIZE = 10
SKAT_SIZE = 2
NUM_TRICKS = 10
MAX_SEATS = 4
MAX_DOUBLINGS_LIMIT = 10
"""Largest allowed ``max_doublings`` (a hand is worth at most 2**10 times its base value)."""
HISTORY_CAPACITY = 96
"""Upper bound on the decisions of one hand: 9 bidding/skat/trump + 3 schenken + 2 offers
+ 3 per doubling (at most 10) + 2 final answers + 30 cards = 76."""
FULL_DECK = (1 << NUM_CARDS) - 1

# Contracts, in order of precedence (a solo kind's bid action is A_PASS + contract).
CONTRACT_NONE = -1
CONTRACT_SIMPLE = 0
CONTRACT_SOLO = 1
CONTRACT_HEART_SOLO = 2
CONTRACT_SOLO_DU = 3
CONTRACT_HEART_SOLO_DU = 4
CONTRACT_NAMES = ("simple", "solo", "heart_solo", "solo_du", "heart_solo_du")
NUM_CONTRACTS = 5

# Actions.
PLAY_BASE = 0
DISCARD_BASE = 32
A_PASS = 64
A_SOLO = 65
A_HEART_SOLO = 66
A_SOLO_DU = 67
A_HEART_SOLO_DU = 68
A_SIMPLE = 69
TRUMP_BASE = 70
A_CONTRA = 74
A_RE = 75
A_NO_DOUBLE = 76
A_SCHENKEN = 77
A_NO_SCHENKEN = 78
A_ACCEPT = 79
A_REFUSE = 80
NUM_ACTIONS = 81
MAX_ACTIONS = NUM_ACTIONS
HIGH_BASE = 64
"""Actions 64.. live in the second 64-bit word of a legal-action bit set."""


def _action_names() -> tuple[str, ...]:
    cards = [FRENCH_32.name_of(c) for c in range(NUM_CARDS)]
    names = cards + [f"discard:{c}" for c in cards]
    names += ["pass", "solo", "heart_solo", "solo_du", "heart_solo_du", "simple"]
    names += [f"trump:{s}" for s in FRENCH_32.suits]
    names += ["contra", "re", "no_double", "schenken", "no_schenken", "accept", "refuse"]
    assert len(names) == NUM_ACTIONS
    return tuple(names)


ACTION_NAMES = _action_names()

# Phases.
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

# Answers to schenken (per seat) and the declarer's answer to the offer.
NOT_ASKED = -1
SCHENKEN_NONE = 0
SCHENKEN_ACCEPTED = 1
SCHENKEN_REFUSED = 2

# ------------------------------------------------------------------------------------------- state layout

S_PLAYERS = 0
S_MAX_DOUBLINGS = 1
S_DEALER = 2
S_PHASE = 3
S_TO_ACT = 4
S_ACTIVE = 5  # 3 active seats, forehand first
S_NEXT = S_ACTIVE + NUM_ACTIVE  # per seat: the next active seat clockwise
S_DEALT = S_NEXT + MAX_SEATS  # per seat: the ten dealt cards (mask)
S_SKAT = S_DEALT + MAX_SEATS  # the two skat cards as dealt (mask)
S_HAND = S_SKAT + 1  # per seat: cards held now (mask)
S_PLAYED = S_HAND + MAX_SEATS  # per seat: cards played to tricks (mask)
S_SPOKEN = S_PLAYED + MAX_SEATS  # players who have spoken in the current bidding round
S_BID_ONE = S_SPOKEN + 1  # per seat: NOT_ASKED, 0 pass, 1..4 the solo kind named
S_BID_TWO = S_BID_ONE + MAX_SEATS  # per seat: NOT_ASKED, 0 pass, 1 simple
S_HIGH_BID = S_BID_TWO + MAX_SEATS  # highest solo kind named so far (0: none)
S_HIGH_BIDDER = S_HIGH_BID + 1
S_DECLARER = S_HIGH_BIDDER + 1
S_CONTRACT = S_DECLARER + 1
S_TRUMP = S_CONTRACT + 1  # trump suit 0..3 (= trump kind of schafkopf_env.trumps), -1 before it is named
S_DISCARDS = S_TRUMP + 1  # mask of the simple-game declarer's discards
S_NUM_DISCARDS = S_DISCARDS + 1
S_SCHENKEN = S_NUM_DISCARDS + 1  # per seat: NOT_ASKED, 0 no_schenken, 1 schenken
S_SCHENKEN_ANSWER = S_SCHENKEN + MAX_SEATS  # SCHENKEN_NONE / _ACCEPTED / _REFUSED
S_DOUBLINGS = S_SCHENKEN_ANSWER + 1
S_DOUBLER = S_DOUBLINGS + 1  # per doubling: the seat that said it
S_DOUBLED_AT = S_DOUBLER + MAX_DOUBLINGS_LIMIT  # per doubling: cards already on the table in trick 1
S_OFFERED = S_DOUBLED_AT + MAX_DOUBLINGS_LIMIT  # per seat: 1 once offered contra at the first card
S_ASK_LEFT = S_OFFERED + MAX_SEATS  # answers still due in the current doubling round
S_PENDING = S_ASK_LEFT + 1  # the opponent whose first card waits for the doubling to end
S_TRICKS_DONE = S_PENDING + 1
S_LEADER = S_TRICKS_DONE + 1
S_TRICK_SIZE = S_LEADER + 1
S_TRICK_CARDS = S_TRICK_SIZE + 1  # 3 cards of the trick in progress, in playing order
S_POINTS = S_TRICK_CARDS + NUM_ACTIVE  # per seat: card points in tricks won
S_TRICKS_WON = S_POINTS + MAX_SEATS
S_TRICK_LOG = S_TRICKS_WON + MAX_SEATS  # per completed trick: leader, 3 cards, winner
TRICK_LOG_ENTRY = 5
S_WON = S_TRICK_LOG + NUM_TRICKS * TRICK_LOG_ENTRY  # 1 if the declarer won (once over)
S_VALUE = S_WON + 1  # game value (once over)
S_HOCH = S_VALUE + 1  # top trumps counted (0 below three)
S_DECLARER_POINTS = S_HOCH + 1  # tricks plus skat (solo) or discards (simple)
S_THROWN_IN = S_DECLARER_POINTS + 1
S_HISTORY_LEN = S_THROWN_IN + 1
S_HISTORY = S_HISTORY_LEN + 1
STATE_SIZE = S_HISTORY + HISTORY_CAPACITY

P_PLAYERS = 0
P_MAX_DOUBLINGS = 1
PARAMS_SIZE = 2

OBS_TYPE_OBSERVATION = 0
OBS_TYPE_INFORMATION_STATE = 1
OBS_TYPE_PERFECT = 2
OBSERVATION_TYPES = ("observation", "information_state", "perfect")


# ------------------------------------------------------------------------------------------- parameters


def make_params(players: int = 3, max_doublings: int = 4) -> np.ndarray:
    """Validated configuration as the kernel's ``int64`` params array (``ValueError`` naming a bad value)."""
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)) or players not in (3, 4):
        raise ValueError(f"palatinate: players must be 3 or 4 (4: the dealer sits out), got {players!r}")
    if (
        isinstance(max_doublings, bool)
        or not isinstance(max_doublings, (int, np.integer))
        or not 0 <= max_doublings <= MAX_DOUBLINGS_LIMIT
    ):
        raise ValueError(
            f"palatinate: max_doublings must be an integer 0..{MAX_DOUBLINGS_LIMIT}, got {max_doublings!r}"
        )
    params = np.zeros(PARAMS_SIZE, dtype=np.int64)
    params[P_PLAYERS] = players
    params[P_MAX_DOUBLINGS] = max_doublings
    return params


def observation_blocks(players: int, max_doublings: int, obs_type: int) -> list[tuple[str, int, str]]:
    """The observation vector as ``(name, size, meaning)`` blocks in order (the kernel writes them so).

    Positions are relative to the observing seat: position 0 is the seat itself, 1 the next seat
    clockwise, and so on (``players`` positions; with four the dealer who sits out has one too).
    """
    n = players
    blocks = [
        ("dealer", n, "one-hot position of the dealer"),
        ("to_act", n, "one-hot position of the player to act (zeros once over)"),
        ("phase", NUM_PHASES, "one-hot phase: " + ", ".join(PHASE_NAMES)),
        ("hand", 32, "own cards held now (with the skat while a simple-game declarer discards)"),
        ("bid_one", n * 4 + n, "per position: pass, solo, heart_solo, solo_du, heart_solo_du (round one)"),
        ("bid_two", n * 2, "per position: pass, simple (round two)"),
        ("declarer", n, "one-hot position of the declarer"),
        ("contract", NUM_CONTRACTS, "one-hot: " + ", ".join(CONTRACT_NAMES)),
        ("trump", 4, "one-hot trump suit C, S, H, D"),
        ("skat_taken", 32, "the skat the declarer picked up (simple game; the declarer only)"),
        ("discards", 32, "the declarer's discards (simple game; the declarer only)"),
        ("schenken", n * 2, "per position: schenken, no_schenken"),
        ("schenken_answer", 2, "the declarer's accept, refuse"),
        (
            "doublings",
            max_doublings * (n + 3),
            "per doubling k (up to max_doublings): one-hot position of the doubler, "
            "then one-hot cards on the table in trick 1 when it was said (0, 1, 2)",
        ),
        ("played", n * 32, "per position: the cards it has played"),
        ("trick", n * 32, "per position: its card in the trick in progress"),
        ("leader", n, "one-hot position of the leader of the trick in progress"),
        ("points", n, "per position: card points in its tricks / 120"),
        ("tricks_won", n, "per position: tricks won / 10"),
    ]
    if obs_type >= OBS_TYPE_INFORMATION_STATE:
        blocks.append(
            (
                "trick_history",
                NUM_TRICKS * (n + n * 32),
                "per trick 1..10: one-hot position of its leader, then per position the card it played",
            )
        )
    if obs_type == OBS_TYPE_PERFECT:
        blocks.append(("hands", n * 32, "per position: the cards it holds now"))
        blocks.append(("skat", 32, "the two skat cards as dealt"))
    return blocks


def observation_size(players: int, max_doublings: int, obs_type: int) -> int:
    return sum(size for _, size, _ in observation_blocks(players, max_doublings, obs_type))


# ------------------------------------------------------------------------------------------- small helpers


@njit_no_refcount
def _bit(card):
    return np.uint64(1) << np.uint64(card)


@njit_no_refcount
def _mask(state, index):
    return np.uint64(state[index])


@njit_no_refcount
def _is_opponent(state, seat):
    """True for a seat on the declarer's opposing side (the dealer sitting out included)."""
    return seat != state[S_DECLARER]


@njit_no_refcount
def _may_double(state, seat):
    """Doubles alternate between the sides: after an even number the opponents, after an odd number the
    declarer; the opponents double first (contra)."""
    if state[S_DOUBLINGS] >= state[S_MAX_DOUBLINGS]:
        return False
    declarer_turn = state[S_DOUBLINGS] % 2 == 1
    return (seat == state[S_DECLARER]) == declarer_turn


# ------------------------------------------------------------------------------------------- starting a hand


@njit_no_refcount
def _clear(state, players, max_doublings, dealer):
    """Everything of a fresh hand except the cards."""
    state[:] = 0
    state[S_PLAYERS] = players
    state[S_MAX_DOUBLINGS] = max_doublings
    state[S_DEALER] = dealer
    for i in range(NUM_ACTIVE):
        # Three seats from forehand: with three players the dealer is the last, with four they sit out.
        state[S_ACTIVE + i] = (dealer + 1 + i) % players
    if players == 4:
        state[S_NEXT + dealer] = state[S_ACTIVE]
    for i in range(NUM_ACTIVE):
        state[S_NEXT + state[S_ACTIVE + i]] = state[S_ACTIVE + (i + 1) % NUM_ACTIVE]
    for seat in range(MAX_SEATS):
        state[S_BID_ONE + seat] = NOT_ASKED
        state[S_BID_TWO + seat] = NOT_ASKED
        state[S_SCHENKEN + seat] = NOT_ASKED
    state[S_HIGH_BIDDER] = -1
    state[S_DECLARER] = -1
    state[S_CONTRACT] = CONTRACT_NONE
    state[S_TRUMP] = -1
    state[S_PENDING] = -1
    for k in range(MAX_DOUBLINGS_LIMIT):
        state[S_DOUBLER + k] = -1
        state[S_DOUBLED_AT + k] = -1


@njit_no_refcount
def _begin(state):
    """Cards are in place: forehand opens the first bidding round."""
    for seat in range(MAX_SEATS):
        state[S_HAND + seat] = state[S_DEALT + seat]
    state[S_PHASE] = PHASE_BID_ONE
    state[S_TO_ACT] = state[S_ACTIVE]
    state[S_LEADER] = state[S_ACTIVE]


@njit
def init_state(state, params, dealer, deal_cards):
    """Start a hand from a fixed deal: ``deal_cards`` = the ten cards of each active seat in increasing
    seat number, then the two skat cards (the env validates deals before calling this)."""
    players = params[P_PLAYERS]
    _clear(state, players, params[P_MAX_DOUBLINGS], dealer)
    index = 0
    for seat in range(players):
        if players == 4 and seat == dealer:
            continue
        hand = np.uint64(0)
        for _ in range(HAND_SIZE):
            hand |= _bit(deal_cards[index])
            index += 1
        state[S_DEALT + seat] = np.int64(hand)
    skat = np.uint64(0)
    for _ in range(SKAT_SIZE):
        skat |= _bit(deal_cards[index])
        index += 1
    state[S_SKAT] = np.int64(skat)
    _begin(state)


@njit
def deal_random(state, params, rng):
    """Draw the dealer, shuffle, and deal as the rules say: from forehand clockwise three cards each, two
    to the skat, four each, three each."""
    players = params[P_PLAYERS]
    dealer = uniform_below_modulo(rng, players)
    _clear(state, players, params[P_MAX_DOUBLINGS], dealer)
    deck = np.arange(NUM_CARDS)
    for i in range(NUM_CARDS - 1, 0, -1):
        j = uniform_below_modulo(rng, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    top = 0
    for packet in (3, 0, 4, 3):
        if packet == 0:
            state[S_SKAT] = np.int64(_bit(deck[top]) | _bit(deck[top + 1]))
            top += SKAT_SIZE
            continue
        for i in range(NUM_ACTIVE):
            seat = state[S_ACTIVE + i]
            hand = _mask(state, S_DEALT + seat)
            for _ in range(packet):
                hand |= _bit(deck[top])
                top += 1
            state[S_DEALT + seat] = np.int64(hand)
    _begin(state)


# ------------------------------------------------------------------------------------------- legal actions


@njit_no_refcount
def _legal_bits(state):
    """Legal actions of the seat to act as two bit words: bit ``a`` of ``low`` is action ``a`` (0..63),
    bit ``a`` of ``high`` is action ``64 + a``."""
    phase = state[S_PHASE]
    seat = state[S_TO_ACT]
    low = np.uint64(0)
    high = np.uint64(0)
    if phase == PHASE_PLAY:
        hand = _mask(state, S_HAND + seat)
        if state[S_TRICK_SIZE] == 0:
            low = hand
        else:
            low = follow_mask(state[S_TRUMP], hand, state[S_TRICK_CARDS])
    elif phase == PHASE_BID_ONE:
        high = _bit(A_PASS - HIGH_BASE)
        for kind in range(state[S_HIGH_BID] + 1, NUM_CONTRACTS):
            high |= _bit(A_PASS + kind - HIGH_BASE)
    elif phase == PHASE_BID_TWO:
        high = _bit(A_PASS - HIGH_BASE) | _bit(A_SIMPLE - HIGH_BASE)
    elif phase == PHASE_TRUMP:
        for suit in range(4):
            if suit != HEARTS or state[S_CONTRACT] == CONTRACT_SIMPLE:
                high |= _bit(TRUMP_BASE + suit - HIGH_BASE)
    elif phase == PHASE_DISCARD:
        low = _mask(state, S_HAND + seat) << np.uint64(DISCARD_BASE)
    elif phase == PHASE_SCHENKEN:
        high = _bit(A_SCHENKEN - HIGH_BASE) | _bit(A_NO_SCHENKEN - HIGH_BASE)
    elif phase == PHASE_SCHENKEN_ANSWER:
        high = _bit(A_ACCEPT - HIGH_BASE) | _bit(A_REFUSE - HIGH_BASE)
    elif phase == PHASE_CONTRA_OFFER or phase == PHASE_DOUBLING:
        high = _bit(A_NO_DOUBLE - HIGH_BASE)
        if _may_double(state, seat):
            double = A_CONTRA if state[S_DOUBLINGS] == 0 else A_RE
            high |= _bit(double - HIGH_BASE)
    return low, high


@inline_njit
def current_seat(state):
    """The seat to act, ``-1`` once the hand is over."""
    return state[S_TO_ACT]


@njit
def legal_action_mask(state, out):
    """Fill the int8 ``out[NUM_ACTIONS]`` with the legal actions of the seat to act (zeros once over)."""
    out[:] = 0
    if state[S_TO_ACT] < 0:
        return
    low, high = _legal_bits(state)
    while low != np.uint64(0):
        out[lowest_bit(low)] = 1
        low &= low - np.uint64(1)
    while high != np.uint64(0):
        out[HIGH_BASE + lowest_bit(high)] = 1
        high &= high - np.uint64(1)


@njit
def is_legal(state, action):
    """Whether ``action`` is legal for the seat to act (False once the hand is over)."""
    if state[S_TO_ACT] < 0 or action < 0 or action >= NUM_ACTIONS:
        return False
    low, high = _legal_bits(state)
    if action < HIGH_BASE:
        return (low >> np.uint64(action)) & np.uint64(1) == np.uint64(1)
    return (high >> np.uint64(action - HIGH_BASE)) & np.uint64(1) == np.uint64(1)


# ------------------------------------------------------------------------------------------- applying actions


@njit
def apply_action(state, action):
    """Apply a legal ``action`` of the seat to act (callers check legality with the mask)."""
    _apply(state, action)


@njit_no_refcount
def _apply(state, action):
    """Record the action and apply it: a card play (most actions) or another decision (``_decide``)."""
    state[S_HISTORY + state[S_HISTORY_LEN]] = action
    state[S_HISTORY_LEN] += 1
    if state[S_PHASE] == PHASE_PLAY:
        _play_card(state, state[S_TO_ACT], action - PLAY_BASE)
    else:
        _decide(state, action)


@njit_no_refcount
def _decide(state, action):
    """Every decision other than a card play, by phase."""
    phase = state[S_PHASE]
    seat = state[S_TO_ACT]
    if phase == PHASE_BID_ONE:
        _bid_round_one(state, seat, action)
    elif phase == PHASE_BID_TWO:
        _bid_round_two(state, seat, action)
    elif phase == PHASE_TRUMP:
        state[S_TRUMP] = action - TRUMP_BASE
        _after_trump(state)
    elif phase == PHASE_DISCARD:
        _discard(state, seat, action - DISCARD_BASE)
    elif phase == PHASE_SCHENKEN:
        _answer_schenken(state, seat, action)
    elif phase == PHASE_SCHENKEN_ANSWER:
        if action == A_ACCEPT:
            state[S_SCHENKEN_ANSWER] = SCHENKEN_ACCEPTED
            _finish_hand(state)
        else:
            state[S_SCHENKEN_ANSWER] = SCHENKEN_REFUSED
            _start_play(state)
    elif phase == PHASE_CONTRA_OFFER:
        if action == A_NO_DOUBLE:
            state[S_PHASE] = PHASE_PLAY
        else:
            _double(state, seat)
    elif phase == PHASE_DOUBLING:
        if action == A_NO_DOUBLE:
            state[S_ASK_LEFT] -= 1
            if state[S_ASK_LEFT] == 0:
                _end_doubling(state)
            else:
                state[S_TO_ACT] = state[S_NEXT + seat]
        else:
            _double(state, seat)


@njit_no_refcount
def _bid_round_one(state, seat, action):
    kind = action - A_PASS
    state[S_BID_ONE + seat] = kind
    if kind > 0:
        state[S_HIGH_BID] = kind
        state[S_HIGH_BIDDER] = seat
    state[S_SPOKEN] += 1
    if state[S_SPOKEN] < NUM_ACTIVE:
        state[S_TO_ACT] = state[S_NEXT + seat]
        return
    if state[S_HIGH_BID] == 0:
        state[S_PHASE] = PHASE_BID_TWO
        state[S_SPOKEN] = 0
        state[S_TO_ACT] = state[S_ACTIVE]
        return
    declarer = state[S_HIGH_BIDDER]
    state[S_DECLARER] = declarer
    state[S_CONTRACT] = state[S_HIGH_BID]
    if state[S_HIGH_BID] == CONTRACT_HEART_SOLO or state[S_HIGH_BID] == CONTRACT_HEART_SOLO_DU:
        state[S_TRUMP] = HEARTS
        _after_trump(state)
    else:
        state[S_PHASE] = PHASE_TRUMP
        state[S_TO_ACT] = declarer


@njit_no_refcount
def _bid_round_two(state, seat, action):
    if action == A_SIMPLE:
        state[S_BID_TWO + seat] = 1
        state[S_DECLARER] = seat
        state[S_CONTRACT] = CONTRACT_SIMPLE
        state[S_HAND + seat] = np.int64(_mask(state, S_HAND + seat) | _mask(state, S_SKAT))
        state[S_PHASE] = PHASE_DISCARD
        return
    state[S_BID_TWO + seat] = 0
    state[S_SPOKEN] += 1
    if state[S_SPOKEN] < NUM_ACTIVE:
        state[S_TO_ACT] = state[S_NEXT + seat]
        return
    state[S_THROWN_IN] = 1
    state[S_PHASE] = PHASE_OVER
    state[S_TO_ACT] = -1


@njit_no_refcount
def _discard(state, seat, card):
    state[S_HAND + seat] = np.int64(_mask(state, S_HAND + seat) & ~_bit(card))
    state[S_DISCARDS] = np.int64(_mask(state, S_DISCARDS) | _bit(card))
    state[S_NUM_DISCARDS] += 1
    if state[S_NUM_DISCARDS] == SKAT_SIZE:
        state[S_PHASE] = PHASE_TRUMP


@njit_no_refcount
def _after_trump(state):
    """Schenken is offered except in a Du; then play starts."""
    if state[S_CONTRACT] >= CONTRACT_SOLO_DU:
        _start_play(state)
        return
    state[S_PHASE] = PHASE_SCHENKEN
    state[S_TO_ACT] = state[S_NEXT + state[S_DECLARER]]


@njit_no_refcount
def _answer_schenken(state, seat, action):
    if action == A_NO_SCHENKEN:
        state[S_SCHENKEN + seat] = 0
        _start_play(state)
        return
    state[S_SCHENKEN + seat] = 1
    following = state[S_NEXT + seat]
    if following == state[S_DECLARER]:
        state[S_PHASE] = PHASE_SCHENKEN_ANSWER
    state[S_TO_ACT] = following


@njit_no_refcount
def _start_play(state):
    state[S_LEADER] = state[S_ACTIVE]
    state[S_TRICK_SIZE] = 0
    _next_to_play(state, state[S_ACTIVE])


@njit_no_refcount
def _next_to_play(state, seat):
    """``seat`` plays next; an opponent about to play their first card is offered contra first, while
    their side may double."""
    state[S_TO_ACT] = seat
    first_card = state[S_PLAYED + seat] == 0 and state[S_OFFERED + seat] == 0
    if first_card and _is_opponent(state, seat) and _may_double(state, seat):
        state[S_OFFERED + seat] = 1
        state[S_PENDING] = seat
        state[S_PHASE] = PHASE_CONTRA_OFFER
    else:
        state[S_PHASE] = PHASE_PLAY


@njit_no_refcount
def _double(state, seat):
    """A double: every other active player is then asked in turn, starting left of the doubler."""
    k = state[S_DOUBLINGS]
    state[S_DOUBLER + k] = seat
    state[S_DOUBLED_AT + k] = state[S_TRICK_SIZE]
    state[S_DOUBLINGS] = k + 1
    if k + 1 >= state[S_MAX_DOUBLINGS]:
        _end_doubling(state)
        return
    state[S_PHASE] = PHASE_DOUBLING
    state[S_ASK_LEFT] = NUM_ACTIVE - 1
    state[S_TO_ACT] = state[S_NEXT + seat]


@njit_no_refcount
def _end_doubling(state):
    state[S_PHASE] = PHASE_PLAY
    state[S_TO_ACT] = state[S_PENDING]


@njit_no_refcount
def _play_card(state, seat, card):
    bit = _bit(card)
    state[S_HAND + seat] = np.int64(_mask(state, S_HAND + seat) & ~bit)
    state[S_PLAYED + seat] = np.int64(_mask(state, S_PLAYED + seat) | bit)
    size = state[S_TRICK_SIZE]
    state[S_TRICK_CARDS + size] = card
    state[S_TRICK_SIZE] = size + 1
    if size + 1 < NUM_ACTIVE:
        _next_to_play(state, state[S_NEXT + seat])
    else:
        _finish_trick(state)


@njit_no_refcount
def _winning_position(state):
    """Position in playing order of the winning card of the complete trick: the highest trump, else the
    highest card of the led suit (``schafkopf_env.trumps.trick_winner_index``, read from the state)."""
    trump = state[S_TRUMP]
    best = 0
    best_card = state[S_TRICK_CARDS]
    for i in range(1, NUM_ACTIVE):
        card = state[S_TRICK_CARDS + i]
        suit = EFFECTIVE_SUIT[trump, card]
        best_suit = EFFECTIVE_SUIT[trump, best_card]
        beats_in_suit = suit == best_suit and TRICK_POWER[trump, card] > TRICK_POWER[trump, best_card]
        if beats_in_suit or (suit == TRUMP and best_suit != TRUMP):
            best = i
            best_card = card
    return best


@njit_no_refcount
def _finish_trick(state):
    leader = state[S_LEADER]
    winning_position = _winning_position(state)
    winner = leader
    points = 0
    log = S_TRICK_LOG + state[S_TRICKS_DONE] * TRICK_LOG_ENTRY
    state[log] = leader
    for i in range(NUM_ACTIVE):
        card = state[S_TRICK_CARDS + i]
        state[log + 1 + i] = card
        points += CARD_POINTS[card]
        if i < winning_position:
            winner = state[S_NEXT + winner]
    state[log + 4] = winner
    state[S_POINTS + winner] += points
    state[S_TRICKS_WON + winner] += 1
    state[S_TRICKS_DONE] += 1
    state[S_TRICK_SIZE] = 0
    state[S_LEADER] = winner
    du_lost = state[S_CONTRACT] >= CONTRACT_SOLO_DU and winner != state[S_DECLARER]
    if du_lost or state[S_TRICKS_DONE] == NUM_TRICKS:
        _finish_hand(state)
    else:
        state[S_PHASE] = PHASE_PLAY
        state[S_TO_ACT] = winner


# ------------------------------------------------------------------------------------------- scoring


@njit
def hand_value(contract, trump, hoch, declarer_points, declarer_tricks, opponent_tricks, doublings, schenken):
    """``(declarer_won, value)`` of a finished hand, by the value table of the rules.

    ``declarer_points`` includes the skat (solo) or the discards (simple game); ``hoch`` is the count of
    top trumps in sequence (0 when below three); ``schenken`` is ``SCHENKEN_NONE``, ``_ACCEPTED`` or
    ``_REFUSED``.
    """
    du = contract >= CONTRACT_SOLO_DU
    opponent_points = 120 - declarer_points
    if schenken == SCHENKEN_ACCEPTED:
        won = True
        schneider = 0
        schwarz = 0
    elif du:
        # (pinned) a Du counts schneider and schwarz won or lost.
        won = opponent_tricks == 0 and declarer_tricks == NUM_TRICKS
        schneider = 1
        schwarz = 1
    elif schenken == SCHENKEN_REFUSED:
        # (pinned) the refusing declarer must make the opponents schneider; the point counts won or lost.
        won = opponent_points < 30
        schneider = 1
        schwarz = 1 if opponent_tricks == 0 or declarer_tricks == 0 else 0
    else:
        won = declarer_points >= 61
        loser_points = opponent_points if won else declarer_points
        loser_tricks = opponent_tricks if won else declarer_tricks
        schneider = 1 if loser_points < 30 else 0
        schwarz = 1 if loser_tricks == 0 else 0
    value = 1 + schneider + schwarz + hoch
    if trump == HEARTS:
        value += 1
    if contract != CONTRACT_SIMPLE:
        value += 1
    if du:
        value *= 2
    return won, value << doublings


@njit_no_refcount
def hoch_count(state):
    """Top trumps in sequence held by one side (from three on; else 0). The declarer's holding is the
    dealt hand plus the skat, in a simple game (pinned) and in a solo (the skat counts as theirs)."""
    declarer_cards = _mask(state, S_DEALT + state[S_DECLARER]) | _mask(state, S_SKAT)
    count = consecutive_top_trumps(state[S_TRUMP], declarer_cards)
    return count if count >= 3 else 0


@njit_no_refcount
def declarer_card_points(state):
    declarer = state[S_DECLARER]
    extra = _mask(state, S_DISCARDS) if state[S_CONTRACT] == CONTRACT_SIMPLE else _mask(state, S_SKAT)
    total = state[S_POINTS + declarer]
    while extra != np.uint64(0):
        total += CARD_POINTS[lowest_bit(extra)]
        extra &= extra - np.uint64(1)
    return total


@njit_no_refcount
def _finish_hand(state):
    declarer = state[S_DECLARER]
    declarer_tricks = state[S_TRICKS_WON + declarer]
    opponent_tricks = state[S_TRICKS_DONE] - declarer_tricks
    points = declarer_card_points(state)
    hoch = hoch_count(state)
    won, value = hand_value(
        state[S_CONTRACT],
        state[S_TRUMP],
        hoch,
        points,
        declarer_tricks,
        opponent_tricks,
        state[S_DOUBLINGS],
        state[S_SCHENKEN_ANSWER],
    )
    state[S_WON] = 1 if won else 0
    state[S_VALUE] = value
    state[S_HOCH] = hoch
    state[S_DECLARER_POINTS] = points
    state[S_PHASE] = PHASE_OVER
    state[S_TO_ACT] = -1


@njit
def settlement(state, out):
    """Units per seat once over: each other seat (the sitting-out dealer included) pays the value to the
    declarer or receives it, so the declarer gets ``(players - 1) * value``. Zeros when thrown in."""
    out[:] = 0.0
    if state[S_PHASE] != PHASE_OVER or state[S_THROWN_IN] == 1:
        return
    players = state[S_PLAYERS]
    declarer = state[S_DECLARER]
    signed = float(state[S_VALUE]) if state[S_WON] == 1 else -float(state[S_VALUE])
    for seat in range(players):
        out[seat] = signed * (players - 1) if seat == declarer else -signed


# ------------------------------------------------------------------------------------------- observation


@njit_no_refcount
def _put_mask(out, offset, mask):
    m = np.uint64(mask)
    while m != np.uint64(0):
        out[offset + lowest_bit(m)] = 1.0
        m &= m - np.uint64(1)


@njit
def observe(state, seat, obs_type, out):
    """The float32 observation of ``seat`` (layout: ``observation_blocks``); ``obs_type`` 0 observation,
    1 information_state, 2 perfect. Holds all and only what the seat may know (all for ``perfect``)."""
    out[:] = 0.0
    n = state[S_PLAYERS]
    max_doublings = state[S_MAX_DOUBLINGS]
    declarer = state[S_DECLARER]
    perfect = obs_type == OBS_TYPE_PERFECT
    o = 0
    out[o + (state[S_DEALER] - seat + n) % n] = 1.0
    o += n
    if state[S_TO_ACT] >= 0:
        out[o + (state[S_TO_ACT] - seat + n) % n] = 1.0
    o += n
    out[o + state[S_PHASE]] = 1.0
    o += NUM_PHASES
    _put_mask(out, o, state[S_HAND + seat])
    o += 32
    for other in range(n):
        position = (other - seat + n) % n
        if state[S_BID_ONE + other] >= 0:
            out[o + position * 5 + state[S_BID_ONE + other]] = 1.0
        if state[S_BID_TWO + other] >= 0:
            out[o + n * 5 + position * 2 + state[S_BID_TWO + other]] = 1.0
    o += n * 7
    if declarer >= 0:
        out[o + (declarer - seat + n) % n] = 1.0
    o += n
    if state[S_CONTRACT] >= 0:
        out[o + state[S_CONTRACT]] = 1.0
    o += NUM_CONTRACTS
    if state[S_TRUMP] >= 0:
        out[o + state[S_TRUMP]] = 1.0
    o += 4
    if state[S_CONTRACT] == CONTRACT_SIMPLE and (seat == declarer or perfect):
        _put_mask(out, o, state[S_SKAT])
        _put_mask(out, o + 32, state[S_DISCARDS])
    o += 64
    for other in range(n):
        said = state[S_SCHENKEN + other]
        if said >= 0:
            out[o + ((other - seat + n) % n) * 2 + (1 - said)] = 1.0
    o += n * 2
    if state[S_SCHENKEN_ANSWER] != SCHENKEN_NONE:
        out[o + state[S_SCHENKEN_ANSWER] - 1] = 1.0
    o += 2
    for k in range(state[S_DOUBLINGS]):
        out[o + k * (n + 3) + (state[S_DOUBLER + k] - seat + n) % n] = 1.0
        out[o + k * (n + 3) + n + state[S_DOUBLED_AT + k]] = 1.0
    o += max_doublings * (n + 3)
    for other in range(n):
        _put_mask(out, o + ((other - seat + n) % n) * 32, state[S_PLAYED + other])
    o += n * 32
    player = state[S_LEADER]
    for i in range(state[S_TRICK_SIZE]):
        out[o + ((player - seat + n) % n) * 32 + state[S_TRICK_CARDS + i]] = 1.0
        player = state[S_NEXT + player]
    o += n * 32
    if PHASE_CONTRA_OFFER <= state[S_PHASE] <= PHASE_PLAY:
        out[o + (state[S_LEADER] - seat + n) % n] = 1.0
    o += n
    for other in range(n):
        position = (other - seat + n) % n
        out[o + position] = state[S_POINTS + other] / 120.0
        out[o + n + position] = state[S_TRICKS_WON + other] / 10.0
    o += 2 * n
    if obs_type == OBS_TYPE_OBSERVATION:
        return
    entry = n + n * 32
    for t in range(NUM_TRICKS):
        if t < state[S_TRICKS_DONE]:
            log = S_TRICK_LOG + t * TRICK_LOG_ENTRY
            leader = state[log]
            size = NUM_ACTIVE
        elif t == state[S_TRICKS_DONE] and state[S_TRICK_SIZE] > 0:
            log = S_TRICK_CARDS - 1
            leader = state[S_LEADER]
            size = state[S_TRICK_SIZE]
        else:
            break
        out[o + t * entry + (leader - seat + n) % n] = 1.0
        player = leader
        for i in range(size):
            out[o + t * entry + n + ((player - seat + n) % n) * 32 + state[log + 1 + i]] = 1.0
            player = state[S_NEXT + player]
    o += NUM_TRICKS * entry
    if obs_type == OBS_TYPE_INFORMATION_STATE:
        return
    for other in range(n):
        _put_mask(out, o + ((other - seat + n) % n) * 32, state[S_HAND + other])
    o += n * 32
    _put_mask(out, o, state[S_SKAT])


# ------------------------------------------------------------------------------------------- random play


@njit_no_refcount
def _random_action(state, rng):
    low, high = _legal_bits(state)
    count_low = popcount(low)
    pick = uniform_below_modulo(rng, count_low + popcount(high))
    if pick < count_low:
        return nth_bit(low, pick)
    return HIGH_BASE + nth_bit(high, pick - count_low)


@inline_njit
def random_step(state, rng):
    """Apply a uniformly random legal action (drawn with ``uniform_below_modulo``)."""
    _apply(state, _random_action(state, rng))


# ------------------------------------------------------------------------------------------- resampling


@njit
def _void_allowed_mask(state, seat):
    """Cards ``seat`` may still hold given the tricks: a player who did not follow the led (effective)
    suit holds none of it."""
    allowed = np.uint64(FULL_DECK)
    trump = state[S_TRUMP]
    if trump < 0:
        return allowed
    for t in range(state[S_TRICKS_DONE] + 1):
        if t < state[S_TRICKS_DONE]:
            log = S_TRICK_LOG + t * TRICK_LOG_ENTRY
            size = NUM_ACTIVE
        else:
            log = S_TRICK_CARDS - 1
            size = state[S_TRICK_SIZE]
        if size == 0:
            continue
        player = state[log] if t < state[S_TRICKS_DONE] else state[S_LEADER]
        led_suit = EFFECTIVE_SUIT[trump, state[log + 1]]
        for i in range(size):
            if i > 0 and player == seat and EFFECTIVE_SUIT[trump, state[log + 1 + i]] != led_suit:
                allowed &= ~EFFECTIVE_SUIT_MASK[trump, led_suit]
            player = state[S_NEXT + player]
    return allowed


@njit
def _two_random_cards(mask, rng):
    first = nth_bit(mask, uniform_below_modulo(rng, popcount(mask)))
    rest = mask & ~_bit(first)
    second = nth_bit(rest, uniform_below_modulo(rng, popcount(rest)))
    return _bit(first) | _bit(second)


@njit
def _replay(out_state, players, max_doublings, dealer, dealt, skat, history, length):
    """Start a hand from the given cards and replay ``history``; False if any action is illegal."""
    _clear(out_state, players, max_doublings, dealer)
    for seat in range(MAX_SEATS):
        out_state[S_DEALT + seat] = np.int64(dealt[seat])
    out_state[S_SKAT] = np.int64(skat)
    _begin(out_state)
    for i in range(length):
        if not is_legal(out_state, history[i]):
            return False
        apply_action(out_state, history[i])
    return True


MAX_HOLDERS = NUM_ACTIVE + 1
"""Holders of hidden cards: the other active seats, then the skat or the simple game's discards."""
RESAMPLE_ATTEMPTS = 100
DEAL_TRIES = 100
_CONTEXT_HOLDERS, _CONTEXT_HISTORY = range(2)


@njit
def _knows_skat(state, seat):
    return state[S_CONTRACT] == CONTRACT_SIMPLE and seat == state[S_DECLARER]


@njit
def _holder_seats(state, seat, holders):
    """The seats of the holder rows in ``holders`` (-1 for the pile); returns the pile's row, or -1 when
    ``seat`` knows the skat (the simple game's declarer)."""
    holders[:] = -1
    k = 0
    for i in range(NUM_ACTIVE):
        other = state[S_ACTIVE + i]
        if other != seat:
            holders[k] = other
            k += 1
    return -1 if _knows_skat(state, seat) else k


@njit
def hidden_card_constraints(state, seat, counts, allowed, forced):
    """Per holder (``_holder_seats``): how many hidden cards it holds and which it may hold (voids shown);
    returns the cards hidden from ``seat``.

    Hidden from a seat: the other players' cards, the skat (from everybody in a solo and before the skat
    is taken; in a simple game the skat and the discards are known to the declarer only). For a simple
    game seen by someone else, the pile is the discards: the declarer's twelve cards are redrawn with them
    (``replay_sample``)."""
    simple = state[S_CONTRACT] == CONTRACT_SIMPLE
    played_all = np.uint64(0)
    for s in range(MAX_SEATS):
        played_all |= _mask(state, S_PLAYED + s)
    known = played_all | _mask(state, S_HAND + seat)
    if _knows_skat(state, seat):
        known |= _mask(state, S_DISCARDS)
    holders = np.empty(MAX_HOLDERS, dtype=np.int64)
    pile = _holder_seats(state, seat, holders)
    for k in range(MAX_HOLDERS):
        if holders[k] >= 0:
            counts[k] = popcount(_mask(state, S_HAND + holders[k]))
            allowed[k] = _void_allowed_mask(state, holders[k])
    if pile >= 0:
        counts[pile] = state[S_NUM_DISCARDS] if simple else SKAT_SIZE
        allowed[pile] = np.uint64(FULL_DECK)
    return np.uint64(FULL_DECK) & ~known


@njit
def resample_context(state, seat):
    """Row 0: the holder seats and (at ``MAX_HOLDERS``) the pile's row; row 1: the action history, whose
    discards a sample rewrites."""
    context = np.full((2, HISTORY_CAPACITY), -1, dtype=np.int64)
    context[_CONTEXT_HOLDERS, MAX_HOLDERS] = _holder_seats(state, seat, context[_CONTEXT_HOLDERS, :MAX_HOLDERS])
    length = state[S_HISTORY_LEN]
    context[_CONTEXT_HISTORY, :length] = state[S_HISTORY : S_HISTORY + length]
    return context


@njit
def replay_sample(state, seat, hands, rng, out_state, context):
    """Rebuild the deal from the sampled ``hands`` (per holder) and replay the history into ``out_state``;
    False if any action is illegal there. In a simple game seen from outside, two of the declarer's twelve
    cards are drawn as the skat and the rest of the pile becomes its discards."""
    declarer = state[S_DECLARER]
    simple = state[S_CONTRACT] == CONTRACT_SIMPLE
    holders = context[_CONTEXT_HOLDERS]
    pile = holders[MAX_HOLDERS]
    history = context[_CONTEXT_HISTORY]
    length = state[S_HISTORY_LEN]
    dealt = np.zeros(MAX_SEATS, dtype=np.uint64)
    for s in range(MAX_SEATS):
        dealt[s] = _mask(state, S_DEALT + s)
    for i in range(MAX_HOLDERS):
        if holders[i] >= 0:
            dealt[holders[i]] = hands[i] | _mask(state, S_PLAYED + holders[i])
    skat = _mask(state, S_SKAT)
    if pile >= 0 and not simple:
        skat = hands[pile]
    elif pile >= 0:
        # The declarer's twelve: what they hold and played, and the redrawn discards.
        twelve = dealt[declarer] | hands[pile]
        skat = _two_random_cards(twelve, rng)
        dealt[declarer] = twelve & ~skat
        discards = hands[pile]
        for i in range(length):
            if DISCARD_BASE <= history[i] < DISCARD_BASE + NUM_CARDS:
                card = lowest_bit(discards)
                history[i] = DISCARD_BASE + card
                discards &= ~_bit(card)
    return _replay(out_state, state[S_PLAYERS], state[S_MAX_DOUBLINGS], state[S_DEALER], dealt, skat, history, length)
