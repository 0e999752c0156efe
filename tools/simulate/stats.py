"""The statistics of a simulation, in plain Python (no SciPy): intervals, tests and the few
distribution functions they need.

- a proportion (a win rate): the Wilson score interval, which stays inside [0, 1] and keeps
  its 95% coverage for rates near 0 or 1 and for small samples, unlike the textbook p ± 1.96 se;
- a mean: Student's t interval;
- equal win rates for every seat: Pearson's chi-square goodness-of-fit test;
- paired games (the same seed under two rule sets): the paired t-test on per-game differences,
  the Wilcoxon signed-rank test as its distribution-free check, McNemar's exact test for a
  yes/no outcome (a win);
- a figure of many games (balance, drama): the percentile interval of a Poisson bootstrap of
  the games grouped by outcome (for a paired comparison, of the pairs grouped by both outcomes);
- many rows tested at once: Holm's step-down correction.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from fractions import Fraction
from statistics import NormalDist
from typing import Any, TypeVar

Z95 = NormalDist().inv_cdf(0.975)
LEVEL = 0.95
BOOTSTRAP = 200           # bootstrap replicates

T = TypeVar("T")
Exact = int | float | Fraction        # sums: whole numbers, or fractions (counts per round)


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (0, 1 when there are no trials). Successes may
    be fractional: an arena splits a shared win."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_sd(total: Exact, squares: Exact, count: int) -> tuple[float, float]:
    """Mean and sample standard deviation from a count, a sum and a sum of squares (integers and
    fractions keep them exact however the games were split)."""
    if count == 0:
        return math.nan, math.nan
    mean = float(total / count)
    if count < 2:
        return mean, 0.0
    variance = (squares - total * total / count) / (count - 1)
    return mean, math.sqrt(max(float(variance), 0.0))


def mean_interval(total: Exact, squares: Exact, count: int) -> tuple[float, float]:
    """Student's t interval of a mean (the mean itself, twice, when it has no spread)."""
    mean, sd = mean_sd(total, squares, count)
    if count < 2 or sd == 0:
        return mean, mean
    half = t_quantile(0.975, count - 1) * sd / math.sqrt(count)
    return mean - half, mean + half


def paired_t(total: Exact, squares: Exact, count: int) -> float:
    """Two-sided p-value of the paired t-test that the mean per-game difference is 0."""
    mean, sd = mean_sd(total, squares, count)
    if count < 2 or math.isnan(mean):
        return 1.0
    if sd == 0:
        return 1.0 if mean == 0 else 0.0
    t = mean / (sd / math.sqrt(count))
    return t_two_sided(t, count - 1)


def wilcoxon(differences: dict[int, int]) -> float:
    """Two-sided p-value of the Wilcoxon signed-rank test, from a histogram of (integer) per-game
    differences: zeros dropped (Wilcoxon's way), ties given their mean rank, the normal
    approximation with the tie correction (the samples here are hundreds of games)."""
    magnitudes: dict[int, list[int]] = {}
    for value, times in differences.items():
        if value:
            entry = magnitudes.setdefault(abs(value), [0, 0])
            entry[value > 0] += times
    n = sum(a + b for a, b in magnitudes.values())
    if n == 0:
        return 1.0
    rank, positive, ties = 0, 0.0, 0.0
    for magnitude in sorted(magnitudes):
        below, above = magnitudes[magnitude]
        size = below + above
        positive += above * (rank + (size + 1) / 2)
        ties += size ** 3 - size
        rank += size
    expected = n * (n + 1) / 4
    variance = n * (n + 1) * (2 * n + 1) / 24 - ties / 48
    if variance <= 0:
        return 1.0
    z = (abs(positive - expected) - 0.5) / math.sqrt(variance)
    return min(1.0, 2 * (1 - NormalDist().cdf(max(z, 0.0))))


def mcnemar(only_a: int, only_b: int) -> float:
    """Two-sided p-value of McNemar's exact test: of the games where the outcome differs
    between the pair, is each side as likely to hold it? (A binomial test at 1/2.)"""
    n = only_a + only_b
    if n == 0:
        return 1.0
    k = min(only_a, only_b)
    if n > 5000:                       # the normal approximation, with continuity correction
        z = (abs(only_a - only_b) - 1) / math.sqrt(n)
        return min(1.0, 2 * (1 - NormalDist().cdf(max(z, 0.0))))
    log_half = n * math.log(0.5)
    tail = sum(math.exp(math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + log_half)
               for i in range(k + 1))
    return min(1.0, 2 * tail)


def equal_rates(counts: list[int], trials: int) -> float:
    """p-value of Pearson's chi-square test that every seat wins equally often (counts of wins;
    a shared win counts for each winner, so the test is approximate when ties are common)."""
    total = sum(counts)
    k = len(counts)
    if total == 0 or k < 2 or trials == 0:
        return 1.0
    expected = total / k
    statistic = sum((c - expected) ** 2 / expected for c in counts)
    return chi2_sf(statistic, k - 1)


