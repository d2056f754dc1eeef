"""``KernelEnv``: the PettingZoo env of a game whose rules are a compiled kernel, written once.

``trick_core.aec.TrickTakingEnv`` owns the PettingZoo machinery; this subclass fills in every hook that
only forwards to the kernel (``docs/architecture.md``: the kernel contract) and adds what every game
offers on ``env.unwrapped``: ``kernel_state()``, ``resample_from_infostate(agent, rng)``,
``sampled_kernel_state(agent, rng)`` and ``playout_values(actions, playouts, seed)``. A game's env module
then keeps only what is its own: the docstring (its docs page), its parameters, parsing and writing its
deals, ``state()`` and rendering.

A subclass sets ``kernel`` (the kernel module; its ``game_name``, PettingZoo name and fixed action names
follow from it) and ``deck``, calls ``_setup_kernel(params, obs_size, obs_high)`` from its ``__init__``,
and implements:

| hook | what it does |
|---|---|
| ``_parse_deal(options)`` | a ``Deal`` from ``reset`` options; ``ValueError`` naming any problem |
| ``_deal_options(deal)`` | the ``reset`` options that recreate the hand being played |
| ``_deal_from_state(state)`` | the ``Deal`` (cards given) a kernel state was dealt from |
| ``state()``, ``_render_text()`` | the full state as plain Python; the table as text |

and, where a game deals otherwise than the default (a seed for the kernel's own shuffle, the dealer drawn
by the kernel), ``_random_deal(rng)``.

**Deals.** One representation in every game: ``Deal(dealer, cards, kernel_seed)``. ``cards`` is the kernel's
``init_state`` array (the game's documented order) or ``None`` for a deal the kernel shuffles itself from
``kernel_seed`` (``dealer`` -1: drawn by the kernel too).

**Sampled worlds** (``resample_from_infostate``) hold nothing their seat could not know: the kernel state is
the resampled one, the action history is read back from it (so hidden actions name the sampled world's
cards), every array is fresh, and the world's random generator is seeded from the caller's seed alone
(never the real table's, which could re-create the real deal). ``sampled_kernel_state`` gives such a
world's kernel state alone, for a search that needs nothing else of it.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import drivers
from .aec import TrickTakingEnv
from .bits import make_rng, rng_state
from .checks import check_seed, positive_int
from .compiled_kernel import (
    ADVANCE_SIGNATURE,
    DEAL_RANDOM_SIGNATURE,
    LEGAL_MASK_SIGNATURE,
    OBSERVE_SIGNATURE,
    SETTLEMENT_SIGNATURE,
    CompiledKernel,
)
from .env_options import OBSERVATION_TYPES


class Deal(NamedTuple):
    """A deal of any game (module docstring)."""

    dealer: int
    """the dealer's seat; -1 for a random deal whose dealer the kernel draws"""
    cards: np.ndarray | None
    """the kernel's deal-cards array, or None for a deal the kernel shuffles from ``kernel_seed``"""
    kernel_seed: int | None = None


_new_tuple = tuple.__new__


def make_deal(dealer: int, cards: np.ndarray | None, kernel_seed: int | None = None) -> Deal:
    """``Deal(dealer, cards, kernel_seed)`` for the deal of every reset: a ``NamedTuple``'s own
    constructor costs about 0.6 us, as much as the rest of the env's Python work of a reset; this a quarter."""
    return _new_tuple(Deal, (dealer, cards, kernel_seed))


KERNEL_SEED_LIMIT = 2**64
"""A kernel's random stream is seeded with 64 bits (``bits.make_rng``): a larger seed would be taken modulo
this, so that two different seeds give the same stream."""


