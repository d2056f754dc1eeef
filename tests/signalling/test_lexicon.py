"""Truth labels of the 24 Knüffeln phrases on hand-made positions, and the honest rule talker's labels."""

from __future__ import annotations

import pytest

from agents.rules.knuffeln_phrases import PHRASE_OF_TOKEN
from knuffeln_env import knuffeln_v0
from signalling.lexicon import (
    CARD_CLASSES,
    FALSE,
    PHRASE_PREDICATES,
    PREDICATES,
    TRUE,
    UNCHECKABLE,
    card_class,
    phrase_truth,
    speaker_state,
)
from signalling.log import utterances
from tests.signalling.helpers import play_hand
from trick_core.cards import KNUFFELN_48

CHOSEN_SH = ("S3", "HK")  # spades turned first, then hearts: spades and hearts are the chosen suits


def deal(hands: dict[int, list[str]], stock_top=CHOSEN_SH) -> dict:
    """A deal (reset options) with the named cards; the rest of the pack fills the other places."""
    named = [c for cards in hands.values() for c in cards] + list(stock_top)
    assert len(named) == len(set(named))
    rest = [c for c in KNUFFELN_48.names_of(KNUFFELN_48.full_mask) if c not in named]
    # fill with cards that carry no power first, so hands hold exactly what a test names
    rest.sort(key=lambda c: (c in ("H2", "C4", "S8", "H9", "D9") or c[0] in "SH" or c[1:] == "A", c))
    full = {}
    for seat in range(4):
        cards = list(hands.get(seat, []))
        while len(cards) < 9:
            cards.append(rest.pop(0))
        full[f"player_{seat}"] = cards
    return {"dealer": 3, "hands": full, "stock": list(stock_top) + rest}


def scripted(hands: dict[int, list[str]], actions):
    """A lexicon env dealt ``hands``, the exchanges declined, then ``actions`` (action strings) played."""
    env = knuffeln_v0.env(talk="lexicon")
    env.reset(options=deal(hands))
    while env.unwrapped.state()["phase"] in ("ten_exchange", "ole_exchange"):
        env.step(env.unwrapped.string_to_action("decline"))
    for action in actions:
        env.step(env.unwrapped.string_to_action(action))
    return env


def at_talk(hands: dict[int, list[str]], *actions: str):
    """A lexicon env dealt ``hands``, exchanges declined, then ``actions``; it must be someone's talk turn."""
    env = scripted(hands, actions)
    assert env.unwrapped.state()["phase"] == "talk"
    return env


def truth(env, phrase: int, next_action: str | None, **intentions) -> str:
    return phrase_truth(phrase, speaker_state(env, env.agent_selection, next_action, **intentions))


BLANKS = ["D7", "D6", "D4", "D3", "D2", "C7", "C6", "C3"]
FOLLOWER = ["D7", "D6", "D4", "D3", "D2", "C7", "C3", "C2", "DQ"]  # no card that beats a led C6


# --------------------------------------------------------------------------------------- the table itself


def test_every_phrase_has_a_written_predicate():
    assert sorted(PREDICATES) == list(range(1, 25))
    assert sorted(PHRASE_PREDICATES) == list(range(1, 25))
    assert all(PHRASE_PREDICATES[k] for k in range(1, 25))


@pytest.mark.parametrize("phrase", [0, 25, "6", True])
def test_unknown_phrase_is_rejected(phrase):
    env = at_talk({0: BLANKS})
    with pytest.raises(ValueError, match="phrase"):
        truth(env, phrase, "D7")


def test_speaker_state_needs_a_talk_turn():
    env = at_talk({0: BLANKS})
    env.step(env.unwrapped.string_to_action("silent"))  # now player_0 is to play its card
    with pytest.raises(ValueError, match="talk turn"):
        speaker_state(env, env.agent_selection, "D7")


# --------------------------------------------------------------------------------------- questions, comments


@pytest.mark.parametrize("phrase", [1, 2, 3, 4, 5, 19, 20, 21])
def test_questions_and_comments_are_uncheckable(phrase):
    env = at_talk({0: ["H2"] + BLANKS})
    assert truth(env, phrase, "D7") == UNCHECKABLE


