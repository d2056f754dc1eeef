"""Every figure that ``docs/training.md`` and ``docs/results.md`` quote is found in an artifact in the
repository: a JSON file under ``docs/results/`` or ``docs/training/`` (an arena match's ``--json``, a
benchmark's output) or a shipped network's record (``agents/neural/checkpoints/*.json``).

What counts as a figure (by rule, not by a list of exceptions):

- in a table row, every number written with a decimal point or an explicit sign (``+0.172``, ``1.82``,
  ``-5.16``, ``13.3`` in "13.3 M"), except in the first column (the row's label: a game, an agent, a setting);
- in prose (a paragraph or a list item), every number written with an explicit sign (``+``, ``-``, ``−``,
  ``±``: the margins and means of matches) and both ends of every interval ``[low, high]``;
- never what is inside code (fenced blocks and `code spans`: commands, options), nor headings.

So plain integers (deal counts, seeds, dates, thread counts, layer widths, worlds, milliseconds rounded to
whole numbers) and unsigned decimals in prose are not checked; version-like and date-like tokens
(``2026-11-30``, ``2+2``, ``256-256-256``) are not signed numbers, since a sign must not follow a letter or
digit.

A figure is found when a number of the artifact rounds to it at the precision it is written with (its
sign included; ``±x`` matches ``|v|``), the artifact's number scaled by the unit the figure is written
with: ``%`` (a share), ``M`` (millions), ``minutes`` (seconds) and ``ms`` (seconds) beside the figure or
in its table column's header. An interval is found only as a pair of numbers ``[low, high]`` of one
artifact; the figures of one table row, and a mean with the interval written right after it, must all
be found in one artifact.

Figures measured once and not kept are marked in the page: a paragraph or list item containing
``*Not on file*`` is not checked, and neither are the tables that follow it before the next paragraph.
"""

from __future__ import annotations

import bisect
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = ("docs/training.md", "docs/results.md")
ARTIFACT_GLOBS = ("docs/results/**/*.json", "docs/training/**/*.json", "agents/neural/checkpoints/*.json")
NOT_ON_FILE = "*not on file*"

NUMBER = r"(?<![\w.+\-−±])([+\-−±]?)(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?!\w|\.\d|,\d{3})"
NUMBER_RE = re.compile(NUMBER)
INTERVAL_RE = re.compile(r"\[\s*([+\-−]?[\d,]+(?:\.\d+)?)\s*,\s*([+\-−]?[\d,]+(?:\.\d+)?)\s*\]")
QUOTE_GAP = re.compile(r"[\s*]{0,4}$")
"""What may stand between a mean and its interval for the two to be one quote (spaces, bold marks)."""


@dataclass(frozen=True)
class Figure:
    text: str
    value: float
    decimals: int
    sign: str
    scales: tuple[float, ...] = (1.0,)

    @classmethod
    def parse(cls, text: str, unit: str = "") -> Figure:
        text = text.replace("−", "-")
        sign = text[0] if text[0] in "+-±" else ""
        digits = text.lstrip("+-±").replace(",", "")
        decimals = len(digits.split(".")[1]) if "." in digits else 0
        value = float(digits) * (-1 if sign == "-" else 1)
        return cls(text, value, decimals, sign, unit_scales(unit))

    def matches(self, number: float) -> bool:
        tolerance = 0.5 * 10 ** -self.decimals + 1e-9
        for scale in self.scales:
            scaled = number * scale
            if self.sign == "±":
                scaled = abs(scaled)
            if abs(scaled - self.value) <= tolerance and (self.sign != "+" or scaled >= -tolerance) \
                    and (self.sign != "-" or scaled <= tolerance):
                return True
        return False

    def window(self) -> list[tuple[float, float]]:
        """Ranges of artifact numbers that can match, one per scale."""
        tolerance = 0.5 * 10 ** -self.decimals + 1e-9
        ranges = []
        for scale in self.scales:
            targets = (self.value, -self.value) if self.sign == "±" else (self.value,)
            for target in targets:
                low, high = sorted(((target - tolerance) / scale, (target + tolerance) / scale))
                ranges.append((low, high))
        return ranges


def unit_scales(unit: str) -> tuple[float, ...]:
    """The factors from an artifact's number to the figure, by the unit written with it (a "95% CI" header
    names the interval, not a share)."""
    unit = re.sub(r"\d+%\s*(CI|interval)", "", unit)
    scales = [1.0]
    if "%" in unit:
        scales.append(100.0)
    if re.match(r"\s*M\b", unit):
        scales.append(1e-6)
    if "minute" in unit:
        scales.append(1 / 60)
    if re.search(r"\bms\b", unit):
        scales.append(1000.0)
    return tuple(scales)


@dataclass
class Quote:
    """Figures that must be found in one artifact: a table row, or a mean with its interval."""

    page: str
    line: int
    text: str
    figures: list[Figure] = field(default_factory=list)
    intervals: list[tuple[Figure, Figure]] = field(default_factory=list)


