"""Table-driven tests of every rule and pin of ``docs/rules/bavarian_schafkopf.md``.

Each scenario runs on both implementations: the kernel (through ``bavarian_v0``) and the plain-Python
reference. Expected values are worked out by hand from the rules file, in the comments beside them.
"""

from __future__ import annotations

import numpy as np
import pytest

from schafkopf_env import bavarian_v0
from schafkopf_env.bavarian import kernel, reference
from schafkopf_env.trumps import CARD_POINTS, TRUMP_WENZ, trick_winner_index
from trick_core.cards import GERMAN_32


def full_deal(*hands: str) -> list[list[str]]:
    """Hands written as space-separated cards; a missing fourth hand gets the eight cards left over."""
    parsed = [hand.split() for hand in hands]
    if len(parsed) == 3:
        used = {card for hand in parsed for card in hand}
        parsed.append([card for card in reference.PACK if card not in used])
    assert [len(hand) for hand in parsed] == [8, 8, 8, 8]
    return parsed


class KernelTable:
    """The kernel, driven through the PettingZoo env."""

    def __init__(self, hands, dealer: int = 3) -> None:
        self.env = bavarian_v0.raw_env()
        self.env.reset(options={"dealer": dealer, "hands": {f"player_{s}": hands[s] for s in range(4)}})

    def to_act(self):
        return None if self.env._current_seat() < 0 else self.env._current_seat()

    def legal(self) -> set[str]:
        return set(self.env.legal_action_strings())

    def play(self, *actions: str) -> None:
        for action in actions:
            assert action in self.legal(), f"{action} not legal; legal: {sorted(self.legal())}"
            self.env.step(self.env.string_to_action(action))

    def is_over(self) -> bool:
        return self.env._current_seat() < 0

    def settlement(self) -> list[float]:
        return [self.env._cumulative_rewards[a] for a in self.env.possible_agents]

    def trick_winners(self) -> list[int]:
        return [int(t["winner"][-1]) for t in self.env.state()["tricks"]]


class ReferenceTable:
    """The plain-Python reference."""

    def __init__(self, hands, dealer: int = 3) -> None:
        self.game = reference.BavarianGame(dealer, hands)

    def to_act(self):
        return self.game.to_act

    def legal(self) -> set[str]:
        return set(self.game.legal_actions())

    def play(self, *actions: str) -> None:
        for action in actions:
            self.game.play(action)

    def is_over(self) -> bool:
        return self.game.is_over()

    def settlement(self) -> list[float]:
        return self.game.settlement()

    def trick_winners(self) -> list[int]:
        return [t["winner"] for t in self.game.completed_tricks]


@pytest.fixture(params=[KernelTable, ReferenceTable], ids=["kernel", "reference"])
def table(request):
    return request.param


# ---------------------------------------------------------------- 1. cards, 2. deal
def test_pack_has_32_cards_and_120_points():
    assert len(reference.PACK) == 32 and reference.card_points(reference.PACK) == 120
    assert int(CARD_POINTS.sum()) == 120
    assert [GERMAN_32.name_of(i) for i in range(32)] == list(reference.PACK)
    assert kernel.ACTION_NAMES[:32] == reference.PACK


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_forehand_bids_first_and_leads_the_first_trick(table, dealer):
    hands = full_deal("EO GO HO HA H10 E9 G9 S9", "SO EU GU HK G10 GK S10 SK", "EA EK E8 HU SU H9 GA SA")
    game = table(hands, dealer)
    forehand = (dealer + 1) % 4
    assert game.to_act() == forehand
    order = []
    for _ in range(4):
        order.append(game.to_act())
        game.play("wenz" if game.to_act() == 2 else "pass")
    assert order == [forehand, (forehand + 1) % 4, (forehand + 2) % 4, (forehand + 3) % 4]
    assert game.to_act() == forehand  # the Wenz needs no call or trump: forehand leads at once


# ---------------------------------------------------------------- 3. bidding
HAND_A = full_deal("EO GO HO HA H10 E9 G9 S9", "SO EU GU HK G10 GK S10 SK", "EA EK E8 HU SU H9 GA SA")
# player_3 gets E10 E7 G8 G7 H8 H7 S8 S7