# --------------------------------------------------------------------------------------- holdings (the kept hand)


def test_6_i_have_an_ole_reads_the_kept_hand():
    env = at_talk({0: ["H2"] + BLANKS})
    assert truth(env, 6, "D7") == TRUE  # keeps de Beste
    assert truth(env, 6, "H2") == FALSE  # plays its only Ole now
    assert truth(at_talk({0: ["SA"] + BLANKS}), 6, "D7") == FALSE


def test_7_a_beater_and_two_leaders():
    env = at_talk({0: ["SA", "S7", "CA"] + BLANKS[:6]})  # chosen ace; a chosen 7 and an unchosen ace lead
    assert truth(env, 7, "D7") == TRUE
    assert truth(env, 7, "SA") == FALSE  # no high beater kept
    assert truth(env, 7, "CA") == FALSE  # one leader kept
    assert truth(at_talk({0: ["S2", "S7", "CA"] + BLANKS[:6]}), 7, "D7") == FALSE  # the Twist is a low beater


def test_8_only_two_puzers():
    assert truth(at_talk({0: ["S2", "S4"] + BLANKS[:7]}), 8, "D7") == TRUE
    assert truth(at_talk({0: ["S2", "S4", "SJ"] + BLANKS[:6]}), 8, "D7") == FALSE  # and a high beater
    assert truth(at_talk({0: ["S2", "S4", "D9"] + BLANKS[:6]}), 8, "D7") == FALSE  # and an Ole
    assert truth(at_talk({0: ["S2"] + BLANKS}), 8, "D7") == FALSE  # one


def test_9_i_feel_bad():
    assert truth(at_talk({0: BLANKS + ["DA"]}), 9, "D7") == TRUE  # an unchosen ace is no power card
    env = at_talk({0: ["S7"] + BLANKS})
    assert truth(env, 9, "D7") == FALSE  # keeps a chosen 7
    assert truth(env, 9, "S7") == TRUE  # plays its only power card now: nothing left (the rule talker's sense)


def test_16_help_only_once():
    env = at_talk({0: ["H6", "S4"] + BLANKS[:7]})
    assert truth(env, 16, "H6") == TRUE  # keeps one power card
    assert truth(env, 16, "D7") == FALSE  # keeps two
    assert truth(at_talk({0: BLANKS + ["DA"]}), 16, "D7") == FALSE  # none


def test_17_two_sure_tricks():
    env = at_talk({0: ["H2", "C4"] + BLANKS[:7]})  # de Beste, and de Wage which only de Beste beats
    assert truth(env, 17, "D7") == TRUE
    assert truth(env, 17, "H2") == FALSE  # de Wage alone is then one sure trick
    assert truth(at_talk({0: ["H2", "S7"] + BLANKS[:7]}), 17, "D7") == TRUE  # a led chosen 7 is unbeatable
    assert truth(at_talk({0: ["C4", "S8"] + BLANKS[:7]}), 17, "D7") == FALSE  # de Beste is out there


# --------------------------------------------------------------------------------------- this trick


def test_12_certainly_and_10_11_let_it_come_when_leading():
    env = at_talk({0: ["H2"] + BLANKS})
    for phrase in (10, 11, 12):
        assert truth(env, phrase, "D7") == TRUE  # de Beste cannot be beaten
    env = at_talk({0: ["SA"] + BLANKS})  # five Oles may be against it
    for phrase in (10, 11, 12):
        assert truth(env, phrase, "SA") == FALSE


def test_12_certainly_and_10_let_it_come_when_following():
    lead = ("silent", "C6")  # player_0 leads a worthless club; player_1 is to talk
    assert truth(at_talk({0: ["C6"], 1: ["H2"] + FOLLOWER[:8]}, *lead), 12, "H2") == TRUE
    assert truth(at_talk({0: ["C6"], 1: FOLLOWER}, *lead), 12, "D7") == FALSE  # nothing beats
    env = at_talk({0: ["C6"], 1: ["S8"] + FOLLOWER[:8]}, *lead)
    # de Dulle beats the club and only de Beste and de Wage beat it: held by player_2 with chance
    # 1 - (1 - 9/36)^2 < 1/2 as far as player_1 can tell -- likely, not certain
    assert truth(env, 10, "S8") == TRUE
    assert truth(env, 11, "S8") == TRUE
    assert truth(env, 12, "S8") == FALSE
    env = at_talk({0: ["C6"], 1: ["S4"] + FOLLOWER[:8]}, *lead)
    assert truth(env, 10, "S4") == FALSE  # the Veerhack beats the club, but nearly anything beats it


