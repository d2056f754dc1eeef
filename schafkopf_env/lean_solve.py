"""The lean exact search of the three Schafkopf games: the card play of a perfect-information world as
make/unmake over a few numbers, the hot loop of ``trick_core.solver`` wherever a Schafkopf hand is solved.

The general search (``trick_core.solver.search``) copies the kernel's whole state (261 to 365 numbers) into
each child and plays the card with the kernel's ``apply_action``, so it can never disagree with the rules.
Schafkopf's card play needs far less: four hands, the trick in progress, the trump kind, the declarer
side's score, and the called card's rules. ``lean_position`` (each game's ``solve.py`` fills it from a
kernel state) holds exactly that (``P_*``), and ``lean_search`` plays the cards in place and takes them
back: with its card order, about twice as fast a solve (``docs/benchmarks.md``, "Exact solver"). It is
checked against the general search on seeded positions of every Schafkopf variant and Bavarian option
(``tests/solver/test_lean_search.py``), so the rules keep one source.

What the card play of the three games shares, and the lean search therefore implements once:

- follow the led effective suit if able (``schafkopf_env.trumps``), else any card; the highest trump, else
  the highest card of the led suit, takes the trick;
- a called card (Bavarian Rufer, Asserufen ace call) while the first trick led in its suit is not complete:
  its holder must play it to that trick, may not discard it to another (unless it is the holder's last
  card), and may lead the suit only with it, unless holding four or more cards of the suit (running away);
- a Tout or Du ends at the first trick the declarer's side loses (``P_ENDS_ON_LOST``);
- the searched value is the declarer side's score: ``P_PER_POINT`` x card points + tricks, which its seats
  maximise (minimise where ``P_SIDE_MAXIMISES`` is 0: a Bettel, won only without a trick).

The search is fail-soft alpha-beta over that score with the shared transposition table of
``trick_core.solver`` (keyed at trick boundaries on the hands in relative ranks, the seat to lead, whether
the called suit has been led; bounds on what the rest of the hand adds, and the best card), cards
equivalent in what remains tried once (``schafkopf_env.solving.distinct_cards``), bounds from the points
and tricks still out less the other side's sure top trumps, and the declarer side's own sure top trumps.
"""

from __future__ import annotations

import numpy as np

from schafkopf_env.solving import distinct_cards, key_mix, relative_hands_key, sure_trump_points
from schafkopf_env.trumps import CARD_POINTS, EFFECTIVE_SUIT, EFFECTIVE_SUIT_MASK, TRICK_POWER, TRUMP
from trick_core.bits import lowest_bit, popcount
from trick_core.jit import inline_njit, njit, njit_no_refcount

MAX_SEATS = 4
(P_HANDS, P_TRICK, P_TRICK_SIZE, P_TO_MOVE, P_LEADER, P_KIND, P_SIDE, P_SIDE_MAXIMISES, P_CALLED, P_CALLED_SUIT,
 P_CALLED_DONE, P_SCORE, P_TRICKS_LEFT, P_PER_POINT, P_POINTS_OUT, P_ENDS_ON_LOST, P_PLAYERS, P_NEXT) = (
    0, 4, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23)
LEAN_SIZE = P_NEXT + MAX_SEATS
"""A lean position's fields: the hands (a seat out of the hand holds none), the trick's cards in playing
order and their number, the seat to play and the trick's leader, the trump kind, the declarer side's seats
(a bitmask) and whether they maximise the score, the called card (-1: none) with its effective suit and
whether the first trick led in it is complete, the score so far, the tricks left, the score of a card
point, the card points not yet taken, whether the hand ends at a trick the side loses, the seats that play
to a trick, and each seat's next seat in playing order."""
RUN_AWAY_LENGTH = 4
"""A called card's holder with this many cards of its suit may lead another of them (running away)."""
_ONE = np.uint64(1)
_ZERO = np.uint64(0)


@inline_njit
def called_active(lean, hand):
    """Whether ``hand`` holds the called card while the first trick led in its suit is not complete."""
    called = lean[P_CALLED]
    if called < 0 or lean[P_CALLED_DONE] != 0:
        return False
    return ((hand >> np.uint64(called)) & _ONE) != _ZERO


