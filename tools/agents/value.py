"""What a position is worth to a seat, by weights: the heuristic the greedy and styled agents
maximise and the search agent scores its unfinished playouts with.

Only what the rules say of every game is read: the score resource, the other resources, what
the rules' own phases would give the seat if they ran now (the agents' registry of forecasts,
tools/agents/forecast.py: points a scoring phase would award, income a phase would pay), the
cards held, the tokens on the seat's places, the places it owns, and whether it is the start
player.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from ...interpreter.game import Game
from ...interpreter.play import material
from .forecast import forecasters


@dataclass(frozen=True)
class Weights:
    """The worth, in points of the score, of one unit of each thing a seat can have."""
    points: float = 1.0     # the score, and the points the scoring phases would give now
    money: float = 0.2      # one unit of any other resource held
    income: float = 0.8     # one unit of any other resource the phases would pay now
    cards: float = 1.0      # a card in hand
    tokens: float = 0.0     # a token on one of the seat's places
    places: float = 0.0     # a place the seat owns
    start: float = 0.0      # being the start player

    def scaled(self, factors: dict[str, float]) -> Weights:
        return replace(self, **{f.name: getattr(self, f.name) * factors.get(f.name, 1.0) for f in fields(self)})


WEIGHT_NAMES = tuple(f.name for f in fields(Weights))


def value(game: Game, seat: int, weights: Weights) -> float:
    """The seat's worth in the position, by the weights."""
    return _worth(game, seat, weights, [one(mech, game, seat) for mech, one, _ in forecasters(game.rules)])


def values(game: Game, weights: Weights) -> list[float]:
    """Every seat's worth (the phases' forecasts worked out once for all seats)."""
    seats = range(game.state.players)
    forecasts = [every(mech, game) if every is not None else [one(mech, game, seat) for seat in seats]
                 for mech, one, every in forecasters(game.rules)]
    return [_worth(game, seat, weights, [f[seat] for f in forecasts]) for seat in seats]


def _worth(game: Game, seat: int, weights: Weights, forecasts: list[dict[str, int]]) -> float:
    rules, state = game.rules, game.state
    score = rules.winner.score
    projected = income = 0.0
    for gives in forecasts:
        for resource, amount in gives.items():
            if resource == score:
                projected += amount
            else:
                income += amount
    resources = state.resources[seat]
    money = sum(amount for name, amount in resources.items() if name != score)
    total = (weights.points * (resources[score] + projected) + weights.money * money
             + weights.income * income + weights.cards * len(state.hands[seat]))
    if weights.tokens or weights.places:
        places = material.owned_places(game, seat)
        total += weights.places * len(places)
        if weights.tokens:
            total += weights.tokens * sum(sum(state.tokens[p].values()) for p in places)
    if weights.start and state.start_player == seat:
        total += weights.start
    return total
