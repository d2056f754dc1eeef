"""Bavarian Schafkopf: the rules as compiled functions over one flat ``int64`` state array.

This module follows the kernel contract of ``docs/architecture.md``. It imports only numpy, numba,
``trick_core`` and ``schafkopf_env.common``; the PettingZoo env (``bavarian_v0``), the batch env, the
agents and the benchmarks are thin users of it. The rules are those of
``shared/rules/bavarian_schafkopf.md``; ``bavarian_reference.py`` is the slow plain-Python twin that
every function here is tested against.

**Cards** follow ``trick_core.cards.GERMAN_32``: card ``suit * 8 + rank``, suits ``E G H S``, ranks
``A 10 K O U 9 8 7``; a hand is a bit mask (bit ``i`` = card ``i``), stored in the state as ``int64``.

**Actions** (one ``Discrete(46)`` space):

| actions | meaning |
|---|---|
| 0..31 | play card ``i`` (the action is the card index) |
| 32..38 | bid: ``pass rufer wenz solo wenz_tout solo_tout sie`` (action ``32 + contract``) |
| 39..41 | ``call:E call:G call:S``: the called ace of a Rufer |
| 42..45 | ``trump:E trump:G trump:H trump:S``: the trump suit of a Solo or Solo Tout |

**Trump kinds** are those of ``schafkopf_env.common``: suit ``0..3`` (Obers, Unters, then that suit:
hearts for a Rufer, the chosen suit for a Solo) and ``TRUMP_WENZ`` (the Unters only).
"""

from __future__ import annotations

import numpy as np

from schafkopf_env.common import (
    CARD_POINTS,
    EFFECTIVE_SUIT,
    EFFECTIVE_SUIT_MASK,
    HEARTS,
    NUM_CARDS,
    NUM_RANKS,
    NUM_SUITS,
    RANK_A,
    RANK_O,
    RANK_U,
    TRICK_POWER,
    TRUMP,
    TRUMP_WENZ,
    consecutive_top_trumps,
)
from trick_core.jit import deal_with_constraints, njit
from trick_core.jit_fast import inline_njit, lowest_bit, njit_no_refcount, popcount, random_bit_small, rng_below_small

NUM_SEATS = 4
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
_U1 = np.uint64(1)
_ZERO = np.uint64(0)
FULL_MASK = np.uint64((1 << NUM_CARDS) - 1)
OBER_UNTER_MASK = np.uint64(sum(1 << (s * NUM_RANKS + r) for s in range(NUM_SUITS) for r in (RANK_O, RANK_U)))
PLAIN_SUIT_MASK = np.array(
    [sum(1 << (s * NUM_RANKS + r) for r in range(NUM_RANKS) if r not in (RANK_O, RANK_U)) for s in range(NUM_SUITS)],
    dtype=np.uint64,
)
"""Cards of each suit other than its Ober and Unter: what counts as 'a plain card of the suit'."""
ACE_OF_SUIT = np.array([s * NUM_RANKS + RANK_A for s in range(NUM_SUITS)], dtype=np.int64)

# --------------------------------------------------------------------------- state layout
PARAMS_SIZE = 1
PARAM_RULES_VERSION = 0
RULES_VERSION = 0
"""Bavarian Schafkopf has no rule options; the params array only carries the rules version."""

S_PARAMS = 0  # PARAMS_SIZE entries
S_DEALER = 1
S_PHASE = 2
S_CURRENT = 3  # seat to act, -1 once over
S_HIGHEST_BID = 4
S_DECLARER = 5  # -1 until someone bids
S_CONTRACT = 6  # PASS (0) until the bidding is over; stays PASS when thrown in
S_TRUMP_KIND = 7  # -1 until the contract is fixed
S_CALLED_SUIT = 8  # -1 unless a Rufer
S_PARTNER = 9  # holder of the called ace (hidden information), -1 unless a Rufer
S_PARTNER_KNOWN = 10  # 1 once the table knows the partner (ace played, or first called-suit trick done)
S_CALLED_DONE = 11  # 1 once the first trick led in the called suit is complete: restrictions end
S_LAUFENDE = 12  # counted Laufende (0 when fewer than the contract's minimum)
S_TOUT_LOST = 13
S_TRICK_NUMBER = 14  # completed tricks
S_TRICK_SIZE = 15  # cards in the trick in progress
S_NUM_ACTIONS = 16  # actions taken so far
S_BIDS = 17  # 4: each seat's bid (-1 not yet)
S_DEAL = 21  # 4: dealt hands (bit masks)
S_HAND = 25  # 4: cards still held
S_POINTS = 29  # 4: card points taken
S_TRICKS_WON = 33  # 4
TRICK_RECORD = 6  # leader, four cards in playing order, winner (-1 until complete)
S_TRICKS = 37  # NUM_TRICKS * TRICK_RECORD
MAX_ACTIONS = 40  # 4 bids + 1 call or trump + 32 cards = 37
S_HISTORY_SEAT = S_TRICKS + NUM_TRICKS * TRICK_RECORD
S_HISTORY_ACTION = S_HISTORY_SEAT + MAX_ACTIONS
STATE_SIZE = S_HISTORY_ACTION + MAX_ACTIONS

