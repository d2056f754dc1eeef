"""Batched Knüffeln: many hands stepped together in compiled code — every variant, five players, talk,
and ladder-scored matches.

The same batched env as ``schafkopf_env.batch`` (whose docstring is the full reference: the arrays
returned, auto-reset, seeding, ``sample_actions``, ``observe_all``, ``held_cards``, ``kernel_states``/``load_states``,
``copy=False``), for Knüffeln:

    from knuffeln_env.batch import BatchEnv

    env = BatchEnv(4096, variant="bohmstedt", players=4, talk="off", seed=0)
    out = env.reset()
    out = env.step(env.sample_actions())   # out.observation, out.action_mask, out.current_player,
                                           # out.rewards (N, players), out.terminated

``BatchEnv(num_envs, seed=None, observation_type="observation", num_threads=None, copy=True, **config)``
takes the options of ``knuffeln_env.knuffeln_v0`` (``variant``, ``players``, ``talk``, ``match``),
validated and encoded exactly as there. With five players each row has five seats; the dealer of a hand
(who plays alone or sits out) is a seat like the others. With talk on, talk turns are steps like any
other (``silent``, ``say:N``, ``show:C``, ``token:N``).

**Matches** (``match=True``, four players), as in the AEC env: an episode is a match of hands scored on
the ladder (the compiled rule of ``knuffeln_env.knuffeln.match``, which the AEC env uses too). When a hand
ends and no team has wiped all its rungs, the row continues at once with the next hand of the match (the
deal passes to the left; ``terminated`` stays False and rewards 0); when a team has wiped its last rung,
the row's rewards are +1 for each winner and -1 for each loser (±2 for a Brille), ``terminated`` is True
and a new match begins. Observations end with the three match features
of the AEC env (rungs left for the observer's team, for the other team, hands played); ``ladders()``
returns them per row (``int64 (N, 3)``: team 0's rungs, team 1's rungs, hands played), and
``load_states(states, rows=None, ladders=None)`` sets them with the hands (default: a fresh match).

``play_random_hands(game, num_hands, seed=0, num_threads=None, **config)`` deals and plays random whole
hands in compiled code over numba's threads and returns the settlement summed per seat (single hands: the
``match`` option does not apply to it); ``random_hand_player(game, **config)`` is its driver. Both take the
game first, as every batch module's do (``game`` is ``"knuffeln"``), so that callers find them through the
registry (``GameSpec.batch_module()``) without a case per family.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import prange

from trick_core import batch_loops, drivers
from trick_core.batch_env import BatchEnvCore, BatchStep, RandomHandPlayer, check_batch_options
from trick_core.bits import shuffle_pack
from trick_core.specialise import code_fingerprint, compile_copies

from . import knuffeln_v0
from .knuffeln import kernel as knuffeln_kernel
from .knuffeln import match as match_play
from .knuffeln.match import HANDS_PLAYED, LADDER_RUNGS, LADDER_SIZE, TEAM_0_RUNGS, TEAM_1_RUNGS

GAME = knuffeln_kernel.GAME

__all__ = ["BatchEnv", "BatchStep", "play_random_hands", "random_hand_player"]


def _rules_env(config: dict, observation_type: str = "observation"):
    check_batch_options(GAME, config)
    return knuffeln_v0.raw_env(observation_type=observation_type, **config)


def _hand_params(aec_env) -> np.ndarray:
    """Kernel params of the env's rules; a match is played around single hands, so ``match`` is not one."""
    rules = {key: value for key, value in aec_env.config.items() if key != "match"}
    return knuffeln_kernel.make_params(**rules)


