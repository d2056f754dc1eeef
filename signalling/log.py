"""Message logs: one row per utterance of Knüffeln table talk, with the truth label of ``signalling.lexicon``.

A log is derived from game records (``env.unwrapped.game_record()``: the deal and every action), by
replaying each record through the env, so it works alike for hands played in training, in the arena
(``python -m agents.arena ... --records hands.jsonl``) or by hand, and needs no change to any of them::

    python -m signalling.log --records hands.jsonl --out messages.jsonl

From code: ``MessageLog`` collects rows (``add_record(record)`` after each hand, e.g. at the end of a
training episode) and ``write(path)`` saves them as JSON lines; ``utterances(record)`` returns one hand's
rows; ``arena_message_log(specs, config, hands)`` plays a duplicate round robin and logs all its hands.
Every talk turn is an utterance, silence included (silence speaks too, section 7 of the rules).

**A row** (JSON object):

- ``game``, ``config``: ``"knuffeln"`` and the record's rule options (``talk`` says the vocabulary);
- ``hand``: the hand id (given; else the arena's deal and seating, ``"d3:rules,random,rules,random"``; else
  a count);
- ``index``: position of the talk action in the record's action list;
- ``trick``: trick number 1..9 of the utterance (it precedes the speaker's card in that trick);
- ``position``: cards already in the trick when the speaker talks (0: it leads);
- ``speaker``, ``team``, ``listeners``: the speaking seat, its team (0 or 1) and its active teammates, the
  intended listeners (every seat hears the words; only teammates see a shown card);
- ``agent``: the speaker's agent label (the arena's seating) or None;
- ``message``: the action string, ``"silent"``, ``"say:k"``, ``"show:C"`` or ``"token:k"``; ``kind``:
  ``silent``, ``phrase``, ``show`` or ``token``;
- ``phrase``, ``gist``: the phrase number (a token's under ``token_meanings``) and its English gist;
- ``truth``: ``"true"``, ``"false"`` or ``"uncheckable"`` (``signalling.lexicon``);
- ``shown_class``: for ``show:C``, the class of C (``ole``, ``high_beater``, ...);
- ``features``: the speaker's private features (``lexicon.FEATURE_NAMES``);
- ``phrase_truths``: for a token or silence, the truth label of every one of the 24 phrases had the speaker
  said it then (``{"1": "true", ...}``): what a token could mean (``metrics.token_meanings``); None otherwise;
- ``speaker_next``, ``speaker_next_class``: the speaker's next card action (a card, ``turn:C`` or
  ``stop``) and its class (``lexicon.card_class``, prefixed ``turn_`` for a face-down lead);
- ``listener_next``, ``listener_next_class``: the first listener's next decision after the message that
  is not talk, and its class (``accept``, ``flee``, ``stop`` are classes of their own);
- ``team_won_trick``: whether the speaker's team won that trick (None if the hand ended first);
- ``team_units``: the speaker's settlement of the hand (units; None when the record stops before the hand
  ends).

``token_meanings`` (e.g. ``agents.rules.knuffeln_phrases.TOKEN_CODE`` inverted: token -> phrase) labels the truth
of tokens under a given code; without it tokens are uncheckable (they have no preset meaning).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from knuffeln_env import knuffeln_v0
from trick_core.command_line import checked, command_prog, program_name

from .lexicon import (
    NUM_PHRASES,
    UNCHECKABLE,
    card_class,
    phrase_truth,
    private_features,
    speaker_situation,
    state_from_situation,
)

TALK_PREFIXES = ("say:", "show:", "token:")


def is_talk(action: str) -> bool:
    return action == "silent" or action.startswith(TALK_PREFIXES)


def message_kind(message: str) -> str:
    if message == "silent":
        return "silent"
    if message.startswith("say:"):
        return "phrase"
    if message.startswith("show:"):
        return "show"
    if message.startswith("token:"):
        return "token"
    raise ValueError(f"{message!r} is not a talk action")


@dataclass
class _Pending:
    """A talk turn seen during the replay, waiting for what happened next."""

    index: int
    speaker: str
    message: str
    team: int
    listeners: list
    trick: int
    position: int
    situation: object  # the speaker's decoded observation (lexicon.speaker_situation)


def _check_record(record: dict) -> None:
    if not isinstance(record, dict) or record.get("game") != "knuffeln":
        raise ValueError("message logs are made from Knüffeln game records (record['game'] == 'knuffeln')")
    config = record.get("config", {})
    if not isinstance(config, dict):
        raise ValueError("the record's 'config' must be an object of env options")
    if config.get("talk", "off") == "off":
        raise ValueError("this record was played with talk='off': it holds no utterance")
    if config.get("match"):
        raise ValueError("match records hold several hands; log the hands of a match one record at a time")


def hand_id_of(record: dict, fallback: int | str | None = None) -> str:
    """The id of a record's hand in a log: the arena's deal and seating, else ``fallback``, else a digest
    of the deal and its actions (so that rows of different hands never share an id by accident)."""
    arena = record.get("arena")
    if isinstance(arena, dict) and "deal_index" in arena:
        seating = ",".join(str(v) if v else "-" for v in arena.get("seating", {}).values())
        return f"d{arena['deal_index']}:{seating}"
    if fallback is not None:
        return str(fallback)
    played = json.dumps([record.get("deal"), record.get("actions")], sort_keys=True, default=str)
    return "h" + hashlib.sha1(played.encode("utf-8")).hexdigest()[:12]


def utterances(record: dict, hand: str | int | None = None, token_meanings: dict | None = None) -> list[dict]:
    """The message-log rows of one Knüffeln hand (module docstring), in speaking order. ``hand``
    names it in the rows (default: ``hand_id_of(record)``)."""
    _check_record(record)
    if hand is None:
        hand = hand_id_of(record)
    config = record.get("config", {})
    env = knuffeln_v0.env(**config)
    env.reset(options={"record": record})
    base = env.unwrapped
    actions = [(agent, action) for agent, action in record["actions"]]
    seating = (record.get("arena") or {}).get("seating", {})
    pending: list[_Pending] = []
    leads: list[tuple[int, str, bool]] = []  # (index, agent, face down)
    teams: dict | None = None
    cards_played = 0  # cards led or played so far: a card opens a trick when this is a multiple of the players
    for index, (agent, action) in enumerate(actions):
        if env.agent_selection != agent:
            raise ValueError(f"record expects {agent} to act at action {index}, but it is {env.agent_selection}'s turn")
        playing = is_talk(action) or _is_card_action(action)
        if playing and teams is None:  # the dealer's choice (five players) is made by now
            teams = dict(base.state()["teams"])
            active = sum(team is not None for team in teams.values())
        if is_talk(action):
            pending.append(_talk_turn(env, index, agent, action, teams, cards_played, active))
        elif _is_card_action(action):
            if cards_played % active == 0:
                leads.append((index, agent, action.startswith("turn:")))
            cards_played += 1
        env.step(base.string_to_action(action))
    final = base.state()
    tricks = final["tricks"]
    settlement = final["result"]["settlement"] if final["result"] else None  # None: the record stops mid-hand
    rows = []
    for turn in pending:
        rows.append(_row(turn, actions, leads, teams, tricks, settlement, base, record, hand, seating,
                         token_meanings))
    return rows


def _is_card_action(action: str) -> bool:
    """A card played or led face down (talk, exchanges and the other words are not)."""
    if action.startswith("turn:"):
        return True
    return not (is_talk(action) or ":" in action or action in (
        "take_ole", "decline", "stop", "accept", "flee", "play_alone", "sit_out"))


def _talk_turn(env, index: int, agent: str, message: str, teams: dict, cards_played: int,
               active: int) -> _Pending:
    team = teams[agent]
    listeners = [a for a in env.unwrapped.possible_agents if a != agent and teams[a] == team]
    return _Pending(
        index=index, speaker=agent, message=message, team=team, listeners=listeners,
        trick=cards_played // active + 1, position=cards_played % active, situation=speaker_situation(env, agent),
    )


def _next_action_of(actions: list, after: int, agents: list[str]) -> tuple[int, str] | tuple[None, None]:
    """The first action after index ``after`` by one of ``agents`` that is not talk."""
    for index in range(after + 1, len(actions)):
        agent, action = actions[index]
        if agent in agents and not is_talk(action):
            return index, action
    return None, None


def _team_answer_after(actions: list, after: int, team: int, teams: dict) -> bool | None:
    for agent, action in actions[after + 1:]:
        if action in ("accept", "flee") and teams[agent] == team:
            return action == "flee"
    return None


def _next_lead_face_down(leads: list, after: int, agent: str) -> bool:
    for index, leader, face_down in leads:
        if index > after and leader == agent:
            return face_down
    return False


def _action_class(action: str | None, base, chosen: int) -> str | None:
    if action is None:
        return None
    if action in ("stop", "accept", "flee", "decline", "take_ole"):
        return action
    name = action[5:] if action.startswith("turn:") else action
    card = base.string_to_action(name)
    prefix = "turn_" if action.startswith("turn:") else ""
    return prefix + card_class(card, chosen)


def _row(turn: _Pending, actions, leads, teams, tricks, settlement, base, record, hand, seating,
         token_meanings) -> dict:
    _, speaker_next = _next_action_of(actions, turn.index, [turn.speaker])
    state = state_from_situation(
        turn.situation, base, speaker_next,
        next_lead_face_down=_next_lead_face_down(leads, turn.index, turn.speaker),
        team_flees_next=_team_answer_after(actions, turn.index, turn.team, teams),
    )
    kind = message_kind(turn.message)
    phrase = None
    truth = UNCHECKABLE
    shown_class = None
    if kind == "phrase":
        phrase = int(turn.message[4:])
    elif kind == "token" and token_meanings:
        phrase = token_meanings.get(int(turn.message[6:]))
    if phrase is not None:
        truth = phrase_truth(phrase, state)
    if kind == "show":
        shown_class = card_class(base.string_to_action(turn.message[5:]), state.chosen)
    listener_next = None
    if turn.listeners:
        _, listener_next = _next_action_of(actions, turn.index, turn.listeners[:1])
    trick_won = None
    if turn.trick <= len(tricks):
        winner = tricks[turn.trick - 1]["winner"]
        trick_won = teams[winner] == turn.team
    seat = base.possible_agents.index(turn.speaker)
    return {
        "game": "knuffeln",
        "config": record["config"],
        "hand": hand if hand is not None else hand_id_of(record, 0),
        "index": turn.index,
        "trick": turn.trick,
        "position": turn.position,
        "speaker": turn.speaker,
        "team": turn.team,
        "listeners": turn.listeners,
        "agent": seating.get(turn.speaker),
        "message": turn.message,
        "kind": kind,
        "phrase": phrase,
        "gist": knuffeln_v0.PHRASES[phrase - 1] if phrase is not None else None,
        "truth": truth,
        "shown_class": shown_class,
        "features": private_features(state),
        "phrase_truths": ({str(k): phrase_truth(k, state) for k in range(1, NUM_PHRASES + 1)}
                          if kind in ("token", "silent") else None),
        "speaker_next": speaker_next,
        "speaker_next_class": _action_class(speaker_next, base, state.chosen),
        "listener_next": listener_next,
        "listener_next_class": _action_class(listener_next, base, state.chosen),
        "team_won_trick": trick_won,
        "team_units": None if settlement is None else float(settlement[seat]),
    }


@dataclass
class MessageLog:
    """Rows of many hands; ``add_record`` after each hand, ``write`` to save as JSON lines."""

    token_meanings: dict | None = None
    rows: list = field(default_factory=list)
    hands: int = 0

    def add_record(self, record: dict, hand: str | int | None = None) -> list[dict]:
        """Log one hand's record (``hand``: its id; by default the arena's deal and seating, else a count)."""
        if hand is None:
            hand = hand_id_of(record, self.hands)
        rows = utterances(record, hand, self.token_meanings)
        self.rows.extend(rows)
        self.hands += 1
        return rows

    def add_records(self, records: Iterable[dict]) -> None:
        for record in records:
            self.add_record(record)

    def write(self, path: str) -> int:
        """Write the rows as JSON lines; returns how many."""
        with open(path, "w", encoding="utf-8") as out:
            for row in self.rows:
                out.write(json.dumps(row, separators=(",", ":")) + "\n")
        return len(self.rows)


def read_jsonl(path: str) -> list[dict]:
    """Every JSON line of a file (game records or message-log rows)."""
    rows = []
    try:
        with open(path, encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                if line.strip():
                    try:
                        rows.append(json.loads(line))
                    except json.JSONDecodeError as error:
                        raise ValueError(f"{path}: line {number} is not JSON ({error.msg})") from None
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not UTF-8 text (JSON lines are)") from None
    return rows


def talk_records(records: Iterable[dict]) -> list[dict]:
    """The records of Knüffeln hands played with talk on (arena records files may mix in others)."""
    return [r for r in records if r.get("game") == "knuffeln" and r.get("config", {}).get("talk", "off") != "off"]


@dataclass
class Args:
    """Write the message log of Knüffeln game records (``--records`` of ``python -m agents.arena``)."""

    records: str
    """JSON lines of game records (one hand each)"""
    out: str
    """where to write the message log (JSON lines, one utterance each)"""
    rules_token_code: bool = False
    """label tokens by the rule agent's fixed code (agents.rules.knuffeln_phrases.TOKEN_CODE)"""


