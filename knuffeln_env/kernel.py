"""Knüffeln rules kernel: the whole game as compiled functions over one flat ``int64`` state array.

Follows the kernel contract of ``docs/architecture.md`` and the rules of ``shared/rules/knuffeln.md``
(the env's docs page, ``knuffeln_env.knuffeln_v0``, lists every pin and decision).

**Cards.** ``trick_core.cards.KNUFFELN_48``: card ``suit * 12 + rank``, suits ``C S H D``, ranks
``A K Q J 10 9 8 7 6 4 3 2``. Bernhard 1924 uses ``KNUFFELN_48_FIVES``, the same layout with the 5 in
the ten's place (rank 4), so one kernel serves both packs: rank 4 is "the exchange card".
Hands and every other set of cards are bit masks (bit ``i`` = card ``i``) kept in ``int64`` (48 bits).

**Card roles are data.** ``ATTACK[chosen, card]`` and ``DEFENCE[chosen, card]`` hold section 4's
attack/defence values for every set of chosen suits (``chosen`` = 4-bit suit mask), and
``SUIT_RANK[ranking, chosen, card]`` the within-suit rank of an unchosen card (Bohmstedt: only the ace
ranks; Hattstedt / 1938: ``A K Q J 10 9 8 7 6 4 3 2``; 1924: ``A K Q J 9 8 7 6 5 4 3 2``). A later card
beats the provisional winner when its attack exceeds the winner's defence, or when both are unchosen
cards (Oles excluded) of one suit and it ranks higher there.

**Actions** (one ``Discrete`` space; ``action_names(params)`` gives the strings):

| index | action |
|---|---|
| 0..47 | play card C face up (``"H2"``) |
| 48..95 | ``turn:C`` lead C face down (drehen) |
| 96..143 | ``exchange:C`` take turned card C for one's chosen ten |
| 144..191 | ``show:C`` half-show C to the partner (talk, lexicon mode) |
| 192..198 | ``take_ole decline stop accept flee play_alone sit_out`` |
| 199 | ``silent`` |
| 200..223 | ``say:1`` .. ``say:24`` |
| 224..224+N-1 | ``token:1`` .. ``token:N`` (talk ``tokens:N``) |

**Deal cards** for ``init_state``: the hands seat by seat (five players: the four non-dealers in seat
order), 9 cards each, then the 12 stock cards from the top (turned first) to the bottom.
"""

from __future__ import annotations

import numpy as np

from trick_core.bits import lowest_bit, nth_bit, popcount, rng_next, uniform_below
from trick_core.jit import inline_njit, njit, njit_no_refcount

# ----------------------------------------------------------------------------- cards

NUM_CARDS = 48
NUM_SUITS = 4
NUM_RANKS = 12
CLUBS, SPADES, HEARTS, DIAMONDS = range(4)
RANK_A, RANK_K, RANK_Q, RANK_J, RANK_10, RANK_9, RANK_8, RANK_7, RANK_6, RANK_4, RANK_3, RANK_2 = range(12)
RANK_EXCHANGE = RANK_10
"""Rank index of the exchange card: the ten (the five in the Bernhard 1924 pack)."""

CARDS_PER_HAND = 9
STOCK_SIZE = 12
MAX_SEATS = 5
GAME = "knuffeln"
MAX_TRICKS = 9
MAX_TURNED = 4


def card_index(suit: int, rank: int) -> int:
    return suit * NUM_RANKS + rank


H2 = card_index(HEARTS, RANK_2)
C4 = card_index(CLUBS, RANK_4)
S8 = card_index(SPADES, RANK_8)
H9 = card_index(HEARTS, RANK_9)
D9 = card_index(DIAMONDS, RANK_9)
OLES = (H2, C4, S8, H9, D9)
"""The five Oles, highest first: de Beste, de Wage, de Dulle, Harten Ol, Ruten Ol."""
OLE_ATTACK = {H2: 11, C4: 10, S8: 9, H9: 8, D9: 7}
OLE_MASK = sum(1 << c for c in OLES)
CHOSEN_BEATER_ATTACK = {RANK_A: 6, RANK_J: 5, RANK_6: 4, RANK_2: 3, RANK_3: 2, RANK_4: 1}
UNBEATABLE = 100
"""Defence of a led chosen 7: no attack value reaches it."""

RANKING_BOHMSTEDT, RANKING_HATTSTEDT, RANKING_FIVES = range(3)
_UNCHOSEN_ORDER = {
    RANKING_HATTSTEDT: (RANK_A, RANK_K, RANK_Q, RANK_J, RANK_10, RANK_9, RANK_8, RANK_7, RANK_6, RANK_4, RANK_3,
                        RANK_2),
    # Bernhard's pack: the 5 (rank index 4) ranks where a 5 naturally stands, between the 6 and the 4.
    RANKING_FIVES: (RANK_A, RANK_K, RANK_Q, RANK_J, RANK_9, RANK_8, RANK_7, RANK_6, RANK_10, RANK_4, RANK_3,
                    RANK_2),
}


def _build_card_tables():
    """ATTACK / DEFENCE per chosen-suit mask and SUIT_RANK per unchosen ranking (section 4's table)."""
    attack = np.zeros((16, NUM_CARDS), dtype=np.int64)
    defence = np.zeros((16, NUM_CARDS), dtype=np.int64)
    suit_rank = np.zeros((3, 16, NUM_CARDS), dtype=np.int64)
    for chosen in range(16):
        for card in range(NUM_CARDS):
            suit, rank = divmod(card, NUM_RANKS)
            if card in OLE_ATTACK:
                attack[chosen, card] = defence[chosen, card] = OLE_ATTACK[card]
            elif chosen >> suit & 1:
                beater = CHOSEN_BEATER_ATTACK.get(rank, 0)
                attack[chosen, card] = beater
                if beater:
                    defence[chosen, card] = beater
                elif rank == RANK_7:
                    defence[chosen, card] = UNBEATABLE
                elif rank in (RANK_9, RANK_8):
                    defence[chosen, card] = 4
                else:
                    defence[chosen, card] = {RANK_K: 2, RANK_Q: 1}.get(rank, 0)
            else:
                defence[chosen, card] = {RANK_A: 3, RANK_K: 2, RANK_Q: 1}.get(rank, 0)
                suit_rank[RANKING_BOHMSTEDT, chosen, card] = 2 if rank == RANK_A else 1
                for ranking, order in _UNCHOSEN_ORDER.items():
                    suit_rank[ranking, chosen, card] = NUM_RANKS - order.index(rank)
    return attack, defence, suit_rank


ATTACK, DEFENCE, SUIT_RANK = _build_card_tables()

# ----------------------------------------------------------------------------- config

VARIANTS = ("bohmstedt", "hattstedt", "bernhard1924", "gruenberg1938")
VARIANT_BOHMSTEDT, VARIANT_HATTSTEDT, VARIANT_BERNHARD1924, VARIANT_GRUENBERG1938 = range(4)
DREHEN_NONE, DREHEN_ANY_LEAD, DREHEN_BERNHARD = range(3)
BOTTOM_CHECK, BOTTOM_THREE_FACE_UP = range(2)

RANKING_OF_VARIANT = np.array([RANKING_BOHMSTEDT, RANKING_HATTSTEDT, RANKING_FIVES, RANKING_HATTSTEDT], np.int64)
DREHEN_OF_VARIANT = np.array([DREHEN_ANY_LEAD, DREHEN_NONE, DREHEN_BERNHARD, DREHEN_ANY_LEAD], np.int64)
BOTTOM_RULE_OF_VARIANT = np.array(
    [BOTTOM_CHECK, BOTTOM_CHECK, BOTTOM_THREE_FACE_UP, BOTTOM_THREE_FACE_UP], np.int64
)
PAY_BASE = np.array([1, 1, 1, 5], np.int64)
PAY_JANN = np.array([10, 2, 10, 10], np.int64)
PAY_MARCH = np.array([30, 4, 30, 20], np.int64)
PAY_PER_TURN = 1

TALK_OFF, TALK_LEXICON, TALK_TOKENS = range(3)
MAX_TOKENS = 64
NUM_PHRASES = 24

PARAM_VARIANT, PARAM_PLAYERS, PARAM_TALK, PARAM_TOKENS = range(4)
PARAMS_SIZE = 4


def parse_talk(talk) -> tuple[int, int]:
    """``"off"`` | ``"lexicon"`` | ``"tokens:N"`` -> (talk mode, N); ``ValueError`` naming a bad value."""
    if talk in (None, False, "off"):
        return TALK_OFF, 0
    if talk == "lexicon":
        return TALK_LEXICON, 0
    if isinstance(talk, str) and talk.startswith("tokens:"):
        count = talk.split(":", 1)[1]
        if count.isdigit() and 1 <= int(count) <= MAX_TOKENS:
            return TALK_TOKENS, int(count)
    raise ValueError(f"knuffeln: unknown talk option {talk!r}; use 'off', 'lexicon' or 'tokens:N' (1 <= N <= "
                     f"{MAX_TOKENS})")


