"""Bavarian Schafkopf's record in the game registry (``trick_core.game_spec`` says what each field means)."""

from trick_core.game_spec import GameSpec

SPEC = GameSpec(
    name="bavarian",
    package="schafkopf_env.bavarian",
    variants=(
        {},
        # every rule option of the online servers at once, so that the registry-driven suites play them
        {
            "tariff": "sauspiel",
            "doubling": True,
            "klopfen": True,
            "ramsch": True,
            "geier": True,
            "farbwenz": True,
            "bettel": True,
        },
        {"pack": "short"},
    ),
    tournament_deals=120,
    reward_scale=5.0,
    agent_defaults={
        "pimc_dd": {"exact_tricks": 7},  # the lean solver affords seven of eight tricks (agents/search/pimc_dd.py)
    },
    tournament_agents={
        "pimc_dd": "pimc_dd[exact_tricks=5]",  # seven would lengthen make run by minutes (agents/tournament.py)
    },
    browser="play.views.schafkopf:BAVARIAN",
    features="agents.neural.derived:schafkopf_layout",
    reference_player="benchmarks.reference_hands:play_bavarian",
    worst_loss="trick_gym.penalties:bavarian_worst_loss",
    config_reward_scale="agents.neural.reward_scales:bavarian_scale",
)
