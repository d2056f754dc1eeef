"""The ``pimc_neural`` agent: determinized search (PIMC) whose playouts are played by a trained network.

By default (``search="cards"``) it searches the decisions with a card play among the legal actions and
leaves every other decision (bids, doubles, talk, exchanges) to the network's own greedy choice, as the
``neural`` agent plays it: a bid valued by playouts in guessed worlds is where determinized search goes
wrong (a contract that needs the right card lie looks good in the worlds that have it), and searching the
bids too (``search="all"``) lost to ``pimc`` in Palatinate where searching only the card play did not
(``docs/training.md``, the ``pimc_neural`` table). For every decision it searches the agent

1. draws the kernel state of one world consistent with what its seat knows
   (``env.unwrapped.sampled_kernel_state``), and from it redeals the cards hidden from the seat
   ``samples`` times with the compiled ``resample_hidden`` driver (as ``pimc`` does: each redeal depends
   only on what the seat knows);
2. loads every (world, legal action) pair into a batch env of the game and plays the action, then lets
   the network play every seat to the end of the hand: one batched network call per step for all rows
   (``agents.neural.rollout.RolloutEvaluator``, the rollouts of ``experiments/mcpi.py``);
3. plays the action with the best mean settlement of its own seat over the worlds (ties: the lower
   action index).

The network is a checkpoint of ``agents.neural`` (default: the one shipped for the game, as ``neural``);
it plays greedily with its acting head, on each seat's own observation in the batch env, so a playout is
the ``neural`` agent at all four seats in a world that is only a guess. ``pimc`` plays its playouts with
hand-written heuristics instead; this agent asks whether the network is the better model of the rest of
the hand.

``candidates=k`` (default 0: every legal action) searches only the network's ``k`` best legal actions
(by its acting head's scores) and plays the best of them by the search; ``candidates=1`` is the network
itself. Fewer candidates cost less and leave the search less room to pick an action whose mean over a
few guessed worlds is high by chance or by what the worlds ignore (the worlds are drawn from legality
alone, not from what the other seats' talk and play say about their cards): in Knüffeln, where a seat
may play any card it holds, face up or turned (up to twice as many legal actions as cards), that room
costs the search most (``docs/training.md``, the ``pimc_neural`` section).

Cost per decision: ``samples`` compiled redeals and ``samples * legal actions`` hands played to their end,
a network forward pass (numpy) over all of them per step. A forced move costs nothing.

Use: ``agents.make("pimc_neural", game, samples=..., search=..., candidates=..., path=...)`` or
``"pimc_neural[samples=32,search=all]"`` in the arena. Only the table configuration the checkpoint was
trained on is supported (a clear error otherwise).
"""

from __future__ import annotations

import time

import numpy as np

from trick_core import drivers
from trick_core.bits import make_rng
from trick_core.checks import non_negative_int
from trick_core.registry import game_spec, kernel_module, make_env

from ..base import ActionValueAgent, card_actions, legal_actions, positive_int, seat_of
from ..neural.checkpoint import load_agent_policy
from ..neural.rollout import RolloutEvaluator, make_batch_env

DEFAULT_SAMPLES = 16
SEARCH_SCOPES = ("cards", "all")
"""What ``pimc_neural`` searches: only the decisions with a card play among the legal actions (the
default: the others, bidding, doubling, talk and exchanges, are the network's own choice), or every
decision with a choice. Searching the bids too lost badly in Palatinate (see docs/training.md)."""


