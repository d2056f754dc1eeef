"""Views of the three Schafkopf games: Bavarian, Palatinate (with the skat) and Asserufen.

What a seat may not see (each env's module docstring, "Observation"):

- Bavarian: the other hands; who holds the called ace until it is public (the holder knows it).
- Palatinate: the other hands; the skat (only a simple-game declarer, who takes it up, ever sees it; a
  solo's skat is shown to nobody, not even at the end); the cards a simple-game declarer lays away
  (``discard:C`` is shown to the declarer only: ``PalatinateEnv.action_visibility``, applied in
  ``ViewContext.actions``).
- Asserufen: the other hands; the partner until the partnership is public (the partner knows it).

Everything else (bids, calls, trump, doubles, schenken, every card played) is public. The declarer
side's card points and the Laufende / hoch count would tell who holds what, so they appear only in the
settlement, once the hand is over.
"""

from __future__ import annotations

import functools

from schafkopf_env.trumps import EFFECTIVE_SUIT, TRICK_POWER, TRUMP, TRUMP_ORDER

from ..catalog import CONTRACT_NAMES, FIXED_ACTION_LABELS, SUIT_LETTERS, GameInfo, Option
from .bavarian_options import (
    BAVARIAN_OPTION_LABELS,
    bavarian_trump_kind,
    contract_value,
    hand_size,
    hide_unseen_cards,
    ramsch_settlement,
    stake_factor,
    stake_facts,
    trumps_text,
    value_line,
)
from .common import (
    HIDDEN_CARD,
    ViewContext,
    add_play,
    add_role,
    base_view,
    describe_common,
    follow_rule,
    seat_entries,
    settlement_by_agent,
    signed,
)

COURT_RANKS = (3, 4)
"""Rank indices of the Obers and Unters (Queens and Jacks) in the shared 32-card layout (``schafkopf_env.trumps``)."""
HEARTS_KIND = 2

# ---------------------------------------------------------------------------------------------- Bavarian

BAVARIAN_PHASES = {
    "klopfen": "Klopfen",
    "bidding": "Bidding",
    "calling": "Calling the ace",
    "choosing_trump": "Naming trump",
    "contra_offer": "Kontra?",
    "doubling_round": "Re?",
    "playing": "Play",
    "over": "Hand over",
}
BAVARIAN_PROMPTS = {
    "klopfen": "Knock (double the stake) on your first cards?", "bidding": "Your bid", "calling": "Call an ace",
    "choosing_trump": "Name the trump suit", "contra_offer": "Kontra (double) before your first card?",
    "doubling_round": "Double again (Re)?", "playing": "Play a card",
}


def bavarian_view(ctx: ViewContext) -> dict:
    view = partnership_view(ctx, BAVARIAN_PHASES, bavarian_facts, bavarian_label, BAVARIAN_PROMPTS,
                            bavarian_settlement, called="the called Sau")
    hide_unseen_cards(ctx, view)
    return view


def bavarian_label(ctx: ViewContext, action: str) -> str:
    head, _, tail = action.partition(":")
    if head == "call":
        return f"Call the {ctx.suit(tail)} Sau"
    if head == "trump" and tail:
        if ctx.state["contract"] in ("farbwenz", "farbwenz_tout"):
            return f"Farbwenz in {ctx.suit(tail)}"
        return f"Trump: {ctx.suit(tail)}"
    return BAVARIAN_OPTION_LABELS.get(action) or describe_common(ctx, action) or action


def bavarian_facts(ctx: ViewContext, partner: str | None) -> list[list[str]]:
    st = ctx.state
    contract = st["contract"]
    if contract is None:
        return stake_facts(ctx)
    facts = [["Contract", contract_title(ctx)]]
    if st["declarer"] is not None:  # a Ramsch has none
        facts.append(["Declarer", ctx.name(st["declarer"])])
    kind = bavarian_trump_kind(ctx)
    if kind is not None:
        facts.append(["Trumps", trumps_text(ctx, kind)])
    if st["called_suit"] is not None:
        add_called_facts(facts, f"the {ctx.suit(st['called_suit'])} Sau", "ace", partner, ctx)
    return facts + stake_facts(ctx)