def make_params(variant: str = "bohmstedt", players: int = 4, talk="off", match: bool = False) -> np.ndarray:
    """Validate the rules options and return the kernel's ``int64`` params array.

    ``match`` (ladder scoring over several hands) is played by the env ``knuffeln_v0`` around this
    one-hand kernel; compiled users (the batch env) get a ``ValueError`` rather than silent single hands."""
    if not isinstance(match, bool):
        raise ValueError(f"knuffeln: match must be True or False, got {match!r}")
    if match:
        raise ValueError("knuffeln: match=True (ladder scoring) is played by knuffeln_v0 only; the compiled "
                         "kernel and the batch env play single hands")
    if variant not in VARIANTS:
        raise ValueError(f"knuffeln: unknown variant {variant!r}; choose from {VARIANTS}")
    if isinstance(players, bool) or players not in (4, 5):
        raise ValueError(f"knuffeln: players must be 4 or 5, got {players!r}")
    if players == 5 and variant != "bohmstedt":
        raise ValueError(f"knuffeln: the five-player game is a Bohmstedt variant; variant {variant!r} has 4 players")
    talk_mode, tokens = parse_talk(talk)
    params = np.zeros(PARAMS_SIZE, dtype=np.int64)
    params[PARAM_VARIANT] = VARIANTS.index(variant)
    params[PARAM_PLAYERS] = players
    params[PARAM_TALK] = talk_mode
    params[PARAM_TOKENS] = tokens
    return params


# ----------------------------------------------------------------------------- actions

ACTION_PLAY = 0
ACTION_TURN = 48
ACTION_EXCHANGE = 96
ACTION_SHOW = 144
ACTION_TAKE_OLE = 192
ACTION_DECLINE = 193
ACTION_STOP = 194
ACTION_ACCEPT = 195
ACTION_FLEE = 196
ACTION_PLAY_ALONE = 197
ACTION_SIT_OUT = 198
ACTION_SILENT = 199
ACTION_SAY = 200
"""``say:k`` is ``ACTION_SAY + k - 1``."""
ACTION_TOKEN = 224
"""``token:k`` is ``ACTION_TOKEN + k - 1``."""
ACTION_MISC = 192
"""Actions 192..223 travel as the bits of one 32-bit "misc" mask inside the kernel."""
NUM_BASE_ACTIONS = 224
MAX_ACTIONS = NUM_BASE_ACTIONS + MAX_TOKENS
"""The largest action space (talk ``tokens:64``): the size of a mask that fits every variant."""
CONTROL_NAMES = ("take_ole", "decline", "stop", "accept", "flee", "play_alone", "sit_out", "silent")


def num_actions(params) -> int:
    return NUM_BASE_ACTIONS + int(params[PARAM_TOKENS])


def action_names(params, deck) -> tuple[str, ...]:
    """The fixed action strings, index = action (``deck`` names the cards of the variant's pack)."""
    cards = [deck.name_of(c) for c in range(NUM_CARDS)]
    names = list(cards)
    names += [f"turn:{c}" for c in cards]
    names += [f"exchange:{c}" for c in cards]
    names += [f"show:{c}" for c in cards]
    names += list(CONTROL_NAMES)
    names += [f"say:{k}" for k in range(1, NUM_PHRASES + 1)]
    names += [f"token:{k}" for k in range(1, int(params[PARAM_TOKENS]) + 1)]
    return tuple(names)


# ----------------------------------------------------------------------------- state layout

PHASE_DEALER_CHOICE, PHASE_TEN_EXCHANGE, PHASE_OLE_EXCHANGE, PHASE_TALK, PHASE_PLAY, PHASE_ANSWER, PHASE_OVER = (
    range(7)
)
PHASE_NAMES = ("dealer_choice", "ten_exchange", "ole_exchange", "talk", "play", "turn_answer", "over")
NUM_PHASES = 7

RESULT_NONE, RESULT_PLAIN, RESULT_JANN, RESULT_MARCH, RESULT_FAILED_MARCH, RESULT_FLED = range(6)
RESULT_NAMES = ("none", "plain", "jann", "march", "failed_march", "fled")

DEALER_NOT_APPLICABLE, DEALER_PLAYS_ALONE, DEALER_SITS_OUT = range(3)

MAX_TALK = 36
"""Talk turns in a hand at most: nine tricks of four talking players (the lone dealer does not talk)."""
MAX_HISTORY = 192
TRICK_LOG_WIDTH = 3 + MAX_SEATS
"""Per completed trick: leader, winner, led face down and accepted (0/1), then the card of each seat (-1)."""

_layout_end = 0


def _alloc(size: int = 1) -> int:
    global _layout_end
    start = _layout_end
    _layout_end += size
    return start


S_VARIANT = _alloc()
S_PLAYERS = _alloc()
S_TALK = _alloc()
S_TOKENS = _alloc()
S_DEALER = _alloc()
S_FOREHAND = _alloc()
S_REDEALS = _alloc()
S_DEALT = _alloc(MAX_SEATS)            # hand of each seat as dealt (after any redeal); the record of the deal
S_STOCK = _alloc(STOCK_SIZE)           # stock cards, top (turned first) to bottom
S_HAND = _alloc(MAX_SEATS)
S_FIRST_SUIT = _alloc()
S_SECOND_SUIT = _alloc()
S_CHOSEN = _alloc()                    # 4-bit mask of the chosen suits
S_NUM_TURNED = _alloc()
S_TURNED_MASK = _alloc()               # the cards turned to choose the suits
S_FACE_UP_MASK = _alloc()              # turned cards now lying face up beside the stock (tens included)
S_STOCK_MASK = _alloc()                # face-down stock cards still in it (not turned, not taken)
S_OUT_MASK = _alloc()                  # Queens/Kings given for Oles: face down in the stock, out of play
S_PUBLIC_STOCK_MASK = _alloc()         # stock cards shown to everyone (bottom Oles; the 1924 bottom three)
S_DEALER_SEEN_MASK = _alloc()          # stock cards the dealer looked at
S_EXCH_IN = _alloc(MAX_SEATS)          # cards each seat received by exchange (public)
S_EXCH_OUT = _alloc(MAX_SEATS)         # cards each seat gave by exchange (public)
S_TEN_DONE = _alloc()                  # suit mask of chosen suits whose ten was exchanged
S_PHASE = _alloc()
S_CURRENT = _alloc()                   # seat to act, -1 when over
S_ASK_ORDER = _alloc(MAX_SEATS)        # seats asked in the running exchange round, in order
S_ASK_LEN = _alloc()
S_ASK_INDEX = _alloc()
S_OLE_POS = _alloc()                   # stock index of the Ole on offer (or being checked)
S_OLE_ENTITLED = _alloc()              # seat that may take it (-1: nobody)
S_OLE_GIVE = _alloc()                  # the Queen or King that seat would give
S_OLES_TAKEN = _alloc()
S_CHECK_STOP_POS = _alloc()            # stock index of the non-Ole that ended the bottom check (-1)
S_OLE_LOG_TAKER = _alloc(3)
S_OLE_LOG_GIVEN = _alloc(3)
S_OLE_LOG_TAKEN = _alloc(3)
S_DEALER_MODE = _alloc()
S_TEAM = _alloc(MAX_SEATS)             # team of each seat, -1 sitting out
S_NEXT = _alloc(MAX_SEATS)             # next seat in playing order
S_NUM_ACTIVE = _alloc()
S_TARGET = _alloc(2)                   # tricks a team needs to win the hand
S_MAX_TRICKS = _alloc()
S_TRICK_NO = _alloc()                  # completed tricks
S_LEADER = _alloc()
S_TRICK_COUNT = _alloc()               # cards on the table in the current trick
S_TRICK_CARD = _alloc(MAX_SEATS)       # in playing order
S_TRICK_SEAT = _alloc(MAX_SEATS)
S_TRICK_FACE_DOWN = _alloc()           # the led card lies face down awaiting the answer
S_FACE_DOWN_CARD = _alloc()            # that card (kept after a flee: it stays hidden), -1
S_TURNER = _alloc()
S_DECIDER = _alloc()
S_WON = _alloc(2)
S_STREAK_TEAM = _alloc()               # team that won every trick so far (-1)
S_JANN_PENDING = _alloc()              # the leader chooses: stop (take the Jann) or lead (march)
S_COMMITTED = _alloc()                 # team committed to a Durchmarsch (-1)
S_ACCEPTED = _alloc()                  # accepted turns in this hand
S_ACCEPTED_BY = _alloc(2)              # accepted turns offered by each team
S_PLAYED = _alloc(MAX_SEATS)           # cards each seat has played face up (or face down, accepted)
S_TRICK_LOG = _alloc(MAX_TRICKS * TRICK_LOG_WIDTH)
S_TALK_COUNT = _alloc()
S_TALK_SEAT = _alloc(MAX_TALK)
S_TALK_ACTION = _alloc(MAX_TALK)
S_RESULT_KIND = _alloc()
S_WINNER_TEAM = _alloc()
S_RESULT_UNITS = _alloc()
S_RESULT_BY_FLEE = _alloc()
S_SETTLE = _alloc(MAX_SEATS)
S_HIST_LEN = _alloc()
S_HIST = _alloc(MAX_HISTORY)           # seat * HIST_SEAT_FACTOR + action
S_PACK = _alloc(NUM_CARDS)             # scratch: the shuffled pack while dealing
STATE_SIZE = _layout_end
HIST_SEAT_FACTOR = 1024

