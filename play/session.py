"""Tables in play: one ``TableSession`` per browser game, kept in a ``SessionStore``.

A session owns its env, its bots and its running score; nothing is shared between sessions except the
thread pool the bots think in. Every change to a table happens under the session's lock and raises its
``version``; browsers long-poll ``wait_for_change`` and then fetch ``view()``, the table as the human's
seat may see it (``play.views``).

Bots act in the background: when a bot is to act, a driver task gives it its seat's view
(``trick_core.seat_view.SeatView``: no other seat's cards) of a *clone* of the env in a worker thread (so the
live env is never read while it changes, and the page stays responsive), waits at least ``bot_delay`` seconds
so that a person can follow, and applies the move if the table has not moved on meanwhile. A bot that raises
or answers an illegal action is replaced for that move by a uniformly random legal action and the table says
so (``notice``): a broken plug-in cannot stop a game.

The table does not ask the human what has one answer: a decision with a single legal choice that is not a
card (``"Exchange a ten?"`` with only ``decline``) is answered at once, and the table says so (``auto_note``).
A bot's lead after a finished trick is held back ``TRICK_PAUSE`` times longer, so that the finished trick
stays in view (the page shows it until the next lead).
"""

from __future__ import annotations

import asyncio
import importlib.util
import secrets
import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass

import numpy as np

import agents
from agents.neural import neural_available
from trick_core.bits import derived_seed
from trick_core.seat_view import SeatView

from .catalog import check_config, game_info, make_env
from .views import action_control, table_view


@dataclass(frozen=True)
class BotInfo:
    """A bot the table offers, with what a player should know of its strength (measured, and cited)."""

    name: str
    strength: str
    """One word or two for the setup form."""
    note: str
    """The measurement behind it, with the page that holds it."""
    needs: str | None = None
    """A module the bot needs that only an extra installs (``neural``: torch); without it, it is not offered."""
    plays: Callable[[str], bool] | None = None
    """Whether it plays a game (``neural``: where a network is shipped for it); None: every game."""


BOT_TABLE = (
    BotInfo("rules", "solid", "The rule-based club player: beats random by far in every game, loses to pimc "
            "by 0.25-5.3 units per hand (docs/results.md, pimc vs rules)."),
    BotInfo("pimc", "strongest search", "Determinized search with heuristic playouts: beats rules in every game "
            "(docs/results.md, pimc vs rules) and neural in Bavarian, Knüffeln and Asserufen (docs/training.md)."),
    BotInfo("neural", "strong", "The trained network shipped for the game: beats rules in every game; beats pimc "
            "in Palatinate, loses to it in the other games (docs/training.md, Results).", needs="torch",
            plays=neural_available),
    BotInfo("pimc_dd", "strong", "pimc with the last tricks of each sampled world solved exactly: level with "
            "pimc in every game, no significant margin (docs/results.md, pimc_dd)."),
    BotInfo("nested_pimc", "medium", "Random-playout search that simulates its bids: level with the rule "
            "players of its time in the Schafkopf games, far behind in Knüffeln (docs/results.md, earlier agents)."),
    BotInfo("pimc_random", "weak", "Search with random playouts: lost to the rule players of its time in every "
            "game (docs/results.md, earlier agents)."),
    BotInfo("random", "beginner", "A uniformly random legal move: every other bot beats it by far (docs/results.md)."),
)
"""The bots a browser may seat by default, one line each, strongest-known first after the default (``rules``);
``python -m play --bots`` adds plug-ins (``module:attr``). A bot whose agent is not registered in ``agents``
is left out, as is one whose extra is not installed."""

TRICK_PAUSE = 3.0
"""How many bot delays a bot's lead waits after a finished trick (the trick stays visible meanwhile)."""


def offered_bots() -> tuple[BotInfo, ...]:
    """The bots of ``BOT_TABLE`` that ``agents.make`` knows and whose extra is installed."""
    def available(bot: BotInfo) -> bool:
        registered = bot.name == "rules" or bot.name in agents.BUILTIN_AGENTS
        return registered and (bot.needs is None or importlib.util.find_spec(bot.needs) is not None)
    return tuple(bot for bot in BOT_TABLE if available(bot))


BUILTIN_BOTS = tuple(bot.name for bot in offered_bots())
"""The names of the bots offered by default (``BOT_TABLE``)."""


