"""Which engine steps an adapter's games, and what the adapters read of a game as numpy arrays.

`engine` is "interpreter", "compiled" or "auto" (the default: the compiled engine where it
plays the rules file, else the interpreter; `amunre.new_game`'s engines). Both play the very
same games: the same legal ids, positions, tensors and results. The compiled engine answers the
integer API at machine speed (`legal_action_ids`, `apply_id`, `over`, `to_move`, `result`,
`tensor(seat)`); whatever an adapter needs beyond it (a seat's view as a dict or as text, the
action dicts, an agent's search over guesses) is read from an interpreter Game at the same
position, kept in step by `InterpreterView`: the game's actions applied as they are asked for,
never replayed from the start. Needs numpy (imported by the adapters that do).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from ..interpreter import ENGINES
from ..interpreter import new_game as engine_game
from ..interpreter.base.errors import AmunreError, shown_repr
from ..interpreter.game import Game, new_game
from ..interpreter.model import Rules

DEFAULT_ENGINE = "auto"


class Stopped(Exception):
    """A compiled position's machine stopped where the interpreter must answer (a number past
    its range): adapters/compiled_positions.py raises it, the adapter asks its interpreter Game."""


def checked_engine(engine: Any) -> str:
    if engine not in ENGINES:
        raise AmunreError(f"engine is one of {', '.join(ENGINES)}, not {shown_repr(engine, 40)}")
    return engine


def say_compiling(message: str) -> None:
    """An adapter's word that it compiles the machine code, on standard error: an environment's
    constructor or first reset would otherwise sit silent for half a minute to two, once per
    install (the code is kept, and loads in seconds after)."""
    print(f"amunre: {message}", file=sys.stderr, flush=True)


def compile_ahead(rules: Rules, *parts: str) -> None:
    """The machine code a game of these rules needs on the compiled engine, and the `parts`
    an adapter needs beside it, compiled now if they are not kept yet, saying so (one notice,
    one compile shared with a second process); nothing where the compiled engine does not
    play the rules (the engine's own call then raises, or "auto" takes the interpreter)."""
    from ..interpreter.compiled import hubs
    from ..interpreter.compiled.game import parts_of
    from ..interpreter.compiled.not_compiled import NotCompiled
    try:
        needed = parts_of(rules)
    except NotCompiled:
        return
    hubs.prepare([*needed, *parts], say_compiling)


def start(rules: Rules, players: int, seed: int, setup: dict[str, Any], engine: str, events: bool = False) -> Any:
    """A new seeded game on the engine asked for (NotCompiled for "compiled" where it does not
    play these rules); a Game or a CompiledGame, with the same integer API. `events`: a Game
    keeps its event log (a CompiledGame keeps none: an InterpreterView with events has it)."""
    if engine != "interpreter":
        compile_ahead(rules, "tensor")              # the adapters observe through the tensor
        game = engine_game(rules, players, seed, setup, events=False, engine=engine)
        if not events or not isinstance(game, Game):
            return game
    return new_game(rules, players, seed, setup, events=events)


def observation32(game: Any, seat: int) -> np.ndarray:
    """The seat's observation tensor as a new float32 array (from the compiled engine's own
    array where it plays: no list of Python floats)."""
    if isinstance(game, Game):
        return np.asarray(game.observation_tensor(seat), np.float32)
    return game.tensor(seat).astype(np.float32)


def public32(game: Any) -> np.ndarray:
    """The public observation tensor as a new float32 array."""
    if isinstance(game, Game):
        return np.asarray(game.public_observation_tensor(), np.float32)
    return game.tensor(-1).astype(np.float32)


def legal_mask(game: Any, size: int) -> np.ndarray:
    """The legal actions of the seat to move, as int8 0/1 over the whole action space."""
    mask = np.zeros(size, np.int8)
    mask[game.legal_action_ids()] = 1
    return mask


class InterpreterView:
    """An interpreter Game at the position of a game an adapter plays, for what the compiled
    engine does not answer. For a Game it is that Game; for a compiled one, an interpreter Game
    of the same seed and set-up that is brought up to date, when asked, by applying the actions
    taken since it was last asked (one interpreter step per action, at most once each).
    `events`: that Game keeps its event log (rendering shows the bids from it)."""

    def __init__(self, events: bool = False) -> None:
        self.events = events
        self.of: Any = None            # the compiled game followed
        self.game: Game | None = None  # the interpreter's, at len(self.game.history) actions of it

    def at(self, game: Any) -> Game:
        if isinstance(game, Game):
            return game
        if game.fallback is not None and not self.events:      # the interpreter plays it on already
            return game.fallback
        view = self.game
        if game is not self.of or view is None or len(view.history) > len(game.history):
            view = self.game = new_game(game.rules, game.players, game.seed, game.setup, events=self.events)
            self.of = game
        for action in game.history[len(view.history):]:
            view.apply_id(action)
        return view