# ------------------------------------------------------------------------------------------- the pages


def without_code(text: str) -> str:
    return re.sub(r"`[^`]*`", " ", text)


def blocks(markdown: str) -> list[tuple[str, int, list[str]]]:
    """``(kind, first line number, lines)`` of the page's tables, paragraphs and list items; fenced code,
    headings, images and blank lines end a block and are left out."""
    found, current, kind, start, fenced = [], [], None, 0, False

    def close():
        nonlocal current, kind
        if current:
            found.append((kind, start, current))
        current, kind = [], None

    for number, line in enumerate(markdown.split("\n"), 1):
        stripped = line.strip()
        if stripped.startswith("```"):
            close()
            fenced = not fenced
            continue
        if fenced or not stripped or stripped.startswith("#") or stripped.startswith("!["):
            close()
            if stripped.startswith("#"):
                found.append(("heading", number, [stripped]))
            continue
        line_kind = "table" if stripped.startswith("|") else "prose"
        if line_kind != kind or (line_kind == "prose" and re.match(r"([-*]|\d+\.)\s", stripped)):
            close()
            kind, start = line_kind, number
        current.append(stripped)
    close()
    return found


def header_units(header: str) -> list[str]:
    return [cell.strip() for cell in without_code(header).strip().strip("|").split("|")]


def table_quotes(page: str, start: int, lines: list[str]) -> list[Quote]:
    quotes = []
    units = header_units(lines[0])
    for offset, row in enumerate(lines[2:], 2):
        cells = [cell.strip() for cell in without_code(row).strip().strip("|").split("|")]
        quote = Quote(page, start + offset, row)
        for column, cell in enumerate(cells[1:], 1):
            unit_of_column = units[column] if column < len(units) else ""
            for interval in INTERVAL_RE.finditer(cell):
                quote.intervals.append((Figure.parse(interval.group(1), unit_of_column),
                                        Figure.parse(interval.group(2), unit_of_column)))
            rest = INTERVAL_RE.sub(" ", cell)
            for match in NUMBER_RE.finditer(rest):
                if match.group(1) or match.group(3):
                    after = rest[match.end():match.end() + 12]
                    quote.figures.append(Figure.parse(match.group(0), after + " " + unit_of_column))
        if quote.figures or quote.intervals:
            quotes.append(quote)
    return quotes


def prose_quotes(page: str, start: int, lines: list[str]) -> list[Quote]:
    text = without_code(" ".join(lines))
    quotes, taken = [], []
    for interval in INTERVAL_RE.finditer(text):
        after = text[interval.end():interval.end() + 12]
        pair = (Figure.parse(interval.group(1), after), Figure.parse(interval.group(2), after))
        quote = Quote(page, start, interval.group(0), intervals=[pair])
        taken.append(interval.span())
        mean = None
        for match in NUMBER_RE.finditer(text, 0, interval.start()):
            mean = match
        if mean is not None and mean.group(1) and QUOTE_GAP.match(text[mean.end():interval.start()]):
            quote.figures.append(Figure.parse(mean.group(0), after))
            quote.text = text[mean.start():interval.end()]
            taken.append(mean.span())
        quotes.append(quote)
    for match in NUMBER_RE.finditer(text):
        if match.group(1) and not any(low <= match.start() < high for low, high in taken):
            after = text[match.end():match.end() + 12]
            quotes.append(Quote(page, start, match.group(0), figures=[Figure.parse(match.group(0), after)]))
    return quotes


def page_quotes(page: str, markdown: str) -> list[Quote]:
    """Every quote of the page that must be on file (blocks marked not on file left out)."""
    quotes, exempt = [], False
    for kind, start, lines in blocks(markdown):
        if kind == "heading":
            continue
        if kind == "prose":
            exempt = NOT_ON_FILE in " ".join(lines).lower()
            if not exempt:
                quotes += prose_quotes(page, start, lines)
        elif not exempt:
            quotes += table_quotes(page, start, lines)
    return quotes


# --------------------------------------------------------------------------------------------- artifacts


class Artifact:
    """The numbers of one JSON file, sorted, and its pairs ``[low, high]``."""

    def __init__(self, name: str, data) -> None:
        self.name = name
        numbers, pairs = [], []

        def walk(item):
            if isinstance(item, bool) or item is None:
                return
            if isinstance(item, (int, float)):
                if math.isfinite(item):
                    numbers.append(float(item))
            elif isinstance(item, dict):
                for value in item.values():
                    walk(value)
            elif isinstance(item, list):
                if len(item) == 2 and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in item):
                    pairs.append((float(item[0]), float(item[1])))
                for value in item:
                    walk(value)

        walk(data)
        self.numbers = sorted(numbers)
        self.pairs = sorted(pairs)

    def has(self, figure: Figure) -> bool:
        for low, high in figure.window():
            index = bisect.bisect_left(self.numbers, low)
            if index < len(self.numbers) and self.numbers[index] <= high and any(
                    figure.matches(number) for number in self.numbers[index:bisect.bisect_right(self.numbers, high)]):
                return True
        return False

    def has_pair(self, low: Figure, high: Figure) -> bool:
        for start, stop in low.window():
            index = bisect.bisect_left(self.pairs, (start, -math.inf))
            while index < len(self.pairs) and self.pairs[index][0] <= stop:
                first, second = self.pairs[index]
                if low.matches(first) and high.matches(second):
                    return True
                index += 1
        return False

    def holds(self, quote: Quote) -> bool:
        return all(self.has(figure) for figure in quote.figures) and all(
            self.has_pair(low, high) for low, high in quote.intervals)