def bavarian_settlement(ctx: ViewContext) -> dict:
    """The hand's result and how it was reached (``docs/rules/bavarian_schafkopf.md#5-scoring``): the value
    by the table's tariff (``bavarian_options.contract_value``), times the stake of the knocks and doubles."""
    st = ctx.state
    settlement = settlement_by_agent(ctx, st["result"])
    contract = st["contract"]
    if contract is None:
        return thrown_in(settlement, "Everybody passed: the hand is thrown in and nobody pays.")
    if st["declarer"] is None:
        return ramsch_settlement(ctx, settlement)
    declarer, laufende, size = st["declarer"], st["laufende"], hand_size(ctx)
    side = [declarer] + ([st["partner"]] if st["partner"] is not None else [])
    side_text = " and ".join(ctx.name(agent) for agent in side)
    title = contract_title(ctx)
    won, value, formula = contract_value(ctx, title)
    points, tricks = st["declarer_side_points"], st["declarer_side_tricks"]
    if contract == "sie":
        holds = ctx.verb(declarer, "holds", "hold")
        lines = [f"{ctx.name(declarer)} {holds} the {size} highest trumps: a Sie wins at once."]
    elif contract.endswith("_tout"):
        outcome = f"took all {size} tricks: won" if won else "lost a trick: lost"
        lines = [f"{title}: {ctx.name(declarer)} had to take every trick and {outcome}."]
    elif contract == "bettel":
        outcome = "took no trick: won" if won else f"took {plural(tricks, 'trick')}: lost"
        lines = [f"Bettel: {ctx.name(declarer)} had to take no trick and {outcome}."]
    else:
        verdict = "won (61 needed)" if won else "lost (61 needed)"
        lines = [f"The declarer's side ({side_text}) took {points} card points in {plural(tricks, 'trick')}: "
                 f"{verdict}."]
    lines.append(value_line(st, formula, value))
    value *= stake_factor(st)
    if laufende and contract != "sie":
        top = ctx.card_names[int(TRUMP_ORDER[trump_kind(ctx), 0])]
        holders = "the declarer's side" if laufende_with(ctx, side) else "the opponents"
        lines.append(f"Laufende: {holders} held the top {laufende} trumps in an unbroken run from the "
                     f"{ctx.card(top)}.")
    if st["called_suit"] is not None:
        lines.append(f"Each winner receives {units_text(value)}, each loser pays {units_text(value)}.")
    else:
        lines.append(solo_payments(ctx, declarer, won, value))
    return {"settlement": settlement, "value": value, "declarer_won": won, "lines": lines}


# ---------------------------------------------------------------------------------------------- Palatinate

PALATINATE_PHASES = {
    "bid_one": "Bidding, round one",
    "trump": "Naming trump",
    "bid_two": "Bidding, round two",
    "discard": "Laying away two cards",
    "schenken": "Schenken?",
    "schenken_answer": "Answering the schenken",
    "contra_offer": "Contra?",
    "doubling": "Doubling",
    "play": "Play",
    "over": "Hand over",
}
PALATINATE_PROMPTS = {
    "bid_one": "Your bid", "trump": "Name the trump suit", "bid_two": "Play a simple game, or pass?",
    "discard": "Lay away a card (click it)", "schenken": "Give up (schenken) or play on?",
    "schenken_answer": "The opponents give up: accept, or play on for schneider?",
    "contra_offer": "Double (contra) before your first card?", "doubling": "Double again?", "play": "Play a card",
}
PALATINATE_LABELS = {
    "discard": "Lays a card away", "accept": "Accept: win now", "refuse": "Refuse: play on for schneider",
}
DU_CONTRACTS = ("solo_du", "heart_solo_du")


def palatinate_view(ctx: ViewContext) -> dict:
    st = ctx.state
    view = base_view(ctx, PALATINATE_PHASES)
    declarer = st["declarer"]
    roles: dict[str, list[str]] = {}
    sitting_out = set()
    add_role(roles, view["dealer"], "dealer")
    if st["config"].get("players") == 4:
        sitting_out.add(view["dealer"])
        add_role(roles, view["dealer"], "sits out")
    add_role(roles, declarer if st["contract"] else None, "declarer")
    said = {agent: bid_label(bid) for agent, bid in st["bids_round_one"].items()}
    said.update({agent: bid_label(bid) for agent, bid in st["bids_round_two"].items()})
    view["seats"] = seat_entries(ctx, roles, said=said, inactive=sitting_out, hand_order=hand_order(ctx))
    view["facts"] = palatinate_facts(ctx)
    view["piles"] = palatinate_piles(ctx)
    view["hand_marks"] = palatinate_hand_marks(ctx)
    return add_play(view, ctx, palatinate_label, prompt_from(PALATINATE_PROMPTS), palatinate_settlement,
                    card_rule=schafkopf_card_rule)


