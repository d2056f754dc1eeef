"""The games the table offers, their options, and the names shown for cards, suits and actions.

The table offers every game of the registry (``trick_core.registry``); what it needs of a game besides its
env, its ``GameInfo`` (title, pack, rules page, rule options, view), is declared beside the game's view in
``play.views`` and named by the game's spec (``browser``). This module is the one place in ``play`` that
makes envs (``make_env``); everything else asks it. The options a ``GameInfo`` lists are the rule options of
the env (its module docstring documents them); the env itself validates the values and raises
``ValueError`` naming a bad one.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

from trick_core.game_spec import imported
from trick_core.registry import GAME_NAMES, game_spec


@dataclass(frozen=True)
class Option:
    """One rule option of a game, as the setup form offers it."""

    name: str
    label: str
    choices: tuple
    default: object
    requires: tuple[tuple[object, str, tuple], ...] = ()
    """Choices offered only beside certain values of another option: ``(choice, other option, its values)``."""
    env_checked: tuple[type, ...] = ()
    """Other value types a record may hold (Bavarian: a custom tariff mapping), validated by the env itself."""


@dataclass(frozen=True)
class GameInfo:
    """What the table needs to know about a game besides its env: declared beside the game's view (a module
    of ``play.views``) and named by the game's spec (``browser``)."""

    name: str
    title: str
    deck: str
    """``"german"`` (Eichel, Gras, Herz, Schellen) or ``"french"`` (clubs, spades, hearts, diamonds)."""
    rules_file: str
    """The project's rules page of the game, relative to the rules folder (``docs/rules``)."""
    options: tuple[Option, ...] = field(default_factory=tuple)
    view: Callable[[object], dict] | None = None
    """``view(context) -> dict``: the table as one seat may see it (``play.views.table_view``)."""
    label: Callable[[object, str], str] | None = None
    """``label(context, action) -> str``: the text of an action string (buttons and the log)."""


def game_info(game: str) -> GameInfo:
    """The ``GameInfo`` of ``game`` (the ``browser`` its spec names, in a view module of ``play.views``), or
    ``ValueError`` naming the known games."""
    if not isinstance(game, str) or game not in GAME_NAMES:
        raise ValueError(f"unknown game {game!r}; choose from {sorted(GAME_NAMES)}")
    return _game_infos()[game]


def game_infos() -> list[GameInfo]:
    """Every game's ``GameInfo``, in the registry's order (the browser's list)."""
    return [_game_infos()[game] for game in GAME_NAMES]


@functools.cache
def _game_infos() -> dict[str, GameInfo]:
    """Read on first use: the view modules that declare them import this module."""
    infos = {}
    for game in GAME_NAMES:
        info = imported(game_spec(game).browser)
        if not isinstance(info, GameInfo) or info.name != game:
            raise TypeError(f"{game}: its spec's browser {game_spec(game).browser!r} is not the GameInfo of {game!r}")
        infos[game] = info
    return infos


def check_config(game: str, config: dict, offered_values_only: bool = True) -> dict:
    """``config`` with every option of ``game`` filled in; ``ValueError`` for an unknown option or value.

    Only the listed options are accepted: the table does not let a browser set an env's observation
    type, render mode or illegal-move handling. ``offered_values_only=False`` (replaying a record)
    accepts any value of a listed option and leaves its validation to the env."""
    info = game_info(game)
    if not isinstance(config, dict):
        raise ValueError("config must be an object of rule options")
    known = {option.name: option for option in info.options}
    unknown = sorted(set(config) - set(known))
    if unknown:
        raise ValueError(f"{game}: unknown option(s) {unknown}; options are {sorted(known) or 'none'}")
    checked = {}
    for name, option in known.items():
        value = config.get(name, option.default)
        if not offered_values_only and isinstance(value, option.env_checked):
            checked[name] = value
            continue
        if type(value) is not type(option.default) or (offered_values_only and value not in option.choices):
            raise ValueError(f"{game}: option {name}={value!r} is not one of {list(option.choices)}")
        checked[name] = value
    if offered_values_only:
        for option in known.values():
            for choice, other, values in option.requires:
                if checked[option.name] == choice and checked[other] not in values:
                    raise ValueError(f"{game}: {option.name}={choice!r} is offered only with {other} in "
                                     f"{list(values)}, not {other}={checked[other]!r}")
    return checked


