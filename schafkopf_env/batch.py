"""Batched Schafkopf: many hands stepped together in compiled code (Bavarian, Palatinate, Asserufen).

For training and search loops that want numpy arrays rather than one PettingZoo call per move: every row
of the batch is one hand of the chosen game, all rows are advanced by one ``step`` call, and a row whose
hand ends is settled and dealt a new hand at once (auto-reset), so every row always has a seat to act.
Each step runs one compiled loop over the rows (``numba.prange``: spread over threads unless
``num_threads=1``); observations are encoded exactly as the PettingZoo env's, so a policy trained here
plays there unchanged.

    from schafkopf_env.batch import BatchEnv

    env = BatchEnv("bavarian", num_envs=4096, seed=0)        # "palatinate" (players=3|4), "asserufen"
    out = env.reset()
    for _ in range(1000):
        actions = policy(out.observation, out.action_mask)   # or env.sample_actions()
        out = env.step(actions)
        returns += out.rewards                               # settlements of hands that just ended

**Constructor.** ``BatchEnv(game, num_envs, seed=None, observation_type="observation", num_threads=None,
copy=True, **config)``: ``game`` is ``"bavarian"``, ``"palatinate"`` or ``"asserufen"``; ``config`` holds
the game's rule options, exactly those of its PettingZoo env (e.g. ``players=4`` for Palatinate);
``observation_type`` is ``"observation"``, ``"information_state"`` or ``"perfect"``, as in the envs.
``num_threads=None`` uses all of numba's threads (a batch under ``PARALLEL_MIN_ENVS`` = 256 hands runs
serially: waking threads costs more than a few rows), ``1`` runs the serial compiled loop. ``copy=False``
returns the env's own buffers from ``reset``/``step`` (no copies; they are overwritten by the next
call, and must not be written to).

**What ``reset(seed=None)`` and ``step(actions)`` return** — a ``BatchStep`` named tuple, one row per hand
(``N = num_envs``, ``S`` seats):

| field | dtype, shape | meaning |
|---|---|---|
| ``observation`` | ``float32 (N, obs_size)`` | the seat to act's observation, as the AEC env's ``observe`` |
| ``action_mask`` | ``int8 (N, num_actions)`` | its legal actions, 1 = legal |
| ``current_player`` | ``int64 (N,)`` | the seat to act (``player_i`` of the AEC env) |
| ``rewards`` | ``float32 (N, S)`` | per seat, the settlement of a hand that ended in this step, else 0 |
| ``terminated`` | ``bool (N,)`` | the row's hand ended in this step; its row already holds the next hand |
| ``acting_player`` | ``int64 (N,)`` | the seat whose action this step applied (-1 after ``reset``/``load_states``) |

``actions`` is an integer array of shape ``(N,)``, one action per row for that row's seat to act, in the
action space of the game's AEC env. An action that is out of range or illegal raises ``ValueError``
naming the row, the action and the legal ones, and no row is changed. As in the AEC env, rewards arrive
only when a hand ends (the hand's settlement); the observation after a terminal step is the new hand's
first (the last position of a hand needs no observation: nothing is left to decide).

**Reward credit when one learner plays every seat.** A step's row transition belongs to
``acting_player``; a terminated row's ``rewards[row, seat]`` belongs to *every* seat's last decision in the
ended hand, not only to the seat that moved last. ``trick_gym.credit.SeatTransitions`` pairs each seat's
decisions with its own next observation and its own result; ``trick_gym.vector.OneSeatVectorEnv`` is the
Gymnasium vector env of one learner seat with the other seats played in compiled code.

**Seeding.** Each row has its own splitmix64 streams (one for deals, one for ``sample_actions``), derived
with ``numpy.random.SeedSequence`` from ``seed``; so the same seed gives the same deals, and the
results never depend on ``num_threads``.

**Other methods.** ``sample_actions()`` (a uniformly random legal action per row, compiled),
``observe_all()`` (``(N, S, obs_size)``: every seat's view, e.g. for a centralised critic),
``held_cards()`` (``int64 (N, S)``: each seat's held cards as a mask, the hidden information, e.g. for a
perfect-information critic in training; attribute ``num_cards``, the deck's size),
``kernel_states()`` / ``load_states(states, rows=None)`` (the ``int64`` kernel state of each row; load
hands in progress into every row or the listed ones, e.g. ``aec_env.unwrapped.kernel_state()`` after a
fixed-deal ``reset`` — the way to play given deals, and how the tests compare the two envs; a state
must come from this game and configuration: every loaded state is checked, ``trick_core.state_check``,
and a bad one refused with a ``ValueError`` naming the row and the field),
``action_to_string``, ``string_to_action``; attributes ``num_envs``, ``num_seats``, ``num_actions``,
``obs_size``, ``single_observation_space`` / ``single_action_space`` (the AEC env's spaces),
``observation_space`` / ``action_space`` (the batched ones, as in gymnasium's vector envs).

**Random whole hands in compiled code.** ``play_random_hands(game, num_hands, seed=0, num_threads=None,
**config)`` deals and plays ``num_hands`` uniformly random hands without returning to Python, spread over
numba's threads, and returns the settlement summed per seat (zero-sum, so it sums to 0) — the
throughput figure of ``benchmarks.compare``.

The compiled loops are shared by every game (``trick_core.batch_loops``) and cached on disk by numba:
only the first use of a game compiles (seconds); later processes load the machine code.
"""

