"""Helpers of the Knüffeln tests: the configurations tested, fixed deals from a few named cards, scripted play,
random play."""

from __future__ import annotations

from knuffeln_env import knuffeln_v0
from knuffeln_env.knuffeln.reference import ReferenceHand
from trick_core.cards import KNUFFELN_48, KNUFFELN_48_FIVES

RULE_CONFIGS = [
    {}, {"variant": "hattstedt"}, {"variant": "bernhard1924"}, {"variant": "gruenberg1938"}, {"players": 5},
    {"talk": "lexicon"}, {"players": 5, "talk": "lexicon"},
]
"""Every rule variant, five players and the lexicon talk: the configurations that both the env tests and the
kernel-against-reference test run (each adds its own)."""


def config_id(config: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in config.items()) or "default"


def build_deal(hands: dict[int, list[str]], stock_top: list[str], stock_bottom: list[str] = (), *,
               dealer: int = 3, players: int = 4, fives: bool = False, filler_order: list[str] | None = None):
    """A complete deal (reset options): the named cards where given, every other card filling the hands
    (seat order) and then the middle of the stock. ``stock_top`` is turned first; ``stock_bottom`` ends
    with the bottom card."""
    deck = KNUFFELN_48_FIVES if fives else KNUFFELN_48
    named = [c for cards in hands.values() for c in cards] + list(stock_top) + list(stock_bottom)
    assert len(named) == len(set(named)), "a card is named twice"
    rest = [c for c in (filler_order or deck.names_of(deck.full_mask)) if c not in named]
    seats = [s for s in range(players) if players == 4 or s != dealer]
    full_hands = {}
    for seat in seats:
        cards = list(hands.get(seat, []))
        while len(cards) < 9:
            cards.append(rest.pop(0))
        full_hands[f"player_{seat}"] = cards
    middle = 12 - len(stock_top) - len(stock_bottom)
    stock = list(stock_top) + rest[:middle] + list(stock_bottom)
    assert len(rest) == middle, (len(rest), middle)
    return {"dealer": dealer, "hands": full_hands, "stock": stock}


def make_env(deal=None, **config):
    env = knuffeln_v0.env(**config)
    env.reset(options=deal) if deal is not None else env.reset(seed=0)
    return env


def act(env, *actions: str) -> None:
    """Step each action string (raises on an illegal one)."""
    for action in actions:
        env.step(env.unwrapped.string_to_action(action))


def act_as(env, agent: str, action: str) -> None:
    assert env.agent_selection == agent, f"expected {agent} to act, it is {env.agent_selection}"
    act(env, action)


def phase(env) -> str:
    return env.unwrapped.state()["phase"]


def decline_exchanges(env) -> None:
    """Decline every ten and Ole exchange offer until the play begins."""
    while phase(env) in ("ten_exchange", "ole_exchange"):
        act(env, "decline")


def legal(env) -> list[str]:
    return env.unwrapped.legal_action_strings()


def reference_replay(env) -> ReferenceHand:
    """The plain-Python reference taken through the env's hand so far: the same deal, the same actions."""
    st = env.unwrapped.state()
    config = st["config"]
    ref = ReferenceHand(variant=config["variant"], players=config["players"], talk=config["talk"])
    ref.start(st["dealer"], {int(p.split("_")[1]): cards for p, cards in st["dealt_hands"].items()}, st["stock_order"])
    for _, action in st["history"]:
        ref.apply(action)
    return ref


def settlement(env) -> list[float]:
    return env.unwrapped.state()["result"]["settlement"]


def biased_action(legal_strings: list[str], rng) -> str:
    """A random action that lets hands run long: turns seldom, mostly accepted, exchanges mostly made."""
    if "accept" in legal_strings:
        return "accept" if rng.random() < 0.85 else "flee"
    if "stop" in legal_strings and rng.random() < 0.5:
        return "stop"
    if "take_ole" in legal_strings and rng.random() < 0.8:
        return "take_ole"
    exchanges = [a for a in legal_strings if a.startswith("exchange:")]
    if exchanges and rng.random() < 0.8:
        return exchanges[int(rng.integers(len(exchanges)))]
    turns = [a for a in legal_strings if a.startswith("turn:")]
    if turns and rng.random() < 0.15:
        return turns[int(rng.integers(len(turns)))]
    rest = [a for a in legal_strings if not a.startswith("turn:") and a != "stop"] or legal_strings
    return rest[int(rng.integers(len(rest)))]


def obs_offset(block: str, obs_type: int = 0, **config) -> int:
    """Start of an observation block (by its name in ``kernel.observation_layout``)."""
    from knuffeln_env.knuffeln import kernel

    config = {k: v for k, v in config.items() if k in ("variant", "players", "talk")}
    offset = 0
    for name, size in kernel.observation_layout(kernel.make_params(**config), obs_type):
        if name == block:
            return offset
        offset += size
    raise KeyError(block)


def is_card_action(env, action: str) -> bool:
    return env.unwrapped.deck.is_card(action)