def check(args: Args) -> None:
    """The options, checked before a record is read: ``ValueError`` naming the first bad one."""
    if not Path(args.records).is_file():
        raise ValueError(f"--records {args.records!r}: no such file")
    if not Path(args.out).resolve().parent.is_dir():
        raise ValueError(f"--out {args.out!r}: its folder does not exist")
    if Path(args.out).resolve() == Path(args.records).resolve():
        raise ValueError(f"--out {args.out!r} is the records file itself")


def main(args: Args) -> int:
    check(args)
    meanings = None
    if args.rules_token_code:
        from agents.rules.knuffeln_phrases import PHRASE_OF_TOKEN

        meanings = dict(PHRASE_OF_TOKEN)
    log = MessageLog(token_meanings=meanings)
    try:
        records = read_jsonl(args.records)
    except ValueError as error:  # a file that is not JSON lines: one line naming it
        raise SystemExit(f"{program_name()}: --records {error}") from None
    talking = talk_records(records)
    if not talking:
        raise SystemExit(f"{program_name()}: {args.records}: none of its {len(records)} records is a Knüffeln "
                         "hand played with talk on (env option talk=lexicon or tokens:N): there is nothing to log")
    log.add_records(talking)
    count = log.write(args.out)
    print(json.dumps({"hands": log.hands, "utterances": count, "out": args.out}))
    return count


if __name__ == "__main__":
    import tyro

    main(checked(tyro.cli(Args, prog=command_prog()), check))


def arena_message_log(specs: list[str], config: dict, hands: int, seed: int = 0, workers: int = 1,
                      token_meanings: dict | None = None) -> tuple[dict, list[dict], list[dict]]:
    """Play a duplicate round robin of ``specs`` (``agents.arena.run_arena``) in a Knüffeln talk
    configuration and log every hand: (arena summary, game records, message-log rows). Each row's ``agent``
    is the label of the speaking seat's agent."""
    import os
    import tempfile

    from agents.arena import run_arena

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "records.jsonl")
        summary = run_arena("knuffeln", specs, hands, seed, config, workers, records_path=path)
        records = read_jsonl(path)
    log = MessageLog(token_meanings=token_meanings)
    log.add_records(records)
    return summary, records, log.rows
