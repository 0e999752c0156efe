"""The canonical order of a rules file's keys, read from the rules schema.

`amunre fmt` writes the keys the schema names in the order the schema lists them
(`amunre schema` shows it): `extends`, `id`, `title`, ... at the top; a list item's `id`
first (a place, a tile, a scoring rule); for a card `same_as`, `deck`, `count`, `window`,
`doc`, `effect`; for a phase `same_as`, `mechanic`, `doc`, the turn-order keys, then the
mechanic's parameters as docs/mechanics.md lists them. Keys the rules file names itself (its
cards, phases, resources, a place's columns) keep the order they are written in, each in
the place it takes among the others.
"""

from __future__ import annotations

from typing import Any

from ..interpreter.load.schema import schema as rules_schema

Schema = dict[str, Any]


class KeyOrder:
    def __init__(self, schema: Schema | None = None) -> None:
        self.schema = rules_schema() if schema is None else schema
        self.defs = self.schema.get("$defs", {})

    def resolve(self, sch: Any, mechanic: Any = None) -> Schema:
        """The schema of a mapping with its references followed, its `if mechanic is X` branch
        taken and its alternatives' properties gathered."""
        if not isinstance(sch, dict):
            return {}
        while "$ref" in sch:
            ref = sch["$ref"].rsplit("/", 1)[-1]
            sch = {**self.defs.get(ref, {}), **{k: v for k, v in sch.items() if k != "$ref"}}
        for part in sch.get("allOf", ()):
            cond = part.get("if", {}).get("properties", {}).get("mechanic", {})
            if "const" in cond and cond["const"] == mechanic:
                sch = {**sch, **self.resolve(part.get("then", {}), mechanic)}
        for key in ("oneOf", "anyOf"):
            for alternative in sch.get(key, ()):
                alternative = self.resolve(alternative, mechanic)
                if alternative.get("type") == "object" and "properties" in alternative:
                    sch = {**sch, "properties": {**sch.get("properties", {}), **alternative["properties"]},
                           **{k: v for k, v in alternative.items() if k in ("additionalProperties",
                                                                             "patternProperties")}}
        return sch

    def child(self, sch: Schema, key: Any) -> Any:
        """The schema of the value at `key` of a mapping whose (resolved) schema is `sch`."""
        if key in sch.get("properties", {}):
            return sch["properties"][key]
        patterns = sch.get("patternProperties", {})
        if patterns:
            return next(iter(patterns.values()))
        extra = sch.get("additionalProperties")
        return extra if isinstance(extra, dict) else {}

    def item(self, sch: Any, mechanic: Any = None) -> Any:
        """The schema of a list's items."""
        resolved = self.resolve(sch, mechanic)
        for key in ("oneOf", "anyOf"):
            for alternative in resolved.get(key, ()):
                alternative = self.resolve(alternative)
                if alternative.get("type") == "array":
                    return alternative.get("items", {})
        return resolved.get("items", {})

    @staticmethod
    def canonical(keys: list[Any], sch: Schema) -> list[Any]:
        """`keys` in canonical order: an item's `id` first (where the schema lists it first),
        then the schema's keys in its order, in the places they take; every other key where
        it is."""
        known = list(sch.get("properties", {}))
        first = [k for k in keys if known[:1] == ["id"] and k == "id"]
        rest = [k for k in keys if k not in first]
        slots = iter(sorted((k for k in rest if k in known), key=known.index))
        return first + [next(slots) if k in known else k for k in rest]
