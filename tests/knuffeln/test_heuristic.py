"""The lookup tables behind the fast Knüffeln playouts (``knuffeln_env.knuffeln.heuristic``) agree with the kernel's
``beats`` and with ``card_strength``, and the table-driven ``choose_card`` picks the card of the heuristic
written out plainly (a loop of ``kk.beats`` calls over every card of every opponent's hand)."""

from __future__ import annotations

import numpy as np
import pytest

from knuffeln_env.knuffeln import heuristic as kp
from knuffeln_env.knuffeln import kernel as kk
from trick_core.bits import make_rng

_RANKINGS = range(3)
_CHOSEN_SETS = range(16)


@pytest.mark.parametrize("ranking", _RANKINGS)
def test_beaten_by_table_is_the_kernels_beats(ranking):
    for chosen in _CHOSEN_SETS:
        for winner in range(kk.NUM_CARDS):
            expected = sum(1 << c for c in range(kk.NUM_CARDS) if kk.beats(ranking, chosen, c, winner))
            assert int(kp.BEATEN_BY[ranking, chosen, winner]) == expected, (ranking, chosen, winner)


def test_strength_and_card_set_tables():
    for chosen in _CHOSEN_SETS:
        for card in range(kk.NUM_CARDS):
            for ranking in _RANKINGS:
                assert kp.STRENGTH[ranking, chosen, card] == kp.card_strength(ranking, chosen, card)
            unbeatable = kk.DEFENCE[chosen, card] >= kk.UNBEATABLE
            assert bool(kp.UNBEATABLE_CARDS[chosen] >> card & 1) == unbeatable
            suit, rank = divmod(card, kk.NUM_RANKS)
            unchosen_ace = rank == kk.RANK_A and not chosen >> suit & 1
            assert bool(kp.UNCHOSEN_ACES[chosen] >> card & 1) == unchosen_ace
    # sanity: a chosen 7 exists for every chosen suit and nothing beats it when led
    assert all(bin(int(kp.UNBEATABLE_CARDS[c])).count("1") == bin(c).count("1") for c in _CHOSEN_SETS)


def _cards(mask: int) -> list[int]:
    return [c for c in range(kk.NUM_CARDS) if mask >> c & 1]


def _plain_choose_card(state, me: int, cards: int) -> int:
    """The heuristic of the module docstring, written with ``kk.beats`` and ``card_strength`` only."""
    ranking = int(kk.RANKING_OF_VARIANT[state[kk.S_VARIANT]])
    chosen = int(state[kk.S_CHOSEN])
    count = int(state[kk.S_TRICK_SIZE])
    num_after = int(state[kk.S_NUM_ACTIVE]) - count - 1

    def strength(card):
        return kp.card_strength(ranking, chosen, card)

    def weakest():
        return min(_cards(cards), key=lambda c: (strength(c), c))

    def opponents_beat(card):
        seat, team = me, state[kk.S_TEAM + me]
        for _ in range(num_after):
            seat = int(state[kk.S_NEXT + seat])
            if state[kk.S_TEAM + seat] != team and any(
                    kk.beats(ranking, chosen, c, card) for c in _cards(int(state[kk.S_HANDS + seat]))):
                return True
        return False

    def cheapest_safe(candidates):
        safe = [c for c in candidates if not opponents_beat(c)]
        return min(safe, key=lambda c: (strength(c), c)) if safe else -1

    if count == 0:
        sevens = [c for c in _cards(cards) if kk.DEFENCE[chosen, c] >= kk.UNBEATABLE]
        if sevens:
            return sevens[0]
        free = cheapest_safe(_cards(cards))
        if free >= 0:
            return free
        aces = [c for c in _cards(cards) if c % kk.NUM_RANKS == kk.RANK_A and not chosen >> (c // kk.NUM_RANKS) & 1]
        return aces[0] if aces else weakest()
    trick = [int(state[kk.S_TRICK_CARD + i]) for i in range(count)]
    position = 0
    for i in range(1, count):
        if kk.beats(ranking, chosen, trick[i], trick[position]):
            position = i
    winner = trick[position]
    partner_wins = state[kk.S_TEAM + state[kk.S_TRICK_SEAT + position]] == state[kk.S_TEAM + me]
    if partner_wins and not opponents_beat(winner):
        return weakest()
    best = cheapest_safe([c for c in _cards(cards) if kk.beats(ranking, chosen, c, winner)])
    return best if best >= 0 else weakest()


@pytest.mark.parametrize("config", [{}, {"variant": "hattstedt"}, {"variant": "bernhard1924"}, {"players": 5}],
                         ids=["bohmstedt", "hattstedt", "bernhard1924", "players5"])
def test_choose_card_is_the_plain_heuristic(config):
    params = kk.make_params(**config)
    rng = make_rng(11)
    choice = np.random.default_rng(11)
    checked = 0
    while checked < 150:
        state = np.zeros(kk.STATE_SIZE, dtype=np.int64)
        kk.deal_random(state, params, rng)
        for _ in range(int(choice.integers(0, 60))):
            if state[kk.S_SEAT_TO_ACT] < 0:
                break
            kk.apply_action(state, kk.random_legal_action(state, rng))
        if state[kk.S_SEAT_TO_ACT] < 0 or state[kk.S_PHASE] != kk.PHASE_PLAY:
            continue
        me = int(state[kk.S_SEAT_TO_ACT])
        hand = int(state[kk.S_HANDS + me])
        assert kp.choose_card(state, me, hand) == _plain_choose_card(state, me, hand)
        checked += 1