# --------------------------------------------------------------------------- observation layout
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


def make_params(**options) -> np.ndarray:
    """Validate the rule configuration and return the params array.

    Bavarian Schafkopf as pinned in ``shared/rules`` has no rule options, so any option is unknown.
    """
    if options:
        raise ValueError(f"bavarian: unknown rule option(s) {sorted(options)}; this game has none")
    params = np.zeros(PARAMS_SIZE, dtype=np.int64)
    params[PARAM_RULES_VERSION] = RULES_VERSION
    return params


# =========================================================================== small helpers
# The hot path (one random hand is ~37 steps of a few dozen instructions each) is written as small
# ``inline_njit`` helpers that numba inlines into the public entry points, which are ``njit_no_refcount``
# where they allocate nothing (see ``trick_core.jit_fast`` for why both matter with ``cache=True``).


@inline_njit
def _bit(card):
    return _U1 << np.uint64(card)


@inline_njit
def _below(rng, n):
    """Uniform integer in ``[0, n)`` for small ``n`` by multiply-shift (Lemire) on 32 random bits: no
    division, which dominates a random playout otherwise; the bias is below n / 2**32."""
    return rng_below_small(rng, n)


@inline_njit
def _random_bit(rng, mask):
    """A uniformly chosen set bit of a non-zero mask (an action or a card)."""
    return random_bit_small(rng, mask)


@inline_njit
def _mask(state, offset):
    return np.uint64(state[offset])


@inline_njit
def _forehand(state):
    return (state[S_DEALER] + 1) % NUM_SEATS


@inline_njit
def _is_tout(contract):
    return contract == WENZ_TOUT or contract == SOLO_TOUT


@inline_njit
def _follow_mask(kind, hand_mask, led_card):
    """``common.follow_mask``, inlined: the cards of the led effective suit if any, else the whole hand."""
    same = hand_mask & EFFECTIVE_SUIT_MASK[kind, EFFECTIVE_SUIT[kind, led_card]]
    return same if same != _ZERO else hand_mask


@inline_njit
def _winning_position(state, kind, start):
    """Position in playing order of the card that wins the four at ``state[start:start + 4]``: the highest
    trump, else the highest card of the led suit (``common.trick_winner_index`` without the array view,
    whose reference counting costs more than the trick)."""
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
def legal_call_bits(hand):
    """Call actions a Rufer declarer with ``hand`` may take, as bits over the three callable suits:
    the ace not held and a plain card of its suit held."""
    bits = _ZERO
    for i in range(3):
        suit = CALLABLE_SUITS[i]
        if (hand & _bit(ACE_OF_SUIT[suit])) == _ZERO and (hand & PLAIN_SUIT_MASK[suit]) != _ZERO:
            bits |= _U1 << np.uint64(i)
    return bits


@inline_njit
def legal_trump_bits(hand):
    """Trump suits a Solo declarer may name: those of which the hand holds a plain card."""
    bits = _ZERO
    for suit in range(NUM_SUITS):
        if (hand & PLAIN_SUIT_MASK[suit]) != _ZERO:
            bits |= _U1 << np.uint64(suit)
    return bits


@inline_njit
def can_bid(hand, contract):
    """Whether a hand may bid a contract at all (before comparing with the highest bid)."""
    if contract == RUFER:
        return legal_call_bits(hand) != _ZERO
    if contract == SOLO or contract == SOLO_TOUT:
        return legal_trump_bits(hand) != _ZERO
    if contract == SIE:
        return (hand & OBER_UNTER_MASK) == OBER_UNTER_MASK
    return True