_FULL_MASK = (1 << NUM_CARDS) - 1


# ----------------------------------------------------------------------------- small helpers

@inline_njit
def _bit(card):
    return np.int64(1) << np.int64(card)


@inline_njit
def _suit(card):
    return card // NUM_RANKS


@inline_njit
def _is_ole(card):
    return (np.int64(OLE_MASK) >> np.int64(card)) & 1 == 1


@inline_njit
def _suit_cards(suit):
    return np.int64(0xFFF) << np.int64(suit * NUM_RANKS)


@inline_njit
def current_seat(state):
    """Seat to act, -1 once the hand is over."""
    return state[S_CURRENT]


@inline_njit
def beats(ranking, chosen, challenger, winner):
    """Section 4: does ``challenger``, played later, take over from the provisional ``winner``?"""
    if ATTACK[chosen, challenger] > DEFENCE[chosen, winner]:
        return True
    winner_rank = SUIT_RANK[ranking, chosen, winner]
    return (
        winner_rank > 0
        and SUIT_RANK[ranking, chosen, challenger] > winner_rank
        and challenger // NUM_RANKS == winner // NUM_RANKS
    )


@inline_njit
def trick_winner_position(ranking, chosen, cards, count):
    """Position (in playing order) of the card that wins a trick: each card in turn takes over if it
    beats the provisional winner."""
    best = 0
    for i in range(1, count):
        if beats(ranking, chosen, cards[i], cards[best]):
            best = i
    return best


@inline_njit
def _talks(state, seat):
    """Talk turns precede card plays when talk is on and the seat has a partner (not the lone dealer)."""
    if state[S_TALK] == TALK_OFF:
        return False
    return not (state[S_DEALER_MODE] == DEALER_PLAYS_ALONE and seat == state[S_DEALER])


@inline_njit
def _teammates(state, a, b):
    return state[S_TEAM + a] >= 0 and state[S_TEAM + a] == state[S_TEAM + b]


@inline_njit
def _next_opponent(state, seat):
    """The next player of the other team in playing order (answers a face-down lead)."""
    team = state[S_TEAM + seat]
    other = state[S_NEXT + seat]
    while state[S_TEAM + other] == team:
        other = state[S_NEXT + other]
    return other


@inline_njit
def _stake(state):
    """Units of a plain game at this moment: base plus accepted turns."""
    return PAY_BASE[state[S_VARIANT]] + PAY_PER_TURN * state[S_ACCEPTED]


# ----------------------------------------------------------------------------- deal


@inline_njit
def _turned_count(state):
    """Cards turned from the top of the stock to choose the suits (2..4), or 0 when the first four
    share one suit and the same dealer must deal again."""
    first = _suit(state[S_STOCK])
    k = 1
    while k < MAX_TURNED and _suit(state[S_STOCK + k]) == first:
        k += 1
    return k + 1 if k < MAX_TURNED else 0


@inline_njit
def _shuffle_and_deal(state, rng):
    """Shuffle the pack and deal 3-3-3 clockwise from forehand (the dealer receives no cards with five
    players); the 12 cards left form the stock, top first."""
    pack = state[S_PACK:S_PACK + NUM_CARDS]
    for i in range(NUM_CARDS):
        pack[i] = i
    for i in range(NUM_CARDS - 1, 0, -1):
        j = uniform_below(rng, i + 1)
        pack[i], pack[j] = pack[j], pack[i]
    players = state[S_PLAYERS]
    dealer = state[S_DEALER]
    for s in range(MAX_SEATS):
        state[S_DEALT + s] = 0
    position = 0
    for _round in range(3):
        for k in range(1, 5):
            seat = (dealer + k) % players
            for _ in range(3):
                state[S_DEALT + seat] |= _bit(pack[position])
                position += 1
    for k in range(STOCK_SIZE):
        state[S_STOCK + k] = pack[position + k]


@inline_njit
def _reset_config(state, params):
    state[:] = 0
    state[S_VARIANT] = params[PARAM_VARIANT]
    state[S_PLAYERS] = params[PARAM_PLAYERS]
    state[S_TALK] = params[PARAM_TALK]
    state[S_TOKENS] = params[PARAM_TOKENS]


@njit
def init_state(state, params, dealer, deal_cards):
    """Start a hand from a fixed deal (see the module docstring for the order of ``deal_cards``).

    If the first four stock cards share one suit the rules call for a new deal by the same dealer: the
    kernel redeals pseudo-randomly, seeded from the given cards, so the same input always gives the
    same hand (``state[S_REDEALS]`` counts the redeals).
    """
    _reset_config(state, params)
    players = params[PARAM_PLAYERS]
    state[S_DEALER] = dealer
    position = 0
    for seat in range(players):
        if players == 5 and seat == dealer:
            continue
        mask = np.int64(0)
        for _ in range(CARDS_PER_HAND):
            mask |= _bit(deal_cards[position])
            position += 1
        state[S_DEALT + seat] = mask
    for k in range(STOCK_SIZE):
        state[S_STOCK + k] = deal_cards[position + k]
    if _turned_count(state) == 0:
        rng = np.zeros(1, dtype=np.uint64)
        rng[0] = np.uint64(0x4B6E75666665C36C)
        for k in range(NUM_CARDS):
            rng[0] ^= np.uint64(deal_cards[k] + 64 * k)
            rng_next(rng)
        while _turned_count(state) == 0:
            _shuffle_and_deal(state, rng)
            state[S_REDEALS] += 1
    _setup_hand(state)


@njit_no_refcount
def deal_random(state, params, rng):
    """Deal at random (the dealer drawn too) and start the hand; four of one suit turned -> redeal."""
    _reset_config(state, params)
    state[S_DEALER] = uniform_below(rng, params[PARAM_PLAYERS])
    _shuffle_and_deal(state, rng)
    while _turned_count(state) == 0:
        _shuffle_and_deal(state, rng)
        state[S_REDEALS] += 1
    _setup_hand(state)


@njit_no_refcount
def _setup_hand(state):
    """Everything after the cards lie dealt: turn the chosen suits, then the first decision."""
    players = state[S_PLAYERS]
    dealer = state[S_DEALER]
    state[S_FOREHAND] = (dealer + 1) % players
    turned = _turned_count(state)
    state[S_NUM_TURNED] = turned
    state[S_FIRST_SUIT] = _suit(state[S_STOCK])
    state[S_SECOND_SUIT] = _suit(state[S_STOCK + turned - 1])
    state[S_CHOSEN] = (1 << state[S_FIRST_SUIT]) | (1 << state[S_SECOND_SUIT])
    turned_mask = np.int64(0)
    for k in range(turned):
        turned_mask |= _bit(state[S_STOCK + k])
    stock_mask = np.int64(0)
    for k in range(turned, STOCK_SIZE):
        stock_mask |= _bit(state[S_STOCK + k])
    state[S_TURNED_MASK] = turned_mask
    state[S_FACE_UP_MASK] = turned_mask
    state[S_STOCK_MASK] = stock_mask
    for seat in range(MAX_SEATS):
        state[S_HAND + seat] = state[S_DEALT + seat]
        state[S_TEAM + seat] = -1
        state[S_NEXT + seat] = (seat + 1) % players
    for t in range(MAX_TRICKS):
        for k in range(TRICK_LOG_WIDTH):
            state[S_TRICK_LOG + t * TRICK_LOG_WIDTH + k] = -1
    for k in range(3):
        state[S_OLE_LOG_TAKER + k] = -1
        state[S_OLE_LOG_GIVEN + k] = -1
        state[S_OLE_LOG_TAKEN + k] = -1
    state[S_FACE_DOWN_CARD] = -1
    state[S_TURNER] = -1
    state[S_DECIDER] = -1
    state[S_COMMITTED] = -1
    state[S_STREAK_TEAM] = -1
    state[S_WINNER_TEAM] = -1
    state[S_CHECK_STOP_POS] = -1
    state[S_OLE_ENTITLED] = -1
    state[S_OLE_GIVE] = -1
    state[S_OLE_POS] = -1
    state[S_TARGET] = 5
    state[S_TARGET + 1] = 5
    state[S_MAX_TRICKS] = MAX_TRICKS
    if BOTTOM_RULE_OF_VARIANT[state[S_VARIANT]] == BOTTOM_THREE_FACE_UP:
        for k in range(STOCK_SIZE - 3, STOCK_SIZE):
            state[S_PUBLIC_STOCK_MASK] |= _bit(state[S_STOCK + k])
    if players == 4:
        state[S_NUM_ACTIVE] = 4
        for seat in range(4):
            state[S_TEAM + seat] = seat % 2
        state[S_LEADER] = state[S_FOREHAND]
        _begin_ten_round(state, state[S_FOREHAND], 4)
    else:
        state[S_DEALER_SEEN_MASK] = stock_mask
        state[S_PHASE] = PHASE_DEALER_CHOICE
        state[S_CURRENT] = dealer


