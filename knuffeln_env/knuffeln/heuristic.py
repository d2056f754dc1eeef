"""The playout policy of Knüffeln: compiled, cheap, sensible play to the end of a hand, for the ``pimc``
agent's playouts (``trick_core.drivers.compiled_search``).

``agents.search.pimc`` scores each action in a determinized world (every hand known) by playing the rest
of the hand with these habits rather than uniformly at random: random playouts make a poor model of the
other players exactly where a hand's value is decided.

- ``choose_action(state, mask, scratch, rng, epsilon)``: the policy protocol of ``trick_core.drivers``
  (``policy_playout`` plays a hand to its end with it). A card play is uniformly random (face up; a
  face-down lead is never chosen) with probability ``epsilon``, otherwise the heuristic below.
- ``heuristic_action(state, rng, epsilon)``: the action the policy takes in ``state``.

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

from trick_core.bits import lowest_bit, random_bit, uniform01
from trick_core.jit import inline_njit, njit

from . import kernel as kk

SEVEN_STRENGTH = 5500
"""Strength of a chosen 7: a sure trick when led, worth more than the chosen Jack (attack 5)."""


@njit
def card_strength(ranking, chosen, card):
    """How much a card is worth keeping (the heuristic's order; module docstring)."""
    if kk.DEFENCE[chosen, card] >= kk.UNBEATABLE:
        return SEVEN_STRENGTH
    return kk.ATTACK[chosen, card] * 1000 + kk.DEFENCE[chosen, card] * 10 + kk.SUIT_RANK[ranking, chosen, card]


@njit
def _build_tables():
    """Per (ranking, chosen suits, card): ``card_strength`` and the bit mask of the cards that beat the card
    (``kk.beats``); per chosen suits: the unbeatable (led chosen 7) cards and the unchosen aces. Playouts then
    ask "can this hand beat that card?" with one AND instead of a loop of ``kk.beats`` calls."""
    strength = np.zeros((kk.NUM_RANKINGS, kk.NUM_CHOSEN_SETS, kk.NUM_CARDS), dtype=np.int64)
    beaten_by = np.zeros((kk.NUM_RANKINGS, kk.NUM_CHOSEN_SETS, kk.NUM_CARDS), dtype=np.int64)
    unbeatable = np.zeros(kk.NUM_CHOSEN_SETS, dtype=np.int64)
    unchosen_aces = np.zeros(kk.NUM_CHOSEN_SETS, dtype=np.int64)
    for chosen in range(kk.NUM_CHOSEN_SETS):
        for card in range(kk.NUM_CARDS):
            bit = np.int64(1) << np.int64(card)
            if kk.DEFENCE[chosen, card] >= kk.UNBEATABLE:
                unbeatable[chosen] |= bit
            if card % kk.NUM_RANKS == kk.RANK_A and not (chosen >> (card // kk.NUM_RANKS)) & 1:
                unchosen_aces[chosen] |= bit
        for ranking in range(kk.NUM_RANKINGS):
            for winner in range(kk.NUM_CARDS):
                strength[ranking, chosen, winner] = card_strength(ranking, chosen, winner)
                for challenger in range(kk.NUM_CARDS):
                    if kk.beats(ranking, chosen, challenger, winner):
                        beaten_by[ranking, chosen, winner] |= np.int64(1) << np.int64(challenger)
    return strength, beaten_by, unbeatable, unchosen_aces


STRENGTH, BEATEN_BY, UNBEATABLE_CARDS, UNCHOSEN_ACES = _build_tables()
"""``STRENGTH[ranking, chosen, card]`` = ``card_strength``; ``BEATEN_BY[ranking, chosen, card]``: mask of the
cards that beat ``card`` (``kk.beats``); ``UNBEATABLE_CARDS[chosen]``, ``UNCHOSEN_ACES[chosen]``: card masks."""


@njit
def _cheapest_safe(strengths, beaten_by, cards, opponents):
    """The lowest-strength card of ``cards`` (the lowest index among equals) that no card in ``opponents``
    beats (-1 if none); ``strengths`` and ``beaten_by`` are ``STRENGTH[ranking, chosen]`` and
    ``BEATEN_BY[ranking, chosen]`` rows."""
    best = -1
    best_strength = 1 << 30
    while cards != 0:
        card = lowest_bit(cards)
        cards &= cards - 1
        strength = strengths[card]
        if strength < best_strength and beaten_by[card] & opponents == 0:
            best, best_strength = card, strength
    return best


@inline_njit
def _weakest(strengths, beaten_by, cards):
    """The lowest-strength card of ``cards``: ``_cheapest_safe`` with no opponent card to fear."""
    return _cheapest_safe(strengths, beaten_by, cards, 0)


@njit
def _opponent_cards_after(state, me, num_after):
    """The cards held by the opponents of ``me`` among the next ``num_after`` players: whether one of them
    can beat a card is then one AND with ``BEATEN_BY``."""
    seat = me
    team = state[kk.S_TEAM + me]
    cards = np.int64(0)
    for _ in range(num_after):
        seat = state[kk.S_NEXT + seat]
        if state[kk.S_TEAM + seat] != team:
            cards |= state[kk.S_HANDS + seat]
    return cards


@njit
def choose_card(state, me, cards):
    """The heuristic face-up card of ``me`` among ``cards`` (a non-empty mask of its legal plays)."""
    if cards & (cards - 1) == 0:  # one card: nothing to choose (the last trick, for everyone)
        return lowest_bit(cards)
    ranking = kk.RANKING_OF_VARIANT[state[kk.S_VARIANT]]
    chosen = state[kk.S_CHOSEN]
    count = state[kk.S_TRICK_SIZE]
    strengths = STRENGTH[ranking, chosen]
    beaten_by = BEATEN_BY[ranking, chosen]
    opponents = _opponent_cards_after(state, me, state[kk.S_NUM_ACTIVE] - count - 1)
    if count == 0:
        return _lead(cards, chosen, strengths, beaten_by, opponents)
    position = 0
    winner = state[kk.S_TRICK_CARD]
    for i in range(1, count):
        card = state[kk.S_TRICK_CARD + i]
        if (beaten_by[winner] >> card) & 1:
            position, winner = i, card
    partner_wins = state[kk.S_TEAM + state[kk.S_TRICK_SEAT + position]] == state[kk.S_TEAM + me]
    if partner_wins and beaten_by[winner] & opponents == 0:
        return _weakest(strengths, beaten_by, cards)
    best = _cheapest_safe(strengths, beaten_by, cards & beaten_by[winner], opponents)
    if best >= 0:
        return best
    return _weakest(strengths, beaten_by, cards)


@njit
def _lead(cards, chosen, strengths, beaten_by, opponents):
    sevens = cards & UNBEATABLE_CARDS[chosen]
    if sevens != 0:
        return lowest_bit(sevens)
    free = _cheapest_safe(strengths, beaten_by, cards, opponents)
    if free >= 0:
        return free
    aces = cards & UNCHOSEN_ACES[chosen]
    if aces != 0:
        return lowest_bit(aces)
    return _weakest(strengths, beaten_by, cards)


@njit
def _decision(state, rng, epsilon):
    """The policy's action, from the kernel's legal-action sets (``kk.legal_sets``)."""
    play, turn, exchange, show, misc, tokens = kk.legal_sets(state)
    phase = state[kk.S_PHASE]
    if phase == kk.PHASE_PLAY:
        if (misc >> (kk.ACTION_STOP - kk.ACTION_MISC)) & 1:
            return kk.ACTION_STOP
        if epsilon > 0.0 and uniform01(rng) < epsilon:
            return kk.ACTION_PLAY + random_bit(rng, play)
        return kk.ACTION_PLAY + choose_card(state, state[kk.S_SEAT_TO_ACT], play)
    if phase == kk.PHASE_TALK:
        return kk.ACTION_SILENT
    if phase == kk.PHASE_ANSWER:
        return kk.ACTION_ACCEPT
    if phase == kk.PHASE_OLE_EXCHANGE:
        if (misc >> (kk.ACTION_TAKE_OLE - kk.ACTION_MISC)) & 1:
            return kk.ACTION_TAKE_OLE
        return kk.ACTION_DECLINE
    if phase == kk.PHASE_TEN_EXCHANGE:
        return _ten_exchange(state, exchange)
    if phase == kk.PHASE_DEALER_CHOICE:
        return kk.ACTION_SIT_OUT
    return _first_legal(play, turn, exchange, show, misc, tokens)  # not reached with the kernel's phases


@njit
def _first_legal(play, turn, exchange, show, misc, tokens):
    """The lowest-numbered legal action (-1 when there is none)."""
    for base, cards in ((kk.ACTION_PLAY, play), (kk.ACTION_TURN, turn), (kk.ACTION_EXCHANGE, exchange),
                        (kk.ACTION_SHOW, show), (kk.ACTION_MISC, misc)):
        if cards != 0:
            return base + lowest_bit(cards)
    return kk.ACTION_TOKEN if tokens > 0 else -1


@njit
def _ten_exchange(state, exchange):
    """The strongest turned card on offer (``exchange``, a card mask) if it is stronger than the ten given
    for it, else decline."""
    strengths = STRENGTH[kk.RANKING_OF_VARIANT[state[kk.S_VARIANT]], state[kk.S_CHOSEN]]
    best = kk.ACTION_DECLINE
    best_gain = 0
    while exchange != 0:
        card = lowest_bit(exchange)
        exchange &= exchange - 1
        ten = (card // kk.NUM_RANKS) * kk.NUM_RANKS + kk.RANK_EXCHANGE
        gain = strengths[card] - strengths[ten]
        if gain > best_gain:
            best, best_gain = kk.ACTION_EXCHANGE + card, gain
    return best


@njit
def heuristic_action(state, rng, epsilon):
    """The action the playout policy takes in ``state`` (for tests and for stepping by hand)."""
    return _decision(state, rng, epsilon)


SCRATCH_SIZE = 0
"""The policy protocol of ``trick_core.drivers``: this policy needs no scratch array."""


@inline_njit
def choose_action(state, mask, scratch, rng, epsilon):
    """The playout's action (``trick_core.drivers.policy_playout`` plays a hand to its end with it)."""
    return _decision(state, rng, epsilon)
