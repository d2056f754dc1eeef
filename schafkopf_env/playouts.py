"""Heuristic playouts for the three Schafkopf games: compiled, cheap, sensible play to the end of a hand.

Uniformly random playouts (the kernels' ``random_playout``) value an action as if everybody afterwards
played at random, which makes PIMC (``agents.pimc``) misjudge schmieren, trumping and bidding. The
functions here play a *determinized* world (every hand is known, so is every partnership) with a cheap
club player's habits instead; ``agents.pimc_heuristic`` searches with them.

Per game (``bavarian``, ``palatinate``, ``asserufen``):

- ``<game>_heuristic_playout(state, rng, epsilon)``: play from ``state`` (in place) to the end of the hand.
  At every decision the action is one of the kernel's legal actions (``legal_action_mask``), applied with
  ``apply_action``. A card play is uniformly random with probability ``epsilon``, otherwise chosen by
  the heuristic below. Decisions other than card play always take the conservative default (random
  bids, doubles or Tout contracts inside a playout would swamp the values with noise).

- ``<game>_heuristic_action(state, rng, epsilon)``: the action the playout policy takes in ``state``.

``HEURISTIC_ACTION`` and ``HEURISTIC_PLAYOUT`` map a game name to these; the search that scores actions
with these playouts is ``agents.search.search_outcomes``.

**Card play** (the same for the three games; ``_choose_card``). Cost of a card: its points and, for a
trump, its rank (a trump is worth more than any plain card).

- *Following, my side wins the trick*: if the trick is safe (I am last, or no opponent still to play can
  beat the winning card with the cards it may play), *schmieren*: the plain (non-trump) legal card with
  the most points that is not a master (a card no opponent could beat if it were led); otherwise, or
  without such a card with points, the cheapest legal card.
- *Following, the opponents win it*: the cheapest legal card that beats the winner and that no opponent
  still to play can beat, if the trick is worth it (its points plus my card's reach ``WORTH_POINTS``,
  or I am last, or a Tout/Du is on); otherwise, if only partners play after me and one of them can take
  the trick, schmieren as above; otherwise the cheapest legal card.
- *Leading*: the declarer's side leads trumps while an opponent holds one (its top trump if no opponent
  holds a higher one, else its lowest); otherwise a master (a card no opponent can beat, most points
  first; defenders consider plain cards only); otherwise the cheapest plain card, else the lowest trump.

**Other decisions**: a seat bids the base game (Bavarian Rufer, Asserufen *hänge an*) or, in Palatinate
round two, the simple game when its hand is as strong as the rule-based players require
(``suit_game_strength``: so that passing at the root is valued knowing another seat may then play); any
other bid is ``pass`` / ``weg``; ``no_double``; ``no_schenken``; the declarer accepts a
schenken offer; a ``hänge an`` player accepts ``darf man?`` when holding a non-heart ace, else refuses;
a called ace is of the suit the declarer holds fewest of (among the legal calls); a trump suit is the
one that makes the declarer's hand strongest (``suit_game_strength``; Palatinate hearts +0.8); a
simple-game declarer discards unguarded tens, Kings and small cards of short suits, never an ace or an
Ober or Unter while it has another card (``DISCARD_PREFERENCE``).
"""

from __future__ import annotations

import numpy as np

from schafkopf_env import asserufen_kernel as ak
from schafkopf_env import bavarian_kernel as bk
from schafkopf_env import palatinate_kernel as pk
from schafkopf_env.common import CARD_POINTS, EFFECTIVE_SUIT, EFFECTIVE_SUIT_MASK, TRICK_POWER, TRUMP
from trick_core.jit import njit
from trick_core.jit_fast import inline_njit, lowest_bit, nth_bit, popcount, rng_below_small, rng_next

WORTH_POINTS = 10
"""A trick the opponents are winning is taken over when it would bring at least this many card points."""

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
OU_MASK = np.uint64(sum(1 << (s * 8 + r) for s in range(4) for r in (3, 4)))
"""Obers/Queens and Unters/Jacks: never discarded by the heuristic."""

# Scratch layout (int64 array of SCRATCH_SIZE) filled by each game before ``_choose_card``.
X_TRICK_CARDS = 0  # 4: the cards of the trick in progress, in playing order
X_REST_SEATS = 4  # 4: the seats still to play after the seat to act, in order
X_HANDS = 8  # 4: every seat's cards held (mask)
X_TEAM = 12  # 4: 1 declarer's side, 0 opponents, -1 no part in the hand
X_OTHERS = 16  # 4: the other seats taking part (for leads)
SCRATCH_SIZE = 20


