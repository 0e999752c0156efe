"""Players that choose actions: uniform random, and a generic one-step greedy.

An agent sees the game through `choose(game, legal)`; the greedy one looks one action ahead
on a clone and values its own seat with the rules file's own scoring and income, so it knows
nothing of any particular game.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from .context import Ctx
from .mechanics.income import Income
from .mechanics.scoring import Score


class Agent(Protocol):
    def choose(self, game: Any, legal: list[dict[str, Any]]) -> dict[str, Any]: ...


class RandomAgent:
    """Uniform over the legal actions, from its own seeded generator."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Any, legal: list[dict[str, Any]]) -> dict[str, Any]:
        return self.rng.choice(legal)


class GreedyAgent:
    """Takes the action whose immediate outcome scores best for its seat.

    The value of a position is the seat's points, plus the points the rules' scoring would
    give it if scoring happened now, plus its money and the income it would collect now,
    each at a discount; ties go to the earlier action (sales of cards come last).
    """

    def __init__(self, seed: int = 0, money_weight: float = 0.2, income_weight: float = 0.8,
                 card_weight: float = 1.0, follow_ups: int = 12) -> None:
        # Deterministic: `seed` is accepted only so every agent is made the same way.
        self.money_weight = money_weight
        self.income_weight = income_weight
        self.card_weight = card_weight
        self.follow_ups = follow_ups

    def choose(self, game: Any, legal: list[dict[str, Any]]) -> dict[str, Any]:
        if len(legal) == 1:
            return legal[0]
        return self._best(game, legal)[0]

    def _best(self, game: Any, legal: list[dict[str, Any]]) -> tuple[dict[str, Any], float]:
        """The best action by the value of the position it leads to."""
        seat, step = game.to_move, game.state.step
        best, best_value = legal[0], float("-inf")
        for action in legal:
            trial = game.clone()
            trial.apply(action)
            value = self._finish_turn(trial, seat, step)
            if value > best_value + 1e-9:
                best, best_value = action, value
        return best, best_value

    def _finish_turn(self, game: Any, seat: int, step: int) -> float:
        """Value after an action; an action that obliges the same seat to place what it just
        got (every legal action a placement) is valued after placing greedily."""
        for _ in range(self.follow_ups):
            if game.to_move != seat or game.state.step != step:
                break
            legal = [a for a in game.legal_actions() if a["type"] not in ("sell", "play")]
            if not legal or any(a["type"] != "place" for a in legal):
                break
            game.apply(max(legal, key=lambda a: self._after(game, a, seat)))
        return self.value(game, seat)

    def _after(self, game: Any, action: dict[str, Any], seat: int) -> float:
        trial = game.clone()
        trial.apply(action)
        return self.value(trial, seat)

    def value(self, game: Any, seat: int) -> float:
        state = game.state
        mechanics = game.rules.phases.values()
        projected = 0.0
        for mech in mechanics:
            if isinstance(mech, Score):
                for award in mech.awards:
                    if award.when is None or award.when(Ctx(game)):
                        projected += mech.points(game, award).get(seat, 0)
        income = sum(m.projected(game, seat) for m in mechanics if isinstance(m, Income))
        resources = state.resources[seat]
        return (resources.get("vp", 0) + projected + self.money_weight * resources.get("gold", 0)
                + self.income_weight * income + self.card_weight * len(state.hands[seat]))


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent}


def make_agent(name: str, seed: int = 0) -> Agent:
    """An agent by name ('random', 'greedy'); the CLI adds 'human'."""
    if name not in AGENTS:
        raise ValueError(f"unknown agent '{name}'; choose from {', '.join(AGENTS)}")
    return AGENTS[name](seed)
