"""What the exact solver (``trick_core.solver``) needs to know of Knüffeln: the searched decisions are the
face-up card plays (no duty to follow: any card of the hand) and the Jann choice (``stop``, or lead on
into the Durchmarsch); inside the solve nobody turns a card face down (so no answer is ever asked) and a
talk turn stays ``silent``. The sides are the two teams; the rest of a hand depends on the tricks each
team has taken, the streak (who won every trick so far), a pending Jann and a committed march.

A settlement is one of few values (``outcome_classes``): either team wins the stake, the Jann or the march
(each with the accepted turns), paid by every loser to every winner. Every trick is worth the same, so
two cards of one hand are equivalent when they beat, and are beaten by, exactly the same cards still
held by the others or lying in the trick (``distinct``).
"""

from __future__ import annotations

import numpy as np

from trick_core.bits import lowest_bit, popcount
from trick_core.jit import inline_njit, njit

from . import heuristic
from .layout import (
    S_ACCEPTED,
    S_CHOSEN,
    S_COMMITTED,
    S_HANDS,
    S_JANN_PENDING,
    S_MAX_TRICKS,
    S_PHASE,
    S_SEAT_TO_ACT,
    S_SETTLEMENT,
    S_STREAK_TEAM,
    S_TEAM,
    S_TEAM_TRICKS,
    S_TRICK_CARD,
    S_TRICK_NUMBER,
    S_TRICK_SIZE,
    S_VARIANT,
)
from .rules import legal_sets
from .scoring import march_value, stake
from .tables import (
    ACTION_ACCEPT,
    ACTION_PLAY,
    ACTION_SILENT,
    ACTION_STOP,
    MAX_SEATS,
    NUM_CARDS,
    PAY_JANN,
    PHASE_ANSWER,
    PHASE_PLAY,
    PHASE_TALK,
    RANKING_OF_VARIANT,
)

EXACT_TRICKS = 4
"""Tricks solved exactly by default (the playout policy plays the cards before them): the free play makes
a whole hand too wide to solve in a decision's budget. Measured (``benchmarks/solver.py``,
``docs/benchmarks.md``): four tricks take about 0.1 ms median, five about 1 ms with a tail five times
that, six about 10 ms."""
SCRATCH_SIZE = 0
"""The solver's scratch for card ordering: this game needs none."""


def _beats_tables() -> np.ndarray:
    """``BEATS[ranking, chosen, card]``: the cards that ``card``, played later, takes a trick from (the
    reverse of the heuristic's ``BEATEN_BY``)."""
    beaten_by = heuristic.BEATEN_BY
    beats = np.zeros_like(beaten_by)
    for card in range(NUM_CARDS):
        challengers = (beaten_by >> np.int64(card)) & 1  # [ranking, chosen, winner]: card beats winner
        for winner in range(NUM_CARDS):
            beats[:, :, card] |= challengers[:, :, winner] << np.int64(winner)
    return beats


BEATS = _beats_tables()
BEATEN_BY = heuristic.BEATEN_BY


@inline_njit
def searched_cards(state):
    """The cards the seat to act may lead or play face up (0 outside the card play)."""
    if state[S_PHASE] != PHASE_PLAY:
        return np.uint64(0)
    return np.uint64(state[S_HANDS + state[S_SEAT_TO_ACT]])


@inline_njit
def card_action(card):
    return ACTION_PLAY + card


@inline_njit
def extra_action(state):
    """A pending Jann: ``stop`` (leading a card instead is the march)."""
    if state[S_PHASE] == PHASE_PLAY and state[S_JANN_PENDING] != 0 and state[S_TRICK_SIZE] == 0:
        return ACTION_STOP
    return -1


@inline_njit
def default_action(state):
    """A talk turn: ``silent``; an answer to a face-down card (only before the solve starts): ``accept``."""
    phase = state[S_PHASE]
    if phase == PHASE_TALK:
        return ACTION_SILENT
    if phase == PHASE_ANSWER:
        return ACTION_ACCEPT
    play, turn, exchange, show, misc, tokens = legal_sets(state)
    return heuristic._first_legal(play, turn, exchange, show, misc, tokens)


@inline_njit
def counted(state, seat, other):
    """The team of the seat solved for maximises its settlement."""
    return state[S_TEAM + other] == state[S_TEAM + seat]


@inline_njit
def score(state):
    """Nothing is added up trick by trick (the settlement is not a sum): the table is keyed on the whole
    history that matters (``position_key``)."""
    return 0.0


@inline_njit
def final_value(state, seat):
    return float(state[S_SETTLEMENT + seat])


