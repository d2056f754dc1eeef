"""The spread of a seat's settlement when the rule-based bots play each other, printed as JSON: the figures
behind the reward scales (``GameSpec.reward_scale``, Bavarian's ``agents.neural.reward_scales``;
``docs/results.md``, "Reward scales").

Training divides returns by a scale so that its targets are of order one in every game; the scale is about
the standard deviation of one seat's settlement between the ``rules`` agents, a fixed table rather than the
learner's own early play (random play swings far wider). Per game and configuration: ``hands`` hands dealt
with ``env.reset(seed=seed + i)``, the ``rules`` agent at every seat (each reset with ``seed + i`` and its
seat, acting on its seat's view as in the arena), and over every seat-hand the standard deviation of the
settlement (its mean is zero: every game is zero-sum), the mean absolute settlement, the largest loss and
the share of hands thrown in (every seat 0), beside the reward scale training uses for that config
(``GameSpec.reward_scale_for``). Bavarian is measured under each tariff (``"card"``,
``"sauspiel"``) and under the online servers' options all at once (``ONLINE``: Kontra, Klopfen, Ramsch and
the extra contracts, the sauspiel tariff); every other game under its default config.

Bavarian's tariffs, and any custom one: the rules agents' play does not depend on the tariff (their bids and
cards read only the hand and the table), so a seat's settlement under the default options is a sum over the
tariff's nine prices (``TARIFF_PRICES``: Rufer, Solo and Wenz base, Schneider/Schwarz and Laufender) of a count
each (how many of that price the seat won or paid; a Tout's or a Sie's factor and the declarer paying three
included). The same hands are played once per price under a *unit tariff* (that price 1, the others 0) to
read the counts, and ``second_moments`` (9 x 9, the mean over seat-hands of count_i x count_j) gives any
tariff's spread as ``sqrt(v' M v)`` (``agents.neural.reward_scales``); ``model_std`` of each tariff checks
it against the measured ``std`` (equal but for rounding when the play is indeed tariff-free). The
``laufende_from`` of the presets is kept (Rufer and Solo from three, Wenz from two).

``python -m benchmarks.reward_spread [--hands 2000] [--seed 0] [--games ...] [--json PATH]``
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

import agents
from benchmarks.timing import check_games, check_positive, print_json_command
from trick_core.output_paths import check_output_file
from trick_core.registry import GAME_NAMES, game_spec, make_env
from trick_core.seat_view import SeatView

ONLINE = {"tariff": "sauspiel", "doubling": True, "klopfen": True, "ramsch": True, "geier": True,
          "farbwenz": True, "bettel": True}
"""Bavarian as the online servers play it: every rule option on, their tariff."""

CONFIGS = {
    "bavarian": {"card": {}, "sauspiel": {"tariff": "sauspiel"}, "online": ONLINE},
}
"""The configurations measured per game, by label (a game not listed: its default config alone)."""

TARIFF_FAMILIES = ("rufer", "solo", "wenz")
TARIFF_KEYS = ("base", "schneider_schwarz", "laufende")
TARIFF_PRICES = tuple((family, key) for family in TARIFF_FAMILIES for key in TARIFF_KEYS)
"""The prices a Bavarian hand under the default options is settled by, in ``second_moments``' order."""
LAUFENDE_FROM = {"rufer": 3, "solo": 3, "wenz": 2}
"""The presets' ``laufende_from``, kept in the unit tariffs."""


def unit_tariff(price: tuple[str, str]) -> dict:
    """The custom tariff pricing ``price`` (family, key) at 1 and every other price of the default options at 0."""
    return {family: {**{key: int((family, key) == price) for key in TARIFF_KEYS},
                     "laufende_from": LAUFENDE_FROM[family]} for family in TARIFF_FAMILIES}


def price_vector(tariff: str) -> np.ndarray:
    """The nine prices (``TARIFF_PRICES``) of a named Bavarian tariff."""
    from schafkopf_env.bavarian.tables import resolved_tariff

    values = resolved_tariff(tariff)
    return np.array([values[family][key] for family, key in TARIFF_PRICES], dtype=np.float64)


