"""What the shipped rules files are (`amunre editions`) and which options a rules file offers
(`amunre options`), as rows for a table or for JSON."""

from __future__ import annotations

from difflib import get_close_matches
from typing import Any

from ..interpreter.base.errors import AmunreError, RulesError
from ..interpreter.load.rules_cache import load_rules
from ..interpreter.load.shipped import shipped_names, shipped_path
from ..interpreter.model import Rules


def editions() -> list[dict[str, Any]]:
    """One row per shipped rules file; a file that does not load says why instead of failing."""
    rows = []
    for name in shipped_names():
        row: dict[str, Any] = {"name": name}
        path = shipped_path(name)
        assert path is not None                 # a name shipped_names lists is a shipped file
        try:
            rules = load_rules(path)
        except AmunreError as error:
            problems = error.problems if isinstance(error, RulesError) else []
            row["error"] = problems[0].message if problems else str(error)
        else:
            row.update(id=rules.id, title=rules.title, year=rules.year, publisher=rules.publisher,
                       source=rules.source, players=f"{rules.min_players}-{rules.max_players}")
        rows.append(row)
    return rows


def options(rules: Rules) -> list[dict[str, Any]]:
    return [{"name": name, "values": list(option.values), "default": option.default, "doc": option.doc}
            for name, option in rules.options.items()]


def chosen_options(rules: Rules, given: list[str]) -> dict[str, str]:
    """`name=value` strings as an options mapping; ValueError saying what is wrong (and what
    was meant, when a name or value is close to a right one)."""
    chosen: dict[str, str] = {}
    for text in given:
        name, sep, value = text.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name:
            raise ValueError(f"'{text}' is not name=value (e.g. {_example(rules)})")
        if name not in rules.options:
            near = get_close_matches(name, rules.options, n=1)
            known = ", ".join(rules.options) or "none"
            raise ValueError(f"unknown option '{name}'" + (f" (did you mean '{near[0]}'?)" if near else "")
                             + f"; {rules.title or rules.id} has: {known}")
        values = rules.options[name].values
        if value not in values:
            near = get_close_matches(value, values, n=1)
            raise ValueError(f"option {name} is one of {', '.join(values)}, not '{value}'"
                             + (f" (did you mean '{near[0]}'?)" if near else ""))
        chosen[name] = value
    return chosen


def _example(rules: Rules) -> str:
    for name, option in rules.options.items():
        return f"{name}={option.values[-1]}"
    return "name=value"