@inline_njit
def position_key(state):
    """The teams' tricks, the streak, a pending Jann and a committed march."""
    key = state[S_TEAM_TRICKS] * 16 + state[S_TEAM_TRICKS + 1]
    key = key * 4 + state[S_STREAK_TEAM] + 1
    return (key * 2 + state[S_JANN_PENDING]) * 4 + state[S_COMMITTED] + 1


@inline_njit
def hands_key(state):
    """Every seat's hand, as it is (no two Knüffeln cards are interchangeable across tricks: the
    history in ``position_key`` refers to them)."""
    h = np.uint64(MAX_SEATS)
    for s in range(MAX_SEATS):
        z = (h ^ np.uint64(state[S_HANDS + s])) + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        h = z ^ (z >> np.uint64(31))
    return h


@inline_njit
def tricks_left(state):
    return state[S_MAX_TRICKS] - state[S_TRICK_NUMBER]


@inline_njit
def distinct(state, cards):
    """``cards`` less those equivalent to another of them (module docstring)."""
    if popcount(cards) <= 1:
        return cards
    ranking = RANKING_OF_VARIANT[state[S_VARIANT]]
    chosen = state[S_CHOSEN]
    seat = state[S_SEAT_TO_ACT]
    live = np.int64(0)
    for s in range(MAX_SEATS):
        if s != seat:
            live |= state[S_HANDS + s]
    for i in range(state[S_TRICK_SIZE]):
        live |= np.int64(1) << np.int64(state[S_TRICK_CARD + i])
    kept = np.uint64(0)
    rest = cards
    while rest != np.uint64(0):
        card = lowest_bit(rest)
        rest &= rest - np.uint64(1)
        beats = BEATS[ranking, chosen, card] & live
        beaten = BEATEN_BY[ranking, chosen, card] & live
        duplicate = False
        others = kept
        while others != np.uint64(0):
            other = lowest_bit(others)
            others &= others - np.uint64(1)
            if BEATS[ranking, chosen, other] & live == beats and BEATEN_BY[ranking, chosen, other] & live == beaten:
                duplicate = True
                break
        if not duplicate:
            kept |= np.uint64(1) << np.uint64(card)
    return kept


@inline_njit
def first_card(state, cards, scratch):
    """The card tried first: the playout policy's choice among ``cards``."""
    if popcount(cards) == 1:
        return lowest_bit(cards)
    return heuristic.choose_card(state, state[S_SEAT_TO_ACT], np.int64(cards))


@inline_njit
def card_order(state, card):
    """Try strong cards first (the heuristic's strength)."""
    return heuristic.STRENGTH[RANKING_OF_VARIANT[state[S_VARIANT]], state[S_CHOSEN], card]


@inline_njit
def value_bounds(state, seat):
    """No bound tighter than the outcomes themselves (the search and its table do the work)."""
    return -np.inf, np.inf


@inline_njit
def team_units(state, seat, winning_team, units):
    """What ``seat`` gets when ``winning_team`` wins ``units`` from each loser (``scoring.end_hand``)."""
    team = state[S_TEAM + seat]
    if team < 0:
        return 0.0
    others = 0
    for s in range(MAX_SEATS):
        if state[S_TEAM + s] >= 0 and state[S_TEAM + s] != team:
            others += 1
    if team == winning_team:
        return float(units * others)
    winners = 0
    for s in range(MAX_SEATS):
        if state[S_TEAM + s] == winning_team:
            winners += 1
    return -float(units * winners)


@njit
def outcome_classes(state, seat, values, settlements):
    """The settlements of ``seat`` when either team wins the stake, the Jann or the march (each its own
    class: the searched value is the settlement itself)."""
    count = 0
    jann = PAY_JANN[state[S_VARIANT]] + state[S_ACCEPTED]
    for team in range(2):
        for units in (stake(state), jann, march_value(state)):
            values[count] = team_units(state, seat, team, units)
            settlements[count] = values[count]
            count += 1
    return count


@inline_njit
def searched_tricks(state, exact_tricks):
    """The tricks solved exactly when ``exact_tricks`` are asked: all of them (no hand of this game is capped)."""
    return exact_tricks


LEAN_SIZE = 1
"""Knüffeln has no lean search (``schafkopf_env.lean_solve`` is the Schafkopf card play): the general search
of ``trick_core.solver`` solves its free play, turns and Jann."""


@inline_njit
def lean_position(state, seat, lean):
    """Never a lean position (``LEAN_SIZE``): the general search runs."""
    return False


@njit
def lean_value(lean, alpha, beta, keys, bounds, version, nodes):
    """Not reached (``lean_position`` is always False); raises if it were."""
    raise RuntimeError("knuffeln: no lean search (lean_position is always False)")
