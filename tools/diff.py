"""What differs between two rules files, by meaning rather than by text: the merged documents
are walked side by side, mappings by key, lists of items by their `id`, and DSL strings
compared as canonical DSL (so a change of spacing or of needless parentheses is no change).

Editions name the same things differently (a card, a phase, a column renamed), so the
first file's names are read through a renaming before anything is compared: what a `same_as`
key in either file says, and derived values defined by the same formula. A renamed entity is
matched with its partner, and a value or a DSL string that differs only by renamed names is
no change: whatever differs in a renamed thing itself is reported once, where it is defined.
Each difference keeps the position of both values, for `amunre diff`."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..interpreter.base.errors import Span
from ..interpreter.dsl.parse import DslSyntaxProblem
from ..interpreter.dsl.printer import to_text
from ..interpreter.dsl.tree_to_ast import parse_collection, parse_effect, parse_expression
from ..interpreter.load.document import Document
from .diff_flow import FLOW_KEYS, ORDER_OF_PLAY, changed_lines, outline

_NOT_RULES = ("same_as",)          # says how to match, not what the rules are
_NOT_PLAYED = ("examples",)        # top-level sections that prove the rules rather than state them
_DEFINED_BY_VALUE = ("derived",)   # sections whose names are their formulas: same formula, same name
_TOKEN = re.compile(r"'[^']*'|[A-Za-z_][A-Za-z0-9_]*")     # DSL quoted text, or a name


@dataclass(frozen=True)
class Change:
    """One difference: `path` names the value by keys and ids (B's name where it was renamed)."""
    path: tuple[str, ...]
    kind: str                       # "changed", "added" or "removed"
    old: Any = None
    new: Any = None
    old_at: Span | None = None
    new_at: Span | None = None

    def to_json(self) -> dict[str, Any]:
        def where(span: Span | None) -> str | None:
            return None if span is None else f"{span.file}:{span.line}"
        return {"path": ".".join(self.path), "kind": self.kind, "old": self.old, "new": self.new,
                "old_at": where(self.old_at), "new_at": where(self.new_at)}


def diff_documents(a: Document, b: Document) -> list[Change]:
    """Every difference of the rules (worked examples are left out: they prove the rules, and a
    file does not inherit its parent's); where either file writes its order of play as a
    `flow:` tree, the two orders are compared as outlines, a line per phase (tools/diff_flow.py),
    not as data."""
    changes: list[Change] = []
    as_outlines = "flow" in a.data or "flow" in b.data
    old, new = ({k: v for k, v in doc.data.items() if k not in _NOT_PLAYED} for doc in (a, b))
    if as_outlines:
        old, new = _without_flow(old), _without_flow(new)
    _Walk(a, b, renaming(a.data, b.data), changes).walk((), (), (), old, new)
    if as_outlines:
        changes += _flow_changes(a, b)
    return changes


def _without_flow(data: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in data.items() if key not in FLOW_KEYS}


def _flow_changes(a: Document, b: Document) -> list[Change]:
    """The phases whose place in the order of play differs: removed and added outline lines."""
    old_at, new_at = (next((doc.span((key,)) for key in FLOW_KEYS if key in doc.data), None) for doc in (a, b))
    def text(dsl: str) -> str:
        return _dsl_text(dsl) or dsl
    return [Change((ORDER_OF_PLAY, "phase"), "removed", old=line, old_at=old_at) if kind == "removed"
            else Change((ORDER_OF_PLAY, "phase"), "added", new=line, new_at=new_at)
            for kind, line in changed_lines(outline(a.data, text), outline(b.data, text))]


# ---- the renaming ------------------------------------------------------------------------------

def renaming(old: dict[str, Any], new: dict[str, Any]) -> dict[str, str]:
    """The names of `old` that `new` gives another name: a `same_as` on either side (an entity
    of `old` naming its id in `new`, or one of `new` naming its id in `old`), and a derived
    value of each whose formulas are the same under that renaming. Kept only where it is one to
    one: a name claimed for two partners, or renamed to a name `old` itself keeps, is dropped
    (else two different things could compare equal). A name is one name throughout a file."""
    claims = [(a, b) for a, b in _same_as(old)] + [(a, b) for b, a in _same_as(new)]
    names = _one_to_one(claims, _names_declared(old))
    while True:                                  # a derived formula may read another derived value
        more = _one_to_one(list(names.items()) + _by_formula(old, new, names), _names_declared(old))
        if more == names:
            return names
        names = more


def _same_as(data: Any) -> Iterator[tuple[str, str]]:
    """(its name, the name it says it has elsewhere) for every entity with a `same_as`."""
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, dict) and isinstance(value.get("same_as"), str):
                yield key, value["same_as"]
            yield from _same_as(value)
    elif isinstance(data, list):
        for item in data:
            if isinstance(item, dict) and isinstance(item.get("id"), str) and isinstance(item.get("same_as"), str):
                yield item["id"], item["same_as"]
            yield from _same_as(item)


