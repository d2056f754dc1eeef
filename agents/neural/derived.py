"""Derived card features: what a player reads off the table at a glance, computed from the seat's
observation alone (so an agent using them still sees only what its seat may know).

An MLP over one-hot cards has to learn from data which card currently wins the trick, which of its
cards would take it over, and which are the highest left of their suit — under every contract's trump
order (Schafkopf) or every pair of chosen suits (Knüffeln). These are a few table lookups from the
observation, so they are computed here and appended to it (``FeatureEncoder``), vectorised over rows:

- **Schafkopf**, per card (32): is it trump; its strength in the contract's order; held, and no unseen card
  of its effective suit ranks above it; held, and it would take the trick in progress over if played
  now. Per effective suit (the four suits and trumps): own cards, unseen cards. The trick in progress:
  the provisionally winning seat (relative), its card points, its cards, the led effective suit.
- **Knüffeln**, per card (48): in a chosen suit; attack and defence values (section 4's table); held, and
  it would take the trick over now; held, and no unseen card could beat it if led. The trick in progress:
  the provisionally winning seat, whether that is the observer's team, its cards.

"Unseen" cards are those in no place the observation shows (not held, played, in the trick, or shown
face up). The trump order is the contract's once it is fixed, and the ordinary game's (hearts, Obers and
Unters / Queens and Jacks) while bidding. The rule tables restate the rules pages ``docs/rules/`` (section 4 of
Knüffeln's; the trump orders of the Schafkopf rule cards); ``tests/neural/test_features.py`` checks them
against the kernels' own on random positions.

Observation offsets come from each kernel's ``observation_layout`` (its env's documented index table), by
block name, for the ``observation`` type of the env's configuration.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from knuffeln_env.knuffeln.tables import ATTACK, DEFENCE, NUM_CARDS, NUM_RANKS, SUIT_RANK
from knuffeln_env.knuffeln.tables import RANKING_OF_VARIANT as RANKING_OF_VARIANT_INDEX
from knuffeln_env.knuffeln.tables import VARIANTS as KNUFFELN_VARIANTS
from trick_core.layout import block_starts

PARALLEL_MIN_ROWS = 512
"""A batch of at least this many rows is encoded on all of numba's threads (``numba.set_num_threads``)."""
FEATURE_SETS = ("none", "cards")
"""``none``: the observation alone; ``cards``: the observation and the derived card features."""

# ---------------------------------------------------------------------------------------------- Schafkopf

SCHAFKOPF_CARDS = 32
TRUMP_SUIT = 4  # the effective suit of every trump
RANK_A, RANK_10, RANK_K, RANK_O, RANK_U, RANK_9, RANK_8, RANK_7 = range(8)
WENZ = 4  # trump kind: the Unters only
FARBWENZ = 5  # trump kinds 5..8: the Unters, then suit kind - 5 (Bavarian's ``farbwenz``)
GEIER = 9  # trump kind: the Obers only (Bavarian's ``geier``)
BETTEL = 10  # trump kind: no trumps (Bavarian's ``bettel``)
TRUMP_KINDS = 11  # schafkopf_env.trumps' NUM_ALL_TRUMP_KINDS
HEARTS = 2
PLAIN_ORDER = (RANK_A, RANK_10, RANK_K, RANK_9, RANK_8, RANK_7)
PLAIN_ORDER_WENZ = (RANK_A, RANK_10, RANK_K, RANK_O, RANK_9, RANK_8, RANK_7)
PLAIN_ORDER_GEIER = (RANK_A, RANK_10, RANK_K, RANK_U, RANK_9, RANK_8, RANK_7)
PLAIN_ORDER_BETTEL = (RANK_A, RANK_K, RANK_O, RANK_U, RANK_10, RANK_9, RANK_8, RANK_7)
CARD_POINTS = np.array([(11, 10, 4, 3, 2, 0, 0, 0)[card % 8] for card in range(SCHAFKOPF_CARDS)], dtype=np.float32)


