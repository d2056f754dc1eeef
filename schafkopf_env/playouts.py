"""Heuristic playouts for the three Schafkopf games: compiled, cheap, sensible play to the end of a hand.

Uniformly random playouts (the kernels' ``random_playout``) value an action as if everybody afterwards
played at random, which makes PIMC (``agents.search.pimc``) misjudge schmieren, trumping and bidding. The
functions here play a *determinized* world (every hand is known, so is every partnership) with a cheap
club player's habits instead; ``agents.search.heuristic`` searches with them.

Per game (``bavarian``, ``palatinate``, ``asserufen``):

- ``<game>_heuristic_playout(state, rng, epsilon)``: play from ``state`` (in place) to the end of the hand.
  At every decision the action is one of the kernel's legal actions (``legal_action_mask``), applied with
  ``apply_action``. A card play is uniformly random with probability ``epsilon``, otherwise chosen by
  the heuristic below. Decisions other than card play always take the conservative default (random
  bids, doubles or Tout contracts inside a playout would swamp the values with noise).

- ``<game>_heuristic_action(state, rng, epsilon)``: the action the playout policy takes in ``state``.

``HEURISTIC_ACTION`` and ``HEURISTIC_PLAYOUT`` map a game name to these; the search that scores actions
with these playouts is ``agents.search.outcomes``.

**Card play** (the same for the three games; ``_choose_card``). Cost of a card: its points and, for a
trump, its rank (a trump is worth more than any plain card).

- *Following, my side wins the trick*: if the trick is safe (I am last, or no opponent still to play can
  beat the winning card with the cards it may play), *schmieren*: the plain (non-trump) legal card with
  the most points that is not a master (a card no opponent could beat if it were led); otherwise, or
  without such a card with points, the cheapest legal card.
- *Following, the opponents win it*: the cheapest legal card that beats the winner and that no opponent
  still to play can beat, if the trick is worth it (its points plus my card's reach ``WORTH_POINTS``,
  or I am last, or a Tout/Du is on); otherwise, if only partners play after me and one of them can take
  the trick, schmieren as above; otherwise the cheapest legal card.
- *Leading*: the declarer's side leads trumps while an opponent holds one (its top trump if no opponent
  holds a higher one, else its lowest); otherwise a master (a card no opponent can beat, most points
  first; defenders consider plain cards only); otherwise the cheapest plain card, else the lowest trump.

**Other decisions**: a seat bids the base game (Bavarian Rufer, Asserufen *hänge an*) or, in Palatinate
round two, the simple game when its hand is as strong as the rule-based players require
(``suit_game_strength``: so that passing at the root is valued knowing another seat may then play); any
other bid is ``pass`` / ``weg``; ``no_double``; ``no_schenken``; the declarer accepts a
schenken offer; a ``hänge an`` player accepts ``darf man?`` when holding a non-heart ace, else refuses;
a called ace is of the suit the declarer holds fewest of (among the legal calls); a trump suit is the
one that makes the declarer's hand strongest (``suit_game_strength``; Palatinate hearts +0.8); a
simple-game declarer discards unguarded tens, Kings and small cards of short suits, never an ace or an
Ober or Unter while it has another card (``DISCARD_PREFERENCE``).
"""

from __future__ import annotations

import numpy as np

from schafkopf_env import asserufen_kernel as ak
from schafkopf_env import palatinate_kernel as pk
from schafkopf_env.card_play import (  # noqa: F401  (transitional: the shared card play)
    HEARTS_BONUS,
    OU_MASK,
    SCRATCH_SIZE,
    SIMPLE_GAME_STRENGTH,
    X_HANDS,
    X_OTHERS,
    X_REST_SEATS,
    X_TEAM,
    X_TRICK_CARDS,
    suit_game_strength,
)
from schafkopf_env.card_play import base_game_hand as _base_game_hand
from schafkopf_env.card_play import choose_card as _choose_card
from schafkopf_env.card_play import mask_bits as _mask_bits
from schafkopf_env.card_play import random_card_action as _random_card_action
from schafkopf_env.card_play import random_set_index as _random_set_index
from schafkopf_env.card_play import strongest_trump as _strongest_trump
from schafkopf_env.card_play import suit_count as _suit_count
from trick_core.bits import lowest_bit, popcount
from trick_core.bits import uniform01 as _uniform01
from trick_core.jit import inline_njit, njit

