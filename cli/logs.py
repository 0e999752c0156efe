"""A game log as evidence: `replay` and `explain` believe a log only as far as the game it
names replays to the very same lines.

A log is text anyone can edit, so none of its lines is taken on trust: its rules are found
by the digest its header gives, its actions are replayed from its seed, and every line after
the header (each action with the seat that took it, each event) must be the line the
replayed game writes there. The first line that differs is named, with what differs, so an
edited amount, a seat that was not to move or a changed event type is never shown (nor
summed by `explain`) as if it had happened.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ..interpreter.base.errors import AmunreError, shown_value
from ..interpreter.game import Game, new_game
from ..interpreter.load.shipped import shipped_path
from ..interpreter.model import Rules
from . import play as runner
from .conventions import fail, load_or_exit

LogLines = list[tuple[int, dict[str, Any]]]


def logged_rules(header: dict[str, Any], given: str | None) -> Rules:
    """The rules a log was played with: `given`, else the path the log names, else (that path
    gone) the shipped file of the log's rules id; always the very rules, by digest."""
    logged, rules_id = header["rules"], header.get("rules_id")
    rules_id = rules_id if isinstance(rules_id, str) else ""      # a corrupted header's id names nothing
    if given is not None:
        rules = load_or_exit(given)
        if rules.digest != header["digest"]:
            raise fail(f"{given} is not the rules this game was played with ({rules_id or logged}, digest "
                        f"{header['digest']}); it has digest {rules.digest}")
        return rules
    if os.path.exists(logged):         # (never raises, whatever the log names)
        rules = load_or_exit(logged)
        if rules.digest != header["digest"]:
            raise fail(f"the rules file {logged} changed since this game was logged; give the rules it was "
                        "played with: --rules FILE")
        return rules
    shipped = shipped_path(rules_id) if rules_id else None
    if shipped is not None:
        rules = load_or_exit(shipped)
        if rules.digest == header["digest"]:
            return rules
    raise fail(f"the rules file {logged} named by this log is not there; give it with --rules FILE")


def replay_log(path: Path, header: dict[str, Any], body: LogLines, rules: Rules,
               report: runner.Report | None = None) -> Game:
    """The logged game played again from its seed and its actions, every line of the log checked
    against it (`report` hears each step as `run` would); exit 1 with the log's path and the first
    line that does not replay."""
    check = LogCheck(body)
    try:
        game = new_game(rules, players=header["players"], seed=header["seed"],
                        setup={"options": header.get("options", {})})
        check.replay(game, report)
    except AmunreError as error:
        raise fail(f"{path}: the log does not replay: {error}") from None
    return game


class LogCheck:
    """The player at every seat of a replay: it plays the logged actions in order, and checks each
    line of the log (the seat of each action, every event) against what the replayed game did."""

    def __init__(self, body: LogLines) -> None:
        self.body = body
        self.next = 0                 # the index in `body` of the next line to check

    def replay(self, game: Game, report: runner.Report | None = None) -> None:
        """Play the game to its end from the log; AmunreError naming the first line that differs,
        or the line of an action the game refuses, or a line left after the game's end."""
        def step(seat: int | None, action: dict[str, Any] | None, events: list[dict[str, Any]]) -> None:
            self.events(events)
            if report is not None:
                report(seat, action, events)
        try:
            runner.play(game, [self] * game.state.players, step)
        except AmunreError as error:
            if self.next and "action" in self.body[self.next - 1][1] and not str(error).startswith("line "):
                raise AmunreError(f"line {self.body[self.next - 1][0]}: {error}") from None
            raise
        if self.next < len(self.body):
            raise AmunreError(f"line {self.body[self.next][0]}: the log goes on after the game's end")

    def choose(self, game: Game, legal: list[dict[str, Any]]) -> dict[str, Any]:
        """The next logged action, once its line says the seat that is to move took it."""
        if self.next == len(self.body):
            raise AmunreError("the log ends before the game does")
        number, record = self.body[self.next]
        if "action" not in record:
            raise AmunreError(f"line {number}: the log has event {shown_value(record['event'], 40)} where "
                              f"the replayed game has seat {game.to_move}'s action")
        extra = sorted(set(record) - {"seat", "action"})
        if extra:
            raise AmunreError(f"line {number}: an action's line holds its seat and its action only, not "
                              f"{shown_value(extra[0], 40)}: the replayed game writes no such line")
        if record["seat"] != game.to_move:
            raise AmunreError(f"line {number}: the log says seat {shown_value(record['seat'], 40)} acts, "
                              f"but seat {game.to_move} is to move")
        self.next += 1
        return record["action"]

    def events(self, events: list[dict[str, Any]]) -> None:
        """Each event the replayed game wrote must be the log's next line, exactly."""
        for event in events:
            expected = json.loads(json.dumps(event))        # as the log holds it (lists, not tuples)
            if self.next == len(self.body):
                last = f"after line {self.body[-1][0]}, " if self.body else ""
                raise AmunreError(f"{last}the log ends before the replayed game's event {shown_value(event['event'])}")
            number, record = self.body[self.next]
            if _canonical(_comparable(record)) != _canonical(_comparable(expected)):
                raise AmunreError(f"line {number}: {difference(_comparable(record), _comparable(expected))}")
            self.next += 1


def _comparable(record: dict[str, Any]) -> dict[str, Any]:
    """A line without what honestly differs from one run to another: where a cause's rule is
    written (`at`) names the rules file as it was reached from the working directory, and a
    reformatted file of the same digest moves its lines. `explain` shows the replayed game's."""
    cause = record.get("cause")
    if isinstance(cause, dict) and isinstance(cause.get("at"), str):
        return {**record, "cause": {**cause, "at": "FILE:LINE:COL"}}
    return record


def _canonical(record: dict[str, Any]) -> str:
    """A line as comparable text: 1, 1.0 and true are different values in a log."""
    return json.dumps(record, sort_keys=True)


def difference(logged: dict[str, Any], expected: dict[str, Any]) -> str:
    """What differs between a line of the log and the event the replayed game wrote there, first
    the kind of line, then the first field by name; the values shortened (a log may hold anything)."""
    if "action" in logged:
        return f"the log has an action where the replayed game has event {shown_value(expected['event'])}"
    if logged.get("event") != expected.get("event"):
        return (f"the log has event {shown_value(logged.get('event'), 40)} where the replayed game "
                f"has event {shown_value(expected['event'])}")
    kind = shown_value(expected["event"])
    for key in sorted(set(logged) | set(expected)):
        if key not in expected:
            return f"the log's {kind} event has '{shown_value(key, 40)}', which the replayed game's has not"
        if key not in logged:
            return f"the log's {kind} event lacks '{key}' (the replayed game's has {shown_value(expected[key], 80)})"
        if _canonical({"v": logged[key]}) != _canonical({"v": expected[key]}):
            return (f"the log's {kind} event has '{key}' {shown_value(logged[key], 80)}, the replayed "
                    f"game's {shown_value(expected[key], 80)}")
    return f"the log's {kind} event differs from the replayed game's"      # (key order aside, never)
