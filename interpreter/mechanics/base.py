"""What every mechanic primitive shares: the interface the engine calls, and turn order.

A mechanic is one named building block (auction, market, ...) with parameters from the rules
file, compiled once. While its phase runs, all its progress lives in `state.phase` (plain
data), so a game can be saved and resumed in the middle of any phase.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..dsl_names import ModifierDef, Query


class Mechanic:
    name: ClassVar[str]
    doc: ClassVar[str] = ""
    queries: ClassVar[dict[str, Query]] = {}          # readable in DSL as <phase id>.<query>
    modifiers: ClassVar[dict[str, ModifierDef]] = {}  # settable in DSL as <phase id>.<modifier>

    def __init__(self, phase_id: str, build: Any) -> None:
        self.phase_id = phase_id

    def modifier(self, name: str) -> ModifierDef:
        """This phase's own copy of a modifier, named `<phase id>.<name>` in the DSL and the state."""
        spec = self.modifiers[name]
        return ModifierDef(f"{self.phase_id}.{name}", spec.scope, spec.default, spec.doc)

    def describe(self) -> str:
        """One plain-English sentence about what this phase does with its parameters."""
        return self.doc

    def begin(self, game: Any) -> None:
        """Set up state.phase when the phase starts."""

    def next_seat(self, game: Any) -> int | None:
        """Carry out automatic steps; the seat that must decide next, or None when the phase is over."""
        raise NotImplementedError

    def legal(self, game: Any, seat: int) -> list[dict[str, Any]]:
        raise NotImplementedError

    def apply(self, game: Any, seat: int, action: dict[str, Any]) -> None:
        """Carry out an action already checked to be legal."""
        raise NotImplementedError


def turn_order(state: Any) -> list[int]:
    """Seats from the start player on, clockwise."""
    n = state.players
    return [(state.start_player + i) % n for i in range(n)]