def _names_declared(data: dict[str, Any]) -> set[str]:
    """Every name the file gives something, but the keys of its `layout:` (presentation: words
    such as `rows` or `symbols` there name nothing a rule reads)."""
    return _declared({key: value for key, value in data.items() if key != "layout"})


def _declared(data: Any) -> set[str]:
    """Every name the file gives something: each key and each id, at any depth."""
    found: set[str] = set()
    if isinstance(data, dict):
        found.update(k for k in data if isinstance(k, str))
        for value in data.values():
            found |= _declared(value)
    elif isinstance(data, list):
        for item in data:
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                found.add(item["id"])
            found |= _declared(item)
    return found


def _one_to_one(claims: list[tuple[str, str]], declared: set[str]) -> dict[str, str]:
    """The claims that rename each name once, each to a name of its own that the first file
    does not give something else (unless it renames that too)."""
    pairs = {(a, b) for a, b in claims if a != b}
    targets: dict[str, set[str]] = {}
    sources: dict[str, set[str]] = {}
    for a, b in pairs:
        targets.setdefault(a, set()).add(b)
        sources.setdefault(b, set()).add(a)
    return {a: b for a, b in pairs
            if len(targets[a]) == 1 and len(sources[b]) == 1 and (b not in declared or b in targets)}


def _by_formula(old: dict[str, Any], new: dict[str, Any], names: dict[str, str]) -> list[tuple[str, str]]:
    """Derived values of `old` and `new` not yet matched whose formulas are the same DSL under
    `names`: each pair found where exactly one partner is possible."""
    found = []
    for section in _DEFINED_BY_VALUE:
        mine, theirs = old.get(section), new.get(section)
        if not (isinstance(mine, dict) and isinstance(theirs, dict)):
            continue
        partners = set(names.values())
        open_old = {k: canonical(mine[k], names) for k in mine if k not in theirs and k not in names}
        open_new = {k: canonical(theirs[k], {}) for k in theirs if k not in mine and k not in partners}
        for a, formula in open_old.items():                 # each formula made canonical once
            same = [b for b, other in open_new.items() if other == formula]
            if len(same) == 1 and sum(f == formula for f in open_old.values()) == 1:
                found.append((a, same[0]))
    return found


# ---- comparing values --------------------------------------------------------------------------

def canonical(value: Any, names: dict[str, str]) -> Any:
    """`value` as compared: DSL strings in canonical text, and every name read through `names`
    (mapping keys, ids, names as values and names inside DSL); `same_as` left out."""
    if isinstance(value, str):
        text = _dsl_text(value)
        if text is None:
            return value
        return _TOKEN.sub(lambda m: names.get(m.group(0), m.group(0)), text)
    if isinstance(value, list):
        return [canonical(item, names) for item in value]
    if isinstance(value, dict):
        return {names.get(k, k): canonical(v, names) for k, v in value.items() if k not in _NOT_RULES}
    return value


def _dsl_text(text: str) -> str | None:
    """Canonical text of a string that is DSL: under the first kind of DSL (an effect, an
    expression, a collection) as which it parses. The kind is not read off the key: a mechanic
    may name its effects and expressions anything (`start`, `finish`, `take`...)."""
    for parse in (parse_effect, parse_expression, parse_collection):
        try:
            return to_text(parse(text))
        except DslSyntaxProblem:
            continue
    return None