def _trump_order(kind: int) -> list[int]:
    """Trumps from the highest: Obers (Queens), Unters (Jacks), then suit ``kind``; Wenz: the Unters;
    Farbwenz: the Unters, then its suit ``A 10 K O 9 8 7``; Geier: the Obers; Bettel: none."""
    if kind == WENZ:
        return [suit * 8 + RANK_U for suit in range(4)]
    if FARBWENZ <= kind < FARBWENZ + 4:
        return [suit * 8 + RANK_U for suit in range(4)] + [(kind - FARBWENZ) * 8 + rank for rank in PLAIN_ORDER_WENZ]
    if kind == GEIER:
        return [suit * 8 + RANK_O for suit in range(4)]
    if kind == BETTEL:
        return []
    return [suit * 8 + RANK_O for suit in range(4)] + [suit * 8 + RANK_U for suit in range(4)] + [
        kind * 8 + rank for rank in PLAIN_ORDER
    ]


def _schafkopf_tables():
    """EFFECTIVE_SUIT[kind, card] (4 = trump) and POWER[kind, card] (trumps above 100, plain 1..7)."""
    effective_suit = np.zeros((TRUMP_KINDS, SCHAFKOPF_CARDS), dtype=np.int64)
    power = np.zeros((TRUMP_KINDS, SCHAFKOPF_CARDS), dtype=np.int64)
    for kind in range(TRUMP_KINDS):
        trumps = _trump_order(kind)
        plain = {GEIER: PLAIN_ORDER_GEIER, BETTEL: PLAIN_ORDER_BETTEL}.get(
            kind, PLAIN_ORDER_WENZ if WENZ <= kind < GEIER else PLAIN_ORDER)
        for card in range(SCHAFKOPF_CARDS):
            suit, rank = divmod(card, 8)
            if card in trumps:
                effective_suit[kind, card], power[kind, card] = TRUMP_SUIT, 100 + len(trumps) - trumps.index(card)
            else:
                effective_suit[kind, card], power[kind, card] = suit, len(plain) - plain.index(rank)
    return effective_suit, power


EFFECTIVE_SUIT, POWER = _schafkopf_tables()
STRENGTH = np.where(POWER > 100, 0.5 + (POWER - 100) / 28.0, POWER / 16.0).astype(np.float32)
"""Power scaled to [0, 1]: plain cards at most 0.5 (a Bettel ace: 8/16), trumps above."""


@dataclass(frozen=True)
class SchafkopfLayout:
    """Where a Schafkopf observation keeps what the features need (``n`` relative seats)."""

    seats: int
    hand: int
    trump: int  # one-hot trump kind: 4 suits (+ Wenz in Bavarian)
    trump_size: int
    leader: int
    trick: int  # seats x 32: each seat's card in the trick in progress
    played: int  # seats x 32: cards each seat has played
    seen_elsewhere: tuple[int, ...] = ()  # other 32-card blocks of cards the seat knows are out (skat, discards)
    extra_contract: int = -1  # Bavarian's geier farbwenz geier_tout farbwenz_tout bettel one-hot (-1: none)


def schafkopf_layout(game: str, config: dict) -> SchafkopfLayout:
    """The blocks the features read, by name from the game's ``kernel.observation_layout`` for ``config``
    (its docs page's table): the same block names in every Schafkopf game, the skat taken and the discards
    where the game has them."""
    from trick_core.registry import kernel_module

    kernel = kernel_module(game)
    blocks = kernel.observation_layout(kernel.make_params(**config), 0)
    at, sizes = block_starts(blocks), dict(blocks)
    return SchafkopfLayout(
        seats=sizes["dealer"], hand=at["hand"], trump=at["trump"], trump_size=sizes["trump"], leader=at["leader"],
        trick=at["trick"], played=at["played"],
        seen_elsewhere=tuple(at[name] for name in ("skat_taken", "discards") if name in at),
        extra_contract=at.get("extra_contract", -1),
    )