@inline_njit
def legal_card_bits(state, seat):
    """Cards ``seat`` may play now: follow the effective suit, plus the called-ace rules of a Rufer."""
    hand = _mask(state, S_HAND + seat)
    kind = state[S_TRUMP_KIND]
    trick = S_TRICKS + state[S_TRICK_NUMBER] * TRICK_RECORD
    restricted = False
    ace = _ZERO
    called = state[S_CALLED_SUIT]
    if state[S_CONTRACT] == RUFER and state[S_CALLED_DONE] == 0:
        ace = _bit(ACE_OF_SUIT[called])
        restricted = (hand & ace) != _ZERO
    if state[S_TRICK_SIZE] == 0:
        if restricted:
            suit_cards = hand & PLAIN_SUIT_MASK[called]
            if popcount(suit_cards) < 4:  # fewer than three others: no running away, lead the ace
                return hand & ~(suit_cards & ~ace)
        return hand
    led_card = state[trick + 1]
    allowed = _follow_mask(kind, hand, led_card)
    if restricted:
        if EFFECTIVE_SUIT[kind, led_card] == called:
            return ace  # the called suit is led: the ace must go, trumped or not
        if popcount(hand) > 1:
            allowed &= ~ace  # no discarding the called ace before its suit is led, unless last card
    return allowed


@inline_njit
def legal_action_bits(state):
    """Legal actions of the seat to act as bits of a ``uint64`` (46 actions fit); 0 once over."""
    phase = state[S_PHASE]
    seat = state[S_CURRENT]
    if phase == PHASE_PLAYING:
        return legal_card_bits(state, seat)  # card actions are the card indices
    hand = _mask(state, S_HAND + seat)
    if phase == PHASE_BIDDING:
        bits = _U1 << np.uint64(BID_ACTION_BASE + PASS)
        for contract in range(state[S_HIGHEST_BID] + 1, NUM_BIDS):
            if can_bid(hand, contract):
                bits |= _U1 << np.uint64(BID_ACTION_BASE + contract)
        return bits
    if phase == PHASE_CALLING:
        return legal_call_bits(hand) << np.uint64(CALL_ACTION_BASE)
    if phase == PHASE_TRUMP:
        return legal_trump_bits(hand) << np.uint64(TRUMP_ACTION_BASE)
    return _ZERO


@inline_njit
def _bits_to_mask(bits, out):
    for action in range(NUM_ACTIONS):
        out[action] = (bits >> np.uint64(action)) & _U1


# =========================================================================== contract kernel API


@njit  # not njit_no_refcount: a caller's deal given as a Python list needs reference counting
def init_state(state, params, dealer, deal_cards):
    """Start a hand: ``deal_cards`` holds 32 card indices, seat 0's eight cards first, then seat 1's..."""
    h0, h1, h2, h3 = _hands_of(deal_cards, 0)
    _start_hand(state, params, dealer, h0, h1, h2, h3)


@inline_njit
def _hands_of(cards, offset):
    """The four hand masks of the 32 card indices at ``cards[offset:]``, seat 0's eight cards first."""
    h0 = h1 = h2 = h3 = _ZERO
    for i in range(HAND_SIZE):
        h0 |= _bit(cards[offset + i])
        h1 |= _bit(cards[offset + HAND_SIZE + i])
        h2 |= _bit(cards[offset + 2 * HAND_SIZE + i])
        h3 |= _bit(cards[offset + 3 * HAND_SIZE + i])
    return h0, h1, h2, h3


@inline_njit
def _init_from_masks(state, params, dealer, hands):
    _start_hand(state, params, dealer, hands[0], hands[1], hands[2], hands[3])


