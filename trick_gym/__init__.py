"""Gymnasium envs for single-agent and vectorised learners: one seat of a game, the others played for it.

``import trick_gym`` registers one Gymnasium id per game (Gymnasium 1.x no longer loads plugins through
entry points, so the import, or the ``"trick_gym:"`` prefix, is what makes them known):

    import gymnasium, trick_gym

    env = gymnasium.make("Bavarian-v0", opponents="rules")             # or seat="random", observation_mode="dict"
    env = gymnasium.make("trick_gym:Knuffeln-v0", variant="hattstedt", talk="tokens:4")   # no import needed
    envs = gymnasium.make_vec("Bavarian-v0", num_envs=1024, vectorization_mode="vector_entry_point")

| id | game | rule options (keyword arguments) |
|---|---|---|
| ``Bavarian-v0`` | Bavarian Schafkopf | ``tariff``, ``pack``, ``doubling``, ``klopfen``, ``ramsch`` |
| ``Palatinate-v0`` | Palatinate Schafkopf | ``players=3 \\| 4``, ``max_doublings`` |
| ``Asserufen-v0`` | Asserufen | ``max_doublings`` |
| ``Knuffeln-v0`` | Knüffeln | ``variant``, ``players``, ``talk``, ``match`` |

- ``OneSeatEnv`` (``trick_gym.one_seat``, what ``gymnasium.make`` returns, unwrapped): one hand per episode,
  the learner's settlement as reward, ``action_masks()`` for SB3-contrib, other seats played by any
  ``agents.make`` agent or a policy callable (``trick_gym.opponents``). An illegal move ends the episode
  with the game's worst settlement (``trick_gym.penalties``) unless ``illegal_action="raise"``, so that
  Gymnasium's and SB3's ``check_env`` pass on every id with its defaults.
- ``OneSeatVectorEnv`` (``trick_gym.vector``, what ``make_vec`` returns): a ``gymnasium.vector.VectorEnv``
  over the compiled batch env; random opponents play in compiled code, or a batched policy callable.
- ``SeatTransitions`` (``trick_gym.credit``): per-seat transitions with the right rewards from the raw
  batch envs, for learners that play every seat themselves (multi-seat self-play).

See ``docs/rl_libraries.md`` for the recipes with SB3-contrib, TorchRL, Tianshou and RLlib.
"""

from __future__ import annotations

import gymnasium

from .games import GAMES, GYM_IDS
from .one_seat import OneSeatEnv, make_env

__all__ = ["GAMES", "GYM_IDS", "OneSeatEnv", "OneSeatVectorEnv", "SeatTransitions", "make_env", "register_envs"]


def register_envs() -> None:
    """Register ``Bavarian-v0``, ``Palatinate-v0``, ``Asserufen-v0``, ``Knuffeln-v0`` (done on import)."""
    for game, gym_id in GYM_IDS.items():
        if gym_id in gymnasium.registry:
            continue
        gymnasium.register(
            id=gym_id,
            entry_point="trick_gym.one_seat:OneSeatEnv",
            vector_entry_point="trick_gym.vector:OneSeatVectorEnv",
            kwargs={"game": game},
            # gymnasium.make returns the env itself, so that env.action_masks() works on it (Gymnasium 1.x's
            # wrappers forward no attributes); OneSeatEnv enforces reset-before-step and passes check_env.
            order_enforce=False,
            disable_env_checker=True,
        )


def __getattr__(name: str):
    # The vector env and the credit helper compile numba loops on first use; import them lazily.
    if name == "OneSeatVectorEnv":
        from .vector import OneSeatVectorEnv

        return OneSeatVectorEnv
    if name == "SeatTransitions":
        from .credit import SeatTransitions

        return SeatTransitions
    raise AttributeError(f"module 'trick_gym' has no attribute {name!r}")


register_envs()
