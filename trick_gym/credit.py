"""Per-seat reward credit for learners that play every seat of the batch envs (multi-seat self-play).

In a batch env step each row applies one action, by the seat ``acting_player[row]``; when a hand ends,
``rewards[row, seat]`` holds *every* seat's settlement, in that one step. The tempting bookkeeping — give
the step's reward to the seat that acted — credits a whole hand to the seat that moved last (the trap of
PettingZoo's SB3 tutorial on multi-player games: the learner then bids the highest contract every time).
``SeatTransitions`` pairs each seat's decisions with what followed *for that seat*:

    from schafkopf_env.batch import BatchEnv
    from trick_gym.credit import SeatTransitions

    batch = BatchEnv("bavarian", 1024, seed=0)
    out = batch.reset()
    credit = SeatTransitions(batch)
    credit.start(out)
    for _ in range(steps):
        actions = policy(out.observation, out.action_mask)
        out = batch.step(actions)
        done = credit.record(actions, out)      # transitions completed by this step, any seats

A transition is one decision of one seat: ``observation``, ``action_mask``, ``action``, then ``reward``,
``done`` and ``next_observation``/``next_action_mask``. It completes when the same seat is next to act in
the same hand (reward 0, ``done`` False, next = that seat's observation then) or when the hand ends
(reward = that seat's settlement, ``done`` True, next = zeros): so every seat that decided in a hand
receives its own result on its own last decision. Call ``start(out)`` after ``reset`` or ``load_states``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Transitions(NamedTuple):
    """Completed transitions, one entry each (``k`` of them)."""

    row: np.ndarray
    """``int64 (k,)``: the batch row."""
    seat: np.ndarray
    """``int64 (k,)``: the deciding seat."""
    observation: np.ndarray
    """``float32 (k, obs_size)``: its observation at the decision."""
    action_mask: np.ndarray
    """``int8 (k, num_actions)``."""
    action: np.ndarray
    """``int64 (k,)``."""
    reward: np.ndarray
    """``float32 (k,)``: the seat's settlement if the hand ended before its next decision, else 0."""
    done: np.ndarray
    """``bool (k,)``: the hand ended before the seat's next decision."""
    next_observation: np.ndarray
    """``float32 (k, obs_size)``: the seat's observation at its next decision (zeros when ``done``)."""
    next_action_mask: np.ndarray
    """``int8 (k, num_actions)`` (zeros when ``done``)."""


class SeatTransitions:
    """Turns batch env steps into per-seat transitions with the right rewards (see the module docstring)."""

    def __init__(self, batch) -> None:
        """``batch``: a ``schafkopf_env.batch.BatchEnv`` or ``knuffeln_env.batch.BatchEnv`` (only its sizes
        are read)."""
        n, seats = batch.num_envs, batch.num_seats
        self.num_envs, self.num_seats = n, seats
        self._pending = np.zeros((n, seats), dtype=bool)
        self._observations = np.zeros((n, seats, batch.obs_size), dtype=np.float32)
        self._masks = np.zeros((n, seats, batch.num_actions), dtype=np.int8)
        self._actions = np.zeros((n, seats), dtype=np.int64)
        self._last_observation = np.zeros((n, batch.obs_size), dtype=np.float32)
        self._last_mask = np.zeros((n, batch.num_actions), dtype=np.int8)
        self._started = False

    def start(self, out) -> None:
        """Forget pending decisions and take the observations of ``out`` (``reset``'s or ``load_states``'s)."""
        self._pending[:] = False
        self._remember(out)
        self._started = True

    def record(self, actions, out) -> Transitions:
        """Account for one ``batch.step(actions)`` that returned ``out``; return the transitions it completed."""
        if not self._started:
            raise RuntimeError("SeatTransitions.start(out) must follow the batch env's reset() first")
        actions = np.asarray(actions, dtype=np.int64)
        rows = np.arange(self.num_envs)
        seats = np.asarray(out.acting_player)
        if seats.shape != (self.num_envs,) or (seats < 0).any():
            raise ValueError("out must come from batch.step (every row's acting_player is a seat)")
        # The acting seat decides again: its previous decision in this hand completes with reward 0.
        again = self._pending[rows, seats]
        continued = self._collect(rows[again], seats[again], np.zeros(int(again.sum()), np.float32), False,
                                  self._last_observation[again], self._last_mask[again])
        self._pending[rows, seats] = True
        self._observations[rows, seats] = self._last_observation
        self._masks[rows, seats] = self._last_mask
        self._actions[rows, seats] = actions
        # A hand that ended completes every seat's last decision in it with that seat's own settlement.
        ended_rows, ended_seats = np.nonzero(self._pending & np.asarray(out.terminated)[:, None])
        zeros_obs = np.zeros((ended_rows.size, self._observations.shape[2]), np.float32)
        zeros_mask = np.zeros((ended_rows.size, self._masks.shape[2]), np.int8)
        rewards = np.asarray(out.rewards, dtype=np.float32)[ended_rows, ended_seats]
        finished = self._collect(ended_rows, ended_seats, rewards, True, zeros_obs, zeros_mask)
        self._pending[ended_rows, ended_seats] = False
        self._remember(out)
        return Transitions(*(np.concatenate([a, b]) for a, b in zip(continued, finished, strict=True)))

    def _collect(self, rows, seats, rewards, done: bool, next_observation, next_mask) -> Transitions:
        return Transitions(
            rows.astype(np.int64), seats.astype(np.int64), self._observations[rows, seats],
            self._masks[rows, seats], self._actions[rows, seats], rewards, np.full(rows.size, done),
            np.asarray(next_observation, np.float32), np.asarray(next_mask, np.int8),
        )

    def _remember(self, out) -> None:
        self._last_observation[:] = out.observation
        self._last_mask[:] = out.action_mask