def palatinate_label(ctx: ViewContext, action: str) -> str:
    if action.startswith("discard:"):  # ``discard:?`` to all but the declarer (``ctx.actions``)
        card = ctx.shown_card(action)
        return PALATINATE_LABELS["discard"] if card is HIDDEN_CARD else f"Lay away {ctx.card(card)}"
    return PALATINATE_LABELS.get(action) or describe_common(ctx, action) or action


def simple_game_declarer(st: dict) -> str | None:
    """The seat that took up the skat (a simple game), if any."""
    return next((agent for agent, bid in st["bids_round_two"].items() if bid == "simple"), None)


def palatinate_piles(ctx: ViewContext) -> list[dict]:
    st = ctx.state
    taker = simple_game_declarer(st)
    if taker is None:
        cards = list(st["skat"]) if ctx.sees_all else [HIDDEN_CARD] * len(st["skat"])
        label = "Skat" if st["contract"] is None or ctx.sees_all else "Skat (stays hidden)"
        return [{"label": label, "cards": cards}]
    piles = []  # the skat taken up is in the taker's hand now (marked there while laying away), not a pile
    shown = [ctx.shown_card(action) for _, action in ctx.actions if action.startswith("discard:")]
    if shown:  # the cards laid away, as the viewer saw them (``ctx.actions``)
        label = "Laid away by you (they count for you)" if ctx.is_you(taker) else f"Laid away by {taker}"
        piles.append({"label": label, "cards": shown})
    return piles


def palatinate_hand_marks(ctx: ViewContext) -> dict[str, str]:
    """While the skat's taker lays away, the cards it took up from the skat (the taker's own view only)."""
    st = ctx.state
    taker = simple_game_declarer(st)
    if taker is None or st["phase"] != "discard" or not ctx.is_viewer(taker):
        return {}
    return {card: "from the skat" for card in st["skat"] if card in st["hands"][taker]}


def palatinate_facts(ctx: ViewContext) -> list[list[str]]:
    st = ctx.state
    facts = contract_facts(ctx)
    if st["schenken"]:
        offers = ", ".join(f"{a} {'gives up' if answer == 'schenken' else 'plays on'}"
                           for a, answer in st["schenken"].items())
        facts.append(["Schenken", offers])
    if st["schenken_answer"] is not None:
        facts.append(["Declarer's answer", "accepted" if st["schenken_answer"] == "accept" else "refused"])
    add_doubling_facts(facts, st["doublers"])
    return facts


