"""The settlement of a finished Asserufen hand, row by row (``docs/rules/palatinate_schafkopf.md``, 3.6 Score:
game, schneider, schwarz, with or without from three, the hearts point, Du, doublings), on the kernel and on
the plain-Python reference alike. The worked source examples are in ``test_rules.py``."""

import numpy as np
import pytest

from schafkopf_env.asserufen import kernel as K
from schafkopf_env.asserufen.reference import CARD_POINTS, AsserufenReference, all_cards, rank_of
from trick_core.cards import FRENCH_32


def finished_state(contract, side_points, side_tricks, side_cards, doublings=0, du_lost=0, trump=2):
    """A finished hand: declarer player_1, in an ace-call game partner player_2; the declarer's side held
    ``side_cards`` at the start (``"CQ"`` alone: a run of one, no hoch)."""
    state = np.zeros(K.STATE_SIZE, dtype=np.int64)
    K.init_state(state, K.make_params(), 0, np.arange(32))
    side = [1, 2] if contract == K.CONTRACT_ACE_CALL else [1]
    others = [s for s in range(4) if s not in side]
    state[K.S_CONTRACT], state[K.S_DECLARER], state[K.S_PARTNER] = contract, 1, 2 if contract == 1 else -1
    state[K.S_TRUMP_KIND] = trump
    state[K.S_PHASE], state[K.S_SEAT_TO_ACT] = K.PHASE_OVER, -1
    state[K.S_DOUBLINGS], state[K.S_DU_LOST] = doublings, du_lost
    for seats, points, tricks in ((side, side_points, side_tricks), (others, 120 - side_points, 8 - side_tricks)):
        state[K.S_POINTS + seats[0]] = points
        state[K.S_TRICKS_WON + seats[0]] = tricks
    side_mask = FRENCH_32.mask_of(side_cards.split())
    for seat in range(4):
        state[K.S_DEALT_HANDS + seat] = side_mask if seat == 1 else 0
    return state


AC, SOLO, HSOLO, DU, HDU = (
    K.CONTRACT_ACE_CALL,
    K.CONTRACT_SOLO,
    K.CONTRACT_HEART_SOLO,
    K.CONTRACT_SOLO_DU,
    K.CONTRACT_HEART_SOLO_DU,
)
VALUE_CASES = [
    # contract, side points, side tricks, side's cards at the start, doublings, du lost, trump, expected units
    (AC, 61, 4, "CQ", 0, 0, 2, [-1, 1, 1, -1], "61 wins"),
    (AC, 60, 4, "CQ", 0, 0, 2, [1, -1, -1, 1], "60 is not enough"),
    (AC, 90, 6, "CQ", 0, 0, 2, [-1, 1, 1, -1], "90: opponents have 30, out of schneider"),
    (AC, 91, 6, "CQ", 0, 0, 2, [-2, 2, 2, -2], "91: schneider"),
    (AC, 30, 2, "CQ", 0, 0, 2, [1, -1, -1, 1], "30 is out of schneider"),
    (AC, 29, 2, "CQ", 0, 0, 2, [2, -2, -2, 2], "29: the declarer's side is schneider"),
    (AC, 120, 8, "CQ", 0, 0, 2, [-3, 3, 3, -3], "schwarz"),
    (AC, 120, 7, "CQ", 0, 0, 2, [-2, 2, 2, -2], "all points but not all tricks: schneider only"),
    (AC, 0, 0, "CQ", 0, 0, 2, [3, -3, -3, 3], "the declarer's side schwarz"),
    (AC, 70, 5, "CQ SQ HQ", 0, 0, 2, [-4, 4, 4, -4], "with 3, no hearts point in the ace-call game"),
    (AC, 70, 5, "CQ SQ", 0, 0, 2, [-1, 1, 1, -1], "with 2 does not count"),
    (AC, 70, 5, "DQ CJ", 0, 0, 2, [-4, 4, 4, -4], "without 3: the opponents held CQ SQ HQ"),
    (AC, 70, 5, "SJ HJ", 0, 0, 2, [-6, 6, 6, -6], "without 5: highest trump SJ"),
    (AC, 70, 5, "CQ", 2, 0, 2, [-4, 4, 4, -4], "contra and re: x4"),
    (SOLO, 70, 5, "CQ", 0, 0, 1, [-1, 3, -1, -1], "solo: no solo point, declarer gets three times"),
    (SOLO, 50, 3, "CQ", 1, 0, 1, [2, -6, 2, 2], "lost solo with contra"),
    (HSOLO, 70, 5, "CQ", 0, 0, 2, [-2, 6, -2, -2], "heart solo: hearts point"),
    (HSOLO, 70, 5, "CQ SQ HQ DQ CJ SJ HJ DJ HA H10 HK H9 H8 H7", 0, 0, 2, [-16, 48, -16, -16], "with 14"),
    (SOLO, 70, 5, "CQ SQ HQ DQ CJ SJ HJ DJ SA S10 SK S9", 0, 0, 1, [-13, 39, -13, -13], "spade solo, with 12"),
    (DU, 120, 8, "CQ", 0, 0, 3, [-6, 18, -6, -6], "won Solo Du: (1 + schneider + schwarz) x 2"),
    (HDU, 120, 8, "CQ", 0, 0, 2, [-8, 24, -8, -8], "won Heart Solo Du: (1 + 1 + 1 + 1) x 2"),
    (DU, 0, 0, "CQ", 0, 1, 3, [6, -18, 6, 6], "lost Solo Du still counts schneider and schwarz"),
    (DU, 20, 1, "CQ", 0, 1, 3, [6, -18, 6, 6], "lost after winning a trick"),
    (HDU, 120, 8, "CQ", 1, 0, 2, [-16, 48, -16, -16], "doubled Du"),
]


