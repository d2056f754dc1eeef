"""The card play of the heuristic playouts, shared by the three Schafkopf games: compiled, cheap, sensible
play to the end of a hand.

Uniformly random playouts (the driver ``random_playout``) value an action as if everybody afterwards
played at random, which makes PIMC (``agents.search.pimc_random``) misjudge schmieren, trumping and bidding. The
heuristic players play a *determinized* world (every hand is known, so is every partnership) with a cheap
club player's habits instead; the ``pimc`` agent searches with them.

Each game's ``heuristic`` module (``schafkopf_env.<game>.heuristic``) is a *playout policy*: its inline
``choose_action(state, mask, scratch, rng, epsilon)`` picks one of the kernel's legal actions (its
game-independent part is written once in ``schafkopf_env.playout_policy``); the loop that
plays a hand to its end with it, and the search over such playouts, are the drivers
``policy_playout`` and ``search_outcomes`` of ``trick_core.drivers``. A card play is uniformly random
with probability ``epsilon``, otherwise chosen by ``choose_card`` below from a scratch array the game
fills (``X_*``). Decisions other than card play always take the conservative default (random bids,
doubles or Tout contracts inside a playout would swamp the values with noise).

**Card play** (the same for the three games; ``choose_card``). Cost of a card: its points and, for a
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

from schafkopf_env.trumps import CARD_POINTS, EFFECTIVE_SUIT, EFFECTIVE_SUIT_MASK, TRICK_POWER, TRUMP
from trick_core.bits import ONE, ZERO, lowest_bit, nth_bit, nth_set_index, popcount, uniform_below
from trick_core.jit import inline_njit, njit

WORTH_POINTS = 10
"""A trick the opponents are winning is taken over when it would bring at least this many card points."""

OU_MASK = np.uint64(sum(1 << (s * 8 + r) for s in range(4) for r in (3, 4)))
"""Obers/Queens and Unters/Jacks: never discarded by the heuristic."""

# Scratch layout (int64 array of SCRATCH_SIZE) filled by each game before ``choose_card``.
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
def random_set_index(mask, start, stop, rng):
    """A uniformly chosen index ``i`` in ``[start, stop)`` with ``mask[i] != 0`` (-1 if none)."""
    count = 0
    for i in range(start, stop):
        if mask[i] != 0:
            count += 1
    if count == 0:
        return -1
    return nth_set_index(mask, start, stop, uniform_below(rng, count))


@inline_njit
def random_card_action(legal, base, rng):
    """``random_set_index`` over the card actions ``[base, base + 32)`` given as the legal card bits:
    the same draw (``uniform_below`` of their count) picks the same card, the ``pick``-th lowest."""
    count = popcount(legal)
    if count == 0:
        return -1
    return base + nth_bit(legal, uniform_below(rng, count))


@njit
def mask_bits(mask, start, count):
    """The entries ``mask[start:start + count]`` (count <= 64) as bits of a uint64."""
    bits = ZERO
    for i in range(count):
        if mask[start + i] != 0:
            bits |= ONE << np.uint64(i)
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
    if allowed == ZERO:
        allowed = hand
    trumps = EFFECTIVE_SUIT_MASK[kind, TRUMP]
    if EFFECTIVE_SUIT[kind, best] == TRUMP:
        beaters = trumps & POWER_ABOVE[kind, best]
    else:
        beaters = trumps | (suit_cards & ~trumps & POWER_ABOVE[kind, best])
    return (allowed & beaters) != ZERO


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
    while cards != ZERO:
        card = lowest_bit(cards)
        cards &= cards - ONE
        cost = CARD_COST[kind, card]
        if cost < best_cost:
            best, best_cost = card, cost
    return best


@inline_njit
def _most_points(kind, cards):
    """The card with most points (ties: the lower cost), -1 for an empty set."""
    best = -1
    best_key = -1
    while cards != ZERO:
        card = lowest_bit(cards)
        cards &= cards - ONE
        key = POINTS_KEY[kind, card]
        if key > best_key:
            best, best_key = card, key
    return best


@njit
def choose_card(kind, legal, me, size, num_rest, num_others, tout, scratch):
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
    winners = ZERO
    rest = legal
    while rest != ZERO:
        card = lowest_bit(rest)
        rest &= rest - ONE
        if _beats(kind, card, best, led_suit):
            if num_rest == 0 or not _opponents_can_beat(kind, card, led_card, scratch, X_REST_SEATS, num_rest, my_team):
                winners |= ONE << np.uint64(card)
    if winners != ZERO:
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
    kept = ZERO
    rest = cards
    while rest != ZERO:
        card = lowest_bit(rest)
        rest &= rest - ONE
        if _opponents_can_beat(kind, card, card, scratch, X_OTHERS, num_others, my_team):
            kept |= ONE << np.uint64(card)
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
    opponents_trumps = ZERO
    for i in range(num_others):
        seat = scratch[X_OTHERS + i]
        team = scratch[X_TEAM + seat]
        if team >= 0 and team != my_team:
            opponents_trumps |= np.uint64(scratch[X_HANDS + seat]) & trump_mask
    my_trumps = legal & trump_mask
    if my_team == 1 and my_trumps != ZERO and opponents_trumps != ZERO:
        top = -1
        low = -1
        rest = my_trumps
        while rest != ZERO:
            card = lowest_bit(rest)
            rest &= rest - ONE
            if top < 0 or TRICK_POWER[kind, card] > TRICK_POWER[kind, top]:
                top = card
            if low < 0 or TRICK_POWER[kind, card] < TRICK_POWER[kind, low]:
                low = card
        top_is_master = True
        rest = opponents_trumps
        while rest != ZERO:
            card = lowest_bit(rest)
            rest &= rest - ONE
            if TRICK_POWER[kind, card] > TRICK_POWER[kind, top]:
                top_is_master = False
        return top if top_is_master else low
    candidates = legal if my_team == 1 else legal & ~trump_mask
    masters = ZERO
    rest = candidates
    while rest != ZERO:
        card = lowest_bit(rest)
        rest &= rest - ONE
        if not _opponents_can_beat(kind, card, card, scratch, X_OTHERS, num_others, my_team):
            masters |= ONE << np.uint64(card)
    if masters != ZERO:
        return _most_points(kind, masters)
    plain = legal & ~trump_mask
    if plain != ZERO:
        return _cheapest(kind, plain)
    return _cheapest(kind, legal)


@njit
def suit_count(hand, suit):
    """Plain cards of ``suit`` held (Obers/Unters excluded): the suit's length for calls and trumps."""
    return popcount(hand & (np.uint64(0xFF) << np.uint64(8 * suit)) & ~OU_MASK)


