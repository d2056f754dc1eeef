"""The env modules' docstrings are their docs pages: the same headings in every game, the arguments they
list are the constructor's, and Knüffeln's observation index table and sizes are the kernel's layout (the
Schafkopf tables are checked in each game's ``test_env``)."""

from __future__ import annotations

import inspect
import re

import pytest

from knuffeln_env import knuffeln_v0
from knuffeln_env.knuffeln import kernel as knuffeln_kernel
from trick_core.env_options import ENV_OPTION_DEFAULTS, OBSERVATION_TYPES
from trick_core.registry import GAME_NAMES, game_spec

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


def _size(expression: str, n: int, c: int) -> int:
    return eval(expression.replace("·", "*").replace("n", str(n)).replace("c", str(c)), {})  # digits and + *


def test_knuffeln_index_table_is_the_kernel_layout():
    """Each row starts where the one before ended and at the start of a layout section; the talk row, last,
    ends where the talk section does (four players, the lexicon)."""
    rows = re.findall(r"^\| (\d+) \| ([^|]+) \|", _section(knuffeln_v0.__doc__, "Observation space"), flags=re.M)
    params = knuffeln_kernel.make_params(talk="lexicon")
    starts, at = [], 0
    for _, size in knuffeln_kernel.observation_layout(params, 0):
        starts.append(at)
        at += size
    n, c = 4, knuffeln_kernel.NUM_CARDS
    vocabulary = 26
    position = 0
    for offset, size in rows:
        assert int(offset) == position and position in starts, f"row at {offset}"
        size = size.strip().replace("36·(n+V+16)", f"36*(n+{vocabulary}+16)")
        position += _size(size, n, c)
    assert position == at


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