_ZERO = np.uint64(0)
_ONE = np.uint64(1)


# ============================================================================ Palatinate


@inline_njit
def _palatinate_step(state, mask, scratch, rng, epsilon):
    """The playout's action: a card straight from the legal card bits (most steps), else from ``mask``."""
    if state[pk.S_PHASE] == pk.PHASE_PLAY:
        low, _ = pk._legal_bits(state)  # in the play phase the card bits (PLAY_BASE is 0)
        return _palatinate_card_action(state, low >> np.uint64(pk.PLAY_BASE), scratch, rng, epsilon)
    pk.legal_action_mask(state, mask)
    return _palatinate_decision(state, mask, scratch, rng, epsilon)


@inline_njit
def _palatinate_card_action(state, legal, scratch, rng, epsilon):
    """The card action among the ``legal`` card bits: random with probability ``epsilon``, else heuristic."""
    if epsilon > 0.0 and _uniform01(rng) < epsilon:
        return _random_card_action(legal, pk.PLAY_BASE, rng)
    return pk.PLAY_BASE + _palatinate_card(state, legal, scratch, state[pk.S_TO_ACT])


@njit
def _palatinate_decision(state, mask, scratch, rng, epsilon):
    phase = state[pk.S_PHASE]
    seat = state[pk.S_TO_ACT]
    if phase == pk.PHASE_PLAY:
        return _palatinate_card_action(state, _mask_bits(mask, pk.PLAY_BASE, 32), scratch, rng, epsilon)
    hand = np.uint64(state[pk.S_HAND + seat])
    if phase == pk.PHASE_BID_TWO:
        best = 0.0
        for kind in range(4):
            strength = suit_game_strength(hand, kind) + (HEARTS_BONUS if kind == 2 else 0.0)
            best = max(best, strength)
        return pk.A_SIMPLE if best >= SIMPLE_GAME_STRENGTH else pk.A_PASS
    if phase == pk.PHASE_BID_ONE:
        return pk.A_PASS
    if phase == pk.PHASE_TRUMP:
        return pk.TRUMP_BASE + _strongest_trump(hand, _mask_bits(mask, pk.TRUMP_BASE, 4), HEARTS_BONUS)
    if phase == pk.PHASE_DISCARD:
        return pk.DISCARD_BASE + _palatinate_discard(hand)
    if phase == pk.PHASE_SCHENKEN:
        return pk.A_NO_SCHENKEN
    if phase == pk.PHASE_SCHENKEN_ANSWER:
        return pk.A_ACCEPT
    if phase == pk.PHASE_CONTRA_OFFER or phase == pk.PHASE_DOUBLING:
        return pk.A_NO_DOUBLE
    return _random_set_index(mask, 0, pk.NUM_ACTIONS, rng)


DISCARD_PREFERENCE = np.array([-50, 60, 30, 0, 0, 20, 20, 20], dtype=np.int64)
"""By rank (A 10 K O U 9 8 7): how gladly a simple-game declarer lays a card away. A ten is banked (unless
its ace guards it), a King next, small cards to make a suit void; aces win tricks of their own."""


@njit
def _palatinate_discard(hand):
    """The card a simple-game declarer lays away (``DISCARD_PREFERENCE``, short suits first); never an
    Ober or Unter while another card is left."""
    best = -1
    best_key = -(1 << 30)
    cards = hand & ~OU_MASK
    if cards == _ZERO:
        cards = hand
    while cards != _ZERO:
        card = lowest_bit(cards)
        cards &= cards - _ONE
        suit, rank = card // 8, card % 8
        key = DISCARD_PREFERENCE[rank] - 5 * _suit_count(hand, suit)
        if rank == 1 and (hand >> np.uint64(suit * 8)) & _ONE:
            key = 10 - 5 * _suit_count(hand, suit)  # a ten beside its ace is safe: keep it
        if key > best_key:
            best, best_key = card, key
    return best