def palatinate_settlement(ctx: ViewContext) -> dict:
    """The result from the env's settlement, explained without the skat's cards or points (module
    docstring: the skat of a solo is never shown; its points decide only won/lost and schneider)."""
    st = ctx.state
    result = st["result"]
    settlement = settlement_by_agent(ctx, result["settlement"])
    if result["thrown_in"]:
        return thrown_in(settlement, "Nobody declared in either round: the hand is thrown in and nobody pays.")
    contract, declarer, won, value = st["contract"], st["declarer"], result["declarer_won"], result["value"]
    tricks = st["tricks_won"]
    declarer_tricks = tricks[declarer]
    opponent_tricks = sum(count for agent, count in tricks.items() if agent != declarer)
    parts = [("game", 1)]
    if st["trump"] == "H":
        parts.append(("hearts", 1))
    if contract != "simple":
        parts.append(("solo", 1))
    if result["hoch"]:
        parts.append(("hoch", result["hoch"]))
    schwarz = palatinate_schwarz(st["schenken_answer"], contract, won, declarer_tricks, opponent_tricks)
    if schwarz:
        parts.append(("schwarz", 1))
    du_factor = 2 if contract in DU_CONTRACTS else 1
    multiplier = du_factor * 2 ** st["doublings"]
    schneider = value // multiplier - sum(units for _, units in parts)
    if schneider:
        parts.insert(1, ("schneider", schneider))
    trick_points = st["points"][declarer]
    extra = result["declarer_card_points"] - trick_points
    extra_note = "the two cards laid away" if contract == "simple" else "the skat (its cards stay hidden)"
    lines = [f"{ctx.name(declarer)} played {CONTRACT_NAMES[contract]}: {'won' if won else 'lost'}.",
             f"{ctx.name(declarer)} took {trick_points} card points in {plural(declarer_tricks, 'trick')}, "
             f"and {extra} in {extra_note}: {result['declarer_card_points']} in all (61 needed to win; a side "
             "under 30 is schneider)."]
    if st["schenken_answer"] == "accept":
        lines.append("The opponents gave up (schenken) and the declarer accepted: won without schneider.")
    elif st["schenken_answer"] == "refuse":
        lines.append("The declarer refused the schenken and had to make the opponents schneider.")
    if result["hoch"]:
        lines.append(hoch_line(ctx, result["hoch"], {declarer}))
    lines.append(value_formula(parts, du_factor == 2, st["doublings"], value))
    others = [agent for agent in ctx.agents if agent != declarer and settlement[agent]]
    pays = ctx.verb(declarer, "receives", "receive") if won else ctx.verb(declarer, "pays", "pay")
    lines.append(f"{ctx.name(declarer)} {pays} {units_text(value)} {'from' if won else 'to'} each of the "
                 f"other {len(others)} players: {signed(settlement[declarer])} in all.")
    return {"settlement": settlement, "value": value, "declarer_won": won, "lines": lines,
            "parts": [list(part) for part in parts], "factor": multiplier}


def palatinate_schwarz(schenken_answer: str | None, contract: str, won: bool, declarer_tricks: int,
                       opponent_tricks: int) -> bool:
    """Schwarz as the value table counts it (``palatinate_v0`` pins 6-8), from the public trick counts."""
    if schenken_answer == "accept":
        return False
    if contract in DU_CONTRACTS:
        return True
    if schenken_answer == "refuse":
        return declarer_tricks == 0 or opponent_tricks == 0
    return (opponent_tricks if won else declarer_tricks) == 0


# ---------------------------------------------------------------------------------------------- Asserufen

ASSERUFEN_PHASES = {
    "bidding": "Bidding",
    "answer": "Answering Darf man",
    "call": "Calling",
    "trump": "Naming trump",
    "contra_offer": "Contra?",
    "doubling_round": "Doubling",
    "play": "Play",
    "over": "Hand over",
}
ASSERUFEN_PROMPTS = {
    "bidding": "Your bid", "answer": "Darf man? Let the bidder declare, or declare yourself",
    "call": "Call a card to find your partner", "trump": "Name the trump suit",
    "contra_offer": "Double (contra) before your first card?", "doubling_round": "Double again?", "play": "Play a card",
}
ASSERUFEN_LABELS = {"accept": "Accept: the Darf man bidder declares", "refuse": "Refuse: declare yourself"}


def asserufen_view(ctx: ViewContext) -> dict:
    return partnership_view(
        ctx, ASSERUFEN_PHASES, asserufen_facts, asserufen_label, ASSERUFEN_PROMPTS, asserufen_settlement,
        called="the called card",
    )


def asserufen_label(ctx: ViewContext, action: str) -> str:
    head, _, tail = action.partition(":")
    if head == "call":
        card = tail if len(tail) > 1 else tail + "A"
        return f"Call the {ctx.card(card)}"
    return ASSERUFEN_LABELS.get(action) or describe_common(ctx, action) or action


def asserufen_facts(ctx: ViewContext, partner: str | None) -> list[list[str]]:
    st = ctx.state
    facts = contract_facts(ctx)
    if st["called_card"] is not None:
        add_called_facts(facts, ctx.card(st["called_card"]), "card", partner, ctx)
    add_doubling_facts(facts, st["doublers"])
    return facts