class NeuralPIMCAgent(ActionValueAgent):
    """PIMC with the network's greedy play as the playout policy (see the module docstring)."""

    name = "pimc_neural"

    def __init__(
        self,
        game: str,
        samples: int = DEFAULT_SAMPLES,
        path: str | None = None,
        head: str | None = None,
        search: str = "cards",
        candidates: int = 0,
        seed: int | None = None,
    ) -> None:
        super().__init__(game, seed)
        self.samples = positive_int(samples, "samples")
        self.candidates = non_negative_int(candidates, "candidates")
        if search not in SEARCH_SCOPES:
            raise ValueError(f"search must be one of {SEARCH_SCOPES}, got {search!r}")
        self.search_scope = search
        self.path, checkpoint, self.policy = load_agent_policy(self.game, path, head)
        self.config = dict(checkpoint["config"])
        self._kernel = kernel_module(self.game)
        self._drivers = drivers.compiled(self._kernel)
        self._evaluators: dict[int, RolloutEvaluator] = {}
        self._trained_table = dict(make_env(self.game, **self.config).unwrapped.config)
        self.searches = 0
        self.search_seconds = 0.0
        self.inconsistent_worlds = 0

    def act(self, env, agent: str) -> int:
        legal = legal_actions(env, agent)
        if legal.size == 1:
            return super().act(env, agent)
        self.check_table(env)
        self.decisions += 1
        if self.search_scope == "cards" and not card_actions(env)[legal].any():
            return self._network_choice(env, agent, legal)
        candidates = self._candidates(env, agent, legal)
        if candidates.size == 1:
            return int(candidates[0])
        return int(candidates[int(np.argmax(self.action_values(env, agent, candidates)))])

    def _candidates(self, env, agent: str, legal: np.ndarray) -> np.ndarray:
        """The legal actions the search values: the network's ``candidates`` best (in index order), or all
        of them (``candidates=0``)."""
        if not self.candidates or legal.size <= self.candidates:
            return legal
        scores = self._network_scores(env, agent)[legal]
        return np.sort(legal[np.argsort(-scores, kind="stable")[: self.candidates]])

    def _network_choice(self, env, agent: str, legal: np.ndarray) -> int:
        """The ``neural`` agent's action: the best legal score of the network."""
        return int(legal[np.argmax(self._network_scores(env, agent)[legal])])

    def _network_scores(self, env, agent: str) -> np.ndarray:
        """The network's score of every action on the seat's observation as the network was trained on
        it, read in a batch env from any world consistent with what the seat knows (the seat's own view
        of it is exact; the table may give another ``observation_type``)."""
        world = env.unwrapped.sampled_kernel_state(agent, 0)
        step = self._evaluator(1).env.load_states(world[None, :], rows=np.zeros(1, dtype=np.int64),
                                                   _from_this_process=True)
        return self.policy.scores(step.observation)[0]

    def action_values(self, env, agent: str, legal: np.ndarray | None = None) -> np.ndarray:
        """Mean settlement of ``agent``'s seat after each legal action (in the order of ``legal``), the
        hands played out by the network in the sampled worlds."""
        if legal is None:
            legal = legal_actions(env, agent)
        self.check_table(env)
        start = time.perf_counter()
        seat = seat_of(env, agent)
        worlds = self._worlds(env, agent, seat, legal)
        states = np.repeat(worlds, legal.size, axis=0)
        actions = np.tile(legal, worlds.shape[0])
        seats = np.full(actions.size, seat, dtype=np.int64)
        returns, _ = self._evaluator(actions.size).evaluate(states, seats, actions, self._greedy)
        self.searches += 1
        self.search_seconds += time.perf_counter() - start
        return returns.reshape(worlds.shape[0], legal.size).mean(axis=0)

    def _worlds(self, env, agent: str, seat: int, legal: np.ndarray) -> np.ndarray:
        """``(worlds, state_size)``: kernel states redealt from one world of ``sampled_kernel_state``, each
        allowing every legal action (that first world itself if no redeal does, which never happened)."""
        world = env.unwrapped.sampled_kernel_state(agent, self.rng)
        rng = make_rng(int(self.rng.integers(2**63)))
        sampled = np.empty_like(world)
        mask = np.zeros(self._kernel.MAX_ACTIONS, dtype=np.int8)
        worlds = []
        for _ in range(self.samples):
            if not self._drivers.resample_hidden(world, seat, rng, sampled):
                self.inconsistent_worlds += 1
                continue
            self._kernel.legal_action_mask(sampled, mask)
            if not mask[legal].all():
                self.inconsistent_worlds += 1
                continue
            worlds.append(sampled.copy())
        return np.stack(worlds) if worlds else world[None, :]

    def _greedy(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """The network's best legal action in every row (as the ``neural`` agent chooses)."""
        scores = self.policy.scores(observation)
        return np.where(action_mask > 0, scores, -np.inf).argmax(axis=1)

    def _evaluator(self, rows: int) -> RolloutEvaluator:
        """A rollout batch env with exactly ``rows`` rows (kept per size: building one costs milliseconds)."""
        if rows not in self._evaluators:
            env = make_batch_env(self.game, rows, seed=0, num_threads=1, copy=False, **self.config)
            self._evaluators[rows] = RolloutEvaluator(env)
        return self._evaluators[rows]

    def check_table(self, env) -> None:
        """The table must have the configuration the network was trained on."""
        config = dict(env.unwrapped.config)
        if config != self._trained_table:
            raise ValueError(
                f"checkpoint {str(self.path)!r} was trained on {self.game} with config {self.config}; this "
                f"table has config {config}: pass pimc_neural[path=...] for a checkpoint trained on it"
            )

    def stats(self) -> dict:
        """Decisions, searches (decisions with a choice), milliseconds per search, redeals rejected."""
        per_search = 1000.0 * self.search_seconds / self.searches if self.searches else float("nan")
        return {"decisions": self.decisions, "searches": self.searches, "ms_per_search": per_search,
                "inconsistent_worlds": self.inconsistent_worlds}

    def __repr__(self) -> str:
        return (f"NeuralPIMCAgent(game={self.game!r}, samples={self.samples}, search={self.search_scope!r}, "
                f"candidates={self.candidates}, path={str(self.path)!r})")


def make_pimc_neural(game: str, **kwargs) -> NeuralPIMCAgent:
    """The built-in ``pimc_neural`` of ``game`` (``agents.make("pimc_neural", game, **kwargs)``), with the
    game spec's ``agent_defaults`` filling in what ``kwargs`` leaves out (Knüffeln searches more worlds and
    fewer candidates: the module docstring says why)."""
    return NeuralPIMCAgent(game, **{**game_spec(game).agent_options("pimc_neural"), **kwargs})