@inline_njit
def legal_cards(lean, seat):
    """The cards ``seat`` may play now (module docstring)."""
    hand = np.uint64(lean[P_HANDS + seat])
    kind = lean[P_KIND]
    restricted = called_active(lean, hand)
    called_bit = _ONE << np.uint64(max(lean[P_CALLED], 0))
    if lean[P_TRICK_SIZE] == 0:
        if restricted:
            suit = hand & EFFECTIVE_SUIT_MASK[kind, lean[P_CALLED_SUIT]]
            if popcount(suit) < RUN_AWAY_LENGTH:
                return hand & ~(suit & ~called_bit)
        return hand
    led_suit = EFFECTIVE_SUIT[kind, lean[P_TRICK]]
    allowed = hand & EFFECTIVE_SUIT_MASK[kind, led_suit]
    if allowed == _ZERO:
        allowed = hand
    if restricted:
        if led_suit == lean[P_CALLED_SUIT]:
            return called_bit
        if popcount(hand) > 1:
            allowed &= ~called_bit
    return allowed


@inline_njit
def trick_winner_at(lean, players):
    """The position in playing order of the card that takes the first ``players`` cards of the trick."""
    kind = lean[P_KIND]
    led_suit = EFFECTIVE_SUIT[kind, lean[P_TRICK]]
    best = 0
    best_power = TRICK_POWER[kind, lean[P_TRICK]]
    for i in range(1, players):
        card = lean[P_TRICK + i]
        suit = EFFECTIVE_SUIT[kind, card]
        # a trump's power is above every plain card's, so the highest power among the trumps and the led suit wins
        if (suit == TRUMP or suit == led_suit) and TRICK_POWER[kind, card] > best_power:
            best, best_power = i, TRICK_POWER[kind, card]
    return best


@inline_njit
def live_cards(lean):
    """Every card still held, and those lying in the trick in progress."""
    live = _ZERO
    for s in range(MAX_SEATS):
        live |= np.uint64(lean[P_HANDS + s])
    for i in range(lean[P_TRICK_SIZE]):
        live |= _ONE << np.uint64(lean[P_TRICK + i])
    return live


@inline_njit
def pinned_card(lean):
    """The called card while its suit has not been led: never merged, kept apart in the keys."""
    if lean[P_CALLED] >= 0 and lean[P_CALLED_DONE] == 0:
        return _ONE << np.uint64(lean[P_CALLED])
    return _ZERO


_LEAN_SALT = np.uint64(0x5C4AF0F1EA4A11ED)
"""Mixed into every lean key, so that it never meets a key of the general search in a shared table."""


@inline_njit
def boundary_key(lean, version):
    """The table key of a trick boundary: the hands in relative ranks (``relative_hands_key``, the called
    card apart), the seat to lead, whether the called suit has been led, and the table's version."""
    h = key_mix(key_mix(_LEAN_SALT, version), lean[P_LEADER])
    h = key_mix(h, relative_hands_key(lean, P_HANDS, MAX_SEATS, lean[P_KIND], pinned_card(lean)))
    h = key_mix(h, lean[P_CALLED_DONE])
    return h | _ONE


@inline_njit
def boundary_bounds(lean):
    """The lowest and highest final score from a trick boundary: none or all of the points and tricks
    still out, less the other side's sure top trumps, and at least the side's own (where the hand plays to
    its end)."""
    kind = lean[P_KIND]
    side = lean[P_SIDE]
    own = _ZERO
    others = _ZERO
    for s in range(MAX_SEATS):
        hand = np.uint64(lean[P_HANDS + s])
        if (side >> s) & 1:
            own |= hand
        else:
            others |= hand
    live = own | others
    per_point = lean[P_PER_POINT]
    lost_points, lost_trick = sure_trump_points(kind, others, live)
    score = lean[P_SCORE]
    high = score + per_point * (lean[P_POINTS_OUT] - lost_points) + lean[P_TRICKS_LEFT] - lost_trick
    low = score
    if lean[P_ENDS_ON_LOST] == 0:
        sure_points, sure_trick = sure_trump_points(kind, own, live)
        low += per_point * sure_points + sure_trick
    return low, high