def asserufen_settlement(ctx: ViewContext) -> dict:
    """The hand's result as the env's score breaks it down (``docs/rules/palatinate_schafkopf.md`` section 3)."""
    st = ctx.state
    score = st["score"]
    settlement = settlement_by_agent(ctx, st["result"])
    if score is None:
        return thrown_in(settlement, "All four said weg: the hand is thrown in and nobody pays.")
    declarer, contract, won, value = st["declarer"], st["contract"], bool(score["declarer_won"]), score["value"]
    side = ctx.name(declarer) if st["partner"] is None else f"{ctx.name(declarer)} and {ctx.name(st['partner'])}"
    parts = [("game", score["game"])] + [
        (name, score[name]) for name in ("hearts", "schneider", "schwarz") if score[name]
    ]
    if score["hoch"]:
        parts.append(("hoch", score["hoch"]))
    lines = [f"{CONTRACT_NAMES[contract]}, declared by {ctx.name(declarer)}: the declarer's side ({side}) took "
             f"{score['declarer_side_points']} card points in {plural(score['declarer_side_tricks'], 'trick')}: "
             f"{'won' if won else 'lost'}."]
    if score["hoch"]:
        side_seats = {declarer} | ({st["partner"]} if st["partner"] is not None else set())
        lines.append(hoch_line(ctx, score["hoch"], side_seats))
    lines.append(value_formula(parts, score["du_factor"] > 1, score["doublings"], value))
    if contract == "ace_call":
        lines.append(f"Declarer and partner each {'receive' if won else 'pay'} {units_text(value)}; "
                     f"each opponent {'pays' if won else 'receives'} {units_text(value)}.")
    else:
        lines.append(solo_payments(ctx, declarer, won, value))
    return {"settlement": settlement, "value": value, "declarer_won": won, "lines": lines,
            "parts": [list(part) for part in parts], "factor": score["du_factor"] * 2 ** score["doublings"]}


# ---------------------------------------------------------------------------------------------- shared


def partnership_view(ctx: ViewContext, phases: dict[str, str], facts, label, prompts: dict[str, str],
                     settlement, called: str) -> dict:
    """The view of a game whose declarer may have a partner, secret until it is public (Bavarian,
    Asserufen; the partner knows it): ``facts(ctx, partner)`` gets the partner as the view may show it. A
    seat yet to bid (Asserufen: None) has said nothing. ``called`` names the called card in the card rule's
    text (``schafkopf_card_rule``)."""
    st = ctx.state
    view = base_view(ctx, phases)
    partner = st["partner"] if ctx.sees_all or st["partner_known"] or ctx.is_viewer(st["partner"]) else None
    roles: dict[str, list[str]] = {}
    add_role(roles, view["dealer"], "dealer")
    add_role(roles, st["declarer"] if st["contract"] else None, "declarer")
    add_role(roles, partner, "partner")
    said = {agent: bid_label(bid) for agent, bid in st["bids"].items() if bid is not None}
    view["seats"] = seat_entries(ctx, roles, said=said, hand_order=hand_order(ctx))
    view["facts"] = facts(ctx, partner)
    return add_play(view, ctx, label, prompt_from(prompts), settlement,
                    card_rule=functools.partial(schafkopf_card_rule, called=called))


def contract_facts(ctx: ViewContext) -> list[list[str]]:
    """Contract, declarer and trumps of the Palatinate and Asserufen games (Queens and Jacks)."""
    st = ctx.state
    facts = []
    if st["contract"] is not None:
        facts.append(["Contract", CONTRACT_NAMES[st["contract"]]])
        facts.append(["Declarer", ctx.name(st["declarer"])])
    if st["trump"] is not None:
        facts.append(["Trumps", f"Queens, Jacks and {ctx.suit(st['trump'])}"])
    return facts


def add_called_facts(facts: list[list[str]], called: str, kind: str, partner: str | None, ctx: ViewContext) -> None:
    """The called card, and the partner where the view may show it (Bavarian, Asserufen)."""
    facts.append(["Called", called])
    facts.append(["Partner", ctx.name(partner) if partner is not None else f"secret (the holder of the called {kind})"])


def thrown_in(settlement: dict[str, float], line: str) -> dict:
    return {"settlement": settlement, "value": 0, "declarer_won": None, "lines": [line]}


def solo_payments(ctx: ViewContext, declarer: str, won: bool, value: int) -> str:
    pays = ctx.verb(declarer, "receives", "receive") if won else ctx.verb(declarer, "pays", "pay")
    return (f"{ctx.name(declarer)} (the declarer) {pays} {units_text(3 * value)} (3 × {value}); "
            f"each opponent {'pays' if won else 'receives'} {units_text(value)}.")