class BatchEnv(BatchEnvCore):
    """``num_envs`` Knüffeln hands (or matches) stepped together (see the module docstring)."""

    def __init__(self, num_envs: int, *args, **options) -> None:
        """``BatchEnvCore``'s options (``seed``, ``observation_type``, ``num_threads``, ``copy``) and the
        rule options of ``knuffeln_v0`` (module docstring)."""
        super().__init__(GAME, num_envs, *args, **options)
        self.match = bool(self._aec_env.config.get("match", False))
        self._ladders = np.tile(match_play.new_ladder(), (self.num_envs, 1))
        self._cards = np.zeros((self.num_envs, knuffeln_kernel.NUM_CARDS), dtype=np.int64)
        if self.match:
            self._match_loops = _match_loops(self.parallel)

    def ladders(self) -> np.ndarray:
        """Match play: ``int64 (num_envs, 3)``, each row's ladder (``knuffeln_env.knuffeln.match``): rungs left
        for team 0 (seats 0, 2) and team 1 (seats 1, 3) and the hands played so far in its match (a copy)."""
        if not self.match:
            raise ValueError(f"{GAME}: ladders exist only with match=True")
        return self._ladders.copy()

    def _game_rules(self, game: str, config: dict, observation_type: str):
        aec_env = _rules_env(config, observation_type)
        return aec_env, knuffeln_kernel, _hand_params(aec_env)

    def load_states(self, states, rows=None, ladders=None, *, _from_this_process: bool = False) -> BatchStep:
        """``BatchEnvCore.load_states``; with ``match=True`` also each loaded row's ladder (``int64`` rows of
        ``ladders()``; default: a fresh match)."""
        if ladders is not None and not self.match:
            raise ValueError(f"{GAME}: ladders can be loaded only with match=True")
        rows = None if rows is None else self._checked_rows(rows)  # before the ladders are assigned to them
        count = self.num_envs if rows is None else rows.shape[0]
        if ladders is None:
            ladders = np.broadcast_to(match_play.new_ladder(), (count, LADDER_SIZE))
        ladders = np.asarray(ladders)
        if ladders.shape != (count, LADDER_SIZE) or not np.issubdtype(ladders.dtype, np.integer):
            raise ValueError(f"{GAME}: ladders must be an integer array of shape ({count}, {LADDER_SIZE})")
        rungs = ladders[:, [TEAM_0_RUNGS, TEAM_1_RUNGS]]
        if ladders.size and (rungs.min() < 1 or rungs.max() > LADDER_RUNGS or ladders[:, HANDS_PLAYED].min() < 0):
            raise ValueError(f"{GAME}: a match in progress has 1..{LADDER_RUNGS} rungs left per team")
        previous = self._ladders.copy()
        self._ladders[slice(None) if rows is None else rows] = ladders
        try:
            return super().load_states(states, rows, _from_this_process=_from_this_process)
        except (ValueError, RuntimeError):
            self._ladders[:] = previous
            raise

    # ------------------------------------------------------------------ match play around the hands

    def _reset_rows(self) -> None:
        if not self.match:
            return super()._reset_rows()
        self._match_loops.match_reset_rows(
            self._states, self._params, self._deal_rngs, self._obs_type, self._observations,
            self._action_masks, self._current_players, self._ladders,
        )
        self._rewards[:] = 0.0

    def _step_rows(self, actions: np.ndarray) -> None:
        if not self.match:
            return super()._step_rows(actions)
        self._match_loops.match_step_rows(
            self._states, self._params, self._deal_rngs, actions, self._obs_type, self._observations,
            self._action_masks, self._current_players, self._rewards, self._terminated, self._ladders, self._cards,
        )

    def _observe_rows(self, out: np.ndarray) -> None:
        if not self.match:
            return super()._observe_rows(out)
        self._match_loops.match_observe_rows(self._states, self._obs_type, self._ladders, out)

    def _refresh_rows(self, rows: np.ndarray) -> None:
        if not self.match:
            return super()._refresh_rows(rows)
        self._match_loops.match_refresh_rows(
            self._states, rows, self._obs_type, self._observations, self._action_masks, self._current_players,
            self._ladders,
        )


def _check_game(game: str) -> None:
    """``ValueError`` unless ``game`` is the one game this module batches (the game comes first in every
    batch module's functions: ``schafkopf_env.batch`` batches three)."""
    if game != GAME:
        raise ValueError(f"knuffeln_env.batch plays {GAME!r}, not {game!r} (its functions take the game first)")


def play_random_hands(
    game: str, num_hands: int, seed: int = 0, num_threads: int | None = None, **config
) -> np.ndarray:
    """Deal and play ``num_hands`` uniformly random hands of ``game`` (``"knuffeln"``) in compiled code;
    return the settlement summed per seat (``float64``). The result depends only on ``seed`` (not on
    ``num_threads``)."""
    return random_hand_player(game, **config).play(num_hands, seed, num_threads)


def random_hand_player(game: str, **config) -> RandomHandPlayer:
    """The compiled random-hand driver of ``game`` (``"knuffeln"``) and ``config``:
    ``.play(num_hands, seed, num_threads)``."""
    _check_game(game)
    aec_env = _rules_env(config)
    return RandomHandPlayer(GAME, aec_env, knuffeln_kernel, _hand_params(aec_env))