def _card_tables():
    """Per trump kind and card: the cost of keeping it, ``_most_points``'s key, and the cards of higher trick power
    (``_can_beat``), computed once so that the card choice looks them up instead of recomputing them."""
    kinds = TRICK_POWER.shape[0]
    cost = np.zeros((kinds, 32), dtype=np.int64)
    points_key = np.zeros((kinds, 32), dtype=np.int64)
    above = np.zeros((kinds, 32), dtype=np.uint64)
    for kind in range(kinds):
        for card in range(32):
            points = int(CARD_POINTS[card])
            power = int(TRICK_POWER[kind, card])
            if EFFECTIVE_SUIT[kind, card] == TRUMP:
                cost[kind, card] = 40 + 3 * points + 4 * (power - 100)
            else:
                cost[kind, card] = 3 * points + power
            points_key[kind, card] = points * 1000 + 999 - cost[kind, card]
            above[kind, card] = sum(1 << other for other in range(32) if TRICK_POWER[kind, other] > power)
    return cost, points_key, above


CARD_COST, POINTS_KEY, POWER_ABOVE = _card_tables()
"""``CARD_COST[kind, card]``: how much a card is worth keeping (its points, and for a trump its rank above
every plain card); ``POINTS_KEY[kind, card]``: most points first, then the lower cost; ``POWER_ABOVE[kind,
card]``: the cards of higher trick power, any suit."""


# ============================================================================ shared helpers