def units_text(units: int) -> str:
    return plural(units, "unit")


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def bid_label(bid: str) -> str:
    return FIXED_ACTION_LABELS.get(bid) or CONTRACT_NAMES.get(bid, bid)


def value_formula(parts: list[tuple[str, int]], du: bool, doublings: int, value: int) -> str:
    """``"Value: game 1 + hearts 1 + hoch 3 = 5, × 2 (Du), × 4 (2 doublings) = 40 units."``: the Palatinate
    value table (the same for Asserufen; Bavarian without Du and doublings). A single part is not summed
    (``"Value: Sauspiel 1 unit."``)."""
    formula = " + ".join(f"{name} {units}" for name, units in parts)
    if len(parts) > 1:
        formula += f" = {sum(units for _, units in parts)}"
    if du:
        formula += ", × 2 (Du)"
    if doublings:
        formula += f", × {2 ** doublings} ({doublings} doubling{'s' if doublings > 1 else ''})"
    if du or doublings:
        formula += f" = {value}"
    return f"Value: {formula} {'unit' if value == 1 else 'units'}."


def add_doubling_facts(facts: list[list[str]], doublers: list[str]) -> None:
    if doublers:
        calls = ["Contra"] + ["Re"] * (len(doublers) - 1)
        said = (f"{call} by {agent}" for call, agent in zip(calls, doublers, strict=True))
        facts.append(["Doubled", ", ".join(said)])


def prompt_from(prompts: dict[str, str]):
    """The line above the viewer's controls when it is the viewer's turn: the phase's line in ``prompts``."""
    return lambda view: prompts.get(view["phase"], "Your move") if view["legal"] else None


# ---------------------------------------------------------------------------------------------- card order


def trump_kind(ctx: ViewContext) -> int | None:
    """The trump kind of ``schafkopf_env.trumps`` once the contract fixes it; ``None`` before."""
    st = ctx.state
    if ctx.deck == "german":  # Bavarian: the kernel's kind (Wenz, Geier, Farbwenz, Bettel, Ramsch ...)
        kind = bavarian_trump_kind(ctx)
        # the kernel fixes a Rufer's trumps once the ace is called; the players know them from the bid on
        return HEARTS_KIND if kind is None and st["contract"] == "rufer" else kind
    if st["trump"] is not None:
        return SUIT_LETTERS[ctx.deck].index(st["trump"])
    return None


def hand_order(ctx: ViewContext):
    """The sort key of a hand: the trumps first from the highest, then each plain suit from its ace
    (``docs/rules``: Bavarian Obers and Unters, then the trump suit; Wenz the Unters; Palatinate Queens and
    Jacks). Before the trump suit is known the permanent trumps (Palatinate: Queens and Jacks; a Bavarian
    Solo's Obers and Unters) come first and the suits follow in the pack's order; with no contract at all
    (Bavarian bidding) the hand is sorted by suit."""
    index = {name: i for i, name in enumerate(ctx.card_names)}
    kind = trump_kind(ctx)
    bidding_by_suit = ctx.deck == "german"  # Bavarian bidding (the German pack's game): no trumps known yet
    courts_first = kind is None and (not bidding_by_suit or ctx.state["contract"] is not None)
    # before a Farbwenz names its suit only the Unters are sure trumps; before a Solo's, Obers and Unters
    courts = (COURT_RANKS[1],) if ctx.state["contract"] in ("farbwenz", "farbwenz_tout") else COURT_RANKS

    def key(card: str) -> tuple[int, int]:
        i = index[card]
        if kind is None:
            suit, rank = divmod(i, 8)
            if courts_first and rank in courts:
                return (0, -int(TRICK_POWER[HEARTS_KIND, i]))
            return (1 + suit, rank)
        suit = int(EFFECTIVE_SUIT[kind, i])
        return (0 if suit == TRUMP else 1 + suit, -int(TRICK_POWER[kind, i]))

    return key


