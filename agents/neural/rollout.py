"""Self-play on the compiled batch envs: every seat's decisions recorded, and credited when the hand ends.

A batch env (``schafkopf_env.batch``, ``knuffeln_env.batch``) steps thousands of hands; in each step every
row has one seat to act, so a training loop makes one batched network call for all rows and passes the
actions back. Rewards arrive per seat only when a row's hand ends (its settlement), in the step that ends
it, after which the row already holds a new hand. ``HandRecorder`` keeps, per row, the decisions of the
hand in progress with the seat that took each, and once the hand is over hands them out with their
**Monte-Carlo return**: the final settlement of the seat that made the decision (the DouZero credit).
For PPO it also computes generalised advantage estimates along each seat's own chain of decisions in
the hand (a seat's next state is its next decision; its last decision's successor is the settlement).

Hands still running when a batch of decisions is handed out are kept for the next one, so every
decision is handed out exactly once, with the return of its own hand, whatever the rollout length.

``SeatMixer`` decides, per row and per hand, which seats the learner plays: all of them (self-play), or
some while a frozen past network plays the others (the opponent pool). Seatings follow the arena's: one
whole team in Knüffeln (four players), otherwise a random half of the seats.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..seatings import PARTNERSHIP, seatings_for


def make_batch_env(game: str, num_envs: int, seed: int | None = None, num_threads: int | None = 1, **config):
    """The compiled batch env of ``game`` with the env options ``config`` (the registry's
    ``make_batch_env``: ``schafkopf_env.batch`` or ``knuffeln_env.batch``)."""
    from trick_core.registry import game_spec

    return game_spec(game).make_batch_env(num_envs, seed=seed, num_threads=num_threads, **config)


@dataclass
class Decisions:
    """Decisions of finished hands, one row each (the learner's seats only)."""

    observation: np.ndarray  # float16 (M, obs_size)
    action: np.ndarray  # int64 (M,)
    returns: np.ndarray  # float32 (M,): the deciding seat's settlement of the hand, in units
    action_mask: np.ndarray | None = None  # bool (M, num_actions), when recorded
    extras: dict[str, np.ndarray] = field(default_factory=dict)  # e.g. logprob, value (as recorded)
    advantages: np.ndarray | None = None  # float32 (M,), when computed (PPO)
    hands: int = 0  # hands finished in this batch
    hand_returns: np.ndarray | None = None  # float32 (hands, seats): settlements of those hands

    def __len__(self) -> int:
        return int(self.action.shape[0])


class HandRecorder:
    """Records the decisions of every row and seat, and hands out those of finished hands with their
    returns (see the module docstring). ``record_masks``: keep each decision's action mask (PPO needs it);
    ``extras``: names of per-decision float arrays passed to ``record`` (e.g. ``("logprob", "value")``)."""

    def __init__(self, num_envs: int, num_seats: int, record_masks: bool = False, extras: tuple[str, ...] = ()):
        self.num_envs = num_envs
        self.num_seats = num_seats
        self.record_masks = record_masks
        self.extra_names = tuple(extras)
        self._steps: list[dict] = []
        self._handed_out: list[np.ndarray] = []  # per kept step: (num_envs,) bool, already handed out
        self._new_hand_returns: list[np.ndarray] = []  # settlements of hands ended since the last hand-out

    def record(self, observation, action, seat, learner, action_mask=None, **extras) -> None:
        """One batch step before it is applied: every row's observation (``(N, obs_size)``), chosen action,
        seat to act, and whether the learner took the decision (``bool (N,)``; others are not handed out)."""
        if sorted(extras) != sorted(self.extra_names):
            raise ValueError(f"record() takes the extras {self.extra_names}, got {tuple(extras)}")
        step = {
            "observation": np.asarray(observation, dtype=np.float16),
            "action": np.asarray(action, dtype=np.int64).copy(),
            "seat": np.asarray(seat, dtype=np.int64).copy(),
            "learner": np.asarray(learner, dtype=bool).copy(),
            "extras": {name: np.asarray(value, dtype=np.float32).copy() for name, value in extras.items()},
        }
        if self.record_masks:
            step["action_mask"] = np.asarray(action_mask).astype(bool)
        self._steps.append(step)
        self._handed_out.append(np.zeros(self.num_envs, dtype=bool))

    def outcome(self, rewards, terminated) -> None:
        """What the step just recorded led to: ``rewards (N, seats)`` and ``terminated (N,)``."""
        if not self._steps or "terminated" in self._steps[-1]:
            raise RuntimeError("outcome() must follow record(), once per step")
        terminated = np.asarray(terminated, dtype=bool).copy()
        rewards = np.asarray(rewards, dtype=np.float32).copy()
        self._steps[-1]["terminated"] = terminated
        self._steps[-1]["rewards"] = rewards
        self._new_hand_returns.append(rewards[terminated])

    @property
    def pending_steps(self) -> int:
        return len(self._steps)

    def drop_unfinished(self) -> None:
        """Forget every recorded step (used when the env is reseeded and running hands are abandoned)."""
        self._steps.clear()
        self._handed_out.clear()

    def finished(self, gae_lambda: float | None = None) -> Decisions:
        """Hand out the learner's decisions of every hand finished since the last call (with ``gae_lambda``:
        also advantages along each seat's chain, from the recorded extra ``value``); keep the rest."""
        if self._steps and "terminated" not in self._steps[-1]:
            raise RuntimeError("the last recorded step has no outcome() yet")
        if gae_lambda is not None and "value" not in self.extra_names:
            raise ValueError("advantages need the extra 'value' to be recorded")
        hand_returns = (
            np.concatenate(self._new_hand_returns) if self._new_hand_returns else np.zeros((0, self.num_seats))
        )
        self._new_hand_returns.clear()
        if not self._steps:
            return self._empty(hand_returns)
        seats = np.stack([step["seat"] for step in self._steps])
        terminated = np.stack([step["terminated"] for step in self._steps])
        rewards = np.stack([step["rewards"] for step in self._steps])
        values = np.stack([step["extras"]["value"] for step in self._steps]) if gae_lambda is not None else None
        complete, returns, advantages = _credit(seats, terminated, rewards, values, gae_lambda)
        learner = np.stack([step["learner"] for step in self._steps])
        take = complete & ~np.stack(self._handed_out) & learner
        rows = [np.flatnonzero(take[t]) for t in range(take.shape[0])]

        def column(key: str, extra: bool = False) -> np.ndarray:
            return np.concatenate(
                [(step["extras"][key] if extra else step[key])[r] for step, r in zip(self._steps, rows, strict=True)]
            )

        decisions = Decisions(
            observation=column("observation"),
            action=column("action"),
            returns=returns[take].astype(np.float32),
            action_mask=column("action_mask") if self.record_masks else None,
            extras={name: column(name, extra=True) for name in self.extra_names},
            advantages=None if advantages is None else advantages[take].astype(np.float32),
            hands=int(hand_returns.shape[0]),
            hand_returns=hand_returns.astype(np.float32),
        )
        self._keep_unfinished(complete)
        return decisions

    def _empty(self, hand_returns: np.ndarray) -> Decisions:
        return Decisions(
            observation=np.zeros((0, 0), np.float16),
            action=np.zeros(0, np.int64),
            returns=np.zeros(0, np.float32),
            hands=int(hand_returns.shape[0]),
            hand_returns=hand_returns.astype(np.float32),
        )

    def _keep_unfinished(self, complete: np.ndarray) -> None:
        """Drop the leading steps in which every row's decision belongs to a finished hand."""
        if not self._steps:
            return
        unfinished_rows = ~complete.all(axis=0)
        first_kept = len(self._steps)
        if unfinished_rows.any():
            first_kept = int(np.argmin(complete[:, unfinished_rows], axis=0).min())
        for index in range(first_kept, len(self._steps)):
            self._handed_out[index] |= complete[index]
        del self._steps[:first_kept]
        del self._handed_out[:first_kept]


def _credit(seats, terminated, rewards, values, gae_lambda):
    """Backward pass over the recorded steps ``(T, N)``: whether each decision's hand is over, the
    deciding seat's settlement of it, and (with ``values``) GAE advantages along each seat's chain."""
    steps, rows = seats.shape
    num_seats = rewards.shape[2] if rewards.ndim == 3 else 0
    complete = np.zeros((steps, rows), dtype=bool)
    returns = np.zeros((steps, rows), dtype=np.float64)
    advantages = None if values is None else np.zeros((steps, rows), dtype=np.float64)
    hand_over = np.zeros(rows, dtype=bool)
    settlement = np.zeros((rows, num_seats), dtype=np.float64)
    next_value = np.zeros((rows, num_seats))
    next_advantage = np.zeros((rows, num_seats))
    pending_reward = np.zeros((rows, num_seats))
    every_row = np.arange(rows)
    for t in range(steps - 1, -1, -1):
        ended = terminated[t]
        settlement[ended] = rewards[t][ended]
        hand_over |= ended
        complete[t] = hand_over
        seat = seats[t]
        returns[t] = settlement[every_row, seat]
        if values is None:
            continue
        next_value[ended] = 0.0
        next_advantage[ended] = 0.0
        pending_reward[ended] = rewards[t][ended]
        delta = pending_reward[every_row, seat] + next_value[every_row, seat] - values[t]
        advantages[t] = delta + gae_lambda * next_advantage[every_row, seat]
        next_value[every_row, seat] = values[t]
        next_advantage[every_row, seat] = advantages[t]
        pending_reward[every_row, seat] = 0.0
    return complete, returns, advantages


class SeatMixer:
    """Which seats the learner plays in each row, redrawn whenever a row's hand ends: with probability
    ``opponent_fraction`` a row is an opponent row (the learner holds one team where the game's seatings
    are fixed partnerships, ``agents.seatings.PARTNERSHIP``, as in four-player Knüffeln; a random half of the
    seats otherwise; a frozen past network plays the rest), else the learner plays
    every seat (self-play). It starts with the learner in every seat; call ``redraw`` for every row once
    the env is reset."""

    def __init__(self, game: str, num_envs: int, num_seats: int, opponent_fraction: float, rng: np.random.Generator):
        if not 0.0 <= opponent_fraction <= 1.0:
            raise ValueError(f"opponent_fraction must lie in [0, 1], got {opponent_fraction!r}")
        self.game = game
        self.num_seats = num_seats
        self.opponent_fraction = opponent_fraction
        self.rng = rng
        self.learner_seats = np.ones((num_envs, num_seats), dtype=bool)
        scheme, seatings = seatings_for(game, num_seats, dealer=0)
        self._teams = seatings if scheme == PARTNERSHIP else None

    def redraw(self, rows: np.ndarray) -> None:
        """New seatings for the rows flagged in ``rows`` (bool ``(N,)``: their hands just ended)."""
        picked = np.flatnonzero(rows)
        if picked.size == 0:
            return
        self.learner_seats[picked] = True
        if self.opponent_fraction == 0.0:
            return
        mixed = picked[self.rng.random(picked.size) < self.opponent_fraction]
        for row in mixed:
            self.learner_seats[row] = self._mixed_seating()

    def _mixed_seating(self) -> np.ndarray:
        seating = np.zeros(self.num_seats, dtype=bool)
        if self._teams is not None:  # the learner holds one whole team (the seatings' own scheme)
            seating[:] = np.array(self._teams[int(self.rng.integers(len(self._teams)))]) == 0
            return seating
        count = self.num_seats // 2 if self.num_seats % 2 == 0 else int(self.rng.integers(1, self.num_seats))
        seating[self.rng.choice(self.num_seats, size=count, replace=False)] = True
        return seating

    def learner_acts(self, current_player: np.ndarray) -> np.ndarray:
        """bool ``(N,)``: whether the learner takes each row's decision now."""
        return self.learner_seats[np.arange(current_player.shape[0]), current_player]


class RolloutEvaluator:
    """Scores (position, action) pairs by playing each hand to its end with a policy, thousands at once in
    a batch env of its own: the pair's position (a kernel state from ``BatchEnv.kernel_states()``) is loaded
    into a free row, the pair's action is played, then ``policy`` plays every seat until the hand ends, and
    the settlement of the seat that took the action is the pair's return. A row whose hand ends takes the
    next pair at once, so the rows stay busy. With a deterministic policy the return is exact for the
    position's actual deal (the cards the deciding seat could not see included): averaged by a learner over
    many positions that look alike to the seat, it estimates the action's value under that policy."""

    def __init__(self, env) -> None:
        self.env = env
        self.env.reset()

    def evaluate(self, states: np.ndarray, seats: np.ndarray, actions: np.ndarray, policy) -> tuple[np.ndarray, int]:
        """``(returns, decisions)``: per pair, the deciding seat's settlement (float64 ``(M,)``); and the
        decisions played. ``policy(observation, action_mask) -> actions`` is called on every row at once."""
        count = int(actions.shape[0])
        rows = self.env.num_envs
        returns = np.full(count, np.nan)
        pair_of_row = np.full(rows, -1, dtype=np.int64)
        forced = np.full(rows, -1, dtype=np.int64)
        next_pair, decisions = 0, 0
        out = None
        while True:
            free = np.flatnonzero(pair_of_row < 0)
            take = min(free.size, count - next_pair)
            if take:
                loaded_rows = free[:take]
                pairs = np.arange(next_pair, next_pair + take)
                out = self.env.load_states(states[pairs], rows=loaded_rows, _from_this_process=True)
                pair_of_row[loaded_rows] = pairs
                forced[loaded_rows] = actions[pairs]
                next_pair += take
            active = pair_of_row >= 0
            if not active.any():
                return returns, decisions
            chosen = np.asarray(policy(out.observation, out.action_mask), dtype=np.int64)
            pending = forced >= 0
            chosen[pending] = forced[pending]
            forced[:] = -1
            out = self.env.step(chosen)
            decisions += int(active.sum())
            ended = active & out.terminated
            finished_pairs = pair_of_row[ended]
            returns[finished_pairs] = out.rewards[ended, seats[finished_pairs]]
            pair_of_row[ended] = -1
