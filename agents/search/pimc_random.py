"""The ``pimc_random`` and ``nested_pimc`` agents: Perfect-Information Monte Carlo (determinized) search.

``PIMCAgent`` (``pimc_random``) draws the kernel state of one world consistent with what its seat knows
(``env.unwrapped.sampled_kernel_state(agent, rng)``: no env is built around it) and hands it to the compiled
``agents.search.outcomes``, which redeals the cards hidden from the seat ``samples`` times (each
redeal depends only on what the seat knows) and, in each redealt world, plays every legal action followed
by ``playouts_per_sample`` uniformly random playouts. The agent keeps its own seat's settlement, so partners
are handled by the rules' settlement itself (in a Rufer, an Asserufen ace-call game or a Knüffeln
partnership a seat's settlement is its side's), whoever the partner is in each sampled world. It plays the
action with the highest mean over all samples and playouts (ties go to the lower action index). The
built-in ``pimc`` (``agents.search.pimc``) is this agent with heuristic instead of random playouts.

Cost: one compiled redeal in the env, then ``samples`` compiled redeals plus ``samples * playouts_per_sample``
compiled playouts per legal action. A forced move (one legal action) costs nothing. ``stats()`` reports
the measured time per decision.

Known limits of PIMC, worth remembering when reading results: it assumes that every seat will later see
the sampled cards (strategy fusion), and the random playouts value aggressive bids and turns as random
play would defend them. It is a baseline search, not an expert.

``nested_pimc`` (``NestedPIMCAgent``) addresses the second limit: it plays cards like ``pimc_random`` but scores
bids, calls, doubles, turns and the like by simulating the rest of the hand with a light PIMC player at
every seat (see its docstring; ``docs/results.md`` has the measured effect).
"""

from __future__ import annotations

import time

import numpy as np

from trick_core import drivers
from trick_core.bits import make_rng
from trick_core.registry import kernel_module

from ..base import ActionValueAgent, legal_actions, positive_int, seat_of, talk_actions
from .outcomes import RANDOM_PLAYOUTS, search_function

DEFAULT_SAMPLES = 10
DEFAULT_PLAYOUTS_PER_SAMPLE = 100


class PIMCAgent(ActionValueAgent):
    """Determinized Monte-Carlo search with random playouts (see the module docstring)."""

    name = "pimc_random"
    playout_policy = RANDOM_PLAYOUTS
    epsilon = 0.0
    """Share of random cards in a heuristic playout (random playouts: unused)."""

    def __init__(
        self,
        game: str,
        samples: int = DEFAULT_SAMPLES,
        playouts_per_sample: int = DEFAULT_PLAYOUTS_PER_SAMPLE,
        seed: int | None = None,
    ) -> None:
        super().__init__(game, seed)
        self.samples = positive_int(samples, "samples")
        self.playouts_per_sample = positive_int(playouts_per_sample, "playouts_per_sample")
        self.searches = 0
        self.search_seconds = 0.0
        self.inconsistent_worlds = 0

    def action_values(self, env, agent: str, legal: np.ndarray | None = None) -> np.ndarray:
        """Mean settlement of ``agent``'s seat after each legal action (in the order of ``legal``)."""
        if legal is None:
            legal = legal_actions(env, agent)
        return nan_mean(self.search(env, agent, legal))

    def samples_for(self, env, actions: np.ndarray) -> int:
        """How many worlds to sample for a decision among ``actions``."""
        return self.samples

    def search(self, env, agent: str, actions: np.ndarray) -> np.ndarray:
        """``agent``'s settlement after each of ``actions`` (columns) in every sampled world and playout
        (rows): one world's kernel state (``sampled_kernel_state``), then the compiled ``agents.search.outcomes``
        redeals it ``samples_for(...)`` times and plays ``playouts_per_sample`` playouts of
        ``playout_policy`` after each action. NaN where a sampled world does not allow the action (an env
        resampling bug; counted in ``inconsistent_worlds``)."""
        start = time.perf_counter()
        samples = self.samples_for(env, actions)
        world = env.unwrapped.sampled_kernel_state(agent, self.rng)
        outcomes = np.empty((samples, actions.size, self.playouts_per_sample), dtype=np.float64)
        rng = make_rng(int(self.rng.integers(2**63)))
        search = search_function(self.game, self.playout_policy)
        search(world, seat_of(env, agent), np.ascontiguousarray(actions, dtype=np.int64), samples,
               self.playouts_per_sample, rng, self.epsilon, outcomes)
        self.inconsistent_worlds += int(np.isnan(outcomes).any(axis=(1, 2)).sum())
        self.searches += 1
        self.search_seconds += time.perf_counter() - start
        return outcomes.transpose(0, 2, 1).reshape(-1, actions.size)

    def stats(self) -> dict:
        """Decisions taken, searches run (decisions with a choice), milliseconds per search, and sampled
        worlds in which one of the seat's legal actions was not legal (an env resampling bug; 0 expected)."""
        per_search = 1000.0 * self.search_seconds / self.searches if self.searches else float("nan")
        return {
            "decisions": self.decisions,
            "searches": self.searches,
            "ms_per_search": per_search,
            "inconsistent_worlds": self.inconsistent_worlds,
        }

    def __repr__(self) -> str:
        return (
            f"PIMCAgent(game={self.game!r}, samples={self.samples}, "
            f"playouts_per_sample={self.playouts_per_sample})"
        )


