"""The ``pimc_dd`` agent: determinized search (PIMC) whose worlds are solved exactly (double dummy).

For every decision with a choice the agent draws one world consistent with what its seat knows
(``env.unwrapped.sampled_kernel_state``), hands that kernel state to the game's exact solver
(``agents.search.outcomes.solver_function``, ``trick_core.solver``), which redeals the cards hidden from the
seat ``worlds`` times in compiled code and, in each redealt world, solves the rest of the hand after each
legal action by alpha-beta search: the settlement of the agent's side when every seat plays perfectly with
all cards open. The agent plays the action with the best mean settlement. Where ``pimc`` (``agents.search.pimc``)
plays heuristic playouts and so values a card as club habits would continue, ``pimc_dd`` values it as
perfect play would: a world costs more, but one world says what many playouts only estimate. The redeal
depends only on what the seat knows (the drawn world shares that with the real table), so no hidden card
of the real table reaches the search (the no-peeking tests, ``tests/agents/test_no_peeking.py``).

**How much is exact** (``exact_tricks``; default ``DEFAULT_EXACT_TRICKS``, at most the solver's
``EXACT_TRICKS``, or the game spec's ``agent_defaults``): the last ``exact_tricks`` tricks of each
world are solved exactly; before them the solver lets the playout policy (the ``pimc`` playouts' club
habits, without random cards) play. Solving a whole Schafkopf hand from the first trick costs more than
a decision's budget allows when it is done for every world and every legal card (the solver's benchmark,
``benchmarks/solver.py``, gives the cost per trick it starts from), while the last five tricks cost well
under a millisecond. The defaults: seven of eight tricks in Bavarian (the lean search of the card play
affords them: ``pimc_dd`` then beats ``pimc`` significantly, ``docs/results.md``, "pimc_dd"), five in
Palatinate and Asserufen, four in Knüffeln (seven tricks in Asserufen, eight of ten in Palatinate and five in
Knüffeln measured level with ``pimc``); 24 worlds. They keep the median
decision far under 50 ms of one core (``docs/results.md``); a late decision is solved to the end of the
hand, an early one values the opening tricks by the policy's play and the rest exactly. A Bavarian Ramsch is
solved exactly for at most its last five tricks (``schafkopf_env.bavarian.solve.RAMSCH_EXACT_TRICKS``).

**Fallback** (``fallback=True``, the default): decisions without card play and card plays with more than
``search_tricks`` tricks left (default: ``exact_tricks``) are taken by the built-in ``pimc``
(``agents.search.make_pimc``). ``search_tricks`` above ``exact_tricks`` lets ``pimc_dd`` value earlier cards
too, by the policy's play of the opening tricks and the exact rest, while ``pimc`` still bids (the
diagnosis by phase in ``docs/results.md``, "pimc_dd"). Before the last ``exact_tricks`` tricks the solve
is not exact within the budget (one deterministic playout per world, then the exact end), and ``pimc``'s
tuned playouts and caution did better (``docs/results.md``, "pimc_dd": without the fallback ``pimc_dd``
lost to ``pimc`` in Palatinate). The rest of this docstring describes ``fallback=False``,
and the card play of the last tricks in either case.

**Blend** (``blend``, default ``DEFAULT_BLEND``): a card's value is its mean solved settlement plus
``blend`` times ``pimc``'s value of it (its heuristic playouts, with their random cards, in its own
worlds). A remedy for strategy fusion, the known weakness of double-dummy PIMC (Frank & Basin 1998; Furtak &
Buro; Rebstock et al. 2019): a solved world assumes every seat sees every card, so cards that only win
when the cards lie a certain way look as good as safe ones, and cards the solved worlds value alike (a
tie in every world is common near the end: the settlement class is decided) are ranked by nothing. The
playouts' value breaks those ties with the card that does well against imperfect play, and with a larger
weight shades the solved value towards it. It costs one ``pimc`` search per searched decision.

**Bids, calls, doubles, laying away** are valued the same way: the worlds after each option are solved (the
solver takes every later decision outside card play by the playout policy's conservative default), with
``bid_worlds`` worlds, as such decisions are few and decide a whole hand. The caution ``pimc`` learned
holds here too (``agents.search.pimc``): worlds drawn from the bids' legality alone make an average
opponent, so a defender's search sees an average declarer and doubles far too often. ``cautious`` (default
True; False in Palatinate, as for ``pimc``: its spec's ``agent_defaults``) never doubles and never offers schenken.

**Knüffeln** (``KnuffelnDoubleDummyAgent``): the card or exchange with the best mean, turned (led face
down) when the team wins in at least ``turn_threshold`` of the solved worlds after it and no Jann is still
possible for the team; a turn is answered by comparing ``accept`` and ``flee`` with the worlds in which the
turner's team wins weighted by ``turn_likelihood`` (the Bayes correction of ``agents.search.knuffeln``);
talk turns stay silent. The Knüffeln solver is exact for the last tricks only (its docstring says from
which trick); before that it plays the heuristic.

**Inference** (``inference="heuristic"`` or ``"neural"``): worlds drawn from legality alone ignore what the
other seats' decisions show. With inference on, the agent draws ``oversample`` times ``worlds`` candidate
worlds, weights each by the likelihood of the other seats' decisions this hand under a model of them (the
compiled playout policy's heuristic card, or a trained network reading each seat's observation in that world:
``agents.search.world_inference``, after Rebstock et al. 2019), each mixed with a uniform choice by ``trust``,
and keeps ``worlds`` of them drawn in proportion to the weights (importance resampling: the solved values then
need no weights, and a world drawn twice is solved once). ``network`` names the checkpoint of
``inference="neural"`` (default: the one shipped for the game). ``inference="off"`` (the default) draws the
worlds from legality alone, in compiled code: neither model helped in the measurements (Bavarian, against
``off``: ``docs/results.md``, "pimc_dd").

Use: ``agents.make("pimc_dd", game, worlds=..., inference=..., exact_tricks=..., search_tricks=..., blend=...)``,
or on the arena's command line ``"pimc_dd[worlds=24,inference=neural,blend=0.5,seed=1]"``.
"""

