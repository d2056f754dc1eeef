"""PettingZoo's own conformance tests, ``api_test`` and ``seed_test``, on every env: each variant of the
registry (``trick_core.registry``: a new one is tested as soon as it is registered) and a few
configurations beyond it, under every observation type."""

from __future__ import annotations

import warnings

import pytest
from pettingzoo.test import api_test, seed_test

from trick_core.env_options import OBSERVATION_TYPES
from trick_core.registry import VARIANTS, game_spec, variant_id

EXTRA_CONFIGS = [
    ("knuffeln", {"players": 5, "talk": "lexicon"}),
    ("knuffeln", {"variant": "hattstedt", "talk": "tokens:2"}),
    ("knuffeln", {"match": True}),
    ("knuffeln", {"match": True, "talk": "lexicon", "variant": "gruenberg1938"}),
]
"""Beyond the registry: five players talking, a tiny vocabulary, and ladder-scored matches."""
CASES = [(game, config, observation_type) for game, config in [*VARIANTS, *EXTRA_CONFIGS]
         for observation_type in OBSERVATION_TYPES]
IDS = [f"{variant_id(game, config)}-{observation_type}" for game, config, observation_type in CASES]
CYCLES = {"knuffeln": 300}
"""Steps of each test: a Knüffeln hand is longer (48 cards, exchanges, talk)."""


@pytest.mark.parametrize(("game", "config", "observation_type"), CASES, ids=IDS)
def test_pettingzoo_api_test(game, config, observation_type):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test warns about spaces it cannot check, not about the env
        api_test(game_spec(game).make_env(observation_type=observation_type, **config),
                 num_cycles=CYCLES.get(game, 200))


@pytest.mark.parametrize(("game", "config", "observation_type"), CASES, ids=IDS)
def test_pettingzoo_seed_test(game, config, observation_type):
    seed_test(lambda: game_spec(game).make_env(observation_type=observation_type, **config),
              num_cycles=CYCLES.get(game, 200))