@njit
def _uniform01(rng):
    """A float in [0, 1) from the splitmix64 stream."""
    return np.float64(rng_next(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit
def _random_set_index(mask, start, stop, rng):
    """A uniformly chosen index ``i`` in ``[start, stop)`` with ``mask[i] != 0`` (-1 if none)."""
    count = 0
    for i in range(start, stop):
        if mask[i] != 0:
            count += 1
    if count == 0:
        return -1
    pick = rng_below_small(rng, count)
    for i in range(start, stop):
        if mask[i] != 0:
            if pick == 0:
                return i
            pick -= 1
    return -1


@inline_njit
def _random_card_action(legal, base, rng):
    """``_random_set_index`` over the card actions ``[base, base + 32)`` given as the legal card bits:
    the same draw (``rng_below_small`` of their count) picks the same card, the ``pick``-th lowest."""
    count = popcount(legal)
    if count == 0:
        return -1
    return base + nth_bit(legal, rng_below_small(rng, count))


@njit
def _mask_bits(mask, start, count):
    """The entries ``mask[start:start + count]`` (count <= 64) as bits of a uint64."""
    bits = _ZERO
    for i in range(count):
        if mask[start + i] != 0:
            bits |= _ONE << np.uint64(i)
    return bits


@inline_njit
def _beats(kind, card, best, led_suit):
    """Whether ``card`` played later takes the trick from the provisional winner ``best``."""
    suit = EFFECTIVE_SUIT[kind, card]
    best_suit = EFFECTIVE_SUIT[kind, best]
    if suit == TRUMP:
        return best_suit != TRUMP or TRICK_POWER[kind, card] > TRICK_POWER[kind, best]
    return suit == led_suit and best_suit != TRUMP and TRICK_POWER[kind, card] > TRICK_POWER[kind, best]


@inline_njit
def _can_beat(kind, hand, best, led_card):
    """Whether a player holding ``hand`` (following suit as the rules demand) can beat ``best``.

    As masks: the cards that ``_beats`` ``best`` are the higher trumps if ``best`` is a trump, else every
    trump and the higher cards of the led suit."""
    led_suit = EFFECTIVE_SUIT[kind, led_card]
    suit_cards = EFFECTIVE_SUIT_MASK[kind, led_suit]
    allowed = hand & suit_cards
    if allowed == _ZERO:
        allowed = hand
    trumps = EFFECTIVE_SUIT_MASK[kind, TRUMP]
    if EFFECTIVE_SUIT[kind, best] == TRUMP:
        beaters = trumps & POWER_ABOVE[kind, best]
    else:
        beaters = trumps | (suit_cards & ~trumps & POWER_ABOVE[kind, best])
    return (allowed & beaters) != _ZERO


@inline_njit
def _opponents_can_beat(kind, best, led_card, scratch, seats_at, num_seats, my_team):
    """Whether any opponent among ``scratch[seats_at:seats_at + num_seats]`` can beat ``best``."""
    for i in range(num_seats):
        seat = scratch[seats_at + i]
        team = scratch[X_TEAM + seat]
        if team >= 0 and team != my_team:
            if _can_beat(kind, np.uint64(scratch[X_HANDS + seat]), best, led_card):
                return True
    return False


@inline_njit
def _cheapest(kind, cards):
    """The card of least ``CARD_COST`` (ties: the lower card), -1 for an empty set."""
    best = -1
    best_cost = 1 << 30
    while cards != _ZERO:
        card = lowest_bit(cards)
        cards &= cards - _ONE
        cost = CARD_COST[kind, card]
        if cost < best_cost:
            best, best_cost = card, cost
    return best


@inline_njit
def _most_points(kind, cards):
    """The card with most points (ties: the lower cost), -1 for an empty set."""
    best = -1
    best_key = -1
    while cards != _ZERO:
        card = lowest_bit(cards)
        cards &= cards - _ONE
        key = POINTS_KEY[kind, card]
        if key > best_key:
            best, best_key = card, key
    return best


@njit
def _choose_card(kind, legal, me, size, num_rest, num_others, tout, scratch):
    """The heuristic card (module docstring) of seat ``me`` among the ``legal`` cards.

    ``scratch`` holds the trick in progress (``size`` cards), the ``num_rest`` seats still to play after
    ``me``, every hand, every seat's team and the ``num_others`` other seats taking part."""
    if popcount(legal) == 1:
        return lowest_bit(legal)
    my_team = scratch[X_TEAM + me]
    trump_mask = EFFECTIVE_SUIT_MASK[kind, TRUMP]
    if size == 0:
        return _lead(kind, legal, my_team, num_others, scratch, trump_mask)
    led_card = scratch[X_TRICK_CARDS]
    led_suit = EFFECTIVE_SUIT[kind, led_card]
    best = led_card
    best_position = 0
    points = CARD_POINTS[led_card]
    for i in range(1, size):
        card = scratch[X_TRICK_CARDS + i]
        points += CARD_POINTS[card]
        if _beats(kind, card, best, led_suit):
            best, best_position = card, i
    # the winner's seat: the seats after ``me`` are known; the trick's seats are the others in order
    winner_team = _team_of_position(scratch, best_position, size, me, num_others)
    if winner_team == my_team:
        safe = num_rest == 0 or not _opponents_can_beat(kind, best, led_card, scratch, X_REST_SEATS, num_rest, my_team)
        if safe and not tout:
            card = _most_points(kind, _non_masters(kind, legal & ~trump_mask, my_team, num_others, scratch))
            if card >= 0 and CARD_POINTS[card] > 0:
                return card
        return _cheapest(kind, legal)
    winners = _ZERO
    rest = legal
    while rest != _ZERO:
        card = lowest_bit(rest)
        rest &= rest - _ONE
        if _beats(kind, card, best, led_suit):
            if num_rest == 0 or not _opponents_can_beat(kind, card, led_card, scratch, X_REST_SEATS, num_rest, my_team):
                winners |= _ONE << np.uint64(card)
    if winners != _ZERO:
        card = _cheapest(kind, winners)
        if tout or num_rest == 0 or points + CARD_POINTS[card] >= WORTH_POINTS:
            return card
    if not tout and _partners_behind_win(kind, best, led_card, scratch, num_rest, my_team):
        card = _most_points(kind, _non_masters(kind, legal & ~trump_mask, my_team, num_others, scratch))
        if card >= 0 and CARD_POINTS[card] > 0:
            return card
    return _cheapest(kind, legal)


@inline_njit
def _partners_behind_win(kind, best, led_card, scratch, num_rest, my_team):
    """Whether every seat still to play after me is a partner and one of them can beat ``best``: the
    trick will be ours, so it is worth schmieren into."""
    if num_rest == 0:
        return False
    can = False
    for i in range(num_rest):
        seat = scratch[X_REST_SEATS + i]
        if scratch[X_TEAM + seat] != my_team:
            return False
        if _can_beat(kind, np.uint64(scratch[X_HANDS + seat]), best, led_card):
            can = True
    return can


@inline_njit
def _non_masters(kind, cards, my_team, num_others, scratch):
    """The cards of ``cards`` that some opponent could beat if they were led (the rest are kept to win
    tricks of their own)."""
    kept = _ZERO
    rest = cards
    while rest != _ZERO:
        card = lowest_bit(rest)
        rest &= rest - _ONE
        if _opponents_can_beat(kind, card, card, scratch, X_OTHERS, num_others, my_team):
            kept |= _ONE << np.uint64(card)
    return kept


@inline_njit
def _team_of_position(scratch, position, size, me, num_others):
    """Team of the seat that played the ``position``-th card of the trick in progress. The trick's seats
    are the ``size`` seats before ``me`` in playing order: ``scratch[X_OTHERS:]`` lists the other seats
    starting after ``me``, so the ``size`` seats before ``me`` are its last ``size`` entries."""
    seat = scratch[X_OTHERS + num_others - size + position]
    return scratch[X_TEAM + seat]


@njit
def _lead(kind, legal, my_team, num_others, scratch, trump_mask):
    opponents_trumps = _ZERO
    for i in range(num_others):
        seat = scratch[X_OTHERS + i]
        team = scratch[X_TEAM + seat]
        if team >= 0 and team != my_team:
            opponents_trumps |= np.uint64(scratch[X_HANDS + seat]) & trump_mask
    my_trumps = legal & trump_mask
    if my_team == 1 and my_trumps != _ZERO and opponents_trumps != _ZERO:
        top = -1
        low = -1
        rest = my_trumps
        while rest != _ZERO:
            card = lowest_bit(rest)
            rest &= rest - _ONE
            if top < 0 or TRICK_POWER[kind, card] > TRICK_POWER[kind, top]:
                top = card
            if low < 0 or TRICK_POWER[kind, card] < TRICK_POWER[kind, low]:
                low = card
        top_is_master = True
        rest = opponents_trumps
        while rest != _ZERO:
            card = lowest_bit(rest)
            rest &= rest - _ONE
            if TRICK_POWER[kind, card] > TRICK_POWER[kind, top]:
                top_is_master = False
        return top if top_is_master else low
    candidates = legal if my_team == 1 else legal & ~trump_mask
    masters = _ZERO
    rest = candidates
    while rest != _ZERO:
        card = lowest_bit(rest)
        rest &= rest - _ONE
        if not _opponents_can_beat(kind, card, card, scratch, X_OTHERS, num_others, my_team):
            masters |= _ONE << np.uint64(card)
    if masters != _ZERO:
        return _most_points(kind, masters)
    plain = legal & ~trump_mask
    if plain != _ZERO:
        return _cheapest(kind, plain)
    return _cheapest(kind, legal)


@njit
def _suit_count(hand, suit):
    """Plain cards of ``suit`` held (Obers/Unters excluded): the suit's length for calls and trumps."""
    return popcount(hand & (np.uint64(0xFF) << np.uint64(8 * suit)) & ~OU_MASK)


@njit
def _strongest_trump(hand, allowed_suit_bits, hearts_bonus):
    """Among the suits of ``allowed_suit_bits`` the trump suit that makes ``hand`` strongest
    (``suit_game_strength``, hearts counting ``hearts_bonus`` more)."""
    best = -1
    best_key = -1e9
    for suit in range(4):
        if (allowed_suit_bits >> np.uint64(suit)) & _ONE:
            key = suit_game_strength(hand, suit) + (hearts_bonus if suit == 2 else 0.0)
            if key > best_key:
                best, best_key = suit, key
    return best


OBER_WEIGHT = np.array([3.0, 2.5, 2.2, 2.0])
UNTER_WEIGHT = np.array([1.8, 1.6, 1.5, 1.4])
BASE_GAME_STRENGTH = 7.0
"""Strength (``suit_game_strength`` with hearts trumps) from which a seat plays the base game (Rufer,
hänge an) with four trumps; ``BASE_GAME_STRENGTH_THREE_TRUMPS`` with three. As the rule-based players."""
BASE_GAME_STRENGTH_THREE_TRUMPS = 8.5
HEARTS_BONUS = 0.8
"""Palatinate: hearts trumps add a unit to the game value, worth this much strength."""
SIMPLE_GAME_STRENGTH = 10.0
"""Palatinate: strength (best trump suit, hearts +0.8) from which a seat asks for the simple game."""


@njit
def suit_game_strength(hand, kind):
    """``agents.rules_schafkopf_common.suit_game_strength`` compiled: weighted trumps, aces, tens beside
    them and voids of ``hand`` (a mask) as the declaring side with trump kind ``kind`` (0..3)."""
    trump_mask = EFFECTIVE_SUIT_MASK[kind, TRUMP]
    trumps = hand & trump_mask
    score = 0.0
    rest = trumps
    while rest != _ZERO:
        card = lowest_bit(rest)
        rest &= rest - _ONE
        suit, rank = card // 8, card % 8
        if rank == 3:
            score += OBER_WEIGHT[suit]
        elif rank == 4:
            score += UNTER_WEIGHT[suit]
        else:
            score += 1.3 if rank == 0 else (1.1 if rank == 1 else 1.0)
    num_trumps = popcount(trumps)
    for suit in range(4):
        if suit == kind:
            continue
        held = hand & EFFECTIVE_SUIT_MASK[kind, suit]
        if held == _ZERO:
            score += 0.5 if num_trumps >= 4 else 0.0
            continue
        if (held >> np.uint64(suit * 8)) & _ONE:
            score += 1.0
            if (held >> np.uint64(suit * 8 + 1)) & _ONE:
                score += 0.6
        elif (held >> np.uint64(suit * 8 + 1)) & _ONE and popcount(held) == 1:
            score -= 0.3
    return score


@njit
def _base_game_hand(hand):
    """Whether a seat plays the base game (hearts trumps, a called ace) with ``hand``."""
    trumps = popcount(hand & EFFECTIVE_SUIT_MASK[2, TRUMP])
    strength = suit_game_strength(hand, 2)
    if trumps >= 4 and strength >= BASE_GAME_STRENGTH:
        return True
    return trumps == 3 and strength >= BASE_GAME_STRENGTH_THREE_TRUMPS


# ============================================================================ Bavarian


@inline_njit
def _bavarian_step(state, mask, scratch, rng, epsilon):
    """The playout's action: a card straight from the legal card bits (most steps), else from ``mask``."""
    if state[bk.S_PHASE] == bk.PHASE_PLAYING:
        return _bavarian_card_action(state, bk.legal_card_bits(state, state[bk.S_CURRENT]), scratch, rng, epsilon)
    bk.legal_action_mask(state, mask)
    return _bavarian_decision(state, mask, scratch, rng, epsilon)


@inline_njit
def _bavarian_card_action(state, legal, scratch, rng, epsilon):
    """The card action among the ``legal`` card bits: random with probability ``epsilon``, else heuristic."""
    if epsilon > 0.0 and _uniform01(rng) < epsilon:
        return _random_card_action(legal, bk.CARD_ACTION_BASE, rng)
    return bk.CARD_ACTION_BASE + _bavarian_card(state, legal, scratch, state[bk.S_CURRENT])


@njit
def _bavarian_decision(state, mask, scratch, rng, epsilon):
    phase = state[bk.S_PHASE]
    seat = state[bk.S_CURRENT]
    if phase == bk.PHASE_PLAYING:
        return _bavarian_card_action(state, _mask_bits(mask, bk.CARD_ACTION_BASE, 32), scratch, rng, epsilon)
    hand = np.uint64(state[bk.S_HAND + seat])
    if phase == bk.PHASE_BIDDING:
        if mask[bk.BID_ACTION_BASE + bk.RUFER] != 0 and _base_game_hand(hand):
            return bk.BID_ACTION_BASE + bk.RUFER
        return bk.BID_ACTION_BASE + bk.PASS
    if phase == bk.PHASE_CALLING:
        best = -1
        best_count = 99
        for i in range(3):
            if mask[bk.CALL_ACTION_BASE + i] != 0:
                count = _suit_count(hand, bk.CALLABLE_SUITS[i])
                if count < best_count:
                    best, best_count = bk.CALL_ACTION_BASE + i, count
        return best
    if phase == bk.PHASE_TRUMP:
        return bk.TRUMP_ACTION_BASE + _strongest_trump(hand, _mask_bits(mask, bk.TRUMP_ACTION_BASE, 4), 0.0)
    return _random_set_index(mask, 0, bk.NUM_ACTIONS, rng)


@njit
def _bavarian_card(state, legal, scratch, me):
    if popcount(legal) == 1:
        return lowest_bit(legal)
    contract = state[bk.S_CONTRACT]
    declarer = state[bk.S_DECLARER]
    partner = state[bk.S_PARTNER] if contract == bk.RUFER else -1
    for seat in range(4):
        scratch[X_HANDS + seat] = state[bk.S_HAND + seat]
        scratch[X_TEAM + seat] = 1 if (seat == declarer or seat == partner) else 0
    trick = bk.S_TRICKS + state[bk.S_TRICK_NUMBER] * bk.TRICK_RECORD
    size = state[bk.S_TRICK_SIZE]
    for i in range(size):
        scratch[X_TRICK_CARDS + i] = state[trick + 1 + i]
    num_rest = 4 - size - 1
    for i in range(num_rest):
        scratch[X_REST_SEATS + i] = (me + 1 + i) % 4
    for i in range(3):
        scratch[X_OTHERS + i] = (me + 1 + i) % 4
    tout = contract == bk.WENZ_TOUT or contract == bk.SOLO_TOUT
    return _choose_card(state[bk.S_TRUMP_KIND], legal, me, size, num_rest, 3, tout, scratch)


@njit
def bavarian_heuristic_action(state, rng, epsilon):
    """The action the playout policy takes in ``state`` (for tests and for stepping by hand)."""
    mask = np.zeros(bk.NUM_ACTIONS, dtype=np.int8)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    bk.legal_action_mask(state, mask)
    return _bavarian_decision(state, mask, scratch, rng, epsilon)


@njit
def bavarian_heuristic_playout(state, rng, epsilon):
    """Play the Bavarian hand in ``state`` to its end in place (module docstring)."""
    mask = np.zeros(bk.NUM_ACTIONS, dtype=np.int8)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    _bavarian_playout_with(state, rng, epsilon, mask, scratch)


@njit
def _bavarian_playout_with(state, rng, epsilon, mask, scratch):
    while state[bk.S_CURRENT] >= 0:
        bk.apply_action(state, _bavarian_step(state, mask, scratch, rng, epsilon))


# ============================================================================ Palatinate


@inline_njit
def _palatinate_step(state, mask, scratch, rng, epsilon):
    """The playout's action: a card straight from the legal card bits (most steps), else from ``mask``."""
    if state[pk.S_PHASE] == pk.PHASE_PLAY:
        low, _ = pk._legal_bits(state)  # in the play phase the card bits (PLAY_BASE is 0)
        return _palatinate_card_action(state, low >> np.uint64(pk.PLAY_BASE), scratch, rng, epsilon)
    pk.legal_action_mask(state, mask)
    return _palatinate_decision(state, mask, scratch, rng, epsilon)


@inline_njit
def _palatinate_card_action(state, legal, scratch, rng, epsilon):
    """The card action among the ``legal`` card bits: random with probability ``epsilon``, else heuristic."""
    if epsilon > 0.0 and _uniform01(rng) < epsilon:
        return _random_card_action(legal, pk.PLAY_BASE, rng)
    return pk.PLAY_BASE + _palatinate_card(state, legal, scratch, state[pk.S_TO_ACT])


@njit
def _palatinate_decision(state, mask, scratch, rng, epsilon):
    phase = state[pk.S_PHASE]
    seat = state[pk.S_TO_ACT]
    if phase == pk.PHASE_PLAY:
        return _palatinate_card_action(state, _mask_bits(mask, pk.PLAY_BASE, 32), scratch, rng, epsilon)
    hand = np.uint64(state[pk.S_HAND + seat])
    if phase == pk.PHASE_BID_TWO:
        best = 0.0
        for kind in range(4):
            strength = suit_game_strength(hand, kind) + (HEARTS_BONUS if kind == 2 else 0.0)
            best = max(best, strength)
        return pk.A_SIMPLE if best >= SIMPLE_GAME_STRENGTH else pk.A_PASS
    if phase == pk.PHASE_BID_ONE:
        return pk.A_PASS
    if phase == pk.PHASE_TRUMP:
        return pk.TRUMP_BASE + _strongest_trump(hand, _mask_bits(mask, pk.TRUMP_BASE, 4), HEARTS_BONUS)
    if phase == pk.PHASE_DISCARD:
        return pk.DISCARD_BASE + _palatinate_discard(hand)
    if phase == pk.PHASE_SCHENKEN:
        return pk.A_NO_SCHENKEN
    if phase == pk.PHASE_SCHENKEN_ANSWER:
        return pk.A_ACCEPT
    if phase == pk.PHASE_CONTRA_OFFER or phase == pk.PHASE_DOUBLING:
        return pk.A_NO_DOUBLE
    return _random_set_index(mask, 0, pk.NUM_ACTIONS, rng)


DISCARD_PREFERENCE = np.array([-50, 60, 30, 0, 0, 20, 20, 20], dtype=np.int64)
"""By rank (A 10 K O U 9 8 7): how gladly a simple-game declarer lays a card away. A ten is banked (unless
its ace guards it), a King next, small cards to make a suit void; aces win tricks of their own."""


@njit
def _palatinate_discard(hand):
    """The card a simple-game declarer lays away (``DISCARD_PREFERENCE``, short suits first); never an
    Ober or Unter while another card is left."""
    best = -1
    best_key = -(1 << 30)
    cards = hand & ~OU_MASK
    if cards == _ZERO:
        cards = hand
    while cards != _ZERO:
        card = lowest_bit(cards)
        cards &= cards - _ONE
        suit, rank = card // 8, card % 8
        key = DISCARD_PREFERENCE[rank] - 5 * _suit_count(hand, suit)
        if rank == 1 and (hand >> np.uint64(suit * 8)) & _ONE:
            key = 10 - 5 * _suit_count(hand, suit)  # a ten beside its ace is safe: keep it
        if key > best_key:
            best, best_key = card, key
    return best


@njit
def _palatinate_card(state, legal, scratch, me):
    if popcount(legal) == 1:
        return lowest_bit(legal)
    declarer = state[pk.S_DECLARER]
    for seat in range(4):
        scratch[X_HANDS + seat] = state[pk.S_HAND + seat]
        scratch[X_TEAM + seat] = -1
    for i in range(pk.NUM_ACTIVE):
        seat = state[pk.S_ACTIVE + i]
        scratch[X_TEAM + seat] = 1 if seat == declarer else 0
    size = state[pk.S_TRICK_SIZE]
    for i in range(size):
        scratch[X_TRICK_CARDS + i] = state[pk.S_TRICK_CARDS + i]
    num_rest = pk.NUM_ACTIVE - size - 1
    seat = me
    for i in range(pk.NUM_ACTIVE - 1):
        seat = state[pk.S_NEXT + seat]
        scratch[X_OTHERS + i] = seat
        if i < num_rest:
            scratch[X_REST_SEATS + i] = seat
    tout = state[pk.S_CONTRACT] >= pk.CONTRACT_SOLO_DU
    return _choose_card(state[pk.S_TRUMP], legal, me, size, num_rest, pk.NUM_ACTIVE - 1, tout, scratch)


@njit
def palatinate_heuristic_action(state, rng, epsilon):
    """The action the playout policy takes in ``state`` (for tests and for stepping by hand)."""
    mask = np.zeros(pk.NUM_ACTIONS, dtype=np.int8)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    pk.legal_action_mask(state, mask)
    return _palatinate_decision(state, mask, scratch, rng, epsilon)


@njit
def palatinate_heuristic_playout(state, rng, epsilon):
    """Play the Palatinate hand in ``state`` to its end in place (module docstring)."""
    mask = np.zeros(pk.NUM_ACTIONS, dtype=np.int8)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    _palatinate_playout_with(state, rng, epsilon, mask, scratch)


@njit
def _palatinate_playout_with(state, rng, epsilon, mask, scratch):
    while state[pk.S_TO_ACT] >= 0:
        pk.apply_action(state, _palatinate_step(state, mask, scratch, rng, epsilon))


# ============================================================================ Asserufen


@inline_njit
def _asserufen_step(state, mask, scratch, rng, epsilon):
    """The playout's action: a card straight from the legal card bits (most steps), else from ``mask``."""
    if state[ak.PHASE] == ak.PHASE_PLAY:
        return _asserufen_card_action(state, ak.legal_card_mask(state, state[ak.SEAT_TO_ACT]), scratch, rng, epsilon)
    ak.legal_action_mask(state, mask)
    return _asserufen_decision(state, mask, scratch, rng, epsilon)


@inline_njit
def _asserufen_card_action(state, legal, scratch, rng, epsilon):
    """The card action among the ``legal`` card bits: random with probability ``epsilon``, else heuristic."""
    if epsilon > 0.0 and _uniform01(rng) < epsilon:
        return _random_card_action(legal, ak.ACTION_CARD_FIRST, rng)
    return ak.ACTION_CARD_FIRST + _asserufen_card(state, legal, scratch, state[ak.SEAT_TO_ACT])


@njit
def _asserufen_decision(state, mask, scratch, rng, epsilon):
    phase = state[ak.PHASE]
    seat = state[ak.SEAT_TO_ACT]
    if phase == ak.PHASE_PLAY:
        return _asserufen_card_action(state, _mask_bits(mask, ak.ACTION_CARD_FIRST, 32), scratch, rng, epsilon)
    hand = np.uint64(state[ak.HANDS + seat])
    if phase == ak.PHASE_BIDDING:
        if mask[ak.ACTION_HAENGE_AN] != 0 and _base_game_hand(hand):
            return ak.ACTION_HAENGE_AN
        return ak.ACTION_WEG
    if phase == ak.PHASE_ANSWER:
        has_ace = (hand & ak.NON_TRUMP_ACES_MASK) != _ZERO
        return ak.ACTION_ACCEPT if has_ace else ak.ACTION_REFUSE
    if phase == ak.PHASE_CALL:
        best = -1
        best_key = 1 << 30
        for i in range(ak.NUM_CALL_ACTIONS):
            if mask[ak.ACTION_CALL_FIRST + i] != 0:
                card = ak.CALL_CARDS[i]
                count = _suit_count(hand, card // 8)
                key = count if count > 0 else 50  # a suit held, shortest first
                if key < best_key:
                    best, best_key = ak.ACTION_CALL_FIRST + i, key
        return best
    if phase == ak.PHASE_TRUMP:
        best = -1
        best_key = -1e9
        for i in range(ak.NUM_TRUMP_ACTIONS):
            if mask[ak.ACTION_TRUMP_FIRST + i] != 0:
                key = suit_game_strength(hand, ak.TRUMP_ACTION_SUITS[i])
                if key > best_key:
                    best, best_key = ak.ACTION_TRUMP_FIRST + i, key
        return best
    if phase == ak.PHASE_OFFER or phase == ak.PHASE_ROUND:
        return ak.ACTION_NO_DOUBLE
    return _random_set_index(mask, 0, ak.NUM_ACTIONS, rng)


@njit
def _asserufen_card(state, legal, scratch, me):
    if popcount(legal) == 1:
        return lowest_bit(legal)
    contract = state[ak.CONTRACT]
    declarer = state[ak.DECLARER]
    partner = state[ak.PARTNER] if contract == ak.CONTRACT_ACE_CALL else -1
    for seat in range(4):
        scratch[X_HANDS + seat] = state[ak.HANDS + seat]
        scratch[X_TEAM + seat] = 1 if (seat == declarer or seat == partner) else 0
    trick = state[ak.TRICK_NUMBER]
    size = state[ak.TRICK_COUNT]
    for i in range(size):
        scratch[X_TRICK_CARDS + i] = state[ak.TRICK_CARDS + trick * 4 + i]
    num_rest = 4 - size - 1
    for i in range(num_rest):
        scratch[X_REST_SEATS + i] = (me + 1 + i) % 4
    for i in range(3):
        scratch[X_OTHERS + i] = (me + 1 + i) % 4
    tout = contract == ak.CONTRACT_SOLO_DU or contract == ak.CONTRACT_HEART_SOLO_DU
    return _choose_card(state[ak.TRUMP_KIND], legal, me, size, num_rest, 3, tout, scratch)


@njit
def asserufen_heuristic_action(state, rng, epsilon):
    """The action the playout policy takes in ``state`` (for tests and for stepping by hand)."""
    mask = np.zeros(ak.NUM_ACTIONS, dtype=np.int8)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    ak.legal_action_mask(state, mask)
    return _asserufen_decision(state, mask, scratch, rng, epsilon)


@njit
def asserufen_heuristic_playout(state, rng, epsilon):
    """Play the Asserufen hand in ``state`` to its end in place (module docstring)."""
    mask = np.zeros(ak.NUM_ACTIONS, dtype=np.int8)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    _asserufen_playout_with(state, rng, epsilon, mask, scratch)


@njit
def _asserufen_playout_with(state, rng, epsilon, mask, scratch):
    while state[ak.SEAT_TO_ACT] >= 0:
        ak.apply_action(state, _asserufen_step(state, mask, scratch, rng, epsilon))


HEURISTIC_ACTION = {
    "bavarian": bavarian_heuristic_action,
    "palatinate": palatinate_heuristic_action,
    "asserufen": asserufen_heuristic_action,
}
HEURISTIC_PLAYOUT = {
    "bavarian": bavarian_heuristic_playout,
    "palatinate": palatinate_heuristic_playout,
    "asserufen": asserufen_heuristic_playout,
}
