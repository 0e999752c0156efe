"""amunre: play, study and change the rules of Amun-Re, written as data."""

from .interpreter import AmunreError, Game, IllegalAction, RulesError, load_rules, new_game

__all__ = ["AmunreError", "Game", "IllegalAction", "RulesError", "load_rules", "new_game"]