@pytest.mark.parametrize(
    "earlier_bids, expected",
    [
        ([], {"pass", "rufer", "wenz", "solo", "wenz_tout", "solo_tout"}),
        (["pass", "rufer", "pass"], {"pass", "wenz", "solo", "wenz_tout", "solo_tout"}),  # strictly higher
        (["pass", "wenz"], {"pass", "solo", "wenz_tout", "solo_tout"}),
        (["solo"], {"pass", "wenz_tout", "solo_tout"}),
        (["pass", "pass", "solo_tout"], {"pass"}),  # nothing higher but a Sie, which needs O+U
    ],
)
def test_a_later_seat_must_bid_strictly_higher(table, earlier_bids, expected):
    # player_3 holds E10 E7 G8 G7 H8 H7 S8 S7: calls E? holds E10, not EA -> yes; solo: yes
    dealer = (3 - len(earlier_bids) - 1) % 4  # so that player_3 bids after the earlier bids
    game = table(HAND_A, dealer)
    game.play(*earlier_bids)
    assert game.to_act() == 3
    assert game.legal() == expected


def test_four_passes_throw_the_hand_in(table):
    game = table(HAND_A)
    game.play("pass", "pass", "pass", "pass")
    assert game.is_over() and game.legal() == set()
    assert list(game.settlement()) == [0, 0, 0, 0]


def test_the_highest_bid_wins_and_forehand_leads(table):
    game = table(HAND_A)
    game.play("rufer", "wenz", "pass", "pass")  # player_1's Wenz beats player_0's Rufer
    assert game.to_act() == 0  # a Wenz needs no choice; forehand leads
    assert game.legal() == set(HAND_A[0])  # forehand may lead anything


@pytest.mark.parametrize(
    "hand, may_rufer",
    [
        ("EA GA SA HO HU H9 H8 H7", False),  # holds all three callable aces
        ("EA EO GO HO HA H10 HK H9", False),  # no plain card of G or S; holds EA
        ("EO EU GO GU SO SU HA H10", False),  # Obers and Unters are no plain cards of their suits
        ("EA E10 GO GU SO SU HA H10", False),  # E: holds the ace; G and S: only trumps
        ("EA E10 G7 GO SO SU HA H10", True),  # calls G with G7
    ],
)
def test_rufer_needs_a_legal_call(table, hand, may_rufer):
    game = table(full_deal(*_three_around(hand)))
    assert ("rufer" in game.legal()) == may_rufer


def _three_around(hand: str) -> list[str]:
    """``hand`` for player_0 and the other cards dealt in order to players 1 and 2 (3 gets the rest)."""
    cards = hand.split()
    rest = [card for card in reference.PACK if card not in cards]
    return [hand, " ".join(rest[:8]), " ".join(rest[8:16])]


@pytest.mark.parametrize(
    "hand, calls",
    [
        ("E9 G9 S9 EO GO HO HA H10", {"call:E", "call:G", "call:S"}),
        ("EA G9 S9 EO GO HO HA H10", {"call:G", "call:S"}),  # not the ace one holds
        ("E9 GO SO EO GU HO HA H10", {"call:E"}),  # GO and SO are trumps, no plain G or S
        ("EA E9 G9 GA SU SO HA H10", set()),  # S has only trumps: no call, so no Rufer
    ],
)
def test_called_ace_must_not_be_held_and_its_suit_must_be(table, hand, calls):
    game = table(full_deal(*_three_around(hand)))
    if not calls:
        assert "rufer" not in game.legal()
        return
    game.play("rufer", "pass", "pass", "pass")
    assert game.to_act() == 0
    assert game.legal() == calls  # hearts are trumps: "call:H" does not exist


@pytest.mark.parametrize(
    "hand, trumps",
    [
        ("E9 G9 S9 EO GO HO HA H10", {"trump:E", "trump:G", "trump:H", "trump:S"}),
        ("E9 EA EO GO HO SO GU SU", {"trump:E"}),  # only acorns has plain cards
        ("HA H10 EO GO SO EU GU SU", {"trump:H"}),
    ],
)
def test_solo_trump_suit_needs_a_plain_card_of_it(table, hand, trumps):
    for contract in ("solo", "solo_tout"):
        game = table(full_deal(*_three_around(hand)))
        game.play(contract, "pass", "pass", "pass")
        assert game.legal() == trumps


SIE_HAND = "EO GO HO SO EU GU HU SU"


def test_sie_hand_may_bid_only_what_needs_no_plain_card(table):
    game = table(full_deal(*_three_around(SIE_HAND)))
    assert game.legal() == {"pass", "wenz", "wenz_tout", "sie"}  # no Rufer call, no Solo suit