def load_artifacts(root: Path = ROOT) -> list[Artifact]:
    paths = sorted({path for pattern in ARTIFACT_GLOBS for path in root.glob(pattern)})
    return [Artifact(str(path.relative_to(root)), json.loads(path.read_text(encoding="utf-8"))) for path in paths]


def unsupported(quotes: list[Quote], artifacts: list[Artifact]) -> list[Quote]:
    return [quote for quote in quotes if not any(artifact.holds(quote) for artifact in artifacts)]


# ------------------------------------------------------------------------------------------------- tests


@pytest.fixture(scope="module")
def artifacts() -> list[Artifact]:
    return load_artifacts()


@pytest.mark.parametrize("page", PAGES)
def test_every_figure_of_the_page_is_on_file(page, artifacts):
    quotes = page_quotes(page, (ROOT / page).read_text(encoding="utf-8"))
    assert quotes, f"{page}: no figures found, the parser is broken"
    missing = unsupported(quotes, artifacts)
    assert not missing, f"{len(missing)} figures of {page} are in no artifact ({', '.join(ARTIFACT_GLOBS)}):\n" + \
        "\n".join(f"  line {quote.line}: {quote.text}" for quote in missing)


SAMPLE_PAGE = """\
| game: a vs b | deals (seed) | units per hand | 95% CI | wall minutes |
|---|---|---|---|---|
| bavarian | 400 (7) | +0.200 | [+0.056, +0.345] | 8.0 |

The match gave **+0.401 [+0.112, +0.689]** per hand on 2026-11-30 (2+2 seatings, `--seed 7 --rl x=-1.5`).
"""
SAMPLE_ARTIFACT = {"units": 0.2004, "ci95": [0.0561, 0.3447], "difference": 0.4008, "ci": [0.1122, 0.6894],
                   "seconds": 480.2}


def sample_quotes(page: str) -> list[Quote]:
    return page_quotes("sample.md", page)


def test_the_sample_page_is_found_on_file():
    quotes = sample_quotes(SAMPLE_PAGE)
    assert [quote.text for quote in quotes if quote.line == 3] == [SAMPLE_PAGE.split("\n")[2]]
    assert sum(len(quote.figures) + 2 * len(quote.intervals) for quote in quotes) == 7, \
        "the dates, counts, seeds and code of the sample are not figures"
    assert unsupported(quotes, [Artifact("sample.json", SAMPLE_ARTIFACT)]) == []


@pytest.mark.parametrize(("change", "culprit"), [
    (("+0.200", "+0.210"), "+0.210"),  # a mean on file nowhere
    (("+0.200", "-0.200"), "-0.200"),  # the sign counts
    (("[+0.056, +0.345]", "[+0.056, +0.689]"), "[+0.056, +0.689]"),  # both ends are numbers of the file...
    (("8.0 |", "8.1 |"), "8.1"),  # a wall time (the artifact's seconds / 60)
    (("**+0.401", "**+0.402"), "+0.402"),  # a mean quoted in prose
    (("2+2 seatings", "2+2 seatings, +1.35 per hand"), "+1.35"),  # a signed number in prose
])
def test_an_unsupported_figure_fails(change, culprit):
    """The check can fail: each change of the sample page makes it name the changed figure."""
    page = SAMPLE_PAGE.replace(*change)
    assert page != SAMPLE_PAGE
    missing = unsupported(sample_quotes(page), [Artifact("sample.json", SAMPLE_ARTIFACT)])
    assert missing and all(culprit in quote.text for quote in missing)


def test_a_row_needs_one_artifact_for_all_its_figures():
    """Figures of one row found only in two different files are not a match on file."""
    split = [Artifact("a.json", {"units": 0.2004, "seconds": 480.2}),
             Artifact("b.json", {"ci95": [0.0561, 0.3447]})]
    rows = [quote for quote in sample_quotes(SAMPLE_PAGE) if quote.line == 3]
    assert unsupported(rows, split) == rows


def test_a_block_marked_not_on_file_is_left_out():
    marked = "*Not on file*: measured before the records were kept.\n\n" + SAMPLE_PAGE.split("\n\n")[0] + "\n"
    assert sample_quotes(marked) == []
    assert sample_quotes("Prose first.\n\n" + marked.split("\n\n", 1)[1])
