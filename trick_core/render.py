"""The text table of ``render()``, in one format for every env.

An env's ``_render_text`` writes its own header (game, dealer, phase, contract) and the details of each seat;
the lines every trick-taking game shows alike are built here: a line per seat with ``*`` before the one to
act, the finished tricks (``trick 3: 1:EA   2:E7   3:EK   0:E10  -> player_1``: seat number, card, in
playing order), the trick in progress and the settlement. They read the env's ``state()`` dictionary.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence


def seat_lines(state: dict, agents: Iterable[str], details: Callable[[str], str]) -> list[str]:
    """One line per seat: ``*`` marks the seat to act, then the agent and ``details(agent)``."""
    return [f"{'*' if agent == state['current_player'] else ' '} {agent}: {details(agent)}" for agent in agents]


def played_cards(cards: Sequence, first_face_down: bool = False) -> str:
    """``[(agent, card), ...]`` as ``seat:card`` in playing order; a face-down first card shows as ``??``."""
    return "  ".join(
        f"{agent[-1]}:{'??' if i == 0 and first_face_down else card:<3}" for i, (agent, card) in enumerate(cards)
    ).rstrip()


def trick_lines(
    state: dict, note: Callable[[dict], str] = lambda trick: "", first_face_down: bool = False
) -> list[str]:
    """The finished tricks (``note(trick)`` appended to each) and the trick in progress, if any."""
    lines = [
        f"trick {number}: {played_cards(trick['cards'])}  -> {trick['winner']}{note(trick)}"
        for number, trick in enumerate(state["tricks"], start=1)
    ]
    if state["trick"]:
        lines.append("trick in progress: " + played_cards(state["trick"], first_face_down))
    return lines


def settlement(agents: Iterable[str], amounts: Iterable[float]) -> str:
    """Each agent's result in units, signed: ``player_0 +3  player_1 -1 ...``."""
    return "  ".join(f"{agent} {amount:+g}" for agent, amount in zip(agents, amounts, strict=True))