def bots_for(game: str, names) -> list[str]:
    """The bots of ``names`` that play ``game`` (a bot of ``BOT_TABLE`` whose ``plays`` refuses it is left out;
    a plug-in is offered for every game)."""
    known = {bot.name: bot for bot in BOT_TABLE}
    return [name for name in names if name not in known or known[name].plays is None or known[name].plays(game)]


def bot_notes(names) -> dict[str, dict[str, str]]:
    """Strength and note of each bot name, for the setup form (a plug-in: not measured here)."""
    known = {bot.name: bot for bot in BOT_TABLE}
    plug_in = BotInfo("", "plug-in", "Added with --bots; this project has not measured it.")
    return {name: {"strength": known.get(name, plug_in).strength, "note": known.get(name, plug_in).note}
            for name in names}


class PlayError(Exception):
    """A request the table refuses; ``status`` is the HTTP status, ``message`` says why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def get_or_404(items: dict, key: str, refusal: str):
    """``items[key]``; a 404 ``PlayError`` saying ``refusal`` where there is none."""
    item = items.get(key)
    if item is None:
        raise PlayError(404, refusal)
    return item


@dataclass(frozen=True)
class TableSettings:
    bot_delay: float = 0.8
    """Seconds a bot's move is held back at least, so that a person can follow the play."""
    bots: tuple[str, ...] = BUILTIN_BOTS
    """Agent names a browser may choose (``agents.make`` names); nothing else is ever imported."""