# ----------------------------------------------------------------------------- exchanges


@inline_njit
def _begin_ten_round(state, first_seat, count):
    """Ask ``count`` seats in playing order from ``first_seat`` about the ten exchange. Every seat is
    asked, holding a chosen ten or not, so that the turn order reveals nothing."""
    players = state[S_PLAYERS]
    for k in range(count):
        state[S_ASK_ORDER + k] = (first_seat + k) % players
    state[S_ASK_LEN] = count
    state[S_ASK_INDEX] = 0
    state[S_PHASE] = PHASE_TEN_EXCHANGE
    state[S_CURRENT] = first_seat


@inline_njit
def _ten_exchange_mask(state, seat):
    """Turned cards ``seat`` may take for a chosen ten it holds (any turned card of that suit)."""
    takes = np.int64(0)
    hand = state[S_HAND + seat]
    for k in range(2):
        suit = state[S_FIRST_SUIT] if k == 0 else state[S_SECOND_SUIT]
        if (state[S_TEN_DONE] >> suit) & 1:
            continue
        if hand & _bit(suit * NUM_RANKS + RANK_EXCHANGE):
            takes |= state[S_FACE_UP_MASK] & _suit_cards(suit)
    return takes


@inline_njit
def _apply_ten_exchange(state, seat, card):
    suit = _suit(card)
    ten = _bit(suit * NUM_RANKS + RANK_EXCHANGE)
    state[S_HAND + seat] = (state[S_HAND + seat] & ~ten) | _bit(card)
    state[S_FACE_UP_MASK] = (state[S_FACE_UP_MASK] & ~_bit(card)) | ten
    state[S_EXCH_IN + seat] |= _bit(card)
    state[S_EXCH_OUT + seat] |= ten
    state[S_TEN_DONE] |= np.int64(1) << suit
    # the same seat is asked again: it may hold the other chosen ten too


@inline_njit
def _advance_ask(state):
    """Next seat of the running exchange round; True when the round is finished."""
    state[S_ASK_INDEX] += 1
    if state[S_ASK_INDEX] >= state[S_ASK_LEN]:
        return True
    state[S_CURRENT] = state[S_ASK_ORDER + state[S_ASK_INDEX]]
    return False


@njit
def _end_ten_round(state):
    if state[S_PLAYERS] == 5:
        _begin_play(state)  # five players: no bottom-Ole exchange
    elif BOTTOM_RULE_OF_VARIANT[state[S_VARIANT]] == BOTTOM_CHECK:
        state[S_OLE_POS] = STOCK_SIZE - 1
        _check_bottom_card(state)
    else:
        state[S_OLE_POS] = STOCK_SIZE
        _next_face_up_ole(state)


@njit
def _check_bottom_card(state):
    """Bohmstedt/Hattstedt: the dealer looks at the next card from the bottom; an Ole is shown and
    offered, anything else ends the checking (at most three Oles in all)."""
    if state[S_OLES_TAKEN] >= 3:
        _begin_play(state)
        return
    position = state[S_OLE_POS]
    card = state[S_STOCK + position]
    state[S_DEALER_SEEN_MASK] |= _bit(card)
    if not _is_ole(card):
        state[S_CHECK_STOP_POS] = position
        _begin_play(state)
        return
    state[S_PUBLIC_STOCK_MASK] |= _bit(card)
    _offer_ole(state, card)


@njit
def _next_face_up_ole(state):
    """1924/1938: offer the next Ole among the three face-up bottom cards, bottom first."""
    position = state[S_OLE_POS] - 1
    while position >= STOCK_SIZE - 3:
        if _is_ole(state[S_STOCK + position]):
            state[S_OLE_POS] = position
            _offer_ole(state, state[S_STOCK + position])
            return
        position -= 1
    _begin_play(state)


@njit
def _offer_ole(state, ole):
    """The holder of the Queen of the Ole's suit may exchange it; if no player holds that Queen, the
    King holder. A Queen or King got through the ten exchange cannot be used (no double exchange), and
    then nobody may take the Ole. Every seat is asked in turn from forehand, so that a decline by the
    entitled player looks like anyone's."""
    suit = _suit(ole)
    queen = suit * NUM_RANKS + RANK_Q
    king = suit * NUM_RANKS + RANK_K
    holder = -1
    give = -1
    for seat in range(state[S_PLAYERS]):
        if state[S_HAND + seat] & _bit(queen):
            holder = seat
            give = queen
    if holder < 0:
        for seat in range(state[S_PLAYERS]):
            if state[S_HAND + seat] & _bit(king):
                holder = seat
                give = king
    if holder >= 0 and state[S_EXCH_IN + holder] & _bit(give):
        holder = -1
    state[S_OLE_ENTITLED] = holder
    state[S_OLE_GIVE] = give
    forehand = state[S_FOREHAND]
    for k in range(4):
        state[S_ASK_ORDER + k] = (forehand + k) % 4
    state[S_ASK_LEN] = 4
    state[S_ASK_INDEX] = 0
    state[S_PHASE] = PHASE_OLE_EXCHANGE
    state[S_CURRENT] = forehand


@njit
def _apply_take_ole(state, seat):
    ole = state[S_STOCK + state[S_OLE_POS]]
    give = state[S_OLE_GIVE]
    state[S_HAND + seat] = (state[S_HAND + seat] & ~_bit(give)) | _bit(ole)
    state[S_STOCK_MASK] &= ~_bit(ole)
    state[S_OUT_MASK] |= _bit(give)
    state[S_EXCH_IN + seat] |= _bit(ole)
    state[S_EXCH_OUT + seat] |= _bit(give)
    taken = state[S_OLES_TAKEN]
    state[S_OLE_LOG_TAKER + taken] = seat
    state[S_OLE_LOG_GIVEN + taken] = give
    state[S_OLE_LOG_TAKEN + taken] = ole
    state[S_OLES_TAKEN] = taken + 1
    state[S_OLE_ENTITLED] = -1
    if BOTTOM_RULE_OF_VARIANT[state[S_VARIANT]] == BOTTOM_CHECK:
        state[S_OLE_POS] -= 1
        _check_bottom_card(state)
    else:
        _next_face_up_ole(state)


@njit
def _apply_ole_decline(state):
    if not _advance_ask(state):
        return
    state[S_OLE_ENTITLED] = -1
    if BOTTOM_RULE_OF_VARIANT[state[S_VARIANT]] == BOTTOM_CHECK:
        _begin_play(state)  # nobody took the Ole: the checking ends
    else:
        _next_face_up_ole(state)


@njit
def _apply_dealer_choice(state, alone):
    """Five players: the dealer plays alone with the stock, or sits out and the four play."""
    dealer = state[S_DEALER]
    if alone:
        state[S_DEALER_MODE] = DEALER_PLAYS_ALONE
        state[S_HAND + dealer] = state[S_STOCK_MASK]
        state[S_STOCK_MASK] = 0
        state[S_NUM_ACTIVE] = 5
        for seat in range(5):
            state[S_TEAM + seat] = 0 if seat == dealer else 1
        state[S_TARGET] = 4
        state[S_TARGET + 1] = 5
        state[S_MAX_TRICKS] = min(MAX_TRICKS, popcount(state[S_HAND + dealer]))
        state[S_LEADER] = (dealer + 3) % 5  # second to the dealer's right: the dealer plays third
        _begin_ten_round(state, (dealer + 1) % 5, 5)
    else:
        state[S_DEALER_MODE] = DEALER_SITS_OUT
        state[S_NUM_ACTIVE] = 4
        for k in range(1, 5):
            seat = (dealer + k) % 5
            state[S_TEAM + seat] = (k - 1) % 2
            state[S_NEXT + seat] = (dealer + k + 1) % 5 if k < 4 else (dealer + 1) % 5
        state[S_LEADER] = (dealer + 1) % 5
        _begin_ten_round(state, (dealer + 1) % 5, 4)


