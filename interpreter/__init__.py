"""The game-generic interpreter: load, check and compile a rules file, then play it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .base.errors import AmunreError, IllegalAction, RulesError
from .game import Game, load_rules
from .game import new_game as _new_game
from .model import Rules

__all__ = ["AmunreError", "Game", "IllegalAction", "RulesError", "load_rules", "new_game"]

ENGINES = ("interpreter", "compiled", "auto")


def new_game(rules: Rules, players: int = 4, seed: int = 0, setup: dict[str, Any] | None = None,
             events: bool = True, chance: Callable[[int], int] | None = None, engine: str = "interpreter") -> Any:
    """A new game at its first decision (interpreter/game.py `new_game` says what each argument
    does). `engine="compiled"` plays it on the compiled engine (interpreter/compiled/): the very
    same game, with the integer API (`legal_action_ids`, `apply_id`, `clone`, `over`, `to_move`,
    `result`, `observation_tensor`) at machine speed, and `to_game()` for an interpreter Game of
    it; it keeps no event log and takes no `chance`, and raises NotCompiled for rules (or a
    set-up) it does not play. `engine="auto"` is the compiled engine where it plays the game,
    else the interpreter."""
    if engine not in ENGINES:
        raise AmunreError(f"unknown engine '{engine}'; choose from {', '.join(ENGINES)}")
    if engine == "interpreter" or (engine == "auto" and (events or chance is not None)):
        return _new_game(rules, players, seed, setup, events, chance)
    if events or chance is not None:
        raise AmunreError("a game on the compiled engine keeps no event log and takes no chance function: "
                          "pass events=False (and no chance), or engine='interpreter'")
    from .compiled import new_compiled_game
    from .compiled.not_compiled import NotCompiled
    try:
        return new_compiled_game(rules, players, seed, setup)
    except NotCompiled:
        if engine == "auto":
            return _new_game(rules, players, seed, setup, events=False)
        raise
