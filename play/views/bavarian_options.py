"""What the Bavarian view reads from the env's kernel for the rule options of ``schafkopf_env.bavarian_v0``
(``tariff``, ``pack``, ``doubling``, ``klopfen``, ``ramsch``, ``geier``, ``farbwenz``, ``bettel``).

The view asks the kernel rather than branching on contract names, so a contract the env adds later is
still drawn right: the trump kind of the contract (``schafkopf_env.trumps``: which cards are trumps and
their order, which decides the hand's sorting and which cards follow a suit), the tariff's entries for the
contract's family, the hand size of the pack, and the stake (each knock and each Kontra / Re doubles it).
These are all public: the contract, the bids and the doubles are announced; the tariff and the pack are
the table's rules. The settlement is read from the env's result and explained from the same entries the
kernel settles with (``schafkopf_env.bavarian.scoring.value_with``).
"""

from __future__ import annotations

from schafkopf_env.bavarian import layout, tables
from schafkopf_env.trumps import TRUMP_BETTEL, TRUMP_FARBWENZ, TRUMP_GEIER, TRUMP_WENZ

from .common import ViewContext

BAVARIAN_OPTION_LABELS = {
    "contra": "Kontra (double the stake)",
    "re": "Re (double again)",
    "no_double": "No double",
    "knock": "Knock (double the stake)",
    "no_knock": "Don't knock",
}
"""The Bavarian words for the doubling and Klopfen actions (the Palatinate games say Contra)."""


def kernel_field(ctx: ViewContext, index: int) -> int:
    """One entry of the env's kernel state (``schafkopf_env.bavarian.layout``)."""
    return int(ctx.env.unwrapped.kernel_state()[index])


def bavarian_trump_kind(ctx: ViewContext) -> int | None:
    """The contract's trump kind (``schafkopf_env.trumps``) as the kernel set it; ``None`` before the
    contract is fixed (a Ramsch: hearts, as a Rufer)."""
    kind = kernel_field(ctx, layout.S_TRUMP_KIND)
    return None if kind < 0 else kind


def hide_unseen_cards(ctx: ViewContext, view: dict) -> None:
    """At Klopfen each seat has seen only the first half of its hand (``bavarian_v0``, option ``klopfen``):
    the seats show that half, the rest is not yet dealt as far as the table shows."""
    if ctx.state["phase"] != "klopfen":
        return
    for seat, entry in enumerate(view["seats"]):
        first = kernel_field(ctx, layout.S_FIRST_CARDS + seat)
        seen = {name for card, name in enumerate(ctx.card_names) if first >> card & 1}
        if entry["cards"] is not None:
            entry["cards"] = [card for card in entry["cards"] if card in seen]
        entry["count"] = len(seen)


def hand_size(ctx: ViewContext) -> int:
    """Cards a hand holds, and tricks a hand has: 8 with the long pack, 6 with the short one."""
    return kernel_field(ctx, layout.S_PARAMS + tables.PARAM_HAND_SIZE)


def trumps_text(ctx: ViewContext, kind: int) -> str:
    """The trumps of a trump kind in words, from the highest."""
    if kind == TRUMP_WENZ:
        return "the four Unters only"
    if kind == TRUMP_GEIER:
        return "the four Obers only (Unters in their suits)"
    if kind == TRUMP_BETTEL:
        return "none (every suit A K O U 10 9 8 7)"
    if kind >= TRUMP_FARBWENZ:
        return f"the four Unters, then {ctx.suit('EGHS'[kind - TRUMP_FARBWENZ])} (Obers in their suits)"
    return f"Obers, Unters and {ctx.suit('EGHS'[kind])}"


def stake_factor(st: dict) -> int:
    """Each knock and each Kontra / Re doubles the hand's value (``doubling.stakes_factor``)."""
    return 2 ** (len(st["knocked"]) + len(st["doublers"]))


def stake_facts(ctx: ViewContext) -> list[list[str]]:
    """The table's rules where they are not the default, the knocks, the doubles and the stake they make."""
    st = ctx.state
    config = st.get("config") or {}
    facts = []
    if config.get("pack") == "short":
        facts.append(["Pack", f"short: 24 cards, {hand_size(ctx)} a hand (no 8s or 7s)"])
    tariff = config.get("tariff", "card")
    if tariff != "card":
        facts.append(["Tariff", "sauspiel.de (in cents)" if tariff == "sauspiel" else "custom"])
    if st["knocked"]:
        facts.append(["Knocked", ", ".join(ctx.name(agent) for agent in st["knocked"])])
    if st["doublers"]:
        calls = ["Kontra"] + ["Re"] * (len(st["doublers"]) - 1)
        facts.append(["Doubled", ", ".join(f"{call} by {ctx.name(agent)}"
                                            for call, agent in zip(calls, st["doublers"], strict=True))])
    if stake_factor(st) > 1:
        facts.append(["Stake", f"× {stake_factor(st)} ({stake_reasons(st)})"])
    return facts


def stake_reasons(st: dict) -> str:
    knocks, doubles = len(st["knocked"]), len(st["doublers"])
    parts = [f"{knocks} knock{'s' if knocks != 1 else ''}"] if knocks else []
    parts += [f"{doubles} double{'s' if doubles != 1 else ''}"] if doubles else []
    return ", ".join(parts)