# ----------------------------------------------------------------------------- play


@inline_njit
def _begin_play(state):
    state[S_TRICK_COUNT] = 0
    _begin_card_turn(state, state[S_LEADER])


@inline_njit
def _begin_card_turn(state, seat):
    state[S_CURRENT] = seat
    state[S_PHASE] = PHASE_TALK if _talks(state, seat) else PHASE_PLAY


@inline_njit
def _may_turn(state, seat):
    rule = DREHEN_OF_VARIANT[state[S_VARIANT]]
    if rule == DREHEN_NONE:
        return False
    if rule == DREHEN_ANY_LEAD:
        return True
    team = state[S_TEAM + seat]  # Bernhard: the k-th turn of a team needs 2k tricks won
    return state[S_WON + team] >= 2 * (state[S_ACCEPTED_BY + team] + 1)


@inline_njit
def _lead(state, seat, card, face_down):
    state[S_HAND + seat] &= ~_bit(card)
    state[S_TRICK_CARD] = card
    state[S_TRICK_SEAT] = seat
    state[S_TRICK_COUNT] = 1
    state[S_LEADER] = seat
    if state[S_JANN_PENDING]:
        state[S_JANN_PENDING] = 0
        state[S_COMMITTED] = state[S_TEAM + seat]  # leading to trick 6 commits to the Durchmarsch
    if face_down:
        state[S_TRICK_FACE_DOWN] = 1
        state[S_FACE_DOWN_CARD] = card
        state[S_TURNER] = seat
        decider = _next_opponent(state, seat)
        state[S_DECIDER] = decider
        state[S_PHASE] = PHASE_ANSWER
        state[S_CURRENT] = decider
    else:
        state[S_PLAYED + seat] |= _bit(card)
        _begin_card_turn(state, state[S_NEXT + seat])


@inline_njit
def _follow(state, seat, card):
    state[S_HAND + seat] &= ~_bit(card)
    state[S_PLAYED + seat] |= _bit(card)
    count = state[S_TRICK_COUNT]
    state[S_TRICK_CARD + count] = card
    state[S_TRICK_SEAT + count] = seat
    state[S_TRICK_COUNT] = count + 1
    if count + 1 == state[S_NUM_ACTIVE]:
        _finish_trick(state)
    else:
        _begin_card_turn(state, state[S_NEXT + seat])


@inline_njit
def _apply_accept(state):
    turner = state[S_TURNER]
    card = state[S_FACE_DOWN_CARD]
    state[S_TRICK_FACE_DOWN] = 0
    state[S_FACE_DOWN_CARD] = -1
    state[S_PLAYED + turner] |= _bit(card)
    state[S_ACCEPTED] += 1
    state[S_ACCEPTED_BY + state[S_TEAM + turner]] += 1
    state[S_TRICK_LOG + state[S_TRICK_NO] * TRICK_LOG_WIDTH + 2] = 1
    _begin_card_turn(state, state[S_NEXT + turner])


@inline_njit
def _apply_flee(state):
    """The hand ends; the face-down card stays hidden. Fleeing a committed march makes it fail."""
    variant = state[S_VARIANT]
    turner_team = state[S_TEAM + state[S_TURNER]]
    state[S_RESULT_BY_FLEE] = 1
    if state[S_COMMITTED] == turner_team:
        _end_hand(state, 1 - turner_team, PAY_MARCH[variant] + state[S_ACCEPTED], RESULT_FAILED_MARCH)
    else:
        _end_hand(state, turner_team, _stake(state), RESULT_FLED)


@inline_njit
def _finish_trick(state):
    count = state[S_TRICK_COUNT]
    ranking = RANKING_OF_VARIANT[state[S_VARIANT]]
    chosen = state[S_CHOSEN]
    position = 0
    for i in range(1, count):
        if beats(ranking, chosen, state[S_TRICK_CARD + i], state[S_TRICK_CARD + position]):
            position = i
    winner = state[S_TRICK_SEAT + position]
    team = state[S_TEAM + winner]
    trick_no = state[S_TRICK_NO]
    log = S_TRICK_LOG + trick_no * TRICK_LOG_WIDTH
    state[log] = state[S_TRICK_SEAT]
    state[log + 1] = winner
    if state[log + 2] < 0:
        state[log + 2] = 0
    for k in range(count):
        state[log + 3 + state[S_TRICK_SEAT + k]] = state[S_TRICK_CARD + k]
    trick_no += 1
    state[S_TRICK_NO] = trick_no
    state[S_WON + team] += 1
    state[S_TRICK_COUNT] = 0
    if trick_no == 1:
        state[S_STREAK_TEAM] = team
    elif state[S_STREAK_TEAM] != team:
        state[S_STREAK_TEAM] = -1
    variant = state[S_VARIANT]
    committed = state[S_COMMITTED]
    if committed >= 0:
        if team != committed:
            _end_hand(state, team, PAY_MARCH[variant] + state[S_ACCEPTED], RESULT_FAILED_MARCH)
        elif trick_no == state[S_MAX_TRICKS]:
            _end_hand(state, team, PAY_MARCH[variant] + state[S_ACCEPTED], RESULT_MARCH)
        else:
            state[S_LEADER] = winner
            _begin_card_turn(state, winner)
        return
    if state[S_WON + team] >= state[S_TARGET + team]:
        if state[S_STREAK_TEAM] == team and trick_no < state[S_MAX_TRICKS]:
            state[S_JANN_PENDING] = 1  # a Jann: the winner chooses stop or lead (march)
            state[S_LEADER] = winner
            _begin_card_turn(state, winner)
        else:
            _end_hand(state, team, _stake(state), RESULT_PLAIN)
        return
    state[S_LEADER] = winner
    _begin_card_turn(state, winner)


@inline_njit
def _end_hand(state, winning_team, units, kind):
    """Each member of the losing team pays each member of the winning team ``units``."""
    state[S_WINNER_TEAM] = winning_team
    state[S_RESULT_UNITS] = units
    state[S_RESULT_KIND] = kind
    state[S_PHASE] = PHASE_OVER
    state[S_CURRENT] = -1
    state[S_JANN_PENDING] = 0
    players = state[S_PLAYERS]
    for a in range(players):
        for b in range(players):
            if state[S_TEAM + a] == winning_team and state[S_TEAM + b] == 1 - winning_team:
                state[S_SETTLE + a] += units
                state[S_SETTLE + b] -= units


# ----------------------------------------------------------------------------- legal actions


@inline_njit
def _legal_sets(state):
    """The legal actions as (play, turn, exchange, show) card masks, a 32-bit mask of actions 192..223
    and the number of legal tokens: one source for the action mask and for random play."""
    phase = state[S_PHASE]
    seat = state[S_CURRENT]
    play = np.int64(0)
    turn = np.int64(0)
    exchange = np.int64(0)
    show = np.int64(0)
    misc = np.int64(0)
    tokens = np.int64(0)
    if seat < 0:
        return play, turn, exchange, show, misc, tokens
    hand = state[S_HAND + seat]
    if phase == PHASE_PLAY:
        play = hand
        if state[S_TRICK_COUNT] == 0:
            if _may_turn(state, seat):
                turn = hand
            if state[S_JANN_PENDING]:
                misc |= np.int64(1) << (ACTION_STOP - ACTION_MISC)
    elif phase == PHASE_TALK:
        misc |= np.int64(1) << (ACTION_SILENT - ACTION_MISC)
        if state[S_TALK] == TALK_LEXICON:
            misc |= np.int64(0xFFFFFF) << (ACTION_SAY - ACTION_MISC)
            show = hand
        else:
            tokens = state[S_TOKENS]
    elif phase == PHASE_ANSWER:
        misc |= (np.int64(1) << (ACTION_ACCEPT - ACTION_MISC)) | (np.int64(1) << (ACTION_FLEE - ACTION_MISC))
    elif phase == PHASE_TEN_EXCHANGE:
        exchange = _ten_exchange_mask(state, seat)
        misc |= np.int64(1) << (ACTION_DECLINE - ACTION_MISC)
    elif phase == PHASE_OLE_EXCHANGE:
        misc |= np.int64(1) << (ACTION_DECLINE - ACTION_MISC)
        if seat == state[S_OLE_ENTITLED]:
            misc |= np.int64(1) << (ACTION_TAKE_OLE - ACTION_MISC)
    elif phase == PHASE_DEALER_CHOICE:
        misc |= (np.int64(1) << (ACTION_PLAY_ALONE - ACTION_MISC)) | (np.int64(1) << (ACTION_SIT_OUT - ACTION_MISC))
    return play, turn, exchange, show, misc, tokens