def test_sie_needs_all_obers_and_unters(table):
    game = table(full_deal(*_three_around("EO GO HO SO EU GU HU HA")))
    assert "sie" not in game.legal()


@pytest.mark.parametrize("dealer, sie_seat", [(3, 0), (0, 2), (2, 1)])
def test_sie_wins_at_once_for_52_units_times_three(table, dealer, sie_seat):
    hands = full_deal(*_three_around(SIE_HAND))
    hands[0], hands[sie_seat] = hands[sie_seat], hands[0]
    game = table(hands, dealer)
    while game.to_act() != sie_seat:
        game.play("pass")
    assert "sie" in game.legal()
    game.play("sie")
    assert game.is_over()  # no play, and nobody could bid higher
    expected = [-52] * 4
    expected[sie_seat] = 156  # 20 + 8 Laufende x 4 = 52, three times for the declarer
    assert list(game.settlement()) == expected


def test_sie_may_still_outbid_a_solo_tout(table):
    hands = full_deal(*_three_around(SIE_HAND))
    hands[0], hands[1] = hands[1], hands[0]  # player_1 holds the Sie, player_0 bids first
    game = table(hands)
    game.play("solo_tout")
    assert game.legal() == {"pass", "sie"}


# ---------------------------------------------------------------- 4. trick winners
@pytest.mark.parametrize(
    "contract, trump_suit, cards, winner",
    [
        ("rufer", "H", "EA EO E10 EK", 1),  # an Ober trumps
        ("rufer", "H", "E9 E10 EK E7", 1),  # plain suit: A 10 K 9 8 7
        ("rufer", "H", "E9 GA EK E7", 2),  # a card off the suit led never wins
        ("rufer", "H", "HA H10 SU EO", 3),  # Ober > Unter > hearts
        ("rufer", "H", "SU HU GU EU", 3),  # Unters E > G > H > S
        ("rufer", "H", "SO EU HA GO", 3),  # Obers E > G > H > S
        ("rufer", "H", "H7 HA H10 HK", 1),  # hearts A 10 K 9 8 7 as trumps
        ("rufer", "H", "EU HO GA SO", 1),  # any Ober beats any Unter
        ("wenz", None, "EK EO EA E9", 2),  # Wenz: the Ober is a plain card ...
        ("wenz", None, "EO EK E9 E8", 1),  # ... ranking A 10 K O 9 8 7
        ("wenz", None, "EO E9 HO E8", 0),  # the Ober of hearts is a heart, not a trump
        ("wenz", None, "EA SU GO E10", 1),  # Unters are the only trumps
        ("wenz", None, "HA H10 SU GU", 3),  # Unters E > G > H > S
        ("solo", "G", "GA HO G10 EU", 1),
        ("solo", "G", "HA H10 G7 HK", 2),  # the lowest trump still trumps
        ("solo", "G", "EU GU GA HO", 3),
        ("solo", "E", "E7 EA SO SU", 2),
        ("solo", "S", "HA H9 HK H10", 0),
        ("solo", "H", "G9 GK GA G10", 2),
    ],
)
def test_trick_winner(contract, trump_suit, cards, winner):
    cards = cards.split()
    assert reference.Trumps(contract, trump_suit).trick_winner(cards) == winner
    kind = TRUMP_WENZ if contract == "wenz" else "EGHS".index(trump_suit)
    indices = np.array([GERMAN_32.parse(c) for c in cards], dtype=np.int64)
    assert trick_winner_index(kind, indices, 4) == winner


def test_follow_the_effective_suit_in_a_rufer(table):
    # player_3 holds E10 E7 G8 G7 H8 H7 S8 S7
    game = table(HAND_A)
    game.play("rufer", "pass", "pass", "pass", "call:E")
    game.play("H10")  # a trump lead: player_1 must follow with a trump, Obers and Unters included
    assert game.legal() == {"SO", "EU", "GU", "HK"}
    game.play("SO")
    assert game.legal() == {"HU", "SU", "H9"}
    game.play("H9")
    assert game.legal() == {"H8", "H7"}


def test_obers_follow_their_suit_in_a_wenz(table):
    hands = full_deal("EO E9 GO HO HA H10 G9 S9", "SO EU GU HK G10 GK S10 SK", "EA EK E8 HU SU H9 GA SA")
    game = table(hands)
    game.play("pass", "pass", "wenz", "pass")
    assert game.to_act() == 0
    game.play("E9")
    # player_1: no acorns (EU is a trump in a Wenz): free to play anything, no obligation to trump
    assert game.legal() == set(hands[1])
    game.play("SO")
    assert game.legal() == {"EA", "EK", "E8"}
    game.play("EA", "E10")
    assert game.trick_winners() == [2]
    game.play("EK", "E7")
    assert game.legal() == {"EO"}  # in a Wenz the Ober of acorns is an acorn and must follow


