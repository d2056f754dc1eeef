"""The web server: ``create_app(settings)`` returns the FastAPI app (``python -m play`` runs it with uvicorn).

Routes (every API answer is JSON; every refusal is ``{"error": "..."}`` with a 4xx status):

| route | what |
|---|---|
| ``GET /`` , ``GET /replay`` | the table page and the replay viewer (``play.pages``) |
| ``GET /rules/{game}`` | the game's rules page, rendered from ``docs/rules`` |
| ``GET /api/catalog`` | games, their options, seats and bots (those that play the game), the bots on offer |
| ``POST /api/sessions`` | a new table: ``{game, config, seat, bots, seed}`` -> the table's view |
| ``GET /api/sessions/{id}?after=V&wait=S`` | the view; with ``after``, waits up to ``S`` s for a version > V |
| ``POST /api/sessions/{id}/move`` | ``{action, hand, move}``: the human's move (stale or illegal: 409 / 400) |
| ``POST /api/sessions/{id}/next`` | ``{hand}``: deal the next hand once this one is over |
| ``GET /api/sessions/{id}/hands/{n}/record`` | the game record of a *finished* hand |
| ``GET/POST /api/replays`` | list the opened record files / open one (the request body is the file) |
| ``GET /api/replays/{id}`` , ``GET /api/replays/{id}/frame?record=i&step=k&viewer=all`` | a file's records, one frame |

A view (``play.views``) for a table holds only what the human's seat may know; the replay frames show
what the user asks for (every hand, or one seat's view).
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import uvicorn
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from .catalog import default_seats, game_infos
from .pages import STATIC_DIR, static_page
from .replay import SUMMARIES_SHOWN, ReplayStore, parse_records
from .rules import DEFAULT_RULES_DIR, available_rules, rules_page
from .session import BUILTIN_BOTS, PlayError, SessionStore, TableSettings, bot_notes, bots_for

MAX_UPLOAD_BYTES = 32 * 1024 * 1024
MAX_WAIT_SECONDS = 25.0
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")

log = logging.getLogger("play")


class TableServer(uvicorn.Server):
    """uvicorn's server for the table's app: before it waits for the requests in flight to finish, as a
    stopping server does, it answers the open tables' long polls, which would otherwise hold a Ctrl+C for up
    to ``MAX_WAIT_SECONDS``."""

    async def shutdown(self, sockets=None) -> None:
        self.config.app.state.store.end_waits()
        await super().shutdown(sockets)


@dataclass(frozen=True)
class AppSettings:
    bot_delay: float = 0.8
    extra_bots: tuple[str, ...] = ()
    max_sessions: int = 64
    rules_dir: Path = DEFAULT_RULES_DIR
    record_files: tuple[Path, ...] = ()
    bot_threads: int = 4
    allowed_hosts: tuple[str, ...] = field(default=LOOPBACK_HOSTS)
    """Host headers answered (a guard against DNS rebinding); ``("*",)`` answers any."""


class NewTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=32)
    config: dict[str, bool | int | str] = Field(default_factory=dict, max_length=16)
    seat: str = Field(default="player_0", max_length=16)
    bots: dict[str, str] = Field(default_factory=dict, max_length=8)
    seed: int | None = Field(default=None, ge=0, lt=2**63, strict=True)  # "1" is no seed: refused, not coerced


class Move(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: str = Field(max_length=40)
    hand: int = Field(ge=0)
    move: int = Field(ge=0)


class NextHand(BaseModel):
    model_config = ConfigDict(extra="forbid")
    hand: int = Field(ge=0)


def create_app(settings: AppSettings | None = None) -> FastAPI:
    settings = settings or AppSettings()
    executor = ThreadPoolExecutor(max_workers=settings.bot_threads, thread_name_prefix="bot")
    table_settings = TableSettings(bot_delay=settings.bot_delay, bots=BUILTIN_BOTS + tuple(settings.extra_bots))
    store = SessionStore(table_settings, executor, max_sessions=settings.max_sessions)
    replays = ReplayStore()
    for path in settings.record_files:
        try:
            replays.add(path.name, parse_records(path.read_text(encoding="utf-8")))
        except PlayError as err:
            raise ValueError(f"record file {path}: {err.message}") from None
        except UnicodeDecodeError:
            raise ValueError(f"record file {path}: not UTF-8 text (a game record is JSON)") from None

    @asynccontextmanager
    async def lifespan(_app: FastAPI):
        yield
        for session in list(store.sessions.values()):
            session.stop()
        executor.shutdown(wait=False, cancel_futures=True)

    app = FastAPI(title="German tricks: the table", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.store = store
    app.state.replays = replays
    app.state.settings = settings
    app.add_middleware(HostGuard, allowed_hosts=settings.allowed_hosts)
    add_error_handlers(app)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    add_page_routes(app, settings)
    add_table_routes(app, store, table_settings, settings)
    add_replay_routes(app, replays)
    return app


class HostGuard:
    """Answers only requests whose ``Host`` header names an allowed host (a guard against DNS rebinding: a
    page of another site cannot reach the table through a name that resolves to 127.0.0.1); any other
    gets the refusal every route gives, ``{"error": ...}`` with status 400. An entry ``"*"`` allows any
    host, ``"*.example.org"`` any subdomain."""

    def __init__(self, app: ASGIApp, allowed_hosts: tuple[str, ...]) -> None:
        self.app = app
        self.allowed_hosts = tuple(host.lower() for host in allowed_hosts)

    def allows(self, header: str | None) -> bool:
        host = host_of_header(header)
        return host is not None and any(
            pattern == "*" or host == pattern or (pattern.startswith("*.") and host.endswith(pattern[1:]))
            for pattern in self.allowed_hosts
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and not self.allows(Headers(scope=scope).get("host")):
            refusal = JSONResponse({"error": "this server answers only on " + ", ".join(self.allowed_hosts)
                                    + " (the Host header names another host)"}, status_code=400)
            await refusal(scope, receive, send)
            return
        await self.app(scope, receive, send)


def host_of_header(header: str | None) -> str | None:
    """The host of a ``Host`` header, lower case, without its port (``[::1]:8000`` -> ``[::1]``); None when
    there is none."""
    if not header:
        return None
    header = header.strip().lower()
    if header.startswith("["):
        end = header.find("]")
        return header[: end + 1] if end > 0 else None
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(PlayError)
    async def play_error(_request: Request, err: PlayError) -> JSONResponse:
        return JSONResponse({"error": err.message}, status_code=err.status)

    @app.exception_handler(RequestValidationError)
    async def bad_request(_request: Request, err: RequestValidationError) -> JSONResponse:
        problems = []
        for error in err.errors()[:5]:
            where = ".".join(str(part) for part in error.get("loc", ()) if part != "body") or "request"
            problems.append(f"{where}: {error.get('msg', 'invalid')}")
        return JSONResponse({"error": "bad request: " + "; ".join(problems)}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, err: StarletteHTTPException) -> JSONResponse:
        """The framework's own refusals (no such route, wrong method, a body it cannot parse) in the same form."""
        return JSONResponse({"error": str(err.detail)}, status_code=err.status_code, headers=err.headers)

    @app.exception_handler(Exception)
    async def unexpected(_request: Request, err: Exception) -> JSONResponse:
        log.exception("unexpected error")
        return JSONResponse({"error": f"internal error ({type(err).__name__}); the table is unchanged"},
                            status_code=500)