@inline_njit
def _start_hand(state, params, dealer, h0, h1, h2, h3):
    """Clear the whole state (so that it is a function of the deal and the actions alone) and start the
    bidding with the four hands dealt."""
    state[:] = 0
    for i in range(PARAMS_SIZE):
        state[S_PARAMS + i] = params[i]
    state[S_DEALER] = dealer
    state[S_PHASE] = PHASE_BIDDING
    state[S_CURRENT] = (dealer + 1) % NUM_SEATS
    state[S_HIGHEST_BID] = PASS
    state[S_DECLARER] = -1
    state[S_CONTRACT] = PASS
    state[S_TRUMP_KIND] = -1
    state[S_CALLED_SUIT] = -1
    state[S_PARTNER] = -1
    state[S_DEAL] = state[S_HAND] = np.int64(h0)
    state[S_DEAL + 1] = state[S_HAND + 1] = np.int64(h1)
    state[S_DEAL + 2] = state[S_HAND + 2] = np.int64(h2)
    state[S_DEAL + 3] = state[S_HAND + 3] = np.int64(h3)
    for seat in range(NUM_SEATS):
        state[S_BIDS + seat] = -1
    for i in range(NUM_TRICKS * TRICK_RECORD):
        state[S_TRICKS + i] = -1


SHUFFLE_SCRATCH = S_HISTORY_SEAT
"""Where ``_deal_random_with`` shuffles the pack: the action history, empty until the hand starts and
cleared by it, so that dealing allocates nothing."""
assert MAX_ACTIONS >= NUM_CARDS


@inline_njit
def _deal_random_with(state, params, rng, dealer):
    """Shuffle (Fisher-Yates), deal, start; ``dealer`` -1 draws the dealer too (after the shuffle)."""
    pack = SHUFFLE_SCRATCH
    for i in range(NUM_CARDS):
        state[pack + i] = i
    for i in range(NUM_CARDS - 1, 0, -1):
        j = _below(rng, i + 1)
        state[pack + i], state[pack + j] = state[pack + j], state[pack + i]
    if dealer < 0:
        dealer = _below(rng, NUM_SEATS)
    h0, h1, h2, h3 = _hands_of(state, pack)
    _start_hand(state, params, dealer, h0, h1, h2, h3)


@njit_no_refcount
def deal_random(state, params, rng):
    """Deal at random (the dealer drawn too) from the splitmix64 ``rng`` and start the hand."""
    _deal_random_with(state, params, rng, -1)


@njit_no_refcount
def deal_random_for_dealer(state, params, rng, dealer):
    """Deal random hands with a given dealer (``-1``: drawn as in ``deal_random``)."""
    _deal_random_with(state, params, rng, dealer)


@njit_no_refcount
def current_seat(state):
    return state[S_CURRENT]


@njit_no_refcount
def legal_action_mask(state, out):
    """Fill int8 ``out[NUM_ACTIONS]`` with the legal actions of the seat to act."""
    _bits_to_mask(legal_action_bits(state), out)


@inline_njit
def _apply(state, action):
    seat = state[S_CURRENT]
    n = state[S_NUM_ACTIONS]
    state[S_HISTORY_SEAT + n] = seat
    state[S_HISTORY_ACTION + n] = action
    state[S_NUM_ACTIONS] = n + 1
    phase = state[S_PHASE]
    if phase == PHASE_PLAYING:
        _play_card(state, seat, action - CARD_ACTION_BASE)
    elif phase == PHASE_BIDDING:
        _bid(state, seat, action - BID_ACTION_BASE)
    elif phase == PHASE_CALLING:
        _call(state, CALLABLE_SUITS[action - CALL_ACTION_BASE])
    elif phase == PHASE_TRUMP:
        state[S_TRUMP_KIND] = action - TRUMP_ACTION_BASE
        _start_play(state)


@njit_no_refcount
def apply_action(state, action):
    """Apply a legal action of the seat to act (callers check legality with the mask)."""
    _apply(state, action)


@njit_no_refcount
def advance(state, action, mask_out):
    """One env step: apply ``action``, fill ``mask_out`` for the next seat; return it, or -1 when over.

    Calls rather than inlines: between functions without reference counting a call costs a few
    nanoseconds, nothing next to a Python env step, and every inlined copy of the rules costs seconds of
    first-time compilation."""
    apply_action(state, action)
    legal_action_mask(state, mask_out)
    return state[S_CURRENT]


@njit_no_refcount
def _legal_action_bits_called(state):
    """``legal_action_bits`` as a function that is called, not inlined (for replays)."""
    return legal_action_bits(state)


@inline_njit
def _end_hand(state):
    state[S_PHASE] = PHASE_OVER
    state[S_CURRENT] = -1


