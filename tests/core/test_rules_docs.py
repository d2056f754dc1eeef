"""The rules pages (``docs/rules/*.md``): every anchor a page lists for citing exists, every decision
marked inline is listed with its own anchor (and every listed one is marked where it applies), internal
links resolve, no page points outside the repository, and every citation of a page, an anchor or a
decision anywhere in the repository names one that exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .outside import paths_leaving_the_repository, tracked

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"
DECISION_PREFIXES = {"knuffeln.md": "K", "bavarian_schafkopf.md": "B", "palatinate_schafkopf.md": "PA"}
"""Each rules page and the letters of its decisions (a new page is added here: see the first test)."""
GAME_PAGES = tuple(DECISION_PREFIXES)
LETTERS = "".join(sorted(set("".join(DECISION_PREFIXES.values()))))
DECISIONS_HEADING = "## Decisions where the rules are silent"

HEADING = re.compile(r"^(#{1,6}) (.+?)\s*$", re.MULTILINE)
EXPLICIT_ANCHOR = re.compile(r'<a id="([^"]+)"></a>')
INLINE_DECISION = re.compile(r"\*\*\(decisions? ([^)]*)\)\*\*")
LISTED_DECISION = re.compile(r'<a id="([a-z]\d+)"></a>\*\*([A-Z])(\d+)\.\*\*')
LINK = re.compile(r"\]\(([^)\s]*)\)")
CITATION = re.compile(r"docs/rules/([\w.]+\.md)(?:#([\w-]+))?")
CITED_DECISION = re.compile(rf"\bdecisions? ([{LETTERS}])(\d+)\b")
DECISION_RANGE = re.compile(rf"\b([{LETTERS}])1[–-]\1(\d+)\b")


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = heading.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def page_text(name: str) -> str:
    return (RULES / name).read_text(encoding="utf-8")


def test_every_rules_page_is_checked():
    """A page not in ``DECISION_PREFIXES`` would pass every test below unread."""
    pages = sorted(path.name for path in RULES.glob("*.md") if path.name != "README.md")
    assert pages == sorted(GAME_PAGES), (
        f"docs/rules has {pages}, this test checks {sorted(GAME_PAGES)}: add the page and its decision letter to "
        "DECISION_PREFIXES")


def anchors_of(text: str) -> list[str]:
    """Heading anchors (GitHub numbers repeated ones ``-1``, ``-2``) and explicit ``<a id>`` anchors."""
    anchors: list[str] = []
    for _, title in HEADING.findall(text):
        base = github_anchor(title)
        anchor, repeat = base, 0
        while anchor in anchors:
            repeat += 1
            anchor = f"{base}-{repeat}"
        anchors.append(anchor)
    return anchors + EXPLICIT_ANCHOR.findall(text)


def listed_for_citing(text: str) -> list[str]:
    """The anchors of the "Anchors to cite" table at the top of a page."""
    start = text.index("**Anchors to cite**")
    table = text[start : text.index("\n## ", start)]
    return re.findall(r"`#([^`]+)`", table)


def test_the_index_and_every_game_page_exist():
    assert (RULES / "README.md").is_file()
    for name in GAME_PAGES:
        assert (RULES / name).is_file(), name


@pytest.mark.parametrize("name", GAME_PAGES)
def test_every_anchor_listed_for_citing_exists_and_headings_are_unique(name):
    text = page_text(name)
    anchors = anchors_of(text)
    listed = listed_for_citing(text)
    assert listed, f"{name} lists no anchors to cite"
    missing = [a for a in listed if a not in anchors]
    assert not missing, f"{name}: listed anchors without a heading: {missing}"
    slugs = [github_anchor(title) for _, title in HEADING.findall(text)]
    repeated = sorted({slug for slug in slugs if slugs.count(slug) > 1})
    assert not repeated, f"{name}: repeated headings get numbered, unstable anchors: {repeated}"


@pytest.mark.parametrize("name", GAME_PAGES)
def test_rule_sections_are_numbered_in_order_and_close_with_engine_model_and_decisions(name):
    level_two = [title for hashes, title in HEADING.findall(page_text(name)) if hashes == "##"]
    numbered = [title for title in level_two if re.match(r"\d+\. ", title)]
    assert [int(title.split(".")[0]) for title in numbered] == list(range(1, len(numbered) + 1))
    assert level_two[len(numbered) :] == ["Engine model", "Decisions where the rules are silent"]


@pytest.mark.parametrize("name", GAME_PAGES)
def test_each_decision_is_listed_with_an_anchor_and_marked_where_it_applies(name):
    text = page_text(name)
    rules_part, decisions_part = text.split(DECISIONS_HEADING)
    listed = LISTED_DECISION.findall(decisions_part)
    assert listed, f"{name} lists no decisions"
    for anchor, prefix, number in listed:
        assert anchor == f"{prefix.lower()}{number}", f"{name}: anchor {anchor!r} for {prefix}{number}"
        assert prefix in DECISION_PREFIXES[name], f"{name}: decision {prefix}{number} has a foreign prefix"
    labels = [f"{prefix}{number}" for _, prefix, number in listed]
    for prefix in DECISION_PREFIXES[name]:
        numbers = [int(label[1:]) for label in labels if label[0] == prefix]
        assert numbers == list(range(1, len(numbers) + 1)), f"{name}: {prefix} decisions out of order: {numbers}"
    marked = {label for group in INLINE_DECISION.findall(rules_part) for label in re.findall(r"[A-Z]\d+", group)}
    assert not marked - set(labels), f"{name}: marked inline but not listed: {sorted(marked - set(labels))}"
    assert not set(labels) - marked, f"{name}: listed but never marked inline: {sorted(set(labels) - marked)}"
    assert not INLINE_DECISION.findall(decisions_part) and "**(decision)**" not in text
    table = text[text.index("**Anchors to cite**") : text.index("\n## ")]
    ranges = re.findall(r"`#([a-z])1` … `#\1(\d+)`", table)
    assert {letter.upper() for letter, _ in ranges} == set(DECISION_PREFIXES[name]), f"{name}: {ranges}"
    for letter, last in ranges:
        count = sum(label[0] == letter.upper() for label in labels)
        assert int(last) == count, f"{name}: the anchors table says #{letter}1 … #{letter}{last}; {count} are listed"


@pytest.mark.parametrize("name", ("README.md", *GAME_PAGES))
def test_internal_links_resolve(name):
    for target in LINK.findall(page_text(name)):
        if target.startswith(("http://", "https://")):
            continue
        page, _, anchor = target.partition("#")
        linked = page or name
        assert (RULES / linked).is_file(), f"{name}: link to a missing page {target!r}"
        if anchor:
            assert anchor in anchors_of(page_text(linked)), f"{name}: link to a missing anchor {target!r}"


@pytest.mark.parametrize("name", ("README.md", *GAME_PAGES))
def test_pages_point_nowhere_outside_the_repository(name):
    text = page_text(name)
    assert paths_leaving_the_repository(RULES / name, text) == []
    for phrase in ("steering", "seed `"):  # words of the source documents' instructions, not rules
        assert phrase not in text.lower(), f"{name} mentions {phrase!r}"


def _listed_decisions() -> dict[str, list[int]]:
    """The numbers of the decisions each prefix has, from the pages' lists."""
    numbers: dict[str, list[int]] = {}
    for name in GAME_PAGES:
        decisions_part = page_text(name).split(DECISIONS_HEADING)[1]
        for _, prefix, number in LISTED_DECISION.findall(decisions_part):
            numbers.setdefault(prefix, []).append(int(number))
    return numbers


def test_every_citation_in_the_repository_exists():
    """Code, tests and docs cite ``docs/rules/<page>#<anchor>``, ``decision Xn`` and the whole list as
    ``X1–Xn``: each page, anchor and decision named must exist, and a range must end at the last decision."""
    anchors = {name: anchors_of(page_text(name)) for name in ("README.md", *GAME_PAGES)}
    decisions = _listed_decisions()
    wrong = []
    for path in tracked("*.py", "*.md", "*.html", "*.js"):
        text = path.read_text(errors="replace")
        where = path.relative_to(RULES.parents[1])
        for page, anchor in CITATION.findall(text):
            if page not in anchors or (anchor and anchor not in anchors[page]):
                wrong.append(f"{where}: docs/rules/{page}#{anchor}")
        for prefix, number in CITED_DECISION.findall(text):
            if int(number) not in decisions[prefix]:
                wrong.append(f"{where}: decision {prefix}{number}")
        for prefix, last in DECISION_RANGE.findall(text):
            if int(last) != max(decisions[prefix]):
                wrong.append(f"{where}: {prefix}1-{prefix}{last}, the last is {prefix}{max(decisions[prefix])}")
    assert wrong == []
