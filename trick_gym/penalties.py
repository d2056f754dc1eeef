"""The one-seat env's default penalty for an illegal move: the worst settlement a seat can suffer in one
hand (one match, Knüffeln ``match=True``), derived from the game's value table, so that an unmasked
learner never finds an illegal move cheaper than any legal way of losing.

The bound per game, in the rules' units (``worst_settlement(game, config)`` returns minus it; the figure
for the default config in brackets):

- Bavarian: a lost Solo Tout, 3 × (10 + 2 per Laufender × 14 trumps) = 3 × 38 (114); a Sie costs each
  opponent 52, a lost Solo schwarz with 14 Laufende 3 × 21. The options' tariff prices these hands (cents for
  ``tariff="sauspiel"``), ``doubling=True`` multiplies them by 2^4 and ``klopfen=True`` by 2^4 more; with
  ``ramsch=True`` a Ramsch's loser may pay 3 × 2^3 × its price (three players without a trick).
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
    return _bavarian(config)


def palatinate_worst_loss(config: dict) -> int:
    return _palatinate(config["players"], config["max_doublings"])


def asserufen_worst_loss(config: dict) -> int:
    return _asserufen(config["max_doublings"])


def knuffeln_worst_loss(config: dict) -> int:
    return _knuffeln(config["variant"], config["players"], config["match"])


def _bavarian(config: dict) -> int:
    from schafkopf_env.bavarian.tables import (
        FAMILY_OF_CONTRACT,
        HAND_SIZE,
        NUM_SEATS,
        PARAM_KLOPFEN,
        PARAM_MAX_DOUBLINGS,
        PARAM_RAMSCH,
        PARAM_RAMSCH_PRICE,
        PARAM_TARIFF,
        RUFER,
        SIE,
        SIE_FACTOR,
        SOLO,
        SOLO_TOUT,
        TARIFF_BASE,
        TARIFF_KEYS,
        TARIFF_LAUFENDE,
        TARIFF_SCHNEIDER_SCHWARZ,
        TOUT_FACTOR,
        WENZ,
        WENZ_TOUT,
        make_params,
    )
    from schafkopf_env.trumps import NUM_TRUMPS, TRUMP_WENZ

    params = make_params(**config)  # the tariff and the doublings of the options (``bavarian_v0``)

    def tariff(contract: int, key: int) -> int:
        return int(params[PARAM_TARIFF + FAMILY_OF_CONTRACT[contract] * len(TARIFF_KEYS) + key])

    def plain_game(contract: int, trumps: int) -> int:  # base, schwarz, every trump a Laufender
        return (tariff(contract, TARIFF_BASE) + 2 * tariff(contract, TARIFF_SCHNEIDER_SCHWARZ)
                + trumps * tariff(contract, TARIFF_LAUFENDE))

    def tout(contract: int, trumps: int) -> int:
        return TOUT_FACTOR * (tariff(contract, TARIFF_BASE) + trumps * tariff(contract, TARIFF_LAUFENDE))

    suit_trumps, wenz_trumps = int(NUM_TRUMPS.max()), int(NUM_TRUMPS[TRUMP_WENZ])
    lost = {  # the most a lost contract is worth (schwarz counted where it applies)
        RUFER: plain_game(RUFER, suit_trumps),
        WENZ: plain_game(WENZ, wenz_trumps),
        SOLO: plain_game(SOLO, suit_trumps),
        WENZ_TOUT: tout(WENZ_TOUT, wenz_trumps),
        SOLO_TOUT: tout(SOLO_TOUT, suit_trumps),
    }
    alone = NUM_SEATS - 1  # a declarer alone pays each of the three others
    knocks = 2 ** (NUM_SEATS * int(params[PARAM_KLOPFEN]))  # every seat knocked (klopfen=True)
    doublings = 2 ** int(params[PARAM_MAX_DOUBLINGS])  # Kontra, Re ... (doubling=True)
    worst_declarer = doublings * max(value * (1 if contract == RUFER else alone) for contract, value in lost.items())
    sie_opponent = SIE_FACTOR * (tariff(SIE, TARIFF_BASE) + HAND_SIZE * tariff(SIE, TARIFF_LAUFENDE))  # always won
    ramsch = 0
    if params[PARAM_RAMSCH]:  # the loser took every trick (no Durchmarsch): three players without one
        ramsch = alone * int(params[PARAM_RAMSCH_PRICE]) * 2 ** alone
    return knocks * max(worst_declarer, sie_opponent, ramsch)


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