@inline_njit
def trick_so_far(lean):
    """The trick in progress for the seat to play: the power of the card winning it so far (-1: the seat
    leads), the led effective suit, and whether that card is its own side's."""
    size = lean[P_TRICK_SIZE]
    if size == 0:
        return -1, -1, False
    kind = lean[P_KIND]
    winner_at = trick_winner_at(lean, size)
    seat = lean[P_LEADER]
    for _ in range(winner_at):
        seat = lean[P_NEXT + seat]
    side = lean[P_SIDE]
    ours = ((side >> seat) & 1) == ((side >> lean[P_TO_MOVE]) & 1)
    return TRICK_POWER[kind, lean[P_TRICK + winner_at]], EFFECTIVE_SUIT[kind, lean[P_TRICK]], ours


@inline_njit
def order_key(lean, card, winning_power, led_suit, ours):
    """A higher key is tried first. Leading: high trick power, then points. Following a trick the seat's
    side wins: the most points, the lowest power (schmieren); else the lowest card that takes the trick,
    then the cheapest. (Measured: fewer positions than the playout policy's card first.)"""
    kind = lean[P_KIND]
    power = TRICK_POWER[kind, card]
    points = CARD_POINTS[card]
    if winning_power < 0:
        return power * 16 + points
    if ours:
        return 4096 + points * 256 - power
    suit = EFFECTIVE_SUIT[kind, card]
    if (suit == TRUMP or suit == led_suit) and power > winning_power:
        return 8192 - power
    return 2048 - points * 256 - power


@inline_njit
def next_card(lean, cards, winning_power, led_suit, ours):
    """The card of ``cards`` with the highest ``order_key``."""
    best = lowest_bit(cards)
    best_key = order_key(lean, best, winning_power, led_suit, ours)
    rest = cards & (cards - _ONE)
    while rest != _ZERO:
        card = lowest_bit(rest)
        rest &= rest - _ONE
        key = order_key(lean, card, winning_power, led_suit, ours)
        if key > best_key:
            best, best_key = card, key
    return best


@inline_njit
def last_trick_score(lean):
    """The final score from the lead of the last trick, where every card is forced (one per hand)."""
    kind = lean[P_KIND]
    seat = lean[P_LEADER]
    led = lowest_bit(np.uint64(lean[P_HANDS + seat]))
    led_suit = EFFECTIVE_SUIT[kind, led]
    best_seat = seat
    best_power = TRICK_POWER[kind, led]
    points = CARD_POINTS[led]
    for _ in range(lean[P_PLAYERS] - 1):
        seat = lean[P_NEXT + seat]
        card = lowest_bit(np.uint64(lean[P_HANDS + seat]))
        points += CARD_POINTS[card]
        suit = EFFECTIVE_SUIT[kind, card]
        if (suit == TRUMP or suit == led_suit) and TRICK_POWER[kind, card] > best_power:
            best_seat, best_power = seat, TRICK_POWER[kind, card]
    if (lean[P_SIDE] >> best_seat) & 1:
        return lean[P_SCORE] + lean[P_PER_POINT] * points + 1
    return lean[P_SCORE]


