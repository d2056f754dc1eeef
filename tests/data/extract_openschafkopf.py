"""Rebuild ``tests/data/bavarian_openschafkopf_games.json`` from openschafkopf's rules tests.

openschafkopf (https://github.com/phimuemue/openschafkopf, MIT) keeps real games played on sauspiel.de,
and a few constructed ones, as calls of ``test_rules`` / ``test_rules_manual`` in
``lib/src/rules/tests.rs``. This script reads that file from a clone of the repository (a bare git
directory is enough) and writes every call as data: the rules (kind, declarer, suit, Tout), that game's
tariff, the pack, the Klopfen and Stoß seats, the stock, the hands, the tricks and the recorded payout.
The tests never run it: they read the JSON it wrote (``tests/data/README.md``).

    python -m tests.data.extract_openschafkopf --openschafkopf path/to/openschafkopf [--revision HEAD]

Seat numbers are openschafkopf's ``EPlayerIndex`` (0 is forehand, so the dealer is seat 3), cards are
this project's names (``E10`` for openschafkopf's ``EZ``), a trick is its leader and its four cards in
playing order from the leader. The checks (a legal deal, each trick led by the previous winner, the 127
games of ``bavarian_sauspiel_games.json`` among them) live in ``tests/bavarian/test_online_games.py``.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import tyro

from trick_core.command_line import checked, command_prog

RULES_TESTS = "lib/src/rules/tests.rs"
HERE = Path(__file__).resolve().parent
SUITS = {"Eichel": "E", "Gras": "G", "Herz": "H", "Schelln": "S"}
KINDS = {"Solo": "solo", "Wenz": "wenz", "Geier": "geier"}
COLOURED_KINDS = {"wenz": "farbwenz", "geier": "farbgeier"}
JUNGFRAU = {"DoubleAll": "double_all", "DoubleIndividuallyOnce": "double_individually_once",
            "DoubleIndividuallyMultiple": "double_individually_multiple"}


@dataclass
class Args:
    """Extract every game of openschafkopf's lib/src/rules/tests.rs into tests/data (JSON)."""

    openschafkopf: Path
    """A clone of https://github.com/phimuemue/openschafkopf (a bare git directory will do)."""
    revision: str = "HEAD"
    """The commit to read the rules tests from."""
    out: Path = HERE / "bavarian_openschafkopf_games.json"
    """Where to write the games."""


def check(args: Args) -> None:
    if not args.openschafkopf.is_dir():
        raise ValueError(f"--openschafkopf {str(args.openschafkopf)!r} is not a folder")
    if not args.out.parent.is_dir():
        raise ValueError(f"--out {str(args.out)!r}: its folder does not exist")


def without_comments(source: str) -> str:
    """``source`` with its ``/* */`` and ``//`` comments removed; string literals are kept whole (the game
    labels hold ``https://``)."""
    kept, i, n = [], 0, len(source)
    while i < n:
        if source[i] == '"':
            end = source.index('"', i + 1)
            kept.append(source[i:end + 1])
            i = end + 1
        elif source.startswith("/*", i):
            i = source.index("*/", i) + 2
        elif source.startswith("//", i):
            i = source.find("\n", i)
            i = n if i < 0 else i
        else:
            kept.append(source[i])
            i += 1
    return "".join(kept)


def balanced(source: str, start: int) -> int:
    """The index just after the bracket that closes the one at ``source[start]``."""
    depth, i = 0, start
    while True:
        char = source[i]
        if char == '"':
            i = source.index('"', i + 1)
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1


def top_level_split(text: str) -> list[str]:
    """``text`` cut at its commas outside brackets and strings (a trailing comma leaves no empty part)."""
    parts, depth, current, in_string = [], 0, [], False
    for char in text:
        if char == '"':
            in_string = not in_string
        elif not in_string and char in "([{":
            depth += 1
        elif not in_string and char in ")]}":
            depth -= 1
        if char == "," and depth == 0 and not in_string:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(char)
    if "".join(current).strip():
        parts.append("".join(current).strip())
    return parts


def card(name: str) -> str:
    """openschafkopf's ``EZ`` (Eichel-Zehn) is this project's ``E10``; the other names agree."""
    name = name.strip()
    if not re.fullmatch(r"[EGHS][AZKOU987]", name):
        raise ValueError(f"not a card: {name!r}")
    return name[0] + ("10" if name[1] == "Z" else name[1])


def cards(text: str) -> list[str]:
    return [card(c) for c in text.strip().strip("[]").split(",") if c.strip()]


