"""The listings (`amunre editions`, `options`, `agents`): what they list are names a user must
type (`amunre run NAME`, `-o NAME=VALUE`, `--agents NAME:KEY=VALUE`), so no listing ever cuts
one, whatever the width.

On a terminal wide enough for every such name whole, a table: those columns never wrap, the
others wrap. Elsewhere (a pipe, a file: what a script reads) or on a narrower terminal, plain
text: each row's first value on a line of its own, then one `column: value` line each.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from .render import esc

NARROWEST = 12          # the least width a wrapped column is given before plain text is better


def listing_console() -> Console:
    return Console(highlight=False, soft_wrap=True)


def print_listing(console: Console, columns: list[str], rows: list[list[str]], typed: set[str],
                  title: str | None = None, indent: str = "", **table: Any) -> None:
    """Rows (plain text, not markup) under `columns`; the columns named in `typed` hold names a
    user must type and are never cut. `indent` goes before each plain line (a listing within a
    listing); `table` passes Rich Table settings (box, padding...)."""
    if _fits(console, columns, rows, typed):
        _table(console, columns, rows, typed, title, table)
    else:
        _plain(console, columns, rows, title, indent)


def _fits(console: Console, columns: list[str], rows: list[list[str]], typed: set[str]) -> bool:
    """Whether a table can show every typed column whole and leave the others room to wrap."""
    if not console.is_terminal:
        return False
    needed = 0
    for index, column in enumerate(columns):
        widest = max([len(column)] + [len(row[index]) for row in rows])
        needed += (widest if column in typed else min(widest, NARROWEST)) + 3        # borders, padding
    return needed + 1 <= console.width


def _table(console: Console, columns: list[str], rows: list[list[str]], typed: set[str], title: str | None,
           settings: dict[str, Any]) -> None:
    table = Table(title=title, **settings)
    for index, column in enumerate(columns):
        if column in typed:
            widest = max([len(column)] + [len(row[index]) for row in rows])
            table.add_column(column, no_wrap=True, min_width=widest)
        else:
            table.add_column(column, overflow="fold")
    for row in rows:
        table.add_row(*(esc(value) for value in row))
    console.print(table)


def _plain(console: Console, columns: list[str], rows: list[list[str]], title: str | None, indent: str) -> None:
    """One block per row: its first value, then `column: value` for each other value given."""
    if title:
        console.print(esc(title), highlight=False, soft_wrap=True)
    for row in rows:
        console.print(indent + esc(row[0]), highlight=False, soft_wrap=True)
        for column, value in zip(columns[1:], row[1:]):
            if value:
                console.print(f"{indent}  {esc(column)}: {esc(value)}", highlight=False, soft_wrap=True)