@njit
def _palatinate_card(state, legal, scratch, me):
    if popcount(legal) == 1:
        return lowest_bit(legal)
    declarer = state[pk.S_DECLARER]
    for seat in range(4):
        scratch[X_HANDS + seat] = state[pk.S_HAND + seat]
        scratch[X_TEAM + seat] = -1
    for i in range(pk.NUM_ACTIVE):
        seat = state[pk.S_ACTIVE + i]
        scratch[X_TEAM + seat] = 1 if seat == declarer else 0
    size = state[pk.S_TRICK_SIZE]
    for i in range(size):
        scratch[X_TRICK_CARDS + i] = state[pk.S_TRICK_CARDS + i]
    num_rest = pk.NUM_ACTIVE - size - 1
    seat = me
    for i in range(pk.NUM_ACTIVE - 1):
        seat = state[pk.S_NEXT + seat]
        scratch[X_OTHERS + i] = seat
        if i < num_rest:
            scratch[X_REST_SEATS + i] = seat
    tout = state[pk.S_CONTRACT] >= pk.CONTRACT_SOLO_DU
    return _choose_card(state[pk.S_TRUMP], legal, me, size, num_rest, pk.NUM_ACTIVE - 1, tout, scratch)


@njit
def palatinate_heuristic_action(state, rng, epsilon):
    """The action the playout policy takes in ``state`` (for tests and for stepping by hand)."""
    mask = np.zeros(pk.NUM_ACTIONS, dtype=np.int8)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    pk.legal_action_mask(state, mask)
    return _palatinate_decision(state, mask, scratch, rng, epsilon)


@njit
def palatinate_heuristic_playout(state, rng, epsilon):
    """Play the Palatinate hand in ``state`` to its end in place (module docstring)."""
    mask = np.zeros(pk.NUM_ACTIONS, dtype=np.int8)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    _palatinate_playout_with(state, rng, epsilon, mask, scratch)


@njit
def _palatinate_playout_with(state, rng, epsilon, mask, scratch):
    while state[pk.S_TO_ACT] >= 0:
        pk.apply_action(state, _palatinate_step(state, mask, scratch, rng, epsilon))


# ============================================================================ Asserufen


@inline_njit
def _asserufen_step(state, mask, scratch, rng, epsilon):
    """The playout's action: a card straight from the legal card bits (most steps), else from ``mask``."""
    if state[ak.PHASE] == ak.PHASE_PLAY:
        return _asserufen_card_action(state, ak.legal_card_mask(state, state[ak.SEAT_TO_ACT]), scratch, rng, epsilon)
    ak.legal_action_mask(state, mask)
    return _asserufen_decision(state, mask, scratch, rng, epsilon)


@inline_njit
def _asserufen_card_action(state, legal, scratch, rng, epsilon):
    """The card action among the ``legal`` card bits: random with probability ``epsilon``, else heuristic."""
    if epsilon > 0.0 and _uniform01(rng) < epsilon:
        return _random_card_action(legal, ak.ACTION_CARD_FIRST, rng)
    return ak.ACTION_CARD_FIRST + _asserufen_card(state, legal, scratch, state[ak.SEAT_TO_ACT])


