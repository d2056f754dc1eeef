"""The view of a Knüffeln table.

What a seat may not see (``knuffeln_env.knuffeln_v0`` docstring, "Observation" and "Pins"):

- the other hands, except the cards a seat took by a public exchange (ten or Ole) and still holds;
- the face-down stock, except the cards shown to all (bottom Oles; 1924/1938 the three bottom cards)
  and, for the dealer, the cards it looked at (five players: the whole stock);
- a card led face down (``turn:C``) until the next opponent accepts it; after a flight it stays hidden;
- a card half-shown in talk (``show:C``) unless the viewer is the shower or on the shower's team.

The stock knowledge and the Ole on offer are not in ``state()``, so they are read from the viewer's own
observation (the blocks ``STOCK_BLOCKS`` names, documented in the env's observation table): what the env
itself tells that seat.
"""

from __future__ import annotations

import numpy as np

from trick_core.layout import block_starts
from trick_core.visibility import HIDDEN, is_hidden

from ..catalog import FIXED_ACTION_LABELS, KNUFFELN_ACCEPT_LABEL, SUIT_LETTERS, GameInfo, Option, env_module
from .common import (
    HIDDEN_CARD,
    ViewContext,
    action_entry,
    add_play,
    add_role,
    base_view,
    seat_entries,
    settlement_by_agent,
)

PHASES = {
    "dealer_choice": "The dealer's choice",
    "ten_exchange": "Ten exchange",
    "ole_exchange": "Ole exchange",
    "talk": "Talk",
    "play": "Play",
    "turn_answer": "A card led face down: accept or flee?",
    "over": "Hand over",
}
TEAM_NAMES = ("Team A", "Team B")
RESULT_TEXT = {
    "plain": "won five tricks: a plain game",
    "jann": "won the first five tricks and stopped: a Jann",
    "march": "took every trick: a Durchmarsch",
    "failed_march": "won because the other team's Durchmarsch failed",
    "fled": "won because the other team fled from a face-down lead",
}
TALK_PREFIXES = ("say:", "show:", "token:")
OLES = ("H2", "C4", "S8", "H9", "D9")
"""The five Oles, highest first (``docs/rules/knuffeln.md`` section 2)."""
CHOSEN_ORDER = ("A", "J", "6", "2", "3", "4", "7", "9", "8", "K", "Q", "10", "5")
"""A chosen suit's cards as the rules rank them: the beaters A > J > 6 > 2 > 3 > 4, the 7 (unbeatable when
led), the free cards 9 and 8, then K, Q and the exchange card (10; the 5 of Bernhard's pack)."""
UNCHOSEN_ORDER = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")


def observation_blocks(players: int) -> dict[str, tuple[int, int]]:
    """``(offset, size)`` of every block of a Knüffeln observation with ``players`` seats, by the block's
    name in the kernel's ``observation_layout`` (the env docstring's table); the blocks the view reads come
    before any that the other options (talk, the observation type) add."""
    from knuffeln_env.knuffeln import kernel

    layout = kernel.observation_layout(kernel.make_params(players=players), 0)
    starts = block_starts(layout)
    return {name: (starts[name], size) for name, size in layout}


STOCK_BLOCKS = ("stock_shown_to_all", "stock_known")


def observed_cards(ctx: ViewContext, block: str) -> list[str]:
    """The cards set in one 48-card block of the viewer's own observation."""
    offset, size = observation_blocks(ctx.env.num_seats)[block]
    observation = ctx.env.observe(ctx.viewer)["observation"]
    indices = np.flatnonzero(observation[offset:offset + size])
    return [ctx.card_names[int(i)] for i in indices]


def knuffeln_view(ctx: ViewContext) -> dict:
    st = ctx.state
    view = base_view(ctx, PHASES)
    dealer = view["dealer"]
    turner = st["trick"][0][0] if st["trick_face_down"] and st["trick"] else None
    roles: dict[str, list[str]] = {}
    add_role(roles, dealer, "dealer")
    inactive = set()
    if st["dealer_choice"] == "sit_out":
        add_role(roles, dealer, "sits out")
        inactive.add(dealer)
    elif st["dealer_choice"] == "play_alone":
        add_role(roles, dealer, "plays alone")
    add_role(roles, turner, "led face down")
    teams = {agent: (TEAM_NAMES[team] if team is not None else None) for agent, team in st["teams"].items()}
    talk = [
        {"agent": agent, "text": knuffeln_label(ctx, said),
         "card": ctx.shown_card(said) if said.startswith("show:") else None}
        for agent, said in talk_as_seen(ctx)
    ]
    said = {entry["agent"]: entry["text"] for entry in talk}
    view["seats"] = seat_entries(ctx, roles, said=said, teams=teams, inactive=inactive,
                                 hand_order=hand_order(ctx))
    for seat in view["seats"]:
        seat["points"] = None
    view["talk"] = talk
    view["piles"] = knuffeln_piles(ctx)
    view["facts"] = knuffeln_facts(ctx)
    view["after_silence"] = moves_after_silence(ctx)
    return add_play(view, ctx, knuffeln_label, knuffeln_prompt, knuffeln_settlement,
                    trick_fields=("face_down_accepted",),
                    face_down_first=turner is not None and is_hidden(last_face_down_lead(ctx)))