def holm(p_values: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values: a row is significant at 5% when its adjusted p is
    below 0.05, and the chance of any false mark among all rows stays under 5%."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [1.0] * len(p_values)
    running = 0.0
    m = len(p_values)
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def bootstrap(counts: dict[Any, int], statistic: Callable[[dict[Any, int]], T],
              replicates: int = BOOTSTRAP) -> list[T]:
    """Replicates of a statistic of games grouped by outcome (outcome -> games). Resampling
    every game with a Poisson(1) weight (the Poisson bootstrap) gives each outcome a Poisson
    number of games with its count as mean: so the replicates need only the counts, which a
    tally keeps in bounded memory. The generator is seeded with a constant: the same counts
    give the same interval."""
    rng = random.Random(0)
    keys = sorted(counts, key=repr)
    return [statistic({key: _poisson(rng, counts[key]) for key in keys}) for _ in range(replicates)]


def _poisson(rng: random.Random, mean: float) -> int:
    """A Poisson variate: by products of uniforms for small means, else its normal approximation
    (whose error is far below what a 95% bootstrap interval resolves)."""
    if mean >= 30:
        return max(0, round(rng.gauss(mean, math.sqrt(mean))))
    limit, product, count = math.exp(-mean), rng.random(), 0
    while product > limit:
        product *= rng.random()
        count += 1
    return count


def percentile_interval(values: list[float]) -> tuple[float, float]:
    """The central 95% of bootstrap replicates (NaN replicates, e.g. of an empty subset, left out)."""
    kept = sorted(v for v in values if not math.isnan(v))
    if not kept:
        return math.nan, math.nan
    return _quantile(kept, (1 - LEVEL) / 2), _quantile(kept, 1 - (1 - LEVEL) / 2)


def bootstrap_p(values: list[float]) -> float:
    """Two-sided p-value from bootstrap replicates of a difference: twice the share on the
    smaller side of 0 (a coarse figure, in steps of 2/replicates)."""
    kept = [v for v in values if not math.isnan(v)]
    if not kept:
        return 1.0
    if all(v == 0 for v in kept):
        return 1.0
    below = sum(v <= 0 for v in kept) / len(kept)
    above = sum(v >= 0 for v in kept) / len(kept)
    return min(1.0, 2 * min(below, above))


def histogram_quantile(histogram: dict[int, int], q: float) -> float:
    """A quantile of integer values kept as value -> count (the median: q = 0.5)."""
    count = sum(histogram.values())
    if count == 0:
        return math.nan
    position = q * (count - 1)
    low_rank, high_rank = math.floor(position), math.ceil(position)
    lower: int | None = None
    upper: int | None = None
    seen = 0
    for value in sorted(histogram):
        seen += histogram[value]
        if lower is None and seen > low_rank:
            lower = value
        if seen > high_rank:
            upper = value
            break
    # Both found: the counts add up to `count`, past high_rank <= count - 1.
    assert lower is not None and upper is not None
    return lower + (upper - lower) * (position - low_rank)


def _quantile(ordered: list[float], q: float) -> float:
    position = q * (len(ordered) - 1)
    lower = math.floor(position)
    upper = min(lower + 1, len(ordered) - 1)
    return ordered[lower] + (ordered[upper] - ordered[lower]) * (position - lower)


# ---- distribution functions -----------------------------------------------------------------

def t_two_sided(t: float, df: int) -> float:
    """P(|T| >= |t|) for Student's t with df degrees of freedom."""
    x = df / (df + t * t)
    return min(1.0, _beta_regularized(df / 2, 0.5, x))


def t_quantile(p: float, df: int) -> float:
    """The p-quantile (p > 0.5) of Student's t, by bisection on the distribution function."""
    lower, upper = 0.0, 1.0
    while t_two_sided(upper, df) > 2 * (1 - p):
        upper *= 2
    for _ in range(100):
        middle = (lower + upper) / 2
        if t_two_sided(middle, df) > 2 * (1 - p):
            lower = middle
        else:
            upper = middle
    return (lower + upper) / 2


def chi2_sf(x: float, k: int) -> float:
    """P(X >= x) for a chi-square variable with k degrees of freedom."""
    if x <= 0:
        return 1.0
    return _gamma_upper_regularized(k / 2, x / 2)


def _beta_regularized(a: float, b: float, x: float) -> float:
    """I_x(a, b), by its continued fraction (Lentz's method)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x > (a + 1) / (a + b + 2):
        return 1.0 - front * _beta_fraction(b, a, 1 - x) / b
    return front * _beta_fraction(a, b, x) / a


def _beta_fraction(a: float, b: float, x: float) -> float:
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 300):
        for numerator in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                          -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1.0) < 1e-14:
            break
    return result


def _gamma_upper_regularized(a: float, x: float) -> float:
    """Q(a, x): the series below a + 1, the continued fraction above."""
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        for _ in range(1000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    result = d
    for i in range(1, 1000):
        numerator = -i * (i - a)
        b += 2
        d = numerator * d + b
        d = 1 / (d if abs(d) > tiny else tiny)
        c = b + numerator / c
        c = c if abs(c) > tiny else tiny
        result *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * result)
