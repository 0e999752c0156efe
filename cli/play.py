"""Running one game from the command line: rules files by path or shipped name, seats and their
agents, the loop that asks agents for actions, and the JSON-lines log that can replay a game.
"""

from __future__ import annotations

import importlib.resources
import json
from pathlib import Path
from typing import Any, Callable, TextIO

from ..interpreter.agents import AGENTS, make_agent
from ..interpreter.errors import AmunreError

AGENT_NAMES = tuple(AGENTS) + ("human",)
LOG_FORMAT = 1


def resolve_rules(name: str) -> str:
    """A rules path as given if it exists, else a rules file shipped with the package by that name
    (with or without `.yaml`), else the name unchanged (loading it then reports the missing file)."""
    if Path(name).exists():
        return name
    shipped = importlib.resources.files("amunre.rules")
    for candidate in (name, name + ".yaml"):
        if "/" not in candidate and "\\" not in candidate:
            entry = shipped.joinpath(candidate)
            if entry.is_file():
                return str(entry)
    return name


def parse_agents(spec: str | None, players: int | None, default_players: int = 4) -> list[str]:
    """Agent names, one per seat: `spec` is a comma-separated list (default: all greedy).

    Without `players`, the list's length is the player count. Raises ValueError with a message
    for the user on an unknown name or a list whose length differs from `players`."""
    if spec is None:
        return ["greedy"] * (players if players is not None else default_players)
    names = [n.strip().lower() for n in spec.split(",")]
    if any(not n for n in names):
        raise ValueError(f"'{spec}' has an empty agent name; write names separated by commas, "
                         f"e.g. human,greedy,random")
    unknown = [n for n in names if n not in AGENT_NAMES]
    if unknown:
        raise ValueError(f"unknown agent '{unknown[0]}'; choose from {', '.join(AGENT_NAMES)}")
    if players is not None and len(names) != players:
        raise ValueError(f"{len(names)} agent{'s' if len(names) != 1 else ''} given for {players} players; "
                         f"name one agent per seat, e.g. --agents {','.join(['greedy'] * players)}")
    return names


def agent_seed(seed: int, seat: int) -> int:
    """Each bot's own random seed, fixed by the game seed so that a seed replays a whole game."""
    return seed * 1009 + seat + 1


def build_agents(names: list[str], seed: int, human: Callable[[], Any]) -> list[Any]:
    return [human() if name == "human" else make_agent(name, agent_seed(seed, seat))
            for seat, name in enumerate(names)]


class JsonlLog:
    """One JSON object per line: a header (rules, seed, players, agents), then every action
    (`{"seat": s, "action": {...}}`) and every event, in the order they happened."""

    def __init__(self, handle: TextIO) -> None:
        self.handle = handle

    def header(self, rules: Any, path: str, seed: int, players: int, agents: list[str]) -> None:
        self._write({"amunre_log": LOG_FORMAT, "rules": path, "rules_id": rules.id,
                     "digest": rules.digest, "seed": seed, "players": players, "agents": agents})

    def step(self, seat: int | None, action: dict[str, Any] | None, events: list[dict[str, Any]]) -> None:
        """One action (none for the set-up) and the events it caused."""
        if action is not None:
            self._write({"seat": seat, "action": action})
        for event in events:
            self._write(event)

    def _write(self, data: dict[str, Any]) -> None:
        self.handle.write(json.dumps(data, sort_keys=False) + "\n")


def play(game: Any, agents: list[Any], report: Callable[[int | None, dict[str, Any] | None, list[dict[str, Any]]], None]) -> None:
    """Ask the agents for actions until the game is over. `report(seat, action, events)` hears
    first the set-up's events (seat and action None), then each action with the events it caused."""
    seen = len(game.log)
    report(None, None, list(game.log))
    while not game.over:
        seat = game.to_move
        agent = agents[seat]
        if hasattr(agent, "choose_id"):               # a bot: ids spare building every dict
            action_id = agent.choose_id(game, game.legal_action_ids())
            action = game.action_from_id(action_id)
            game.apply_id(action_id)
        else:                                         # a person or a log: dicts, checked on apply
            legal = game.legal_actions()
            if not legal:
                raise AmunreError(f"seat {seat} is to move but has no legal action (phase '{game.step.phase}')")
            action = agent.choose(game, legal)
            game.apply(action)
        log = game.log
        report(seat, action, log[seen:])
        seen = len(log)


def read_log(lines: list[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and the actions (in order) of a JSON-lines game log."""
    records = [json.loads(line) for line in lines if line.strip()]
    if not records or "amunre_log" not in records[0]:
        raise AmunreError("not an amunre game log: the first line must be its header")
    return records[0], [r["action"] for r in records[1:] if "action" in r]
