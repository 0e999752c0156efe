"""Ratings from pairwise results: the Bradley-Terry model, fitted by Hunter's MM algorithm
(D. R. Hunter, *MM algorithms for generalized Bradley-Terry models*, Annals of Statistics 2004).

Each agent has a strength p; it beats another with probability p_i / (p_i + p_j). A many-seat
game gives a result between every two seats (who placed higher, or a tie), so a ranking of n
seats is n(n-1)/2 pairs. A tie counts half a win to each side. Strengths are shown on an
Elo-like scale, 1500 + 400 log10(p / geometric mean of all p): 200 points apart means the
stronger wins about three pairs in four, 400 apart ten in eleven.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

CENTRE, SCALE = 1500.0, 400.0


def bradley_terry(names: list[str], wins: Mapping[tuple[str, str], float], prior: float = 1.0,
                  rounds: int = 10000, tolerance: float = 1e-10) -> dict[str, float]:
    """Each name's strength (geometric mean 1) from `wins[a, b]`: a's wins over b, ties already
    counted half to each. `prior` adds that many drawn pairs between every two names that met,
    which keeps the strength of a name that never lost (or never won) finite; 0 is the plain
    maximum-likelihood fit."""
    met: dict[tuple[str, str], float] = {}
    won = {name: 0.0 for name in names}
    for a in names:
        for b in names:
            if a != b:
                games = wins.get((a, b), 0.0) + wins.get((b, a), 0.0)
                if games > 0:
                    met[a, b] = games + prior
                    won[a] += wins.get((a, b), 0.0) + prior / 2
    strength = {name: 1.0 for name in names}
    for _ in range(rounds):
        new = {}
        for a in names:
            denominator = sum(n / (strength[a] + strength[b]) for (x, b), n in met.items() if x == a)
            new[a] = won[a] / denominator if denominator > 0 else strength[a]
        new = _centred(new)
        change = max(abs(math.log(max(new[a], 1e-300) / max(strength[a], 1e-300))) for a in names)
        strength = new
        if change < tolerance:
            break
    return strength


def elo_scale(strength: float) -> float:
    """A strength of geometric mean 1 on the Elo-like scale (-inf for a name that never won)."""
    return CENTRE + SCALE * math.log10(strength) if strength > 0 else -math.inf


def _centred(strength: dict[str, float]) -> dict[str, float]:
    positive = [math.log(s) for s in strength.values() if s > 0]
    if not positive:
        return strength
    mean = math.exp(sum(positive) / len(positive))
    return {name: s / mean for name, s in strength.items()}
