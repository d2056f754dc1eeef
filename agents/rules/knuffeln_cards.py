"""Card judgement of the rule-based Knüffeln player (``agents.rules.knuffeln``): which cards beat which
(section 4's attack/defence rule) and what each card is worth, as int bit-mask helpers and cached tables."""

from __future__ import annotations

from functools import cache

from knuffeln_env.knuffeln import kernel as K

ALL_CARDS = (1 << K.NUM_CARDS) - 1
OLE_MASK = K.OLE_MASK

OLE_WEIGHT = {K.H2: 1.0, K.C4: 0.95, K.S8: 0.9, K.H9: 0.85, K.D9: 0.8}
BEATER_WEIGHT = {6: 0.75, 5: 0.65, 4: 0.5, 3: 0.4, 2: 0.3, 1: 0.25}
"""Expected share of a trick a card brings (by attack value for the chosen beaters): hand strength."""


def popcount(mask: int) -> int:
    return mask.bit_count()


def cards_of(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low



@cache
def beaten_by_table(ranking: int, chosen: int) -> tuple[int, ...]:
    """For every card: the mask of cards that, played later, take over from it as provisional winner
    (section 4's attack/defence rule, from the kernel's tables)."""
    attack = K.ATTACK[chosen]
    defence = K.DEFENCE[chosen]
    suit_rank = K.SUIT_RANK[ranking, chosen]
    table = []
    for winner in range(K.NUM_CARDS):
        mask = 0
        for challenger in range(K.NUM_CARDS):
            same_suit = challenger // K.NUM_RANKS == winner // K.NUM_RANKS
            if attack[challenger] > defence[winner] or (
                suit_rank[winner] > 0 and same_suit and suit_rank[challenger] > suit_rank[winner]
            ):
                mask |= 1 << challenger
        table.append(mask)
    return tuple(table)


@cache
def card_values(ranking: int, chosen: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """(cost, weight) of every card: what spending it gives up, and the trick share it brings."""
    costs, weights = [], []
    for card in range(K.NUM_CARDS):
        suit, rank = divmod(card, K.NUM_RANKS)
        attack = int(K.ATTACK[chosen, card])
        if card in OLE_WEIGHT:
            cost, weight = 20.0 + attack, OLE_WEIGHT[card]
        elif chosen >> suit & 1 and attack:
            cost, weight = 10.0 + attack, BEATER_WEIGHT[attack]
        elif chosen >> suit & 1 and rank == K.RANK_7:
            cost, weight = 9.0, 0.9
        elif chosen >> suit & 1 and rank in (K.RANK_9, K.RANK_8):
            cost, weight = 5.0, 0.3
        elif rank == K.RANK_A:
            cost, weight = 4.0, 0.25
        elif rank == K.RANK_K:
            cost, weight = 2.5, 0.1
        elif rank == K.RANK_Q:
            cost, weight = 1.5, 0.05
        elif chosen >> suit & 1 or ranking == K.RANKING_BOHMSTEDT:
            cost, weight = 0.0, 0.0
        else:  # Hattstedt-style unchosen suits: a higher card beats lower ones of its suit
            cost, weight = int(K.SUIT_RANK[ranking, chosen, card]) / 12.0, 0.0
        costs.append(cost)
        weights.append(weight)
    return tuple(costs), tuple(weights)