def schafkopf_card_rule(ctx: ViewContext, view: dict, called: str | None = None) -> str | None:
    """Why a card is not legal now: following the led (effective) suit, else the called card's rules
    (``called``: how the game's view names the called card; None: a game without one)."""
    kind = trump_kind(ctx)
    if kind is None:
        return None
    index = {name: i for i, name in enumerate(ctx.card_names)}
    letters = SUIT_LETTERS[ctx.deck]

    def category(card: str) -> int:
        return int(EFFECTIVE_SUIT[kind, index[card]])

    def category_name(suit: int) -> str:
        return "a trump" if suit == TRUMP else f"a {ctx.suit(letters[suit])} card"

    fallback = ("Only the highlighted cards may be played now: "
                + (f"{called} may not be led away from or thrown off while its suit is unplayed (rules, section on "
                   "the called card)." if called else "follow the led suit if you can."))
    return follow_rule(ctx, view, category, category_name, fallback)


def contract_title(ctx: ViewContext) -> str:
    """The contract as Bavarian players name it: ``"Sauspiel"``, ``"Herz-Solo"``, ``"Eichel-Solo Tout"``,
    ``"Gras-Farbwenz"``."""
    st = ctx.state
    contract = st["contract"]
    name = CONTRACT_NAMES[contract].split(" (")[0]
    if contract in ("solo", "solo_tout", "farbwenz", "farbwenz_tout") and st["trump"] is not None:
        return f"{ctx.suit(st['trump'])}-{name}"
    return name


def laufende_with(ctx: ViewContext, side: list[str]) -> bool:
    """Whether the declarer's side held the Laufende (else the opponents did): who was dealt the top trump."""
    top = ctx.card_names[int(TRUMP_ORDER[trump_kind(ctx), 0])]
    return any(top in ctx.state["dealt_hands"][agent] for agent in side)


def hoch_line(ctx: ViewContext, hoch: int, side: set[str]) -> str:
    """``hoch N`` explained: which top trumps, held by which side at the start (``docs/rules/
    palatinate_schafkopf.md`` section 1.5: the declarer's dealt hand and the skat, the partner's in an ace call).
    Shown once the hand is over, as the players' cards are at the end."""
    kind = trump_kind(ctx)
    tops = [ctx.card_names[int(TRUMP_ORDER[kind, k])] for k in range(hoch)]
    st = ctx.state
    held_by_side = {card for agent in side for card in st["dealt_hands"][agent]} | set(st.get("skat") or ())
    held = tops[0] in held_by_side
    cards = ", ".join(ctx.card(card) for card in tops)
    who = "The declarer's side" if held else "The opponents"
    return (f"Hoch {hoch} ({'with' if held else 'without'} {hoch}): {who} held the "
            f"{hoch} top trumps in a row ({cards}); each adds 1 to the value, won or lost.")


# ---------------------------------------------------------------------------------------------- the games

DOUBLINGS = Option("max_doublings", "Most doublings", (0, 1, 2, 3, 4), 4)

ON_OFF = (False, True)
BAVARIAN_OPTIONS = (
    Option("tariff", "Tariff", ("card", "sauspiel"), "card", env_checked=(dict,)),
    Option("pack", "Pack", ("long", "short"), "long"),
    Option("doubling", "Kontra and Re", ON_OFF, False),
    Option("klopfen", "Klopfen", ON_OFF, False),
    Option("ramsch", "Ramsch when all pass", ON_OFF, False),
    Option("geier", "Geier", ON_OFF, False),
    Option("farbwenz", "Farbwenz", ON_OFF, False),
    Option("bettel", "Bettel", ON_OFF, False),
)
"""The rule options of ``schafkopf_env.bavarian_v0`` (its docstring documents them); a custom tariff mapping
is accepted from a record (the env validates it), the table offers the two named tariffs."""
BAVARIAN = GameInfo("bavarian", "Bavarian Schafkopf", "german", "bavarian_schafkopf.md", BAVARIAN_OPTIONS,
                    bavarian_view, bavarian_label)
PALATINATE = GameInfo("palatinate", "Palatinate Schafkopf", "french", "palatinate_schafkopf.md",
                      (Option("players", "Players", (3, 4), 3), DOUBLINGS), palatinate_view, palatinate_label)
ASSERUFEN = GameInfo("asserufen", "Asserufen (Palatinate, four players)", "french", "palatinate_schafkopf.md",
                     (DOUBLINGS,), asserufen_view, asserufen_label)
"""The three games' entries in the browser (``play.catalog.GameInfo``), named by their specs (``browser``)."""
