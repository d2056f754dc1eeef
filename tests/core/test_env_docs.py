"""The env modules' docstrings are their docs pages: the same headings in every game, the arguments they
list are the constructor's, and every observation table is the kernel's ``observation_layout`` (Knüffeln's
sizes too; the Schafkopf sizes are checked in each game's ``test_env``)."""

from __future__ import annotations

import inspect
import re

import pytest

from knuffeln_env import knuffeln_v0
from trick_core.env_options import ENV_OPTION_DEFAULTS, OBSERVATION_TYPES
from trick_core.registry import GAME_NAMES, game_spec, kernel_module

HEADINGS = ["Arguments", "Observation space", "Action space", "Rewards", "Deals and records", "Version history"]


def _doc(game: str) -> str:
    return game_spec(game).env_module().__doc__


def _section(doc: str, heading: str) -> str:
    return doc.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_page_has_the_common_headings_in_order(game):
    doc = _doc(game)
    assert re.findall(r"^## (.+)$", doc, flags=re.M) == HEADINGS
    assert doc.split("\n## ", 1)[0].count("\n") > 5, "the description comes before the first heading"


def _documented_arguments(section: str) -> set[str]:
    """The names in the section's ``env(...)`` signature line, else those opening its bullets."""
    signature = re.search(r"env\(([^)]*)\)", section)
    if signature:
        return set(re.findall(r"(\w+)=", signature.group(1)))
    return set(re.findall(r"^- `+(\w+)`+", section, flags=re.M))


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_arguments_listed_are_the_constructors(game):
    module = game_spec(game).env_module()
    parameters = inspect.signature(module.env).parameters
    accepted = {name for name, p in parameters.items() if p.kind is not inspect.Parameter.VAR_KEYWORD}
    accepted |= set(ENV_OPTION_DEFAULTS)  # every env's **options: Unpack[EnvOptions]
    assert _documented_arguments(_section(module.__doc__, "Arguments")) == accepted
    with pytest.raises(ValueError, match="no_such_option"):
        module.env(no_such_option=1)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_observation_table_is_the_kernel_layout(game):
    """The docs page's observation table lists the blocks of ``kernel.observation_layout`` of the default
    configuration, every block of the ``perfect`` type, in order: each row's block name and indices."""
    kernel = kernel_module(game)
    rows = re.findall(r"^\| ([^|]+?) \| (\d+)\.\.(\d+) \|", _section(_doc(game), "Observation space"), flags=re.M)
    expected, at = [], 0
    for name, size in kernel.observation_layout(kernel.make_params(), 2):
        expected.append((name, str(at), str(at + size - 1)))
        at += size
    assert rows == expected
    assert at == kernel.observation_size(kernel.make_params(), 2)


def test_knuffeln_documented_sizes_are_the_observation_sizes():
    doc = " ".join(_section(knuffeln_v0.__doc__, "Observation space").split())
    configurations = {
        "talk off": {}, "lexicon": {"talk": "lexicon"}, "`tokens:8`": {"talk": "tokens:8"},
        "5 players, talk off": {"players": 5},
    }
    for label, config in configurations.items():
        sizes = re.search(re.escape(label) + r" (\d+) / (\d+) / (\d+)", doc)
        assert sizes, label
        for observation_type, size in zip(OBSERVATION_TYPES, sizes.groups(), strict=True):
            env = knuffeln_v0.env(observation_type=observation_type, **config)
            assert env.observation_space("player_0")["observation"].shape == (int(size),), (label, observation_type)
    extra = int(re.search(r"`match=True` adds (\d+) entries", doc).group(1))
    assert knuffeln_v0.env(match=True).observation_space("player_0")["observation"].shape == (1215 + extra,)