def bavarian_second_moments(hands: int, seed: int) -> np.ndarray:
    """The 9 x 9 mean over seat-hands of count_i x count_j (module docstring)."""
    counts = np.stack([settlements("bavarian", {"tariff": unit_tariff(price)}, hands, seed).reshape(-1)
                       for price in TARIFF_PRICES], axis=1)
    return counts.T @ counts / counts.shape[0]


@dataclass
class Args:
    """Standard deviation of a seat's settlement between the rule-based bots, per game and configuration."""

    games: list[str] = field(default_factory=lambda: list(GAME_NAMES))
    hands: int = 2000
    """hands per configuration"""
    seed: int = 0
    """hand i is dealt with env.reset(seed=seed + i)"""
    json: str | None = None
    """also write the result here"""


def configs(game: str) -> dict[str, dict]:
    """The configurations of ``game`` to measure, by label."""
    return CONFIGS.get(game, {"default": dict(game_spec(game).variants[0])})


def settlements(game: str, config: dict, hands: int, seed: int) -> np.ndarray:
    """Each seat's settlement in ``hands`` hands of ``game`` under ``config``, the ``rules`` agent at every
    seat: an array (hands, seats)."""
    env = make_env(game, **config)
    names = list(env.possible_agents)
    seats = [agents.make("rules", game) for _ in names]
    views = {name: SeatView(env, name) for name in names}
    rows = []
    for hand in range(hands):
        env.reset(seed=seed + hand)
        for index, agent in enumerate(seats):
            if callable(getattr(agent, "reset", None)):
                agent.reset(seed + hand + index)
        base = env.unwrapped
        while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            name = env.agent_selection
            env.step(seats[base.agent_name_mapping[name]].act(views[name], name))
        rows.append(base.game_record()["result"])
    return np.asarray(rows, dtype=np.float64)


def spread(values: np.ndarray) -> dict:
    """The figures of one configuration (module docstring)."""
    flat = values.reshape(-1)
    return {
        "hands": int(values.shape[0]),
        "seat_hands": int(flat.size),
        "std": round(float(np.sqrt(np.mean(flat ** 2))), 3),  # about zero mean: a zero-sum game
        "mean_abs": round(float(np.mean(np.abs(flat))), 3),
        "largest_loss": float(-flat.min()),
        "thrown_in_share": round(float(np.mean(np.all(values == 0, axis=1))), 3),
    }


def run(args: Args) -> dict:
    result = {"command": "python -m benchmarks.reward_spread " + " ".join(
        [f"--hands {args.hands}", f"--seed {args.seed}", "--games", *args.games]),
        "date": time.strftime("%Y-%m-%d", time.gmtime()), "games": {}}
    for game in args.games:
        spec = game_spec(game)
        result["games"][game] = {"configs": {}}
        for label, config in configs(game).items():
            figures = spread(settlements(game, config, args.hands, args.seed))
            scale = round(spec.reward_scale_for(config), 3)
            result["games"][game]["configs"][label] = {"config": config, "scale": scale, **figures}
        if game == "bavarian":
            moments = bavarian_second_moments(args.hands, args.seed)
            for label in ("card", "sauspiel"):
                prices = price_vector(label)
                model_std = float(np.sqrt(prices @ moments @ prices))
                result["games"][game]["configs"][label]["model_std"] = round(model_std, 3)
            result["games"][game]["tariff_prices"] = [f"{family}.{key}" for family, key in TARIFF_PRICES]
            result["games"][game]["second_moments"] = [[round(float(v), 6) for v in row] for row in moments]
    return result


def check(args: Args) -> None:
    check_games(args.games, GAME_NAMES)
    check_positive(args, "hands")
    check_positive(args, "seed", zero_allowed=("seed",))
    if args.json:
        check_output_file(args.json, "--json")


if __name__ == "__main__":
    import tyro

    from trick_core.command_line import checked, command_prog

    print_json_command(checked(tyro.cli(Args, prog=command_prog()), check), run)
