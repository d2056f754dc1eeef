"""Every variant in the registry (``trick_core.registry``, where one line adds one) is compared kernel
against plain-Python reference: Bavarian's comparison reads the registry, the other games list the
configurations they compare (``COMPARED_CONFIGS`` of ``tests/<game>/test_kernel_vs_reference.py``, each with
its own seeds and coverage checks), and this test holds those lists to the registry. The other suites read
the registry's variants directly. A configuration counts as covered where the env fills both in to the same
``config``. And an env's ``config`` must give the kernel params it plays with."""

from __future__ import annotations

import importlib

import pytest

from trick_core.registry import VARIANTS, game_spec, variant_id


def filled_in(game: str, config: dict) -> dict:
    """``config`` with every default the env fills in (``{}`` and ``{"players": 3}`` are one Palatinate game)."""
    return game_spec(game).make_env(**config).unwrapped.config


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=[variant_id(g, c) for g, c in VARIANTS])
def test_every_registered_variant_is_compared_kernel_against_reference(game, config):
    listed = importlib.import_module(f"tests.{game}.test_kernel_vs_reference").COMPARED_CONFIGS
    assert filled_in(game, config) in [filled_in(game, tested) for tested in listed], (
        f"the {game} variant {config} is not in COMPARED_CONFIGS of tests/{game}/test_kernel_vs_reference.py: "
        "add it there")


def test_a_variant_missing_from_a_suite_is_reported():
    """The check can fail: a configuration no suite lists (Knüffeln's 'tokens:7' talk) is not covered."""
    listed = importlib.import_module("tests.knuffeln.test_kernel_vs_reference").COMPARED_CONFIGS
    assert filled_in("knuffeln", {"talk": "tokens:7"}) not in [filled_in("knuffeln", c) for c in listed]


def test_an_env_whose_config_leaves_out_a_rule_option_is_refused():
    """The batch env, records and replays rebuild the rules from an env's ``config``: a rule option the env
    passed to its kernel but left out of ``config`` would be played by default there, and every check above
    would compare the default game (a newcomer run found this trap). Setting up the kernel refuses it."""
    spec = game_spec("palatinate")
    env = spec.make_env().unwrapped  # config: players 3, max_doublings 4
    with pytest.raises(RuntimeError, match="palatinate: config .* every rule option must be in the env's config"):
        env._setup_kernel(spec.kernel().make_params(players=3, max_doublings=2), obs_size=1)
