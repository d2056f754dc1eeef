"""What every game's view shares: the frame of the view, seats, tricks, legal moves and the log.

A *view* is the JSON the browser draws a table from. ``viewer`` is the seat it is built for, or ``None``
for the replay viewer's "every hand visible" mode. For a seat, a view holds only what that seat may
know under the rules (the env module docstrings' observation tables say what that is): its own cards,
the public record of the hand, and nothing else. Each game module adds its own public facts and redacts
the actions whose card only some seats see (the ``public_action`` function it gives ``log_entries``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..catalog import CONTRACT_NAMES, FIXED_ACTION_LABELS, GameInfo, card_label, deck_cards, game_info, suit_name

HIDDEN_CARD = None
"""How a face-down card appears in a view: no name at all (the browser draws a card back)."""


@dataclass
class ViewContext:
    """The env, its full state, and who is looking."""

    env: object
    state: dict
    viewer: str | None
    info: GameInfo = field(init=False)
    card_names: tuple[str, ...] = field(init=False)
    """Every card name of the pack in play, by card index."""
    cards: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        self.info = game_info(self.env.game_name)
        self.card_names = deck_cards(self.info.name, self.env.config)
        self.cards = frozenset(self.card_names)

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
    }


def seat_entries(ctx: ViewContext, roles: dict[str, list[str]], said: dict[str, str] | None = None,
                 teams: dict[str, str] | None = None, inactive: set[str] | frozenset = frozenset()) -> list[dict]:
    """One entry per seat: its cards when the viewer may see them, else only how many it holds."""
    st = ctx.state
    won = tricks_won_by_seat(st["tricks"], ctx.agents)
    points = st.get("points") or {}
    entries = []
    for agent in ctx.agents:
        held = st["hands"][agent]
        entries.append({
            "agent": agent,
            "cards": list(held) if ctx.is_viewer(agent) else None,
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


def log_entries(ctx: ViewContext, public_action, describe) -> list[dict]:
    """The hand's actions in order, each as the viewer may see it."""
    entries = []
    for index, (agent, action) in enumerate(ctx.state["history"]):
        shown = public_action(index, agent, action)
        entries.append({"agent": agent, "action": shown, "text": describe(shown)})
    return entries


def add_play(view: dict, ctx: ViewContext, label, prompt, settlement, public_action=None,
             trick_fields: tuple[str, ...] = (), face_down_first: bool = False) -> dict:
    """Adds what every view has once its seats and facts are in: the legal moves and the log worded by
    ``label(ctx, action)`` (the log through ``public_action(index, agent, action)`` where some seats may not
    see an action), the completed tricks with their ``trick_fields``, the trick in progress (its first card
    hidden with ``face_down_first``), the line ``prompt(view)`` above the viewer's controls, and
    ``settlement(ctx)`` once the hand is over."""
    describe = lambda action: label(ctx, action)  # noqa: E731
    view["legal"] = legal_entries(ctx, describe)
    view["log"] = log_entries(ctx, public_action or (lambda _i, _agent, action: action), describe)
    view["tricks"] = completed_tricks(ctx.state, trick_fields)
    view["last_trick"] = view["tricks"][-1] if view["tricks"] else None
    view["trick"] = current_trick(ctx.state, face_down_first=face_down_first)
    view["prompt"] = prompt(view)
    if ctx.state["result"] is not None:
        view["result"] = settlement(ctx)
    return view


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
