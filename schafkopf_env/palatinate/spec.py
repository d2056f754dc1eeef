"""Palatinate Schafkopf's record in the game registry (``trick_core.game_spec`` says what each field means)."""

from trick_core.game_spec import GameSpec

SPEC = GameSpec(
    name="palatinate",
    package="schafkopf_env.palatinate",
    variants=({}, {"players": 4}),
    tournament_deals=120,
    reward_scale=5.0,
    deal_keys=("skat",),
    agent_defaults={
        "pimc": {"cautious": False},  # agents/search/pimc.py says why
        "pimc_dd": {"cautious": False},
    },
    seating="agents.seatings:palatinate_seatings",
    browser="play.views.schafkopf:PALATINATE",
    features="agents.neural.derived:schafkopf_layout",
    reference_player="benchmarks.reference_hands:play_palatinate",
    worst_loss="trick_gym.penalties:palatinate_worst_loss",
)
