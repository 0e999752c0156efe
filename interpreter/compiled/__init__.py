"""The compiled engine: a rules file lowered to flat integer tables and played by machine code
(docs/engine.md, "The compiled engine"). Importing it lets numba keep this package's machine
code in amunre's cache (compiled/cache.py) before any of it is compiled."""

from . import cache  # noqa: F401  (registers where the machine code is kept, first)
from .game import CompiledGame, CompiledRules, compiled, new_compiled_game
from .not_compiled import NotCompiled
from .study import Rows, play_random

__all__ = ["CompiledGame", "CompiledRules", "NotCompiled", "Rows", "compiled", "new_compiled_game", "play_random"]