from __future__ import annotations

import numpy as np

from trick_core.batch_env import BatchEnvCore, BatchStep, RandomHandPlayer, check_batch_options
from trick_core.registry import GAMES as REGISTRY

GAMES = tuple(name for name, spec in REGISTRY.items() if spec.batch_module_name == __name__)
"""The games this module batches (those whose registry record names it)."""
__all__ = ["GAMES", "BatchEnv", "BatchStep", "play_random_hands", "random_hand_player"]


def _game_modules(game: str):
    if game not in GAMES:
        raise ValueError(f"unknown Schafkopf game {game!r}; choose from {sorted(GAMES)}")
    spec = REGISTRY[game]
    return spec.env_module(), spec.kernel()


def _rules_env(game: str, config: dict, observation_type: str = "observation"):
    """The game's AEC env for ``config`` (validates every option exactly as the env does)."""
    check_batch_options(game, config)
    env_module, kernel_module = _game_modules(game)
    return env_module.raw_env(observation_type=observation_type, **config), kernel_module


class BatchEnv(BatchEnvCore):
    """``num_envs`` hands of one Schafkopf game stepped together (see the module docstring)."""

    def _game_rules(self, game: str, config: dict, observation_type: str):
        aec_env, kernel_module = _rules_env(game, config, observation_type)
        return aec_env, kernel_module, None


def play_random_hands(
    game: str, num_hands: int, seed: int = 0, num_threads: int | None = None, **config
) -> np.ndarray:
    """Deal and play ``num_hands`` uniformly random hands in compiled code; return the settlement summed
    per seat (``float64``). The result depends only on ``seed`` (not on ``num_threads``)."""
    return random_hand_player(game, **config).play(num_hands, seed, num_threads)


def random_hand_player(game: str, **config) -> RandomHandPlayer:
    """The compiled random-hand driver of ``game`` and ``config``: ``.play(num_hands, seed, num_threads)``
    (for repeated calls without re-validating the options, as in the benchmarks)."""
    aec_env, kernel_module = _rules_env(game, config)
    return RandomHandPlayer(game, aec_env, kernel_module)


def make(game: str, num_envs: int, **options) -> BatchEnv:
    """``BatchEnv(game, num_envs, **options)``: the constructor every batch module offers under this name
    (``trick_core.registry.GameSpec.make_batch_env``)."""
    return BatchEnv(game, num_envs, **options)
