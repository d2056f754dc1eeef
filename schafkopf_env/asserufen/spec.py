"""Asserufen's record in the game registry (``trick_core.game_spec`` says what each field means)."""

from trick_core.game_spec import GameSpec

SPEC = GameSpec(
    name="asserufen",
    package="schafkopf_env.asserufen",
    variants=({}, {"max_doublings": 1}),
    tournament_deals=240,
    reward_scale=4.0,
    browser="play.views.schafkopf:ASSERUFEN",
    features="agents.neural.derived:schafkopf_layout",
    reference_player="benchmarks.reference_hands:play_asserufen",
    worst_loss="trick_gym.penalties:asserufen_worst_loss",
)
