"""Helpers of the ``play`` tests: which cards a seat must not be shown, and how to find cards in JSON.

``forbidden_cards`` is written from the rules and each env's documentation, independently of
``play.views`` (which builds what is shown): a view passes only if nothing in it names a card of this set.
"""

from __future__ import annotations

import json
import re

import numpy as np

from play.catalog import game_info

OLE_BLOCK_PREFIXES = ("stock_shown_to_all", "stock_known")
"""The Knüffeln observation blocks (``knuffeln_env.knuffeln.kernel.observation_layout``) of the stock cards a
seat has been shown: the only stock cards it may see."""


def forbidden_cards(env, seat: str) -> set[str]:
    """Cards whose identity ``seat`` may not learn at this moment of the hand."""
    base = env.unwrapped
    st = base.state()
    others = [agent for agent in base.possible_agents if agent != seat]
    hidden = {card for agent in others for card in st["hands"][agent]}
    game = base.game_name
    if game == "palatinate":
        took_skat = st["bids_round_two"].get(seat) == "simple"
        if not took_skat:  # the skat's cards stay hidden unless the declarer plays them face up
            played = {card for trick in st["tricks"] for _, card in trick["cards"]} | {card for _, card in st["trick"]}
            hidden |= (set(st["skat"]) | set(st["discards"])) - played
    elif game == "knuffeln":
        hidden -= publicly_received(st) | shown_by_teammates(st, seat)
        hidden |= set(st["stock"]) - stock_cards_seen(env, seat)
        if st["trick_face_down"] and st["trick"] and st["trick"][0][0] != seat:
            # A card led face down is hidden, unless everyone saw it taken in an exchange before.
            hidden.add(st["face_down_card"])
            hidden -= publicly_received(st)
    else:  # a game whose whole pack is dealt into the hands: nothing else can be hidden
        dealt = {card for hand in st["dealt_hands"].values() for card in hand}
        in_play = pack_card_names(env)
        assert dealt == in_play, (
            f"{game} deals cards outside the hands ({sorted(in_play - dealt)[:4]}...): forbidden_cards "
            "needs a branch that hides them, or the no-leak tests check less than they claim")
    if game == "bavarian":  # Klopfen: a seat has seen only the first half of its hand (its observation's hand)
        observed = env.observe(seat)["observation"][:32]
        hidden |= set(st["hands"][seat]) - {base.action_to_string(card) for card in np.flatnonzero(observed)}
    return hidden


def pack_card_names(env) -> set[str]:
    """The cards the hand is played with: the env's ``pack_cards`` where its options leave cards out (Bavarian
    ``pack="short"``: no 8s or 7s; everybody knows those are out), else every card name."""
    base = env.unwrapped
    pack = getattr(base, "pack_cards", None)
    return all_card_names(env) if pack is None else {base.deck.name_of(int(card)) for card in pack}


def publicly_received(st: dict) -> set[str]:
    """Knüffeln: cards taken by a public exchange (a turned card for a ten, an Ole), as everyone saw."""
    return {exchange["took"] for exchange in st["exchanges"]}


def shown_by_teammates(st: dict, seat: str) -> set[str]:
    """Knüffeln talk: cards half-shown by the seat's teammates reach it (rules section 7)."""
    team = st["teams"][seat]
    return {utterance[5:] for shower, utterance in st["talk"]
            if utterance.startswith("show:") and team is not None and st["teams"][shower] == team}


def stock_cards_seen(env, seat: str) -> set[str]:
    """Knüffeln: the stock cards ``seat``'s own observation marks as shown to it (bottom Oles, what the
    dealer looked at), located with the kernel's own observation layout."""
    from knuffeln_env.knuffeln import kernel

    config = env.unwrapped.config
    params = kernel.make_params(config["variant"], config["players"], config["talk"])
    observation = env.unwrapped.observe(seat)["observation"]
    names = [env.unwrapped.action_to_string(card) for card in range(kernel.NUM_CARDS)]
    seen, offset = set(), 0
    for name, size in kernel.observation_layout(params, 0):
        if name.startswith(OLE_BLOCK_PREFIXES):
            seen |= {names[int(i)] for i in np.flatnonzero(observation[offset:offset + size])}
        offset += size
    return seen


def card_tokens(value, card_names: set[str]) -> set[str]:
    """Every card name written anywhere in a JSON value (a whole string, or a word inside one such as
    ``"discard:EO"`` or ``"gave C10 for C4"``). Scanning names cannot tell a card's context, so a card
    that is public somewhere (a turned card, say) is never in ``forbidden_cards``; that a view gives such a
    card no hidden context is what the resampling test of ``tests/play/test_views.py`` checks."""
    text = value if isinstance(value, str) else json.dumps(value)
    return set(re.findall(r"[A-Za-z0-9]+", text)) & card_names


