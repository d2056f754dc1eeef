"""Knüffeln's ``pimc``: determinized search in one compiled loop, with turning (drehen) searched sensibly.

The search is ``pimc``'s (``agents.search.pimc``); what its playouts cannot value, leading face down and
answering a card led face down, this agent adds. It:

- draws one world's kernel state with ``env.unwrapped.sampled_kernel_state`` and hands it to
  ``agents.search.outcomes``, which redeals the cards hidden from the seat ``samples`` times
  and plays ``playouts_per_sample`` heuristic playouts after each candidate action, all in compiled code.
  The redeal depends only on what the seat knows (the world agrees with the real table there), so the
  agent never sees a hidden card; worlds drawn so are far cheaper than one Python ``clone()`` each
  (``docs/results.md``, "How pimc came to beat rules").
- picks the face-up card (or ``stop``, or an exchange...) with the best mean settlement;
- **turns** that card (leads it face down) when its team's chance of winning the hand, the share of
  playouts its team wins after that card, reaches ``turn_threshold``, except while a Jann is still
  possible for its team (the opponents would flee for one unit; the source calls turning with a Jann
  hand a mistake) and during a march. The playouts cannot value a turn themselves: their players accept
  every turn, where a real opponent flees from a strong turner;
- **answers** a turn by comparing ``accept`` and ``flee`` in the sampled worlds, but weighs each playout
  in which the turner's team goes on to win by 1 and each in which it loses by ``turn_likelihood``: the
  likelihood ratio of a turn given a losing versus a winning hand. The sampled worlds only respect the
  legality of the turn, not the strength it shows; this is the Bayes correction for a turner who turns
  more readily when winning (``turn_likelihood=1`` ignores the signal).

- keeps **silent** at its talk turns (``talk`` on): the playouts cannot tell one utterance from another,
  so a search would pick one by noise.

Defaults were measured against the rule-based player in duplicate arena matches (``docs/results.md``).
"""

from __future__ import annotations

import numpy as np

from knuffeln_env.knuffeln import kernel as K

from ..base import legal_actions, positive_int, probability, turn_actions
from ..rules.knuffeln_table import decode
from .pimc import HeuristicPIMCAgent
from .pimc_random import nan_mean

DEFAULT_SAMPLES = 96
DEFAULT_PLAYOUTS_PER_SAMPLE = 1
DEFAULT_EPSILON = 0.1
DEFAULT_TURN_THRESHOLD = 0.6
DEFAULT_TURN_LIKELIHOOD = 0.5


class KnuffelnTurning:
    """The Knüffeln decision of this module's docstring (the best face-up action, turned or not; turns
    answered; talk silent) over any search: a mixin for an agent with ``search(env, agent, candidates)``
    (settlements per world and candidate) and ``turn_threshold``, ``turn_likelihood``; ``card_values``
    ranks the candidates (here the mean over the worlds). ``pimc_dd``'s Knüffeln agent shares it."""

    GAME = K.GAME
    """The game whose kernel these agents read (``knuffeln_env.knuffeln``)."""

    def turning_act(self, env, agent: str) -> int:
        legal = legal_actions(env, agent)
        if legal.size == 1:
            return int(legal[0])
        turns = turn_actions(env)[legal]
        candidates = legal[~turns]
        if candidates.size == 1 and not turns.any():
            return int(candidates[0])
        seen = env.observe(agent)
        table = decode(seen["observation"], env.unwrapped.config, token_code=False)
        if table.phase == K.PHASE_TALK:
            return K.ACTION_SILENT
        outcomes = self.search(env, agent, candidates)
        if table.phase == K.PHASE_ANSWER:
            return self._answer(candidates, outcomes)
        best = int(np.argmax(self.card_values(env, agent, candidates, outcomes)))
        card = int(candidates[best]) - K.ACTION_PLAY
        if turns.any() and 0 <= card < K.NUM_CARDS and self._turns(table, outcomes[:, best]):
            turn = K.ACTION_TURN + card
            if turn in legal:
                return turn
        return int(candidates[best])

    def card_values(self, env, agent: str, candidates: np.ndarray, outcomes: np.ndarray) -> np.ndarray:
        """The value of each candidate that the choice maximises: its mean settlement over the worlds."""
        return nan_mean(outcomes)

    def _turns(self, table, outcomes_of_card: np.ndarray) -> bool:
        """Lead face down: the team's winning chance after this card reaches the threshold, no Jann is
        still possible for the team, and it is not marching."""
        if table.march_mine or table.tricks_theirs == 0:
            return False
        valid = outcomes_of_card[~np.isnan(outcomes_of_card)]
        return valid.size > 0 and float(np.mean(valid > 0)) >= self.turn_threshold

    def _answer(self, candidates: np.ndarray, outcomes: np.ndarray) -> int:
        """Accept or flee: the accept outcomes are reweighted by the turn's likelihood (module docstring)."""
        values = np.full(candidates.size, -np.inf)
        for i, action in enumerate(candidates):
            column = outcomes[:, i]
            column = column[~np.isnan(column)]
            if column.size == 0:
                continue
            if action == K.ACTION_ACCEPT:
                weights = np.where(column > 0, self.turn_likelihood, 1.0)
                total = float(np.sum(weights))  # 0 only with turn_likelihood 0 and no world the turner wins
                values[i] = float(np.sum(weights * column)) / total if total > 0 else float(np.mean(column))
            else:
                values[i] = float(np.mean(column))
        return int(candidates[int(np.argmax(values))])


class KnuffelnPIMCAgent(KnuffelnTurning, HeuristicPIMCAgent):
    """Compiled determinized search for Knüffeln (see the module docstring)."""

    name = "pimc"

    def __init__(
        self,
        game: str = K.GAME,
        samples: int = DEFAULT_SAMPLES,
        playouts_per_sample: int = DEFAULT_PLAYOUTS_PER_SAMPLE,
        epsilon: float = DEFAULT_EPSILON,
        turn_threshold: float = DEFAULT_TURN_THRESHOLD,
        turn_likelihood: float = DEFAULT_TURN_LIKELIHOOD,
        bid_samples: int | None = None,
        seed: int | None = None,
    ) -> None:
        if game != K.GAME:
            raise ValueError(f"the Knüffeln search agent plays {K.GAME}, not {game!r}")
        bid_samples = 2 * positive_int(samples, "samples") if bid_samples is None else bid_samples
        super().__init__(game, samples, playouts_per_sample, epsilon, True, bid_samples, seed)
        self.turn_threshold = probability(turn_threshold, "turn_threshold")
        self.turn_likelihood = probability(turn_likelihood, "turn_likelihood")

    def act(self, env, agent: str) -> int:
        self.decisions += 1
        return self.turning_act(env, agent)

    def __repr__(self) -> str:
        return (
            f"KnuffelnPIMCAgent(samples={self.samples}, playouts_per_sample={self.playouts_per_sample}, "
            f"epsilon={self.epsilon}, turn_threshold={self.turn_threshold}, "
            f"turn_likelihood={self.turn_likelihood})"
        )

