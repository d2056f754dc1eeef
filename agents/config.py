"""Parsing ``key=value`` options from the command line (the arena's ``--config``, agent names in
brackets): ``parse_config(["players=4"]) == {"players": 4}``."""

from __future__ import annotations


def parse_config(items: list[str] | tuple[str, ...]) -> dict:
    """``["players=4", "variant=hattstedt"]`` -> ``{"players": 4, "variant": "hattstedt"}`` (ints, floats,
    ``true``/``false`` and ``none`` are converted; anything else stays a string)."""
    config = {}
    for item in items:
        key, sep, text = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"config option {item!r} must be written key=value")
        config[key.strip()] = parse_value(text.strip())
    return config


def parse_value(text: str):
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    if lowered in ("none", "null"):
        return None
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text
