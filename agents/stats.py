"""Interval arithmetic for the arena: means with Student-t confidence intervals, without scipy.

The arena's unit of independence is the *deal*: every deal is played once per seating and each agent's
result is first averaged over the seatings of that deal, so the per-deal results are independent and
identically distributed, and the classical one-sample t interval applies (the paired difference of two
agents is the one-sample interval of their per-deal differences).

The t quantile is computed from the regularised incomplete beta function (continued fraction, as in
Numerical Recipes ``betacf``) and inverted by bisection, so the module needs only the standard library
and numpy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

_BETA_EPSILON = 1e-15
_BETA_TINY = 1e-300
_BETA_MAX_ITERATIONS = 500


def _incomplete_beta_fraction(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz), converging for
    ``x < (a + 1) / (a + b + 2)``."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > _BETA_TINY else _BETA_TINY)
    h = d
    for m in range(1, _BETA_MAX_ITERATIONS + 1):
        m2 = 2 * m
        even_step = m * (b - m) * x / ((qam + m2) * (a + m2))
        odd_step = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        for numerator in (even_step, odd_step):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > _BETA_TINY else _BETA_TINY)
            c = 1.0 + numerator / c
            c = c if abs(c) > _BETA_TINY else _BETA_TINY
            h *= d * c
        if abs(d * c - 1.0) < _BETA_EPSILON:
            break
    return h


def regularized_incomplete_beta(a: float, b: float, x: float) -> float:
    """``I_x(a, b)`` for ``a, b > 0`` and ``0 <= x <= 1``."""
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"x must lie in [0, 1], got {x}")
    if x in (0.0, 1.0):
        return x
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    front = math.exp(log_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _incomplete_beta_fraction(a, b, x) / a
    return 1.0 - front * _incomplete_beta_fraction(b, a, 1.0 - x) / b


def student_t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom."""
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, got {df}")
    tail = 0.5 * regularized_incomplete_beta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


def student_t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t (bisection on the cdf; absolute error below 1e-10)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must lie in (0, 1), got {p}")
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, got {df}")
    if p < 0.5:
        return -student_t_quantile(1.0 - p, df)
    low, high = 0.0, 1.0
    while student_t_cdf(high, df) < p:
        high *= 2.0
    while high - low > 1e-11:
        middle = 0.5 * (low + high)
        if student_t_cdf(middle, df) < p:
            low = middle
        else:
            high = middle
    return 0.5 * (low + high)


@dataclass(frozen=True)
class Interval:
    """A sample mean with its two-sided confidence interval (``low``/``high`` are NaN below two samples)."""

    mean: float
    low: float
    high: float
    count: int
    std: float
    confidence: float = 0.95

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2.0

    def excludes_zero(self) -> bool:
        """Significant at the interval's level: zero lies outside the interval."""
        return self.count >= 2 and (self.low > 0.0 or self.high < 0.0)

    def as_list(self) -> list[float | None]:
        """``[low, high]`` for JSON (``None`` where undefined)."""
        return [_finite_or_none(self.low), _finite_or_none(self.high)]


def _finite_or_none(value: float) -> float | None:
    return float(value) if math.isfinite(value) else None


def mean_interval(values, confidence: float = 0.95) -> Interval:
    """Mean of ``values`` with the Student-t interval ``mean ± t(1-α/2, n-1) · s / √n``."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence}")
    sample = np.asarray(values, dtype=np.float64).ravel()
    if sample.size == 0:
        raise ValueError("cannot take the mean of an empty sample")
    if not np.all(np.isfinite(sample)):
        raise ValueError("the sample holds a NaN or infinite value")
    mean = float(sample.mean())
    if sample.size < 2:
        return Interval(mean, math.nan, math.nan, 1, math.nan, confidence)
    std = float(sample.std(ddof=1))
    half = student_t_quantile(0.5 + confidence / 2.0, sample.size - 1) * std / math.sqrt(sample.size)
    return Interval(mean, mean - half, mean + half, int(sample.size), std, confidence)


def paired_difference_interval(first, second, confidence: float = 0.95) -> Interval:
    """Interval of the mean of ``first - second``, paired element by element (same deals)."""
    a = np.asarray(first, dtype=np.float64).ravel()
    b = np.asarray(second, dtype=np.float64).ravel()
    if a.shape != b.shape:
        raise ValueError(f"paired samples differ in length: {a.size} and {b.size}")
    return mean_interval(a - b, confidence)


@dataclass(frozen=True)
class WinRecord:
    """Deals won, tied and lost by one agent against another (compared per deal, duplicate style)."""

    wins: int
    ties: int
    losses: int

    @property
    def win_rate(self) -> float:
        """Share of deals won, a tie counting half."""
        total = self.wins + self.ties + self.losses
        return (self.wins + 0.5 * self.ties) / total if total else math.nan


def win_record(first, second, tolerance: float = 1e-9) -> WinRecord:
    """Compare per-deal results of two agents: a deal is won when ``first`` exceeds ``second``."""
    difference = np.asarray(first, dtype=np.float64) - np.asarray(second, dtype=np.float64)
    wins = int(np.sum(difference > tolerance))
    losses = int(np.sum(difference < -tolerance))
    return WinRecord(wins, int(difference.size) - wins - losses, losses)