@njit
def strongest_trump(hand, allowed_suit_bits, hearts_bonus):
    """Among the suits of ``allowed_suit_bits`` the trump suit that makes ``hand`` strongest
    (``suit_game_strength``, hearts counting ``hearts_bonus`` more)."""
    best = -1
    best_key = -1e9
    for suit in range(4):
        if (allowed_suit_bits >> np.uint64(suit)) & ONE:
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
    """``agents.rules.schafkopf_strength.suit_game_strength`` compiled: weighted trumps, aces, tens beside
    them and voids of ``hand`` (a mask) as the declaring side with trump kind ``kind`` (0..3)."""
    trump_mask = EFFECTIVE_SUIT_MASK[kind, TRUMP]
    trumps = hand & trump_mask
    score = 0.0
    rest = trumps
    while rest != ZERO:
        card = lowest_bit(rest)
        rest &= rest - ONE
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
        if held == ZERO:
            score += 0.5 if num_trumps >= 4 else 0.0
            continue
        if (held >> np.uint64(suit * 8)) & ONE:
            score += 1.0
            if (held >> np.uint64(suit * 8 + 1)) & ONE:
                score += 0.6
        elif (held >> np.uint64(suit * 8 + 1)) & ONE and popcount(held) == 1:
            score -= 0.3
    return score


@njit
def base_game_hand(hand):
    """Whether a seat plays the base game (hearts trumps, a called ace) with ``hand``."""
    trumps = popcount(hand & EFFECTIVE_SUIT_MASK[2, TRUMP])
    strength = suit_game_strength(hand, 2)
    if trumps >= 4 and strength >= BASE_GAME_STRENGTH:
        return True
    return trumps == 3 and strength >= BASE_GAME_STRENGTH_THREE_TRUMPS


@inline_njit
def base_game_or_pass(hand, mask, base_game_action, pass_action):
    """The bid of a playout: the base game (Rufer, hänge an) where it is legal (``mask``) and ``hand`` is
    a base-game hand, else pass (weg)."""
    if mask[base_game_action] != 0 and base_game_hand(hand):
        return base_game_action
    return pass_action


@inline_njit
def fill_four_seat_scratch(state, hands_at, trick_cards_at, size, me, declarer, partner, scratch):
    """Fill ``scratch`` for ``choose_card`` in a four-seat game (Bavarian, Asserufen): every seat's hand
    from ``state[hands_at:]``, teams from the declarer and its partner (-1: none), the ``size`` cards of the
    trick in progress from ``state[trick_cards_at:]``, the seats after ``me``. Returns how many seats are
    still to play after ``me`` in this trick."""
    for seat in range(4):
        scratch[X_HANDS + seat] = state[hands_at + seat]
        scratch[X_TEAM + seat] = 1 if (seat == declarer or seat == partner) else 0
    for i in range(size):
        scratch[X_TRICK_CARDS + i] = state[trick_cards_at + i]
    num_rest = 4 - size - 1
    for i in range(num_rest):
        scratch[X_REST_SEATS + i] = (me + 1 + i) % 4
    for i in range(3):
        scratch[X_OTHERS + i] = (me + 1 + i) % 4
    return num_rest
