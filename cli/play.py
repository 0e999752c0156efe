"""Running one game from the command line: rules files by path or shipped name, seats and their
agents, the loop that asks agents for actions, and the JSON-lines log that can replay a game.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from ..interpreter.base.errors import AmunreError, RulesError
from ..interpreter.base.limits import MAX_LOG_BYTES
from ..interpreter.base.reading import FileRefused, read_text
from ..interpreter.game import Game
from ..interpreter.load.rules_cache import rules_file
from ..interpreter.model import Rules
from ..tools.agents import AGENTS, check_spec, make_agent, split_specs
from ..tools.agents.options import parse_spec
from ..tools.simulate.seeds import agent_seed

AGENT_NAMES = tuple(AGENTS) + ("human",)
LOG_FORMAT = 1
# What `play` tells as the game goes: (seat, action, the events it caused).
Report = Callable[[int | None, dict[str, Any] | None, list[dict[str, Any]]], None]


def resolve_rules(name: str) -> str:
    """A rules path as given if it exists, else a rules file shipped with the package by that name
    (with or without `.yaml`), as loading finds it; else the name unchanged (loading it then
    reports the missing file, with the shipped names)."""
    try:
        return rules_file(name)
    except RulesError:
        return name


def parse_agents(spec: str | None, players: int | None, default_players: int = 4) -> list[str]:
    """Agent specs, one per seat: `spec` is a comma-separated list of `name` or
    `name:key=value,...` (default: all greedy), each given back in a canonical form.

    Without `players`, the list's length is the player count. Raises ValueError with a message
    for the user on an unknown name or option, or a list whose length differs from `players`."""
    if spec is None:
        return ["greedy"] * (players if players is not None else default_players)
    specs = split_specs(spec)
    if any(not s for s in specs):
        raise ValueError(f"'{spec}' has an empty agent name; write names separated by commas, "
                         f"e.g. human,greedy,random")
    names = [_canonical(s) for s in specs]
    if players is not None and len(names) != players:
        raise ValueError(f"{len(names)} agent{'s' if len(names) != 1 else ''} given for {players} players; "
                         f"name one agent per seat, e.g. --agents {','.join(['greedy'] * players)}")
    return names


def _canonical(spec: str) -> str:
    """The spec checked, written `name` or `name:key=value,...` in lower case without spaces."""
    name, settings = parse_spec(spec)
    if name not in AGENT_NAMES:
        raise ValueError(f"unknown agent '{name}'; choose from {', '.join(AGENT_NAMES)}")
    if name == "human":
        if settings:
            raise ValueError("human has no options")
    else:
        check_spec(spec)
    return name + (":" + ",".join(f"{k}={v}" for k, v in settings.items()) if settings else "")


def build_agents(names: list[str], seed: int, human: Callable[[], Any]) -> list[Any]:
    return [human() if name == "human" else make_agent(name, agent_seed(seed, seat))
            for seat, name in enumerate(names)]


class JsonlLog:
    """One JSON object per line: a header (rules, seed, players, agents), then every action
    (`{"seat": s, "action": {...}}`) and every event, in the order they happened."""

    def __init__(self, handle: TextIO) -> None:
        self.handle = handle

    def header(self, rules: Rules, path: str, seed: int, players: int, agents: list[str],
               options: dict[str, str]) -> None:
        """The first line, naming the rules file as `path` (the caller says how much of its
        place to tell); a replay finds the very rules by the digest."""
        self._write({"amunre_log": LOG_FORMAT, "rules": path, "rules_id": rules.id,
                     "digest": rules.digest, "seed": seed, "players": players, "agents": agents,
                     "options": options, "score": rules.winner.score})

    def step(self, seat: int | None, action: dict[str, Any] | None, events: list[dict[str, Any]]) -> None:
        """One action (none for the set-up) and the events it caused."""
        if action is not None:
            self._write({"seat": seat, "action": action})
        for event in events:
            self._write(event)

    def _write(self, data: dict[str, Any]) -> None:
        try:
            self.handle.write(json.dumps(data, sort_keys=False) + "\n")
        except OSError as error:
            raise AmunreError(f"cannot write the log file: {error.strerror or error}") from None


def play(game: Game, agents: list[Any], report: Report) -> None:
    """Ask the agents for actions until the game is over. `report(seat, action, events)` hears
    first the set-up's events (seat and action None), then each action with the events it caused."""
    log = game.log
    assert log is not None                  # made with events=True: the events are what is reported
    seen = len(log)
    report(None, None, list(log))
    while not game.over:
        seat = game.to_move
        assert seat is not None             # a game not over has a seat to move
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
        report(seat, action, log[seen:])
        seen = len(log)


