"""A PettingZoo AEC table whose only agent is the learner's seat (the other seats play inside the env).

For multi-agent libraries that store transitions in the env's turn order and credit each step's rewards to
the seat that just acted (Tianshou's ``PettingZooEnv`` with ``MultiAgentOffPolicyAlgorithm``): on the full
four-seat table, a hand's result arrives on the last mover's step, so the other seats never see theirs,
and an n-step target bootstraps from the *next seat's* observation. With the other seats played inside
the env, every transition is the learner's: its reward is its own settlement and its next observation is
its own next decision.

    from trick_gym.pettingzoo import LearnerSeatTable
    env = LearnerSeatTable("bavarian", opponents="rules", seat="random")   # agents == ["learner"]

Observations follow PettingZoo classic: ``{"observation": vector, "action_mask": int8}``. Built on
``trick_gym.one_seat.OneSeatEnv`` (same options).

``RenamedObservation(aec_env, key="observations")`` renames the observation key of any game env, for
RLlib's action-masking model.
"""

from __future__ import annotations

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import BaseWrapper

from .one_seat import OneSeatEnv

LEARNER = "learner"


class LearnerSeatTable(AECEnv):
    """PettingZoo AEC env with the single agent ``"learner"`` (see the module docstring)."""

    metadata = {"render_modes": ["ansi", "human"], "name": "trick_gym_learner_seat", "is_parallelizable": False}

    def __init__(self, game: str = "bavarian", **one_seat_options) -> None:
        super().__init__()
        self.one_seat = OneSeatEnv(game, observation_mode="vector", **one_seat_options)
        self.render_mode = self.one_seat.render_mode
        self.possible_agents = [LEARNER]
        table_space = self.one_seat.aec_env.observation_space(self.one_seat.aec_env.possible_agents[0])
        self._observation_space = gymnasium.spaces.Dict(
            {"observation": table_space["observation"], "action_mask": table_space["action_mask"]}
        )
        self._action_space = self.one_seat.action_space
        self._observation = None

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """``options``: ``OneSeatEnv.reset``'s (``deal``, ``seat``); the key ``"options"`` that PettingZoo's
        ``api_test`` passes is ignored, as the game envs do."""
        options = {key: value for key, value in (options or {}).items() if key != "options"}
        self._observation, info = self.one_seat.reset(seed=seed, options=options)
        self.agents = [LEARNER]
        self.agent_selection = LEARNER
        self.rewards = {LEARNER: 0.0}
        self._cumulative_rewards = {LEARNER: 0.0}
        self.terminations = {LEARNER: False}
        self.truncations = {LEARNER: False}
        self.infos = {LEARNER: {"seat": info["seat"]}}

    def step(self, action) -> None:
        if self.terminations[LEARNER] or self.truncations[LEARNER]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[LEARNER] = 0.0
        self._observation, reward, terminated, truncated, info = self.one_seat.step(action)
        self.rewards[LEARNER] = float(reward)
        self.terminations[LEARNER] = bool(terminated)
        self.truncations[LEARNER] = bool(truncated)
        self.infos[LEARNER] = {"seat": info["seat"]}
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict:
        mask = self.one_seat.action_masks().astype(np.int8)
        return {"observation": np.array(self._observation, dtype=np.float32), "action_mask": mask}

    def render(self):
        return self.one_seat.render()

    def close(self) -> None:
        self.one_seat.close()


class RenamedObservation(BaseWrapper):
    """A game's AEC env whose observations are ``{key: vector, "action_mask": mask}`` — for RLlib's
    action-masking RLModule, which reads ``"observations"`` (plural) where PettingZoo writes ``"observation"``."""

    def __init__(self, env: AECEnv, key: str = "observations") -> None:
        super().__init__(env)
        self.key = key
        space = env.observation_space(env.possible_agents[0])
        self._renamed_space = gymnasium.spaces.Dict(
            {key: space["observation"], "action_mask": space["action_mask"]}
        )

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self._renamed_space

    def observe(self, agent: str) -> dict:
        seen = self.env.observe(agent)
        return {self.key: seen["observation"], "action_mask": seen["action_mask"]}