def _one_hot(index: np.ndarray, valid: np.ndarray, size: int) -> np.ndarray:
    out = np.zeros((index.shape[0], size), dtype=np.float32)
    rows = np.flatnonzero(valid)
    out[rows, index[rows]] = 1.0
    return out


def schafkopf_features(observation: np.ndarray, layout: SchafkopfLayout) -> np.ndarray:
    count, n = observation.shape[0], layout.seats
    rows = np.arange(count)
    hand = observation[:, layout.hand : layout.hand + 32] > 0.5
    trump = observation[:, layout.trump : layout.trump + layout.trump_size]
    kind = np.where(trump.max(axis=1) > 0.5, trump.argmax(axis=1), HEARTS)
    if layout.extra_contract >= 0:  # the trump block shows a Farbwenz's suit, nothing in a Geier or a Bettel
        extra = observation[:, layout.extra_contract : layout.extra_contract + 5] > 0.5
        kind = np.where(extra[:, 0] | extra[:, 2], GEIER, np.where(
            extra[:, 1] | extra[:, 3], FARBWENZ + kind, np.where(extra[:, 4], BETTEL, kind)))
    trick = observation[:, layout.trick : layout.trick + 32 * n].reshape(count, n, 32) > 0.5
    played = observation[:, layout.played : layout.played + 32 * n].reshape(count, n, 32) > 0.5
    seen = hand | played.any(axis=1) | trick.any(axis=1)
    for offset in layout.seen_elsewhere:
        seen |= observation[:, offset : offset + 32] > 0.5
    unseen = ~seen
    suit, power, strength = EFFECTIVE_SUIT[kind], POWER[kind], STRENGTH[kind]
    own_per_suit = np.zeros((count, 5), dtype=np.float32)
    unseen_per_suit = np.zeros((count, 5), dtype=np.float32)
    best_unseen = np.zeros((count, 32), dtype=np.int64)  # per card: the highest unseen power of its suit
    for effective_suit in range(5):
        in_suit = suit == effective_suit
        own_per_suit[:, effective_suit] = (hand & in_suit).sum(axis=1) / 8.0
        unseen_per_suit[:, effective_suit] = (unseen & in_suit).sum(axis=1) / 14.0
        highest = np.where(unseen & in_suit, power, 0).max(axis=1)
        best_unseen = np.where(in_suit, highest[:, None], best_unseen)
    # a held card is the highest left of its effective suit when no unseen card of that suit ranks above it
    top_left = hand & (power > best_unseen)

    in_trick = trick.any(axis=2)
    card_of_seat = trick.argmax(axis=2)
    leader = observation[:, layout.leader : layout.leader + n].argmax(axis=1)
    led = in_trick[rows, leader]
    led_card = card_of_seat[rows, leader]
    led_suit = suit[rows, led_card]
    winner_seat, winner_card = leader.copy(), led_card.copy()
    for position in range(1, n):
        seat = (leader + position) % n
        card = card_of_seat[rows, seat]
        takes = led & in_trick[rows, seat] & _takes_over(suit, power, rows, card, winner_card, led_suit)
        winner_seat = np.where(takes, seat, winner_seat)
        winner_card = np.where(takes, card, winner_card)
    winner_suit, winner_power = suit[rows, winner_card], power[rows, winner_card]
    is_trump = suit == TRUMP_SUIT
    beats_winner = (
        led[:, None]
        & hand
        & (
            (is_trump & ((winner_suit != TRUMP_SUIT)[:, None] | (power > winner_power[:, None])))
            | ((suit == led_suit[:, None]) & (winner_suit == led_suit)[:, None] & (power > winner_power[:, None]))
        )
    )
    trick_points = (trick.any(axis=1) * CARD_POINTS).sum(axis=1) / 40.0
    return np.concatenate(
        [
            is_trump, strength, top_left, beats_winner, own_per_suit, unseen_per_suit,
            _one_hot(winner_seat, led, n), trick_points[:, None], (in_trick.sum(axis=1) / n)[:, None],
            _one_hot(led_suit, led, 5),
        ],
        axis=1,
        dtype=np.float32,
    )


