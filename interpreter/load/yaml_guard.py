"""The check of a YAML text that runs before it is parsed.

Rules files and saves come from other people: loading or playing one must never hang, eat
the machine's memory or end in a Python traceback. So the YAML text is first read as a flat
stream of parser events (ruamel.yaml's parser is iterative, not recursive) and refused,
with the position of the first offending value, if it is too large, too deep, expands
through aliases into too many values, or uses what a rules file has no use for (tags that
build Python objects, merge keys, keys that are not names). Only then is it composed into a
tree, which can no longer hit Python's recursion limit or blow up in memory.
"""

from __future__ import annotations

import re
from typing import Any

from ..base.errors import Problem
from ..base.limits import MAX_DIGITS, MAX_FILE_BYTES, MAX_YAML_DEPTH, MAX_YAML_VALUES
from .document import Source

_CORE_TAGS = frozenset(f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null", "seq", "map"))
_NUMBER = re.compile(r"[-+]?(0x[0-9a-fA-F_]+|0o[0-7_]+|[0-9_]+(\.[0-9_]*)?([eE][-+]?[0-9]+)?|\.[0-9_]+)")
_NOT_A_NAME = re.compile(r"[-+]?[0-9][0-9_]*|true|false|True|False|TRUE|FALSE|null|Null|NULL|~|")


def check_yaml(text: str, src: Source) -> list[Problem]:
    """Problems that must stop a YAML text before it is composed (at most one: the first)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError
    from ruamel.yaml.events import (
        AliasEvent,
        CollectionStartEvent,
        MappingEndEvent,
        MappingStartEvent,
        ScalarEvent,
        SequenceEndEvent,
    )

    def at(event: Any, message: str, hint: str | None = None) -> list[Problem]:
        mark = event.start_mark
        return [Problem(message, src.span((mark.line, mark.column)), hint)]

    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        return [Problem(f"{src.path}: the file is larger than {MAX_FILE_BYTES:,} bytes")]
    # Per open collection: [is a mapping, values it stands for, next value is a key, anchor].
    stack: list[list[Any]] = []
    sizes: dict[str, int] = {}          # anchor -> how many values its node stands for
    open_anchors: set[str] = set()
    total = 0
    try:
        for event in YAML(typ="rt").parse(text):
            parent = stack[-1] if stack else None
            is_key = parent is not None and parent[0] and parent[2]
            if parent is not None and parent[0] and isinstance(event, (ScalarEvent, AliasEvent, CollectionStartEvent)):
                parent[2] = not parent[2]
            tag = getattr(event, "tag", None)
            if tag is not None and tag not in _CORE_TAGS:
                return at(event, f"YAML tag '{tag}' is not allowed in a rules file",
                          "a rules file holds plain names, numbers, texts, lists and mappings")
            if isinstance(event, CollectionStartEvent):
                if is_key:
                    return at(event, "a key must be a name, not a list or a mapping")
                if len(stack) >= MAX_YAML_DEPTH:
                    return at(event, f"values are nested more than {MAX_YAML_DEPTH} deep")
                stack.append([isinstance(event, MappingStartEvent), 1, True, event.anchor])
                if event.anchor:
                    open_anchors.add(event.anchor)
                added = 1
            elif isinstance(event, (MappingEndEvent, SequenceEndEvent)):
                _, size, _, anchor = stack.pop()
                if anchor:
                    sizes[anchor] = size
                    open_anchors.discard(anchor)
                if stack:
                    stack[-1][1] += size
                continue
            elif isinstance(event, AliasEvent):
                if event.anchor in open_anchors:
                    return at(event, f"the alias *{event.anchor} is inside the value it names: it never ends")
                added = sizes.get(event.anchor, 1)
            elif isinstance(event, ScalarEvent):
                problem = _scalar_problem(event.value, event.style, is_key)
                if problem:
                    return at(event, *problem)
                if event.anchor:
                    sizes[event.anchor] = 1
                added = 1
            else:
                continue
            if parent is not None and not isinstance(event, CollectionStartEvent):
                parent[1] += added
            total += added
            if total > MAX_YAML_VALUES:
                return at(event, f"the file stands for more than {MAX_YAML_VALUES:,} values "
                          "(aliases repeating aliases?)")
    except YAMLError:
        return []                        # a syntax error: the loader reports it, located
    return []


def _scalar_problem(value: str, style: Any, is_key: bool) -> tuple[str, str | None] | None:
    plain = style is None
    if is_key and plain and value == "<<":
        return "YAML merge keys (<<) are not supported in rules files", "write the values out, or use 'extends'"
    if is_key and plain and _NOT_A_NAME.fullmatch(value):
        return f"a key must be a name, not '{value}'", "write it as a name, or quote it"
    if plain and _NUMBER.fullmatch(value) and sum(c.isdigit() for c in value) > MAX_DIGITS:
        return f"a number of more than {MAX_DIGITS} digits", None
    return None