@inline_njit
def _bid(state, seat, contract):
    state[S_BIDS + seat] = contract
    if contract > state[S_HIGHEST_BID]:
        state[S_HIGHEST_BID] = contract
        state[S_DECLARER] = seat
    if contract == SIE:  # wins at once without play; nobody can bid higher
        state[S_CONTRACT] = SIE
        state[S_LAUFENDE] = SIE_LAUFENDE
        _end_hand(state)
        return
    if seat != state[S_DEALER]:  # the dealer bids last
        state[S_CURRENT] = (seat + 1) % NUM_SEATS
        return
    contract = state[S_HIGHEST_BID]
    if contract == PASS:  # four passes: thrown in
        _end_hand(state)
        return
    state[S_CONTRACT] = contract
    state[S_CURRENT] = state[S_DECLARER]
    if contract == RUFER:
        state[S_PHASE] = PHASE_CALLING
    elif contract == SOLO or contract == SOLO_TOUT:
        state[S_PHASE] = PHASE_TRUMP
    else:
        state[S_TRUMP_KIND] = TRUMP_WENZ
        _start_play(state)


@inline_njit
def _call(state, suit):
    state[S_CALLED_SUIT] = suit
    state[S_TRUMP_KIND] = HEARTS
    ace = _bit(ACE_OF_SUIT[suit])
    for seat in range(NUM_SEATS):
        if _mask(state, S_DEAL + seat) & ace:
            state[S_PARTNER] = seat
    _start_play(state)


@inline_njit
def counted_laufende(contract, kind, side_mask):
    """Laufende that count for a contract whose declarer side held ``side_mask`` at the start: the
    consecutive top trumps of either side, or 0 below the contract's minimum."""
    if contract == SIE:
        return SIE_LAUFENDE
    count = consecutive_top_trumps(kind, side_mask)
    return count if count >= LAUFENDE_FROM[contract] else 0


@inline_njit
def _start_play(state):
    """Count the Laufende from the dealt hands, then forehand leads the first trick."""
    contract = state[S_CONTRACT]
    declarer = state[S_DECLARER]
    side = _mask(state, S_DEAL + declarer)
    if contract == RUFER:
        side |= _mask(state, S_DEAL + state[S_PARTNER])
    state[S_LAUFENDE] = counted_laufende(contract, state[S_TRUMP_KIND], side)
    state[S_PHASE] = PHASE_PLAYING
    leader = _forehand(state)
    state[S_CURRENT] = leader
    state[S_TRICKS] = leader


@inline_njit
def _play_card(state, seat, card):
    state[S_HAND + seat] = np.int64(_mask(state, S_HAND + seat) & ~_bit(card))
    trick = S_TRICKS + state[S_TRICK_NUMBER] * TRICK_RECORD
    size = state[S_TRICK_SIZE]
    state[trick + 1 + size] = card
    state[S_TRICK_SIZE] = size + 1
    if state[S_CONTRACT] == RUFER and card == ACE_OF_SUIT[state[S_CALLED_SUIT]]:
        state[S_PARTNER_KNOWN] = 1
    if size < NUM_SEATS - 1:
        state[S_CURRENT] = (seat + 1) % NUM_SEATS
        return
    _complete_trick(state, trick)


@inline_njit
def _complete_trick(state, trick):
    kind = state[S_TRUMP_KIND]
    leader = state[trick]
    winner = (leader + _winning_position(state, kind, trick + 1)) % NUM_SEATS
    state[trick + 5] = winner
    points = 0
    for i in range(NUM_SEATS):
        points += CARD_POINTS[state[trick + 1 + i]]
    state[S_POINTS + winner] += points
    state[S_TRICKS_WON + winner] += 1
    state[S_TRICK_NUMBER] += 1
    state[S_TRICK_SIZE] = 0
    contract = state[S_CONTRACT]
    if (
        contract == RUFER
        and state[S_CALLED_DONE] == 0
        and EFFECTIVE_SUIT[kind, state[trick + 1]] == state[S_CALLED_SUIT]
    ):
        state[S_CALLED_DONE] = 1  # the ace fell in this trick, or its holder ran away
        state[S_PARTNER_KNOWN] = 1
    if _is_tout(contract) and winner != state[S_DECLARER]:
        state[S_TOUT_LOST] = 1  # a Tout ends at once when a trick is lost
        _end_hand(state)
        return
    if state[S_TRICK_NUMBER] == NUM_TRICKS:
        _end_hand(state)
        return
    state[S_CURRENT] = winner
    state[trick + TRICK_RECORD] = winner


