"""The replay viewer's records: parse a file of game records and show any step of one.

Accepted text: one ``game_record()`` as JSON, a JSON list of them, or JSON lines (what
``python -m agents.arena --records PATH`` writes: one record a line, with an extra ``"arena"`` key).
A frame is the table after the first ``step`` actions of a record, replayed on a fresh env and shown
with every hand visible (``viewer=None``) or as one seat saw it.
"""

from __future__ import annotations

import json
import secrets
import sys
from dataclasses import dataclass, field

from trick_core.registry import GAME_NAMES

from .catalog import check_config, make_env
from .session import PlayError, get_or_404
from .views import table_view

MAX_RECORDS = 100_000
MAX_STORED_BYTES = 128 * 2**20
"""The opened files together keep at most this much record text in memory; the oldest are dropped beyond
it (a count alone would let a few large uploads hold gigabytes: a parsed record takes about ten times its
text, so the store keeps each record as its compact JSON text and parses one only to show it)."""
SUMMARIES_SHOWN = 5000
"""A file's first records listed by the viewer (their summaries are kept with the file)."""
MATCH_OPTION = "match"
"""Knüffeln's ladder-scored match mode: a record option the table itself does not offer, but replays."""


def parse_records(text: str) -> list[dict]:
    """The records in ``text`` (JSON, JSON list or JSON lines); ``PlayError`` 400 saying what is wrong."""
    text = text.strip()
    if not text:
        raise PlayError(400, "the file is empty")
    try:
        loaded = _json(text, "the file")
        records = loaded if isinstance(loaded, list) else [loaded]
    except json.JSONDecodeError:
        records = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                records.append(_json(line, f"line {number}"))
            except json.JSONDecodeError as err:
                raise PlayError(400, f"line {number} is not JSON: {err.msg}") from None
    if not records:
        raise PlayError(400, "the file has no records")
    if len(records) > MAX_RECORDS:
        raise PlayError(400, f"{len(records)} records; at most {MAX_RECORDS} can be opened at once")
    for index, record in enumerate(records):
        check_record_shape(record, index)
    return records


