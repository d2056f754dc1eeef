"""Random whole hands through the plain-Python references (each game's ``reference.py``), the baseline that the
compiled kernels are compared with.

Each game's reference has its own small API (it is written to read like the rules, not to be fast); one
adapter per game below (the ``reference_player`` its spec names) deals a random hand with
``random.Random``, plays uniformly random legal actions (the reference's ``legal_actions()``) to the end and
takes the settlement — the same work the compiled ``play_random_hands`` does.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from trick_core.game_spec import imported
from trick_core.registry import game_spec

from .timing import measure_rate


def play_bavarian(rng: random.Random, config: dict) -> list:
    from schafkopf_env.bavarian import reference as ref

    pack = list(ref.PACK)
    rng.shuffle(pack)
    game = ref.BavarianGame(dealer=rng.randrange(4), hands=[pack[8 * s : 8 * s + 8] for s in range(4)])
    while not game.is_over():
        game.play(rng.choice(game.legal_actions()))
    return game.settlement()


def play_palatinate(rng: random.Random, config: dict) -> list:
    from schafkopf_env.palatinate import reference as ref

    players = config.get("players", 3)
    pack = list(ref.ALL_CARDS)
    rng.shuffle(pack)
    dealer = rng.randrange(players)
    active = [(dealer + step) % players for step in range(1, players + 1)]
    active = [seat for seat in active if not (players == 4 and seat == dealer)]
    hands = {seat: pack[10 * i : 10 * i + 10] for i, seat in enumerate(sorted(active))}
    hand = ref.ReferenceHand(dealer=dealer, hands=hands, skat=pack[30:32], **config)
    while hand.to_act is not None:
        hand.act(rng.choice(hand.legal_actions()))
    return hand.settlement()


def play_asserufen(rng: random.Random, config: dict) -> list:
    from schafkopf_env.asserufen import reference as ref

    pack = ref.all_cards()
    rng.shuffle(pack)
    hand = ref.AsserufenReference(rng.randrange(4), [pack[8 * s : 8 * s + 8] for s in range(4)], **config)
    while hand.phase != "over":
        hand.apply(rng.choice(hand.legal_actions()))
    return hand.settlement()


def play_knuffeln(rng: random.Random, config: dict) -> list:
    from knuffeln_env.knuffeln import reference as ref

    variant = config.get("variant", "bohmstedt")
    players = config.get("players", 4)
    ranks = ref.RANKS_WITH_FIVES if variant == "bernhard1924" else ref.RANKS_WITH_TENS
    pack = [suit + rank for suit in ref.SUITS for rank in ranks]
    hand = ref.ReferenceHand(**config)
    dealer = rng.randrange(players)
    receivers = [seat for seat in range(players) if not (players == 5 and seat == dealer)]
    while True:
        rng.shuffle(pack)
        try:
            hand.start(dealer, {seat: pack[9 * i : 9 * i + 9] for i, seat in enumerate(receivers)}, pack[36:])
            break
        except ref.RedealNeeded:  # four stock cards of one suit turned: the same dealer deals again
            continue
    while not hand.over:
        hand.apply(rng.choice(hand.legal_actions()))
    return hand.settlement


def reference_player(game: str) -> Callable[[random.Random, dict], list]:
    """``play(rng, config) -> settlement`` of ``game``: one random hand through its reference, the function
    its spec names (``reference_player``)."""
    return imported(game_spec(game).reference_player)


def reference_hands_per_second(game: str, min_seconds: float, config: dict | None = None) -> dict:
    """Random whole hands per second through ``game``'s plain-Python reference (one thread)."""
    play = reference_player(game)
    config = dict(config or {})
    rng = random.Random(0)

    def run(count: int) -> None:
        for _ in range(count):
            play(rng, config)

    return measure_rate(run, min_seconds, start=4)
