"""The compiled kernel against the plain-Python reference on thousands of seeded random hands: seat to act
and legal actions at every step, trick winners, points, the partnership flag and the settlement."""

import random
from collections import Counter

import numpy as np

from schafkopf_env.asserufen import kernel as K
from schafkopf_env.asserufen.reference import AsserufenReference, all_cards
from schafkopf_env.trumps import CARD_POINTS
from trick_core.cards import FRENCH_32
from trick_core.drivers import compiled as compiled_drivers

DRIVERS = compiled_drivers(K)

NAMES = K.ACTION_NAMES
NUM_HANDS = 3000


def biased_deal(rnd: random.Random):
    """Mostly uniform deals; some give forehand all three non-trump aces (ten calls), a few the tens too
    (King calls), so that every calling rule is exercised."""
    dealer = rnd.randrange(4)
    cards = all_cards()
    rnd.shuffle(cards)
    kind = rnd.random()
    forced = []
    if kind < 0.08:
        forced = ["CA", "SA", "DA"]
    elif kind < 0.10:
        forced = ["CA", "SA", "DA", "C10", "S10", "D10"]
    rest = [c for c in cards if c not in forced]
    forehand = (dealer + 1) % 4
    hands = []
    for seat in range(4):
        if seat == forehand:
            hands.append(forced + rest[: 8 - len(forced)])
            rest = rest[8 - len(forced) :]
        else:
            hands.append(rest[:8])
            rest = rest[8:]
    return dealer, hands


def choose(rnd: random.Random, reference: AsserufenReference, legal: list[str]) -> str:
    """A random policy leaning towards the ace-call game and towards leading the called suit, so that
    the called-card rules (and running away) get many hands."""
    phase = reference.phase
    if phase == "bidding":
        weights = [6 if a == "weg" else 5 if a in ("haenge_an", "darf_man") else 0.5 for a in legal]
        return rnd.choices(legal, weights)[0]
    if phase in ("contra_offer", "doubling_round"):
        return "no_double" if rnd.random() < 0.7 else rnd.choice(legal)
    if phase == "play" and not reference.trick and reference.called_card and not reference.called_suit_rules_over:
        called_suit = [c for c in legal if reference.effective_suit(c) == reference.called_card[0]]
        if called_suit and rnd.random() < 0.5:
            return rnd.choice(called_suit)
    return rnd.choice(legal)


COMPARED_CONFIGS = [{"max_doublings": cap} for cap in range(5)]
"""The rule configurations compared, one per seed in turn (``tests/core/test_registered_variants.py`` checks
that every variant of the registry is among them)."""


def play_both(seed: int, stats: Counter) -> None:
    rnd = random.Random(seed)
    dealer, hands = biased_deal(rnd)
    config = COMPARED_CONFIGS[seed % len(COMPARED_CONFIGS)]
    reference = AsserufenReference(dealer, hands, **config)
    state = np.zeros(K.STATE_SIZE, dtype=np.int64)
    deal_cards = np.array([FRENCH_32.parse(c) for hand in hands for c in hand], dtype=np.int64)
    K.init_state(state, K.make_params(**config), dealer, deal_cards)
    mask = np.zeros(K.NUM_ACTIONS, dtype=np.int8)
    K.legal_action_mask(state, mask)
    while True:
        seat = K.current_seat(state)
        expected_seat = None if reference.phase == "over" else reference.to_act
        assert (None if seat < 0 else seat) == expected_seat, seed
        kernel_legal = sorted(NAMES[a] for a in np.flatnonzero(mask))
        reference_legal = sorted(reference.legal_actions())
        assert kernel_legal == reference_legal, (seed, reference.phase)
        if seat < 0:
            break
        action = choose(rnd, reference, reference_legal)
        stats[action if ":" in action and action.startswith("call") else reference.phase] += 1
        reference.apply(action)
        DRIVERS.advance(state, NAMES.index(action), mask)
    out = np.zeros(4)
    K.settlement(state, out)
    assert out.tolist() == reference.settlement(), seed
    tricks = int(state[K.S_TRICK_NUMBER])
    assert state[K.S_TRICK_WINNERS : K.S_TRICK_WINNERS + tricks].tolist() == reference.trick_winners(), seed
    points = [sum(CARD_POINTS[FRENCH_32.parse(c)] for c in taken) for taken in reference.taken]
    assert state[K.S_POINTS : K.S_POINTS + 4].tolist() == points, seed
    assert bool(state[K.S_PARTNER_KNOWN]) == (reference.partnership_known and reference.contract == "ace_call")
    stats[reference.contract or "thrown_in"] += 1
    stats[f"doublings={reference.doublings}"] += 1
    stats["ran_away"] += int(state[K.S_RAN_AWAY])
    stats["lost_du"] += int(reference.lost_du)
    stats["declarer_won"] += int(out[reference.declarer or 0] > 0)


def test_kernel_matches_reference_on_random_hands():
    stats = Counter()
    for seed in range(NUM_HANDS):
        play_both(seed, stats)
    # Every rule path was exercised (the thresholds are far below the observed counts).
    for key, at_least in [
        ("ace_call", 800),
        ("solo", 50),
        ("heart_solo", 50),
        ("solo_du", 50),
        ("heart_solo_du", 50),
        ("thrown_in", 50),
        ("answer", 100),
        ("call:C", 100),
        ("call:S10", 3),
        ("call:CK", 1),
        ("doubling_round", 300),
        ("doublings=3", 5),
        ("ran_away", 3),
        ("lost_du", 50),
        ("declarer_won", 500),
    ]:
        assert stats[key] >= at_least, (key, stats)
