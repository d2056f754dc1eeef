"""The built-in ``pimc`` agent: determinized search (PIMC) with compiled heuristic playouts.

For every decision the agent draws the kernel state of one world consistent with what its seat knows
(``env.unwrapped.sampled_kernel_state``, no env built around it) and hands it to the compiled
``agents.search.outcomes``, which, all in compiled code,
redeals the cards hidden from the seat ``samples`` times (the kernel's ``resample_hidden``: the redeal
depends only on what the seat knows, which the world shares with the real table, so no hidden card of the
real table reaches the search) and plays each legal action followed by ``playouts_per_sample`` playouts.
The agent plays the action with the best mean settlement of its own seat (its side's, in partnership
games). The worlds are drawn in compiled code, not one Python ``clone()`` each, because the clone was most
of the old agent's time (``docs/results.md``, "How pimc came to beat rules").

The playouts are not random: the compiled heuristic players of the playout modules play them (with
probability ``epsilon`` a card is played at random, otherwise by club habits: schmieren to a safe
partner trick, taking a worthwhile trick with the cheapest safe winner, the declarer pulling trumps...).
Uniformly random playouts (``pimc_random``, ``agents.search.pimc_random``) value an action as if everybody afterwards
played at random, which undervalues schmieren, wastes trumps and misjudges contracts. Decisions other
than card play inside a playout take a conservative default (pass, no double, ...), so a bid or a call at
the root is valued by how the hand would then be played.

Knüffeln's ``pimc`` is ``agents.search.knuffeln.KnuffelnPIMCAgent``: the same search plus turning (drehen)
and answering turns, which the playouts cannot value.

A decision without any card play among its legal actions (bidding, calling, naming trump, laying away,
answering) is searched with ``bid_samples`` worlds instead of ``samples``: such decisions are few, decide
a whole hand, and the difference between a bid and a pass is small beside the noise of a few worlds.

``cautious`` (default True; False in Palatinate, its spec's ``agent_defaults``): the agent never doubles (contra /
re) and never offers schenken; it takes ``no_double`` / ``no_schenken`` without searching. Why: the
sampled worlds are consistent with the bids' *legality* only, not with the strength a bid (or a turn)
shows, so a defender's search sees an average declarer and finds contra profitable far too often.
``cautious=False`` searches these decisions like any other: with the compiled search's many worlds that
pays in Palatinate but not measurably in Asserufen, and Bavarian plays the same either way
(``docs/results.md``, "Palatinate: searching doubles").

``epsilon`` (default 0.4; Knüffeln 0.1) was tuned against the rule-based players in duplicate arena
matches (``docs/results.md``, "Tuning the playouts' epsilon"): some randomness in the playouts helps in the
Schafkopf games, as it keeps the search from trusting one exact line of play in worlds that are only
guesses; in Knüffeln a smaller share did better.

Use: ``agents.make("pimc", game, samples=..., playouts_per_sample=..., epsilon=...)``, or on the arena's
command line ``"pimc[samples=32]"``.
"""

from __future__ import annotations

import numpy as np

from ..base import actions_named, card_actions, legal_actions, positive_int, turn_actions
from .outcomes import HEURISTIC_PLAYOUTS
from .pimc_random import PIMCAgent

DEFAULT_SAMPLES = 16
DEFAULT_PLAYOUTS_PER_SAMPLE = 4
DEFAULT_EPSILON = 0.4
CAUTIOUS_ACTIONS = ("no_double", "no_schenken")
"""Actions a ``cautious`` agent takes whenever they are legal, without searching."""


class HeuristicPIMCAgent(PIMCAgent):
    """PIMC with compiled heuristic playouts (see the module docstring)."""

    name = "pimc"
    playout_policy = HEURISTIC_PLAYOUTS

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

    def act(self, env, agent: str) -> int:
        legal = legal_actions(env, agent)
        self.decisions += 1
        if self.cautious:
            cautious = legal[actions_named(env, "cautious", CAUTIOUS_ACTIONS.__contains__)[legal]]
            if cautious.size:
                return int(cautious[0])
            kept = legal[~turn_actions(env)[legal]]
            legal = kept if kept.size else legal
        if legal.size == 1:
            return int(legal[0])
        values = self.action_values(env, agent, legal)
        return int(legal[int(np.argmax(values))])

    def samples_for(self, env, actions: np.ndarray) -> int:
        """``bid_samples`` worlds for a decision without card play among ``actions``, else ``samples``."""
        return self.samples if card_actions(env)[actions].any() else self.bid_samples

    def __repr__(self) -> str:
        return (
            f"HeuristicPIMCAgent(game={self.game!r}, samples={self.samples}, "
            f"playouts_per_sample={self.playouts_per_sample}, epsilon={self.epsilon}, cautious={self.cautious})"
        )
