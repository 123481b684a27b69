"""Estimates with 95% confidence intervals, games as the independent units.

Every figure of ``sushigo balance`` is a smooth function of per-game values (a mean, a ratio of
two sums, a standard deviation), so its interval is the normal approximation over games of its
linearisation (the delta method): each game contributes one linearised value ``l_g``, and the
interval is ``value +- z * stdev(l) / sqrt(n)`` (sample standard deviation, ``n - 1``). Scores of
one game are never treated as independent of each other. Differences between two rulesets
played on the same deals subtract the linearised values game by game (a paired interval).
Quantiles use Woodruff's interval: the standard error of the empirical distribution function at
the quantile, over games, mapped back through the quantile function. A share (one value in [0, 1]
per game, e.g. the part of the win that went to a seat) uses Wilson's score interval instead, which
never leaves [0, 1]: the normal approximation gave intervals such as [-32%, 99%] over a few games.

No resampling, so an estimate depends on the games alone (no second seed).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

__all__ = ["Z95", "Estimate", "mean", "quantile", "ratio", "share", "spread"]

#: The two-sided 95% normal quantile (1.959963984540054).
Z95 = NormalDist().inv_cdf(0.975)


@dataclass(frozen=True)
class Estimate:
    """A value with its 95% interval (None with fewer than two games or no spread to measure)."""

    value: float | None
    low: float | None
    high: float | None
    linear: tuple[float, ...] = field(default=(), repr=False, compare=False)  # per game

    def minus(self, other: Estimate) -> Estimate:
        """This figure minus ``other``'s, paired game by game (the same deals under both)."""
        if self.value is None or other.value is None or len(self.linear) != len(other.linear):
            return Estimate(None, None, None)
        paired = [a - b for a, b in zip(self.linear, other.linear, strict=True)]
        return _interval(self.value - other.value, paired)

    def as_json(self, digits: int = 4) -> dict[str, Any]:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, digits)

        ci = None if self.low is None or self.high is None else [r(self.low), r(self.high)]
        return {"value": r(self.value), "ci95": ci}


def _interval(value: float, linear: Sequence[float]) -> Estimate:
    n = len(linear)
    if n < 2:
        return Estimate(value, None, None, tuple(linear))
    m = math.fsum(linear) / n
    var = math.fsum((x - m) ** 2 for x in linear) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return Estimate(value, value - half, value + half, tuple(linear))


def mean(values: Sequence[float]) -> Estimate:
    """The mean of one value per game."""
    if not values:
        return Estimate(None, None, None)
    return _interval(math.fsum(values) / len(values), values)


def share(values: Sequence[float], certain: bool = False) -> Estimate:
    """The mean of one share per game, each in [0, 1] (a win counts 1, a win shared by k seats 1/k),
    with Wilson's score interval at the mean: inside [0, 1] however few the games, and not empty
    when every game gave the same share (no win in 20 games: 0% to 16%). With fractional shares
    the spread is at most p(1 - p), so the interval is conservative, never narrower than the
    binomial one. No interval with fewer than two games. ``certain``: the share cannot vary (a
    policy that holds every seat wins every game): the interval is the share itself."""
    n = len(values)
    if n == 0:
        return Estimate(None, None, None)
    if any(not 0.0 <= x <= 1.0 for x in values):
        raise ValueError("a share lies in [0, 1]")
    p = math.fsum(values) / n
    if n < 2:
        return Estimate(p, None, None, tuple(values))
    if certain:
        return Estimate(p, p, p, tuple(values))
    z2 = Z95 * Z95
    scale = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / scale
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / scale
    return Estimate(p, max(centre - half, 0.0), min(centre + half, 1.0), tuple(values))


def ratio(numerators: Sequence[float], denominators: Sequence[float]) -> Estimate:
    """``sum(numerators) / sum(denominators)`` (one pair per game, e.g. points and cards of a kind);
    linearised as ``(x_g - R y_g) / mean(y)``. None when the denominators sum to zero."""
    n = len(numerators)
    total = math.fsum(denominators)
    if n == 0 or total == 0:
        return Estimate(None, None, None)
    r = math.fsum(numerators) / total
    ybar = total / n
    return _interval(r, [(x - r * y) / ybar + r for x, y in zip(numerators, denominators, strict=True)])


def spread(per_game: Sequence[Sequence[float]]) -> Estimate:
    """The standard deviation of every score pooled (population form, as ``sushigo play`` gives
    it), each game holding the same number of scores; linearised through the first two moments."""
    n = len(per_game)
    if n == 0:
        return Estimate(None, None, None)
    a = [math.fsum(g) / len(g) for g in per_game]
    b = [math.fsum(x * x for x in g) / len(g) for g in per_game]
    m1, m2 = math.fsum(a) / n, math.fsum(b) / n
    sd = math.sqrt(max(m2 - m1 * m1, 0.0))
    if sd == 0:
        return Estimate(0.0, None, None)
    return _interval(sd, [sd - m1 / sd * (x - m1) + (y - m2) / (2 * sd) for x, y in zip(a, b, strict=True)])


def _inverse_cdf(pooled: Sequence[float], p: float) -> float:
    """The smallest pooled value whose empirical distribution function reaches ``p``."""
    k = max(math.ceil(p * len(pooled) - 1e-9), 1)
    return pooled[min(k, len(pooled)) - 1]


def quantile(per_game: Sequence[Sequence[float]], q: float) -> Estimate:
    """The ``q`` quantile of every score pooled (the inverse of the empirical distribution
    function), with Woodruff's interval over games."""
    pooled = sorted(x for g in per_game for x in g)
    if not pooled:
        return Estimate(None, None, None)
    value = _inverse_cdf(pooled, q)
    n = len(per_game)
    if n < 2:
        return Estimate(value, None, None)
    below = [sum(1 for x in g if x <= value) / len(g) for g in per_game]
    m = math.fsum(below) / n
    se = math.sqrt(math.fsum((f - m) ** 2 for f in below) / (n - 1) / n)
    lo, hi = max(q - Z95 * se, 0.0), min(q + Z95 * se, 1.0)
    return Estimate(value, _inverse_cdf(pooled, lo) if lo > 0 else pooled[0], _inverse_cdf(pooled, hi))
