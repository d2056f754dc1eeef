"""The exact partner posterior of Bavarian Rufer and Asserufen against brute force (every deal replayed
through the env), a Monte Carlo check where brute force is out of reach, and the rules' own reveals."""

from __future__ import annotations

import math

import numpy as np
import pytest

from signalling.deal_counting import distribute, distribute_reference
from signalling.partners import (
    certainty_point,
    certainty_trick,
    hand_summary,
    holder_counts,
    knowledge,
    partner_timeline,
    posterior,
)
from tests.signalling.helpers import brute_force_holder_counts, play_hand, sampled_holder_frequencies
from trick_core.registry import make_env

MIXED = ["rules", "random", "rules", "random"]


def ace_call_hands(game: str, agents, count: int, start: int = 0):
    """The first ``count`` (record, hand) pairs of seeds ``start``.. that are ace-call games."""
    found = []
    seed = start
    while len(found) < count:
        record = play_hand(game, agents, seed)
        hand = partner_timeline(record)
        if hand is not None:
            found.append((record, hand))
        seed += 1
        assert seed < start + 800, "too few ace-call games"
    return found


def late_uncertain_position(hand, viewer, most_unseen: int):
    """The latest point at which ``viewer`` does not yet know the holder, with few unseen cards."""
    for point in range(len(hand.plays), -1, -1):
        know = knowledge(hand, point, viewer)
        if len(know.unseen) > most_unseen:
            return None
        counts = holder_counts(hand, point, viewer)
        if know.known_holder is None and sum(1 for c in counts if c) >= 2:
            return point
    return None


@pytest.mark.parametrize(("game", "start"), [("bavarian", 0), ("asserufen", 0)])
def test_exact_counts_equal_brute_force(game, start):
    checked = 0
    for record, hand in ace_call_hands(game, MIXED, 20, start):
        for viewer in (None, hand.declarer, *[s for s in range(4) if s not in (hand.declarer, hand.holder)]):
            point = late_uncertain_position(hand, viewer, most_unseen=8)
            if point is None:
                continue
            assert holder_counts(hand, point, viewer) == brute_force_holder_counts(record, hand, point, viewer)
            checked += 1
            break
        if checked == 3:
            break
    assert checked == 3


def test_compiled_count_equals_the_plain_recursion():
    rng = np.random.default_rng(0)
    for _ in range(60):
        capacity = tuple(int(c) for c in rng.integers(0, 5, 4))
        cards = sum(capacity)
        groups, left = [], cards
        while left:
            size = int(rng.integers(1, left + 1))
            seats = tuple(s for s in range(4) if rng.random() < 0.75) or (int(rng.integers(4)),)
            groups.append((size, seats, bool(rng.random() < 0.3)))
            left -= size
        seat, need = int(rng.integers(4)), int(rng.integers(0, 4))
        groups = tuple(groups)
        assert distribute(groups, capacity, seat, need) == distribute_reference(groups, capacity, seat, need)
        assert distribute(groups, capacity, None, 0) == distribute_reference(groups, capacity, None, 0)


@pytest.mark.parametrize("game", ["bavarian", "asserufen"])
def test_early_posterior_matches_sampled_deals(game):
    # before the first card brute force is out of reach: uniformly drawn deals, kept when the env replays
    # the bidding and the call legally, must reproduce the exact probabilities
    record, hand = ace_call_hands(game, ["rules"] * 4, 1)[0]
    know = knowledge(hand, 0, None)
    total = math.factorial(len(know.unseen))
    for free in know.capacity:
        total //= math.factorial(free)
    exact = [count / total for count in holder_counts(hand, 0, None)]
    accepted, drawn = sampled_holder_frequencies(record, hand, 0, None, samples=1500, seed=1)
    for seat in range(4):
        sigma = math.sqrt(max(exact[seat] * (1 - exact[seat]), 1e-4) / drawn)
        assert abs(accepted[seat] / drawn - exact[seat]) < 4.5 * sigma


@pytest.mark.parametrize("game", ["bavarian", "asserufen"])
def test_posterior_is_certain_once_the_env_declares_the_partner(game):
    for _record, hand in ace_call_hands(game, MIXED, 5):
        assert posterior(hand, 0)[hand.declarer] == 0.0
        assert sum(posterior(hand, 0)) == pytest.approx(1.0)
        reveal = hand.public_reveal
        assert reveal is not None
        assert posterior(hand, reveal) == [1.0 if s == hand.holder else 0.0 for s in range(4)]
        public = certainty_point(hand, None)
        assert public <= reveal  # reasoning is never slower than the rules' own announcement
        assert certainty_point(hand, hand.declarer) <= public  # a seat knows at least what the public knows
        assert certainty_point(hand, hand.holder) == 0


def test_summary_reports_every_view_and_trajectories():
    _record, hand = ace_call_hands("bavarian", ["rules"] * 4, 1)[0]
    summary = hand_summary(hand)
    assert set(summary["certain_at"]) == {"public", "declarer", "defender_0", "defender_1", "partner"}
    trajectory = summary["posterior_on_holder"]["public"]
    assert trajectory[0] == pytest.approx(1 / 3, abs=0.2)  # three seats may hold the ace before any card
    assert trajectory[len(hand.plays)] == 1.0
    assert list(trajectory) == sorted(trajectory)


def test_certainty_trick_numbering():
    assert [certainty_trick(p) for p in (None, 0, 1, 4, 5, 32)] == [None, 0, 1, 1, 2, 8]


def test_a_double_tells_which_side_its_author_is_on():
    """Asserufen: a contra comes from an opponent of the declarer (who then cannot hold the called card), a
    re after it from the declarer's side (a re by a seat other than the declarer names the partner). Every
    double by a non-declarer in the hands is checked, and both kinds must occur among them."""
    seen = {True: 0, False: 0}
    for _record, hand in ace_call_hands("asserufen", MIXED, 30):
        for cards_before, seat, declarer_side in hand.sides:
            if seat == hand.declarer:
                continue
            after = posterior(hand, cards_before)
            assert after[seat] == (1.0 if declarer_side else 0.0)
            assert declarer_side == (seat == hand.holder)  # the env's own partner: the parse read the side right
            seen[declarer_side] += 1
    assert seen[True] and seen[False], seen


def test_only_ace_call_games_are_parsed():
    record = play_hand("knuffeln", ["random"] * 4, 0)
    with pytest.raises(ValueError, match="hidden partners"):
        partner_timeline(record)
    env = make_env("bavarian")
    env.reset(options={"dealer": 3, "hands": {
        "player_0": ["EO", "GO", "HO", "SO", "EU", "GU", "HU", "SU"],
        "player_1": ["EA", "E10", "EK", "E9", "E8", "E7", "GA", "G10"],
        "player_2": ["GK", "G9", "G8", "G7", "HA", "H10", "HK", "H9"],
        "player_3": ["H8", "H7", "SA", "S10", "SK", "S9", "S8", "S7"]}})
    env.step(env.unwrapped.string_to_action("sie"))  # a Sie ends the hand at once: no partner to find
    assert partner_timeline(env.unwrapped.game_record()) is None


def test_bad_points_and_viewers_are_rejected():
    _record, hand = ace_call_hands("bavarian", ["rules"] * 4, 1)[0]
    with pytest.raises(ValueError, match="point"):
        posterior(hand, 33)
    with pytest.raises(ValueError, match="viewer"):
        posterior(hand, 0, viewer=4)
