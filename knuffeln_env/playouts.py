"""Heuristic playouts for Knüffeln: compiled, cheap, sensible play to the end of a hand.

The counterpart of ``schafkopf_env.playouts`` (which explains why): ``agents.pimc_heuristic`` scores each
action in a determinized world (every hand known) by playing the rest of the hand with these habits
rather than uniformly at random.

- ``heuristic_playout(state, rng, epsilon)``: play from ``state`` (in place) to the end of the hand, every
  action one of the kernel's legal actions (``legal_action_mask``) applied with ``apply_action``. A card
  play is uniformly random (face up; a face-down lead is never chosen) with probability ``epsilon``,
  otherwise the heuristic below.
- ``heuristic_action(state, rng, epsilon)``: the action the playout policy takes in ``state``.
- ``heuristic_playout_values(state, actions, playouts, rng, epsilon, out)``: the kernel's
  ``playout_values`` with heuristic playouts (summed settlements per candidate action in ``out``).

**Card play.** A card's strength is its attack, then its defence, then its rank in an unchosen suit
(``card_strength``; a chosen 7, unbeatable when led, ranks between the chosen Jack and Ace). Winning is
decided by the kernel's own ``beats``; nobody has to follow suit.

- *Leading*: a chosen 7; else the cheapest *free* card (no opponent holds a card that beats it); else an
  unchosen ace; else the weakest card.
- *Following*: if a partner wins the trick and no opponent still to play can beat it, throw the weakest
  card (never overtake a partner). Otherwise play the cheapest card that beats the provisional winner
  and that no opponent still to play can beat; if there is none, throw the weakest card.

**Other decisions**: talk ``silent``; never turn (drehen); ``accept`` a turn; ``stop`` at a Jann; take a
bottom Ole when entitled; exchange a chosen ten for the strongest turned card of its suit when that card
is stronger; the five-player dealer sits out.
"""

from __future__ import annotations

import numpy as np

from knuffeln_env import kernel as kk
from trick_core.jit import njit

_MAX_ACTIONS = kk.NUM_BASE_ACTIONS + kk.MAX_TOKENS
"""Length of the action mask buffer: the largest action space of any configuration."""
SEVEN_STRENGTH = 5500
"""Strength of a chosen 7: a sure trick when led, worth more than the chosen Jack (attack 5)."""