def action_family(name: str, is_card: bool, is_talk: bool) -> str:
    """The family of an action string: every card play is one family, ``"turn:C"``-style actions form a
    family per prefix, talk (the game's ``talk_actions``) is one family, and every bare word (``pass``,
    ``solo``, ``contra``...) is its own."""
    if is_card:
        return "card"
    if is_talk:
        return "talk"
    head, colon, _ = name.partition(":")
    return head + colon if colon else name


class NestedPIMCAgent(PIMCAgent):
    """PIMC whose decisions outside card play are scored by simulating whole hands (``nested_pimc``).

    Random playouts make a poor model of the other players exactly where a hand's value is decided
    before the cards are played: they overbid, double, turn and flee at random, so plain ``pimc`` bids
    solos that good defenders beat and turns that sensible opponents accept. This agent keeps ``pimc``
    for card play and, when a decision involves anything else, proceeds in two steps:

    1. the legal actions are grouped into families (all card plays; each ``prefix:`` family such as
       ``call:``, ``trump:``, ``discard:``, ``turn:``; talk; each bare word such as ``pass`` or
       ``solo``), and plain PIMC picks the best member of every family with more than one member;
    2. the families' representatives are compared by simulation: in each of ``worlds`` worlds drawn by
       ``sampled_kernel_state`` (the same worlds for every candidate), the candidate is played and
       the rest of the hand is played out by a light PIMC at *every* seat (``inner_samples``
       resamplings from that seat's own point of view and ``inner_playouts`` random playouts per
       action, in the sampled world's kernel state), and the agent's settlement is averaged.

    Talk is left to plain PIMC (the simulated players ignore it, so simulation could not value it).
    With ``simulate_cards=True`` every card play is a candidate of its own as well, so card play is
    simulated too (much stronger where early tricks decide, as in Knüffeln, and much slower). The
    simulation runs on the kernel (``trick_core.registry.kernel_module``) of the sampled worlds only.
    """

    name = "nested_pimc"

    def __init__(
        self,
        game: str,
        samples: int = DEFAULT_SAMPLES,
        playouts_per_sample: int = DEFAULT_PLAYOUTS_PER_SAMPLE,
        worlds: int = 8,
        inner_samples: int = 1,
        inner_playouts: int = 6,
        simulate_cards: bool = False,
        seed: int | None = None,
    ) -> None:
        super().__init__(game, samples, playouts_per_sample, seed)
        if not isinstance(simulate_cards, bool):
            raise ValueError(f"simulate_cards must be True or False, got {simulate_cards!r}")
        self.simulate_cards = simulate_cards
        self.worlds = positive_int(worlds, "worlds")
        self.inner_samples = positive_int(inner_samples, "inner_samples")
        self.inner_playouts = positive_int(inner_playouts, "inner_playouts")
        self.simulations = 0
        self.simulation_seconds = 0.0
        self._kernel = None

    def act(self, env, agent: str) -> int:
        legal = legal_actions(env, agent)
        self.decisions += 1
        if legal.size == 1:
            return int(legal[0])
        base = env.unwrapped
        names = [base.action_to_string(int(a)) for a in legal]
        talk = talk_actions(env)[legal]
        families: dict[str, list[int]] = {}
        for index, name in enumerate(names):
            family = action_family(name, base.deck.is_card(name), bool(talk[index]))
            if self.simulate_cards and family == "card":
                family = name  # every card is a candidate of its own
            families.setdefault(family, []).append(index)
        if len(families) == 1 or set(families) <= {"card", "talk"}:
            values = self.action_values(env, agent, legal)
            return int(legal[int(np.argmax(values))])
        crowded = [i for members in families.values() if len(members) > 1 for i in members]
        plain = np.full(legal.size, -np.inf)
        if crowded:
            plain[crowded] = self.action_values(env, agent, legal[crowded])
        candidates = [max(members, key=lambda i: plain[i]) for members in families.values()]
        simulated = self.simulated_values(env, agent, legal[candidates])
        return int(legal[candidates[int(np.argmax(simulated))]])

    def simulated_values(self, env, agent: str, actions: np.ndarray) -> np.ndarray:
        """Mean settlement of ``agent``'s seat after each action, the rest of the hand played by light
        PIMC players in ``worlds`` sampled worlds."""
        start = time.perf_counter()
        if self._kernel is None:
            self._kernel = kernel_module(self.game)
            self._drivers = drivers.compiled(self._kernel)
        seat = seat_of(env, agent)
        rng = make_rng(int(self.rng.integers(2**63)))
        totals = np.zeros(actions.size, dtype=np.float64)
        talk, num_seats = talk_actions(env), env.unwrapped.num_seats
        for _ in range(self.worlds):
            state = env.unwrapped.sampled_kernel_state(agent, self.rng)
            for i, action in enumerate(actions):
                totals[i] += self._simulate_hand(state.copy(), int(action), seat, num_seats, talk, rng)
        self.simulations += 1
        self.simulation_seconds += time.perf_counter() - start
        return totals / self.worlds

    def _simulate_hand(self, state, action, seat, num_seats, talk, rng) -> float:
        kernel = self._kernel
        mask = np.zeros(talk.size, dtype=np.int8)
        current = self._drivers.advance(state, action, mask)
        while current >= 0:
            legal = np.flatnonzero(mask)
            if legal.size > 1:
                choice = self._light_choice(state, current, legal, num_seats, talk, rng)
            else:
                choice = int(legal[0])
            current = self._drivers.advance(state, choice, mask)
        units = np.zeros(num_seats, dtype=np.float64)
        kernel.settlement(state, units)
        return float(units[seat])

    def _light_choice(self, state, seat, legal, num_seats, talk, rng) -> int:
        """A cheap PIMC decision of ``seat`` in a simulated hand, from that seat's own point of view."""
        if talk[legal].all():
            return int(legal[0])  # the simulated players do not talk; any talk action will do
        kernel = self._kernel
        values = np.zeros((legal.size, num_seats), dtype=np.float64)
        sample = np.empty_like(state)
        sample_mask = np.zeros(talk.size, dtype=np.int8)
        evaluated = False
        for _ in range(self.inner_samples):
            if not self._drivers.resample_hidden(state, seat, rng, sample):
                continue
            kernel.legal_action_mask(sample, sample_mask)
            if not sample_mask[legal].all():
                continue  # an inconsistent sample (an env bug); skip it rather than play an illegal move
            self._drivers.playout_values(sample, legal, self.inner_playouts, rng, values)
            evaluated = True
        if not evaluated:
            return int(legal[0])
        return int(legal[int(np.argmax(values[:, seat]))])

    def stats(self) -> dict:
        per_simulation = 1000.0 * self.simulation_seconds / self.simulations if self.simulations else float("nan")
        return {**super().stats(), "simulations": self.simulations, "ms_per_simulation": per_simulation}

    def __repr__(self) -> str:
        return (
            f"NestedPIMCAgent(game={self.game!r}, samples={self.samples}, "
            f"playouts_per_sample={self.playouts_per_sample}, worlds={self.worlds}, "
            f"inner_samples={self.inner_samples}, inner_playouts={self.inner_playouts}, "
            f"simulate_cards={self.simulate_cards})"
        )


def nan_mean(outcomes: np.ndarray) -> np.ndarray:
    """Mean of each column over its non-NaN entries (-inf for a column without any)."""
    valid = ~np.isnan(outcomes)
    counts = valid.sum(axis=0)
    totals = np.where(valid, outcomes, 0.0).sum(axis=0)
    return np.where(counts > 0, totals / np.maximum(counts, 1), -np.inf)