@njit_no_refcount
def lean_search(lean, alpha, beta, keys, bounds, version, nodes):
    """The minimax of the declarer side's final score from ``lean`` (fail-soft within ``(alpha, beta)``),
    playing cards in ``lean`` and taking them back (``lean`` is as it was on return)."""
    if lean[P_TRICKS_LEFT] == 0:
        return lean[P_SCORE]
    seat = lean[P_TO_MOVE]
    size = lean[P_TRICK_SIZE]
    legal = legal_cards(lean, seat)
    if size > 0 and (legal & (legal - _ONE)) == _ZERO:  # a forced card: no position of its own
        return play_and_search(lean, seat, lowest_bit(legal), alpha, beta, keys, bounds, version, nodes)
    nodes[0] += 1
    if size == 0 and lean[P_TRICKS_LEFT] == 1:
        return last_trick_score(lean)
    slot = -1
    key = _ZERO
    stored_card = -1
    start_alpha = alpha
    start_beta = beta
    if size == 0:
        low, high = boundary_bounds(lean)
        if low >= beta or low == high:  # decided without the table (its key costs more than the bounds)
            return low
        if high <= alpha:
            return high
        key = boundary_key(lean, version)
        slot = np.int64(key & np.uint64(keys.shape[0] - 1))
        if keys[slot] == key:  # the table's bounds may be infinite: compared as floats
            score = lean[P_SCORE]
            if bounds[slot, 0] + score > low:
                low = np.int64(bounds[slot, 0]) + score
            if bounds[slot, 1] + score < high:
                high = np.int64(bounds[slot, 1]) + score
            stored_card = np.int64(bounds[slot, 2])
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        alpha = max(alpha, low)
        beta = min(beta, high)
        start_alpha = alpha
        start_beta = beta
    if popcount(legal) > 1:
        legal = distinct_cards(lean[P_KIND], legal, live_cards(lean), pinned_card(lean))
    maximising = ((lean[P_SIDE] >> seat) & 1) == lean[P_SIDE_MAXIMISES]
    best = np.int64(-(1 << 40)) if maximising else np.int64(1 << 40)
    best_card = -1
    remaining = legal
    winning_power, led_suit, ours = trick_so_far(lean)
    while remaining != _ZERO:
        if stored_card >= 0 and (remaining >> np.uint64(stored_card)) & _ONE:
            card = stored_card
            stored_card = -1
        else:
            card = next_card(lean, remaining, winning_power, led_suit, ours)
        remaining &= ~(_ONE << np.uint64(card))
        value = play_and_search(lean, seat, card, alpha, beta, keys, bounds, version, nodes)
        if maximising:
            if value > best:
                best, best_card = value, card
                if best > alpha:
                    alpha = best
        else:
            if value < best:
                best, best_card = value, card
                if best < beta:
                    beta = best
        if alpha >= beta:
            break
    if slot >= 0:
        store(lean, keys, bounds, slot, key, best, best_card, start_alpha, start_beta, maximising)
    return best


@inline_njit
def store(lean, keys, bounds, slot, key, best, best_card, start_alpha, start_beta, maximising):
    """The table's bounds on what the rest of the hand adds, from a search of window ``(start_alpha,
    start_beta)`` that found ``best``; the best card where it refuted the window (or was exact)."""
    if keys[slot] != key:
        keys[slot] = key
        bounds[slot, 0] = -np.inf
        bounds[slot, 1] = np.inf
    useful = best > start_alpha if maximising else best < start_beta
    bounds[slot, 2] = best_card if useful else -1.0
    rest = float(best - lean[P_SCORE])
    if best <= start_alpha:
        bounds[slot, 1] = min(bounds[slot, 1], rest)
    elif best >= start_beta:
        bounds[slot, 0] = max(bounds[slot, 0], rest)
    else:
        bounds[slot, 0] = rest
        bounds[slot, 1] = rest


@inline_njit
def play_and_search(lean, seat, card, alpha, beta, keys, bounds, version, nodes):
    """``card`` played by ``seat`` (the trick completed where it is the last card), the rest searched
    (``lean_search``), and everything taken back."""
    card_bit = _ONE << np.uint64(card)
    hand = lean[P_HANDS + seat]
    lean[P_HANDS + seat] = np.int64(np.uint64(hand) & ~card_bit)
    size = lean[P_TRICK_SIZE]
    lean[P_TRICK + size] = card
    players = lean[P_PLAYERS]
    if size + 1 < players:
        lean[P_TRICK_SIZE] = size + 1
        lean[P_TO_MOVE] = lean[P_NEXT + seat]
        value = lean_search(lean, alpha, beta, keys, bounds, version, nodes)
        lean[P_TO_MOVE] = seat
        lean[P_TRICK_SIZE] = size
        lean[P_HANDS + seat] = hand
        return value
    value = complete_and_search(lean, players, alpha, beta, keys, bounds, version, nodes)
    lean[P_TO_MOVE] = seat
    lean[P_TRICK_SIZE] = size
    lean[P_HANDS + seat] = hand
    return value