@inline_njit
def contract_value(contract, side_points, side_tricks, laufende, tout_lost):
    """Whether the declarer's side wins, and the value in units (``shared/rules`` section 5).

    ``side_points`` / ``side_tricks`` are the declarer side's card points and tricks, ``laufende`` the
    counted Laufende (0 below the contract's minimum)."""
    if contract == SIE:
        return True, BASE_VALUE[SIE] + SIE_LAUFENDE * LAUFENDE_UNIT[SIE]
    value = BASE_VALUE[contract] + laufende * LAUFENDE_UNIT[contract]
    if _is_tout(contract):
        return tout_lost == 0 and side_tricks == NUM_TRICKS, value
    if side_tricks == NUM_TRICKS or side_tricks == 0:
        value += 2  # Schwarz
    elif side_points >= 91 or side_points <= 30:
        value += 1  # Schneider
    return side_points >= 61, value


@inline_njit
def declarer_side_totals(state):
    """Card points and tricks of the declarer's side (declarer plus, in a Rufer, the ace's holder)."""
    declarer = state[S_DECLARER]
    points = state[S_POINTS + declarer]
    tricks = state[S_TRICKS_WON + declarer]
    partner = state[S_PARTNER]
    if state[S_CONTRACT] == RUFER:
        points += state[S_POINTS + partner]
        tricks += state[S_TRICKS_WON + partner]
    return points, tricks


@njit_no_refcount
def settlement(state, out):
    """Units per seat once the hand is over (zero-sum); zeros when thrown in or still running."""
    _settle(state, out)


@inline_njit
def _settle(state, out):
    out[:] = 0.0
    contract = state[S_CONTRACT]
    if state[S_PHASE] != PHASE_OVER or contract == PASS:
        return
    points, tricks = declarer_side_totals(state)
    won, value = contract_value(contract, points, tricks, state[S_LAUFENDE], state[S_TOUT_LOST])
    sign = 1.0 if won else -1.0
    declarer = state[S_DECLARER]
    if contract == RUFER:
        partner = state[S_PARTNER]
        for seat in range(NUM_SEATS):
            on_side = seat == declarer or seat == partner
            out[seat] = sign * value if on_side else -sign * value
        return
    for seat in range(NUM_SEATS):
        out[seat] = -sign * value
    out[declarer] = 3.0 * sign * value


# =========================================================================== observation


@inline_njit
def _set_cards(out, offset, mask):
    while mask != _ZERO:
        card = lowest_bit(mask)
        out[offset + card] = 1.0
        mask &= mask - _U1


@inline_njit
def _relative(seat, observer):
    return (seat - observer + NUM_SEATS) % NUM_SEATS


@inline_njit
def partner_known_to(state, observer):
    """The ace holder's seat if ``observer`` knows it (the table knows, or it holds the ace), else -1."""
    partner = state[S_PARTNER]
    if partner >= 0 and (state[S_PARTNER_KNOWN] == 1 or partner == observer):
        return partner
    return -1


