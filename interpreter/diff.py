"""What differs between two rules files, by meaning rather than by text: the merged documents
are walked side by side, mappings by key, lists of items by their `id`, entities renamed
between editions matched by `same_as`, and DSL strings compared as canonical DSL (so a
change of spacing or of needless parentheses is no change). Each difference keeps the
position of both values, for `amunre diff`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .document import Document
from .dsl.build import parse_collection, parse_effect, parse_expression
from .dsl.parse import DslSyntaxProblem
from .dsl.printer import to_text
from .errors import Span
from .loader import by_id

_NOT_RULES = ("same_as",)          # says how to match, not what the rules are


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
    changes: list[Change] = []
    properties = [doc.data.get("places", {}).get("properties", {}) for doc in (a, b)]
    renamed = _partners(*properties)          # a place property renamed: so are the places' values
    _walk(a, b, (), (), (), a.data, b.data, changes, renamed)
    return changes


def _walk(a: Document, b: Document, name: tuple, at_a: tuple, at_b: tuple, old: Any, new: Any,
          out: list[Change], renamed: dict[str, str]) -> None:
    if isinstance(old, dict) and isinstance(new, dict):
        partner = _partners(old, new)
        partner.update({k: v for k, v in renamed.items() if k in old and v in new and k not in new})
        for key in old:
            if key in _NOT_RULES:
                continue
            other = partner.get(key, key)
            label = key if other == key else f"{key} (now {other})"
            if other in new:
                _walk(a, b, name + (label,), at_a + (key,), at_b + (other,), old[key], new[other], out, renamed)
            else:
                out.append(Change(name + (key,), "removed", old=old[key], old_at=a.span(at_a + (key,))))
        matched = set(partner.values())
        for key in new:
            if key not in old and key not in matched and key not in _NOT_RULES:
                out.append(Change(name + (key,), "added", new=new[key], new_at=b.span(at_b + (key,))))
    elif by_id(old) and by_id(new):
        index = {item["id"]: i for i, item in enumerate(new)}
        for i, item in enumerate(old):
            j = index.pop(item["id"], None)
            if j is None:
                out.append(Change(name + (item["id"],), "removed", old=item, old_at=a.span(at_a + (i,))))
            else:
                _walk(a, b, name + (item["id"],), at_a + (i,), at_b + (j,), item, new[j], out, renamed)
        for j in sorted(index.values()):
            out.append(Change(name + (new[j]["id"],), "added", new=new[j], new_at=b.span(at_b + (j,))))
    elif old != new and not _same_dsl(name, old, new):
        out.append(Change(name, "changed", old=old, new=new, old_at=a.span(at_a), new_at=b.span(at_b)))


def _partners(old: dict[str, Any], new: dict[str, Any]) -> dict[str, str]:
    """Keys of `old` that `new` holds under another name: either side's `same_as` says so."""
    partner = {}
    for key, value in old.items():
        if key in new:
            continue
        named = value.get("same_as") if isinstance(value, dict) else None
        if named in new and named not in old:
            partner[key] = named
        else:
            partner.update({key: other for other, v in new.items()
                            if other not in old and isinstance(v, dict) and v.get("same_as") == key})
    return partner


def _same_dsl(name: tuple, old: Any, new: Any) -> bool:
    """Two strings that are the same DSL in canonical form: under the first kind of DSL (an
    effect, an expression, a collection) as which both parse. The kind is not read off the key:
    a mechanic may name its effects and expressions anything (`start`, `finish`, `take`...)."""
    if not (isinstance(old, str) and isinstance(new, str)) or not name:
        return False
    for parse in (parse_effect, parse_expression, parse_collection):
        try:
            return to_text(parse(old)) == to_text(parse(new))
        except DslSyntaxProblem:
            continue
    return False
    last = name[-1].split(" ")[0]
    parse = parse_effect if last in ("effect", "on_win") else parse_collection if last == "among" else parse_expression
    try:
        return to_text(parse(old)) == to_text(parse(new))
    except DslSyntaxProblem:
        return False