def test_13_14_cannot_do_anything():
    lead = ("silent", "C6")
    env = at_talk({0: ["C6"], 1: FOLLOWER}, *lead)
    assert truth(env, 13, "D7") == TRUE
    assert truth(env, 14, "D7") == TRUE
    env = at_talk({0: ["C6"], 1: ["S4"] + FOLLOWER[:8]}, *lead)
    assert truth(env, 13, "D7") == FALSE  # the Veerhack would beat the club
    assert truth(env, 14, "D7") == FALSE
    assert truth(at_talk({0: BLANKS + ["DA"]}), 13, "D7") == TRUE  # leading without a power card
    assert truth(at_talk({0: ["S7"] + BLANKS}), 14, "D7") == FALSE  # leading with one


def test_15_a_little_ahead():
    lead = ("silent", "C6")
    assert truth(at_talk({0: ["C6"], 1: ["S4"] + FOLLOWER[:8]}, *lead), 15, "S4") == TRUE  # attack 1 over 0
    assert truth(at_talk({0: ["C6"], 1: ["CA"] + FOLLOWER[:8]}, *lead), 15, "CA") == TRUE  # its suit's ace
    assert truth(at_talk({0: ["C6"], 1: ["SA"] + FOLLOWER[:8]}, *lead), 15, "SA") == FALSE  # attack 6 over 0
    assert truth(at_talk({0: ["C6"], 1: FOLLOWER}, *lead), 15, "D7") == FALSE
    assert truth(at_talk({0: ["S4"] + BLANKS[:8]}), 15, "S4") == UNCHECKABLE  # leading: nothing to go ahead of


# --------------------------------------------------------------------------------------- intentions (from records)

def scripted_record(hands, script) -> dict:
    """Play ``script`` (action strings) from the deal after declining the exchanges; the game record."""
    return scripted(hands, script).unwrapped.game_record()


def first_words(record: dict, speaker: str, message: str) -> dict:
    return next(r for r in utterances(record) if r["speaker"] == speaker and r["message"] == message)


def run_five_tricks(first: str, then: list[str]) -> dict:
    """player_0 leads its five Oles (saying ``first`` before the first) and wins five tricks in a row: a
    Jann; then ``then``."""
    hands = {0: ["H2", "C4", "S8", "H9", "D9", "SA", "HA", "SJ", "HJ"], 1: BLANKS + ["C2"],
             2: ["D8", "C8", "C9", "DQ", "CQ", "DJ", "CJ", "D10", "C10"],
             3: ["DK", "CK", "DA", "S2", "S4", "S6", "H3", "H4", "H6"]}
    pools = {1: list(hands[1]), 2: list(hands[2]), 3: list(hands[3])}
    script = []
    for k, ole in enumerate(["H2", "C4", "S8", "H9", "D9"]):
        script += [first if k == 0 else "silent", ole]
        for seat in (1, 2, 3):
            script += ["silent", pools[seat].pop(0)]
    return scripted_record(hands, script + then)


def test_22_we_will_play_after_a_jann():
    marching = run_five_tricks("silent", ["say:22", "SA"])  # a Jann: player_0 leads on, a march
    assert first_words(marching, "player_0", "say:22")["truth"] == TRUE
    stopping = run_five_tricks("silent", ["say:22", "stop"])
    assert first_words(stopping, "player_0", "say:22")["truth"] == FALSE
    early = run_five_tricks("say:22", [])
    assert first_words(early, "player_0", "say:22")["truth"] == FALSE  # no Jann yet: no march to commit to


