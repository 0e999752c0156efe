"""A value of a rules file written back as YAML's flow style writes it (`{type: bid, lot: x}`,
`[1, 2]`, words as they are): how an example's move or a house rule's change is quoted to the
person who wrote it, in `amunre check`'s reports and in a rulebook's list of changes."""

from __future__ import annotations

from typing import Any


def flow_style(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {flow_style(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flow_style(v) for v in value) + "]"
    return str(value)
