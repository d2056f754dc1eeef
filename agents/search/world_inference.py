"""Inference over sampled worlds: how likely the other seats' observed decisions are in each world.

A world drawn from legality alone ignores what the other seats' decisions show (a seat that did not trump
a trick it could have won cheaply probably holds no small trump). Following Rebstock et al. (2019,
"Policy-based inference in trick-taking card games"), a world is weighted by the probability, under a
model of the other players, of their decisions this hand: ``pimc_dd[inference=...]`` draws several times
the worlds it solves, weights them here and keeps a resample (``resampled_indices``). Two models:

- ``PlayInference`` (``inference="heuristic"``): the game's compiled playout policy (the club habits of
  the ``pimc`` playouts), which plays its heuristic card with probability ``trust`` and any legal card
  otherwise, so an observed card has probability ``trust * [the heuristic's card] + (1 - trust) / legal
  cards``. Only card plays are weighed: the playout policy's other decisions are defaults or random, and
  say little about a hand.
- ``NeuralPlayInference`` (``inference="neural"``): a trained network (default: the one shipped for the
  game, as the ``neural`` agent plays it) reading the acting seat's own observation *in that world*, so an
  observed decision has probability ``trust * softmax(scores over the legal actions)[decision] + (1 -
  trust) / legal actions``. Every decision of another seat with a choice is weighed, bids, doubles and
  talk included: the network has a model of each. All observations of all candidate worlds go through
  the network in one batched forward pass (numpy).

Both replay each candidate world's hand from its deal (the kernel's ``init_state`` and recorded history);
a world the replay cannot reproduce keeps the legality prior (log-likelihood 0) rather than being
dropped. The weights depend only on what the searching seat knows and on the world (the no-peeking tests
of ``pimc_dd`` cover both models).
"""

from __future__ import annotations

import functools
import types

import numpy as np

from trick_core import drivers
from trick_core.bits import make_rng
from trick_core.jit import njit
from trick_core.registry import game_spec, make_env
from trick_core.specialise import code_fingerprint, compile_copies

from .. import base


