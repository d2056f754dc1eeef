"""Argument checks shared by every package: a bad value raises a ``ValueError`` that names the argument.

``bool`` is refused where a number is expected (``True`` is an ``int`` to Python, never a count here);
numpy integers are taken as integers.
"""

from __future__ import annotations

import numpy as np


def positive_int(value, what: str) -> int:
    """``value`` as a positive int, or ``ValueError`` naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or int(value) < 1:
        raise ValueError(f"{what} must be a positive integer, got {value!r}")
    return int(value)


def non_negative_int(value, what: str) -> int:
    """``value`` as an int of at least 0, or ``ValueError`` naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or int(value) < 0:
        raise ValueError(f"{what} must be a non-negative integer, got {value!r}")
    return int(value)


def probability(value, what: str) -> float:
    """``value`` as a float in [0, 1], or ``ValueError`` naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= float(value) <= 1.0:
        raise ValueError(f"{what} must be a number in [0, 1], got {value!r}")
    return float(value)


def check_seed(seed, owner: str, *, none_allowed: bool = True) -> int:
    """A seed (of ``reset(seed=...)``, an agent, a match): a non-negative integer, or ``ValueError`` naming
    ``owner`` (the game, the agent, the command). Callers that take ``None`` pass it on before calling;
    ``none_allowed=False`` leaves "(or None)" out of the message where the caller refuses it."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        alternative = " (or None)" if none_allowed else ""
        raise ValueError(f"{owner}: seed must be a non-negative integer{alternative}, got {seed!r}")
    return int(seed)