# ================================================================== compiled match loops (templates)
advance = None
"""The kernel's ``advance`` driver (``trick_core.drivers``); bound in the compiled copies."""
# Compiled through ``trick_core.batch_loops.compile_copies`` (serial and parallel copies cache apart).


def deal_next_hand_of_match(state, params, dealer, rng, cards):
    """The next hand of a match, dealt by ``dealer``: the pack shuffled, then the kernel's fixed-deal
    start (which redeals by the rules when four stock cards of one suit are turned) — as the AEC env."""
    shuffle_pack(cards, 0, cards.shape[0], rng, True)
    knuffeln_kernel.init_state(state, params, dealer, cards)


def observe_in_match(state, seat, obs_type, ladder, out):
    """The hand's observation followed by the match features (``match.write_match_features``)."""
    hand_size = out.shape[0] - match_play.MATCH_FEATURES
    knuffeln_kernel.observe(state, seat, obs_type, out[:hand_size])
    match_play.write_match_features(ladder, seat, out, hand_size)


def start_match(state, params, rng, ladder):
    match_play.reset_ladder(ladder)
    knuffeln_kernel.deal_random(state, params, rng)


def match_reset_rows(states, params, deal_rngs, obs_type, observations, action_masks, current_players, ladders):
    for i in prange(states.shape[0]):
        start_match(states[i], params, deal_rngs[i], ladders[i])
        seat = knuffeln_kernel.current_seat(states[i])
        knuffeln_kernel.legal_action_mask(states[i], action_masks[i])
        current_players[i] = seat
        observe_in_match(states[i], seat, obs_type, ladders[i], observations[i])


def match_step_rows(states, params, deal_rngs, actions, obs_type, observations, action_masks, current_players,
                    rewards, terminated, ladders, cards):
    for i in prange(states.shape[0]):
        state = states[i]
        rewards[i, :] = 0.0
        terminated[i] = False
        seat = advance(state, actions[i], action_masks[i])
        if seat < 0:
            if match_play.finish_hand_of_match(state, ladders[i], rewards[i]):
                terminated[i] = True
                start_match(state, params, deal_rngs[i], ladders[i])
            else:
                deal_next_hand_of_match(state, params, match_play.next_dealer(state), deal_rngs[i], cards[i])
            seat = knuffeln_kernel.current_seat(state)
            knuffeln_kernel.legal_action_mask(state, action_masks[i])
        current_players[i] = seat
        observe_in_match(state, seat, obs_type, ladders[i], observations[i])


def match_observe_rows(states, obs_type, ladders, out):
    for i in prange(states.shape[0]):
        for seat in range(out.shape[1]):
            observe_in_match(states[i], seat, obs_type, ladders[i], out[i, seat])


def match_refresh_rows(states, rows, obs_type, observations, action_masks, current_players, ladders):
    for j in range(rows.shape[0]):
        i = rows[j]
        seat = knuffeln_kernel.current_seat(states[i])
        current_players[i] = seat
        knuffeln_kernel.legal_action_mask(states[i], action_masks[i])
        observe_in_match(states[i], seat, obs_type, ladders[i], observations[i])


_MATCH_TEMPLATES = (deal_next_hand_of_match, observe_in_match, start_match, match_reset_rows, match_step_rows,
                    match_observe_rows, match_refresh_rows)
_SERIAL_MATCH_TEMPLATES = ("deal_next_hand_of_match", "observe_in_match", "start_match", "match_refresh_rows")


@functools.cache
def _match_loops(parallel: bool):
    tag = f"{batch_loops.variant_tag(parallel)}__{code_fingerprint(knuffeln_kernel, match_play)}"
    namespace = {**globals(), "advance": drivers.compiled(knuffeln_kernel).advance}
    decorator = batch_loops.decorator_for(parallel, _SERIAL_MATCH_TEMPLATES)
    return compile_copies(_MATCH_TEMPLATES, namespace, tag, decorator)


def make(game: str, num_envs: int, **options) -> BatchEnv:
    """``BatchEnv(num_envs, **options)`` for ``game`` ``"knuffeln"``: the constructor every batch module
    offers under this name (``trick_core.registry.GameSpec.make_batch_env``)."""
    _check_game(game)
    return BatchEnv(num_envs, **options)
