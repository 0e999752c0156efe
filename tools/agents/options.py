"""Agent specs: `name` or `name:key=value,key=value`, with typed, documented options.

A spec names an agent and sets some of its options, as the command line writes it
(`--agents ismcts:ms=500,heuristic:style=build,greedy`). In a list of agents the commas
serve twice: a piece with `=` and no `:` is one more option of the agent before it, since no
agent's name holds `=`. Every value is checked against its option's type and range, and an
unknown name or key is refused with the ones there are.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Option:
    """One setting of an agent: its key, type (int, float or str), default, meaning, and range."""
    key: str
    kind: type
    default: Any
    doc: str
    least: float | None = None
    most: float | None = None
    choices: tuple[str, ...] = ()

    def parse(self, agent: str, text: str) -> Any:
        """The value `text` gives the option; ValueError saying what it may be."""
        if self.choices:
            if text not in self.choices:
                raise ValueError(f"{agent}: {self.key} is one of {', '.join(self.choices)}, not '{text}'"
                                 + _suggest(text, self.choices))
            return text
        try:
            value = self.kind(text)
        except ValueError:
            raise ValueError(f"{agent}: {self.key} is {self.describe_type()}, not '{text}'") from None
        if value != value or (self.least is not None and value < self.least) or (
                self.most is not None and value > self.most):
            raise ValueError(f"{agent}: {self.key} is {self.describe_type()}, not {text}")
        return value

    def describe_type(self) -> str:
        """The kind and range of the values, in words."""
        if self.choices:
            return "one of " + ", ".join(self.choices)
        kind = "a whole number" if self.kind is int else "a number" if self.kind is float else "a text"
        if self.least is not None and self.most is not None:
            return f"{kind} from {self._bound(self.least)} to {self._bound(self.most)}"
        if self.least is not None:
            return f"{kind} from {self._bound(self.least)}"
        return kind

    def _bound(self, value: float) -> str:
        """A bound as a user reads it: 10,000,000 for a whole number (not 1e+07), 0.01 else."""
        return f"{int(value):,}" if self.kind is int else f"{value:g}"


def split_specs(text: str) -> list[str]:
    """The agent specs of a comma-separated list: `ismcts:ms=500,c=0.5,greedy` is two."""
    specs: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if specs and "=" in piece and ":" not in piece:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """A spec's agent name (lower case) and its `key=value` settings, unchecked; ValueError for
    a piece that is not `key=value` or a key given twice."""
    name, _, rest = spec.strip().partition(":")
    name = name.strip().lower()
    if not name:
        raise ValueError(f"'{spec}' names no agent; write a name, e.g. greedy or ismcts:ms=500")
    settings: dict[str, str] = {}
    if rest.strip():
        for piece in rest.split(","):
            key, equals, value = piece.partition("=")
            key, value = key.strip().lower(), value.strip()
            if not equals or not key or not value:
                raise ValueError(f"{name}: '{piece.strip()}' is not key=value (options are written "
                                 f"{name}:key=value,key=value)")
            if key in settings:
                raise ValueError(f"{name}: {key} is given twice")
            settings[key] = value
    elif ":" in spec:
        raise ValueError(f"'{spec}' has a ':' but no options after it")
    return name, settings


def typed_settings(name: str, options: tuple[Option, ...], settings: dict[str, str]) -> dict[str, Any]:
    """Every option's value: its default unless set; ValueError for a key the agent lacks."""
    known = {o.key: o for o in options}
    for key in settings:
        if key not in known:
            there = ", ".join(known) if known else "none"
            raise ValueError(f"agent '{name}' has no option '{key}'{_suggest(key, list(known))}; its options: {there}")
    return {key: (option.parse(name, settings[key]) if key in settings else option.default)
            for key, option in known.items()}


def _suggest(word: str, names: Any) -> str:
    close = [n for n in names if n.startswith(word)] or difflib.get_close_matches(word, list(names), n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""