def add_page_routes(app: FastAPI, settings: AppSettings) -> None:
    @app.get("/", include_in_schema=False)
    async def table_page() -> HTMLResponse:
        return HTMLResponse(static_page("German tricks: the table", "table_body.html", 'data-state="setup"', "play.js"))

    @app.get("/replay", include_in_schema=False)
    async def replay_page() -> HTMLResponse:
        return HTMLResponse(
            static_page("German tricks: replay viewer", "replay_body.html", 'data-state="empty"', "replay.js")
        )

    @app.get("/rules/{game}", include_in_schema=False)
    async def rules(game: str) -> HTMLResponse:
        try:
            return HTMLResponse(rules_page(game, settings.rules_dir))
        except PlayError as err:
            return HTMLResponse(f"<!doctype html><p>{err.message}</p>", status_code=err.status)


def add_table_routes(app: FastAPI, store: SessionStore, table_settings: TableSettings,
                     settings: AppSettings) -> None:
    @app.get("/api/catalog")
    async def catalog() -> dict:
        rules = available_rules(settings.rules_dir)
        return {
            "games": [
                {"name": info.name, "title": info.title, "deck": info.deck, "rules": rules[info.name],
                 "seats": default_seats(info.name), "rules_page": info.rules_file,
                 "bots": bots_for(info.name, table_settings.bots),
                 "options": [{"name": o.name, "label": o.label, "choices": list(o.choices), "default": o.default,
                              "requires": [{"choice": choice, "option": other, "values": list(values)}
                                           for choice, other, values in o.requires]}
                             for o in info.options]}
                for info in game_infos()
            ],
            "bots": list(table_settings.bots),
            "bot_notes": bot_notes(table_settings.bots),
            "bot_delay": table_settings.bot_delay,
        }

    @app.post("/api/sessions")
    async def new_table(request: NewTable) -> dict:
        session = store.create(request.game, request.config, request.seat, request.bots, request.seed)
        session.start_bots()
        return session.view()

    @app.get("/api/sessions/{session_id}")
    async def table(session_id: str, after: int | None = None, wait: float = 20.0) -> dict:
        session = store.get(session_id)
        if after is not None:
            await session.wait_for_change(after, min(max(wait, 0.0), MAX_WAIT_SECONDS))
        return session.view()

    @app.post("/api/sessions/{session_id}/move")
    async def move(session_id: str, request: Move) -> dict:
        session = store.get(session_id)
        await session.human_move(request.action, request.hand, request.move)
        return session.view()

    @app.post("/api/sessions/{session_id}/next")
    async def next_hand(session_id: str, request: NextHand) -> dict:
        session = store.get(session_id)
        await session.next_hand(request.hand)
        return session.view()

    @app.get("/api/sessions/{session_id}/hands/{number}/record")
    async def hand_record(session_id: str, number: int) -> dict:
        return store.get(session_id).finished_record(number)


