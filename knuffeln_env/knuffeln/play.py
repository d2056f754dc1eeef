"""The play of the tricks: which card beats which, leading (face up, or face down through ``turning``),
following, and completing a trick.

Rules: ``docs/rules/knuffeln.md#4-play-of-the-tricks``. Nobody has to follow suit: any card of the hand
may be played, and the trick goes card by card to each card that beats the provisional winner (the attack
and defence tables of ``tables``; the within-suit ranking of unchosen suits, decision K14).
"""

from __future__ import annotations

from trick_core.jit import inline_njit

from .layout import (
    S_CHOSEN,
    S_COMMITTED,
    S_HANDS,
    S_JANN_PENDING,
    S_LEADER,
    S_NEXT,
    S_NUM_ACTIVE,
    S_PLAYED,
    S_POINTS,
    S_STREAK_TEAM,
    S_TEAM,
    S_TEAM_TRICKS,
    S_TRICK_CARD,
    S_TRICK_LOG,
    S_TRICK_NUMBER,
    S_TRICK_SEAT,
    S_TRICK_SIZE,
    S_TRICKS_WON,
    S_VARIANT,
    TRICK_LOG_WIDTH,
)
from .scoring import hand_ends_with_trick
from .state import card_bit
from .tables import ATTACK, DEFENCE, NUM_RANKS, RANKING_OF_VARIANT, SUIT_RANK
from .talk import begin_card_turn
from .turning import lay_face_down


@inline_njit
def beats(ranking, chosen, challenger, winner):
    """Does ``challenger``, played later, take over from the provisional ``winner``?"""
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
def begin_play(state):
    """The exchanges are over: the first leader's card turn."""
    state[S_TRICK_SIZE] = 0
    begin_card_turn(state, state[S_LEADER])


@inline_njit
def lead(state, seat, card, face_down):
    """``seat`` leads ``card``, face up or (drehen) face down. Leading after a Jann commits the team to the
    march."""
    state[S_HANDS + seat] &= ~card_bit(card)
    state[S_TRICK_CARD] = card
    state[S_TRICK_SEAT] = seat
    state[S_TRICK_SIZE] = 1
    state[S_LEADER] = seat
    if state[S_JANN_PENDING]:
        state[S_JANN_PENDING] = 0
        state[S_COMMITTED] = state[S_TEAM + seat]  # leading to trick 6 commits to the Durchmarsch
    if face_down:
        lay_face_down(state, seat, card)
    else:
        state[S_PLAYED + seat] |= card_bit(card)
        begin_card_turn(state, state[S_NEXT + seat])


@inline_njit
def follow(state, seat, card):
    state[S_HANDS + seat] &= ~card_bit(card)
    state[S_PLAYED + seat] |= card_bit(card)
    count = state[S_TRICK_SIZE]
    state[S_TRICK_CARD + count] = card
    state[S_TRICK_SEAT + count] = seat
    state[S_TRICK_SIZE] = count + 1
    if count + 1 == state[S_NUM_ACTIVE]:
        complete_trick(state)
    else:
        begin_card_turn(state, state[S_NEXT + seat])


@inline_njit
def complete_trick(state):
    """The last card is down: the trick goes to its winner, is logged, and the hand ends or goes on."""
    count = state[S_TRICK_SIZE]
    ranking = RANKING_OF_VARIANT[state[S_VARIANT]]
    chosen = state[S_CHOSEN]
    position = 0
    for i in range(1, count):  # trick_winner_position on the state, without an array view
        if beats(ranking, chosen, state[S_TRICK_CARD + i], state[S_TRICK_CARD + position]):
            position = i
    winner = state[S_TRICK_SEAT + position]
    team = state[S_TEAM + winner]
    trick_number = state[S_TRICK_NUMBER]
    log = S_TRICK_LOG + trick_number * TRICK_LOG_WIDTH
    state[log] = state[S_TRICK_SEAT]
    state[log + 1] = winner
    if state[log + 2] < 0:
        state[log + 2] = 0
    for k in range(count):
        state[log + 3 + state[S_TRICK_SEAT + k]] = state[S_TRICK_CARD + k]
    trick_number += 1
    state[S_TRICK_NUMBER] = trick_number
    state[S_TEAM_TRICKS + team] += 1
    state[S_TRICKS_WON + winner] += 1
    state[S_POINTS + winner] += 1
    state[S_TRICK_SIZE] = 0
    if trick_number == 1:
        state[S_STREAK_TEAM] = team
    elif state[S_STREAK_TEAM] != team:
        state[S_STREAK_TEAM] = -1
    if not hand_ends_with_trick(state, team, trick_number):
        state[S_LEADER] = winner
        begin_card_turn(state, winner)
