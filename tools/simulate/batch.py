"""What a run plays, as one picklable value that any process or host can act on: the rule sets
(arms), the seats' agents for each game, the base seed and the number of games; and the work
of one process, which builds the rules once and then plays any range of game indices.

A simulation has one arm; a comparison two, each game played under both with the same seed;
an arena one, with the agents changing seats from game to game (`Rotating`) or any other
`Seating` a caller writes. What the games are folded into is the caller's too: any class with
`add_game(records)` and `merge(other)` whose totals do not depend on the order of the games.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ...interpreter.load.build_rules import build_rules
from ...interpreter.load.document import Document
from ...interpreter.model import Rules
from .compiled_games import RANDOM, count_range, engine_plays
from .playing import Arm, GameRecord, play_game
from .seeds import game_seed
from .tally import Tally


class Seating(Protocol):
    def agents(self, index: int) -> tuple[str, ...]:
        """The agent spec of each seat in game `index` (a spec is what `make_agent` takes)."""


@dataclass(frozen=True)
class Fixed:
    """The same agent in the same seat in every game."""
    specs: tuple[str, ...]

    def agents(self, index: int) -> tuple[str, ...]:
        return self.specs


@dataclass(frozen=True)
class Rotating:
    """The agents move one seat on from game to game: over `len(specs)` games each agent has
    sat in every seat once."""
    specs: tuple[str, ...]

    def agents(self, index: int) -> tuple[str, ...]:
        shift = index % len(self.specs)
        return self.specs[-shift:] + self.specs[:-shift] if shift else self.specs


class Fold(Protocol):
    def add_game(self, records: tuple[GameRecord, ...]) -> None: ...
    def merge(self, other: Any) -> Any: ...


@dataclass(frozen=True)
class Batch:
    arms: tuple[Arm, ...]
    players: int
    seating: Any                      # a Seating
    seed: int
    games: int
    causes: bool = False              # count the engine's change events by cause (slower)
    engine: str = "compiled"          # where random agents play and bots look ahead: compiled, or the interpreter
    key: str = field(default="", compare=False)   # names the rules (merged data) a worker builds

    def __post_init__(self) -> None:
        if not self.key:
            text = json.dumps([arm.document.get("data") for arm in self.arms], sort_keys=True, default=str)
            object.__setattr__(self, "key", hashlib.sha256(text.encode()).hexdigest()[:16])


def arm_of(label: str, document: Document, options: dict[str, str] | None = None,
           start: dict[str, list[int]] | None = None) -> Arm:
    """An arm from a loaded (checked) document, with options and per-seat starting amounts."""
    return Arm(label, document.to_json(), tuple(sorted((options or {}).items())),
               tuple(sorted((name, tuple(values)) for name, values in (start or {}).items())))


class Worker:
    """One process's share of a batch: the rules (built once per process), games played on request."""

    def __init__(self, batch: Batch, make_fold: Callable[[], Fold]) -> None:
        self.batch, self.make_fold = batch, make_fold
        self.rules = built_rules(batch)
        self.engine = engine_plays(batch.engine)

    def plays_compiled(self) -> bool:
        """Whether the compiled engine plays this batch (random agents in every seat, no change
        events counted): its games are then best played a range at a time."""
        batch = self.batch
        return (batch.engine == "compiled" and not batch.causes
                and all(spec == RANDOM for spec in batch.seating.agents(0)))

    def play(self, index: int) -> tuple[GameRecord, ...]:
        """Game `index` under every arm, with the same seed and seats."""
        return self.games(index, index + 1)[0]

    def games(self, start: int, stop: int) -> list[tuple[GameRecord, ...]]:
        """Games start..stop-1, each under every arm: on the compiled engine where it plays them
        (random agents: compiled_games.py), else one by one in the interpreter."""
        batch = self.batch
        indices = list(range(start, stop))
        seeds = [game_seed(batch.seed, index) for index in indices]
        seatings = [tuple(batch.seating.agents(index)) for index in indices]
        per_arm = []
        for rules, arm in zip(self.rules, batch.arms):
            fast = None
            if not batch.causes and len(set(seatings)) == 1:
                fast = self.engine(rules, arm, batch.players, seatings[0], indices, seeds)
            per_arm.append(fast if fast is not None else [
                play_game(rules, arm, batch.players, agents, index, seed, batch.causes, batch.engine)
                for index, seed, agents in zip(indices, seeds, seatings)])
        return list(zip(*per_arm))

    def play_range(self, start: int, stop: int) -> Fold:
        """Games start..stop-1 folded into a fresh total (a simulation's Tally counts compiled
        games straight from their rows: compiled_games.count_range)."""
        fold = self.make_fold()
        batch = self.batch
        if type(fold) is Tally and batch.engine == "compiled" and not batch.causes:
            indices = list(range(start, stop))
            seatings = {tuple(batch.seating.agents(index)) for index in indices}
            if len(seatings) == 1 and count_range(fold, self.rules[0], batch.arms[0], seatings.pop(), indices,
                                                  [game_seed(batch.seed, index) for index in indices]):
                return fold
        for records in self.games(start, stop):
            fold.add_game(records)
        return fold

    def timed_range(self, start: int, stop: int) -> tuple[Fold, int, float]:
        """`play_range`, with the games played and the seconds they took: what a backend sends
        back, so that the next ranges can be sized to the pace (runner.Gather)."""
        began = time.perf_counter()
        fold = self.play_range(start, stop)
        return fold, stop - start, time.perf_counter() - began


_BUILT: dict[str, list[Rules]] = {}


def built_rules(batch: Batch) -> list[Rules]:
    """The batch's rules, built the first time this process needs them: a warm process (a pool
    worker, a Ray worker) keeps them however many ranges it plays."""
    rules = _BUILT.get(batch.key)
    if rules is None:
        _BUILT.clear()
        rules = _BUILT[batch.key] = [build_rules(Document.from_json(arm.document)) for arm in batch.arms]
    return rules
