"""Every game of openschafkopf's rules tests (``tests/data/bavarian_openschafkopf_games.json``: the real games
played on sauspiel.de and openschafkopf's few constructed ones) replayed through ``bavarian_v0`` under the
options that express it, each card checked legal and the rewards checked equal to the recorded payout.

The data are checked first, on their own (no env): each deal is a legal deal of its pack, each trick is led by
the previous trick's winner (an independent trick-taking rule written below), the payouts balance against the
stock, and the 127 games of ``bavarian_sauspiel_games.json`` are among them with the same cards and a payout
that is their settlement under that game's tariff.

A game becomes options of ``bavarian_v0.env``: ``tariff`` a mapping with that game's parameters for its contract
family only, and, only where the game needs them, ``doubling`` (it has Stoß), ``klopfen`` (it has doublings),
``ramsch``, ``bettel``, ``geier``, ``farbwenz``, ``pack="short"``. A game whose options the env refuses (a
``ValueError`` naming one of them) or whose bid it does not know is skipped, the refusal in the reason; a game
that needs what no option of the pinned interface gives (openschafkopf's stock, Bettel with Stichzwang) is
skipped as not expressible. The actions are driven, not scripted, so that the test does not depend on the order
in which the env asks (``drive``): the minimal sequence that produces the recorded contract and doublings.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from schafkopf_env import bavarian_v0
from schafkopf_env.bavarian import reference

DATA = Path(__file__).parent.parent / "data"
SOURCE = json.loads((DATA / "bavarian_openschafkopf_games.json").read_text())
GAMES = SOURCE["games"]
CONFORMANCE_GAMES = json.loads((DATA / "bavarian_sauspiel_games.json").read_text())
DEALER = 3  # seat 0 is forehand in the data, as openschafkopf's EPI0
SEATS = 4

SUITS = "EGHS"
PLAIN_ORDER = ("A", "10", "K", "O", "U", "9", "8", "7")
BETTEL_ORDER = ("A", "K", "O", "U", "10", "9", "8", "7")
TRUMP_RANKS = {"rufspiel": ("O", "U"), "ramsch": ("O", "U"), "solo": ("O", "U"), "wenz": ("U",),
               "farbwenz": ("U",), "geier": ("O",), "farbgeier": ("O",), "bettel": ()}
PACKS = {"long": PLAIN_ORDER, "short": PLAIN_ORDER[:6]}  # openschafkopf's short pack drops the 8s and 7s
FAMILY = {"rufspiel": "rufer", "solo": "solo", "wenz": "wenz", "farbwenz": "farbwenz", "geier": "geier",
          "ramsch": "ramsch", "bettel": "bettel"}
"""The tariff family (the pinned ``tariff`` mapping's key) of each kind; a Tout is priced by its family."""
OPTION_OF_KIND = {"ramsch": "ramsch", "bettel": "bettel", "geier": "geier", "farbwenz": "farbwenz"}
DOUBLING_ACTIONS = ("contra", "re")
KNOCK_ACTIONS = ("knock", "no_knock")


# ---------------------------------------------------------------- the rules of trick-taking, independently

def trump_order(rules: dict) -> list[str]:
    """The trumps of ``rules``, highest first: Obers then Unters (suits E, G, H, S) as the kind has them,
    then the trump suit (Herz in Rufspiel and Ramsch) without those ranks."""
    ranks = TRUMP_RANKS[rules["kind"]]
    suit = "H" if rules["kind"] in ("rufspiel", "ramsch") else rules["suit"]
    trumps = [s + r for r in ranks for s in SUITS]
    if suit is not None:
        trumps += [suit + r for r in PLAIN_ORDER if r not in ranks]
    return trumps


def trick_winner(rules: dict, leader: int, cards: list[str]) -> int:
    """The seat that takes the trick: its highest trump, else the highest card of the suit led."""
    trumps = trump_order(rules)
    order = BETTEL_ORDER if rules["kind"] == "bettel" else PLAIN_ORDER
    if any(c in trumps for c in cards):
        best = min(range(SEATS), key=lambda i: trumps.index(cards[i]) if cards[i] in trumps else len(trumps))
    else:
        suit = cards[0][0]
        best = min(range(SEATS), key=lambda i: order.index(cards[i][1:]) if cards[i][0] == suit else len(order))
    return (leader + best) % SEATS


def card_points(card: str) -> int:
    return {"A": 11, "10": 10, "K": 4, "O": 3, "U": 2}.get(card[1:], 0)


# ---------------------------------------------------------------- the data, checked without the env

def test_the_data_hold_every_call_of_the_source():
    assert SOURCE["source"]["repository"] == "https://github.com/phimuemue/openschafkopf"
    assert SOURCE["source"]["file"] == "lib/src/rules/tests.rs"
    assert [g["index"] for g in GAMES] == list(range(len(GAMES)))
    assert {g["rules"]["kind"] for g in GAMES} <= set(FAMILY)
    real = [g for g in GAMES if g["real_game"]]
    assert all(g["source"].startswith("https://www.sauspiel.de/") or "testdata/games/" in g["source"] for g in real)


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_the_deal_is_legal_and_every_card_is_played_by_its_holder(index):
    game = GAMES[index]
    pack = [s + r for s in SUITS for r in PACKS[game["pack"]]]
    per_seat = len(pack) // SEATS
    hands = [game["hands"][f"player_{seat}"] for seat in range(SEATS)]
    assert all(len(hand) == per_seat for hand in hands)
    assert sorted(c for hand in hands for c in hand) == sorted(pack)
    assert len(game["tricks"]) == per_seat
    for seat, hand in enumerate(hands):
        played = [t["cards"][(seat - t["leader"]) % SEATS] for t in game["tricks"]]
        assert sorted(played) == sorted(hand), f"seat {seat} plays other cards than it holds"


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_each_trick_is_led_by_the_previous_winner(index):
    game = GAMES[index]
    leader = 0  # forehand leads the first trick
    for number, trick in enumerate(game["tricks"]):
        assert trick["leader"] == leader, f"trick {number} led by {trick['leader']}, won by {leader} before"
        leader = trick_winner(game["rules"], trick["leader"], trick["cards"])


def effective_suit(rules: dict, card: str) -> str:
    """"T" for a trump, else the card's suit: what a card led asks the others to follow."""
    return "T" if card in trump_order(rules) else card[0]


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_every_card_follows_suit(index):
    """Whoever holds a card of what was led plays one (trumps are one suit): the rule every kind shares,
    checked on the record itself, also for the kinds the env does not play yet."""
    game = GAMES[index]
    rules = game["rules"]
    held = {seat: list(game["hands"][f"player_{seat}"]) for seat in range(SEATS)}
    for number, trick in enumerate(game["tricks"]):
        led = effective_suit(rules, trick["cards"][0])
        for i, card in enumerate(trick["cards"]):
            seat = (trick["leader"] + i) % SEATS
            could = any(effective_suit(rules, c) == led for c in held[seat])
            assert not could or effective_suit(rules, card) == led, f"trick {number}: seat {seat} reneges with {card}"
            held[seat].remove(card)


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_the_payouts_balance_against_the_stock(index):
    game = GAMES[index]
    assert sum(game["payout"]) == -game["stock_payout"]
    assert game["stock_payout"] in (0, game["stock"], -game["stock"])


def _sauspiel_settlement(old: dict, tariff: dict) -> list[int]:
    """The payout of an already extracted game under ``tariff``, from the outcome fields that file lists
    (computed by this project's rules): base, Schneider or twice for Schwarz, Laufende from the lower bound;
    the solo player takes or pays three times."""
    laufende = old["laufende"] if old["laufende"] >= tariff["laufende_from"] else 0
    schneider_schwarz = tariff["schneider_schwarz"]
    extra = 2 * schneider_schwarz if old["schwarz"] else schneider_schwarz if old["schneider"] else 0
    value = (tariff["base"] + extra + laufende * tariff["laufende"]) * (1 if old["declarer_side_wins"] else -1)
    declarer = old["declarer"]
    side = [(u > 0) == (old["expected_settlement"][declarer] > 0) for u in old["expected_settlement"]]
    solo_like = old["contract"] != "rufer"
    return [value * (1 if side[s] else -1) * (3 if solo_like and s == declarer else 1) for s in range(SEATS)]


def test_the_127_conformance_games_are_among_them_with_their_payout():
    for old in CONFORMANCE_GAMES:
        same = [g for g in GAMES if g["hands"] == old["hands"] and g["tricks"] == old["tricks"]
                and old["source"].endswith(g["source"])]
        assert len(same) == 1, old["source"]
        game = same[0]
        rules = game["rules"]
        assert (FAMILY[rules["kind"]], rules["declarer"], rules["tout"]) == (old["contract"], old["declarer"], False)
        assert rules["suit"] == (old["called_suit"] or old["trump_suit"])
        assert game["doublings"] == game["stoss"] == [] and game["stock"] == 0
        assert game["payout"] == _sauspiel_settlement(old, game["tariff"]), old["source"]
        side = {rules["declarer"]}
        if rules["kind"] == "rufspiel":
            side |= {seat for seat in range(SEATS) if rules["suit"] + "A" in game["hands"][f"player_{seat}"]}
        side_points = sum(card_points(c) for t in game["tricks"] for c in t["cards"]
                          if trick_winner(rules, t["leader"], t["cards"]) in side)
        assert side_points == old["declarer_card_points"], old["source"]


# ---------------------------------------------------------------- the games as options of bavarian_v0

def contract_string(game: dict) -> str | None:
    """The bid that gives the game's contract (``None`` for Ramsch: all pass)."""
    kind = game["rules"]["kind"]
    if kind == "ramsch":
        return None
    bid = "rufer" if kind == "rufspiel" else kind
    return bid + "_tout" if game["rules"]["tout"] else bid


def options_of(game: dict) -> dict:
    """The ``bavarian_v0`` options that express ``game`` (only those it needs beside its tariff)."""
    rules = game["rules"]
    options: dict = {"tariff": {FAMILY[rules["kind"]]: dict(game["tariff"])}}
    if game["stoss"]:
        options["doubling"] = True
    if game["doublings"]:
        options["klopfen"] = True
    if rules["kind"] in OPTION_OF_KIND:
        options[OPTION_OF_KIND[rules["kind"]]] = True
    if game["pack"] != "long":
        options["pack"] = game["pack"]
    return options


def beyond_the_options(game: dict) -> str | None:
    """What ``game`` needs that no option of the pinned interface gives, or ``None``."""
    if game["stock_payout"] != 0:
        return "openschafkopf's stock (the pot of thrown-in hands a Rufspiel wins or pays into): no bavarian_v0 option"
    if game["rules"].get("bettel_must_beat"):
        return "Bettel with Stichzwang (each player must beat the trick if able): no bavarian_v0 option"
    return None


def _refusal_names_an_option(message: str, options: dict) -> bool:
    """Whether a refusal names one of ``options`` or of the tariff's families and keys."""
    names = set(options) | set(options["tariff"]) | {key for family in options["tariff"].values() for key in family}
    return any(name in message for name in names)


_REFUSALS: dict[str, str | None] = {}


def refusal(game: dict) -> str | None:
    """Why ``bavarian_v0`` cannot express ``game`` today, or ``None`` where it can."""
    if reason := beyond_the_options(game):
        return reason
    options = options_of(game)
    key = json.dumps([options, contract_string(game)], sort_keys=True)
    if key not in _REFUSALS:
        try:
            env = bavarian_v0.env(**options)
            if (bid := contract_string(game)) is not None:
                env.unwrapped.string_to_action(bid)
            _REFUSALS[key] = None
        except ValueError as error:
            if not _refusal_names_an_option(str(error), options) and "unknown action string" not in str(error):
                raise  # a refusal that names none of the options is a defect, not a missing option
            _REFUSALS[key] = f"needs {sorted(options)}: {error}"
    return _REFUSALS[key]


class EnvTable:
    """``bavarian_v0`` as ``drive`` sees a table: who acts, what is legal, act (checked against the mask)."""

    def __init__(self, env) -> None:
        self.env, self.unwrapped = env, env.unwrapped

    def seat(self) -> int:
        return self.env.possible_agents.index(self.env.agent_selection)

    def legal(self) -> list[str]:
        return self.unwrapped.legal_action_strings()

    def act(self, action: str) -> None:
        index = self.unwrapped.string_to_action(action)
        assert self.env.observe(self.env.agent_selection)["action_mask"][index] == 1, action
        self.env.step(index)

    def over(self) -> bool:
        return all(self.env.terminations.values())

    def leaders(self) -> list[int]:
        return [self.env.possible_agents.index(t["leader"]) for t in self.unwrapped.state()["tricks"]]

    def payout(self) -> list[float]:
        return [self.env._cumulative_rewards[a] for a in self.env.possible_agents]


class ReferenceTable:
    """The plain reference (``schafkopf_env.bavarian.reference.BavarianGame``) as ``drive`` sees a table."""

    def __init__(self, game: reference.BavarianGame) -> None:
        self.game = game

    def seat(self) -> int:
        return self.game.to_act

    def legal(self) -> list[str]:
        return self.game.legal_actions()

    def act(self, action: str) -> None:
        self.game.play(action)

    def over(self) -> bool:
        return self.game.is_over()

    def leaders(self) -> list[int]:
        return [t["leader"] for t in self.game.completed_tricks]

    def payout(self) -> list[float]:
        return self.game.settlement()


def drive(table, game: dict, *, doublings: bool = True) -> None:
    """Play ``game`` at ``table`` from the deal: whoever the table asks acts as the record says. A seat
    knocks if the record has it knock, gives Kontra/Re when it is the record's next Stoß (else declines),
    bids the contract if it is the declarer and passes otherwise, calls the ace or names the suit, and
    plays the record's next card. Every action must be legal; the recorded leaders must be the table's;
    every recorded knock and Stoß must have been asked for."""
    rules = game["rules"]
    knocks = set(game["doublings"]) if doublings else set()
    stosses = list(game["stoss"]) if doublings else []
    plays = [((t["leader"] + i) % SEATS, c) for t in game["tricks"] for i, c in enumerate(t["cards"])]
    bid = contract_string(game)
    while not table.over():
        seat, legal = table.seat(), table.legal()
        next_card = plays[0][1] if plays and plays[0][0] == seat else None
        if any(a in legal for a in KNOCK_ACTIONS):
            action = "knock" if seat in knocks else "no_knock"
            knocks.discard(seat)
        elif stosses and stosses[0] == seat and any(a in legal for a in DOUBLING_ACTIONS):
            action = next(a for a in DOUBLING_ACTIONS if a in legal)
            stosses.pop(0)
        elif "pass" in legal:
            action = bid if seat == rules["declarer"] and bid is not None else "pass"
        elif any(a.startswith("call:") for a in legal):
            action = "call:" + rules["suit"]
        elif any(a.startswith("trump:") for a in legal):
            action = "trump:" + rules["suit"]
        elif "no_double" in legal and next_card not in legal:
            action = "no_double"
        else:
            assert next_card is not None, f"seat {seat} asked to play; the record has {plays[:1]} next; legal {legal}"
            action = next_card
            plays.pop(0)
        assert action in legal, f"{action} by seat {seat} illegal; legal {legal}"
        table.act(action)
    assert plays == [], f"the hand ended with {len(plays)} recorded cards unplayed"
    assert not knocks and not stosses, f"never asked: knocks by {sorted(knocks)}, Stoß by {stosses}"
    assert table.leaders() == [t["leader"] for t in game["tricks"]]


def replay(game: dict) -> list[float]:
    env = bavarian_v0.env(**options_of(game))
    env.reset(options={"dealer": DEALER, "hands": game["hands"]})
    table = EnvTable(env)
    drive(table, game)
    return table.payout()


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_the_game_replays_and_settles_to_the_recorded_payout(index):
    game = GAMES[index]
    if reason := refusal(game):
        pytest.skip(reason)
    assert replay(game) == game["payout"]


@pytest.mark.parametrize("index", range(len(GAMES)))
def test_the_game_replays_through_the_reference(index):
    """The plain-Python reference takes the same options (the pinned interface): the same replay, the same
    payout."""
    game = GAMES[index]
    if reason := refusal(game):
        pytest.skip(reason)
    hands = [game["hands"][f"player_{seat}"] for seat in range(SEATS)]
    options = options_of(game)
    try:
        table = ReferenceTable(reference.BavarianGame(DEALER, hands, **options))
    except TypeError as error:  # an option the env takes and the reference not yet: named in the message
        assert any(name in str(error) for name in options), error
        pytest.skip(f"the reference does not take it yet: {error}")
    drive(table, game)
    assert table.payout() == game["payout"]


def _default_game_knows(game: dict) -> bool:
    return game["rules"]["kind"] in ("rufspiel", "solo", "wenz") and game["pack"] == "long"


@pytest.mark.parametrize("index", [g["index"] for g in GAMES if _default_game_knows(g)])
def test_every_card_is_legal_under_the_default_game(index):
    """The games whose contract today's default game has (Rufer, Solo, Wenz and their Touts, long pack):
    every card is legal under our pins whatever the doublings and tariff, which only change the payout."""
    game = GAMES[index]
    env = bavarian_v0.env()
    env.reset(options={"dealer": DEALER, "hands": game["hands"]})
    drive(EnvTable(env), game, doublings=False)


def test_summary_of_what_replays():
    """Counts per kind: the games, those bavarian_v0 can express today, and what the others need; every
    expressible game replays to its recorded payout."""
    needs: Counter = Counter()
    per_kind: Counter = Counter()
    refused: Counter = Counter()
    expressible, replayed, wrong = [], [], []
    for game in GAMES:
        kind = game["rules"]["kind"] + ("_tout" if game["rules"]["tout"] else "")
        per_kind[kind] += 1
        for option in options_of(game):
            needs[option] += 1
        if beyond := beyond_the_options(game):
            needs[beyond.split(":")[0].split(" (")[0]] += 1
        if (reason := refusal(game)) is not None:
            refused[reason.split(": ", 1)[-1] if reason.startswith("needs") else reason.split(":")[0]] += 1
        else:
            expressible.append(game["index"])
            (replayed if replay(game) == game["payout"] else wrong).append(game["index"])
    print(f"\nopenschafkopf games: {len(GAMES)} ({sum(g['real_game'] for g in GAMES)} real); per kind {dict(per_kind)}")
    print(f"needed beside the tariff: { {k: v for k, v in needs.items() if k != 'tariff'} }")
    print(f"not expressible today: {dict(refused)}")
    print(f"expressible today: {len(expressible)}; replayed to the recorded payout: {len(replayed)}")
    assert wrong == [], f"games that settle to another payout: {wrong}"
    assert len(replayed) == len(expressible)
