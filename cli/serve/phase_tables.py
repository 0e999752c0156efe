"""The tables a page draws beside a phase (a secret offer's tiles: which total picks which row,
and what each row gives), kept as the page's own registry by mechanic class, as every tool
keeps what it asks of a phase beyond the engine's contract (tools/mechanic_hooks.py).

A table is the rules file's own rows, words as written; the row a phase keeps (the tile the
latest secret offer picked, `kept`) is marked, and the running phase's table is drawn open.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...interpreter.game import Game
from ...interpreter.mechanics.secret_offer import SecretOffer
from ...tools.mechanic_hooks import entry


def _range(least: int | None, most: int | None) -> str:
    if least is None and most is None:
        return "any"
    if least is None:
        return f"up to {most}"
    if most is None:
        return f"{least} or more"
    return f"{least} to {most}"


def _tiles(mech: SecretOffer) -> dict[str, Any] | None:
    if not mech.tiles:
        return None
    columns = list(dict.fromkeys(name for row in mech.tiles for name in row.values))
    return {"key": "tile", "title": "the total picks a row",
            "columns": ["row", "total", *[name.replace("_", " ") for name in columns]],
            "rows": [{"id": row.id, "cells": [row.label, _range(row.least, row.most),
                                               *[_cell(row.values.get(name)) for name in columns]]}
                     for row in mech.tiles]}


def _cell(value: Any) -> str:
    if value is True:
        return "yes"
    if value is False or value is None:
        return "—"
    return str(value)


TABLES: dict[type, Callable[[Any], dict[str, Any] | None]] = {SecretOffer: _tiles}


def phase_tables(game: Game) -> list[dict[str, Any]]:
    """Every phase's table, the running phase's first and open, each with the row it keeps."""
    found = []
    running = game.step.phase
    for phase_id, mech in game.rules.phases.items():
        made = entry(TABLES, mech)
        table = made(mech) if made is not None else None
        if table is None:
            continue
        kept = (game.state.kept.get(phase_id) or {}).get(table["key"])
        found.append({**table, "phase": phase_id, "kept": kept, "open": phase_id == running})
    return sorted(found, key=lambda table: not table["open"])