class TableSession:
    """One table: the human's seat, a bot on every other seat, hands dealt one after another."""

    def __init__(self, session_id: str, game: str, config: dict, human: str, bots: dict[str, str],
                 seed: int, settings: TableSettings, executor: Executor) -> None:
        self.session_id = session_id
        self.game = game
        self.config = config
        self.settings = settings
        self.executor = executor
        self.env = make_env(game, config)
        self.human = human
        self.bot_names = bots
        self.bots = {agent: agents.make(name, game) for agent, name in bots.items()}
        self.seed = seed
        self.hand_number = 0
        self.totals = dict.fromkeys(self.env.possible_agents, 0.0)
        self.finished: list[dict] = []
        self.version = 0
        self.thinking: str | None = None
        self.notice: str | None = None
        self.auto_note: str | None = None
        self._paused_after = (0, 0)
        self.last_used = time.monotonic()
        self.lock = asyncio.Lock()
        self._changed = asyncio.Event()
        self.closing = False
        self._driver: asyncio.Task | None = None
        self._deal_next_hand()
        self._answer_forced_questions()

    # ------------------------------------------------------------------ hands

    def _deal_next_hand(self) -> None:
        """Deal a hand: the first dealer is drawn from the seed, then the deal passes to the left."""
        hand_seed = derived_seed(self.seed, self.hand_number)
        if self.hand_number == 0:
            self.env.reset(seed=hand_seed)
        else:
            dealer = (self._dealer_index() + 1) % self.env.num_seats
            self.env.reset(seed=hand_seed, options={"dealer": dealer})
        self.hand_number += 1
        for offset, bot in enumerate(self.bots.values()):
            if callable(getattr(bot, "reset", None)):
                bot.reset(derived_seed(self.seed, self.hand_number, offset))

    def _dealer_index(self) -> int:
        return self.env.unwrapped.state()["dealer"]

    @property
    def current_player(self) -> str | None:
        return self.env.unwrapped.state()["current_player"]

    @property
    def hand_over(self) -> bool:
        return self.current_player is None

    def _settle_if_over(self) -> None:
        if not self.hand_over or (self.finished and self.finished[-1]["number"] == self.hand_number):
            return
        record = self.env.unwrapped.game_record()
        settlement = dict(zip(self.env.possible_agents, record["result"], strict=True))
        for agent, units in settlement.items():
            self.totals[agent] += units
        self.finished.append({"number": self.hand_number, "settlement": settlement, "record": record})

    # ------------------------------------------------------------------ changes

    def _touch(self) -> None:
        """Record a change: bump the version and wake the browsers waiting for one."""
        self.version += 1
        self.last_used = time.monotonic()
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_for_change(self, after_version: int, timeout: float) -> None:
        """Return once ``version`` exceeds ``after_version``, after ``timeout`` seconds, or at once when the
        server is stopping."""
        self.last_used = time.monotonic()
        if self.version > after_version or self.closing:
            return
        try:
            await asyncio.wait_for(self._changed.wait(), timeout)
        except TimeoutError:
            pass

    # ------------------------------------------------------------------ the human

    async def human_move(self, action: str, hand_number: int, move_number: int) -> None:
        """Apply the human's ``action``; ``PlayError`` (the table unchanged) if it is stale or illegal."""
        async with self.lock:
            self._check_fresh(hand_number, move_number)
            if self.hand_over:
                raise PlayError(409, "the hand is over: deal the next hand")
            if self.current_player != self.human:
                raise PlayError(409, f"it is {self.current_player}'s turn, not yours")
            legal = self.env.unwrapped.legal_action_strings()
            if action not in legal:
                raise PlayError(400, f"{action!r} is not a legal move now; legal: {', '.join(legal)}")
            self.notice = self.auto_note = None
            self.env.step(self.env.unwrapped.string_to_action(action))
            self._settle_if_over()
            self._answer_forced_questions()
            self._touch()
        self.start_bots()

    async def next_hand(self, hand_number: int) -> None:
        async with self.lock:
            if hand_number != self.hand_number:
                raise PlayError(409, f"stale request: this is hand {self.hand_number}, not {hand_number}")
            if not self.hand_over:
                raise PlayError(409, "the hand is still being played")
            self.notice = self.auto_note = None
            self._deal_next_hand()
            self._answer_forced_questions()
            self._touch()
        self.start_bots()

    def _check_fresh(self, hand_number: int, move_number: int) -> None:
        moves = len(self.env.unwrapped.state()["history"])
        if hand_number != self.hand_number or move_number != moves:
            raise PlayError(409, f"stale move: the table is at hand {self.hand_number}, move {moves} "
                                 f"(you sent hand {hand_number}, move {move_number}); reload the table")

    # ------------------------------------------------------------------ the bots

    def start_bots(self) -> None:
        """Start the bot driver unless it runs already (it stops when the human is to act or the hand ends)."""
        if self._driver is None or self._driver.done():
            self._driver = asyncio.get_running_loop().create_task(self._drive_bots())

    def end_waits(self) -> None:
        """Answer every browser waiting for a change now, and every later wait at once (the server stops)."""
        self.closing = True
        self._changed.set()

    def stop(self) -> None:
        if self._driver is not None:
            self._driver.cancel()

    async def _drive_bots(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            async with self.lock:
                agent = self.current_player
                if agent is None or agent == self.human:
                    return
                position = (self.hand_number, len(self.env.unwrapped.state()["history"]))
                delay = self.settings.bot_delay * (TRICK_PAUSE if self._trick_just_finished() else 1.0)
                table = SeatView(self.env.unwrapped.clone(), agent)
                self.thinking = agent
                self._touch()
            started = loop.time()
            try:
                action = await loop.run_in_executor(self.executor, self.bots[agent].act, table, agent)
                failure = None
            except Exception as err:  # a bot's bug must not stop the table
                action, failure = None, f"{type(err).__name__}: {err}"
            await asyncio.sleep(max(0.0, delay - (loop.time() - started)))
            async with self.lock:
                self.thinking = None
                if position != (self.hand_number, len(self.env.unwrapped.state()["history"])):
                    continue
                legal = self.env.unwrapped.legal_actions()
                if failure is not None or not _is_legal(action, legal):
                    self.notice = (f"{agent} ({self.bot_names[agent]}) "
                                   f"{'failed: ' + failure if failure else f'chose an illegal action {action!r}'}; "
                                   "a random legal move was played instead")
                    action = int(np.random.default_rng([self.seed, *position]).choice(legal))
                self.env.step(int(action))
                self._settle_if_over()
                self._answer_forced_questions()
                self._touch()

    def _answer_forced_questions(self) -> None:
        """Answer the human's decisions that have one legal choice which is not a card (``"Exchange a ten?"``
        with only ``decline``), and say so: called wherever the table changes, under the lock, so the
        question never reaches the page."""
        while self.current_player == self.human:
            legal = self.env.unwrapped.legal_action_strings()
            if len(legal) != 1:
                return
            control = action_control(self.env, legal[0])
            if control["verb"] != "button":
                return
            self.env.step(self.env.unwrapped.string_to_action(legal[0]))
            self.auto_note = f"Answered for you: {control['label']} (the only choice)."
            self._settle_if_over()

    def _trick_just_finished(self) -> bool:
        """Whether a trick was completed and the next has no card yet (once per trick: the pause it earns)."""
        st = self.env.unwrapped.state()
        position = (self.hand_number, len(st.get("tricks") or ()))
        if st.get("trick") or not st.get("tricks") or position == self._paused_after:
            return False
        self._paused_after = position
        return True

    # ------------------------------------------------------------------ what the browser sees

    def view(self) -> dict:
        """The table as the human's seat may see it, with the session's own fields."""
        self.last_used = time.monotonic()
        view = table_view(self.env, self.human, address_viewer=True)
        view.update({
            "session": self.session_id,
            "version": self.version,
            "hand_number": self.hand_number,
            "human": self.human,
            "bots": dict(self.bot_names),
            "thinking": self.thinking,
            "notice": self.notice,
            "auto_note": self.auto_note,
            "totals": dict(self.totals),
            "hands": [{"number": h["number"], "settlement": h["settlement"]} for h in self.finished],
        })
        return view

    def finished_record(self, number: int) -> dict:
        """The game record of a finished hand (every card of it): the user asks for it after the hand."""
        for hand in self.finished:
            if hand["number"] == number:
                record = dict(hand["record"])
                record["table"] = {"human": self.human, "bots": dict(self.bot_names), "hand_number": number}
                return record
        raise PlayError(404, f"hand {number} is not finished (finished: {[h['number'] for h in self.finished]})")


def _is_legal(action, legal: list[int]) -> bool:
    return isinstance(action, (int, np.integer)) and not isinstance(action, bool) and int(action) in legal


class SessionStore:
    """Every table in play, by id. The oldest idle tables make room when ``max_sessions`` is reached."""

    def __init__(self, settings: TableSettings, executor: Executor, max_sessions: int = 64,
                 idle_seconds: float = 6 * 3600) -> None:
        self.settings = settings
        self.executor = executor
        self.max_sessions = max_sessions
        self.idle_seconds = idle_seconds
        self.sessions: dict[str, TableSession] = {}

    def create(self, game: str, config: dict, seat: str, bots: dict[str, str], seed: int | None) -> TableSession:
        """A new table; ``PlayError`` 400 naming the problem for a bad game, option, seat or bot."""
        try:
            config = check_config(game, config)
            info = game_info(game)
            env = make_env(info.name, config)
        except ValueError as err:
            raise PlayError(400, str(err)) from None
        seats = list(env.possible_agents)
        if seat not in seats:
            raise PlayError(400, f"unknown seat {seat!r}; seats are {seats}")
        bots = self._check_bots(game, bots, [agent for agent in seats if agent != seat])
        seed = secrets.randbelow(2**31) if seed is None else seed
        self._make_room()
        session_id = secrets.token_hex(12)
        try:
            session = TableSession(session_id, game, config, seat, bots, seed, self.settings, self.executor)
        except ValueError as err:
            raise PlayError(400, str(err)) from None
        self.sessions[session_id] = session
        return session

    def end_waits(self) -> None:
        """Answer every pending long poll now: a stopping server waits for its requests to finish."""
        for session in list(self.sessions.values()):
            session.end_waits()

    def _check_bots(self, game: str, bots: dict[str, str], other_seats: list[str]) -> dict[str, str]:
        if set(bots) - set(other_seats):
            raise PlayError(400, f"bots may only sit at the other seats {other_seats}, got {sorted(bots)}")
        offered = bots_for(game, self.settings.bots)
        chosen = {}
        for agent in other_seats:
            name = bots.get(agent, self.settings.bots[0])
            if name not in self.settings.bots:
                raise PlayError(400, f"unknown bot {name!r} for {agent}; choose from {list(self.settings.bots)}")
            if name not in offered:
                raise PlayError(400, f"bot {name!r} does not play {game}; choose from {offered}")
            chosen[agent] = name
        return chosen

    def get(self, session_id: str) -> TableSession:
        return get_or_404(self.sessions, session_id, f"unknown session {session_id!r}: start a new table")

    def _make_room(self) -> None:
        now = time.monotonic()
        for session_id, session in list(self.sessions.items()):
            if now - session.last_used > self.idle_seconds:
                self._remove(session_id)
        while len(self.sessions) >= self.max_sessions:
            oldest = min(self.sessions, key=lambda sid: self.sessions[sid].last_used)
            self._remove(oldest)

    def _remove(self, session_id: str) -> None:
        self.sessions.pop(session_id).stop()