from __future__ import annotations

import importlib
import time

import numpy as np

from trick_core.bits import make_rng
from trick_core.registry import game_spec

from .. import base
from . import make_pimc
from . import outcomes as search_outcomes
from .knuffeln import DEFAULT_TURN_LIKELIHOOD, DEFAULT_TURN_THRESHOLD, KnuffelnTurning
from .pimc import CAUTIOUS_ACTIONS
from .pimc_random import nan_mean
from .world_inference import NeuralPlayInference, PlayInference, resampled_indices

DEFAULT_WORLDS = 24
"""Worlds solved per card decision (chosen by the decision-time budget, ``docs/results.md``)."""
DEFAULT_BID_WORLDS_FACTOR = 4
"""``bid_worlds`` is this many times ``worlds`` unless given."""
INFERENCE_MODES = ("off", "heuristic", "neural")
DEFAULT_INFERENCE = "off"
DEFAULT_TRUST = 0.5
DEFAULT_OVERSAMPLE = 4
DEFAULT_EXACT_TRICKS = 5
"""The last tricks solved exactly unless ``exact_tricks`` or the game spec's ``agent_defaults`` say otherwise
(fewer where the game's solver is exact for fewer: its ``EXACT_TRICKS``, Knüffeln's 4): the most that keep
the median decision within its budget (module docstring)."""
DEFAULT_BLEND = 0.0
"""Weight of ``pimc``'s value beside the solved one (module docstring, "Blend")."""


