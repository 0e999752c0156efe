"""Many games at once: simulations, paired comparisons, and the runner beneath them.

- `simulate(rules, games, ...)`, `compare(a, b, games, ...)` and `arena(rules, games, agents, ...)`
  (studies.py): what the `amunre simulate`, `compare` and `arena` commands run, returning the
  report as JSON-able data;
- `runner.run(batch, make_fold, jobs, backend)`: plays a `Batch` (rule sets, seats' agents
  per game, base seed, number of games) in this process, on a pool of processes or on Ray, and
  folds the games into any total that merges exactly (`Tally`, `PairedTally`, or a caller's);
- seeds.py: game `i` of base seed `S` is `game_seed(S, i)`, whatever runs it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:       # the names' types, for the type checker (the names themselves: _HOME)
    from .batch import Batch, Fixed, Rotating, Worker, arm_of  # noqa: F401
    from .playing import Arm, GameRecord, play_game  # noqa: F401
    from .runner import Outcome, available_cores, run  # noqa: F401
    from .seeds import agent_seed, game_seed  # noqa: F401
    from .studies import RuleSet, Study, arena, compare, simulate  # noqa: F401
    from .tally import Tally  # noqa: F401

# Each name from its module when first asked for: the CLI imports this package for a seed or the
# backends' names at every start, and the runner beneath (numpy among it) took a fifth of
# `amunre --help`'s start-up.
_HOME = {"Batch": "batch", "Fixed": "batch", "Rotating": "batch", "Worker": "batch", "arm_of": "batch",
         "Arm": "playing", "GameRecord": "playing", "play_game": "playing",
         "Outcome": "runner", "available_cores": "runner", "run": "runner",
         "agent_seed": "seeds", "game_seed": "seeds",
         "RuleSet": "studies", "Study": "studies", "arena": "studies", "compare": "studies", "simulate": "studies",
         "Tally": "tally"}

__all__ = sorted(_HOME)


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
    globals()[name] = value
    return value
