"""The forecasts the machine's lookahead keeps (interpreter/compiled/lookahead.py `remembered`):
for each scoring phase the bots forecast, the runs of the state array its points read, and a
table of forecasts kept by the numbers in those runs.

What a phase's points read comes from the interpreter's own analysis of the rules' expressions
(interpreter/dsl/reads.py, through tools/agents/score_memo.py `award_reads`, which the
interpreter's memo keys on), mapped here onto the machine's layout (compiled/lower.py names its
regions). A phase is kept only when every award's reads are known and have a place in the
layout; any other is worked out every time, as before. Whole numbers throughout: a kept
forecast is the forecast worked out afresh, so the bots' choices do not change.

Income phases are not kept: tried, the key of the income phase of the shipped rules (the
tokens, two modifiers, the owners, a phase's kept row: 125 numbers) cost more than working out
a seat's few places (greedy's machine time over one game's calls 33.2-34.7 ms without it,
33.8-37.5 ms with it).
"""

from __future__ import annotations

import numpy as np

from ...interpreter.compiled import ops
from ...interpreter.compiled.game import CompiledRules
from ...interpreter.compiled.lookahead import Q_CAPACITY, Q_HEAD, Q_KEY, Q_RUNS, Q_TABLE
from ...interpreter.mechanics.base import Mechanic
from ...interpreter.mechanics.score import Score
from ...interpreter.model import Rules
from .score_memo import award_reads

CAPACITY = 4096             # forecasts kept per phase (2 ** k: a row is found by masking the hash)


def forecast_memo(rules: Rules, machine: CompiledRules, phases: list[Mechanic]) -> np.ndarray:
    """Q for the forecasting phases `phases` (the mechanics, in F's order): a memo for each
    phase whose reads are known, -1 for the others."""
    described = [_runs(rules, machine, mech) if isinstance(mech, Score) else None for mech in phases]
    head = len(phases)
    Q: list[int] = [-1] * head
    tables = []
    for f, runs in enumerate(described):
        if runs is None:
            continue
        Q[f] = len(Q)
        key = sum(length for _, length in runs)
        Q += [0] * Q_HEAD
        Q[Q[f] + Q_CAPACITY], Q[Q[f] + Q_KEY], Q[Q[f] + Q_RUNS] = CAPACITY, key, len(runs)
        for start, length in runs:
            Q += [start, length]
        tables.append((Q[f], CAPACITY * (2 + key)))
    at = len(Q)
    for memo, size in tables:
        Q[memo + Q_TABLE] = at
        at += size
    return np.concatenate([np.array(Q, dtype=np.int64), np.zeros(at - len(Q), dtype=np.int64)])


def _runs(rules: Rules, machine: CompiledRules, mech: Score) -> list[tuple[int, int]] | None:
    """The runs of the state the phase's points read (start, length), or None when some award's
    reads are not known or some part has no place in the machine's state."""
    parts: set[tuple[str, ...]] = set()
    for award in mech.awards:
        reads = award_reads(award)
        if reads is None:
            return None
        parts |= reads
    runs: list[tuple[int, int]] = []
    for part in sorted(parts):
        found = _part_runs(rules, machine, part)
        if found is None:
            return None
        runs += found
    return runs


def _part_runs(rules: Rules, machine: CompiledRules, part: tuple[str, ...]) -> list[tuple[int, int]] | None:
    """Where one part of the state (interpreter/dsl/reads.py) lies in the machine's state array."""
    regions, T = machine.lowering.layout.regions, machine.T
    kind = part[0]
    if kind == "players":
        return [(ops.S_PLAYERS, 1)]
    if kind == "start_player":
        return [(ops.S_START, 1)]
    names = {"owner": ["owner"], "tokens": ["tokens"], "hands": ["hands", "hand_sizes"]}.get(kind)
    if names is None and len(part) == 2:
        names = {"mods": [f"modifier {part[1]}"], "kept": [f"kept {part[1]}"]}.get(kind)
    if names is not None:
        return [regions[name] for name in names] if all(name in regions for name in names) else None
    if kind == "options" and part[1] in rules.options:
        return [(int(T[ops.TH_S_OPTIONS]) + list(rules.options).index(part[1]), 1)]
    resources = machine.lowering.resources
    if kind == "resources" and part[1] in resources:
        count, r = len(resources), resources.index(part[1])
        return [(int(T[ops.TH_S_RES]) + seat * count + r, 1) for seat in range(int(T[ops.TH_SEATS]))]
    return None