class DoubleDummyPIMCAgent(base.ActionValueAgent):
    """PIMC with every sampled world solved exactly (see the module docstring)."""

    name = "pimc_dd"

    def __init__(self, game: str, worlds: int = DEFAULT_WORLDS, bid_worlds: int | None = None,
                 inference: str = DEFAULT_INFERENCE, trust: float = DEFAULT_TRUST, oversample: int = DEFAULT_OVERSAMPLE,
                 exact_tricks: int | None = None, fallback: bool = True, search_tricks: int | None = None,
                 blend: float = DEFAULT_BLEND, cautious: bool = True, network: str | None = None,
                 seed: int | None = None) -> None:
        super().__init__(game, seed)
        self.solver = search_outcomes.solver_function(self.game)  # fails here, not mid-hand, for an unsolved game
        self.exact_tricks = min(DEFAULT_EXACT_TRICKS, self.solver.exact_tricks) if exact_tricks is None else (
            base.positive_int(exact_tricks, "exact_tricks"))
        self.search_tricks = self.exact_tricks if search_tricks is None else base.positive_int(
            search_tricks, "search_tricks")
        self.worlds = base.positive_int(worlds, "worlds")
        self.bid_worlds = DEFAULT_BID_WORLDS_FACTOR * self.worlds if bid_worlds is None else base.positive_int(
            bid_worlds, "bid_worlds")
        if inference not in INFERENCE_MODES:
            raise ValueError(f"inference must be one of {INFERENCE_MODES}, got {inference!r}")
        self.inference = inference
        if network is not None and inference != "neural":
            raise ValueError(f"network names the model of inference=neural; this agent has inference={inference!r}")
        self.network = network
        self.trust = base.probability(trust, "trust")
        self.oversample = base.positive_int(oversample, "oversample")
        if isinstance(blend, bool) or not isinstance(blend, (int, float)) or not 0.0 <= float(blend) < float("inf"):
            raise ValueError(f"blend must be a number >= 0, got {blend!r}")
        self.blend = float(blend)
        for option, flag in (("cautious", cautious), ("fallback", fallback)):
            if not isinstance(flag, bool):
                raise ValueError(f"{option} must be True or False, got {flag!r}")
        self.cautious = cautious
        self.fallback = fallback
        self.pimc = make_pimc(self.game, seed=seed)  # the fallback, and the blended values
        package = game_spec(self.game).kernel().__name__.rsplit(".", 1)[0]
        self._tricks_left = importlib.import_module(f"{package}.solve").tricks_left
        self.searches = 0
        self.delegated = 0
        self.search_seconds = 0.0
        self.inconsistent_worlds = 0
        self._inference = None
        self._table = None

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.pimc.reset(seed)

    def delegates(self, env, agent: str, legal: np.ndarray) -> bool:
        """Whether ``fallback`` (the built-in ``pimc``) takes this decision: one without card play among
        ``legal``, or a card play with more than ``search_tricks`` tricks left (the trick count read from a
        sampled world: it is public)."""
        if not self.fallback:
            return False
        if not base.card_actions(env)[legal].any():
            return True
        state = env.unwrapped.sampled_kernel_state(agent, 0)  # a fixed seed: only public counts are read
        return int(self._tricks_left(state)) > self.search_tricks

    def act(self, env, agent: str) -> int:
        legal = base.legal_actions(env, agent)
        if legal.size > 1 and self.delegates(env, agent, legal):
            self.delegated += 1
            return self.pimc.act(env, agent)
        self.decisions += 1
        return self.own_decision(env, agent, legal)

    def own_decision(self, env, agent: str, legal: np.ndarray) -> int:
        """A decision the fallback does not take: the cautious action where one is legal (``cautious``), else
        the action of the best value."""
        if self.cautious:
            cautious = legal[base.actions_named(env, "cautious", CAUTIOUS_ACTIONS.__contains__)[legal]]
            if cautious.size:
                return int(cautious[0])
        if legal.size == 1:
            return int(legal[0])
        return int(legal[int(np.argmax(self.action_values(env, agent, legal)))])

    def action_values(self, env, agent: str, legal: np.ndarray | None = None) -> np.ndarray:
        """Mean exact settlement of ``agent``'s side after each legal action (in the order of ``legal``),
        plus ``blend`` times ``pimc``'s value."""
        if legal is None:
            legal = base.legal_actions(env, agent)
        if self.delegates(env, agent, legal):
            return self.pimc.action_values(env, agent, legal)
        return self.card_values(env, agent, legal, self.search(env, agent, legal))

    def card_values(self, env, agent: str, actions: np.ndarray, solved: np.ndarray) -> np.ndarray:
        """The value the choice maximises: the mean of ``solved`` (worlds by ``actions``) plus ``blend`` times
        ``pimc``'s mean playout settlement (module docstring, "Blend")."""
        values = nan_mean(solved)
        if self.blend > 0.0:
            values = values + self.blend * self.pimc.action_values(env, agent, actions)
        return values

    def worlds_for(self, env, actions: np.ndarray) -> int:
        """``bid_worlds`` for a decision without card play among ``actions``, else ``worlds``."""
        return self.worlds if base.card_actions(env)[actions].any() else self.bid_worlds

    def search(self, env, agent: str, actions: np.ndarray) -> np.ndarray:
        """``agent``'s exact settlement after each of ``actions`` (columns) in every solved world (rows); NaN
        where a world does not allow the action (an env resampling bug, counted in ``inconsistent_worlds``)."""
        start = time.perf_counter()
        count = self.worlds_for(env, actions)
        seat = base.seat_of(env, agent)
        if self.inference == "off":  # the solver redeals the kernel state at once: no env around it
            world = env.unwrapped.sampled_kernel_state(agent, self.rng)
        else:  # the inference replays the world's hand from its deal (its env's _deal_from_state, _params)
            world = env.unwrapped.resample_from_infostate(agent, self.rng)
        actions = np.ascontiguousarray(actions, dtype=np.int64)
        rng = make_rng(int(self.rng.integers(2**63)))
        if self.inference == "off":
            values = np.empty((count, actions.size), dtype=np.float64)
            self.solver.solve_outcomes_tricks(world, seat, actions, count, rng, self.exact_tricks, values)
        else:
            values = self._inferred_values(world, seat, actions, count, rng)
        self.inconsistent_worlds += int(np.isnan(values).any(axis=1).sum())
        self.searches += 1
        self.search_seconds += time.perf_counter() - start
        return values

    def _inferred_values(self, world, seat: int, actions: np.ndarray, count: int, rng: np.ndarray) -> np.ndarray:
        """The solved values in ``count`` worlds drawn by importance resampling (module docstring)."""
        if self._inference is None:
            self._inference = (NeuralPlayInference(world, self.trust, self.network) if self.inference == "neural"
                               else PlayInference(world, self.trust))
        candidates, weights = self._inference.weighted_worlds(world, seat, self.oversample * count, rng)
        kept = resampled_indices(weights, count, self.rng)
        if self._table is None:
            self._table = self.solver.new_table()  # one table for every solve: a fresh one per solve costs more
        keys, bounds, version = self._table
        nodes = np.zeros(1, dtype=np.int64)  # the positions searched (the solver counts them; unused here)
        solved: dict[int, np.ndarray] = {}
        values = np.empty((count, actions.size), dtype=np.float64)
        for row, index in enumerate(kept):
            if index not in solved:  # every action of the world at once: its card plays share the table
                column = np.empty(actions.size, dtype=np.float64)
                self.solver.solve_actions(candidates[index], seat, actions, self.exact_tricks, keys, bounds, version,
                                          nodes, column)
                solved[index] = column
            values[row] = solved[index]
        return values

    def stats(self) -> dict:
        """Decisions, searches (decisions with a choice), milliseconds per search, inconsistent worlds (0
        expected), decisions delegated to ``pimc`` and, with inference, the mean effective share of the
        candidate worlds."""
        per_search = 1000.0 * self.search_seconds / self.searches if self.searches else float("nan")
        result = {"decisions": self.decisions, "searches": self.searches, "ms_per_search": per_search,
                  "inconsistent_worlds": self.inconsistent_worlds, "delegated": self.delegated}
        if self._inference is not None:
            result["effective_world_share"] = self._inference.mean_effective_share()
        return result

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(game={self.game!r}, worlds={self.worlds}, bid_worlds={self.bid_worlds}, "
                f"inference={self.inference!r}, network={self.network!r}, exact_tricks={self.exact_tricks}, "
                f"search_tricks={self.search_tricks}, fallback={self.fallback}, blend={self.blend}, "
                f"cautious={self.cautious})")


