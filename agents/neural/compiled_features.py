"""The derived card features of ``agents.neural.derived`` in compiled code: one loop per row, the same
numbers as the numpy reference (``schafkopf_features``, ``knuffeln_features``) bit for bit.

The numpy version works on whole columns and costs about 0.7 ms for a single row (dozens of small array
operations, each a few microseconds); the ``neural`` agent decides on one row at a time, and the
training actors encode thousands of rows per step. Here each row is a few hundred scalar operations.

Every rule table and offset is an argument (nothing is read from a module global of another file), so
numba's cache, which watches only this file, can never hold code built from stale tables. The functions
write the raw observation and its derived features into one preallocated ``(N, obs_size + size)`` array.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from trick_core.jit import njit, njit_parallel

TRUMP_SUIT = 4  # the effective suit of every trump (agents.neural.derived)
HEARTS = 2  # the trump kind while no contract is fixed
FARBWENZ, GEIER, BETTEL = 5, 9, 10  # trump kinds of Bavarian's extra contracts (agents.neural.derived)
SCHAFKOPF_CARDS = 32


@njit
def _first_max(row, start, size):
    """``argmax`` of ``row[start:start + size]`` (the first index of the largest entry)."""
    best, best_value = 0, row[start]
    for i in range(1, size):
        if row[start + i] > best_value:
            best, best_value = i, row[start + i]
    return best


@njit
def _seat_buffers(seats):
    """The scratch arrays of ``_seat_cards``: whether each seat has a card in a block, and which."""
    return np.zeros(seats, dtype=np.bool_), np.zeros(seats, dtype=np.int64)


@njit
def _copy_observation(row, target):
    """``target = [row, 0, 0, ...]``: the raw observation, then zeros where the derived features go;
    returns where they start."""
    size = row.shape[0]
    for i in range(size):
        target[i] = row[i]
    for i in range(size, target.shape[0]):
        target[i] = 0.0
    return size


@njit
def _seat_cards(row, offset, seats, cards, in_trick, card_of_seat):
    """Per seat: whether it has a card in the block at ``offset`` (``seats x cards``), and the first one."""
    for seat in range(seats):
        in_trick[seat] = False
        card_of_seat[seat] = 0
        for card in range(cards):
            if row[offset + seat * cards + card] > 0.5:
                in_trick[seat] = True
                card_of_seat[seat] = card
                break


@njit
def schafkopf_encode(observation, out, seats, hand_at, trump_at, trump_size, extra_at, leader_at, trick_at,
                     played_at, seen_elsewhere, effective_suit, power, strength, card_points):
    """``out[r] = [observation[r], derived features of row r]`` for a Schafkopf game (see
    ``agents.neural.derived.schafkopf_features`` for the blocks and their order)."""
    count = observation.shape[0]
    n = seats
    held = np.zeros(SCHAFKOPF_CARDS, dtype=np.bool_)
    unseen = np.zeros(SCHAFKOPF_CARDS, dtype=np.bool_)
    in_any_trick = np.zeros(SCHAFKOPF_CARDS, dtype=np.bool_)
    best_unseen = np.zeros(5, dtype=np.int64)
    own = np.zeros(5, dtype=np.int64)
    hidden = np.zeros(5, dtype=np.int64)
    in_trick, card_of_seat = _seat_buffers(n)
    for r in range(count):
        row, target = observation[r], out[r]
        base = _copy_observation(row, target)
        kind = HEARTS
        if row[trump_at + _first_max(row, trump_at, trump_size)] > 0.5:
            kind = _first_max(row, trump_at, trump_size)
        if extra_at >= 0:  # geier farbwenz geier_tout farbwenz_tout bettel (-1: the game has none)
            if row[extra_at] > 0.5 or row[extra_at + 2] > 0.5:
                kind = GEIER
            elif row[extra_at + 1] > 0.5 or row[extra_at + 3] > 0.5:
                kind = FARBWENZ + kind
            elif row[extra_at + 4] > 0.5:
                kind = BETTEL
        for card in range(SCHAFKOPF_CARDS):
            held[card] = row[hand_at + card] > 0.5
            seen = held[card]
            in_any_trick[card] = False
            for seat in range(n):
                if row[trick_at + seat * SCHAFKOPF_CARDS + card] > 0.5:
                    in_any_trick[card] = True
                if row[played_at + seat * SCHAFKOPF_CARDS + card] > 0.5:
                    seen = True
            for offset in seen_elsewhere:
                if row[offset + card] > 0.5:
                    seen = True
            unseen[card] = not (seen or in_any_trick[card])
        best_unseen[:] = 0
        own[:] = 0
        hidden[:] = 0
        for card in range(SCHAFKOPF_CARDS):
            suit = effective_suit[kind, card]
            if held[card]:
                own[suit] += 1
            if unseen[card]:
                hidden[suit] += 1
                best_unseen[suit] = max(best_unseen[suit], power[kind, card])
        _seat_cards(row, trick_at, n, SCHAFKOPF_CARDS, in_trick, card_of_seat)
        leader = _first_max(row, leader_at, n)
        led = in_trick[leader]
        winner_seat, winner_card = leader, card_of_seat[leader]
        led_suit = effective_suit[kind, winner_card]
        for position in range(1, n):
            seat = (leader + position) % n
            card = card_of_seat[seat]
            if led and in_trick[seat] and _takes_over(effective_suit, power, kind, card, winner_card, led_suit):
                winner_seat, winner_card = seat, card
        winner_suit, winner_power = effective_suit[kind, winner_card], power[kind, winner_card]
        trick_points = np.float32(0.0)
        for card in range(SCHAFKOPF_CARDS):
            suit, card_power = effective_suit[kind, card], power[kind, card]
            is_trump = suit == TRUMP_SUIT
            target[base + card] = 1.0 if is_trump else 0.0
            target[base + 32 + card] = strength[kind, card]
            target[base + 64 + card] = 1.0 if held[card] and card_power > best_unseen[suit] else 0.0
            beats = led and held[card] and (
                (is_trump and (winner_suit != TRUMP_SUIT or card_power > winner_power))
                or (suit == led_suit and winner_suit == led_suit and card_power > winner_power)
            )
            target[base + 96 + card] = 1.0 if beats else 0.0
            if in_any_trick[card]:
                trick_points += card_points[card]
        base += 128
        for suit in range(5):
            target[base + suit] = own[suit] / 8.0
            target[base + 5 + suit] = hidden[suit] / 14.0
        base += 10
        if led:
            target[base + winner_seat] = 1.0
        base += n
        target[base] = trick_points / np.float32(40.0)
        played_now = 0
        for seat in range(n):
            played_now += in_trick[seat]
        target[base + 1] = played_now / n
        if led:
            target[base + 2 + led_suit] = 1.0


@njit
def _takes_over(effective_suit, power, kind, card, winner_card, led_suit):
    card_suit, winner_suit = effective_suit[kind, card], effective_suit[kind, winner_card]
    higher = power[kind, card] > power[kind, winner_card]
    return (card_suit == TRUMP_SUIT and (winner_suit != TRUMP_SUIT or higher)) or (
        card_suit == led_suit and winner_suit == led_suit and higher
    )


@njit
def _knuffeln_beats(attack, defence, suit_rank, ranks, challenger, winner):
    """Whether ``challenger`` (played later) takes the trick over from ``winner`` (``attack``, ``defence``:
    the rows of the chosen suits; ``suit_rank``: the row of the ranking and chosen suits)."""
    if attack[challenger] > defence[winner]:
        return True
    winner_rank = suit_rank[winner]
    return winner_rank > 0 and suit_rank[challenger] > winner_rank and challenger // ranks == winner // ranks


@njit
def knuffeln_encode(observation, out, seats, ranking, team_at, chosen_at, hand_at, seen_blocks, played_at,
                    trick_at, leader_at, cards, ranks, attack_table, defence_table, suit_rank_table):
    """``out[r] = [observation[r], derived features of row r]`` for Knüffeln (see
    ``agents.neural.derived.knuffeln_features``)."""
    count = observation.shape[0]
    n = seats
    held = np.zeros(cards, dtype=np.bool_)
    unseen = np.zeros(cards, dtype=np.bool_)
    best_rank_of_suit = np.zeros(4, dtype=np.int64)
    in_trick, card_of_seat = _seat_buffers(n)
    for r in range(count):
        row, target = observation[r], out[r]
        base = _copy_observation(row, target)
        chosen = 0
        for suit in range(4):
            if row[chosen_at + suit] + row[chosen_at + 4 + suit] > 0.5:
                chosen += 1 << suit
        attack, defence = attack_table[chosen], defence_table[chosen]
        suit_rank = suit_rank_table[ranking, chosen]
        strongest_attack = 0
        for card in range(cards):
            held[card] = row[hand_at + card] > 0.5
            seen = held[card]
            for seat in range(n):
                if row[played_at + seat * cards + card] > 0.5 or row[trick_at + seat * cards + card] > 0.5:
                    seen = True
            for offset in seen_blocks:
                if row[offset + card] > 0.5:
                    seen = True
            unseen[card] = not seen
            value = attack[card] if unseen[card] else 0
            strongest_attack = value if card == 0 else max(strongest_attack, value)
            rank = suit_rank[card] if unseen[card] else 0
            suit = card // ranks
            best_rank_of_suit[suit] = rank if card % ranks == 0 else max(best_rank_of_suit[suit], rank)
        _seat_cards(row, trick_at, n, cards, in_trick, card_of_seat)
        leader = _first_max(row, leader_at, n)
        led = in_trick[leader]
        winner_seat, winner_card = leader, card_of_seat[leader]
        for position in range(1, n):
            seat = (leader + position) % n
            card = card_of_seat[seat]
            if led and in_trick[seat] and _knuffeln_beats(attack, defence, suit_rank, ranks, card, winner_card):
                winner_seat, winner_card = seat, card
        for card in range(cards):
            target[base + card] = (chosen >> (card // ranks)) & 1
            target[base + cards + card] = min(attack[card], 11) / 11.0
            target[base + 2 * cards + card] = min(defence[card], 12) / 12.0
            beats = led and held[card] and _knuffeln_beats(attack, defence, suit_rank, ranks, card, winner_card)
            target[base + 3 * cards + card] = 1.0 if beats else 0.0
            outranked = suit_rank[card] > 0 and best_rank_of_suit[card // ranks] > suit_rank[card]
            safe = held[card] and strongest_attack <= defence[card] and not outranked
            target[base + 4 * cards + card] = 1.0 if safe else 0.0
        base += 5 * cards
        if led:
            target[base + winner_seat] = 1.0
        base += n
        target[base] = 1.0 if led and row[team_at + winner_seat] > 0.5 else 0.0
        played_now = 0
        for seat in range(n):
            played_now += in_trick[seat]
        target[base + 1] = played_now / n


@njit_parallel
def schafkopf_encode_parallel(observation, out, chunks, seats, hand_at, trump_at, trump_size, extra_at, leader_at,
                              trick_at, played_at, seen_elsewhere, effective_suit, power, strength, card_points):
    """``schafkopf_encode`` over ``chunks`` slices of the rows, on numba's threads."""
    count = observation.shape[0]
    for chunk in prange(chunks):
        lo, hi = chunk * count // chunks, (chunk + 1) * count // chunks
        schafkopf_encode(observation[lo:hi], out[lo:hi], seats, hand_at, trump_at, trump_size, extra_at, leader_at,
                         trick_at, played_at, seen_elsewhere, effective_suit, power, strength, card_points)


@njit_parallel
def knuffeln_encode_parallel(observation, out, chunks, seats, ranking, team_at, chosen_at, hand_at, seen_blocks,
                             played_at, trick_at, leader_at, cards, ranks, attack_table, defence_table,
                             suit_rank_table):
    """``knuffeln_encode`` over ``chunks`` slices of the rows, on numba's threads."""
    count = observation.shape[0]
    for chunk in prange(chunks):
        lo, hi = chunk * count // chunks, (chunk + 1) * count // chunks
        knuffeln_encode(observation[lo:hi], out[lo:hi], seats, ranking, team_at, chosen_at, hand_at, seen_blocks,
                        played_at, trick_at, leader_at, cards, ranks, attack_table, defence_table, suit_rank_table)