@njit_no_refcount
def observe(state, seat, obs_type, out):
    """Float32 observation of ``seat``: all and only what it may know (layout: the ``OBS_*`` table)."""
    out[:] = 0.0
    rel = (_relative(0, seat), _relative(1, seat), _relative(2, seat), _relative(3, seat))
    _set_cards(out, OBS_HAND, _mask(state, S_HAND + seat))
    out[OBS_DEALER + rel[state[S_DEALER]]] = 1.0
    if state[S_CURRENT] >= 0:
        out[OBS_TO_ACT + rel[state[S_CURRENT]]] = 1.0
    out[OBS_PHASE + state[S_PHASE]] = 1.0
    for s in range(NUM_SEATS):
        if state[S_BIDS + s] >= 0:
            out[OBS_BIDS + rel[s] * NUM_BIDS + state[S_BIDS + s]] = 1.0
    if state[S_CONTRACT] != PASS:
        out[OBS_CONTRACT + state[S_CONTRACT] - 1] = 1.0
    if state[S_DECLARER] >= 0:
        out[OBS_DECLARER + rel[state[S_DECLARER]]] = 1.0
    if state[S_TRUMP_KIND] >= 0:
        out[OBS_TRUMP + state[S_TRUMP_KIND]] = 1.0
    if state[S_CALLED_SUIT] >= 0:
        out[OBS_CALLED_SUIT + state[S_CALLED_SUIT]] = 1.0
    partner = partner_known_to(state, seat)
    if partner >= 0:
        out[OBS_PARTNER + rel[partner]] = 1.0
    out[OBS_CALLED_DONE] = state[S_CALLED_DONE]
    completed = state[S_TRICK_NUMBER]
    if state[S_PHASE] == PHASE_PLAYING:
        trick = S_TRICKS + completed * TRICK_RECORD
        leader = state[trick]
        out[OBS_TRICK_LEADER + rel[leader]] = 1.0
        for i in range(state[S_TRICK_SIZE]):
            out[OBS_TRICK + rel[(leader + i) % NUM_SEATS] * NUM_CARDS + state[trick + 1 + i]] = 1.0
    for t in range(completed):
        trick = S_TRICKS + t * TRICK_RECORD
        leader = state[trick]
        for i in range(NUM_SEATS):
            out[OBS_PLAYED + rel[(leader + i) % NUM_SEATS] * NUM_CARDS + state[trick + 1 + i]] = 1.0
    for s in range(NUM_SEATS):
        out[OBS_POINTS + rel[s]] = state[S_POINTS + s] / 120.0
        out[OBS_TRICKS_WON + rel[s]] = state[S_TRICKS_WON + s] / NUM_TRICKS
    if obs_type == OBS_TYPE_OBSERVATION:
        return
    _set_cards(out, OBS_DEALT_HAND, _mask(state, S_DEAL + seat))
    for t in range(completed):
        trick = S_TRICKS + t * TRICK_RECORD
        leader = state[trick]
        base = OBS_HISTORY + t * OBS_HISTORY_TRICK
        out[base + rel[leader]] = 1.0
        for i in range(NUM_SEATS):
            out[base + NUM_SEATS + rel[(leader + i) % NUM_SEATS] * NUM_CARDS + state[trick + 1 + i]] = 1.0
    if obs_type == OBS_TYPE_PERFECT:
        for s in range(NUM_SEATS):
            _set_cards(out, OBS_ALL_HANDS + rel[s] * NUM_CARDS, _mask(state, S_HAND + s))


# =========================================================================== playouts and search


@inline_njit
def _random_playout(state, rng):
    while state[S_CURRENT] >= 0:
        _apply(state, _random_bit(rng, legal_action_bits(state)))


@njit_no_refcount
def random_playout(state, rng):
    """Play uniformly random legal actions until the hand is over, in place."""
    _random_playout(state, rng)


@njit
def playout_values(state, actions, playouts, rng, out):
    """For each candidate ``actions[i]`` of the seat to act, ``playouts`` times: copy the state, apply
    it, play randomly to the end, and add the settlement into ``out[i, :]``."""
    _playout_values_with(state, actions, playouts, rng, out, np.empty_like(state), np.zeros(NUM_SEATS))


@njit_no_refcount
def _playout_values_with(state, actions, playouts, rng, out, work, units):
    """``playout_values`` with its scratch arrays given, compiled without reference counting."""
    for i in range(actions.shape[0]):
        for _ in range(playouts):
            for k in range(STATE_SIZE):  # not work[:] = state: numba may allocate a copy for that
                work[k] = state[k]
            apply_action(work, actions[i])
            random_playout(work, rng)  # called, not inlined: once per playout it costs nothing
            settlement(work, units)
            for s in range(NUM_SEATS):
                out[i, s] += units[s]


@njit
def play_random_hands(params, num_hands, seed):
    """Benchmark kernel: deal and play ``num_hands`` random hands; returns the sum of seat 0's units."""
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64(seed)
    return _play_random_hands_with(params, num_hands, rng, np.empty(STATE_SIZE, np.int64), np.zeros(NUM_SEATS))