class KnuffelnDoubleDummyAgent(DoubleDummyPIMCAgent, KnuffelnTurning):
    """``pimc_dd`` for Knüffeln: solved worlds, plus turning and answering turns as Knüffeln's ``pimc`` does
    (``agents.search.knuffeln.KnuffelnTurning``, module docstring)."""

    def __init__(
        self,
        game: str = KnuffelnTurning.GAME,
        turn_threshold: float = DEFAULT_TURN_THRESHOLD,
        turn_likelihood: float = DEFAULT_TURN_LIKELIHOOD,
        **options,
    ) -> None:
        if game != KnuffelnTurning.GAME:
            raise ValueError(f"the Knüffeln pimc_dd agent plays {KnuffelnTurning.GAME}, not {game!r}")
        if "cautious" in options:
            raise ValueError("cautious: Knüffeln has no doubles or schenken to be cautious about")
        super().__init__(game, **options)
        self.turn_threshold = base.probability(turn_threshold, "turn_threshold")
        self.turn_likelihood = base.probability(turn_likelihood, "turn_likelihood")

    def own_decision(self, env, agent: str, legal: np.ndarray) -> int:
        """Knüffeln's decision over the solved worlds (``KnuffelnTurning``)."""
        return self.turning_act(env, agent)

    def __repr__(self) -> str:
        return (f"KnuffelnDoubleDummyAgent(worlds={self.worlds}, inference={self.inference!r}, "
                f"blend={self.blend}, turn_threshold={self.turn_threshold}, turn_likelihood={self.turn_likelihood})")


def make_pimc_dd(game: str, **kwargs) -> DoubleDummyPIMCAgent:
    """The built-in ``pimc_dd`` of ``game`` (``agents.make("pimc_dd", game, **kwargs)``): the class the game's
    spec names for it (``agent_classes``; Knüffeln's agent), else the general one, with the spec's
    ``agent_defaults`` filling in what ``kwargs`` leaves out (the module docstring says why)."""
    spec = game_spec(game)
    return spec.agent_class("pimc_dd", DoubleDummyPIMCAgent)(game, **{**spec.agent_options("pimc_dd"), **kwargs})
