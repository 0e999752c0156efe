"""The `layout:` section: how a board program draws the places, checked against the place table.

A layout is presentation (interpreter/model.py `Layout`): no rule reads it. It is still checked
when the rules load, so a misspelt property or value is an error pointing into the file rather
than a board drawn wrongly. It names place properties with a closed set of values, or `owner`,
to split the board by, and the properties and place modifiers each place shows as symbols.
"""

from __future__ import annotations

from typing import Any

from ..base.errors import did_you_mean
from ..model import Layout, Split, Symbol
from .build_context import Build

OWNER = "owner"


def build_layout(build: Build, spec: dict[str, Any]) -> Layout:
    """The layout a rules file gives (a default one when it gives none)."""
    columns = _split(build, spec.get("columns"), "columns")
    rows = _split(build, spec.get("rows"), "rows")
    if columns is not None and rows is not None and columns.by == rows.by:
        build.problem(("layout", "rows", "by"), f"rows and columns both split by '{rows.by}'")
    return Layout(title=spec.get("title", ""), columns=columns, rows=rows,
                  between=spec.get("columns", {}).get("between", ""), show=spec.get("show", "all"),
                  symbols=_symbols(build, spec.get("symbols", {})))


def _symbols(build: Build, spec: dict[str, str]) -> tuple[Symbol, ...]:
    """The properties and place modifiers a place shows as symbols, each with its doc."""
    properties = build.get(("places", "properties"), {}) or {}
    modifiers = {name: mod for name, mod in build.vocab.modifiers.items() if mod.scope == "place"}
    found = []
    for name, symbol in spec.items():
        if name in properties:
            found.append(Symbol(name, symbol, str(properties[name].get("doc", ""))))
        elif name in modifiers:
            found.append(Symbol(name, symbol, modifiers[name].doc))
        else:
            build.problem(("layout", "symbols", name), f"'{name}' is not a place property or place modifier",
                          hint=did_you_mean(name, [*properties, *modifiers]), key=True)
    return tuple(found)


def _split(build: Build, spec: dict[str, Any] | None, key: str) -> Split | None:
    if spec is None:
        return None
    by, order = spec["by"], list(spec.get("order", []))
    if by == OWNER:
        if not build.vocab.ownership:
            build.problem(("layout", key, "by"), "places have no owners here (places.ownership is not set)")
        if order:
            build.problem(("layout", key, "order"), "places split by owner are drawn seat by seat; "
                          "an order is for a property's values")
        return Split(OWNER, ())
    values = build.vocab.enums.get(by)
    if values is None:
        choices = [*build.vocab.enums, *([OWNER] if build.vocab.ownership else [])]
        build.problem(("layout", key, "by"), f"'{by}' is not a place property with values",
                      hint=did_you_mean(by, choices))
        return None
    for i, value in enumerate(order):
        if value not in values:
            build.problem(("layout", key, "order", i), f"'{value}' is not a value of '{by}' "
                          f"(its values: {', '.join(values)})")
    named = [v for v in order if v in values]
    return Split(by, tuple(named + [v for v in values if v not in named]))
