"""What every env shares, the same in every game: the common fields of ``state()`` and the deal's dealer."""

from __future__ import annotations

import numpy as np
import pytest

from trick_core.registry import VARIANTS, game_spec, variant_id

COMMON_STATE_FIELDS = {
    "game": str, "config": dict, "phase": str, "dealer": int, "current_player": (str, type(None)), "hands": dict,
    "dealt_hands": dict, "history": list, "trick": list, "tricks": list,
}


@pytest.mark.parametrize(("game", "config"), VARIANTS, ids=[variant_id(g, c) for g, c in VARIANTS])
def test_state_has_the_common_fields_with_one_meaning_in_every_game(game, config):
    env = game_spec(game).make_env(**config)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(12):  # into the hand: bids made, cards played
        if env.terminations[env.agent_selection]:
            break
        env.step(int(rng.choice(np.flatnonzero(env.last()[0]["action_mask"]))))
    state = env.unwrapped.state()
    for field, kind in COMMON_STATE_FIELDS.items():
        assert isinstance(state[field], kind), f"{field}: {state[field]!r}"
    assert state["game"] == game and state["config"] == env.unwrapped.config
    assert state["dealer"] == env.unwrapped.game_record()["deal"]["dealer"]  # a seat index, as in reset options
    assert state["current_player"] in (env.agent_selection, None)
    assert set(state["dealt_hands"]) == set(state["hands"]) == set(env.possible_agents)
