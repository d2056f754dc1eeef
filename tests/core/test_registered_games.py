"""Every game in the registry (``trick_core.registry``) gives what the layers outside its package ask of its
spec (``trick_core.game_spec``): each ``module:attr`` its ``GameSpec`` names resolves to the kind of thing
that layer calls. A game whose spec names a missing or wrong entry fails here, naming the field, before the
suites that use the entry (the browser, the arena, the benchmarks, the neural features) fail deeper down.
(The derived features themselves are checked for every registered variant by ``tests/neural/test_features.py``.)"""

from __future__ import annotations

import dataclasses

import pytest

from trick_core.game_spec import GameSpec, imported
from trick_core.registry import GAME_NAMES, game_spec


def unresolved_entries(spec: GameSpec) -> list[str]:
    """The fields of ``spec`` that name nothing usable, each with why."""
    from play.catalog import GameInfo

    problems = []

    def check(field: str, path: str, test, what: str) -> None:
        try:
            value = imported(path)
        except (ImportError, AttributeError, ValueError) as error:
            problems.append(f"{field}={path!r}: {error}")
            return
        if not test(value):
            problems.append(f"{field}={path!r} is not {what}")

    check("rules_agent", spec.rules_agent, callable, "an agent class")
    for agent, path in spec.agent_classes.items():
        check(f"agent_classes[{agent!r}]", path, callable, "an agent class")
    check("browser", spec.browser, lambda info: isinstance(info, GameInfo) and info.name == spec.name
          and callable(info.view) and callable(info.label), f"the play.catalog.GameInfo of {spec.name!r}")
    check("reference_player", spec.reference_player, callable, "play(rng, config)")
    for field in ("seating", "features", "worst_loss", "config_reward_scale"):
        if getattr(spec, field):
            check(field, getattr(spec, field), callable, "a function")
    return problems


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_registered_game_names_usable_entries(game):
    assert unresolved_entries(game_spec(game)) == []


def test_a_spec_naming_a_missing_entry_is_reported():
    """The check can fail: a spec naming no browser entry and a missing reference player is reported."""
    broken = dataclasses.replace(game_spec(GAME_NAMES[0]), browser="play.views.schafkopf:NO_SUCH_GAME",
                                 reference_player="benchmarks.reference_hands:play_no_such_game")
    assert [problem.split("=")[0] for problem in unresolved_entries(broken)] == ["browser", "reference_player"]


def test_a_spec_outside_the_family_layout_is_refused():
    """A spec whose package is not ``<family>_env.<game>`` fails when it is declared, naming the package."""
    with pytest.raises(ValueError, match="its package must be .* not 'elsewhere'"):
        dataclasses.replace(game_spec(GAME_NAMES[0]), package="elsewhere")


@pytest.mark.parametrize("game", GAME_NAMES)
def test_ismcts_playouts_take_the_epsilon_of_the_games_pimc(game):
    """``ismcts`` plays ``pimc``'s playouts; a game whose ``pimc`` has its own ``epsilon`` (Knüffeln's agent)
    gives ``ismcts`` the same one through its spec's ``agent_defaults``, so the two must agree."""
    from agents import make

    assert make("ismcts", game).epsilon == make("pimc", game).epsilon
