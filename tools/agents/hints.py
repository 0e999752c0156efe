"""A bot's ranking of the legal moves, for a person who asks ("hint" in `amunre serve`): the
moves the bot weighed, its choice first, each with the number behind it in words.

The bot is made from its spec and a seed, as any bot is, and asked as it would be asked to
choose (`ranked`, tools/agents/heuristic.py and ismcts.py): its first move is the move it would
make in this position with this seed. A bot sees only what the seat sees (its guesses redraw
every hidden fact from the seat's view, tools/determinize.py), so a hint tells nothing of
another seat's hand or secret offer: the same position dealt otherwise behind the screens
gives the same hint.
"""

from __future__ import annotations

import math
from typing import Any

from ...interpreter.game import Game
from . import make_agent
from .heuristic import HeuristicAgent
from .ismcts import IsmctsAgent
from .value import Weights


def hint(game: Game, spec: str, seed: int) -> dict[str, Any]:
    """The seat to move's legal moves as the bot `spec` (seeded by `seed`) ranks them: its
    choice, then the others it weighed, each with its number and words, and what the numbers
    are. ValueError for a bot that does not rank moves, or when no seat is to move."""
    if game.over or game.to_move is None:
        raise ValueError("no seat is to move")
    agent = make_agent(spec, seed)
    if not isinstance(agent, (HeuristicAgent, IsmctsAgent)):
        raise ValueError(f"{spec} does not rank moves: ask greedy, heuristic or ismcts")
    ids = game.legal_action_ids()
    chosen, ranked = agent.ranked(game, ids)
    share = isinstance(agent, IsmctsAgent)
    best = ranked[0][1]
    moves = [{"id": action_id, "value": None if math.isnan(value) else round(value, 3),
              "words": _words(value, best, share, action_id == chosen)} for action_id, value in ranked]
    return {"agent": spec, "seed": seed, "choice": chosen, "measure": "share" if share else "worth",
            "moves": moves, "weighed": len(moves), "legal": len(ids), "about": _about(agent, spec)}


def _words(value: float, best: float, share: bool, chosen: bool) -> str:
    if math.isnan(value):
        return "the only move"
    said = f"{value:.0%} of the searches" if share else f"worth {value:.1f}"
    if chosen:
        return said + ", its choice"
    if share:
        return said
    if best - value < 0.05:
        return f"{said}, as much as its choice (which comes first)"
    return f"{said}, {best - value:.1f} less than its choice"


def _about(agent: HeuristicAgent | IsmctsAgent, spec: str) -> str:
    if isinstance(agent, IsmctsAgent):
        return (f"{spec} searches the game ahead from guesses of what you cannot see, many times over; "
                "a move's share is how often the search went through it (the most visited is its choice).")
    return (f"{spec} plays each move on guesses of what you cannot see and values the position it "
            f"leads to, on average: {_weights(agent.weights)}.")


def _weights(weights: Weights) -> str:
    parts = [("each point of the score, and each the scoring would give now", weights.points),
             ("each unit of another resource", weights.money),
             ("each unit the phases would pay now", weights.income),
             ("each card in hand", weights.cards), ("each token on a place of yours", weights.tokens),
             ("each place you own", weights.places), ("being the start player", weights.start)]
    return "; ".join(f"{what} x{amount:.2g}" for what, amount in parts if amount)