def deck_cards(deck) -> tuple[str, ...]:
    """Every card name of an env's pack (``env.deck``, which its rule options choose), in the pack's order."""
    return tuple(deck.name_of(card) for card in range(deck.num_cards))


@functools.cache
def default_seats(game: str) -> int:
    """Seats at the game's table under its default options (a ``players`` option, where there is one, sets
    the count)."""
    return len(make_env(game, {}).possible_agents)


def make_env(game: str, config: dict):
    """A fresh env of ``game`` with the given rule options (no render mode, default observations)."""
    game_info(game)
    return game_spec(game).make_env(**config)


def env_module(game: str):
    """The env module of ``game`` (for module-level tables such as Knüffeln's ``PHRASES``)."""
    game_info(game)
    return game_spec(game).env_module()


# ---------------------------------------------------------------------------------------------- names

SUIT_LETTERS = {"german": "EGHS", "french": "CSHD"}
"""The suits of each pack in the order of the card layout (``trick_core.cards``: card = suit * ranks + rank)."""

SUIT_NAMES = {
    "german": {"E": "Eichel", "G": "Gras", "H": "Herz", "S": "Schellen"},
    "french": {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"},
}

CONTRACT_NAMES = {
    "rufer": "Sauspiel (Rufer: call a Sau)",
    "wenz": "Wenz",
    "solo": "Solo",
    "wenz_tout": "Wenz Tout",
    "solo_tout": "Solo Tout",
    "sie": "Sie",
    "simple": "Simple game (take the skat)",
    "heart_solo": "Herz-Solo",
    "solo_du": "Solo Du",
    "heart_solo_du": "Herz-Solo Du",
    "ace_call": "Asserufen (ace call)",
    "haenge_an": "Hänge an",
    "darf_man": "Darf man?",
    "geier": "Geier (Obers the only trumps)",
    "farbwenz": "Farbwenz (Unters and a suit)",
    "geier_tout": "Geier Tout",
    "farbwenz_tout": "Farbwenz Tout",
    "bettel": "Bettel (take no trick)",
    "ramsch": "Ramsch (everybody passed)",
}

FIXED_ACTION_LABELS = {
    "pass": "Pass",
    "weg": "Weg (pass)",
    "accept": "Accept",
    "refuse": "Refuse",
    "contra": "Contra",
    "re": "Re",
    "no_double": "No double",
    "schenken": "Schenken (give up)",
    "no_schenken": "Play on",
    "take_ole": "Take the Ole",
    "decline": "Decline",
    "stop": "Stop: take the Jann",
    "flee": "Flee",
    "play_alone": "Play alone",
    "sit_out": "Sit out",
    "silent": "Stay silent",
}

KNUFFELN_ACCEPT_LABEL = "Accept (see the card)"


def card_suit(card: str) -> str:
    return card[0]


def card_rank(card: str) -> str:
    return card[1:]


def suit_name(deck: str, suit: str) -> str:
    return SUIT_NAMES[deck].get(suit, suit)


def card_label(deck: str, card: str) -> str:
    """``"EO"`` -> ``"Eichel Ober"``; ``"C10"`` -> ``"10 of clubs"`` (for titles and screen readers)."""
    rank, suit = card_rank(card), card_suit(card)
    if deck == "german":
        rank_names = {"A": "Sau", "K": "König", "O": "Ober", "U": "Unter"}
        return f"{suit_name(deck, suit)} {rank_names.get(rank, rank)}"
    rank_names = {"A": "ace", "K": "king", "Q": "queen", "J": "jack"}
    return f"{rank_names.get(rank, rank)} of {suit_name(deck, suit)}"