def _json(text: str, what: str):
    """``json.loads(text)``; JSON that Python refuses to build (nested too deeply, a number of thousands of
    digits) as ``PlayError`` 400 naming ``what``. A syntax error stays a ``JSONDecodeError``."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise PlayError(400, f"{what} is nested too deeply to be a game record") from None
    except ValueError as err:
        raise PlayError(400, f"{what}: {err}") from None


def check_record_shape(record, index: int) -> None:
    """A record names a known game, a deal and a list of ``[agent, action]`` pairs."""
    where = f"record {index}"
    if not isinstance(record, dict):
        raise PlayError(400, f"{where} is not an object (a game record has 'game', 'config', 'deal', 'actions')")
    if record.get("game") not in GAME_NAMES:
        raise PlayError(400, f"{where}: unknown game {record.get('game')!r}; games are {sorted(GAME_NAMES)}")
    for key, kind in (("deal", dict), ("actions", list)):
        if not isinstance(record.get(key), kind):
            raise PlayError(400, f"{where}: '{key}' must be a {kind.__name__}")
    if not isinstance(record.get("config", {}), dict):
        raise PlayError(400, f"{where}: 'config' must be an object")
    for key in ("arena", "table"):  # optional annotations (the arena's, the table's), read for the summary
        if record.get(key) is not None and not isinstance(record[key], dict):
            raise PlayError(400, f"{where}: '{key}' must be an object")
    for number, pair in enumerate(record["actions"]):
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)):
            raise PlayError(400, f"{where}: action {number} must be [agent, action string], got {pair!r}")


def record_summary(record: dict, index: int) -> dict:
    arena = record.get("arena") or {}
    return {
        "index": index,
        "game": record["game"],
        "config": record.get("config", {}),
        "actions": len(record["actions"]),
        "result": record.get("result"),
        "seating": arena.get("seating") or (record.get("table") or {}).get("bots"),
        "deal_index": arena.get("deal_index"),
    }


def replay_env(record: dict, steps: int, index: int = 0):
    """A fresh env after the first ``steps`` actions of ``record``; ``PlayError`` 400 naming a bad one."""
    config = dict(record.get("config", {}))
    match = config.pop(MATCH_OPTION, False)
    try:
        config = check_config(record["game"], config, offered_values_only=False)
        if match:
            config[MATCH_OPTION] = match
        env = make_env(record["game"], config)
        env.reset(options={"record": record})
    except ValueError as err:
        raise PlayError(400, f"record {index}: {err}") from None
    for number, (agent, action) in enumerate(record["actions"][:steps]):
        where = f"record {index}, action {number} ({agent} {action!r})"
        if agent != env.agent_selection or env.unwrapped.state()["current_player"] is None:
            raise PlayError(400, f"{where}: it is not {agent}'s turn")
        legal = env.unwrapped.legal_action_strings()
        if action not in legal:
            raise PlayError(400, f"{where}: not a legal move; legal then: {', '.join(legal)}")
        env.step(env.unwrapped.string_to_action(action))
    return env


@dataclass
class ReplaySet:
    """An opened file: each record as compact JSON text (parsed again to show it), the summaries of the
    first ``SUMMARIES_SHOWN``, and the bytes its texts take."""

    name: str
    texts: list[str]
    summaries: list[dict]
    size: int
    replay_id: str = field(default_factory=lambda: secrets.token_hex(9))

    @property
    def count(self) -> int:
        return len(self.texts)

    def record(self, index: int) -> dict:
        return json.loads(self.texts[index])


class ReplayStore:
    """Opened record files (uploaded, or named on the command line), the oldest dropped beyond ``limit``
    files or ``max_bytes`` of record text together (``MAX_STORED_BYTES``)."""

    def __init__(self, limit: int = 32, max_bytes: int = MAX_STORED_BYTES) -> None:
        self.limit = limit
        self.max_bytes = max_bytes
        self.sets: dict[str, ReplaySet] = {}

    def add(self, name: str, records: list[dict]) -> ReplaySet:
        """Keep ``records`` (checked by ``parse_records``) as a new set; ``PlayError`` 413 for one larger than
        the store itself."""
        texts = [json.dumps(record, separators=(",", ":")) for record in records]
        size = sum(sys.getsizeof(text) for text in texts)
        if size > self.max_bytes:
            raise PlayError(413, f"the records take {size // 2**20} MiB in memory; the viewer keeps at most "
                                 f"{self.max_bytes // 2**20} MiB of open files")
        summaries = [record_summary(record, i) for i, record in enumerate(records[:SUMMARIES_SHOWN])]
        detached = json.loads(json.dumps(summaries))  # copies: the parsed records themselves are not kept
        replay_set = ReplaySet(name, texts, detached, size)
        self.sets[replay_set.replay_id] = replay_set
        while len(self.sets) > self.limit or self.stored_bytes() > self.max_bytes:
            self.sets.pop(next(iter(self.sets)))
        return replay_set

    def stored_bytes(self) -> int:
        return sum(replay_set.size for replay_set in self.sets.values())

    def get(self, replay_id: str) -> ReplaySet:
        return get_or_404(self.sets, replay_id, f"unknown replay {replay_id!r}: open the file again")

    def frame(self, replay_id: str, index: int, step: int, viewer: str | None) -> dict:
        replay_set = self.get(replay_id)
        if not 0 <= index < replay_set.count:
            raise PlayError(404, f"no record {index}; this file has records 0..{replay_set.count - 1}")
        record = replay_set.record(index)
        total = len(record["actions"])
        if not 0 <= step <= total:
            raise PlayError(400, f"step {step} is outside 0..{total}")
        env = replay_env(record, step, index)
        if viewer is not None and viewer not in env.possible_agents:
            raise PlayError(400, f"unknown seat {viewer!r}; seats are {env.possible_agents}")
        view = table_view(env, viewer)
        view.update({"step": step, "steps": total, "record": record_summary(record, index)})
        return view