def integer(expression: str, names: dict[str, int]) -> int:
    """A small integer expression of the source (``30+n_stock_half``, ``-n_stock_initial``, ``20``)."""
    tree = ast.parse(re.sub(r"(\d+)isize", r"\1", expression.strip()), mode="eval")
    allowed = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Add, ast.Sub, ast.USub, ast.Constant, ast.Name,
               ast.Load)
    if not all(isinstance(node, allowed) for node in ast.walk(tree)):
        raise ValueError(f"unexpected expression {expression!r}")
    return int(eval(compile(tree, "<tests.rs>", "eval"), {}, dict(names)))  # noqa: S307 (checked above)


def integers(text: str, names: dict[str, int]) -> list[int]:
    inner = re.fullmatch(r"(?:vec!)?\[(.*)\]", text.strip(), re.DOTALL)
    if inner is None:
        raise ValueError(f"not a list: {text!r}")
    return [integer(part, names) for part in top_level_split(inner.group(1))]


def tariff_of(text: str) -> dict:
    """``base, schneider_schwarz, SLaufendeParams::new(per, from)`` as the pinned tariff keys."""
    match = re.fullmatch(r"(-?\d+),(-?\d+),SLaufendeParams::new\((\d+),(\d+)\),?", text)
    if match is None:
        raise ValueError(f"unexpected payout parameters {text!r}")
    base, schneider_schwarz, per_lauf, lauf_from = map(int, match.groups())
    return {"base": base, "schneider_schwarz": schneider_schwarz, "laufende": per_lauf, "laufende_from": lauf_from}


def rules_of(text: str) -> tuple[dict, dict, int | None]:
    """(rules, tariff, the Stoß limit) of one rules expression of tests.rs."""
    text = re.sub(r"\s+", "", text)
    if match := re.fullmatch(r"rulesrufspiel_new_test\(EPlayerIndex::EPI(\d),EFarbe::(\w+),(.*)\)", text):
        return ({"kind": "rufspiel", "tout": False, "declarer": int(match[1]), "suit": SUITS[match[2]]},
                tariff_of(match[3]), 4)  # rulesrufspiel_new_test fixes SStossParams::new(4)
    if match := re.fullmatch(r"sololike\(EPlayerIndex::EPI(\d),(None|EFarbe::\w+),ESoloLike::(\w+),"
                             r"SPayoutDecider(PointBased|Tout)::default_payoutdecider\((.*)\),"
                             r"SStossParams::new\((\d+)\)\)", text):
        suit = None if match[2] == "None" else SUITS[match[2].split("::")[1]]
        kind = KINDS[match[3]]
        if suit is not None and kind != "solo":
            kind = COLOURED_KINDS[kind]
        return ({"kind": kind, "tout": match[4] == "Tout", "declarer": int(match[1]), "suit": suit},
                tariff_of(match[5]), int(match[6]))
    if match := re.fullmatch(r"SRulesRamsch::new\((\d+),(None|Some\(VDurchmarsch::(All|AtLeast\((\d+)\))\)),"
                             r"(None|Some\(VJungfrau::(\w+)\))\)", text):
        durchmarsch = None if match[2] == "None" else "all" if match[3] == "All" else int(match[4])
        jungfrau = None if match[5] == "None" else JUNGFRAU[match[6]]
        return ({"kind": "ramsch", "tout": False, "declarer": None, "suit": None},
                {"base": int(match[1]), "durchmarsch": durchmarsch, "jungfrau": jungfrau}, None)
    if match := re.fullmatch(r"SActivelyPlayableRules::from\(SRulesBettel::<SBettelAllAllowedCardsWithinStich(\w+)>"
                             r"::new\(EPlayerIndex::EPI(\d),(\d+),(\d+),SStossParams::new\((\d+)\)\)\)", text):
        return ({"kind": "bettel", "tout": False, "declarer": int(match[2]), "suit": None,
                 "bettel_must_beat": match[1] == "Stichzwang"},
                {"base": int(match[4])}, int(match[5]))
    raise ValueError(f"unexpected rules expression {text!r}")


def tricks_of(text: str) -> list[dict]:
    found = re.findall(r"\(\s*EPI(\d)\s*,\s*(\[[^\]]*\])\s*\)", text)
    return [{"leader": int(leader), "cards": cards(four)} for leader, four in found]


def calls(source: str):
    """(test function, position, argument list) of every ``test_rules(`` / ``test_rules_manual(`` call."""
    functions = [(m.start(), m[1]) for m in re.finditer(r"\bfn\s+(\w+)", source)]
    for match in re.finditer(r"(?<![\w])(test_rules|test_rules_manual)\(", source):
        if re.search(r"fn\s+$", source[:match.start()]):
            continue  # the definitions
        function = [name for start, name in functions if start < match.start()][-1]
        open_at = match.end() - 1
        yield function, match[1], match.start(), top_level_split(source[open_at + 1:balanced(source, open_at) - 1])


