"""The one-seat env's default penalty for an illegal move: the worst settlement a seat can suffer in one
hand (one match, Knüffeln ``match=True``), derived from the game's value table, so that an unmasked
learner never finds an illegal move cheaper than any legal way of losing.

The bound per game, in the rules' units (``worst_settlement(game, config)`` returns minus it; the figure
for the default config in brackets):

- Bavarian: a lost Solo Tout, 3 × (10 + 2 per Laufender × 14 trumps) = 3 × 38 (114); a Sie costs each
  opponent 52, a lost Solo schwarz with 14 Laufende 3 × 21.
- Palatinate: (players − 1) × (1 + schneider + schwarz + hoch 14 + hearts + solo) × 2 (Du)
  × 2^max_doublings (1216; four players: 1824).
- Asserufen: 3 × (1 + hearts + schneider + schwarz + hoch 14) × 2 (Du) × 2^max_doublings (1728).
- Knüffeln: the largest payment (a march) plus one unit per accepted turn (at most one per trick), paid to
  each winner: two with four players, four against the five-player dealer playing alone (2 × 39 = 78);
  ``match=True``: a Brille, 2.

Laufende and hoch count the top trumps in sequence held by either side, so the 14 trumps of a suit game
bound them (Wenz: its 4 Unters). These are bounds from the value table, not the worst hand any deal
reaches; a tighter one would need every deal's play. ``tests/trick_gym/test_penalties.py`` checks them
against the scoring code over its whole input range and against many played hands.
"""

from __future__ import annotations

from trick_core.game_spec import imported
from trick_core.registry import game_spec

from .games import check_game


def worst_settlement(game: str, config: dict) -> float:
    """Minus the largest amount one seat can lose in one episode of ``game`` under ``config`` (the AEC
    env's full config, every option present: ``OneSeatEnv.config``): the bound function its spec names
    (``worst_loss``, below for the registered games); see the module docstring."""
    path = game_spec(check_game(game)).worst_loss
    if not path:
        raise ValueError(f"{game}: its spec names no worst_loss, so the one-seat env has no default penalty for an "
                         "illegal move; pass illegal_reward")
    return -float(imported(path)(config))


def bavarian_worst_loss(config: dict) -> int:
    return _bavarian()


def palatinate_worst_loss(config: dict) -> int:
    return _palatinate(config["players"], config["max_doublings"])


def asserufen_worst_loss(config: dict) -> int:
    return _asserufen(config["max_doublings"])


def knuffeln_worst_loss(config: dict) -> int:
    return _knuffeln(config["variant"], config["players"], config["match"])


def _bavarian() -> int:
    from schafkopf_env.bavarian.tables import (
        BASE_VALUE,
        LAUFENDE_UNIT,
        NUM_SEATS,
        RUFER,
        SIE,
        SIE_LAUFENDE,
        SOLO,
        SOLO_TOUT,
        WENZ,
        WENZ_TOUT,
    )
    from schafkopf_env.trumps import NUM_TRUMPS, TRUMP_WENZ

    schwarz = 2
    suit_trumps, wenz_trumps = int(NUM_TRUMPS.max()), int(NUM_TRUMPS[TRUMP_WENZ])
    lost = {  # the most a lost contract is worth (schwarz counted where it applies)
        RUFER: BASE_VALUE[RUFER] + schwarz + suit_trumps * LAUFENDE_UNIT[RUFER],
        WENZ: BASE_VALUE[WENZ] + schwarz + wenz_trumps * LAUFENDE_UNIT[WENZ],
        SOLO: BASE_VALUE[SOLO] + schwarz + suit_trumps * LAUFENDE_UNIT[SOLO],
        WENZ_TOUT: BASE_VALUE[WENZ_TOUT] + wenz_trumps * LAUFENDE_UNIT[WENZ_TOUT],
        SOLO_TOUT: BASE_VALUE[SOLO_TOUT] + suit_trumps * LAUFENDE_UNIT[SOLO_TOUT],
    }
    alone = NUM_SEATS - 1  # a declarer alone pays each of the three others
    worst_declarer = max(int(value) * (1 if contract == RUFER else alone) for contract, value in lost.items())
    sie_opponent = int(BASE_VALUE[SIE] + SIE_LAUFENDE * LAUFENDE_UNIT[SIE])  # a Sie is always won
    return max(worst_declarer, sie_opponent)


def _palatinate(players: int, max_doublings: int) -> int:
    from schafkopf_env.trumps import NUM_TRUMPS

    game, schneider, schwarz, hearts, solo, du = 1, 1, 1, 1, 1, 2
    value = (game + schneider + schwarz + int(NUM_TRUMPS.max()) + hearts + solo) * du << max_doublings
    return (players - 1) * value  # the declarer pays every other seat, a sitting-out dealer too


def _asserufen(max_doublings: int) -> int:
    from schafkopf_env.trumps import NUM_TRUMPS

    game, hearts, schneider, schwarz, du, alone = 1, 1, 1, 1, 2, 3
    return alone * (game + hearts + schneider + schwarz + int(NUM_TRUMPS.max())) * du * (1 << max_doublings)


def _knuffeln(variant: str, players: int, match: bool) -> int:
    from knuffeln_env.knuffeln.match import BRILLE_POINTS
    from knuffeln_env.knuffeln.tables import MAX_TRICKS, PAY_BASE, PAY_JANN, PAY_MARCH, PAY_PER_TURN, VARIANTS

    if match:
        return int(BRILLE_POINTS)
    index = VARIANTS.index(variant)
    payment = max(PAY_BASE[index], PAY_JANN[index], PAY_MARCH[index]) + PAY_PER_TURN * MAX_TRICKS
    winners = 2 if players == 4 else players - 1  # five players: the dealer alone against four
    return winners * int(payment)