# ---------------------------------------------------------------------------------------------- hiding
# What a seat sees of a face-down lead (``turn:C``) and of a half-shown card (``show:C``) is the env's
# table (``KnuffelnEnv.action_visibility``), applied once for the views and the public record alike:
# ``ctx.actions`` holds ``turn:?`` and ``show:?`` where the viewer did not see the card.


def last_face_down_lead(ctx: ViewContext) -> str:
    """The latest ``turn:`` action as the viewer saw it (the lead of a trick that lies face down: awaiting
    its answer, or fled from)."""
    return next(action for _, action in reversed(ctx.actions) if action.startswith("turn:"))


def talk_as_seen(ctx: ViewContext) -> list[list[str]]:
    """The talk of the hand being played (``state()["talk"]``), each utterance as the viewer saw it: the
    last talk actions of ``ctx.actions`` (a match's earlier hands come before them)."""
    count = len(ctx.state["talk"])
    spoken = [entry for entry in ctx.actions if entry[1] == "silent" or entry[1].startswith(TALK_PREFIXES)]
    return spoken[len(spoken) - count:]


# ---------------------------------------------------------------------------------------------- table


def hand_order(ctx: ViewContext):
    """The sort key of a Knüffeln hand, in the order of its trumps (``docs/rules/knuffeln.md`` section 2): the
    Oles from de Beste down, then the first and the second chosen suit (beaters, 7, free cards, the rest),
    then the unchosen suits from the ace."""
    chosen = list(ctx.state["chosen_suits"])
    letters = SUIT_LETTERS[ctx.deck]

    def key(card: str) -> tuple[int, int]:
        suit, rank = card[0], card[1:]
        if card in OLES:
            return (0, OLES.index(card))
        if suit in chosen:
            return (1 + chosen.index(suit), CHOSEN_ORDER.index(rank))
        return (3 + letters.index(suit), UNCHOSEN_ORDER.index(rank))

    return key


def moves_after_silence(ctx: ViewContext) -> list[dict]:
    """At the viewer's talk turn, the moves it will have once it stays silent (its card play that follows):
    the page lets a card be clicked at once, staying silent on the way, and highlights the right cards."""
    if ctx.viewer is None or ctx.state["current_player"] != ctx.viewer or ctx.state["phase"] != "talk":
        return []
    if "silent" not in ctx.env.legal_action_strings():
        return []
    silent = ctx.env.clone()
    silent.step(silent.string_to_action("silent"))
    if silent.state()["current_player"] != ctx.viewer:
        return []
    return [action_entry(ctx, action, lambda text: knuffeln_label(ctx, text))
            for action in silent.legal_action_strings()]


def knuffeln_piles(ctx: ViewContext) -> list[dict]:
    st = ctx.state
    # The face-up pile is what was turned to choose the suits, less a card taken for a ten and with that ten:
    # each card is shown once, where it lies now (the turned cards are named in the facts).
    piles = [{"label": "Face up beside the stock", "cards": list(st["face_up"])}]
    stock = list(st["stock"])
    if ctx.sees_all:
        shown = stock
    else:
        known = set()
        for block in STOCK_BLOCKS:
            known.update(observed_cards(ctx, block))
        visible = [card for card in stock if card in known]
        shown = visible + [HIDDEN_CARD] * (len(stock) - len(visible))
    if stock:
        piles.append({"label": f"Stock ({len(stock)} cards)", "cards": shown})
    if st["out_of_play"]:
        piles.append({"label": "Out of play (given for Oles)", "cards": list(st["out_of_play"])})
    return piles


