"""Players that choose actions, by name and options: `random`, `greedy`, `heuristic` (styles)
and `ismcts` (search over guesses of the hidden facts). docs/agents.md says what each knows.

An agent sees the game through `choose(game, legal) -> action`, where `legal` is
`game.legal_actions()`; every agent here also offers `choose_id(game, ids) -> id` over
`game.legal_action_ids()` (the same actions in the same order), which a runner prefers: it
spares building the dicts. Both choose the same action. An agent is made from a spec,
`name` or `name:key=value,...` (tools/agents/options.py), and a seed that fixes every
random choice it makes.
"""

from __future__ import annotations

from typing import Any, Protocol

from ...interpreter.game import Game
from .heuristic import STYLES, GreedyAgent, HeuristicAgent
from .ismcts import IsmctsAgent
from .options import Option, parse_spec, split_specs, typed_settings
from .uniform import RandomAgent

__all__ = ["AGENTS", "STYLES", "Agent", "GreedyAgent", "HeuristicAgent", "IsmctsAgent", "Option", "RandomAgent",
           "check_spec", "choose_id", "make_agent", "split_specs"]


class Agent(Protocol):
    def choose(self, game: Game, legal: list[dict[str, Any]]) -> dict[str, Any]: ...


AGENTS: dict[str, Any] = {cls.name: cls for cls in (RandomAgent, GreedyAgent, HeuristicAgent, IsmctsAgent)}


def check_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """An agent spec's name and every option's value; ValueError saying what is wrong (a value
    out of its range, or values that do not go together: an agent's `check_settings`)."""
    name, settings = parse_spec(spec)
    if name not in AGENTS:
        raise ValueError(f"unknown agent '{name}'; choose from {', '.join(AGENTS)}")
    typed = typed_settings(name, AGENTS[name].options, settings)
    check = getattr(AGENTS[name], "check_settings", None)
    if check is not None:
        check(typed)
    return name, typed


def make_agent(spec: str, seed: int = 0, engine: str | None = None) -> Any:
    """An agent from its spec ('random', 'greedy', 'ismcts:ms=500', ...); the CLI adds 'human'.
    `engine`: where an agent that looks ahead does it (its own default, "auto", if None)."""
    name, settings = check_spec(spec)
    agent = AGENTS[name](seed, **settings)
    if engine is not None and hasattr(agent, "engine"):
        agent.engine = engine
    return agent


def choose_id(agent: Any, game: Game) -> int:
    """The id of the action an agent chooses now: through `choose_id` if it has one, else
    through `choose` on the dicts."""
    ids = game.legal_action_ids()
    by_id = getattr(agent, "choose_id", None)
    if by_id is not None:
        return by_id(game, ids)
    legal = game.legal_actions()
    return ids[legal.index(agent.choose(game, legal))]