def test_18_one_for_the_jann():
    rows = utterances(run_five_tricks("say:18", ["say:18", "stop"]))
    said = [r for r in rows if r["message"] == "say:18"]
    assert said[0]["truth"] == UNCHECKABLE  # trick 1: a Jann is still possible
    assert said[1]["truth"] == FALSE  # five tricks played
    hands = {0: ["C6"], 1: ["H2", "D7"], 2: ["D8", "C8"], 3: ["DK", "CK"]}
    trick_one = ["silent", "C6", "silent", "H2", "silent", "D8", "silent", "DK"]  # player_1 wins with de Beste
    lost = scripted_record(hands, trick_one + ["silent", "D7", "silent", "C8", "silent", "CK", "say:18"])
    assert first_words(lost, "player_0", "say:18")["truth"] == FALSE  # player_1 won trick 1


def test_23_i_will_turn_one():
    hands = {0: ["C6"] + BLANKS[:3], 1: ["H2"]}
    turned = scripted_record(hands, ["say:23", "turn:C6", "accept"])
    assert first_words(turned, "player_0", "say:23")["truth"] == TRUE
    face_up = scripted_record(hands, ["say:23", "C6"])
    assert first_words(face_up, "player_0", "say:23")["truth"] == FALSE


def test_24_we_fold():
    # player_0 says "We fold" before its card; player_3 wins trick 1 with de Beste and leads face down
    hands = {0: ["C6"], 1: ["D7"], 2: ["D8"], 3: ["H2", "DK"]}
    trick = ["say:24", "C6", "silent", "D7", "silent", "D8", "silent", "H2", "silent", "turn:DK"]
    assert first_words(scripted_record(hands, trick + ["flee"]), "player_0", "say:24")["truth"] == TRUE
    assert first_words(scripted_record(hands, trick + ["accept"]), "player_0", "say:24")["truth"] == FALSE
    assert first_words(scripted_record(hands, trick[:4]), "player_0", "say:24")["truth"] == UNCHECKABLE


# --------------------------------------------------------------------------------------- shown cards


@pytest.mark.parametrize(("card", "expected"), [
    ("H2", "ole"), ("D9", "ole"), ("S8", "ole"), ("SA", "high_beater"), ("HJ", "high_beater"), ("S6", "high_beater"),
    ("S2", "low_beater"), ("H4", "low_beater"), ("S7", "chosen_7"), ("S9", "chosen_free"), ("H8", "chosen_free"),
    ("CA", "unchosen_ace"), ("DK", "king"), ("SK", "king"), ("CQ", "queen"), ("D7", "blank"), ("S10", "blank"),
])
def test_card_classes_with_spades_and_hearts_chosen(card, expected):
    chosen = 0b0110  # spades (1) and hearts (2)
    assert card_class(KNUFFELN_48.parse(card), chosen) == expected
    assert expected in CARD_CLASSES


def test_a_shown_card_is_labelled_by_what_was_shown():
    record = scripted_record({0: ["H2"] + BLANKS}, ["show:H2", "D7"])
    row = first_words(record, "player_0", "show:H2")
    assert row["kind"] == "show" and row["shown_class"] == "ole" and row["truth"] == UNCHECKABLE
    assert row["listeners"] == ["player_2"]


# --------------------------------------------------------------------------------------- the honest talker


@pytest.mark.parametrize("config", [{"talk": "lexicon"}, {"talk": "lexicon", "players": 5},
                                    {"talk": "tokens:8"}], ids=["lexicon", "five", "tokens"])
def test_the_rule_talker_never_says_anything_false(config):
    meanings = dict(PHRASE_OF_TOKEN) if config["talk"].startswith("tokens") else None
    players = config.get("players", 4)
    checked = 0
    for seed in range(12):
        record = play_hand("knuffeln", ["rules"] * players, seed, config)
        for row in utterances(record, token_meanings=meanings):
            assert row["truth"] != FALSE, row
            checked += row["truth"] == TRUE
    assert checked > 50  # the talker does make checkable claims


def test_random_talkers_are_caught_lying():
    rows = []
    for seed in range(6):
        rows += utterances(play_hand("knuffeln", ["random"] * 4, seed, {"talk": "lexicon"}))
    assert any(r["truth"] == FALSE for r in rows)
    assert any(r["truth"] == TRUE for r in rows)
