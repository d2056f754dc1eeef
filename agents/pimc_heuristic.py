"""The ``pimc_heuristic`` agent: PIMC (``agents.pimc``) whose playouts are played by a cheap heuristic.

Plain ``pimc`` scores each legal action in sampled worlds by uniformly random playouts, i.e. as if every
seat afterwards played at random; that undervalues schmieren, wastes trumps and misjudges contracts, and the
rule-based players beat it. This agent keeps PIMC's determinization (``samples`` worlds drawn by
``env.unwrapped.resample_from_infostate``) but plays each world out with the compiled heuristic players of
``schafkopf_env.playouts`` / ``knuffeln_env.playouts``: with probability ``epsilon`` a card is played at
random, otherwise by club habits (schmieren to a safe partner trick, taking a worthwhile trick with the
cheapest safe winner, the declarer pulling trumps...). Decisions other than card play inside a playout take
a conservative default (pass, no double, ...), so a bid or a call at the root is valued by how the hand
would then be played.

A decision without any card play among its legal actions (bidding, calling, naming trump, laying away,
answering) is searched with ``bid_samples`` worlds instead of ``samples``: such decisions are few, decide
a whole hand, and the difference between a bid and a pass is small beside the noise of a few worlds.

``cautious`` (default True): the agent never doubles (contra / re), never offers schenken and never leads
face down in Knüffeln (drehen); it takes ``no_double`` / ``no_schenken`` without searching. Why: the
sampled worlds are consistent with the bids' *legality* only, not with the strength a bid (or a turn)
shows, so a defender's search sees an average declarer and finds contra profitable far too often
(measured in Palatinate: PIMC said contra in most hands and lost heavily to the rule-based declarers'
re). ``cautious=False`` searches these decisions like any other.

``epsilon`` (default 0.4; Knüffeln 0.1, ``GAME_DEFAULTS``) was tuned against the rule-based players in
duplicate arena matches (difference per hand, 60 deals, seed 5): some randomness in the playouts helps in
the Schafkopf games (Palatinate: 0.1 -0.10, 0.25 +0.09, 0.4 +0.41, 0.6 +0.37; 0.0 with 48 worlds -0.48;
Asserufen: 0.25 +0.19, 0.4 +0.50), as it keeps the search from trusting one exact line of play in worlds
that are only guesses; in Knüffeln 0.1 did better than 0.4 (-0.57 against -1.47, both within noise).

Use: ``agents.make("agents.pimc_heuristic:make_agent", game, samples=..., playouts_per_sample=...,
epsilon=...)``, or on the arena's command line ``"agents.pimc_heuristic:make_agent[samples=16]"``.
"""

from __future__ import annotations

import time

import numpy as np

from trick_core.jit import make_rng

from .base import legal_actions, positive_int, seat_of
from .pimc import PIMCAgent

DEFAULT_SAMPLES = 16
DEFAULT_PLAYOUTS_PER_SAMPLE = 4
DEFAULT_EPSILON = 0.4
CAUTIOUS_ACTIONS = ("no_double", "no_schenken")
"""Actions a ``cautious`` agent takes whenever they are legal, without searching."""


def playout_values_function(game: str):
    """The compiled ``heuristic_playout_values(state, actions, playouts, rng, epsilon, out)`` of a game."""
    if game == "knuffeln":
        from knuffeln_env.playouts import heuristic_playout_values

        return heuristic_playout_values
    from schafkopf_env.playouts import HEURISTIC_PLAYOUT_VALUES

    if game not in HEURISTIC_PLAYOUT_VALUES:
        raise ValueError(f"pimc_heuristic: unknown game {game!r}")
    return HEURISTIC_PLAYOUT_VALUES[game]


