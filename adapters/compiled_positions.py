"""Positions of an explicit-chance game (adapters/explicit.py) on the compiled engine.

The compiled engine takes no chance function: it draws from its own generator. So an
explicit-chance game plays its set-up, and every action that draws, in the interpreter (whose
draws are the chance nodes), and hands each position it reaches to the compiled engine
(compiled/pack.py: the interpreter's position as the compiled state array, region by region,
as the tests of the compiled engine compare them after every action). An action is tried on
the compiled engine first, on a copy: where it draws (its generator moved) or the machine
stops, the copy is dropped and the interpreter carries the action out, with its chance nodes.
The compiled engine plays the same games as the interpreter, draw for draw, so an action
draws on one exactly when it draws on the other.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..interpreter.base.errors import AmunreError
from ..interpreter.compiled import ops
from ..interpreter.compiled.core import MachineStop
from ..interpreter.compiled.entry import APPLY
from ..interpreter.compiled.game import NATIVE_SETUP, CompiledGame, CompiledRules, compiled
from ..interpreter.compiled.not_compiled import NotCompiled
from ..interpreter.compiled.pack import pack
from ..interpreter.game import Game
from ..interpreter.model import Rules
from .engine import Stopped, compile_ahead


class Position(CompiledGame):
    """A position of an explicit-chance game on the compiled engine, for its integer API only
    (`legal_action_ids`, `over`, `to_move`, `tensor`, `result`). No seed replays such a game
    (its draws were chance outcomes), so it never hands itself to a seeded replay: where the
    machine stops it raises Stopped, and the rest of the Game API is refused (the explicit
    game's own interpreter Game answers it)."""

    def _take_over(self, history: list[int]) -> None:
        raise Stopped()

    def as_game(self) -> Game:
        raise AmunreError("a compiled position of an explicit-chance game answers the integer API only")

    def to_game(self, events: bool = True) -> Game:
        return self.as_game()

    def tensor(self, seat: int) -> np.ndarray:
        try:
            return super().tensor(seat)
        except MachineStop:
            raise Stopped() from None


def machine_for(rules: Rules, setup: dict[str, Any], engine: str) -> CompiledRules | None:
    """The compiled rules to play positions with, or None: the interpreter plays it all (the
    engine asked for, or "auto" where the rules do not compile; "compiled" raises NotCompiled)."""
    if engine == "interpreter":
        return None
    try:
        compile_ahead(rules, "tensor")
        machine = compiled(rules)
        extra = set(setup) - NATIVE_SETUP
        if extra:
            raise NotCompiled(f"a set-up with {', '.join(sorted(extra))}")
    except NotCompiled:
        if engine == "compiled":
            raise
        return None
    return machine


def packed(machine: CompiledRules, game: Game) -> Position | None:
    """The interpreter's position as a compiled one; None where some region of it has no
    packing (its counts of picks are a study's only: no play reads them)."""
    if game.state.to_move is not None:
        game.legal_action_ids()                 # a restored Game (a guess) works its decision out first
    S, unknown = pack(game, machine.lowering, machine.T)
    if any(not region.startswith("picks ") for region in unknown):
        return None
    return Position(machine, S, game.state.players, 0, game.setup)


def step(position: Position, action: int) -> Position | None:
    """The position after a legal action, on the compiled engine; None where the action draws
    (its chance nodes are the interpreter's) or the machine stops."""
    machine = position.machine
    S = position.S.copy()
    generator = S[ops.S_RNG]
    try:
        legal = machine.call(S, APPLY, action)
    except MachineStop:
        return None
    if not legal or S[ops.S_RNG] != generator:
        return None
    return Position(machine, S, position.players, 0, position.setup)