class PlayInference:
    """Weights of sampled worlds by the likelihood of the other seats' card plays under the trusted playout
    policy (module docstring)."""

    def __init__(self, world, trust: float) -> None:
        spec = game_spec(world.game_name)
        self.kernel = spec.kernel()
        self.policy = spec.policy()
        self.resample_hidden = drivers.compiled(self.kernel).resample_hidden
        self.trust = trust
        self.is_card = base.card_actions(world) & ~base.turn_actions(world)
        self.effective_shares: list[float] = []

    def weighted_worlds(self, world, seat: int, count: int, rng: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
        """``count`` redeals of ``world``'s hidden cards (compiled, from what ``seat`` knows) and the
        likelihood of the other seats' decisions in each."""
        base_state = world.kernel_state()
        states = []
        for _ in range(count):
            sampled = np.empty_like(base_state)
            if self.resample_hidden(base_state, seat, rng, sampled):
                states.append(sampled)
        if not states:
            raise RuntimeError(f"{world.game_name}: found no deal consistent with what seat {seat} knows")
        weights = np.exp(self.log_likelihoods(world, states, seat))
        self.effective_shares.append(effective_share(weights))
        return states, weights

    def log_likelihoods(self, world, states: list[np.ndarray], seat: int) -> np.ndarray:
        """The log-likelihood of each of ``states`` (``log_likelihood``)."""
        return np.array([self.log_likelihood(world, sampled, seat) for sampled in states], dtype=np.float64)

    def log_likelihood(self, world, sampled: np.ndarray, seat: int) -> float:
        """Log-probability of the other seats' card plays in ``sampled`` under the trusted playout policy;
        0 (no information) where the hand does not replay from its deal."""
        seats, history = self.history(sampled)
        if not any(self.is_card[a] and s != seat for s, a in zip(seats, history, strict=True)):
            return 0.0
        kernel = self.kernel
        state = self.hand_start(world, sampled)
        mask = np.zeros(kernel.MAX_ACTIONS, dtype=np.int8)
        policy_rng = make_rng(0)  # the heuristic card takes no random draw at trust's epsilon 0
        total = 0.0
        for actor, action in zip(seats, history, strict=True):
            kernel.legal_action_mask(state, mask)
            if kernel.current_seat(state) != actor or not mask[action]:
                return 0.0
            if actor != seat and self.is_card[action]:
                legal_cards = int(np.count_nonzero(mask[: self.is_card.size][self.is_card]))
                chosen = int(self.policy.heuristic_action(state, policy_rng, 0.0))
                total += np.log(self.trust * (chosen == action) + (1.0 - self.trust) / legal_cards)
            kernel.apply_action(state, action)
        return total

    def history(self, sampled: np.ndarray) -> tuple[list[int], list[int]]:
        """The seats and actions the kernel recorded in ``sampled``'s hand so far."""
        kernel = self.kernel
        length = int(sampled[kernel.S_HISTORY_LENGTH])
        seats = sampled[kernel.S_HISTORY_SEATS: kernel.S_HISTORY_SEATS + length]
        actions = sampled[kernel.S_HISTORY_ACTIONS: kernel.S_HISTORY_ACTIONS + length]
        return seats.tolist(), actions.tolist()

    def hand_start(self, world, sampled: np.ndarray) -> np.ndarray:
        """The kernel state at the deal of the hand that ``sampled`` (a redeal of ``world``) is in, from which
        the kernel's recorded history replays to ``sampled``."""
        deal = world._deal_from_state(sampled)  # the world is a sample: nothing of the real table (agents.base)
        state = np.empty_like(sampled)
        self.kernel.init_state(state, world._params, deal.dealer, deal.cards)
        return state

    def mean_effective_share(self) -> float:
        return float(np.mean(self.effective_shares)) if self.effective_shares else float("nan")


class NeuralPlayInference(PlayInference):
    """Weights of sampled worlds by the likelihood of every decision of the other seats under a trained
    network reading each seat's observation in the world (module docstring). ``path``: a checkpoint of
    ``agents.neural`` (default: the one shipped for the game); it must have been trained on the world's
    table configuration."""

    def __init__(self, world, trust: float, path: str | None = None) -> None:
        super().__init__(world, trust)
        from ..neural.checkpoint import load_agent_policy  # the network's modules only where it is used

        self.path, checkpoint, self.network = load_agent_policy(world.game_name, path, None)
        trained = make_env(world.game_name, **checkpoint["config"]).unwrapped
        if dict(trained.config) != dict(world.config):
            raise ValueError(
                f"inference=neural: checkpoint {str(self.path)!r} was trained on {world.game_name} with config "
                f"{checkpoint['config']}; this table has config {dict(world.config)}: pass network=... for a "
                "checkpoint trained on it"
            )
        self.obs_type = trained._obs_type_code
        self.obs_size = int(checkpoint["obs_size"])

    def log_likelihoods(self, world, states: list[np.ndarray], seat: int) -> np.ndarray:
        """Every weighed decision of every world replayed (compiled), then one forward pass over all of them."""
        found = [self.decisions_seen(world, sampled, seat) for sampled in states]
        totals = np.zeros(len(states), dtype=np.float64)
        owners = np.concatenate([np.full(len(f[2]) if f else 0, index) for index, f in enumerate(found)])
        if owners.size == 0:
            return totals
        observations, masks, actions = (np.concatenate([f[part] for f in found if f]) for part in range(3))
        scores = np.where(masks, self.network.scores(observations).astype(np.float64), -np.inf)
        scores -= scores.max(axis=1, keepdims=True)
        probabilities = np.exp(scores)
        chosen = probabilities[np.arange(actions.size), actions] / probabilities.sum(axis=1)
        terms = np.log(self.trust * chosen + (1.0 - self.trust) / masks.sum(axis=1))
        np.add.at(totals, owners.astype(np.int64), terms)
        return totals

    def log_likelihood(self, world, sampled: np.ndarray, seat: int) -> float:
        """The network's log-likelihood of one world (not the inherited heuristic's)."""
        return float(self.log_likelihoods(world, [sampled], seat)[0])

    def decisions_seen(self, world, sampled: np.ndarray, seat: int) -> tuple | None:
        """``(observations, legal masks, actions)`` of every decision with a choice that another seat than
        ``seat`` took in ``sampled``'s hand, each observation the actor's own in the world; None where the
        hand does not replay from its deal (the world keeps the prior)."""
        kernel = self.kernel
        length = int(sampled[kernel.S_HISTORY_LENGTH])
        observations = np.empty((length, self.obs_size), dtype=np.float32)
        masks = np.zeros((length, kernel.MAX_ACTIONS), dtype=np.int8)
        actions = np.empty(length, dtype=np.int64)
        count = self.replay(self.hand_start(world, sampled), sampled, seat, self.obs_type, observations, masks,
                            actions)
        if count < 0:
            return None
        return observations[:count], masks[:count, : self.network.num_actions].astype(bool), actions[:count]

    @property
    def replay(self):
        return compiled_replay(self.kernel).observed_decisions


def observed_decisions(state, sampled, seat, obs_type, observations_out, masks_out, actions_out):
    """Replay ``sampled``'s recorded history from ``state`` (its hand's deal, changed in place); write the
    observation of the actor, the legal mask and the action of every decision with a choice taken by a seat
    other than ``seat``; return their number, or -1 where a recorded action is not the replay's (template
    compiled per game by ``compiled_replay``)."""
    length = sampled[kernel.S_HISTORY_LENGTH]
    count = 0
    for i in range(length):
        actor = sampled[kernel.S_HISTORY_SEATS + i]
        action = sampled[kernel.S_HISTORY_ACTIONS + i]
        kernel.legal_action_mask(state, masks_out[count])
        if kernel.current_seat(state) != actor or masks_out[count, action] == 0:
            return -1
        choices = 0
        for a in range(masks_out.shape[1]):
            choices += masks_out[count, a]
        if actor != seat and choices > 1:
            kernel.observe(state, actor, obs_type, observations_out[count])
            actions_out[count] = action
            count += 1
        kernel.apply_action(state, action)
    return count


kernel = None
"""The game's kernel module; bound in each compiled copy of ``observed_decisions``."""


@functools.cache
def compiled_replay(kernel_module: types.ModuleType) -> types.SimpleNamespace:
    """``observed_decisions`` bound to ``kernel_module`` (cached per process and on disk)."""
    tag = f"{kernel_module.GAME}__inference__{code_fingerprint(kernel_module)}"
    return compile_copies([observed_decisions], {**globals(), "kernel": kernel_module}, tag, lambda _: njit)


def effective_share(weights: np.ndarray) -> float:
    """Kish's effective sample size of ``weights`` as a share of their number (1: all equal)."""
    total = float(np.sum(weights))
    return total * total / (weights.size * float(np.sum(weights * weights))) if total > 0 else 0.0


def resampled_indices(weights: np.ndarray, count: int, rng: np.random.Generator) -> list[int]:
    """``count`` indices drawn in proportion to ``weights`` (systematic resampling: low variance, and each
    index is drawn about ``count * weight / total`` times); uniform where every weight is 0."""
    total = float(np.sum(weights))
    probabilities = weights / total if total > 0 else np.full(weights.size, 1.0 / weights.size)
    positions = (rng.random() + np.arange(count)) / count
    cumulative = np.cumsum(probabilities)
    cumulative[-1] = 1.0
    return np.searchsorted(cumulative, positions, side="right").tolist()