def test_no_obligation_to_beat_or_to_trump(table):
    game = table(HAND_A)
    game.play("pass", "pass", "pass", "solo", "trump:S")  # player_3 plays a Solo with bells trumps
    game.play("E9")  # player_1 has no acorns: may trump (SO EU GU S10 SK) or throw anything
    assert game.legal() == set(HAND_A[1])
    game.play("G10")
    assert game.legal() == {"EA", "EK", "E8"}  # must follow, need not beat
    game.play("E8")


def test_winner_leads_the_next_trick(table):
    game = table(HAND_A)
    game.play("rufer", "pass", "pass", "pass", "call:E")
    game.play("H10", "HK", "HU", "H7")  # HU wins (an Unter over hearts)
    assert game.trick_winners() == [2]
    assert game.to_act() == 2


# ---------------------------------------------------------------- 4. the called ace
def test_called_ace_must_fall_when_its_suit_is_led_even_if_trumped(table):
    game = table(HAND_A)
    game.play("rufer", "pass", "pass", "pass", "call:E")  # player_2 holds EA EK E8
    game.play("E9", "HK")  # player_1 has no acorns and trumps
    assert game.legal() == {"EA"}  # the ace must fall, although EK and E8 also follow
    game.play("EA")
    assert game.legal() == {"E10", "E7"}  # the others only follow suit
    game.play("E10")
    assert game.trick_winners() == [1]


def test_called_ace_may_not_be_discarded_before_its_suit_is_led(table):
    # player_2 holds the called ace and is void in bells
    hands = full_deal("EO GO HO HA H10 E9 G9 S9", "SO EU GU HK G10 GK S10 SK", "EA EK HU SU H9 GA G8 G7")
    game = table(hands)
    game.play("rufer", "pass", "pass", "pass", "call:E")
    game.play("S9")
    assert game.legal() == {"S10", "SK"}
    game.play("SK")
    assert game.legal() == {"EK", "HU", "SU", "H9", "GA", "G8", "G7"}  # anything but the called ace


def test_holder_leading_the_called_suit_must_lead_the_ace(table):
    game = table(HAND_A)
    game.play("rufer", "pass", "pass", "pass", "call:E")
    game.play("H10", "HK", "HU", "H7")  # player_2 wins and leads; holds EA EK E8 (only two others)
    assert game.to_act() == 2
    assert game.legal() == {"EA", "SU", "H9", "GA", "SA"}  # EK, E8 only after the ace


RUN_AWAY = full_deal("EO GO HO HA H10 E9 G9 S9", "SO EU GU HK G10 GK S10 SK", "EA E10 EK E8 HU SU H9 GA")
# player_3 gets E7 G8 G7 H8 H7 SA S8 S7


def test_holder_with_three_more_of_the_suit_may_run_away_and_the_ace_is_then_free(table):
    game = table(RUN_AWAY)
    game.play("rufer", "pass", "pass", "pass", "call:E")
    game.play("H10", "HK", "HU", "H7")
    assert game.to_act() == 2
    assert game.legal() == {"EA", "E10", "EK", "E8", "SU", "H9", "GA"}  # ace + 3 others: may run away
    game.play("E8")  # runs away
    assert game.legal() == {"E7"}
    game.play("E7", "E9")
    assert game.legal() == set("SO EU GU G10 GK S10 SK".split())  # void in acorns
    game.play("G10")
    assert game.trick_winners() == [2, 0]  # E9 is the highest acorn
    game.play("S9")  # bells led: player_1 follows, player_2 is void ...
    game.play("SK")
    assert game.legal() == {"EA", "E10", "EK", "SU", "H9", "GA"}  # ... and may now discard the ace


def test_restrictions_end_when_the_first_called_suit_trick_is_complete(table):
    # player_2: EA + E10 EK E8; player_0 leads acorns first: the ace falls, then everything is free
    game = table(RUN_AWAY)
    game.play("rufer", "pass", "pass", "pass", "call:E")
    game.play("E9", "HK")
    assert game.legal() == {"EA"}  # within that trick the holder must still play the ace
    game.play("EA", "E7")
    assert game.trick_winners() == [1]
    game.play("SK", "H9", "SA", "S9")  # player_1 leads bells; player_2 is void and trumps
    assert game.trick_winners() == [1, 2]
    assert game.legal() == {"E10", "EK", "E8", "HU", "SU", "GA"}  # leads acorns freely now


