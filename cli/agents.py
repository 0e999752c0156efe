"""`amunre agents`: the players a seat may have, and the options each takes."""

from __future__ import annotations

import json
import sys
from typing import Annotated, Any

import typer

from ..tools.agents import AGENTS
from .listing import listing_console, print_listing
from .render import esc


def agent_rows() -> list[dict[str, Any]]:
    """One row per agent: its name, what it does, and its options (key, type, default, meaning)."""
    rows = [{"name": name, "doc": cls.doc,
             "options": [{"key": o.key, "type": o.describe_type(), "default": o.default, "doc": o.doc}
                         for o in cls.options]}
            for name, cls in AGENTS.items()]
    rows.append({"name": "human", "doc": "You: each decision is asked on the terminal.", "options": []})
    return rows


def list_agents(
    as_json: Annotated[bool, typer.Option("--json", help="Print the agents and options as JSON.")] = False,
) -> None:
    """List the agents a seat may have (--agents NAME or NAME:KEY=VALUE,...) and their options."""
    rows = agent_rows()
    if as_json:
        sys.stdout.write(json.dumps(rows) + "\n")
        return
    console = listing_console()
    for row in rows:
        console.print(f"[bold]{esc(row['name'])}[/]: {esc(row['doc'])}", highlight=False)
        if row["options"]:
            lines = [[option["key"], "-" if option["default"] is None else str(option["default"]),
                      option["type"], option["doc"]] for option in row["options"]]
            print_listing(console, ["option", "default", "values", "meaning"], lines, {"option", "default"},
                          indent="  ", box=None, padding=(0, 2))
    console.print("Options follow the name: --agents ismcts:ms=500,c=0.5,greedy,heuristic:style=build "
                  "(docs/agents.md says what each agent knows).", highlight=False)