def _takes_over(suit, power, rows, card, winner_card, led_suit) -> np.ndarray:
    """Whether ``card`` played later takes the trick over from ``winner_card`` (highest trump, else the
    highest card of the led effective suit)."""
    card_suit, winner_suit = suit[rows, card], suit[rows, winner_card]
    higher = power[rows, card] > power[rows, winner_card]
    return ((card_suit == TRUMP_SUIT) & ((winner_suit != TRUMP_SUIT) | higher)) | (
        (card_suit == led_suit) & (winner_suit == led_suit) & higher
    )


# ---------------------------------------------------------------------------------------------- Knüffeln

KNUFFELN_CARDS = NUM_CARDS
KNUFFELN_RANKS = NUM_RANKS
# ATTACK / DEFENCE[chosen-suit mask, card] and SUIT_RANK[ranking, chosen, card]: the rules' own card table
# (section 4: a later card takes the trick over when its attack exceeds the winner's defence, or, where
# the unchosen suits are ranked, when it is a higher card of the winner's suit).
RANKING_OF_VARIANT = {name: int(RANKING_OF_VARIANT_INDEX[i]) for i, name in enumerate(KNUFFELN_VARIANTS)}


@dataclass(frozen=True)
class KnuffelnLayout:
    seats: int
    ranking: int
    team: int
    chosen: int  # first chosen suit (4), then second (4)
    hand: int
    seen_blocks: tuple[int, ...]  # 48-card blocks of cards out of the hidden hands (turned, face up, ...)
    played: int  # seats x 48
    trick: int  # seats x 48
    leader: int


KNUFFELN_SEEN_BLOCKS = ("turned", "face_up", "stock_shown_to_all", "stock_known", "out_of_play")
"""The card blocks of a Knüffeln observation that show cards out of the hidden hands."""


def knuffeln_layout(game: str, config: dict) -> KnuffelnLayout:
    """The blocks the features read, by name from the kernel's ``observation_layout`` for ``config`` (the
    cards a seat sees elsewhere: ``KNUFFELN_SEEN_BLOCKS``)."""
    from knuffeln_env.knuffeln import kernel

    params = kernel.make_params(**{key: value for key, value in config.items() if key != "match"})  # env-only
    blocks = kernel.observation_layout(params, 0)
    at = block_starts(blocks)
    return KnuffelnLayout(
        seats=int(config.get("players", 4)), ranking=RANKING_OF_VARIANT[config.get("variant", "bohmstedt")],
        team=at["team"], chosen=at["first_suit"], hand=at["hand"],
        seen_blocks=tuple(at[name] for name in KNUFFELN_SEEN_BLOCKS), played=at["played"], trick=at["trick"],
        leader=at["leader"],
    )


def knuffeln_beats(ranking: int, chosen: np.ndarray, challenger: np.ndarray, winner: np.ndarray) -> np.ndarray:
    """Whether ``challenger`` (played later) takes the trick over from ``winner``, row by row."""
    by_attack = ATTACK[chosen, challenger] > DEFENCE[chosen, winner]
    winner_rank = SUIT_RANK[ranking, chosen, winner]
    by_suit = (winner_rank > 0) & (SUIT_RANK[ranking, chosen, challenger] > winner_rank) & (
        challenger // KNUFFELN_RANKS == winner // KNUFFELN_RANKS
    )
    return by_attack | by_suit


