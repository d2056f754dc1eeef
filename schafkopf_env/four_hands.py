"""``FourHandsEnv``: the env base of the Schafkopf games that deal the whole pack to four seats, eight cards
each, with no skat (Bavarian Schafkopf, Asserufen).

What those envs share beyond ``trick_core.kernel_env.KernelEnv`` is written here once: parsing a fixed
deal, writing the deal into records, reading a deal back from a kernel state, and the small name lookups
of ``state()``. A fixed deal is ``reset(options={"dealer": d, "hands": {"player_0": [...], ...}})``;
without ``"dealer"`` seat 3 deals, so ``player_0`` is forehand (the seat after the dealer speaks first).
``{"dealer": d}`` alone deals random hands with that dealer.

The kernel (``kernel`` of the subclass) provides ``NUM_SEATS`` (4), ``HAND_SIZE`` (8), ``S_DEALER``,
``S_DEALT_HANDS``, ``OBS_SIZES`` (per observation type) and, for observations above 1, ``OBS_HIGH``; the
subclass sets ``deck`` and passes its rule options to ``FourHandsEnv.__init__``.
"""

from __future__ import annotations

import numpy as np

from trick_core.deal import DealBuilder, parse_dealer, parse_hands
from trick_core.env_options import OBSERVATION_TYPES, EnvOptions, check_env_options
from trick_core.kernel_env import Deal, KernelEnv

DEFAULT_DEALER = 3
"""A fixed deal without a dealer: seat 3 deals, so ``player_0`` is forehand."""


class FourHandsEnv(KernelEnv):
    """Base of the four-seat Schafkopf envs whose deal is four hands of eight (module docstring)."""

    def __init__(self, rules: dict, options: EnvOptions) -> None:
        """The env of the kernel's game with the rule options ``rules`` (integers, passed to the kernel's
        ``make_params``) and the constructor's other ``options`` (``EnvOptions``: any other name is a
        ``ValueError`` naming it, before any other check)."""
        k = self.kernel
        check_env_options(self.game_name, options)
        params = k.make_params(**rules)
        config = self._rule_config(rules)
        super().__init__(k.NUM_SEATS, config, **options)
        obs_size = k.observation_size(params, OBSERVATION_TYPES.index(self.observation_type))
        self._setup_kernel(params, obs_size, getattr(k, "OBS_HIGH", 1.0))

    def _rule_config(self, rules: dict) -> dict:
        """The env's ``config`` (what records carry) from its rule options: integers by default; a game whose
        options are names or mappings (Bavarian's ``tariff``) says how it writes them."""
        return {name: int(value) for name, value in rules.items()}

    def _parse_deal(self, options: dict) -> Deal:
        """A random deal for a given dealer, or a fixed deal of four hands (the 32 card indices, seat by
        seat); ``ValueError`` naming any problem."""
        for key in ("skat", "stock"):
            if key in options:
                raise ValueError(f"{self.game_name}: all 32 cards are dealt to the four seats; there is no {key!r}")
        k = self.kernel
        dealer = parse_dealer(options, k.NUM_SEATS, self.game_name, DEFAULT_DEALER)
        if "hands" not in options:
            return self._random_deal(self._generator(), dealer)
        builder = DealBuilder(self.deck, self.game_name)
        hands = parse_hands(builder, options, self.possible_agents, k.HAND_SIZE)
        builder.require_complete()
        cards = np.array([card for agent in self.possible_agents for card in hands[agent]], dtype=np.int64)
        return Deal(dealer, cards)

    def _deal_options(self, deal) -> dict:
        """The ``reset`` options recreating the hand being played (read from the kernel state; each hand
        in card-layout order)."""
        k = self.kernel
        return {
            "dealer": int(self._state[k.S_DEALER]),
            "hands": {
                agent: self._card_names(self._state[k.S_DEALT_HANDS + seat])
                for seat, agent in enumerate(self.possible_agents)
            },
        }

    def _deal_from_state(self, state: np.ndarray) -> Deal:
        k = self.kernel
        hands = [self.deck.cards_of(int(state[k.S_DEALT_HANDS + seat])) for seat in range(k.NUM_SEATS)]
        return Deal(int(state[k.S_DEALER]), np.array([c for hand in hands for c in hand], dtype=np.int64))

