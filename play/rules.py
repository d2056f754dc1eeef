"""Rules pages: the project's rules documentation (``docs/rules/*.md``) rendered to HTML."""

from __future__ import annotations

import html
from pathlib import Path

from markdown_it import MarkdownIt

from .catalog import GAMES, game_info
from .session import PlayError

DEFAULT_RULES_DIR = Path(__file__).resolve().parent.parent / "docs" / "rules"
"""``docs/rules`` of the source checkout this package runs from."""

_MARKDOWN = MarkdownIt("js-default")  # CommonMark with tables; raw HTML in the page is escaped


def rules_path(game: str, rules_dir: Path) -> Path:
    return rules_dir / game_info(game).rules_file


def available_rules(rules_dir: Path) -> dict[str, bool]:
    return {game: rules_path(game, rules_dir).is_file() for game in GAMES}


def rules_page(game: str, rules_dir: Path) -> str:
    """The whole HTML page of ``game``'s rules; ``PlayError`` 404 if the game or its page is missing."""
    try:
        info = game_info(game)
    except ValueError as err:
        raise PlayError(404, str(err)) from None
    path = rules_path(game, rules_dir)
    if not path.is_file():
        raise PlayError(404, f"the rules page {info.rules_file} is not in {rules_dir}")
    body = _MARKDOWN.render(path.read_text(encoding="utf-8"))
    title = html.escape(f"Rules: {info.title}")
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        f"<meta name='viewport' content='width=device-width, initial-scale=1'><title>{title}</title>"
        "<link rel='stylesheet' href='/static/style.css'></head>"
        f"<body class='rules-page'><nav class='topbar'><a href='/'>Table</a> <a href='/replay'>Replay viewer</a></nav>"
        f"<main class='rules'>{body}</main></body></html>"
    )
