"""`amunre explain LOG`: where each seat's points and every other resource came from,
rule by rule, from a log's events.

A log is believed only once it replays line for line (cli/logs.py): its rules are found by
digest, its game played again, and the first line that differs is named instead of summed. The
sums are tools/ledger.py's over the replayed game's events; this module only prints them: per
seat, per resource, one row per cause (the rule's kind, its id, how many times it fired, what it
gave in all, and where the rules file writes it), gains first.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from ..interpreter.base.errors import AmunreError
from ..tools.ledger import Ledger, ledger
from . import logs
from . import play as runner
from .render import esc, seat_markup


def explain(
    log_path: Annotated[Path, typer.Argument(
        metavar="LOG", help="A game log written by `amunre run --log`.", show_default=False)],
    seat: Annotated[int | None, typer.Option(
        "--seat", "-s", metavar="N", help="Only this seat (numbered from 0, as everywhere in amunre). "
        "Default: every seat.", show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the same as JSON.")] = False,
    rules_path: Annotated[str | None, typer.Option(
        "--rules", metavar="FILE", help="The rules file the game was played with, when the path the log "
        "names is not there any more (as `replay --rules`).", show_default=False)] = None,
) -> None:
    """Show where each seat's points and other resources came from, rule by rule, from a log
    that replays line for line (the first line that does not is named)."""
    try:
        header, body = runner.load_log_lines(log_path)
    except AmunreError as error:
        print(f"error: {error}", file=sys.stderr)
        raise typer.Exit(1) from None
    players = header["players"]
    if seat is not None and not 0 <= seat < players:
        raise typer.BadParameter(f"this game has seats 0 to {players - 1}", param_hint="'--seat'")
    if not any(record.get("event") == "gain" for _, record in body):
        print(f"error: {log_path}: the log tells no changes (it was written by an older amunre, or the game "
              "has not begun); `amunre replay` it with `--log` to write one that does", file=sys.stderr)
        raise typer.Exit(1)
    game = logs.replay_log(log_path, header, body, logs.logged_rules(header, rules_path))
    events = list(game.log or [])             # the replayed game's: equal to the log's, line for line
    book = ledger(events)
    seats = range(players) if seat is None else [seat]
    result = next((e for e in reversed(events) if e.get("event") == "game_over"), None)
    if as_json:
        sys.stdout.write(json.dumps([seat_json(book, s, header.get("score")) for s in seats]) + "\n")
        return
    console = Console(highlight=False, soft_wrap=True)
    agents = header.get("agents") or []
    console.print(f"[bold]{esc(header.get('rules_id') or header['rules'])}[/], seed {esc(header['seed'])}, "
                  f"{players} players (seats numbered from 0)"
                  + ("" if result else " - the log ends before the game does"), highlight=False)
    lost = {tie["seat"]: tie for tie in game.lost_ties()} if result else {}
    for s in seats:
        console.print()
        agent = f" ({esc(agents[s])})" if s < len(agents) else ""
        won = " - [bold yellow]winner[/]" if result and s in (result.get("winners") or []) else ""
        if s in lost:
            won = (f" - tied with the winners, lost on {esc(lost[s]['tiebreak'])}, "
                   f"{esc(lost[s]['value'])} against {esc(lost[s]['against'])}")
        console.print(f"{seat_markup(s)}{agent}{won}", highlight=False)
        console.print(seat_table(book, s, header.get("score")))


def seat_json(book: Ledger, seat: int, first: str | None = None) -> dict[str, Any]:
    return {"seat": seat, "resources": {
        name: {"total": book.amount(seat, name),
               "sources": [{"kind": line.kind, "id": line.id, "at": line.at, "amount": line.amount,
                            "times": line.times} for line in book.sources(seat, name)]}
        for name in _resources(book, seat, first)}}


def seat_table(book: Ledger, seat: int, first: str | None = None) -> Table:
    """One section per resource (the score first): its total, then a row per cause, each with
    where its rules file writes it (the file by its name; `--json` gives the whole path)."""
    table = Table(box=None, show_header=True, pad_edge=False, padding=(0, 1))
    for column, justify in (("", "left"), ("amount", "right"), ("times", "right"), ("rule", "left"),
                            ("", "left"), ("where", "left")):
        table.add_column(column, justify=justify)   # type: ignore[arg-type]
    for name in _resources(book, seat, first):
        table.add_row(f"[bold]{esc(name)}[/]", f"[bold]{esc(book.amount(seat, name))}[/]", "", "", "", "")
        for line in book.sources(seat, name):
            table.add_row("", f"{line.amount:+d}", f"x{line.times}", esc(line.kind), esc(line.id),
                          f"[dim]{esc(Path(line.at).name if line.at else '')}[/]")
    return table


def _resources(book: Ledger, seat: int, first: str | None = None) -> list[str]:
    """The seat's resources that changed, the score first, then as they first changed."""
    names = list(book.lines.get(seat, {}))
    return sorted(names, key=lambda name: name != first)
