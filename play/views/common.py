"""What every game's view shares: the frame of the view, seats, tricks, legal moves and the log.

A *view* is the JSON the browser draws a table from. ``viewer`` is the seat it is built for, or ``None``
for the replay viewer's "every hand visible" mode. For a seat, a view holds only what that seat may
know under the rules (the env module docstrings' observation tables say what that is): its own cards,
the public record of the hand, and nothing else. Each game module adds its own public facts. The actions
come as the viewer saw them from ``env.public_actions(viewer)`` (``ViewContext.actions``): a card the
viewer did not see reads ``turn:?``, ``show:?``, ``discard:?`` there, by the game's one table of what each
seat sees (``trick_core.visibility``), the same that writes the public record an agent may read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from trick_core.visibility import is_hidden

from ..catalog import CONTRACT_NAMES, FIXED_ACTION_LABELS, GameInfo, card_label, deck_cards, game_info, suit_name

HIDDEN_CARD = None
"""How a face-down card appears in a view: no name at all (the browser draws a card back)."""


@dataclass
class ViewContext:
    """The env, its full state, and who is looking."""

    env: object
    state: dict
    viewer: str | None
    address_viewer: bool = False
    """Whether texts name the viewer "You" (the table; the replay viewer names every seat)."""
    info: GameInfo = field(init=False)
    card_names: tuple[str, ...] = field(init=False)
    """Every card name of the pack in play, by card index."""
    cards: frozenset[str] = field(init=False)
    actions: list[list[str]] = field(init=False)
    """Every action of the hand as ``[agent, action]``, as the viewer saw it (``env.public_actions``)."""

    def __post_init__(self) -> None:
        self.info = game_info(self.env.game_name)
        self.card_names = deck_cards(self.env.deck)
        self.cards = frozenset(self.card_names)
        self.actions = self.env.public_actions(self.viewer)

    def shown_card(self, action: str) -> str | None:
        """The card an action of ``actions`` names after its ``kind:``; ``HIDDEN_CARD`` where the viewer did
        not see it (``turn:?``)."""
        return HIDDEN_CARD if is_hidden(action) else action.partition(":")[2]

    def is_card(self, text: str) -> bool:
        return text in self.cards

    @property
    def agents(self) -> list[str]:
        return list(self.env.possible_agents)

    @property
    def sees_all(self) -> bool:
        return self.viewer is None

    def is_viewer(self, agent: str | None) -> bool:
        """Whether the view may show what only ``agent`` knows: ``agent`` is the viewer, or the view is
        the replay viewer's full one."""
        return self.viewer is None or agent == self.viewer

    @property
    def deck(self) -> str:
        return self.info.deck

    def suit(self, suit: str) -> str:
        return suit_name(self.deck, suit)

    def card(self, card: str) -> str:
        return card_label(self.deck, card)

    def is_you(self, agent: str | None) -> bool:
        return self.address_viewer and agent is not None and agent == self.viewer

    def name(self, agent: str | None) -> str:
        """How texts name a seat: "You" for the viewer at the table, else the seat's name."""
        return "You" if self.is_you(agent) else str(agent)

    def verb(self, agent: str | None, third_person: str, second_person: str) -> str:
        """``"player_1 receives"`` but ``"You receive"``: the verb form that agrees with ``name(agent)``."""
        return second_person if self.is_you(agent) else third_person


def base_view(ctx: ViewContext, phase_labels: dict[str, str]) -> dict:
    """The fields every game's view has; game modules fill in the rest."""
    st = ctx.state
    phase = st["phase"]
    to_act = st["current_player"]
    return {
        "game": ctx.info.name,
        "title": ctx.info.title,
        "deck": ctx.deck,
        "config": dict(getattr(ctx.env, "config", {})),
        "viewer": ctx.viewer,
        "agents": ctx.agents,
        "dealer": ctx.agents[st["dealer"]],
        "phase": phase,
        "phase_label": phase_labels.get(phase, phase),
        "to_act": to_act,
        "over": to_act is None,
        "move_number": len(st["history"]),
        "seats": [],
        "legal": [],
        "prompt": None,
        "facts": [],
        "piles": [],
        "trick": None,
        "last_trick": None,
        "tricks": [],
        "log": [],
        "talk": [],
        "result": None,
        "card_rule": None,
        "hand_marks": {},
        "after_silence": [],
    }


def seat_entries(ctx: ViewContext, roles: dict[str, list[str]], said: dict[str, str] | None = None,
                 teams: dict[str, str] | None = None, inactive: set[str] | frozenset = frozenset(),
                 hand_order=None) -> list[dict]:
    """One entry per seat: its cards when the viewer may see them (sorted by ``hand_order(card)``, the
    game's order under the contract, where given), else only how many it holds."""
    st = ctx.state
    won = tricks_won_by_seat(st["tricks"], ctx.agents)
    points = st.get("points") or {}
    entries = []
    for agent in ctx.agents:
        held = st["hands"][agent]
        entries.append({
            "agent": agent,
            "cards": (list(held) if hand_order is None else sorted(held, key=hand_order))
            if ctx.is_viewer(agent) else None,
            "count": len(held),
            "roles": roles.get(agent, []),
            "said": (said or {}).get(agent),
            "team": (teams or {}).get(agent),
            "tricks": won[agent],
            "points": points.get(agent),
            "active": agent not in inactive,
        })
    return entries


def tricks_won_by_seat(tricks: list[dict], agents: list[str]) -> dict[str, int]:
    counts = dict.fromkeys(agents, 0)
    for trick in tricks:
        counts[trick["winner"]] += 1
    return counts