@njit_no_refcount
def legal_action_mask(state, out):
    """Fill the int8 ``out`` (length ``num_actions(params)``) for the seat to act (all zero when over)."""
    out[:] = 0
    play, turn, exchange, show, misc, tokens = _legal_sets(state)
    for base, mask in ((ACTION_PLAY, play), (ACTION_TURN, turn), (ACTION_EXCHANGE, exchange), (ACTION_SHOW, show)):
        while mask:
            out[base + lowest_bit(mask)] = 1
            mask &= mask - 1
    while misc:
        out[ACTION_MISC + lowest_bit(misc)] = 1
        misc &= misc - 1
    for k in range(tokens):
        out[ACTION_TOKEN + k] = 1


@njit_no_refcount
def is_legal(state, action):
    play, turn, exchange, show, misc, tokens = _legal_sets(state)
    if action < ACTION_TURN:
        return (play >> action) & 1 == 1
    if action < ACTION_EXCHANGE:
        return (turn >> (action - ACTION_TURN)) & 1 == 1
    if action < ACTION_SHOW:
        return (exchange >> (action - ACTION_EXCHANGE)) & 1 == 1
    if action < ACTION_MISC:
        return (show >> (action - ACTION_SHOW)) & 1 == 1
    if action < ACTION_TOKEN:
        return (misc >> (action - ACTION_MISC)) & 1 == 1
    return action - ACTION_TOKEN < tokens


@njit_no_refcount
def random_legal_action(state, rng):
    """A uniformly drawn legal action, straight from the bit masks (no mask array)."""
    return _random_legal_action(state, rng)


@inline_njit
def _random_legal_action(state, rng):
    play, turn, exchange, show, misc, tokens = _legal_sets(state)
    n_play = popcount(play)
    n_turn = popcount(turn)
    n_exchange = popcount(exchange)
    n_show = popcount(show)
    n_misc = popcount(misc)
    r = uniform_below(rng, n_play + n_turn + n_exchange + n_show + n_misc + tokens)
    if r < n_play:
        return ACTION_PLAY + nth_bit(play, r)
    r -= n_play
    if r < n_turn:
        return ACTION_TURN + nth_bit(turn, r)
    r -= n_turn
    if r < n_exchange:
        return ACTION_EXCHANGE + nth_bit(exchange, r)
    r -= n_exchange
    if r < n_show:
        return ACTION_SHOW + nth_bit(show, r)
    r -= n_show
    if r < n_misc:
        return ACTION_MISC + nth_bit(misc, r)
    return ACTION_TOKEN + r - n_misc


# ----------------------------------------------------------------------------- apply


@njit_no_refcount
def apply_action(state, action):
    """Apply a legal action of the seat to act (callers check legality with the mask)."""
    _apply_action(state, action)


@inline_njit
def _apply_action(state, action):
    seat = state[S_CURRENT]
    length = state[S_HIST_LEN]
    if length < MAX_HISTORY:
        state[S_HIST + length] = seat * HIST_SEAT_FACTOR + action
        state[S_HIST_LEN] = length + 1
    phase = state[S_PHASE]
    if phase == PHASE_PLAY:
        if action == ACTION_STOP:
            team = state[S_TEAM + seat]
            _end_hand(state, team, PAY_JANN[state[S_VARIANT]] + state[S_ACCEPTED], RESULT_JANN)
        elif action >= ACTION_TURN:
            _lead(state, seat, action - ACTION_TURN, True)
        elif state[S_TRICK_COUNT] == 0:
            _lead(state, seat, action, False)
        else:
            _follow(state, seat, action)
    elif phase == PHASE_TALK:
        count = state[S_TALK_COUNT]
        if count < MAX_TALK:
            state[S_TALK_SEAT + count] = seat
            state[S_TALK_ACTION + count] = action
            state[S_TALK_COUNT] = count + 1
        state[S_PHASE] = PHASE_PLAY
    elif phase == PHASE_ANSWER:
        if action == ACTION_ACCEPT:
            _apply_accept(state)
        else:
            _apply_flee(state)
    elif phase == PHASE_TEN_EXCHANGE:
        if action == ACTION_DECLINE:
            if _advance_ask(state):
                _end_ten_round(state)
        else:
            _apply_ten_exchange(state, seat, action - ACTION_EXCHANGE)
    elif phase == PHASE_OLE_EXCHANGE:
        if action == ACTION_TAKE_OLE:
            _apply_take_ole(state, seat)
        else:
            _apply_ole_decline(state)
    elif phase == PHASE_DEALER_CHOICE:
        _apply_dealer_choice(state, action == ACTION_PLAY_ALONE)


@njit_no_refcount
def settlement(state, out):
    """Units per seat once the hand is over (zero-sum)."""
    for seat in range(state[S_PLAYERS]):
        out[seat] = state[S_SETTLE + seat]


# ----------------------------------------------------------------------------- playouts


@inline_njit
def random_step(state, rng):
    """Apply a uniformly random legal action (``_random_legal_action``'s draw)."""
    _apply_action(state, _random_legal_action(state, rng))


# ----------------------------------------------------------------------------- observation

OBS_OBSERVATION, OBS_INFORMATION_STATE, OBS_PERFECT = range(3)
OBS_HIGH = 64.0
NUM_COUNTERS = 9
NUM_RESULT_FEATURES = 8
TALK_CARD_FEATURES = NUM_SUITS + NUM_RANKS


def talk_vocabulary(params) -> int:
    """Utterance classes of a talk slot: lexicon = silent, 24 phrases, show; tokens = silent, N tokens."""
    mode = int(params[PARAM_TALK])
    if mode == TALK_OFF:
        return 0
    if mode == TALK_LEXICON:
        return 2 + NUM_PHRASES
    return 1 + int(params[PARAM_TOKENS])


def observation_layout(params, obs_type: int) -> list[tuple[str, int]]:
    """The observation vector section by section (name, size): the docs page's index table."""
    n = int(params[PARAM_PLAYERS])
    c = NUM_CARDS
    layout = [
        ("dealer (relative seat one-hot)", n), ("my team (relative seats)", n), ("active seats", n),
        ("phase one-hot " + "/".join(PHASE_NAMES), NUM_PHASES), ("to act (relative seat)", n),
        ("first chosen suit", NUM_SUITS), ("second chosen suit", NUM_SUITS), ("my hand", c),
        ("cards turned to choose the suits", c), ("cards face up beside the stock", c),
        ("stock cards shown to all (bottom Oles, 1924/38 bottom three)", c),
        ("face-down stock cards I know", c), ("out of play (Queens/Kings given for Oles)", c),
        ("received by exchange, per relative seat", n * c), ("given by exchange, per relative seat", n * c),
        ("dealer choice (undecided/alone/sits out)", 3), ("Ole on offer", c),
        ("played face up, per relative seat", n * c), ("current trick, per relative seat", n * c),
        ("current trick leader", n), ("face-down lead awaiting an answer, by", n),
        ("my face-down card", c),
        ("counters: tricks mine/theirs, needed mine/theirs, tricks played, accepted turns all/mine/theirs, "
         "stake", NUM_COUNTERS),
        ("Jann pending mine/theirs, march committed mine/theirs", 4),
        ("result: over, won, lost, kind plain/jann/march/failed_march/fled", NUM_RESULT_FEATURES),
    ]
    vocabulary = talk_vocabulary(params)
    if vocabulary:
        layout.append(
            (f"talk: {MAX_TALK} slots x (speaker {n}, utterance {vocabulary}, shown card suit+rank 16)",
             MAX_TALK * (n + vocabulary + TALK_CARD_FEATURES))
        )
    if obs_type >= OBS_INFORMATION_STATE:
        layout.append(("trick history: 9 x (leader, card per relative seat, accepted face-down)",
                       MAX_TRICKS * (n + n * c + 1)))
    if obs_type == OBS_PERFECT:
        layout += [("all hands, per relative seat", n * c), ("face-down stock", c), ("face-down led card", c)]
    return layout


def observation_size(params, obs_type: int) -> int:
    return sum(size for _, size in observation_layout(params, obs_type))


@inline_njit
def _put_mask(out, offset, mask):
    while mask:
        out[offset + lowest_bit(mask)] = 1.0
        mask &= mask - 1


@inline_njit
def _reference_team(state, seat):
    """The observer's team; a seat that sits out takes the team of the player to its left."""
    team = state[S_TEAM + seat]
    if team < 0:
        team = state[S_TEAM + (seat + 1) % state[S_PLAYERS]]
    return max(team, 0)  # before the five-player dealer has chosen, nobody has a team yet


