"""The check of a YAML text that runs before it is parsed.

Rules files and saves come from other people: loading or playing one must never hang, eat
the machine's memory or end in a Python traceback. So the YAML text is first read as a flat
stream of parser events (ruamel.yaml's parser is iterative, not recursive) and refused,
with the position of the first offending value, if it is too large, too deep, expands
through aliases into too many values, or uses what a rules file has no use for (tags that
build Python objects, keys that are not names). Anchors, aliases and merge keys (`<<: *name`)
are allowed: they let a file say a block once (rules-files.md). Only then is it composed into a
tree, which can no longer hit Python's recursion limit or blow up in memory: from the very
events checked (`EventReplay`), not from the text parsed a second time, which was more than a
third of the time a rules file took to load.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError
from ruamel.yaml.events import (
    AliasEvent,
    CollectionStartEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
)

from ..base.errors import Problem
from ..base.limits import MAX_DIGITS, MAX_FILE_BYTES, MAX_YAML_DEPTH, MAX_YAML_VALUES
from .document import Source

_CORE_TAGS = frozenset(f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null", "seq", "map"))
_NUMBER = re.compile(r"[-+]?(0x[0-9a-fA-F_]+|0o[0-7_]+|[0-9_]+(\.[0-9_]*)?([eE][-+]?[0-9]+)?|\.[0-9_]+)")
_NOT_A_NAME = re.compile(r"[-+]?[0-9][0-9_]*|true|false|True|False|TRUE|FALSE|null|Null|NULL|~|")


@dataclass
class Checked:
    """What the check found: the problem that must stop the text (at most one: the first); else
    the parser's events, for the composer. Events are None where the composer must parse the
    text itself: at a syntax error (which it then reports, located), or under a `%YAML`
    directive (the version it names changes how the composer's resolver reads a scalar)."""

    problems: list[Problem]
    events: list[Any] | None


def check_yaml(text: str, src: Source) -> Checked:
    """Check a YAML text before it is composed."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        return Checked([Problem(f"{src.path}: the file is larger than {MAX_FILE_BYTES:,} bytes")], None)
    guard = _Guard()
    events: list[Any] = []
    try:
        for event in YAML(typ="rt").parse(text):
            found = guard.see(event)
            if found is not None:
                mark = event.start_mark
                return Checked([Problem(found[0], src.span((mark.line, mark.column)), found[1])], None)
            events.append(event)
    except YAMLError:
        return Checked([], None)         # a syntax error: the loader reports it, located
    directive = any(isinstance(event, DocumentStartEvent) and event.version for event in events)
    return Checked([], None if directive else events)


class EventReplay:
    """A parser that hands out events already parsed, as ruamel.yaml's composer asks its parser
    for them (check, peek, get)."""

    def __init__(self, events: list[Any]) -> None:
        self.events = events
        self.at = 0

    def check_event(self, *choices: type) -> bool:
        if self.at >= len(self.events):
            return False
        return not choices or isinstance(self.events[self.at], choices)

    def peek_event(self) -> Any:
        return self.events[self.at]

    def get_event(self) -> Any:
        self.at += 1
        return self.events[self.at - 1]


class _Guard:
    """The walk over the parser's events: the collections open, what each anchor stands for,
    and how many values the file stands for once its aliases are expanded."""

    def __init__(self) -> None:
        # Per open collection: [is a mapping, values it stands for, next value is a key, anchor].
        self.stack: list[list[Any]] = []
        self.sizes: dict[str, int] = {}          # anchor -> how many values its node stands for
        self.open_anchors: set[str] = set()
        self.total = 0

    def see(self, event: Any) -> tuple[str, str | None] | None:
        """The problem this event makes (message, hint), if any."""
        parent = self.stack[-1] if self.stack else None
        is_key = parent is not None and parent[0] and parent[2]
        if parent is not None and parent[0] and isinstance(event, (ScalarEvent, AliasEvent, CollectionStartEvent)):
            parent[2] = not parent[2]
        tag = getattr(event, "tag", None)
        if tag is not None and tag not in _CORE_TAGS:
            return (f"YAML tag '{tag}' is not allowed in a rules file",
                    "a rules file holds plain names, numbers, texts, lists and mappings")
        if isinstance(event, CollectionStartEvent):
            return self._open(event, is_key)
        if isinstance(event, (MappingEndEvent, SequenceEndEvent)):
            self._close()
            return None
        if isinstance(event, AliasEvent):
            if event.anchor in self.open_anchors:
                return f"the alias *{event.anchor} is inside the value it names: it never ends", None
            return self._count(parent, self.sizes.get(event.anchor, 1))
        if isinstance(event, ScalarEvent):
            problem = _scalar_problem(event.value, event.style, is_key)
            if problem:
                return problem
            if event.anchor:
                self.sizes[event.anchor] = 1
            return self._count(parent, 1)
        return None

    def _open(self, event: Any, is_key: bool) -> tuple[str, str | None] | None:
        if is_key:
            return "a key must be a name, not a list or a mapping", None
        if len(self.stack) >= MAX_YAML_DEPTH:
            return f"values are nested more than {MAX_YAML_DEPTH} deep", None
        self.stack.append([isinstance(event, MappingStartEvent), 1, True, event.anchor])
        if event.anchor:
            self.open_anchors.add(event.anchor)
        return self._count(None, 1)

    def _close(self) -> None:
        _, size, _, anchor = self.stack.pop()
        if anchor:
            self.sizes[anchor] = size
            self.open_anchors.discard(anchor)
        if self.stack:
            self.stack[-1][1] += size

    def _count(self, parent: list[Any] | None, added: int) -> tuple[str, str | None] | None:
        """Count `added` values (into the collection they stand in, if it is open)."""
        if parent is not None:
            parent[1] += added
        self.total += added
        if self.total > MAX_YAML_VALUES:
            return (f"the file stands for more than {MAX_YAML_VALUES:,} values: more than any rules file needs "
                    "(if it is short, aliases repeating aliases multiply it)"), None
        return None


def _scalar_problem(value: str, style: Any, is_key: bool) -> tuple[str, str | None] | None:
    plain = style is None
    if is_key and plain and _NOT_A_NAME.fullmatch(value):
        return f"a key must be a name, not '{value}'", "write it as a name, or quote it"
    if plain and _NUMBER.fullmatch(value) and sum(c.isdigit() for c in value) > MAX_DIGITS:
        return f"a number of more than {MAX_DIGITS} digits", None
    return None