class HeuristicPIMCAgent(PIMCAgent):
    """PIMC with compiled heuristic playouts (see the module docstring)."""

    name = "pimc"

    def __init__(
        self,
        game: str,
        samples: int = DEFAULT_SAMPLES,
        playouts_per_sample: int = DEFAULT_PLAYOUTS_PER_SAMPLE,
        epsilon: float = DEFAULT_EPSILON,
        cautious: bool = True,
        bid_samples: int = 4 * DEFAULT_SAMPLES,
        seed: int | None = None,
    ) -> None:
        super().__init__(game, samples, playouts_per_sample, seed)
        if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or not 0.0 <= float(epsilon) <= 1.0:
            raise ValueError(f"epsilon must be a number in [0, 1], got {epsilon!r}")
        if not isinstance(cautious, bool):
            raise ValueError(f"cautious must be True or False, got {cautious!r}")
        self.epsilon = float(epsilon)
        self.cautious = cautious
        self.bid_samples = positive_int(bid_samples, "bid_samples")
        self._card_actions: dict = {}
        self._values = playout_values_function(self.game)
        self._cautious_actions: dict[int, frozenset] = {}

    def act(self, env, agent: str) -> int:
        legal = legal_actions(env, agent)
        self.decisions += 1
        if self.cautious:
            cautious = self._cautious_set(env)
            for action in legal:
                if int(action) in cautious:
                    return int(action)
            kept = legal[~self._turn_mask(env)[legal]]
            legal = kept if kept.size else legal
        if legal.size == 1:
            return int(legal[0])
        values = self.action_values(env, agent, legal)
        return int(legal[int(np.argmax(values))])

    def _turn_mask(self, env) -> np.ndarray:
        """Which action indices are Knüffeln face-down leads (``turn:C``), left out by a cautious agent."""
        base = env.unwrapped
        key = ("turn", base.num_actions)
        if key not in self._card_actions:
            names = [base.action_to_string(a) for a in range(base.num_actions)]
            self._card_actions[key] = np.array([n.startswith("turn:") for n in names], dtype=bool)
        return self._card_actions[key]

    def _card_mask(self, env) -> np.ndarray:
        """Which action indices of this env are card plays (face up or not)."""
        base = env.unwrapped
        key = base.num_actions
        if key not in self._card_actions:
            names = [base.action_to_string(a) for a in range(base.num_actions)]
            self._card_actions[key] = np.array([base.deck.is_card(n) for n in names], dtype=bool)
        return self._card_actions[key]

    def _cautious_set(self, env) -> frozenset:
        """Indices of ``CAUTIOUS_ACTIONS`` in this env's action space (cached per action-space size)."""
        base = env.unwrapped
        key = base.num_actions
        if key not in self._cautious_actions:
            names = [base.action_to_string(a) for a in range(base.num_actions)]
            self._cautious_actions[key] = frozenset(i for i, n in enumerate(names) if n in CAUTIOUS_ACTIONS)
        return self._cautious_actions[key]

    def action_values(self, env, agent: str, legal: np.ndarray | None = None) -> np.ndarray:
        """Mean settlement of ``agent``'s seat after each legal action (in the order of ``legal``)."""
        if legal is None:
            legal = legal_actions(env, agent)
        start = time.perf_counter()
        seat = seat_of(env, agent)
        totals = np.zeros(legal.size, dtype=np.float64)
        counts = np.zeros(legal.size, dtype=np.float64)
        samples = self.samples if self._card_mask(env)[legal].any() else self.bid_samples
        for _ in range(samples):
            world = env.unwrapped.resample_from_infostate(agent, self.rng)
            usable = self._legal_in_world(world, legal)
            actions = np.ascontiguousarray(legal[usable], dtype=np.int64)
            out = np.zeros((actions.size, world.num_seats), dtype=np.float64)
            rng = make_rng(int(self.rng.integers(2**63)))
            self._values(world.kernel_state(), actions, self.playouts_per_sample, rng, self.epsilon, out)
            totals[usable] += out[:, seat]
            counts[usable] += self.playouts_per_sample
        self.searches += 1
        self.search_seconds += time.perf_counter() - start
        return np.where(counts > 0, totals / np.maximum(counts, 1.0), -np.inf)

    def __repr__(self) -> str:
        return (
            f"HeuristicPIMCAgent(game={self.game!r}, samples={self.samples}, "
            f"playouts_per_sample={self.playouts_per_sample}, epsilon={self.epsilon}, cautious={self.cautious})"
        )


GAME_DEFAULTS = {
    "knuffeln": {"samples": 24, "playouts_per_sample": 2, "bid_samples": 48, "epsilon": 0.1},
}
"""Per-game defaults of ``make_agent``: in Knüffeln more worlds with fewer playouts each and less
randomness measured best against the rule-based player (about 5 ms a decision)."""


def make_agent(game: str, **kwargs) -> HeuristicPIMCAgent:
    """Factory for ``agents.make("agents.pimc_heuristic:make_agent", game, **kwargs)`` (``GAME_DEFAULTS``
    fill in what ``kwargs`` leaves out)."""
    return HeuristicPIMCAgent(game, **{**GAME_DEFAULTS.get(game, {}), **kwargs})
