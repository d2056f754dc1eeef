"""The duplicate seating schemes are fair: each agent holds each seat equally often, and swapping the
two agents maps the set of seatings onto itself."""

import itertools

import pytest

from agents.arena import agent_labels
from agents.seatings import PASSIVE, balanced_seatings, seatings_for

CASES = [("knuffeln", 4), ("knuffeln", 5), ("bavarian", 4), ("asserufen", 4), ("palatinate", 3), ("palatinate", 4)]


@pytest.mark.parametrize(("game", "seats"), CASES)
def test_every_scheme_is_balanced_and_swap_closed(game, seats):
    for dealer in range(seats):
        _, seatings = seatings_for(game, seats, dealer)
        assert len(set(seatings)) == len(seatings)
        for seat in range(seats):
            held = [seating[seat] for seating in seatings]
            assert held.count(0) == held.count(1)
        assert sum(s.count(0) for s in seatings) == sum(s.count(1) for s in seatings)
        swapped = {tuple(PASSIVE if x is PASSIVE else 1 - x for x in seating) for seating in seatings}
        assert swapped == set(seatings)


def test_knuffeln_agents_play_as_whole_teams():
    _, seatings = seatings_for("knuffeln", 4, dealer=2)
    assert seatings == [(0, 1, 0, 1), (1, 0, 1, 0)]
    for dealer in range(5):
        _, five = seatings_for("knuffeln", 5, dealer)
        assert len(five) == 4
        for seating in five:
            others = [seating[(dealer + k) % 5] for k in range(1, 5)]
            assert others[0] == others[2] != others[1] == others[3]
        assert {seating[dealer] for seating in five} == {0, 1}


def test_schafkopf_four_seats_uses_every_two_against_two_split():
    _, seatings = seatings_for("bavarian", 4, dealer=0)
    assert sorted(seatings) == sorted(
        tuple(0 if seat in pair else 1 for seat in range(4)) for pair in itertools.combinations(range(4), 2)
    )
    # any two seats are held by the same agent in 2 of the 6 seatings
    for a, b in itertools.combinations(range(4), 2):
        assert sum(s[a] == s[b] for s in seatings) == 2


def test_palatinate_four_players_leaves_the_dealer_seat_to_nobody():
    for dealer in range(4):
        scheme, seatings = seatings_for("palatinate", 4, dealer)
        assert scheme == "balanced-active-seats" and len(seatings) == 6
        assert all(seating[dealer] is PASSIVE for seating in seatings)
        assert all(sum(x is PASSIVE for x in seating) == 1 for seating in seatings)


def test_three_seats_give_every_non_constant_seating():
    assert len(balanced_seatings([0, 1, 2], 3)) == 6
    assert len(balanced_seatings([0, 1, 2, 3, 4], 5)) == 30


def test_repeated_agents_get_distinct_labels():
    assert agent_labels(["random", "random", "pimc", "random"]) == ["random", "random#2", "pimc", "random#3"]
