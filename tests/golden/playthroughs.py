"""Golden playthroughs (OpenSpiel style): seeded hands of every env and variant written out as text —
every observation of the seat to act, its legal actions, the action taken, and the rewards — so that any
change of behaviour shows up as a readable diff.

    python -m tests.golden.playthroughs --check  # which files the code no longer reproduces
    python -m tests.golden.playthroughs          # rewrite the files (only after a deliberate rules change)

``tests/core/test_golden.py`` replays each file and compares it line by line.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import tyro

from trick_core.registry import VARIANTS, game_spec, variant_id

FOLDER = Path(__file__).resolve().parent
SEEDS = (7, 8, 9, 195)
"""One hand per seed in each file. Uniform random bidding mostly ends a Schafkopf hand within a few tricks
(a Tout or a Du lost at the first trick lost: none of 7, 8, 9 gets further than four); 195 is a hand that
every Schafkopf variant plays to its last trick (a Rufer, a Solo, an ace-call game), so that card play
to the end, card points, schneider and the settlement of an ordinary game are in the files too."""

EXTRA_SEEDS = {
    "bavarian-tariff=sauspiel-doubling=True-klopfen=True-ramsch=True-geier=True-farbwenz=True-bettel=True": (86,),
}
"""Seeds added after ``SEEDS`` for a variant none of whose ``SEEDS`` hands is played to the last trick: with
every option on, Bavarian's uniform random bidding and Kontra end each of 7, 8, 9 and 195 early; 86 is a knock,
a Farbwenz and a Kontra played to the last trick."""


def path_of(game: str, config: dict) -> Path:
    return FOLDER / f"{variant_id(game, config)}.txt"


def _observation_text(observation: np.ndarray) -> str:
    """The non-zero entries as ``index=value`` (observations are sparse one-hots and small counts)."""
    nonzero = np.flatnonzero(observation)
    return " ".join(f"{i}={observation[i]:.6g}" for i in nonzero)


def playthrough(game: str, config: dict, seeds: tuple[int, ...] | None = None) -> str:
    """The text of the hands of ``game`` with ``config`` dealt by ``reset(seed=seed)`` for each seed (by
    default ``SEEDS`` and the variant's ``EXTRA_SEEDS``)."""
    if seeds is None:
        seeds = SEEDS + EXTRA_SEEDS.get(variant_id(game, config), ())
    return "".join(_hand(game, config, seed) for seed in seeds)


def _hand(game: str, config: dict, seed: int) -> str:
    """One hand dealt by ``reset(seed=seed)``, every action drawn uniformly from the legal ones by
    ``numpy.random.default_rng(seed)``."""
    env = game_spec(game).make_env(**config)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    lines = [
        f"# {game} {config}: reset(seed={seed}), actions drawn uniformly by numpy default_rng({seed})",
        "# written by tests/golden/playthroughs.py; replayed by tests/core/test_golden.py",
        f"deal: {env.unwrapped.game_record()['deal']}",
    ]
    step = 0
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        if termination or truncation:
            lines.append(f"{agent} done, reward {reward:+g}")
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        action = int(rng.choice(legal))
        lines.append(f"step {step}: {agent}")
        lines.append(f"  observation: {_observation_text(observation['observation'])}")
        lines.append(f"  legal: {' '.join(env.unwrapped.action_to_string(int(a)) for a in legal)}")
        lines.append(f"  action: {env.unwrapped.action_to_string(action)}")
        env.step(action)
        step += 1
    lines.append(f"result: {env.unwrapped.game_record()['result']}")
    return "\n".join(lines) + "\n"


@dataclass
class Args:
    """Rewrite the golden playthroughs of every env and variant (only after a deliberate rules change)."""

    check: bool = False
    """compare the files with what the code plays instead of writing them; exit 1 when any differs"""


def main(args: Args) -> int:
    differing = []
    for game, config in VARIANTS:
        path, text = path_of(game, config), playthrough(game, config)
        name = path.relative_to(FOLDER.parent.parent)
        if not args.check:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {name}")
        elif not path.exists() or path.read_text(encoding="utf-8") != text:
            differing.append(name)
            print(f"differs: {name}")
    if args.check:
        print(f"{len(VARIANTS) - len(differing)} of {len(VARIANTS)} files reproduced")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main(tyro.cli(Args)))