@inline_njit
def complete_and_search(lean, players, alpha, beta, keys, bounds, version, nodes):
    """The complete trick taken by its winner (score, points out, tricks left, the called suit's rules),
    the rest searched, and everything taken back (the trick's cards and size are the caller's)."""
    kind = lean[P_KIND]
    winner = lean[P_LEADER]
    for _ in range(trick_winner_at(lean, players)):
        winner = lean[P_NEXT + winner]
    points = 0
    for i in range(players):
        points += CARD_POINTS[lean[P_TRICK + i]]
    saved_score = lean[P_SCORE]
    saved_leader = lean[P_LEADER]
    saved_done = lean[P_CALLED_DONE]
    side_won = (lean[P_SIDE] >> winner) & 1
    if side_won:
        lean[P_SCORE] = saved_score + lean[P_PER_POINT] * points + 1
    if lean[P_CALLED] >= 0 and saved_done == 0 and EFFECTIVE_SUIT[kind, lean[P_TRICK]] == lean[P_CALLED_SUIT]:
        lean[P_CALLED_DONE] = 1
    lean[P_POINTS_OUT] -= points
    lean[P_TRICKS_LEFT] -= 1
    if lean[P_ENDS_ON_LOST] and not side_won:
        value = lean[P_SCORE]  # a Tout or Du ends here
    else:
        trick = np.uint64(0)  # the trick's cards, packed: the next trick is written over them
        for i in range(players):
            trick |= np.uint64(lean[P_TRICK + i]) << np.uint64(8 * i)
        lean[P_TRICK_SIZE] = 0
        lean[P_LEADER] = winner
        lean[P_TO_MOVE] = winner
        value = lean_search(lean, alpha, beta, keys, bounds, version, nodes)
        for i in range(players):
            lean[P_TRICK + i] = np.int64((trick >> np.uint64(8 * i)) & np.uint64(0xFF))
    lean[P_TRICKS_LEFT] += 1
    lean[P_POINTS_OUT] += points
    lean[P_CALLED_DONE] = saved_done
    lean[P_LEADER] = saved_leader
    lean[P_SCORE] = saved_score
    return value


@inline_njit
def set_position(lean, state, hands_at, trick_at, size, leader, to_move, kind, side, side_maximises, players, next_at):
    """The card play of a lean position from a kernel ``state``: the hands from ``state[hands_at]`` (four
    seats), the ``size`` cards of the trick in progress from ``state[trick_at]``, the leader, the seat to
    play, the trump kind, the declarer side, whether it maximises, the seats playing to a trick and the next
    seat of each (``state[next_at + seat]``; -1: clockwise). The score, the called card and the rest are
    ``set_value``'s and ``set_called``'s."""
    for s in range(MAX_SEATS):
        lean[P_HANDS + s] = state[hands_at + s]
        lean[P_NEXT + s] = (s + 1) % MAX_SEATS if next_at < 0 else state[next_at + s]
    for i in range(size):
        lean[P_TRICK + i] = state[trick_at + i]
    lean[P_TRICK_SIZE] = size
    lean[P_LEADER] = leader
    lean[P_TO_MOVE] = to_move
    lean[P_KIND] = kind
    lean[P_SIDE] = side
    lean[P_SIDE_MAXIMISES] = 1 if side_maximises else 0
    lean[P_PLAYERS] = players
    lean[P_CALLED] = -1
    lean[P_CALLED_SUIT] = 0
    lean[P_CALLED_DONE] = 1


@inline_njit
def set_called(lean, card, suit, done):
    """The called card and its effective suit, and whether the first trick led in that suit is complete."""
    lean[P_CALLED] = card
    lean[P_CALLED_SUIT] = suit
    lean[P_CALLED_DONE] = 1 if done else 0


@inline_njit
def set_value(lean, score, per_point, points_out, tricks_left, ends_on_lost):
    """The declarer side's score so far, the score of a card point, the points not yet taken, the tricks
    left and whether the hand ends at the first trick the side loses (a Tout, a Du)."""
    lean[P_SCORE] = score
    lean[P_PER_POINT] = per_point
    lean[P_POINTS_OUT] = points_out
    lean[P_TRICKS_LEFT] = tricks_left
    lean[P_ENDS_ON_LOST] = 1 if ends_on_lost else 0


@njit
def lean_value(lean, alpha, beta, keys, bounds, version, nodes):
    """``lean_search`` within the window ``(alpha, beta)`` of ``trick_core.solver`` (the scores are whole
    numbers: the window is widened to the whole numbers around it), as a float."""
    return float(lean_search(lean, np.int64(np.floor(alpha)), np.int64(np.ceil(beta)), keys, bounds, version, nodes))