@njit_no_refcount
def _play_random_hands_with(params, num_hands, rng, state, units):
    """``play_random_hands`` with its arrays given, without reference counting. The entry points are
    called, not inlined: three calls per hand cost nothing, and ``random_playout`` has the rules inlined."""
    checksum = 0.0
    for _ in range(num_hands):
        deal_random(state, params, rng)
        random_playout(state, rng)
        settlement(state, units)
        checksum += units[0]
    return checksum


# =========================================================================== resampling hidden cards


@inline_njit
def _played_mask(state, seat):
    return _mask(state, S_DEAL + seat) & ~_mask(state, S_HAND + seat)


@njit
def hidden_card_constraints(state, observer, allowed):
    """Fill ``allowed[s]`` with the unseen cards seat ``s`` may still hold as far as ``observer`` can
    tell from public play: shown voids, the revealed holder of the called ace, a Sie. Returns the
    mask of cards ``observer`` cannot see."""
    unseen = FULL_MASK & ~_mask(state, S_HAND + observer)
    for s in range(NUM_SEATS):
        unseen &= ~_played_mask(state, s)
    for s in range(NUM_SEATS):
        allowed[s] = unseen if s != observer else _ZERO
    kind = state[S_TRUMP_KIND]
    tricks_seen = state[S_TRICK_NUMBER] + (1 if state[S_PHASE] == PHASE_PLAYING else 0)
    for t in range(min(tricks_seen, NUM_TRICKS)):
        trick = S_TRICKS + t * TRICK_RECORD
        leader = state[trick]
        size = NUM_SEATS if t < state[S_TRICK_NUMBER] else state[S_TRICK_SIZE]
        if size == 0:
            continue
        led_suit = EFFECTIVE_SUIT[kind, state[trick + 1]]
        for i in range(1, size):
            if EFFECTIVE_SUIT[kind, state[trick + 1 + i]] != led_suit:  # failed to follow: void
                s = (leader + i) % NUM_SEATS
                allowed[s] &= ~EFFECTIVE_SUIT_MASK[kind, led_suit]
    if state[S_CONTRACT] == RUFER:
        ace = _bit(ACE_OF_SUIT[state[S_CALLED_SUIT]])
        allowed[state[S_DECLARER]] &= ~ace  # a declarer never holds the ace it called
        partner = partner_known_to(state, observer)
        if partner >= 0:
            for s in range(NUM_SEATS):
                if s != partner:
                    allowed[s] &= ~ace
    if state[S_CONTRACT] == SIE:
        for s in range(NUM_SEATS):
            if s != state[S_DECLARER]:
                allowed[s] &= ~OBER_UNTER_MASK
    return unseen


@njit_no_refcount
def _replays_legally(state, hands, work):
    """Restart ``work`` from ``hands`` and replay ``state``'s history; False if any action is illegal."""
    _init_from_masks(work, state[S_PARAMS : S_PARAMS + PARAMS_SIZE], state[S_DEALER], hands)
    for i in range(state[S_NUM_ACTIONS]):
        action = state[S_HISTORY_ACTION + i]
        if ((_legal_action_bits_called(work) >> np.uint64(action)) & _U1) == _ZERO:
            return False
        apply_action(work, action)
    return True


@njit
def resample_hidden(state, seat, rng, out_state):
    """Write into ``out_state`` a state whose cards hidden from ``seat`` are redealt consistently with
    everything ``seat`` knows (its own cards, all plays, voids, bids); True on success.

    Samples come from ``deal_with_constraints``; any sample under which a recorded action would have
    been illegal (a bid, a call, a called-ace rule) is rejected and redrawn."""
    allowed = np.zeros(NUM_SEATS, dtype=np.uint64)
    unseen = hidden_card_constraints(state, seat, allowed)
    counts = np.zeros(NUM_SEATS, dtype=np.int64)
    for s in range(NUM_SEATS):
        if s != seat:
            counts[s] = popcount(_mask(state, S_HAND + s))
    dealt = np.zeros(NUM_SEATS, dtype=np.uint64)
    hands = np.zeros(NUM_SEATS, dtype=np.uint64)
    for _attempt in range(1000):
        if not deal_with_constraints(unseen, counts, allowed, rng, dealt, 100):
            return False
        for s in range(NUM_SEATS):
            current = _mask(state, S_HAND + s) if s == seat else dealt[s]
            hands[s] = current | _played_mask(state, s)
        if _replays_legally(state, hands, out_state):
            return True
    return False