# The called ace kept to the end: the holder (player_1) has EA and seven trumps, acorns are never led.
LAST_CARD = full_deal(
    "EO GO HO SO EU GU E9 S9", "EA HA H10 HK H9 H8 H7 HU", "GA G10 GK G9 SA S10 SK SU", "E10 EK E8 E7 G8 G7 S8 S7"
)
LAST_CARD_PLAY = [
    # dealer 1: player_2 is forehand
    ("pass", "pass", "rufer", "pass", "call:E"),
    ("GA", "G8", "E9", "H7"),  # player_1 void in grass: must keep the ace -> trumps; wins
    ("H8", "SU", "G7", "EO"),
    ("S9", "H9", "SA", "S8"),
    ("HK", "G9", "E7", "GU"),
    ("SO", "H10", "S10", "S7"),
    ("EU", "HU", "SK", "E8"),
    ("HO", "HA", "GK", "EK"),
    ("GO", "EA", "G10", "E10"),  # the ace is player_1's last card: discarded at last
]


def test_called_ace_may_be_discarded_as_the_last_card(table):
    game = table(LAST_CARD, dealer=1)
    game.play(*LAST_CARD_PLAY[0])
    game.play("GA", "G8", "E9")
    assert game.legal() == {"HA", "H10", "HK", "H9", "H8", "H7", "HU"}  # not the ace
    game.play("H7")
    for trick in LAST_CARD_PLAY[2:-1]:
        game.play(*trick)
    game.play("GO")
    assert game.legal() == {"EA"}
    game.play("EA", "G10", "E10")
    assert game.trick_winners() == [1, 0, 1, 0, 0, 0, 0, 0]
    # declarer side (0 + 1) takes all eight tricks: Schwarz. Laufende: EO GO HO SO EU GU HU (SU is
    # player_2's) = 7. Value 1 + 2 + 7 = 10.
    assert list(game.settlement()) == [10, 10, -10, -10]


# player_1 holds the called ace with bells only; acorns are never led before its last two cards.
TWO_LEFT = full_deal("EO GO HO SO EU GU E9 S9", "EA SA S10 SK S8 S7 HA H10", "GA G10 GK G9 G8 G7 HK H9")
# player_3 gets E10 EK E8 E7 HU H8 H7 SU


def test_called_ace_may_not_be_discarded_with_two_cards_left(table):
    game = table(TWO_LEFT)
    game.play("rufer", "pass", "pass", "pass", "call:E")
    game.play("HO", "HA", "H9", "HU", "EU", "H10", "HK", "SU", "GU", "S10", "GA", "H7")  # player_0 wins all
    game.play("EO", "S7", "G8", "H8", "S9", "SK", "GK", "E10")  # player_1 wins the bells trick
    game.play("SA", "G10", "EK", "GO")  # player_0 trumps and leads trick 7
    assert game.trick_winners() == [0, 0, 0, 0, 1, 0]
    game.play("SO")
    assert game.legal() == {"S8"}  # void in trumps with EA S8 left: only the last card may be the ace


# ---------------------------------------------------------------- 3./5. Touts, Schwarz, settlement
STRONG = "EO GO HO SO EU GU HU HA"  # seven top trumps and the ace of hearts


def _play_out(game) -> None:
    """Declarer (player_0) leads its highest trumps; the others play their first legal card."""
    order = reference.trumps_high_to_low("solo", "H")
    while not game.is_over():
        legal = sorted(game.legal(), key=reference.PACK.index)
        if game.to_act() == 0:
            legal = sorted(legal, key=lambda c: order.index(c) if c in order else 99)
        game.play(legal[0])


@pytest.mark.parametrize(
    "contract, expected",
    [
        ("solo", [42, -14, -14, -14]),  # 5 + Schwarz 2 + 7 Laufende = 14, declarer x3
        ("solo_tout", [72, -24, -24, -24]),  # 10 + 7 x 2 = 24, no Schwarz in a Tout
    ],
)
def test_solo_schwarz_and_solo_tout_won(table, contract, expected):
    game = table(full_deal(*_three_around(STRONG)))
    game.play(contract, "pass", "pass", "pass", "trump:H")
    _play_out(game)
    assert game.trick_winners() == [0] * 8
    assert list(game.settlement()) == expected