# ---- the walk ----------------------------------------------------------------------------------

@dataclass
class _Walk:
    a: Document
    b: Document
    names: dict[str, str]
    out: list[Change]

    def walk(self, name: tuple, at_a: tuple, at_b: tuple, old: Any, new: Any) -> None:
        if isinstance(old, dict) and isinstance(new, dict):
            self._mapping(name, at_a, at_b, old, new)
        elif _items(old) is not None and _items(new) is not None:
            self._items(name, at_a, at_b, old, new)
        elif old != new and canonical(old, self.names) != canonical(new, {}):
            self.out.append(Change(name, "changed", old=old, new=new,
                                   old_at=self.a.span(at_a), new_at=self.b.span(at_b)))

    def _mapping(self, name: tuple, at_a: tuple, at_b: tuple, old: dict, new: dict) -> None:
        partner = _partners(old, new)
        partner.update({k: self.names[k] for k in old
                        if k not in new and k not in partner and self.names.get(k) in new})
        for key in old:
            if key in _NOT_RULES:
                continue
            other = partner.get(key, key)
            if other in new:
                self.walk(name + (_label(key, other),), at_a + (key,), at_b + (other,), old[key], new[other])
            else:
                self.out.append(Change(name + (key,), "removed", old=old[key], old_at=self.a.span(at_a + (key,))))
        matched = set(partner.values())
        for key in new:
            if key not in old and key not in matched and key not in _NOT_RULES:
                self.out.append(Change(name + (key,), "added", new=new[key], new_at=self.b.span(at_b + (key,))))

    def _items(self, name: tuple, at_a: tuple, at_b: tuple, old: list, new: list) -> None:
        """Items matched by id (renamed ids through `names`); an id written more than once is
        matched by its place among the items with that id (its 2nd with the other's 2nd)."""
        index = {key: j for j, (key, _) in enumerate(_items(new) or [])}
        for i, (key, item) in enumerate(_items(old) or []):
            other = key if key in index else (self.names.get(key[0], key[0]), key[1])
            j = index.pop(other, None)
            if j is None:
                self.out.append(Change(name + (_name(key),), "removed", old=item, old_at=self.a.span(at_a + (i,))))
            else:
                label = _label(_name(key), _name(other))
                self.walk(name + (label,), at_a + (i,), at_b + (j,), item, new[j])
        for key, j in sorted(index.items(), key=lambda kv: kv[1]):
            self.out.append(Change(name + (_name(key),), "added", new=new[j], new_at=self.b.span(at_b + (j,))))


def _partners(old: dict[str, Any], new: dict[str, Any]) -> dict[str, str]:
    """Keys of `old` that `new` holds under another name, as either side's `same_as` says (even
    where the file uses the name for something else too, which the renaming leaves out)."""
    partner = {}
    for key, value in old.items():
        if key in new:
            continue
        named = value.get("same_as") if isinstance(value, dict) else None
        if named in new and named not in old:
            partner[key] = named
        else:
            for other, v in new.items():           # the last new entry that names it wins
                if other not in old and isinstance(v, dict) and v.get("same_as") == key:
                    partner[key] = other
    return partner


def _items(value: Any) -> list[tuple[tuple[str, int], Any]] | None:
    """A list of mappings with ids as ((id, how many before it had that id), item), else None."""
    if not isinstance(value, list) or not value:
        return None
    if not all(isinstance(item, dict) and isinstance(item.get("id"), str) for item in value):
        return None
    seen: dict[str, int] = {}
    found = []
    for item in value:
        n = seen[item["id"]] = seen.get(item["id"], 0) + 1
        found.append(((item["id"], n - 1), item))
    return found


def _name(key: tuple[str, int]) -> str:
    return key[0] if key[1] == 0 else f"{key[0]}#{key[1] + 1}"


def _label(key: str, other: str) -> str:
    return key if other == key else f"{key} (now {other})"