def all_card_names(env) -> set[str]:
    base = env.unwrapped
    return {base.action_to_string(a) for a in range(base.num_actions)
            if base.deck is not None and base.deck.is_card(base.action_to_string(a))}


def play_random_hand(env, seed: int, visit=None) -> None:
    """Play ``env``'s hand to its end with uniformly random legal actions, calling ``visit(env)`` first
    at every decision and once at the end."""
    rng = np.random.default_rng(seed)
    while env.unwrapped.state()["current_player"] is not None:
        if visit is not None:
            visit(env)
        env.step(int(rng.choice(env.unwrapped.legal_actions())))
    if visit is not None:
        visit(env)


class BrokenAgent:
    """A plug-in bot that raises on every decision (the table must carry on without it)."""

    name = "broken"

    def __init__(self, game: str, **_kwargs) -> None:
        self.game = game

    def act(self, env, agent):
        raise RuntimeError("this bot is broken on purpose")


class IllegalAgent:
    """A plug-in bot that answers an action index that is never legal."""

    name = "illegal"

    def __init__(self, game: str, **_kwargs) -> None:
        self.game = game

    def act(self, env, agent):
        return 10**6


# ---------------------------------------------------------------------------------------------- hand order

PLAIN_RANKS = ("A", "10", "K", "9", "8", "7")
"""A Schafkopf plain suit from the top (Bavarian and Palatinate rules, section on play)."""
SCHAFKOPF_SUITS = {"bavarian_schafkopf.md": "EGHS", "palatinate_schafkopf.md": "CSHD"}
"""The suits of a Schafkopf pack in sorting order, by the rules page a game plays (its ``GameInfo.rules_file``:
a game playing another's rules sorts its hands as that one does)."""
OLES = ("H2", "C4", "S8", "H9", "D9")
CHOSEN_RANKS = ("A", "J", "6", "2", "3", "4", "7", "9", "8", "K", "Q", "10", "5")
UNCHOSEN_RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")


def expected_hand_order(game: str, st: dict) -> list[str]:
    """Every card of the pack in the order a hand is sorted once the contract is known, written from
    ``docs/rules`` (not from ``play.views``): the trumps from the highest, then each other suit from the top.

    Bavarian: Obers then Unters (``E G H S``), then the trump suit (hearts in a Sauspiel); a Wenz: the Unters,
    the Obers back in their suits. Palatinate and Asserufen: Queens then Jacks (``C S H D``), then the trump
    suit. Knüffeln: the Oles, then the two chosen suits (beaters, 7, 9, 8, the rest), then the unchosen suits.
    Before the trump suit is known: the permanent trumps first (Bavarian: none before a contract). The rules
    are those of the page the game plays (``GameInfo.rules_file``)."""
    page = game_info(game).rules_file
    bavarian = page == "bavarian_schafkopf.md"
    if page == "knuffeln.md":
        chosen = list(st["chosen_suits"])
        others = [suit for suit in "CSHD" if suit not in chosen]
        rest = [suit + rank for suit in chosen for rank in CHOSEN_RANKS]
        rest += [suit + rank for suit in others for rank in UNCHOSEN_RANKS]
        return list(OLES) + [card for card in rest if card not in OLES]
    suits = SCHAFKOPF_SUITS[page]
    upper, lower = ("O", "U") if bavarian else ("Q", "J")
    contract, trump = st["contract"], st["trump"]
    if bavarian and contract in ("wenz", "wenz_tout"):
        trumps = [suit + "U" for suit in suits]
        plain = ("A", "10", "K", "O", "9", "8", "7")
    elif bavarian and contract is None:
        trumps, plain = [], ("A", "10", "K", "O", "U", "9", "8", "7")
    else:
        trump = "H" if bavarian and contract in ("rufer", "sie") else trump
        trumps = [suit + upper for suit in suits] + [suit + lower for suit in suits]
        trumps += [trump + rank for rank in PLAIN_RANKS] if trump else []
        plain = PLAIN_RANKS
    return trumps + [suit + rank for suit in suits for rank in plain if suit + rank not in trumps]


def hand_sorted(game: str, st: dict, cards: list[str]) -> bool:
    order = expected_hand_order(game, st)
    return [card for card in order if card in cards] == list(cards)