def function_body(source: str, position: int) -> str:
    start = source.rindex("\nfn ", 0, position)
    return source[start:balanced(source, source.index("{", start))]


def loop_values(source: str, position: int) -> list[dict[str, int]]:
    """The bindings a call sees: one per value of an enclosing ``for n_stock_initial in [...]`` (with
    ``n_stock_half``), else one empty binding."""
    body_start = source.rindex("\nfn ", 0, position)
    loop = re.search(r"for\s+n_stock_initial\s+in\s+(\[[^\]]*\])", source[body_start:position])
    if loop is None:
        return [{}]
    return [{"n_stock_initial": v, "n_stock_half": v // 2} for v in integers(loop[1], {})]


def games(source: str) -> list[dict]:
    source = without_comments(source)
    extracted = []
    for function, form, position, arguments in calls(source):
        label = json.loads(arguments[0])
        rules_text = arguments[1]
        if variable := re.fullmatch(r"(\w+)\.clone\(\)", rules_text.strip()):
            bound = re.search(rf"let\s+{variable[1]}\s*=\s*(.*?);", function_body(source, position), re.DOTALL)
            rules_text = bound[1]
        rules, tariff, stoss_max = rules_of(rules_text)
        for names in loop_values(source, position):
            if form == "test_rules":
                hands_text, doublings, stoss, tricks_text, payout_text = arguments[2:]
                stock, stock_payout = 0, 0
                dealt = [cards(h) for h in top_level_split(hands_text.strip()[1:-1])]
                payout = integers(payout_text, names)
            else:
                doublings, stoss, stock_text, tricks_text, payouts_text = arguments[2:]
                stock = integer(stock_text, names)
                payout_text, stock_payout_text = top_level_split(payouts_text.strip()[1:-1])
                payout, stock_payout = integers(payout_text, names), integer(stock_payout_text, names)
                dealt = None
            tricks = tricks_of(tricks_text)
            if dealt is None:  # test_rules_manual: each seat holds the cards it plays
                dealt = [[t["cards"][(seat - t["leader"]) % 4] for t in tricks] for seat in range(4)]
            extracted.append({
                "index": len(extracted),
                "source": label,
                "real_game": form == "test_rules",
                "openschafkopf_test": f"{function} ({form})",
                "rules": rules,
                "tariff": tariff,
                "stoss_max": stoss_max,
                "pack": "short" if len(tricks) == 6 else "long",
                "doublings": integers(doublings, names),
                "stoss": integers(stoss, names),
                "stock": stock,
                "hands": {f"player_{seat}": hand for seat, hand in enumerate(dealt)},
                "tricks": tricks,
                "payout": payout,
                "stock_payout": stock_payout,
            })
    return extracted


def readable_json(document: dict) -> str:
    """``document`` as JSON with one game per block and each field of a game, each hand and each trick on
    one line: readable and diffable."""
    def one_line(value) -> str:
        return json.dumps(value, ensure_ascii=False)

    def game_lines(game: dict) -> str:
        fields = []
        for key, value in game.items():
            if key == "hands":
                inner = ",\n".join(f"    {one_line(k)}: {one_line(v)}" for k, v in value.items())
                fields.append(f'   "hands": {{\n{inner}\n   }}')
            elif key == "tricks":
                inner = ",\n".join(f"    {one_line(t)}" for t in value)
                fields.append(f'   "tricks": [\n{inner}\n   ]')
            else:
                fields.append(f"   {one_line(key)}: {one_line(value)}")
        return "  {\n" + ",\n".join(fields) + "\n  }"

    games_text = ",\n".join(game_lines(g) for g in document["games"])
    return f'{{\n "source": {one_line(document["source"])},\n "games": [\n{games_text}\n ]\n}}'


def main(args: Args) -> None:
    commit = subprocess.run(["git", "-C", str(args.openschafkopf), "rev-parse", args.revision], capture_output=True,
                            text=True, check=True).stdout.strip()
    source = subprocess.run(["git", "-C", str(args.openschafkopf), "show", f"{commit}:{RULES_TESTS}"],
                            capture_output=True, text=True, check=True).stdout
    extracted = games(source)
    document = {
        "source": {"repository": "https://github.com/phimuemue/openschafkopf", "licence": "MIT",
                   "commit": commit, "file": RULES_TESTS},
        "games": extracted,
    }
    text = readable_json(document)
    args.out.write_text(text + "\n")
    print(json.dumps({"games": len(extracted), "commit": commit, "out": str(args.out)}))


if __name__ == "__main__":
    main(checked(tyro.cli(Args, prog=command_prog()), check))
