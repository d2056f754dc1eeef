"""The reward scale of an env config, for the games whose settlement units depend on their options
(``GameSpec.config_reward_scale``): Bavarian's tariffs.

Training divides returns by a scale of about the standard deviation of one seat's settlement when the
rule-based bots play each other, so that its targets are of order one (``docs/results.md``, "Reward
scales"; the figures are ``docs/results/reward_spread.json``, ``python -m benchmarks.reward_spread``).
Bavarian's ``tariff`` changes the units of every reward (``"card"`` units, ``"sauspiel"`` cents, or a custom
price list), so one fixed scale cannot fit them all:

- ``tariff="card"`` (the default): the game's ``reward_scale``, 5, as before (the measured spread is 5.68).
- ``tariff="sauspiel"``: 60 cents (``SAUSPIEL_SCALE``), the measured spread (59.9) rounded to the tariff's
  step of 10 cents.
- a custom tariff (a mapping): ``SAUSPIEL_SCALE`` times the ratio of the custom tariff's spread to the
  sauspiel tariff's, both computed from ``SECOND_MOMENTS``. The rules agents' play does not depend on the
  tariff, so a seat's settlement is a sum over the nine prices of the default options (Rufer, Solo and
  Wenz: ``base``, ``schneider_schwarz``, ``laufende``) of how many of each it won or paid; the benchmark
  measured the mean products of those counts over 20,000 seat-hands, so any tariff's spread is
  ``sqrt(sum over families of p' M p)`` without playing a hand (for the two presets it reproduces the
  measured spreads exactly). The ratio rather than the bare spread keeps a custom tariff equal to sauspiel's
  at sauspiel's scale. Why not the simpler ratio of the Rufer prices alone: the Solo and Wenz prices weigh
  about as much as the Rufer's in the spread (Solo 50 cents against Rufer 20), and a custom tariff may
  change one and not the other. ``laufende_from`` is taken as the presets' (three, Wenz two): a custom one
  changes how many Laufende are paid, which the counts do not cover.

The other options (the short pack, Kontra, Klopfen, Ramsch, the extra contracts) keep the tariff's scale:
with every option of the online servers on, the sauspiel spread grows to about 99 cents, 1.7 times the
scale, still of order one. ``--reward-scale`` overrides any of these.
"""

from __future__ import annotations

import math

SAUSPIEL_SCALE = 60.0
"""The reward scale of ``tariff="sauspiel"``, in cents (module docstring)."""

TARIFF_KEYS = ("base", "schneider_schwarz", "laufende")
SECOND_MOMENTS = {
    "rufer": ((0.7176, 0.2756, 0.4584), (0.2756, 0.318, 0.319), (0.4584, 0.319, 1.7096)),
    "solo": ((0.5838, 0.2034, 0.3564), (0.2034, 0.2514, 0.2754), (0.3564, 0.2754, 1.1976)),
    "wenz": ((0.1128, 0.0288, 0.1602), (0.0288, 0.0324, 0.0348), (0.1602, 0.0348, 0.4074)),
}
"""Per contract family, the mean over seat-hands of count_i x count_j for its ``TARIFF_KEYS`` (the rules agents
at every seat, 5,000 hands, seed 0): the diagonal blocks of ``second_moments`` in
``docs/results/reward_spread.json`` (the blocks between families are zero: a hand has one contract)."""

ENV_ARGUMENTS = ("observation_type", "illegal_action", "illegal_reward", "render_mode")
"""Arguments of the env that are not rule options and leave the rewards as they are."""


def tariff_spread(tariff: dict) -> float:
    """The standard deviation of a seat's settlement under the full ``tariff`` (family -> key -> price) when
    the rules agents play the default options (``SECOND_MOMENTS``)."""
    variance = 0.0
    for family, moments in SECOND_MOMENTS.items():
        prices = [tariff[family][key] for key in TARIFF_KEYS]
        variance += sum(prices[i] * moments[i][j] * prices[j] for i in range(3) for j in range(3))
    return math.sqrt(variance)


def bavarian_scale(config: dict) -> float:
    """The reward scale of Bavarian under the env config ``config`` (module docstring); a bad rule option
    raises the env's ``ValueError`` naming it."""
    from schafkopf_env.bavarian.tables import checked_options, resolved_tariff
    from trick_core.registry import game_spec

    rules = checked_options(**{key: value for key, value in config.items() if key not in ENV_ARGUMENTS})
    tariff = rules.get("tariff", "card")
    if tariff == "card":
        return float(game_spec("bavarian").reward_scale)
    if tariff == "sauspiel":
        return SAUSPIEL_SCALE
    spread = tariff_spread(tariff)  # checked_options wrote the custom tariff out in full
    if spread == 0:
        raise ValueError("bavarian: the tariff prices every Rufer, Solo and Wenz at 0, so every hand settles at 0 "
                         "and there is no reward scale; give it prices or pass --reward-scale")
    return SAUSPIEL_SCALE * spread / tariff_spread(resolved_tariff("sauspiel"))