_HEADER = {"amunre_log": int, "rules": str, "digest": str, "seed": int, "players": int}


def load_log(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """A log file's header, actions and events; AmunreError saying what is wrong (unreadable,
    too large, or a line that is not a log's)."""
    header, body = load_log_lines(path)
    return header, *_split(body)


def load_log_lines(path: Path) -> tuple[dict[str, Any], list[tuple[int, dict[str, Any]]]]:
    """A log file's header and its other lines, each with its line number (what `replay` and
    `explain` check against the replayed game, naming the first line that differs)."""
    try:
        text = read_text(path, MAX_LOG_BYTES)        # bounded, and a regular file only (not a FIFO)
    except FileRefused as error:
        raise AmunreError(f"cannot read log file '{path}': {error.problem}") from None
    try:
        return read_log_lines(text.splitlines())
    except AmunreError as error:
        raise AmunreError(f"{path}: {error}") from None


def read_log(lines: list[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and the actions (in order) of a JSON-lines game log; AmunreError naming the
    line for anything that is not such a log."""
    header, actions, _ = read_log_records(lines)
    return header, actions


def read_log_records(lines: list[str]) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """The header, the actions and the events (each in order) of a JSON-lines game log."""
    header, body = read_log_lines(lines)
    return header, *_split(body)


def _split(body: list[tuple[int, dict[str, Any]]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A log's lines after the header, as its actions and its events."""
    actions = [record["action"] for _, record in body if "action" in record]
    return actions, [record for _, record in body if "action" not in record]


def read_log_lines(lines: list[str]) -> tuple[dict[str, Any], list[tuple[int, dict[str, Any]]]]:
    """The header of a JSON-lines game log and its other lines, each with its number, every one
    checked to be an action line or an event; AmunreError naming the first line that is neither."""
    header: dict[str, Any] | None = None
    body: list[tuple[int, dict[str, Any]]] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            raise AmunreError(f"line {number}: not JSON") from None
        if not isinstance(record, dict):
            raise AmunreError(f"line {number}: a log line is a JSON object, not {type(record).__name__}")
        if header is None:
            header = _checked_header(record, number)
            continue
        if "action" in record:
            if not isinstance(record["action"], dict) or type(record.get("seat")) is not int:
                raise AmunreError(f"line {number}: an action line is {{\"seat\": N, \"action\": {{...}}}}")
        elif not isinstance(record.get("event"), str):
            raise AmunreError(f"line {number}: neither an action nor an event")
        body.append((number, record))
    if header is None:
        raise AmunreError("the log is empty")
    return header, body


def _checked_header(record: dict[str, Any], number: int) -> dict[str, Any]:
    if "amunre_log" not in record:
        raise AmunreError(f"line {number}: not an amunre game log: the first line must be its header")
    for key, kind in _HEADER.items():
        if type(record.get(key)) is not kind:
            raise AmunreError(f"line {number}: the header's '{key}' must be {'a number' if kind is int else 'a text'}")
    if record["amunre_log"] != LOG_FORMAT:
        raise AmunreError(f"line {number}: a log of format {record['amunre_log']}; "
                          f"this amunre reads format {LOG_FORMAT}")
    agents = record.get("agents", [])
    if not isinstance(agents, list) or not all(isinstance(a, str) for a in agents):
        raise AmunreError(f"line {number}: the header's 'agents' must be a list of names")
    options = record.get("options", {})
    if not isinstance(options, dict) or not all(isinstance(v, str) for v in options.values()):
        raise AmunreError(f"line {number}: the header's 'options' must map option names to values")
    return record