def test_tout_ends_at_once_when_a_trick_is_lost(table):
    game = table(HAND_A)
    game.play("wenz_tout", "pass", "pass", "pass")
    game.play("E9", "EU", "EA", "E10")  # player_1 trumps with an Unter: the Tout is lost
    assert game.is_over() and game.trick_winners() == [1]
    # Laufende "without": player_0 holds no Unter, so 4; value 10 + 4 x 2 = 18
    assert list(game.settlement()) == [-54, 18, 18, 18]


# ---------------------------------------------------------------- 5. scoring tables
@pytest.mark.parametrize(
    "contract, points, tricks, laufende, tout_lost, won, value",
    [
        ("rufer", 61, 4, 0, False, True, 1),  # 61 wins
        ("rufer", 60, 4, 0, False, False, 1),  # 60 loses: the defenders need only 60
        ("rufer", 90, 6, 0, False, True, 1),
        ("rufer", 91, 6, 0, False, True, 2),  # Schneider: 91
        ("rufer", 31, 2, 0, False, False, 1),
        ("rufer", 30, 2, 0, False, False, 2),  # Schneider: the defenders reach 90
        ("rufer", 120, 8, 0, False, True, 3),  # Schwarz +2 instead of +1
        ("rufer", 0, 0, 0, False, False, 3),
        ("rufer", 0, 1, 0, False, False, 2),  # a trick without points is not Schwarz
        ("rufer", 120, 7, 3, False, True, 5),  # 1 + Schneider + 3 Laufende
        ("wenz", 61, 4, 2, False, True, 7),
        ("solo", 59, 4, 4, False, False, 9),  # Laufende count won or lost
        ("solo", 120, 8, 0, False, True, 7),
        ("wenz_tout", 120, 8, 2, False, True, 14),  # 10 + 2 x 2, no Schwarz
        ("solo_tout", 120, 8, 0, False, True, 10),
        ("solo_tout", 30, 3, 3, True, False, 16),
        ("wenz_tout", 0, 0, 0, True, False, 10),
        ("sie", 0, 0, 8, False, True, 52),
    ],
)
def test_scoring_table(contract, points, tricks, laufende, tout_lost, won, value):
    assert reference.score(contract, points, tricks, laufende, tout_lost) == (won, value)
    code = kernel.CONTRACT_NAMES.index(contract)
    assert kernel.contract_value(code, points, tricks, laufende, int(tout_lost)) == (won, value)


@pytest.mark.parametrize(
    "contract, trump_suit, side_cards, expected",
    [
        ("rufer", "H", "EO GO", 0),  # two: not counted in a Rufer
        ("rufer", "H", "EO GO HO", 3),
        ("rufer", "H", "EO GO HO EU", 3),  # SO missing: the run stops
        ("rufer", "H", "EU GU", 4),  # "without four": the others hold EO GO HO SO
        ("rufer", "H", "GO HO SO", 0),  # without one
        ("rufer", "H", "EO GO HO SO EU GU HU SU HA H10", 10),  # into the trump suit
        ("solo", "G", "EO GO HO SO EU GU HU SU GA G10 GK", 11),
        ("solo", "G", "EO GO HO SO EU GU HU SU GA G10 GK HA", 11),
        ("solo_tout", "E", "EO GO", 0),
        ("solo_tout", "E", "EO GO HO", 3),
        ("wenz", None, "EU", 0),
        ("wenz", None, "EU GU", 2),  # from two in a Wenz
        ("wenz", None, "HU SU", 2),  # without two
        ("wenz", None, "EO GO HO SO", 4),  # Obers do not count in a Wenz: without four Unters
        ("wenz_tout", None, "EU GU HU", 3),
        ("wenz_tout", None, "EU GU", 2),  # a Wenz Tout counts from two, as a Wenz does (B10)
        ("sie", None, "EO GO HO SO EU GU HU SU", 8),
    ],
)
def test_laufende(contract, trump_suit, side_cards, expected):
    cards = side_cards.split()
    assert reference.laufende(contract, trump_suit, cards) == expected
    code = kernel.CONTRACT_NAMES.index(contract)
    kind = TRUMP_WENZ if contract.startswith("wenz") or contract == "sie" else "EGHS".index(trump_suit)
    assert kernel.counted_laufende(code, kind, np.uint64(GERMAN_32.mask_of(cards))) == expected
