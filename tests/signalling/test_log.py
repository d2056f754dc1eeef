"""Message logs derived from game records: one row per talk turn, consistent with the record."""

from __future__ import annotations

import json

import pytest

from agents.arena import run_arena
from signalling.lexicon import FEATURE_NAMES, TRUTH_VALUES
from signalling.log import Args, MessageLog, is_talk, main, read_jsonl, talk_records, utterances
from signalling.metrics import bluff_stats
from tests.signalling.helpers import play_hand


@pytest.fixture(scope="module")
def record():
    return play_hand("knuffeln", ["rules", "random", "rules", "random"], 3, {"talk": "lexicon"})


def test_one_row_per_talk_turn_in_order(record):
    rows = utterances(record, hand="h1")
    talk = [(i, a, m) for i, (a, m) in enumerate(record["actions"]) if is_talk(m)]
    assert [(r["index"], r["speaker"], r["message"]) for r in rows] == talk
    assert all(r["hand"] == "h1" and r["game"] == "knuffeln" for r in rows)
    assert all(r["truth"] in TRUTH_VALUES for r in rows)
    assert all(set(r["features"]) == set(FEATURE_NAMES) for r in rows)


def test_rows_agree_with_the_record(record):
    actions = record["actions"]
    for row in utterances(record):
        speaker, team = row["speaker"], row["team"]
        seat = int(speaker[-1])
        assert team == seat % 2
        assert row["listeners"] == [f"player_{(seat + 2) % 4}"]
        following = [m for a, m in actions[row["index"] + 1:] if a == speaker and not is_talk(m)]
        assert row["speaker_next"] == (following[0] if following else None)
        heard = [m for a, m in actions[row["index"] + 1:] if a in row["listeners"] and not is_talk(m)]
        assert row["listener_next"] == (heard[0] if heard else None)
        assert 1 <= row["trick"] <= 9 and 0 <= row["position"] <= 3
        assert row["team_units"] == record["result"][seat]
    first = utterances(record)[0]
    assert first["trick"] == 1 and first["position"] == 0  # forehand talks before the first lead


def test_positions_cycle_through_each_trick(record):
    rows = utterances(record)
    by_trick = {}
    for row in rows:
        by_trick.setdefault(row["trick"], []).append(row["position"])
    for positions in by_trick.values():
        assert positions == sorted(positions)


def test_message_log_writes_json_lines_and_the_cli_reads_arena_records(tmp_path):
    records_path = tmp_path / "hands.jsonl"
    run_arena("knuffeln", ["rules", "random"], 2, 5, {"talk": "tokens:4"}, records_path=str(records_path))
    records = read_jsonl(str(records_path))
    assert len(talk_records(records)) == 4
    out = tmp_path / "messages.jsonl"
    count = main(Args(records=str(records_path), out=str(out), rules_token_code=True))
    rows = read_jsonl(str(out))
    assert count == len(rows) > 0
    seatings = {"rules,random,rules,random", "random,rules,random,rules"}
    assert {r["hand"] for r in rows} == {f"d{d}:{s}" for d in (0, 1) for s in seatings}  # deal and seating
    assert {r["agent"] for r in rows} == {"rules", "random"}
    coded = [r for r in rows if r["agent"] == "rules" and r["kind"] == "token"]
    assert coded and all(r["phrase"] is not None and r["truth"] != "false" for r in coded)
    for row in rows:  # every phrase's truth where a token or silence was said: what a token could mean
        if row["kind"] in ("token", "silent"):
            assert set(row["phrase_truths"]) == {str(k) for k in range(1, 25)}
            assert set(row["phrase_truths"].values()) <= set(TRUTH_VALUES)
        else:
            assert row["phrase_truths"] is None
    assert all(r["phrase_truths"][str(r["phrase"])] == r["truth"] for r in coded)
    log = MessageLog()
    log.add_record(records[0], hand="x")
    assert log.hands == 1 and all(r["hand"] == "x" for r in log.rows)
    assert json.loads(out.read_text().splitlines()[0])["game"] == "knuffeln"


def test_hands_logged_one_by_one_get_ids_of_their_own(record):
    other = play_hand("knuffeln", ["rules", "random", "rules", "random"], 4, {"talk": "lexicon"})
    ids = {row["hand"] for row in utterances(record)}
    assert len(ids) == 1 and ids == {row["hand"] for row in utterances(dict(record))}
    assert ids.isdisjoint({row["hand"] for row in utterances(other)})


def test_a_record_that_stops_mid_hand_has_no_result_to_count(record):
    talk_at = [i for i, (_, action) in enumerate(record["actions"]) if is_talk(action)]
    cut = {**record, "actions": record["actions"][: talk_at[len(talk_at) // 2] + 1]}
    rows = utterances(cut)
    assert rows and all(row["team_units"] is None for row in rows)
    assert all(row["team_units"] is not None for row in utterances(record))
    stats = bluff_stats(rows)
    assert stats["hand_won_after_false"]["trials"] == stats["hand_won_after_true"]["trials"] == 0


def test_the_command_line_says_when_no_record_has_talk(tmp_path):
    path = tmp_path / "silent.jsonl"
    path.write_text(json.dumps(play_hand("knuffeln", ["random"] * 4, 0)) + "\n")
    with pytest.raises(SystemExit, match="none of its 1 records is a Knüffeln hand played with talk on"):
        main(Args(records=str(path), out=str(tmp_path / "out.jsonl")))
    assert not (tmp_path / "out.jsonl").exists()


def test_records_without_talk_are_rejected():
    silent = play_hand("knuffeln", ["random"] * 4, 0)
    with pytest.raises(ValueError, match="talk='off'"):
        utterances(silent)
    with pytest.raises(ValueError, match="Knüffeln"):
        utterances(play_hand("bavarian", ["random"] * 4, 0))
    with pytest.raises(ValueError, match="match records"):
        utterances({**silent, "config": {**silent["config"], "talk": "lexicon", "match": True}})
