"""Knüffeln's record in the game registry (``trick_core.game_spec`` says what each field means)."""

from trick_core.game_spec import GameSpec

SPEC = GameSpec(
    name="knuffeln",
    package="knuffeln_env.knuffeln",
    variants=(
        {},
        {"players": 5},
        {"variant": "hattstedt"},
        {"variant": "bernhard1924"},
        {"variant": "gruenberg1938"},
        {"talk": "lexicon"},
        {"talk": "tokens:4"},
    ),
    tournament_deals=600,
    reward_scale=8.0,
    deal_keys=("stock",),
    face_down_actions=("turn:",),
    talk_actions=("silent", "say:", "show:", "token:"),
    agent_classes={
        "pimc": "agents.search.knuffeln:KnuffelnPIMCAgent",
        "pimc_dd": "agents.search.pimc_dd:KnuffelnDoubleDummyAgent",
    },
    agent_defaults={
        "ismcts": {"epsilon": 0.1},  # the playouts' epsilon of Knüffeln's pimc (agents/search/knuffeln.py)
        # more worlds and only the network's three best actions searched: see agents/search/pimc_neural.py
        "pimc_neural": {"samples": 24, "candidates": 3},
    },
    seating="agents.seatings:knuffeln_seatings",
    browser="play.views.knuffeln:KNUFFELN",
    features="agents.neural.derived:knuffeln_layout",
    reference_player="benchmarks.reference_hands:play_knuffeln",
    worst_loss="trick_gym.penalties:knuffeln_worst_loss",
)
