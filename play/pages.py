"""The frame every HTML page of the table shares: one head (viewport, style sheet, no favicon request) and
the top bar, around the body of the table page, the replay viewer (``play/static/*_body.html``) and the
rules pages."""

from __future__ import annotations

import html
from pathlib import Path

STATIC_DIR = Path(__file__).resolve().parent / "static"

FRAME = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{title}</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/static/style.css">{script}
</head>
<body {body_attributes}>
  <nav class="topbar">
    <strong>German tricks</strong>
    <a href="/">Table</a>
    <a href="/replay">Replay viewer</a>
    <span id="rules-links"></span>
  </nav>
{body}
</body>
</html>
"""


def html_page(title: str, body: str, body_attributes: str, script: str | None = None) -> str:
    """The whole page: ``body`` (HTML) after the top bar; ``script``, a module in ``play/static``."""
    script_tag = f'\n  <script type="module" src="/static/{script}"></script>' if script else ""
    return FRAME.format(title=html.escape(title), script=script_tag, body_attributes=body_attributes,
                        body=body.rstrip("\n"))


def static_page(title: str, body_file: str, body_attributes: str, script: str) -> str:
    """A page whose body is a file in ``play/static``, read on every request like the other static files."""
    return html_page(title, (STATIC_DIR / body_file).read_text(encoding="utf-8"), body_attributes, script)
