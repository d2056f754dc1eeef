"""``python -m play``: start the table's web server and print its address.

    python -m play                          # http://127.0.0.1:8000/
    python -m play --port 0                 # any free port
    python -m play --bots "mypkg.bots:make_agent" "pimc[samples=50]"   # offer more bots
    python -m play --records arena_out/records.jsonl                     # open in the replay viewer
"""

from __future__ import annotations

import contextlib
import socket
from dataclasses import dataclass
from pathlib import Path

import tyro

from trick_core.command_line import checked, command_prog, program_name


@dataclass
class Args:
    """Start the table's web server and print its address."""

    host: str = "127.0.0.1"
    """Address to listen on. The default answers this computer only; another address exposes the table."""
    port: int = 8000
    """Port to listen on; 0 picks a free one."""
    bot_delay: float = 0.8
    """Seconds each bot move is held back at least, so that a person can follow the play."""
    bots: tuple[str, ...] = ()
    """More bots to offer besides rules, pimc, random, pimc_random and nested_pimc: any ``agents.make``
    name, e.g. a plug-in ``"package.module:attr"`` or ``"pimc[samples=50]"``."""
    records: tuple[Path, ...] = ()
    """Game-record files (``agents.arena --records`` JSON lines, or JSON) to open in the replay viewer."""
    rules_dir: Path | None = None
    """Folder of the rules pages (default: the project's ``docs/rules``, in the wheel ``play/rules_docs``)."""
    max_sessions: int = 64
    """Tables kept at once; the longest idle one makes room for a new one."""
    open_browser: bool = False
    """Open the table in the default web browser once the server runs."""


def free_port(host: str) -> int:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def check_bots(names: tuple[str, ...]) -> None:
    """Every extra bot must be an agent of at least one game (a typo fails here, not at the table):
    ``ValueError`` naming the first that is not."""
    import agents
    from trick_core.registry import GAME_NAMES as GAMES

    for name in names:
        problems = []
        for game in GAMES:
            try:
                agents.make(name, game)
                break
            except Exception as err:  # a plug-in may fail in any way; report it
                problems.append(f"{game}: {err}")
        else:
            raise ValueError(f"--bots {name!r} makes no agent: " + "; ".join(problems))


def check(args: Args) -> None:
    """The options, checked before the server is built: ``ValueError`` naming the first bad one (the record
    files are read, and a bad one named, when the server is built)."""
    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port must be in 0..65535, got {args.port}")
    if not args.bot_delay >= 0:
        raise ValueError(f"--bot-delay must be at least 0, got {args.bot_delay}")
    if args.max_sessions < 1:
        raise ValueError(f"--max-sessions must be positive, got {args.max_sessions}")
    for path in args.records:
        if not Path(path).is_file():
            raise ValueError(f"--records {str(path)!r}: no such file")
    if args.rules_dir is not None and not Path(args.rules_dir).is_dir():
        raise ValueError(f"--rules-dir {str(args.rules_dir)!r}: no such folder")
    check_bots(args.bots)


def main(args: Args) -> None:
    import uvicorn

    from .server import LOOPBACK_HOSTS, AppSettings, TableServer, create_app

    check(args)
    port = args.port or free_port(args.host)
    loopback = args.host in LOOPBACK_HOSTS
    settings = AppSettings(
        bot_delay=args.bot_delay,
        extra_bots=args.bots,
        max_sessions=args.max_sessions,
        record_files=args.records,
        allowed_hosts=LOOPBACK_HOSTS if loopback else ("*",),
        **({"rules_dir": args.rules_dir} if args.rules_dir is not None else {}),
    )
    try:
        app = create_app(settings)
    except (OSError, ValueError) as err:
        raise SystemExit(f"{program_name()}: {err}") from None
    shown_host = f"[{args.host}]" if ":" in args.host else args.host
    address = f"http://{shown_host}:{port}/"
    print(f"The table: {address}   (replay viewer: {address}replay; stop with Ctrl+C)", flush=True)
    if args.open_browser:
        import webbrowser

        webbrowser.open(address)
    server = TableServer(uvicorn.Config(app, host=args.host, port=port, log_level="warning"))
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl+C is how the table stops
        server.run()


if __name__ == "__main__":
    main(checked(tyro.cli(Args, prog=command_prog()), check))