def trick_entry(leader: str | None, cards: list, winner: str | None = None, **extra) -> dict:
    return {"leader": leader, "cards": [{"agent": a, "card": c} for a, c in cards], "winner": winner, **extra}


def completed_tricks(st: dict, fields: tuple[str, ...] = ()) -> list[dict]:
    """The completed tricks (public in every game: each card was played face up), each with the further
    ``fields`` of its ``state()`` entry that a game has (Knüffeln: ``face_down_accepted``)."""
    return [trick_entry(t["leader"], t["cards"], t["winner"], **{name: t[name] for name in fields})
            for t in st["tricks"]]


def current_trick(st: dict, face_down_first: bool = False) -> dict | None:
    """The trick in progress; its first card replaced by ``HIDDEN_CARD`` when it lies face down."""
    if not st["trick"]:
        return None
    cards = [list(pair) for pair in st["trick"]]
    if face_down_first:
        cards[0][1] = HIDDEN_CARD
    return trick_entry(cards[0][0], cards, face_down=face_down_first)


def add_role(roles: dict[str, list[str]], agent: str | None, role: str) -> None:
    if agent is not None:
        roles.setdefault(agent, []).append(role)


def action_entry(ctx: ViewContext, action: str, describe) -> dict:
    """A legal action of the viewer as the browser offers it: a verb (how it is taken), the card it
    concerns if any, and a label."""
    head, _, tail = action.partition(":")
    if tail and head in ("turn", "show", "discard", "exchange"):
        return {"action": action, "verb": head, "card": tail, "label": describe(action)}
    if head in ("say", "token"):
        return {"action": action, "verb": head, "card": None, "label": describe(action)}
    if ctx.is_card(action):
        return {"action": action, "verb": "play", "card": action, "label": ctx.card(action)}
    return {"action": action, "verb": "button", "card": None, "label": describe(action)}


def legal_entries(ctx: ViewContext, describe) -> list[dict]:
    """The viewer's legal actions when it is the viewer's turn (never another seat's)."""
    if ctx.viewer is None or ctx.state["current_player"] != ctx.viewer:
        return []
    return [action_entry(ctx, action, describe) for action in ctx.env.legal_action_strings()]


def log_entries(ctx: ViewContext, describe) -> list[dict]:
    """The hand's actions in order, each as the viewer saw it (``ctx.actions``)."""
    return [{"agent": agent, "action": action, "text": describe(action)} for agent, action in ctx.actions]


def add_play(view: dict, ctx: ViewContext, label, prompt, settlement,
             trick_fields: tuple[str, ...] = (), face_down_first: bool = False, card_rule=None) -> dict:
    """Adds what every view has once its seats and facts are in: the legal moves and the log worded by
    ``label(ctx, action)`` (the log as the viewer saw it: ``ctx.actions``), the completed tricks with their
    ``trick_fields``, the trick in progress (its first card hidden with ``face_down_first``), the line
    ``prompt(view)`` above the viewer's controls, and ``settlement(ctx)`` once the hand is over;
    ``card_rule(ctx, view)``: why the viewer's other cards are not legal now (the page says it when one is
    clicked)."""
    describe = lambda action: label(ctx, action)  # noqa: E731
    view["legal"] = legal_entries(ctx, describe)
    view["log"] = log_entries(ctx, describe)
    view["tricks"] = completed_tricks(ctx.state, trick_fields)
    view["last_trick"] = view["tricks"][-1] if view["tricks"] else None
    view["trick"] = current_trick(ctx.state, face_down_first=face_down_first)
    view["prompt"] = prompt(view)
    if card_rule is not None:
        view["card_rule"] = card_rule(ctx, view)
    if ctx.state["result"] is not None:
        view["result"] = settlement(ctx)
    return view


def follow_rule(ctx: ViewContext, view: dict, category, category_name, fallback: str) -> str | None:
    """Why some of the viewer's cards may not be played now: ``"… was led: you must follow with a trump"``
    when every legal card is of the led card's ``category(card)`` (its effective suit), else ``fallback``
    (the game's other restrictions). ``None`` when every card may be played or none is to be played."""
    legal = {entry["card"] for entry in view["legal"] if entry["verb"] == "play"}
    hand = set(ctx.state["hands"][ctx.viewer]) if ctx.viewer is not None else set()
    if not legal or legal >= hand:
        return None
    trick = ctx.state["trick"]
    if trick:
        led = trick[0][1]
        if all(category(card) == category(led) for card in legal):
            return (f"{ctx.card(led)} was led: you must follow with {category_name(category(led))} while you "
                    "hold one (no obligation to beat it).")
    return fallback


def describe_common(ctx: ViewContext, action: str) -> str | None:
    """Texts shared by the Schafkopf games (bids, calls, trump, doubling, cards)."""
    if action in CONTRACT_NAMES:
        return CONTRACT_NAMES[action]
    if action in FIXED_ACTION_LABELS:
        return FIXED_ACTION_LABELS[action]
    head, _, tail = action.partition(":")
    if head == "trump" and tail:
        return f"trump: {ctx.suit(tail)}"
    if ctx.is_card(action):
        return ctx.card(action)
    return None


def settlement_by_agent(ctx: ViewContext, settlement: list[float]) -> dict[str, float]:
    return {agent: float(units) for agent, units in zip(ctx.agents, settlement, strict=True)}


def signed(units: float) -> str:
    return f"{units:+g}"