@njit_no_refcount
def observe(state, seat, obs_type, out):
    """Fill ``out`` (float32) with what ``seat`` may know; returns the number of entries written.
    Seats are relative: index 0 is the observer, 1 the player to its left, and so on."""
    out[:] = 0.0
    n = state[S_PLAYERS]
    c = NUM_CARDS
    o = 0
    my_team = _reference_team(state, seat)
    out[o + (state[S_DEALER] - seat) % n] = 1.0
    o += n
    for rel in range(n):
        other = (seat + rel) % n
        if state[S_TEAM + other] >= 0 and state[S_TEAM + other] == my_team:
            out[o + rel] = 1.0
        if state[S_TEAM + other] >= 0:
            out[o + n + rel] = 1.0
    o += 2 * n
    out[o + state[S_PHASE]] = 1.0
    o += NUM_PHASES
    if state[S_CURRENT] >= 0:
        out[o + (state[S_CURRENT] - seat) % n] = 1.0
    o += n
    out[o + state[S_FIRST_SUIT]] = 1.0
    out[o + NUM_SUITS + state[S_SECOND_SUIT]] = 1.0
    o += 2 * NUM_SUITS
    _put_mask(out, o, state[S_HAND + seat])
    _put_mask(out, o + c, state[S_TURNED_MASK])
    _put_mask(out, o + 2 * c, state[S_FACE_UP_MASK])
    _put_mask(out, o + 3 * c, state[S_PUBLIC_STOCK_MASK])
    known_stock = state[S_PUBLIC_STOCK_MASK]
    if seat == state[S_DEALER]:
        known_stock |= state[S_DEALER_SEEN_MASK]
    _put_mask(out, o + 4 * c, known_stock & state[S_STOCK_MASK])
    _put_mask(out, o + 5 * c, state[S_OUT_MASK])
    o += 6 * c
    for rel in range(n):
        other = (seat + rel) % n
        _put_mask(out, o + rel * c, state[S_EXCH_IN + other])
        _put_mask(out, o + (n + rel) * c, state[S_EXCH_OUT + other])
    o += 2 * n * c
    if n == 5:
        out[o + state[S_DEALER_MODE]] = 1.0
    o += 3
    if state[S_PHASE] == PHASE_OLE_EXCHANGE:
        out[o + state[S_STOCK + state[S_OLE_POS]]] = 1.0
    o += c
    for rel in range(n):
        other = (seat + rel) % n
        _put_mask(out, o + rel * c, state[S_PLAYED + other])
    o += n * c
    for k in range(state[S_TRICK_COUNT]):
        if k == 0 and state[S_TRICK_FACE_DOWN]:
            continue
        rel = (state[S_TRICK_SEAT + k] - seat) % n
        out[o + rel * c + state[S_TRICK_CARD + k]] = 1.0
    o += n * c
    if state[S_TRICK_COUNT] > 0:
        out[o + (state[S_LEADER] - seat) % n] = 1.0
    o += n
    if state[S_TRICK_FACE_DOWN] and state[S_PHASE] == PHASE_ANSWER:
        out[o + (state[S_TURNER] - seat) % n] = 1.0
    o += n
    if state[S_FACE_DOWN_CARD] >= 0 and state[S_TURNER] == seat:
        out[o + state[S_FACE_DOWN_CARD]] = 1.0
    o += c
    other_team = 1 - my_team
    out[o] = state[S_WON + my_team]
    out[o + 1] = state[S_WON + other_team]
    out[o + 2] = state[S_TARGET + my_team]
    out[o + 3] = state[S_TARGET + other_team]
    out[o + 4] = state[S_TRICK_NO]
    out[o + 5] = state[S_ACCEPTED]
    out[o + 6] = state[S_ACCEPTED_BY + my_team]
    out[o + 7] = state[S_ACCEPTED_BY + other_team]
    out[o + 8] = _stake(state)
    o += NUM_COUNTERS
    if state[S_JANN_PENDING]:
        out[o + (0 if state[S_TEAM + state[S_CURRENT]] == my_team else 1)] = 1.0
    if state[S_COMMITTED] >= 0:
        out[o + (2 if state[S_COMMITTED] == my_team else 3)] = 1.0
    o += 4
    if state[S_PHASE] == PHASE_OVER:
        out[o] = 1.0
        if state[S_TEAM + seat] >= 0:
            out[o + (1 if state[S_WINNER_TEAM] == my_team else 2)] = 1.0
        out[o + 2 + state[S_RESULT_KIND]] = 1.0
    o += NUM_RESULT_FEATURES
    talk_mode = state[S_TALK]
    if talk_mode != TALK_OFF:
        vocabulary = 2 + NUM_PHRASES if talk_mode == TALK_LEXICON else 1 + state[S_TOKENS]
        width = n + vocabulary + TALK_CARD_FEATURES
        for k in range(state[S_TALK_COUNT]):
            slot = o + k * width
            speaker = state[S_TALK_SEAT + k]
            action = state[S_TALK_ACTION + k]
            out[slot + (speaker - seat) % n] = 1.0
            if action == ACTION_SILENT:
                utterance = 0
            elif ACTION_SAY <= action < ACTION_TOKEN:
                utterance = action - ACTION_SAY + 1
            elif action >= ACTION_TOKEN:
                utterance = action - ACTION_TOKEN + 1
            else:
                utterance = 1 + NUM_PHRASES
            out[slot + n + utterance] = 1.0
            if ACTION_SHOW <= action < ACTION_MISC and (speaker == seat or _teammates(state, speaker, seat)):
                card = action - ACTION_SHOW
                out[slot + n + vocabulary + card // NUM_RANKS] = 1.0
                out[slot + n + vocabulary + NUM_SUITS + card % NUM_RANKS] = 1.0
        o += MAX_TALK * width
    if obs_type >= OBS_INFORMATION_STATE:
        width = n + n * c + 1
        for t in range(state[S_TRICK_NO]):
            log = S_TRICK_LOG + t * TRICK_LOG_WIDTH
            slot = o + t * width
            out[slot + (state[log] - seat) % n] = 1.0
            for other in range(n):
                card = state[log + 3 + other]
                if card >= 0:
                    out[slot + n + ((other - seat) % n) * c + card] = 1.0
            out[slot + n + n * c] = state[log + 2]
        o += MAX_TRICKS * width
    if obs_type == OBS_PERFECT:
        for rel in range(n):
            _put_mask(out, o + rel * c, state[S_HAND + (seat + rel) % n])
        o += n * c
        _put_mask(out, o, state[S_STOCK_MASK])
        o += c
        if state[S_FACE_DOWN_CARD] >= 0:
            out[o + state[S_FACE_DOWN_CARD]] = 1.0
        o += c
    return o


# ----------------------------------------------------------------------------- resampling


@njit
def _known_stock_positions(state, seat):
    """Bit k set: the observer knows which card lies at stock position k."""
    known = (1 << state[S_NUM_TURNED]) - 1
    public = state[S_PUBLIC_STOCK_MASK]
    dealer_seen = state[S_DEALER_SEEN_MASK] if seat == state[S_DEALER] else 0
    for k in range(STOCK_SIZE):
        if (public | dealer_seen) & _bit(state[S_STOCK + k]):
            known |= 1 << k
    return known


@njit
def _hidden_from(state, seat, index):
    """Is history entry ``index`` an action whose card ``seat`` did not see (a show to someone else's
    partner, or a face-down lead not turned up)?"""
    entry = state[S_HIST + index]
    actor = entry // HIST_SEAT_FACTOR
    action = entry % HIST_SEAT_FACTOR
    if actor == seat:
        return False
    if ACTION_SHOW <= action < ACTION_MISC:
        return not _teammates(state, actor, seat)
    if ACTION_TURN <= action < ACTION_EXCHANGE:
        if index + 1 >= state[S_HIST_LEN]:
            return True
        return state[S_HIST + index + 1] % HIST_SEAT_FACTOR != ACTION_ACCEPT
    return False


MAX_HOLDERS = MAX_SEATS + 2
"""Holders of hidden cards: the hands (rows 0..players-1), the free stock positions (row ``players``) and
the checked non-Ole at the bottom of the stock (row ``players + 1``)."""
DEAL_TRIES = 200


@njit
def _stock_knowledge(state, seat):
    """Stock positions ``seat`` knows (bits), those it knows only as a set (the five-player dealer),
    and the unknown position of the non-Ole that ended the bottom check (-1: none or known)."""
    known_positions = _known_stock_positions(state, seat)
    unordered_positions = 0
    if state[S_PLAYERS] == 5 and seat == state[S_DEALER]:
        # The five-player dealer looks at the stock as a set (its observation holds no order, and with five
        # players no order matters after the turn-up): the sample lays those cards in a fresh order.
        unordered_positions = known_positions & ~((1 << state[S_NUM_TURNED]) - 1)
    non_ole_position = -1
    if state[S_CHECK_STOP_POS] >= 0 and not (known_positions >> state[S_CHECK_STOP_POS]) & 1:
        non_ole_position = state[S_CHECK_STOP_POS]
    return known_positions, unordered_positions, non_ole_position


@njit
def hidden_card_constraints(state, seat, counts, allowed, forced):
    """Per holder (``MAX_HOLDERS``): how many hidden cards it holds, which it may hold and which it
    must hold (cards it played, gave in an exchange or showed to ``seat``); returns the cards hidden from
    ``seat``. A King given for an Ole says no player held that Queen: it lies in the stock."""
    players = state[S_PLAYERS]
    dealer = state[S_DEALER]
    known_positions, _, non_ole_position = _stock_knowledge(state, seat)
    known_stock_cards = np.int64(0)
    unknown_positions = 0
    for k in range(STOCK_SIZE):
        if (known_positions >> k) & 1:
            known_stock_cards |= _bit(state[S_STOCK + k])
        else:
            unknown_positions += 1
    unknown = np.int64(_FULL_MASK) & ~state[S_DEALT + seat] & ~known_stock_cards
    # cards the observer knows were dealt to a holder (index players = the stock)
    known_in = np.zeros(MAX_SEATS + 1, dtype=np.int64)
    for other in range(players):
        if other == seat:
            continue
        holder = players if (players == 5 and other == dealer) else other
        known_in[holder] |= (state[S_PLAYED + other] | state[S_EXCH_OUT + other]) & unknown
    hist_len = min(state[S_HIST_LEN], MAX_HISTORY)
    for i in range(hist_len):
        entry = state[S_HIST + i]
        actor = entry // HIST_SEAT_FACTOR
        action = entry % HIST_SEAT_FACTOR
        if ACTION_SHOW <= action < ACTION_MISC and actor != seat and not _hidden_from(state, seat, i):
            known_in[actor] |= _bit(action - ACTION_SHOW) & unknown
    forced_to_stock = np.int64(0)
    for k in range(state[S_OLES_TAKEN]):
        given = state[S_OLE_LOG_GIVEN + k]
        if given % NUM_RANKS == RANK_K:  # a King was given: no player held the Queen at the time
            forced_to_stock |= _bit(given - RANK_K + RANK_Q) & unknown
    for holder in range(MAX_SEATS + 1):
        forced_to_stock &= ~known_in[holder]
    for other in range(players):
        if other == seat or (players == 5 and other == dealer):
            continue
        counts[other] = CARDS_PER_HAND
        forced[other] = np.uint64(known_in[other])
        allowed[other] = np.uint64(unknown & ~forced_to_stock)
    counts[players] = unknown_positions - (1 if non_ole_position >= 0 else 0)
    forced[players] = np.uint64(known_in[players])
    allowed[players] = np.uint64(unknown)
    if non_ole_position >= 0:
        counts[players + 1] = 1
        allowed[players + 1] = np.uint64(unknown & ~np.int64(OLE_MASK))
    return np.uint64(unknown)


@njit
def resample_context(state, seat):
    """The legal sets ``seat`` saw at each of its decisions (``_choices_of_seat``)."""
    return _choices_of_seat(state, seat, min(state[S_HIST_LEN], MAX_HISTORY))


@njit
def replay_sample(state, seat, dealt, rng, out_state, context):
    """Lay the sampled hands and stock into ``out_state`` and replay the history (hidden card identities
    in shows to other partnerships and unanswered face-down leads drawn afresh, so the sampled world's
    history, talk and face-down card name its own cards, never the real ones). False unless every recorded
    action is legal in it and ``seat`` had exactly its real legal actions at each of its own decisions,
    past and present (it saw those choices: e.g. whether it was entitled to an Ole)."""
    players = state[S_PLAYERS]
    dealer = state[S_DEALER]
    known_positions, unordered_positions, non_ole_position = _stock_knowledge(state, seat)
    out_state[:] = 0
    for k in range(S_DEALT):
        out_state[k] = state[k]
    for other in range(players):
        out_state[S_DEALT + other] = state[S_DEALT + other]
        if other != seat and not (players == 5 and other == dealer):
            out_state[S_DEALT + other] = np.int64(dealt[other])
    stock_pool = np.int64(dealt[players])
    seen_pool = np.int64(0)
    for k in range(STOCK_SIZE):
        if (unordered_positions >> k) & 1:
            seen_pool |= _bit(state[S_STOCK + k])
    for k in range(STOCK_SIZE):
        if (unordered_positions >> k) & 1:
            card = nth_bit(seen_pool, uniform_below(rng, popcount(seen_pool)))
            out_state[S_STOCK + k] = card
            seen_pool &= ~_bit(card)
        elif (known_positions >> k) & 1:
            out_state[S_STOCK + k] = state[S_STOCK + k]
        elif k == non_ole_position:
            out_state[S_STOCK + k] = lowest_bit(dealt[players + 1])
        else:
            card = nth_bit(stock_pool, uniform_below(rng, popcount(stock_pool)))
            out_state[S_STOCK + k] = card
            stock_pool &= ~_bit(card)
    _setup_hand(out_state)
    return _replay_history(state, seat, rng, out_state, min(state[S_HIST_LEN], MAX_HISTORY), context)


RESAMPLE_ATTEMPTS = 256
"""Deals tried before ``resample_hidden`` gives up; rejections (a recorded action illegal in the sample,
or the observer offered other choices) are rare, so this bound is almost never reached."""
CHOICE_WIDTH = 6
"""A decision's legal actions as ``_legal_sets`` gives them: play, turn, exchange, show, misc, tokens."""


@inline_njit
def _store_choices(state, choices, row):
    play, turn, exchange, show, misc, tokens = _legal_sets(state)
    choices[row, 0] = play
    choices[row, 1] = turn
    choices[row, 2] = exchange
    choices[row, 3] = show
    choices[row, 4] = misc
    choices[row, 5] = tokens


@inline_njit
def _same_choices(state, choices, row):
    play, turn, exchange, show, misc, tokens = _legal_sets(state)
    return (
        choices[row, 0] == play and choices[row, 1] == turn and choices[row, 2] == exchange
        and choices[row, 3] == show and choices[row, 4] == misc and choices[row, 5] == tokens
    )


@njit
def _choices_of_seat(state, seat, hist_len):
    """The legal sets ``seat`` saw at each of its decisions: row ``i`` for history entry ``i`` it made,
    row ``hist_len`` for the decision now pending (if it is ``seat``'s). Found by replaying the real
    history from the real deal once, so that each sampled world is compared with it during its own
    replay."""
    choices = np.zeros((hist_len + 1, CHOICE_WIDTH), dtype=np.int64)
    real = np.zeros_like(state)
    for k in range(S_DEALT):
        real[k] = state[k]
    for k in range(MAX_SEATS):
        real[S_DEALT + k] = state[S_DEALT + k]
    for k in range(STOCK_SIZE):
        real[S_STOCK + k] = state[S_STOCK + k]
    _setup_hand(real)
    for i in range(hist_len):
        if real[S_CURRENT] == seat:
            _store_choices(real, choices, i)
        _apply_action(real, state[S_HIST + i] % HIST_SEAT_FACTOR)
    if state[S_CURRENT] == seat:
        _store_choices(state, choices, hist_len)
    return choices


@njit
def _replay_history(state, seat, rng, out_state, hist_len, seat_choices):
    """Replay the real history in the sampled world ``out_state``, drawing the cards of actions hidden
    from ``seat`` from the acting hand; False if an action is illegal there or ``seat``'s choices at
    one of its decisions differ from ``seat_choices``."""
    for i in range(hist_len):
        entry = state[S_HIST + i]
        action = entry % HIST_SEAT_FACTOR
        if out_state[S_CURRENT] != entry // HIST_SEAT_FACTOR:
            return False
        if out_state[S_CURRENT] == seat and not _same_choices(out_state, seat_choices, i):
            return False
        if _hidden_from(state, seat, i):
            hand = out_state[S_HAND + out_state[S_CURRENT]]
            if hand == 0:
                return False
            card = nth_bit(hand, uniform_below(rng, popcount(hand)))
            action = (ACTION_SHOW if action >= ACTION_SHOW else ACTION_TURN) + card
        if not is_legal(out_state, action):
            return False
        apply_action(out_state, action)
    return out_state[S_CURRENT] != seat or _same_choices(out_state, seat_choices, hist_len)