def knuffeln_facts(ctx: ViewContext) -> list[list[str]]:
    st = ctx.state
    first, second = st["chosen_suits"]
    facts = [["Chosen suits", f"{ctx.suit(first)} (first), {ctx.suit(second)}"]]
    if st["exchanges"]:
        facts.append(["Turned", ", ".join(st["turned"])])
    if st["dealer_choice"] is not None:
        facts.append(["Dealer", f"{ctx.agents[st['dealer']]} "
                      f"{'plays alone' if st['dealer_choice'] == 'play_alone' else 'sits out'}"])
    for exchange in st["exchanges"]:
        what = "ten exchange" if exchange["kind"] == "ten" else "Ole exchange"
        who = ctx.name(exchange["agent"])
        facts.append(["Exchange", f"{who} gave {exchange['gave']} for {exchange['took']} ({what})"])
    if st["phase"] == "ole_exchange" and not ctx.sees_all:
        for card in observed_cards(ctx, "ole_on_offer"):
            facts.append(["Ole on offer", card])
    won, needed = st["tricks_won"], st["tricks_needed"]
    facts.append(["Tricks", f"{TEAM_NAMES[0]} {won[0]} of {needed[0]}, {TEAM_NAMES[1]} {won[1]} of {needed[1]}"])
    facts.append(["Stake", f"{st['stake']} (accepted turns: {st['accepted_turns']})"])
    if st["jann_pending"]:
        facts.append(["Jann", "the leader may stop and take the Jann, or lead on for a Durchmarsch"])
    if st["committed_team"] is not None:
        facts.append(["Durchmarsch", f"{TEAM_NAMES[st['committed_team']]} must take every trick"])
    return facts


def knuffeln_label(ctx: ViewContext, action: str) -> str:
    head, _, tail = action.partition(":")
    if head == "say":
        return f"“{env_module('knuffeln').PHRASES[int(tail) - 1]}”"
    if head == "token":
        return f"Token {tail}"
    if head == "turn":
        return "Lead face down: a card" if tail in ("", HIDDEN) else f"Lead face down: {tail}"
    if head == "show":
        return "Half-show: a card (to the partner)" if tail in ("", HIDDEN) else f"Half-show: {tail}"
    if head == "exchange":
        return f"Take {tail} for your ten"
    if action == "accept":
        return KNUFFELN_ACCEPT_LABEL
    if action in FIXED_ACTION_LABELS:
        return FIXED_ACTION_LABELS[action]
    if ctx.is_card(action):
        return ctx.card(action)
    return action


def knuffeln_prompt(view: dict) -> str | None:
    if not view["legal"]:
        return None
    verbs = {entry["verb"] for entry in view["legal"]}
    if view["phase"] == "talk":
        return "Play a card (you stay silent), or talk to your partner first"
    if "turn" in verbs:
        return "Lead a card: face up, or face down (drehen) to raise the stake"
    return {
        "dealer_choice": "Play alone against the four, or sit out?",
        "ten_exchange": "Exchange a chosen ten for a turned card?",
        "ole_exchange": "Take the Ole on offer for your Queen (or King)?",
        "turn_answer": "Accept the face-down card (the stake rises) or flee (the hand ends)?",
        "play": "Play a card (any card is legal)",
    }.get(view["phase"], "Your move")


def knuffeln_settlement(ctx: ViewContext) -> dict:
    st = ctx.state
    result = st["result"]
    settlement = settlement_by_agent(ctx, result["settlement"])
    team = result["winning_team"]
    members = [agent for agent, t in st["teams"].items() if t == team]
    names = ", ".join(ctx.name(agent) for agent in members)
    lines = [f"{TEAM_NAMES[team]} ({names}) {RESULT_TEXT[result['kind']]}.",
             f"Tricks: {TEAM_NAMES[0]} {st['tricks_won'][0]}, {TEAM_NAMES[1]} {st['tricks_won'][1]}."]
    turns = st["accepted_turns"]
    lines.append(f"Each loser pays each winner {result['units']} unit{'s' if result['units'] != 1 else ''}"
                 f" ({turns} accepted turn{'s' if turns != 1 else ''} included).")
    if ctx.env.num_seats == 5 and st["dealer_choice"] == "play_alone":
        lines.append("Five players, the dealer alone: payments go between the dealer and each of the four.")
    return {"settlement": settlement, "value": result["units"], "declarer_won": None, "lines": lines}


TALK_CHOICES = ("off", "lexicon", "tokens:4", "tokens:8", "tokens:16")

KNUFFELN = GameInfo(
    "knuffeln", "Knüffeln", "french", "knuffeln.md",
    (
        Option("variant", "Variant", ("bohmstedt", "hattstedt", "bernhard1924", "gruenberg1938"), "bohmstedt"),
        Option("players", "Players", (4, 5), 4, requires=((5, "variant", ("bohmstedt",)),)),
        Option("talk", "Table talk", TALK_CHOICES, "off"),
    ),
    knuffeln_view, knuffeln_label,
)
"""Knüffeln's entry in the browser (``play.catalog.GameInfo``), named by its spec (``browser``)."""