@njit
def _asserufen_decision(state, mask, scratch, rng, epsilon):
    phase = state[ak.PHASE]
    seat = state[ak.SEAT_TO_ACT]
    if phase == ak.PHASE_PLAY:
        return _asserufen_card_action(state, _mask_bits(mask, ak.ACTION_CARD_FIRST, 32), scratch, rng, epsilon)
    hand = np.uint64(state[ak.HANDS + seat])
    if phase == ak.PHASE_BIDDING:
        if mask[ak.ACTION_HAENGE_AN] != 0 and _base_game_hand(hand):
            return ak.ACTION_HAENGE_AN
        return ak.ACTION_WEG
    if phase == ak.PHASE_ANSWER:
        has_ace = (hand & ak.NON_TRUMP_ACES_MASK) != _ZERO
        return ak.ACTION_ACCEPT if has_ace else ak.ACTION_REFUSE
    if phase == ak.PHASE_CALL:
        best = -1
        best_key = 1 << 30
        for i in range(ak.NUM_CALL_ACTIONS):
            if mask[ak.ACTION_CALL_FIRST + i] != 0:
                card = ak.CALL_CARDS[i]
                count = _suit_count(hand, card // 8)
                key = count if count > 0 else 50  # a suit held, shortest first
                if key < best_key:
                    best, best_key = ak.ACTION_CALL_FIRST + i, key
        return best
    if phase == ak.PHASE_TRUMP:
        best = -1
        best_key = -1e9
        for i in range(ak.NUM_TRUMP_ACTIONS):
            if mask[ak.ACTION_TRUMP_FIRST + i] != 0:
                key = suit_game_strength(hand, ak.TRUMP_ACTION_SUITS[i])
                if key > best_key:
                    best, best_key = ak.ACTION_TRUMP_FIRST + i, key
        return best
    if phase == ak.PHASE_OFFER or phase == ak.PHASE_ROUND:
        return ak.ACTION_NO_DOUBLE
    return _random_set_index(mask, 0, ak.NUM_ACTIONS, rng)


@njit
def _asserufen_card(state, legal, scratch, me):
    if popcount(legal) == 1:
        return lowest_bit(legal)
    contract = state[ak.CONTRACT]
    declarer = state[ak.DECLARER]
    partner = state[ak.PARTNER] if contract == ak.CONTRACT_ACE_CALL else -1
    for seat in range(4):
        scratch[X_HANDS + seat] = state[ak.HANDS + seat]
        scratch[X_TEAM + seat] = 1 if (seat == declarer or seat == partner) else 0
    trick = state[ak.TRICK_NUMBER]
    size = state[ak.TRICK_COUNT]
    for i in range(size):
        scratch[X_TRICK_CARDS + i] = state[ak.TRICK_CARDS + trick * 4 + i]
    num_rest = 4 - size - 1
    for i in range(num_rest):
        scratch[X_REST_SEATS + i] = (me + 1 + i) % 4
    for i in range(3):
        scratch[X_OTHERS + i] = (me + 1 + i) % 4
    tout = contract == ak.CONTRACT_SOLO_DU or contract == ak.CONTRACT_HEART_SOLO_DU
    return _choose_card(state[ak.TRUMP_KIND], legal, me, size, num_rest, 3, tout, scratch)


@njit
def asserufen_heuristic_action(state, rng, epsilon):
    """The action the playout policy takes in ``state`` (for tests and for stepping by hand)."""
    mask = np.zeros(ak.NUM_ACTIONS, dtype=np.int8)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    ak.legal_action_mask(state, mask)
    return _asserufen_decision(state, mask, scratch, rng, epsilon)


@njit
def asserufen_heuristic_playout(state, rng, epsilon):
    """Play the Asserufen hand in ``state`` to its end in place (module docstring)."""
    mask = np.zeros(ak.NUM_ACTIONS, dtype=np.int8)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    _asserufen_playout_with(state, rng, epsilon, mask, scratch)


@njit
def _asserufen_playout_with(state, rng, epsilon, mask, scratch):
    while state[ak.SEAT_TO_ACT] >= 0:
        ak.apply_action(state, _asserufen_step(state, mask, scratch, rng, epsilon))


HEURISTIC_ACTION = {
    "palatinate": palatinate_heuristic_action,
    "asserufen": asserufen_heuristic_action,
}
HEURISTIC_PLAYOUT = {
    "palatinate": palatinate_heuristic_playout,
    "asserufen": asserufen_heuristic_playout,
}
