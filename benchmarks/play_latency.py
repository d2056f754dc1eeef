"""How responsive the table's server stays while bots think: ``python -m benchmarks.play_latency``.

Starts the server in-process (uvicorn on a free loopback port), seats a random-playing "human" against
three bots at one table per game, and while the bots are to act keeps asking the server for its catalog
and the table's view. Prints JSON: per game the hand's wall time, the moves played, and the latency of
those requests (each sample the mean of one catalog and one view request; median, 95th percentile and
max in ms), plus how long building one seat's view takes in-process.
"""

from __future__ import annotations

import json
import random
import socket
import statistics
import threading
import time
from dataclasses import dataclass

import tyro

from benchmarks.timing import GAMES, check_games, check_positive


@dataclass
class Args:
    """How responsive the table's server stays while bots think."""

    bot: str = "pimc"
    """The bot on every seat but the human's."""
    bot_delay: float = 0.3
    """Seconds each bot move is held back at least (the server's ``--bot-delay``)."""
    games: tuple[str, ...] = GAMES
    hands: int = 1
    """Hands per game."""
    seed: int = 0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def view_build_ms(game: str, seed: int, repeats: int = 200) -> float:
    from play.catalog import make_env
    from play.views import table_view

    env = make_env(game, {})
    env.reset(seed=seed)
    table_view(env, "player_0")
    started = time.perf_counter()
    for _ in range(repeats):
        table_view(env, "player_0")
    return (time.perf_counter() - started) / repeats * 1000


def answer(response) -> dict:
    """The server's JSON answer, or ``RuntimeError`` with the server's own message (an unknown bot, a
    refused move) instead of a ``KeyError`` on the error's JSON."""
    if response.is_error:
        raise RuntimeError(f"the table's server answered {response.status_code} to {response.request.method} "
                           f"{response.request.url.path}: {response.text[:500]}")
    return response.json()


def play_one_game(client, url: str, args: Args, game: str) -> dict:
    from play.catalog import default_seats

    rng = random.Random(args.seed)
    latencies, moves, started = [], 0, time.perf_counter()
    bots = {f"player_{k}": args.bot for k in range(1, default_seats(game))}
    view = answer(client.post(url + "/api/sessions",
                              json={"game": game, "seat": "player_0", "bots": bots, "seed": args.seed}))
    for hand in range(args.hands):
        while not view["over"]:
            if view["legal"]:
                entry = rng.choice(view["legal"])
                move = {"action": entry["action"], "hand": view["hand_number"], "move": view["move_number"]}
                view = answer(client.post(url + f"/api/sessions/{view['session']}/move", json=move))
                continue
            asked = time.perf_counter()
            answer(client.get(url + "/api/catalog"))
            view = answer(client.get(url + f"/api/sessions/{view['session']}"))
            latencies.append((time.perf_counter() - asked) * 1000 / 2)
            time.sleep(0.01)
        moves += view["move_number"]
        if hand + 1 < args.hands:
            view = answer(client.post(url + f"/api/sessions/{view['session']}/next",
                                      json={"hand": view["hand_number"]}))
    return {
        "hands": args.hands,
        "moves": moves,
        "wall_s": round(time.perf_counter() - started, 2),
        "requests_while_bots_think": len(latencies),
        "latency_ms": {"median": round(statistics.median(latencies), 2), "p95": round(percentile(latencies, 0.95), 2),
                       "max": round(max(latencies), 2)} if latencies else None,
        "view_build_ms": round(view_build_ms(game, args.seed), 3),
    }


def check(args: Args) -> None:
    """The options, checked before the server starts: ``ValueError`` naming the first bad one."""
    from play.session import BUILTIN_BOTS

    check_positive(args, "hands", "bot_delay", zero_allowed=("bot_delay",))
    check_games(args.games, GAMES)
    if args.bot not in BUILTIN_BOTS:  # the server offers these (no --bots of its own here)
        raise ValueError(f"--bot {args.bot!r} is not one of the table's bots {list(BUILTIN_BOTS)}")


def main(args: Args) -> None:
    import httpx
    import uvicorn

    from play.server import AppSettings, create_app

    check(args)
    app = create_app(AppSettings(bot_delay=args.bot_delay))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    url = f"http://127.0.0.1:{port}"
    results = {"bot": args.bot, "bot_delay_s": args.bot_delay, "games": {}}
    with httpx.Client(timeout=60) as client:
        for game in args.games:
            results["games"][game] = play_one_game(client, url, args, game)
    server.should_exit = True
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    from trick_core.command_line import checked, command_prog

    main(checked(tyro.cli(Args, prog=command_prog()), check))
