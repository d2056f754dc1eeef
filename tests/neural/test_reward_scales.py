"""The reward scale of an env config (``GameSpec.reward_scale_for``, Bavarian's ``agents.neural.reward_scales``):
the default game keeps its fixed scale, the sauspiel tariff and a custom one get the scales their module
documents, computed from the figures on file (``docs/results/reward_spread.json``), and a bad config is refused
with the env's own error."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from agents.neural.reward_scales import SAUSPIEL_SCALE, SECOND_MOMENTS, TARIFF_KEYS, bavarian_scale, tariff_spread
from agents.neural.training import reward_scale
from schafkopf_env import bavarian_v0
from schafkopf_env.bavarian.tables import TARIFFS, resolved_tariff
from trick_core.registry import GAME_NAMES, game_spec

SPREAD = Path(__file__).resolve().parents[2] / "docs" / "results" / "reward_spread.json"


def bavarian_figures() -> dict:
    return json.loads(SPREAD.read_text(encoding="utf-8"))["games"]["bavarian"]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_default_config_keeps_the_games_fixed_scale(game):
    spec = game_spec(game)
    assert spec.reward_scale_for(dict(spec.variants[0])) == spec.reward_scale
    assert reward_scale(game, {}, None) == spec.reward_scale


def test_bavarian_default_scale_is_unchanged():
    assert reward_scale("bavarian", {}, None) == 5.0
    assert reward_scale("bavarian", {"tariff": "card", "doubling": True, "pack": "short"}, None) == 5.0


def test_sauspiel_scale_is_the_measured_spread_rounded_to_ten_cents():
    measured = bavarian_figures()["configs"]["sauspiel"]["std"]
    assert SAUSPIEL_SCALE == round(measured, -1) == 60
    assert reward_scale("bavarian", {"tariff": "sauspiel"}, None) == 60.0
    online = {"tariff": "sauspiel", "doubling": True, "klopfen": True, "ramsch": True, "geier": True,
              "farbwenz": True, "bettel": True}
    assert reward_scale("bavarian", online, None) == 60.0  # the other options keep the tariff's scale


def test_the_override_still_wins():
    assert reward_scale("bavarian", {"tariff": "sauspiel"}, 7.5) == 7.5
    with pytest.raises(ValueError, match="reward_scale must be positive"):
        reward_scale("bavarian", {}, 0)


def test_second_moments_are_the_figures_on_file():
    """The module's blocks are the benchmark's matrix, the blocks between families zero."""
    figures = bavarian_figures()
    order = [name.split(".") for name in figures["tariff_prices"]]
    matrix = figures["second_moments"]
    for i, (family_i, key_i) in enumerate(order):
        for j, (family_j, key_j) in enumerate(order):
            expected = (SECOND_MOMENTS[family_i][TARIFF_KEYS.index(key_i)][TARIFF_KEYS.index(key_j)]
                        if family_i == family_j else 0.0)
            assert matrix[i][j] == pytest.approx(expected, abs=5e-5), (family_i, key_i, family_j, key_j)


@pytest.mark.parametrize("tariff", ["card", "sauspiel"])
def test_the_model_reproduces_the_measured_spread_of_each_preset(tariff):
    measured = bavarian_figures()["configs"][tariff]
    assert tariff_spread(resolved_tariff(tariff)) == pytest.approx(measured["std"], abs=0.01)
    assert measured["model_std"] == pytest.approx(measured["std"], abs=0.002)


def test_a_custom_tariff_scales_sauspiels_by_the_ratio_of_spreads():
    sauspiel = resolved_tariff("sauspiel")
    assert bavarian_scale({"tariff": TARIFFS["sauspiel"]}) == pytest.approx(SAUSPIEL_SCALE)
    assert bavarian_scale({"tariff": {"rufer": {"base": 20}}}) == pytest.approx(SAUSPIEL_SCALE)  # B12: the rest
    doubled = {family: {key: 2 * sauspiel[family][key] for key in TARIFF_KEYS} for family in SECOND_MOMENTS}
    assert bavarian_scale({"tariff": doubled}) == pytest.approx(2 * SAUSPIEL_SCALE)
    # the card units as a custom tariff: sauspiel's scale times the ratio of the measured spreads (5.68 / 59.9)
    figures = bavarian_figures()["configs"]
    expected = SAUSPIEL_SCALE * figures["card"]["std"] / figures["sauspiel"]["std"]
    assert bavarian_scale({"tariff": TARIFFS["card"]}) == pytest.approx(expected, rel=1e-3)
    # a dearer Rufer alone: by hand from the Rufer block, the others as sauspiel's
    rufer = [40, 10, 10]
    variance = sum(rufer[i] * SECOND_MOMENTS["rufer"][i][j] * rufer[j] for i in range(3) for j in range(3))
    for family in ("solo", "wenz"):
        prices = [sauspiel[family][key] for key in TARIFF_KEYS]
        variance += sum(prices[i] * SECOND_MOMENTS[family][i][j] * prices[j] for i in range(3) for j in range(3))
    expected = SAUSPIEL_SCALE * math.sqrt(variance) / tariff_spread(sauspiel)
    assert reward_scale("bavarian", {"tariff": {"rufer": {"base": 40}}}, None) == pytest.approx(expected)


@pytest.mark.parametrize(("config", "named"), [
    ({"tariff": "online"}, "'online'"),
    ({"tarif": "sauspiel"}, "'tarif'"),
    ({"tariff": {"rufer": {"base": -1}}}, "tariff['rufer']['base']"),
    ({"tariff": {"rufer": {"price": 20}}}, "'price'"),
    ({"doubling": "yes"}, "doubling"),
])
def test_a_bad_config_raises_a_clear_error_as_the_env_does(config, named):
    """Both refuse it with a ``ValueError`` naming the bad option or value (never a scale for a config the env
    would not play)."""
    with pytest.raises(ValueError) as from_env:
        bavarian_v0.env(**config)
    with pytest.raises(ValueError) as from_scale:
        reward_scale("bavarian", config, None)
    assert named in str(from_env.value) and named in str(from_scale.value)
    assert str(from_scale.value).startswith("bavarian: ")


def test_env_arguments_that_are_not_rules_leave_the_scale():
    assert reward_scale("bavarian", {"tariff": "sauspiel", "observation_type": "perfect"}, None) == 60.0


def test_a_tariff_that_prices_nothing_has_no_scale():
    free = {family: {key: 0 for key in TARIFF_KEYS} for family in SECOND_MOMENTS}
    with pytest.raises(ValueError, match="no reward scale"):
        reward_scale("bavarian", {"tariff": free}, None)


def test_the_spread_benchmark_measures_every_config_and_its_model_holds():
    """``benchmarks.reward_spread`` on a few hands: each configuration's figures and scale; Bavarian's
    second-moment model reproduces the measured spread of both presets on the same hands (the rules agents'
    play does not depend on the tariff)."""
    from benchmarks.reward_spread import Args, run

    result = run(Args(games=["bavarian", "knuffeln"], hands=12, seed=3))
    bavarian = result["games"]["bavarian"]
    assert set(bavarian["configs"]) == {"card", "sauspiel", "online"}
    assert [bavarian["configs"][label]["scale"] for label in ("card", "sauspiel", "online")] == [5.0, 60.0, 60.0]
    for label in ("card", "sauspiel"):
        figures = bavarian["configs"][label]
        assert figures["seat_hands"] == 48 and figures["std"] > 0
        assert figures["model_std"] == pytest.approx(figures["std"], abs=0.002)
    assert len(bavarian["second_moments"]) == len(bavarian["tariff_prices"]) == 9
    assert result["games"]["knuffeln"]["configs"]["default"]["scale"] == 8.0


@pytest.mark.parametrize(("options", "message"), [
    ({"hands": 0}, "--hands must be positive"),
    ({"seed": -1}, "--seed must be at least 0"),
    ({"games": ["chess"]}, r"unknown game\(s\) \['chess'\]"),
    ({"json": "/no/such/folder/out.json"}, "--json"),
])
def test_the_spread_benchmark_checks_its_options_first(options, message):
    from benchmarks.reward_spread import Args, check

    with pytest.raises(ValueError, match=message):
        check(Args(**options))
