"""The one-seat env's default illegal-move penalty: no better than the worst settlement of a hand.

Checked three ways: against the games' scoring functions over their whole input range (every contract,
trump, count of top trumps, card points, tricks, doublings), against the seats' settlements in randomly
played hands (random play bids and doubles wildly: the widest swings there are), and as the default of
every registered id.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from trick_core.registry import VARIANTS, game_spec, variant_id
from trick_gym.one_seat import OneSeatEnv
from trick_gym.penalties import worst_settlement


def full_config(game: str, config: dict) -> dict:
    return dict(game_spec(game).env_module().raw_env(**config).config)


def test_the_default_figures_of_the_docs():
    figures = {game: worst_settlement(game, full_config(game, {})) for game in ("bavarian", "palatinate",
                                                                                  "asserufen", "knuffeln")}
    assert figures == {"bavarian": -114.0, "palatinate": -1216.0, "asserufen": -1728.0, "knuffeln": -78.0}
    assert worst_settlement("palatinate", full_config("palatinate", {"players": 4})) == -1824.0
    assert worst_settlement("knuffeln", full_config("knuffeln", {"players": 5})) == -156.0
    assert worst_settlement("knuffeln", {"variant": "bohmstedt", "players": 4, "match": True}) == -2.0


def test_bavarian_bound_covers_the_scoring_function_everywhere():
    from schafkopf_env.bavarian.scoring import contract_value
    from schafkopf_env.bavarian.tables import NUM_SEATS, NUM_TRICKS, RUFER, SIE, SOLO_TOUT

    bound = -worst_settlement("bavarian", {})
    worst = 0.0
    for contract in range(RUFER, SIE + 1):
        for points, tricks, laufende, tout_lost in itertools.product(
            (0, 30, 31, 60, 61, 90, 91, 120), range(NUM_TRICKS + 1), range(15), (0, 1)
        ):
            won, value = contract_value(contract, points, tricks, laufende, tout_lost)
            alone = 1 if contract == RUFER else NUM_SEATS - 1
            worst = max(worst, value if won else alone * value)  # a won contract costs each opponent its value
    assert worst == bound
    assert contract_value(SOLO_TOUT, 0, 0, 14, 1) == (False, 38)  # the bound's hand: a lost Solo Tout


def test_palatinate_bound_covers_the_scoring_function_everywhere():
    from schafkopf_env.palatinate.scoring import hand_value
    from schafkopf_env.palatinate.tables import CONTRACT_HEART_SOLO_DU, CONTRACT_SIMPLE, NUM_TRICKS
    from schafkopf_env.trumps import NUM_TRUMP_KINDS

    for players, doublings in ((3, 4), (4, 4), (3, 0)):
        bound = -worst_settlement("palatinate", {"players": players, "max_doublings": doublings})
        worst = 0
        for contract, trump, hoch, points, tricks, schenken in itertools.product(
            range(CONTRACT_SIMPLE, CONTRACT_HEART_SOLO_DU + 1), range(NUM_TRUMP_KINDS), (0, 3, 14),
            (0, 29, 30, 60, 61, 90, 91, 120), (0, 1, NUM_TRICKS), (0, 1, 2),
        ):
            won, value = hand_value(contract, trump, hoch, points, tricks, NUM_TRICKS - tricks, doublings, schenken)
            worst = max(worst, value if won else (players - 1) * value)
        assert worst == bound, (players, doublings)


PLAYED = [("bavarian", {}), ("palatinate", {}), ("palatinate", {"players": 4}), ("asserufen", {}), ("knuffeln", {}),
          ("knuffeln", {"players": 5}), ("knuffeln", {"variant": "hattstedt"})]


@pytest.mark.parametrize(("game", "config"), PLAYED, ids=[variant_id(g, c) for g, c in PLAYED])
def test_no_randomly_played_hand_costs_a_seat_more_than_the_bound(game, config):
    env = game_spec(game).env_module().raw_env(**config)
    bound = worst_settlement(game, dict(env.config))
    rng = np.random.default_rng(0)
    worst = 0.0
    for hand in range(500):
        env.reset(seed=hand)
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            over = terminated or truncated
            env.step(None if over else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        worst = min(worst, *env.game_record()["result"])
    assert bound <= worst < 0


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=[variant_id(g, c) for g, c in VARIANTS])
def test_every_variant_defaults_to_terminating_with_its_bound(game, config):
    env = OneSeatEnv(game, **config)
    assert env.illegal_action == "terminate"
    assert env.illegal_reward == worst_settlement(game, env.config) < 0
