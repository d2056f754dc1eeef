"""The table server's resident memory while replay files are uploaded again and again.

Starts the server (``play.server``) in its own process on 127.0.0.1 (a free port), uploads ``--uploads``
files of ``--megabytes`` MiB each (default 50 of the largest accepted, ``MAX_UPLOAD_BYTES``) to
``POST /api/replays``, one after the other, and reads the server's resident set size (``VmRSS``) after each
and its peak (``VmHWM``) from Linux's ``/proc``. Then it stops the server. It prints one JSON object
(``rss_mib`` per upload, ``peak_mib``, ``stored_bytes_limit_mib``); ``--limit-mib`` (default 1024) makes
the exit status 1 when the peak reaches it.

Two kinds of file (``--kind``): ``records``, real game records (random Knüffeln hands with talk, the
longest records) repeated to the size, as JSON lines; ``pairs``, one record whose action list is as many
short pairs as fit, the text that takes the most memory once parsed.
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import numpy as np

from play.replay import MAX_STORED_BYTES
from play.server import MAX_UPLOAD_BYTES
from trick_core.checks import positive_int
from trick_core.command_line import checked, command_prog
from trick_core.registry import make_env

HOST = "127.0.0.1"
SERVER = """
import sys, uvicorn
from play.server import AppSettings, create_app
uvicorn.run(create_app(AppSettings(bot_delay=0.0)), host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def memory_mib(pid: int) -> tuple[float, float]:
    """``(VmRSS, VmHWM)`` of a process in MiB."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return tuple(int(fields[name].split()[0]) / 1024 for name in ("VmRSS", "VmHWM"))


def game_records(count: int) -> list[str]:
    """``count`` records of random Knüffeln hands with talk, as JSON lines."""
    env = make_env("knuffeln", talk="lexicon").unwrapped
    rng = np.random.default_rng(0)
    lines = []
    for seed in range(count):
        env.reset(seed=seed)
        while env.agents and not all(env.terminations.values()):
            env.step(int(rng.choice(env.legal_actions())))
        lines.append(json.dumps(env.game_record()))
    return lines


def upload_body(kind: str, size: int) -> bytes:
    """A file of at most ``size`` bytes that the server accepts (module docstring)."""
    if kind == "pairs":
        pair = '["player_0","EO"],'
        head = '{"game":"bavarian","config":{},"deal":{},"result":null,"actions":['
        count = (size - len(head) - 2) // len(pair)
        return (head + pair * (count - 1) + pair[:-1] + "]}").encode()
    lines = game_records(50)
    body, total, index = [], 0, 0
    while total + len(lines[index % len(lines)]) + 1 <= size:
        line = lines[index % len(lines)]
        body.append(line)
        total += len(line) + 1
        index += 1
    return "\n".join(body).encode()


def post(url: str, body: bytes) -> int:
    request = urllib.request.Request(url, data=body, method="POST", headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=300) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as err:
        return err.code


def wait_until_up(url: str, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server ended with {server.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError("the server did not answer within 120 s")


def run(uploads: int, megabytes: float, kind: str) -> dict:
    body = upload_body(kind, min(int(megabytes * 2**20), MAX_UPLOAD_BYTES))
    port = free_port()
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(port)])
    try:
        wait_until_up(f"http://{HOST}:{port}/api/catalog", server)
        start_mib = memory_mib(server.pid)[0]
        rss, statuses = [], []
        started = time.perf_counter()
        for _ in range(uploads):
            statuses.append(post(f"http://{HOST}:{port}/api/replays?name=big", body))
            rss.append(round(memory_mib(server.pid)[0], 1))
        seconds = time.perf_counter() - started
        peak = memory_mib(server.pid)[1]
    finally:
        server.terminate()
        server.wait(timeout=60)
    return {"benchmark": "server_memory", "kind": kind, "uploads": uploads, "upload_mib": round(len(body) / 2**20, 2),
            "statuses": sorted(set(statuses)), "rss_start_mib": round(start_mib, 1), "rss_mib": rss,
            "peak_mib": round(peak, 1), "stored_bytes_limit_mib": MAX_STORED_BYTES // 2**20,
            "seconds": round(seconds, 1)}


def check(args: argparse.Namespace) -> None:
    """The options, checked before the server starts: ``ValueError`` naming the first bad one."""
    positive_int(args.uploads, "--uploads")
    if not 0 < args.megabytes <= MAX_UPLOAD_BYTES / 2**20:
        raise ValueError(f"--megabytes must lie in (0, {MAX_UPLOAD_BYTES / 2**20:g}], got {args.megabytes}")
    if not args.limit_mib > 0:
        raise ValueError(f"--limit-mib must be positive, got {args.limit_mib}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=command_prog(), description=__doc__.split("\n\n")[0])
    parser.add_argument("--uploads", type=int, default=50)
    parser.add_argument("--megabytes", type=float, default=MAX_UPLOAD_BYTES / 2**20)
    parser.add_argument("--kind", choices=("records", "pairs"), default="records")
    parser.add_argument("--limit-mib", type=float, default=1024.0)
    args = checked(parser.parse_args(argv), check)
    result = run(args.uploads, args.megabytes, args.kind)
    result["limit_mib"] = args.limit_mib
    print(json.dumps(result))
    return 0 if result["peak_mib"] < args.limit_mib else 1


if __name__ == "__main__":
    sys.exit(main())