def add_replay_routes(app: FastAPI, replays: ReplayStore) -> None:
    def described(replay_set) -> dict:
        return {"id": replay_set.replay_id, "name": replay_set.name, "count": replay_set.count,
                "records": replay_set.summaries[:SUMMARIES_SHOWN]}

    @app.get("/api/replays")
    async def replay_list() -> dict:
        return {"replays": [{"id": s.replay_id, "name": s.name, "count": s.count}
                            for s in replays.sets.values()]}

    @app.post("/api/replays")
    async def open_file(request: Request, name: str = "upload") -> dict:
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_UPLOAD_BYTES:
                raise PlayError(413, f"the file is larger than {MAX_UPLOAD_BYTES // 2**20} MiB")
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            raise PlayError(400, "the file is not UTF-8 text (a game record is JSON)") from None
        del body  # the text is parsed next: the peak of an upload is its parsed records, not three copies
        return described(replays.add(name[:200], parse_records(text)))

    @app.get("/api/replays/{replay_id}")
    async def replay_file(replay_id: str) -> dict:
        return described(replays.get(replay_id))

    @app.get("/api/replays/{replay_id}/frame")
    async def frame(replay_id: str, record: int = 0, step: int = 0, viewer: str = "all") -> dict:
        return replays.frame(replay_id, record, step, None if viewer == "all" else viewer)
