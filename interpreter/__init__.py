"""The game-generic interpreter: load, check and compile a rules file, then play it."""

from .base.errors import AmunreError, IllegalAction, RulesError
from .game import Game, load_rules, new_game

__all__ = ["AmunreError", "Game", "IllegalAction", "RulesError", "load_rules", "new_game"]
