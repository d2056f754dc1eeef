"""Rules pages: the project's rules documentation (``docs/rules/*.md``) rendered to HTML."""

from __future__ import annotations

from pathlib import Path

from markdown_it import MarkdownIt

from trick_core.registry import GAME_NAMES

from .catalog import game_info
from .pages import html_page
from .session import PlayError

_PACKAGED_RULES_DIR = Path(__file__).resolve().parent / "rules_docs"
DEFAULT_RULES_DIR = (_PACKAGED_RULES_DIR if _PACKAGED_RULES_DIR.is_dir()
                     else Path(__file__).resolve().parent.parent / "docs" / "rules")
"""The rules pages: ``play/rules_docs`` links to ``docs/rules`` in a source checkout, and is a copy of it in an
installed wheel (``pyproject.toml``'s package data), so that the rules links work either way; ``docs/rules``
itself where a checkout has no symbolic links (git on Windows writes the link as a small file)."""

_MARKDOWN = MarkdownIt("js-default")  # CommonMark with tables; raw HTML in the page is escaped


def rules_path(game: str, rules_dir: Path) -> Path:
    return rules_dir / game_info(game).rules_file


def available_rules(rules_dir: Path) -> dict[str, bool]:
    return {game: rules_path(game, rules_dir).is_file() for game in GAME_NAMES}


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
    return html_page(f"Rules: {info.title}", f"<main class='rules'>{body}</main>", 'class="rules-page"')
