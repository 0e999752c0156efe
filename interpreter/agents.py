"""Players that choose actions: uniform random, and a generic one-step greedy.

An agent sees the game through `choose(game, legal) -> action`, where `legal` is
`game.legal_actions()`; an agent that has no use for dicts may also offer
`choose_id(game, ids) -> id` over `game.legal_action_ids()` (the same actions in the same
order), which a runner prefers: it spares building the dicts. Both choose the same action.
The greedy one looks one action ahead on a clone and values its own seat with what the
rules' own phases forecast (points a scoring phase would give now, income a phase would pay
now), so it knows nothing of any particular game.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from .actions import PLAY, SELL


class Agent(Protocol):
    def choose(self, game: Any, legal: list[dict[str, Any]]) -> dict[str, Any]: ...


def choose_id(agent: Any, game: Any) -> int:
    """The id of the action an agent chooses now: through `choose_id` if it has one, else
    through `choose` on the dicts."""
    ids = game.legal_action_ids()
    by_id = getattr(agent, "choose_id", None)
    if by_id is not None:
        return by_id(game, ids)
    legal = game.legal_actions()
    return ids[legal.index(agent.choose(game, legal))]


class RandomAgent:
    """Uniform over the legal actions, from its own seeded generator."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Any, legal: list[dict[str, Any]]) -> dict[str, Any]:
        return self.rng.choice(legal)

    def choose_id(self, game: Any, ids: list[int]) -> int:
        return self.rng.choice(ids)


class GreedyAgent:
    """Takes the action whose immediate outcome is worth most to its seat.

    The value of a position is the seat's score, plus the points the rules' scoring phases
    would give it if they ran now, plus its other resources and the income the rules' phases
    would pay it now, each at a discount, plus its cards; ties go to the earlier action
    (sales of cards come last).
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
        ids = game.legal_action_ids()
        return legal[ids.index(self.best(game, ids))]

    def choose_id(self, game: Any, ids: list[int]) -> int:
        return ids[0] if len(ids) == 1 else self.best(game, ids)

    def best(self, game: Any, ids: list[int]) -> int:
        """The best action id by the value of the position it leads to."""
        seat, step = game.to_move, game.state.step
        best, best_value = ids[0], float("-inf")
        for action in ids:
            trial = game.clone(events=False)
            trial.apply_id(action)
            value = self._finish_turn(trial, seat, step)
            if value > best_value + 1e-9:
                best, best_value = action, value
        return best

    def _finish_turn(self, game: Any, seat: int, step: int) -> float:
        """Value after an action; an action whose only sequels are follow-ups of the same seat
        (placing what it just got) is valued after making them greedily."""
        blocks = game.rules.actions
        for _ in range(self.follow_ups):
            if game.to_move != seat or game.state.step != step:
                break
            ids = [i for i in game.legal_action_ids() if blocks.block_of(i).rank not in (PLAY, SELL)]
            if not ids or not all(blocks.block_of(i).follow_up for i in ids):
                break
            game.apply_id(max(ids, key=lambda i: self._after(game, i, seat)))
        return self.value(game, seat)

    def _after(self, game: Any, action: int, seat: int) -> float:
        trial = game.clone(events=False)
        trial.apply_id(action)
        return self.value(trial, seat)

    def value(self, game: Any, seat: int) -> float:
        score = game.rules.winner.score
        projected, income = 0.0, 0
        for mech in game.rules.phases.values():
            for resource, amount in mech.forecast(game, seat).items():
                if resource == score:
                    projected += amount
                else:
                    income += amount
        resources = game.state.resources[seat]
        money = sum(amount for name, amount in resources.items() if name != score)
        return (resources[score] + projected + self.money_weight * money
                + self.income_weight * income + self.card_weight * len(game.state.hands[seat]))


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent}


def make_agent(name: str, seed: int = 0) -> Agent:
    """An agent by name ('random', 'greedy'); the CLI adds 'human'."""
    if name not in AGENTS:
        raise ValueError(f"unknown agent '{name}'; choose from {', '.join(AGENTS)}")
    return AGENTS[name](seed)