def tariff_entry(ctx: ViewContext, key: int) -> int:
    """The tariff's entry ``key`` (``tables.TARIFF_BASE`` ...) for the contract's family, as the kernel reads
    it (``scoring.tariff_entry``)."""
    contract = kernel_field(ctx, layout.S_CONTRACT)
    family_start = int(tables.FAMILY_PARAM_START[tables.FAMILY_OF_CONTRACT[contract]])
    return kernel_field(ctx, layout.S_PARAMS + family_start + key)


def contract_value(ctx: ViewContext, title: str) -> tuple[bool, int, str]:
    """Whether the declarer's side won, the value per opponent before the stake and its formula
    (``scoring.value_with`` from the public totals at the end of the hand, by the kernel's tariff entries):
    ``"Sauspiel 1 + Schneider 1 + 3 Laufende = 5"``, ``"(Wenz Tout 50 + 2 Laufende × 10) × 2 = 140"``."""
    st = ctx.state
    contract, size, laufende = st["contract"], hand_size(ctx), st["laufende"]
    points, tricks = st["declarer_side_points"], st["declarer_side_tricks"]
    base, per_lauf = tariff_entry(ctx, tables.TARIFF_BASE), tariff_entry(ctx, tables.TARIFF_LAUFENDE)

    def laufende_part(count: int) -> tuple[str, int]:
        return (f"{count} Laufende" if per_lauf == 1 else f"{count} Laufende × {per_lauf}"), count * per_lauf

    if contract == "bettel":
        return tricks == 0, base, f"{title} {base}"
    parts = [(f"{title} {base}", base)]
    factor, won = 1, points >= 61
    if contract == "sie":
        parts.append(laufende_part(size))
        factor, won = tables.SIE_FACTOR, True
    elif contract.endswith("_tout"):
        parts += [laufende_part(laufende)] if laufende else []
        factor, won = tables.TOUT_FACTOR, not st["tout_lost"] and tricks == size
    else:
        schneider = tariff_entry(ctx, tables.TARIFF_SCHNEIDER_SCHWARZ)
        if schneider and tricks in (0, size):
            parts.append((f"Schwarz {2 * schneider}", 2 * schneider))
        elif schneider and (points >= 91 or points <= 30):
            parts.append((f"Schneider {schneider}", schneider))
        parts += [laufende_part(laufende)] if laufende else []
    total = sum(units for _, units in parts)
    formula = " + ".join(text for text, _ in parts)
    if factor > 1:
        formula = f"({formula}) × {factor}" if len(parts) > 1 else f"{formula} × {factor}"
    if len(parts) > 1 or factor > 1:
        formula += f" = {factor * total}"
    return won, factor * total, formula


def value_line(st: dict, formula: str, value: int) -> str:
    """``"Value: Sauspiel 1 + Schneider 1 = 2, × 4 (1 knock, 1 double) = 8 units."``"""
    factor = stake_factor(st)
    if factor > 1:
        formula += f", × {factor} ({stake_reasons(st)}) = {value * factor}"
    total = value * factor
    return f"Value: {formula} {'unit' if total == 1 else 'units'}."


def ramsch_settlement(ctx: ViewContext, settlement: dict[str, float]) -> dict:
    """A Ramsch's result (``docs/rules/bavarian_schafkopf.md``, Ramsch): every player for itself; the one
    with the most card points pays each other player, unless one took every trick (Durchmarsch) and is paid."""
    st = ctx.state
    points = st["points"]
    lines = ["Everybody passed: a Ramsch. Hearts trumps as in a Sauspiel, every player for itself; the "
             "player with the most card points pays.",
             "Card points: " + ", ".join(f"{ctx.name(agent)} {points[agent]}" for agent in ctx.agents) + "."]
    winners = [agent for agent in ctx.agents if settlement[agent] > 0]
    losers = [agent for agent in ctx.agents if settlement[agent] < 0]
    if len(winners) == 1 and len(losers) == len(ctx.agents) - 1:
        marcher = winners[0]
        lines.append(f"Durchmarsch: {ctx.name(marcher)} took {points[marcher]} card points in "
                     f"{st['tricks_won'][marcher]} tricks and {ctx.verb(marcher, 'is', 'are')} paid "
                     f"{settlement[marcher]:g} units by the others.")
    elif losers:
        loser = losers[0]
        paid = -settlement[loser]
        lines.append(f"{ctx.name(loser)} took the most card points ({points[loser]}) and "
                     f"{ctx.verb(loser, 'pays', 'pay')} {paid:g} unit{'' if paid == 1 else 's'} in all.")
        virgins = [agent for agent in ctx.agents if st["tricks_won"][agent] == 0]
        jungfrau = tables.JUNGFRAU_RULES[kernel_field(ctx, layout.S_PARAMS + tables.PARAM_RAMSCH_JUNGFRAU)]
        if virgins and jungfrau is not None:
            lines.append("Jungfrau (no trick taken): " + ", ".join(ctx.name(agent) for agent in virgins)
                         + f"; the tariff's Jungfrau rule ({jungfrau.replace('_', ' ')}) raises the payments.")
    if stake_factor(st) > 1:
        lines.append(f"Stake × {stake_factor(st)} ({stake_reasons(st)}).")
    value = int(max((abs(units) for units in settlement.values()), default=0))
    return {"settlement": settlement, "value": value, "declarer_won": None, "lines": lines}