@njit
def _uniform01(rng):
    return np.float64(kk.rng_next(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit
def card_strength(ranking, chosen, card):
    """How much a card is worth keeping (the heuristic's order; module docstring)."""
    if kk.DEFENCE[chosen, card] >= kk.UNBEATABLE:
        return SEVEN_STRENGTH
    return kk.ATTACK[chosen, card] * 1000 + kk.DEFENCE[chosen, card] * 10 + kk.SUIT_RANK[ranking, chosen, card]


@njit
def _weakest(ranking, chosen, cards):
    best = -1
    best_strength = 1 << 30
    while cards != 0:
        card = kk.lowest_bit(cards)
        cards &= cards - 1
        strength = card_strength(ranking, chosen, card)
        if strength < best_strength:
            best, best_strength = card, strength
    return best


@njit
def _hand_beats(ranking, chosen, hand, winner):
    """Whether any card of ``hand`` would take the trick from ``winner``."""
    while hand != 0:
        card = kk.lowest_bit(hand)
        hand &= hand - 1
        if kk.beats(ranking, chosen, card, winner):
            return True
    return False


@njit
def _opponents_after_beat(state, me, num_after, ranking, chosen, winner):
    """Whether an opponent of ``me`` among the next ``num_after`` players could beat ``winner``."""
    seat = me
    team = state[kk.S_TEAM + me]
    for _ in range(num_after):
        seat = state[kk.S_NEXT + seat]
        if state[kk.S_TEAM + seat] != team and _hand_beats(ranking, chosen, state[kk.S_HAND + seat], winner):
            return True
    return False


@njit
def choose_card(state, me, cards):
    """The heuristic face-up card of ``me`` among ``cards`` (a non-empty mask of its legal plays)."""
    ranking = kk.RANKING_OF_VARIANT[state[kk.S_VARIANT]]
    chosen = state[kk.S_CHOSEN]
    count = state[kk.S_TRICK_COUNT]
    num_after = state[kk.S_NUM_ACTIVE] - count - 1
    if count == 0:
        return _lead(state, me, cards, ranking, chosen, num_after)
    position = 0
    for i in range(1, count):
        if kk.beats(ranking, chosen, state[kk.S_TRICK_CARD + i], state[kk.S_TRICK_CARD + position]):
            position = i
    winner = state[kk.S_TRICK_CARD + position]
    partner_wins = state[kk.S_TEAM + state[kk.S_TRICK_SEAT + position]] == state[kk.S_TEAM + me]
    if partner_wins and not _opponents_after_beat(state, me, num_after, ranking, chosen, winner):
        return _weakest(ranking, chosen, cards)
    best = -1
    best_strength = 1 << 30
    rest = cards
    while rest != 0:
        card = kk.lowest_bit(rest)
        rest &= rest - 1
        if kk.beats(ranking, chosen, card, winner):
            strength = card_strength(ranking, chosen, card)
            if strength < best_strength and not _opponents_after_beat(state, me, num_after, ranking, chosen, card):
                best, best_strength = card, strength
    if best >= 0:
        return best
    return _weakest(ranking, chosen, cards)


@njit
def _lead(state, me, cards, ranking, chosen, num_after):
    rest = cards
    while rest != 0:
        card = kk.lowest_bit(rest)
        rest &= rest - 1
        if kk.DEFENCE[chosen, card] >= kk.UNBEATABLE:
            return card
    free = -1
    free_strength = 1 << 30
    ace = -1
    rest = cards
    while rest != 0:
        card = kk.lowest_bit(rest)
        rest &= rest - 1
        strength = card_strength(ranking, chosen, card)
        if strength < free_strength and not _opponents_after_beat(state, me, num_after, ranking, chosen, card):
            free, free_strength = card, strength
        if card % kk.NUM_RANKS == kk.RANK_A and not (chosen >> (card // kk.NUM_RANKS)) & 1 and ace < 0:
            ace = card
    if free >= 0:
        return free
    if ace >= 0:
        return ace
    return _weakest(ranking, chosen, cards)


@njit
def _mask_range(mask, start, count):
    """The entries ``mask[start:start + count]`` (count <= 63) as bits of an int64."""
    bits = np.int64(0)
    for i in range(count):
        if mask[start + i] != 0:
            bits |= np.int64(1) << np.int64(i)
    return bits


@njit
def _random_card(mask, rng):
    cards = _mask_range(mask, kk.ACTION_PLAY, kk.NUM_CARDS)
    return kk.nth_bit(cards, kk.rng_below(rng, kk.popcount(cards)))


@njit
def _decision(state, mask, rng, epsilon):
    phase = state[kk.S_PHASE]
    seat = state[kk.S_CURRENT]
    if phase == kk.PHASE_PLAY:
        if mask[kk.ACTION_STOP] != 0:
            return kk.ACTION_STOP
        if epsilon > 0.0 and _uniform01(rng) < epsilon:
            return kk.ACTION_PLAY + _random_card(mask, rng)
        return kk.ACTION_PLAY + choose_card(state, seat, _mask_range(mask, kk.ACTION_PLAY, kk.NUM_CARDS))
    if phase == kk.PHASE_TALK:
        return kk.ACTION_SILENT
    if phase == kk.PHASE_ANSWER:
        return kk.ACTION_ACCEPT
    if phase == kk.PHASE_OLE_EXCHANGE:
        return kk.ACTION_TAKE_OLE if mask[kk.ACTION_TAKE_OLE] != 0 else kk.ACTION_DECLINE
    if phase == kk.PHASE_TEN_EXCHANGE:
        return _ten_exchange(state, mask)
    if phase == kk.PHASE_DEALER_CHOICE:
        return kk.ACTION_SIT_OUT
    for action in range(mask.shape[0]):  # not reached with the kernel's phases: any legal action
        if mask[action] != 0:
            return action
    return -1


@njit
def _ten_exchange(state, mask):
    """The strongest turned card on offer if it is stronger than the ten given for it, else decline."""
    ranking = kk.RANKING_OF_VARIANT[state[kk.S_VARIANT]]
    chosen = state[kk.S_CHOSEN]
    best = kk.ACTION_DECLINE
    best_gain = 0
    for card in range(kk.NUM_CARDS):
        if mask[kk.ACTION_EXCHANGE + card] != 0:
            ten = (card // kk.NUM_RANKS) * kk.NUM_RANKS + kk.RANK_EXCHANGE
            gain = card_strength(ranking, chosen, card) - card_strength(ranking, chosen, ten)
            if gain > best_gain:
                best, best_gain = kk.ACTION_EXCHANGE + card, gain
    return best


@njit
def heuristic_action(state, rng, epsilon):
    """The action the playout policy takes in ``state`` (for tests and for stepping by hand)."""
    mask = np.zeros(_MAX_ACTIONS, dtype=np.int8)
    kk.legal_action_mask(state, mask)
    return _decision(state, mask, rng, epsilon)


@njit
def heuristic_playout(state, rng, epsilon):
    """Play the Knüffeln hand in ``state`` to its end in place (module docstring)."""
    mask = np.zeros(_MAX_ACTIONS, dtype=np.int8)
    _playout_with(state, rng, epsilon, mask)


@njit
def _playout_with(state, rng, epsilon, mask):
    while state[kk.S_CURRENT] >= 0:
        kk.legal_action_mask(state, mask)
        kk.apply_action(state, _decision(state, mask, rng, epsilon))


@njit
def heuristic_playout_values(state, actions, playouts, rng, epsilon, out):
    """``knuffeln_env.kernel.playout_values`` with heuristic instead of random playouts."""
    work = np.empty_like(state)
    mask = np.zeros(_MAX_ACTIONS, dtype=np.int8)
    seats = state[kk.S_PLAYERS]
    units = np.zeros(seats, dtype=np.float64)
    for i in range(actions.shape[0]):
        for _ in range(playouts):
            for k in range(state.shape[0]):
                work[k] = state[k]
            kk.apply_action(work, actions[i])
            _playout_with(work, rng, epsilon, mask)
            kk.settlement(work, units)
            for s in range(seats):
                out[i, s] += units[s]