@pytest.mark.parametrize(
    ("contract", "points", "tricks", "cards", "doublings", "du_lost", "trump", "expected", "why"), VALUE_CASES
)
def test_values(contract, points, tricks, cards, doublings, du_lost, trump, expected, why):
    state = finished_state(contract, points, tricks, cards, doublings, du_lost, trump)
    out = np.zeros(4)
    K.settlement(state, out)
    assert out.tolist() == expected, why
    assert out.sum() == 0
    reference = finished_reference(contract, points, tricks, cards, doublings, du_lost, trump)
    assert reference.settlement() == expected, f"reference: {why}"


REFERENCE_CONTRACTS = {AC: "ace_call", SOLO: "solo", HSOLO: "heart_solo", DU: "solo_du", HDU: "heart_solo_du"}


def cards_worth(points: int) -> list[str]:
    """Some cards worth exactly ``points`` card points (a subset sum over the pack)."""
    ways: dict[int, list[str]] = {0: []}
    for card in all_cards():
        ways |= {total + CARD_POINTS[rank_of(card)]: [*cards, card] for total, cards in ways.items()
                 if total + CARD_POINTS[rank_of(card)] not in ways}
    assert points in ways, f"no cards worth {points}"
    return ways[points]


def finished_reference(contract, side_points, side_tricks, side_cards, doublings=0, du_lost=0, trump=2):
    """The hand of ``finished_state`` on the reference: declarer player_1 (partner player_2 in an ace-call
    game) held ``side_cards``, the side took ``side_points`` card points in ``side_tricks`` tricks."""
    hand = AsserufenReference(0, [[] for _ in range(4)])
    hand.contract, hand.declarer, hand.trump_suit = REFERENCE_CONTRACTS[contract], 1, "CSHD"[trump]
    hand.partner = 2 if contract == AC else None
    hand.dealt[1] = side_cards.split()
    hand.doublings, hand.lost_du, hand.phase = doublings, bool(du_lost), "over"
    side_taken = cards_worth(side_points)
    hand.taken = [[], side_taken, [], [c for c in all_cards() if c not in side_taken]]
    hand.tricks = [([], 1 if index < side_tricks else 3) for index in range(8)]
    return hand
