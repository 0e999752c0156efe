"""`amunre diff` as text: the changes between two rules files grouped by section, each with
where both values are written (file name and line)."""

from __future__ import annotations

import json
import os
from typing import Any

from ..tools.diff import Change
from .render import esc

MARK = {"changed": ("~", "yellow"), "added": ("+", "green"), "removed": ("-", "red")}


def diff_lines(changes: list[Change], color: bool) -> list[str]:
    """One heading per top-level section, then one line per change (rich markup if `color`)."""
    lines: list[str] = []
    section = None
    for change in changes:
        heading, name = _section(change.path)
        if heading != section:
            section = heading
            lines.append(f"[bold]{esc(section)}[/]" if color else section)
        mark, hue = MARK[change.kind]
        if change.kind == "changed":
            what = f"{name}: {_value(change.old)} -> {_value(change.new)}"
        else:
            what = f"{name}: {_value(change.new if change.kind == 'added' else change.old)}"
        where = ", ".join(_where(s) for s in (change.old_at, change.new_at) if s is not None)
        text = f"  {mark} {what}  ({where})"
        lines.append(f"[{hue}]{esc(text)}[/]" if color else text)
    return lines


def _section(path: tuple[str, ...]) -> tuple[str, str]:
    """The heading a change is listed under and its name there: a top-level value of its own
    (one key long) belongs to the edition's heading."""
    if len(path) > 1:
        return path[0], ".".join(path[1:])
    return "edition", path[0]


def _value(value: Any) -> str:
    """A value whole, however long (a card's effect is read to its end; the terminal wraps it)."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _where(span: Any) -> str:
    return f"{os.path.basename(span.file)}:{span.line}"
