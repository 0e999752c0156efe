"""Every limit a rules file, a save or a game is held to, in one place (docs/limits.md lists
them with their reasons), and the check of a YAML text that runs before it is parsed.

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

from .document import Source
from .errors import Problem

# ---- a file ---------------------------------------------------------------------------------
MAX_FILE_BYTES = 1_000_000           # a rules file (the 2016 edition: about 15 kB)
MAX_YAML_DEPTH = 40                  # mappings and lists inside each other
MAX_YAML_VALUES = 200_000            # values in the file once aliases are expanded
MAX_DIGITS = 15                      # digits of a number, in YAML or in the DSL (below 10^15)
MAX_EXTENDS = 16                     # files in an `extends` chain

# ---- the DSL ------------------------------------------------------------------------------------
MAX_DSL_LENGTH = 2_000               # characters of one DSL string
MAX_DSL_DEPTH = 50                   # expressions nested in each other (parentheses, operators)

# ---- what a rules file declares (the first three also stated in grammar/rules.schema.json) ------
MAX_PLAYERS = 8
MAX_SUPPLY = 100_000                 # pieces of one token supply
MAX_CARD_COPIES = 10_000             # copies of one card
MAX_PLACES = 1_000
MAX_SCHEDULE = 10_000                # steps of the schedule (ages x rounds x phases)
MAX_CARDS = 10_000                   # cards of all decks together
MAX_ACTIONS = 100_000                # ids of the action space (sized by bid spaces, supplies, a resource's max...)
MAX_HELD_AMOUNT = 10_000             # the max of a resource held as cards (a payment searches the sums of its cards)

# ---- a game ---------------------------------------------------------------------------------------
MAX_AMOUNT = 10 ** 15                # any resource of a seat, in either direction
STEP_LIMIT = 1_000_000               # automatic steps between two decisions: more, and the rules are stuck
MAX_DECISIONS_PER_STEP = 100_000     # decisions within one step of the schedule
MAX_SAVE_ACTIONS = 1_000_000         # actions a save may hold (also in grammar/save.schema.json)
MAX_LOG_BYTES = 200_000_000          # a game log that `amunre replay` reads

_CORE_TAGS = frozenset(f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null", "seq", "map"))
_NUMBER = re.compile(r"[-+]?(0x[0-9a-fA-F_]+|0o[0-7_]+|[0-9_]+(\.[0-9_]*)?([eE][-+]?[0-9]+)?|\.[0-9_]+)")
_NOT_A_NAME = re.compile(r"[-+]?[0-9][0-9_]*|true|false|True|False|TRUE|FALSE|null|Null|NULL|~|")


def check_yaml(text: str, src: Source) -> list[Problem]:
    """Problems that must stop a YAML text before it is composed (at most one: the first)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError
    from ruamel.yaml.events import (AliasEvent, CollectionStartEvent, MappingEndEvent, MappingStartEvent,
                                    ScalarEvent, SequenceEndEvent)

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
