"""Modifiers: named numbers that effects set and mechanics or formulas read, each kept per
seat, per place or once for the game, for a declared lifetime.

A card that bends a rule (skip one more bid space, this province yields 8 instead) sets a
modifier; the rule reads it. Values live in `state.mods` as plain lists indexed by seat or
place (None where unset), so they save, clone and compare with the rest of the state, and
the engine clears every modifier whose lifetime (phase, round, age, game) has ended.
"""

from __future__ import annotations

from typing import Any

from ..base.state import GameState
from ..dsl.names import ModifierDef
from ..model import Game


def read(state: GameState, mod: ModifierDef, index: int = 0) -> Any:
    """The modifier's value for a seat or a place (`index`; 0 for a game modifier)."""
    values = state.mods.get(mod.name)
    if values is None:
        return mod.default
    value = values[index]
    return mod.default if value is None else value


def write(state: GameState, mod: ModifierDef, index: int, value: Any, places: int) -> None:
    values = state.mods.get(mod.name)
    if values is None:
        size = state.players if mod.scope == "seat" else places if mod.scope == "place" else 1
        values = state.mods[mod.name] = [None] * size
    values[index] = value


def set_by_rule(game: Game, mod: ModifierDef, index: int, value: Any, places: int, cause: Any) -> None:
    """An effect's `set` or `add`: written, and a `modifier` event when the game keeps its log."""
    write(game.state, mod, index, value, places)
    if game.log is not None:
        event: dict[str, Any] = {"event": "modifier", "modifier": mod.name}
        if mod.scope == "seat":
            event["seat"] = index
        elif mod.scope == "place":
            event["place"] = game.rules.place_ids[index]
        event.update(value=value, cause=cause.to_json())
        game.log.append(event)


def unset(state: GameState, mod: ModifierDef, index: int = 0) -> None:
    values = state.mods.get(mod.name)
    if values is not None:
        values[index] = None


def expire(state: GameState, names: tuple[str, ...]) -> None:
    """Forget the values of these modifiers (their lifetime has ended)."""
    mods = state.mods
    if mods:                     # most steps end with no modifier set
        for name in names:
            mods.pop(name, None)
