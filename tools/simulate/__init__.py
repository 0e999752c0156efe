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

if TYPE_CHECKING:
    from .batch import Batch, Fixed, Rotating, Worker, arm_of
    from .playing import Arm, GameRecord, play_game
    from .runner import Outcome, available_cores, run
    from .seeds import agent_seed, game_seed
    from .studies import RuleSet, Study, arena, compare, simulate
    from .tally import Tally

# Each name from its module when first asked for: the CLI imports this package for a seed or the
# backends' names at every start, and the runner beneath (numpy among it) took a fifth of
# `amunre --help`'s start-up.
_HOME = {"Batch": "batch", "Fixed": "batch", "Rotating": "batch", "Worker": "batch", "arm_of": "batch",
         "Arm": "playing", "GameRecord": "playing", "play_game": "playing",
         "Outcome": "runner", "available_cores": "runner", "run": "runner",
         "agent_seed": "seeds", "game_seed": "seeds",
         "RuleSet": "studies", "Study": "studies", "arena": "studies", "compare": "studies", "simulate": "studies",
         "Tally": "tally"}

__all__ = ["Arm", "Batch", "Fixed", "GameRecord", "Outcome", "Rotating", "RuleSet", "Study", "Tally", "Worker",
           "agent_seed", "arena", "arm_of", "available_cores", "compare", "game_seed", "play_game", "run", "simulate"]


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
    globals()[name] = value
    return value