def knuffeln_features(observation: np.ndarray, layout: KnuffelnLayout) -> np.ndarray:
    count, n, cards = observation.shape[0], layout.seats, KNUFFELN_CARDS
    rows = np.arange(count)
    suits = observation[:, layout.chosen : layout.chosen + 4] + observation[:, layout.chosen + 4 : layout.chosen + 8]
    chosen = ((suits > 0.5) * (1 << np.arange(4))).sum(axis=1)
    hand = observation[:, layout.hand : layout.hand + cards] > 0.5
    played = observation[:, layout.played : layout.played + n * cards].reshape(count, n, cards) > 0.5
    trick = observation[:, layout.trick : layout.trick + n * cards].reshape(count, n, cards) > 0.5
    seen = hand | played.any(axis=1) | trick.any(axis=1)
    for offset in layout.seen_blocks:
        seen |= observation[:, offset : offset + cards] > 0.5
    unseen = ~seen
    attack, defence = ATTACK[chosen], DEFENCE[chosen]
    in_chosen_suit = ((chosen[:, None] >> (np.arange(cards) // KNUFFELN_RANKS)) & 1).astype(bool)
    # safe if led: no unseen card's attack exceeds its defence, nor (where suits are ranked) is an unseen
    # card of its suit ranked higher
    suit_rank = SUIT_RANK[layout.ranking, chosen]
    strongest_attack = np.where(unseen, attack, 0).max(axis=1)
    best_rank_of_suit = np.zeros((count, cards), dtype=np.int64)
    for suit in range(4):
        in_suit = (np.arange(cards) // KNUFFELN_RANKS) == suit
        highest = np.where(unseen[:, in_suit], suit_rank[:, in_suit], 0).max(axis=1)
        best_rank_of_suit[:, in_suit] = highest[:, None]
    outranked = (suit_rank > 0) & (best_rank_of_suit > suit_rank)
    safe = hand & (strongest_attack[:, None] <= defence) & ~outranked

    in_trick = trick.any(axis=2)
    card_of_seat = trick.argmax(axis=2)
    leader = observation[:, layout.leader : layout.leader + n].argmax(axis=1)
    led = in_trick[rows, leader]
    winner_seat, winner_card = leader.copy(), card_of_seat[rows, leader]
    for position in range(1, n):
        seat = (leader + position) % n
        card = card_of_seat[rows, seat]
        takes = led & in_trick[rows, seat] & knuffeln_beats(layout.ranking, chosen, card, winner_card)
        winner_seat = np.where(takes, seat, winner_seat)
        winner_card = np.where(takes, card, winner_card)
    beats_winner = led[:, None] & hand & knuffeln_beats(
        layout.ranking, chosen[:, None], np.arange(cards)[None, :], winner_card[:, None]
    )
    team = observation[:, layout.team : layout.team + n] > 0.5
    my_team_winning = led & team[rows, winner_seat]
    return np.concatenate(
        [
            in_chosen_suit, np.minimum(attack, 11) / 11.0, np.minimum(defence, 12) / 12.0, beats_winner, safe,
            _one_hot(winner_seat, led, n), my_team_winning[:, None], (in_trick.sum(axis=1) / n)[:, None],
        ],
        axis=1,
        dtype=np.float32,
    )


# ---------------------------------------------------------------------------------------------- entry point


def features_layout(game: str, config: dict) -> SchafkopfLayout | KnuffelnLayout:
    """The blocks ``game``'s derived features read under ``config``: ``layout(game, config)`` of the function its
    spec names (``features``: ``schafkopf_layout``, ``knuffeln_layout``); ``ValueError`` for a game without."""
    from trick_core.game_spec import imported
    from trick_core.registry import game_spec

    path = game_spec(game).features
    if not path:
        raise ValueError(f"{game} has no derived features (its spec names no 'features'); use the feature set 'none'")
    return imported(path)(game, config)


class FeatureEncoder:
    """``encoder(observation) -> (N, obs_size + size)``: the observation with the derived features of
    ``name`` appended (``"none"``: unchanged).

    ``encoder(...)`` runs the compiled loops of ``agents.neural.compiled_features`` (microseconds per row);
    ``derived`` and ``reference`` are the numpy functions of this module, which define the features and
    which the tests compare the compiled ones against, value for value."""

    def __init__(self, game: str, config: dict, name: str = "cards") -> None:
        if name not in FEATURE_SETS:
            raise ValueError(f"unknown feature set {name!r}; choose from {FEATURE_SETS}")
        self.game, self.config, self.name = game, dict(config), name
        self._layout = None
        if name == "cards":
            self._layout = features_layout(game, config)
        self.size = self.derived(np.zeros((1, self._min_obs_size()), dtype=np.float32)).shape[1]
        self._compiled = None if self._layout is None else self._compiled_call()

    def _min_obs_size(self) -> int:
        """An observation length that covers every offset the layout reads (for measuring ``size``)."""
        if self._layout is None:
            return 1
        extra = getattr(self._layout, "extra_contract", -1) + 5  # Schafkopf's extra contracts (-1: none)
        return max(self._layout.leader + self._layout.seats, self._layout.trick + 48 * self._layout.seats, extra) + 64

    def _compiled_call(self):
        """The serial and the multi-threaded ``encode(observation, out, ...)`` of ``compiled_features``, and
        their further arguments: this layout's offsets and the rule tables (arguments, not globals, so the
        compiled code follows the tables)."""
        from . import compiled_features

        layout = self._layout
        if isinstance(layout, KnuffelnLayout):
            bound = (layout.seats, layout.ranking, layout.team, layout.chosen, layout.hand,
                     np.array(layout.seen_blocks, dtype=np.int64), layout.played, layout.trick, layout.leader,
                     KNUFFELN_CARDS, KNUFFELN_RANKS, np.ascontiguousarray(ATTACK, dtype=np.int64),
                     np.ascontiguousarray(DEFENCE, dtype=np.int64), np.ascontiguousarray(SUIT_RANK, dtype=np.int64))
            serial, parallel = compiled_features.knuffeln_encode, compiled_features.knuffeln_encode_parallel
        else:
            bound = (layout.seats, layout.hand, layout.trump, layout.trump_size, layout.extra_contract,
                     layout.leader, layout.trick,
                     layout.played, np.array(layout.seen_elsewhere, dtype=np.int64), EFFECTIVE_SUIT, POWER, STRENGTH,
                     CARD_POINTS)
            serial, parallel = compiled_features.schafkopf_encode, compiled_features.schafkopf_encode_parallel
        return serial, parallel, bound

    def derived(self, observation: np.ndarray) -> np.ndarray:
        """The derived features alone, in numpy (the reference definition)."""
        if self._layout is None:
            return np.zeros((observation.shape[0], 0), dtype=np.float32)
        if isinstance(self._layout, KnuffelnLayout):
            return knuffeln_features(observation, self._layout)
        return schafkopf_features(observation, self._layout)

    def reference(self, observation: np.ndarray) -> np.ndarray:
        """What ``encoder(observation)`` returns, computed by the numpy functions (for tests)."""
        observation = np.asarray(observation, dtype=np.float32)
        single = observation.ndim == 1
        batch = observation[None, :] if single else observation
        encoded = np.concatenate([batch, self.derived(batch)], axis=1)
        return encoded[0] if single else encoded

    def __call__(self, observation: np.ndarray) -> np.ndarray:
        observation = np.asarray(observation, dtype=np.float32)
        if self._compiled is None:
            return observation.copy()
        single = observation.ndim == 1
        batch = np.ascontiguousarray(observation[None, :] if single else observation)
        encoded = np.empty((batch.shape[0], batch.shape[1] + self.size), dtype=np.float32)
        serial, parallel, bound = self._compiled
        threads = numba.get_num_threads()
        if threads > 1 and batch.shape[0] >= PARALLEL_MIN_ROWS:
            parallel(batch, encoded, 4 * threads, *bound)
        else:
            serial(batch, encoded, *bound)
        return encoded[0] if single else encoded