def seed_of(rng, game: str) -> int:
    """An integer seed from ``rng``: a ``numpy.random.Generator`` (one draw) or an int seed itself, refused
    as ``reset(seed=...)`` refuses one (``check_seed``: negative, a bool...) or when it has more than the
    kernel's 64 bits (``KERNEL_SEED_LIMIT``)."""
    if isinstance(rng, np.random.Generator):
        return int(rng.integers(0, 2**63))
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
        seed = check_seed(rng, game, none_allowed=False)
        if seed >= KERNEL_SEED_LIMIT:
            raise ValueError(f"{game}: seed must be below 2**64 (the kernel's stream takes 64 bits), got {seed}")
        return seed
    raise ValueError(f"{game}: rng must be a numpy.random.Generator or an int seed, got {type(rng).__name__}")


class KernelEnv(TrickTakingEnv):
    """Base of every env whose rules are a compiled kernel (module docstring)."""

    kernel = None
    """The game's kernel module (set by the subclass)."""

    env_only_options: tuple[str, ...] = ()
    """Rule options of ``config`` that the env plays itself, not the kernel (Knüffeln's ``match``): left out of
    the check that ``config`` gives the kernel's params."""

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if "kernel" in cls.__dict__:
            cls._name_after_kernel()
        if cls.kernel is not None and "_kernel_advance" not in cls.__dict__:
            compiled = drivers.compiled(cls.kernel)
            cls._drivers = compiled
            for name, function, signature in (
                ("_kernel_advance", compiled.advance, ADVANCE_SIGNATURE),
                ("_kernel_observe", cls.kernel.observe, OBSERVE_SIGNATURE),
                ("_kernel_legal_mask", cls.kernel.legal_action_mask, LEGAL_MASK_SIGNATURE),
                ("_kernel_settlement", cls.kernel.settlement, SETTLEMENT_SIGNATURE),
                ("_kernel_deal_random", getattr(cls.kernel, "deal_random_for_dealer", None), DEAL_RANDOM_SIGNATURE),
            ):
                if function is None:  # a kernel that deals only the cards it is given (its env shuffles)
                    continue
                descriptor = CompiledKernel(function, signature)
                descriptor.__set_name__(cls, name)
                setattr(cls, name, descriptor)

    @classmethod
    def _name_after_kernel(cls) -> None:
        """What a game's env class is called after its kernel: ``game_name`` (``kernel.GAME``), the
        PettingZoo name ``<game>_v0`` in ``metadata`` and, where the kernel has one fixed table of them,
        ``action_names`` (``kernel.ACTION_NAMES``)."""
        cls.game_name = cls.kernel.GAME
        cls.metadata = {**cls.metadata, "name": f"{cls.kernel.GAME}_v0"}
        if hasattr(cls.kernel, "ACTION_NAMES"):
            cls.action_names = cls.kernel.ACTION_NAMES

    def _setup_kernel(self, params: np.ndarray, obs_size: int, obs_high: float = 1.0) -> None:
        """Kernel arrays and spaces; call at the end of ``__init__`` (after ``TrickTakingEnv.__init__``).

        ``params`` must be what the env's ``config`` gives: the batch env, records and replays rebuild the
        rules from ``config`` alone, so a rule option missing from it would be played by default there."""
        kernel_config = {name: value for name, value in self.config.items() if name not in self.env_only_options}
        if not np.array_equal(self.kernel.make_params(**kernel_config), params):
            raise RuntimeError(f"{self.game_name}: config {self.config} does not give the kernel params this env "
                               "plays with: every rule option must be in the env's config")
        self._params = params
        self._obs_type_code = OBSERVATION_TYPES.index(self.observation_type)
        self._state = np.zeros(self.kernel.STATE_SIZE, dtype=np.int64)
        self._settlement_out = np.zeros(self.kernel.MAX_SEATS, dtype=np.float64)
        self._deal_rng = np.zeros(1, dtype=np.uint64)  # a random deal's splitmix64 state, reused by resets
        self._setup_spaces(obs_size, obs_high)

    # ----------------------------------------------------------------- deals

    def _random_deal(self, rng: np.random.Generator, dealer: int = -1) -> Deal:
        """A deal the kernel shuffles from a seed drawn from the env's generator (reproducible from
        ``reset(seed=...)``); ``dealer`` -1 lets the kernel draw the dealer too."""
        return make_deal(dealer, None, int(rng.bit_generator.random_raw()))

    # ----------------------------------------------------------------- kernel hooks

    def _start(self, deal: Deal) -> None:
        if deal.cards is None:
            self._deal_rng[0] = rng_state(deal.kernel_seed)  # make_rng's state, in the env's own array
            self._kernel_deal_random(self._state, self._params, self._deal_rng, deal.dealer)
        else:
            self.kernel.init_state(self._state, self._params, deal.dealer, deal.cards)

    def _current_seat(self) -> int:
        return int(self._state[self.kernel.S_SEAT_TO_ACT])

    def _fill_action_mask(self, out: np.ndarray) -> None:
        self._kernel_legal_mask(self._state, out)

    def _apply(self, action: int) -> None:
        self.kernel.apply_action(self._state, action)

    def _advance(self, action: int) -> int:
        return self._kernel_advance(self._state, action, self._action_mask)

    def _settlement(self) -> np.ndarray:
        self._kernel_settlement(self._state, self._settlement_out)
        return self._settlement_out[: self.num_seats].copy()

    def _fill_observation(self, seat: int, out: np.ndarray) -> None:
        self._kernel_observe(self._state, seat, self._obs_type_code, out)

    # ----------------------------------------------------------------- inspection

    def _common_state(self) -> dict:
        """The fields every game's ``state()`` opens with, the same in every game: ``game``, ``config``,
        ``phase``, ``dealer`` (a seat index, as in ``reset`` options), ``current_player``, ``hands``,
        ``dealt_hands`` and ``history`` (``tests/core/test_conventions.py``)."""
        self._require_reset("state")
        s, k, agents = self._state, self.kernel, self.possible_agents
        return {
            "game": self.game_name,
            "config": dict(self.config),
            "phase": k.PHASE_NAMES[int(s[k.S_PHASE])],
            "dealer": int(s[k.S_DEALER]),
            "current_player": self._agent(self._current_seat() if self._started else -1),
            "hands": {agent: self._card_names(s[k.S_HANDS + i]) for i, agent in enumerate(agents)},
            "dealt_hands": {agent: self._card_names(s[k.S_DEALT_HANDS + i]) for i, agent in enumerate(agents)},
            "history": [[agents[seat], self.action_names[action]] for seat, action in self._action_history],
        }

    def _agent(self, seat: int) -> str | None:
        """The agent of a seat; None for -1 (nobody)."""
        return self.possible_agents[seat] if seat >= 0 else None

    def _card_names(self, mask) -> list[str]:
        """The written cards of a mask, in card-layout order."""
        return self.deck.names_of(int(mask))

    def kernel_state(self) -> np.ndarray:
        """A copy of the kernel's ``int64`` state array (its layout: the kernel's ``layout``); a hand must
        have been dealt (before ``reset`` the array holds no position)."""
        self._require_reset("kernel_state")
        return self._state.copy()

    def _kernel_history(self, state: np.ndarray) -> list[tuple[int, int]]:
        """``(seat, action)`` of every action recorded in a kernel state."""
        k = self.kernel
        length = int(state[k.S_HISTORY_LENGTH])
        seats = state[k.S_HISTORY_SEATS : k.S_HISTORY_SEATS + length]
        actions = state[k.S_HISTORY_ACTIONS : k.S_HISTORY_ACTIONS + length]
        return list(zip(seats.tolist(), actions.tolist(), strict=True))

    # ----------------------------------------------------------------- search support

    def resample_from_infostate(self, agent: str, rng) -> KernelEnv:
        """A world whose cards hidden from ``agent`` are redealt consistently with all it knows
        (``rng``: a ``numpy.random.Generator`` or an int seed). The world holds nothing else of the real
        table (module docstring). Raises ``RuntimeError`` in the (never observed) case that no consistent
        deal is found."""
        sampled, seed = self._sampled_state(agent, rng, "resample_from_infostate")
        return self._world_from_state(sampled, seed)

    def sampled_kernel_state(self, agent: str, rng) -> np.ndarray:
        """The kernel state of a world consistent with all ``agent`` knows: the array that
        ``resample_from_infostate(agent, rng).kernel_state()`` gives for the same ``rng`` (which it draws
        from alike), without building the env around it. What a search agent hands to compiled code, which
        redeals it at once: the env copy cost a search more than the redeal. It depends only on what
        ``agent``'s seat knows and on ``rng`` (the no-peeking tests compare it on twin tables)."""
        return self._sampled_state(agent, rng, "sampled_kernel_state")[0]

    def _sampled_state(self, agent: str, rng, caller: str) -> tuple[np.ndarray, int]:
        """A fresh kernel state redealt for ``agent``'s seat and the seed it was drawn with (``rng``: a
        generator, one draw, or an int seed); ``RuntimeError`` if no consistent deal is found."""
        seat = self._seat_of(agent)
        self._require_reset(caller)
        seed = seed_of(rng, self.game_name)
        sampled = np.empty_like(self._state)
        if not self._drivers.resample_hidden(self._state, seat, make_rng(seed), sampled):
            raise RuntimeError(f"{self.game_name}: found no deal consistent with what {agent} knows")
        return sampled, seed

    def _world_from_state(self, sampled: np.ndarray, seed: int) -> KernelEnv:
        """A copy of this env (its public containers: agents, rewards, terminations...) whose kernel
        state is ``sampled`` and which carries no other array, no deal and no generator of the real
        table."""
        world = self._copy_with_arrays(np.zeros_like)
        world._params = self._params.copy()
        world.__dict__.pop("_rng_state_to_restore", None)
        world._np_random = None  # built from ``seed`` on first use (``_generator``)
        world._rng_seed_to_restore = seed
        world._state = sampled
        world._deal = self._deal_from_state(sampled)
        world._action_history = self._kernel_history(sampled)
        if world._current_seat() >= 0 and world._illegal_seat < 0 and not all(world.terminations.values()):
            world._fill_action_mask(world._action_mask)
        return world

    def playout_values(self, actions, playouts: int, seed: int) -> np.ndarray:
        """Summed settlements, shape ``(len(actions), num_seats)``, of ``playouts`` uniformly random
        playouts after each candidate action of the seat to act, computed in compiled code. ``actions``
        are indices or action strings."""
        game = self.game_name
        if not self._started or self._current_seat() < 0 or self._illegal_seat >= 0:
            raise ValueError(f"{game}: playout_values needs a hand in progress")
        if isinstance(actions, (str, bytes)) or not isinstance(actions, (list, tuple, np.ndarray)):
            raise ValueError(f"{game}: actions must be a list of action indices or strings, got {actions!r}")
        indices = [self.string_to_action(a) if isinstance(a, str) else a for a in actions]
        for action in indices:
            if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or not (
                0 <= action < self.num_actions
            ):
                raise ValueError(f"{game}: {action!r} is not an action index or string")
            if not self._action_mask[action]:
                raise ValueError(
                    f"{game}: action {self.action_names[action]!r} is not legal now; "
                    f"legal: {self.legal_action_strings()}"
                )
        positive_int(playouts, f"{game}: playouts")
        out = np.zeros((len(indices), self.num_seats), dtype=np.float64)
        seed = seed_of(seed, game)
        self._drivers.playout_values(self._state, np.array(indices, dtype=np.int64), int(playouts), make_rng(seed), out)
        return out

    # ----------------------------------------------------------------- hooks

    def _deal_from_state(self, state: np.ndarray) -> Deal:
        raise NotImplementedError
