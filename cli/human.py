"""A human at the keyboard, as an agent: shows what the seat may see, lists the legal actions
by number and reads a choice.

It has the agents' interface, `choose(game, legal) -> action`, so `--agents human,greedy,greedy`
seats a person among bots. Input and output streams are injectable for tests. End of input
(Ctrl-D) or `q` raises HumanQuit, which the command line turns into a clean exit.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TextIO

from rich.columns import Columns
from rich.console import Console

from ..interpreter.game import Game
from ..interpreter.play.outcomes import Outcome
from .render import action_text, esc, outcome_text, seat_markup
from .seat_view import observation_view

QUIT_WORDS = ("q", "quit", "exit")


class HumanQuit(Exception):
    """The person at the keyboard left the game (end of input or 'q')."""


class HumanAgent:
    """Asks a person, through a console and an input stream, to pick one of the legal actions."""

    def __init__(self, console: Console | None = None, input: TextIO | None = None,
                 preview: bool = True, before: Callable[[], None] | None = None) -> None:
        self.console = console or Console(highlight=False, soft_wrap=True)
        self.input = input
        self.preview = preview
        self.before = before          # called first, e.g. to print the play-by-play held back

    def choose(self, game: Game, legal: list[dict[str, Any]]) -> dict[str, Any]:
        if self.before is not None:
            self.before()
        seat = game.to_move
        assert seat is not None                 # an agent is asked only while a seat decides
        observation_view(self.console, game, seat)
        self.console.print(f"  {seat_markup(seat)}, choose:", highlight=False)
        outcomes = game.outcomes() if self.preview else {}
        numbered = [(a.get("type"), f"[bold]{i:>2})[/] {action_text(game.rules, a)}{self._preview(outcomes, game, a)}")
                    for i, a in enumerate(legal, 1)]
        for _kind, lines in _runs(numbered):
            if len(lines) > 8:       # e.g. every amount one may offer: several to a line
                self.console.print(Columns(lines, equal=True, padding=(0, 3)), highlight=False)
            else:
                for line in lines:
                    self.console.print("  " + line, highlight=False)
        return legal[self._ask(len(legal)) - 1]

    def _ask(self, count: int) -> int:
        """A number from 1 to count; re-asks on bad input; HumanQuit on end of input or 'q'."""
        stream = self.input if self.input is not None else sys.stdin
        while True:
            self.console.print(f"Your choice [1-{count}, q to quit]: ", end="", markup=False, highlight=False)
            self.console.file.flush()
            line = stream.readline()
            text = line.strip()
            if not _is_terminal(stream):
                self.console.print(text, markup=False, highlight=False)   # a transcript shows the answer
            if line == "":
                raise HumanQuit("end of input")
            if text.lower() in QUIT_WORDS:
                raise HumanQuit("quit")
            # ASCII digits only, and few: "²" is a digit to isdigit() but not to int(), and int()
            # refuses a number of more than 4,300 digits.
            if text.isascii() and text.isdigit() and len(text) <= 9 and 1 <= int(text) <= count:
                return int(text)
            self.console.print(f"[red]'{esc(text)}' is not a choice: type a number from 1 to {count}.[/]",
                               highlight=False)

    def _preview(self, outcomes: dict[int, Outcome], game: Game, action: dict[str, Any]) -> str:
        """What the action would cost or bring, as the engine says (Game.outcomes), e.g.
        ' [-3 coins]'."""
        if not self.preview:
            return ""
        said = outcome_text(outcomes[game.action_to_id(action)].to_json())
        return f" [dim]\\[{esc(said)}][/]" if said else ""


def _runs(items: list[tuple[Any, str]]) -> list[tuple[Any, list[str]]]:
    """Consecutive items grouped by their key."""
    runs: list[tuple[Any, list[str]]] = []
    for key, text in items:
        if runs and runs[-1][0] == key:
            runs[-1][1].append(text)
        else:
            runs.append((key, [text]))
    return runs


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
