"""Declared parameters of mechanics: one declaration gives the JSON Schema, the reference
table in docs/mechanics.md, and the compiled value the mechanic runs with.

A mechanic lists its parameters as `Param` objects (kind, name, meaning, required or
default). interpreter/load/build_rules.py compiles each from the phase's mapping (DSL strings are checked
and compiled here, ids are checked against the rules file); tools/reference_docs.py turns
the same declarations into the schema's phase definitions and the docs' tables.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Protocol

from .. import dsl
from ..base.causes import Cause
from ..dsl.checked import ACTING_SEAT, NO_SEAT, Scope
from ..dsl.names import Vocabulary
from ..dsl.types import BOOL, NUM, Type

NAME_REF = {"$ref": "#/$defs/name"}


class Builder(Protocol):
    """What parameters and mechanics use of the build of a rules file (load/build_context.py's
    Build, which sits above them): values by their path in the document, problems kept with
    their place in the file, DSL strings compiled against the vocabulary, checked references."""

    @property
    def vocab(self) -> Vocabulary: ...

    @property
    def known(self) -> dict[str, Any]: ...        # what a reference may name, by kind

    def get(self, path: tuple, default: Any = None) -> Any: ...

    def problem(self, path: tuple, message: str, hint: str | None = None, key: bool = False) -> None: ...

    def cause(self, kind: str, id_: str, path: tuple) -> Cause: ...

    def constant(self, value: Any, path: tuple) -> dsl.Expression: ...

    def expression(self, path: tuple, scope: Scope = ..., wanted: Type = ...) -> dsl.Expression: ...

    def collection(self, path: tuple, scope: Scope = ...) -> dsl.Expression: ...

    def effect(self, path: tuple, scope: Scope = ..., automatic: bool = False) -> dsl.Effect: ...

    def ref(self, path: tuple, what: str) -> str: ...


class PhaseBuilder(Protocol):
    """The build as one phase's mechanic sees it (load/build_context.py's PhaseBuild): paths
    relative to the phase's mapping, and its parameters compiled."""

    @property
    def build(self) -> Builder: ...

    @property
    def base(self) -> tuple: ...                  # the phase's path in the document

    @property
    def vocab(self) -> Vocabulary: ...

    @property
    def material(self) -> dict[str, Any]: ...     # the build's `known`

    @property
    def params(self) -> SimpleNamespace: ...      # every parameter of the phase, compiled

    def get(self, *path: Any, default: Any = None) -> Any: ...

    def problem(self, *path: Any, message: str) -> None: ...

    def top(self, *path: Any) -> Any: ...

    def cause(self, kind: str, *path: Any, id_: str | None = None) -> Cause: ...


class Param:
    kind = "value"

    def __init__(self, name: str, doc: str, required: bool = False, default: Any = None) -> None:
        self.name = name
        self.doc = doc
        self.required = required
        self.default = default

    def schema(self) -> dict[str, Any]:
        """The JSON Schema of the value, with its description."""
        return {"description": self.doc, **self.value_schema()}

    def value_schema(self) -> dict[str, Any]:
        raise NotImplementedError

    def compile(self, build: Builder, path: tuple) -> Any:
        """The value the mechanic runs with, from the value at `path` (which is present)."""
        return build.get(path)

    def absent(self, build: Builder, path: tuple) -> Any:
        return self.default

    def describe_default(self) -> str:
        if self.required:
            return "required"
        return "" if self.default is None else f"default `{_yaml(self.default)}`"


def _yaml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_yaml(v) for v in value) + "]"
    return str(value)


class Expr(Param):
    """A DSL expression (or a plain number)."""
    kind = "expression"

    def __init__(self, name: str, doc: str, scope: Scope = ACTING_SEAT, type: Type = NUM, **kw: Any) -> None:
        super().__init__(name, doc, **kw)
        self.scope = scope
        self.type = type

    def value_schema(self) -> dict[str, Any]:
        return {"$ref": "#/$defs/condition" if self.type == BOOL else "#/$defs/expression"}

    def compile(self, build: Builder, path: tuple) -> Any:
        return build.expression(path, self.scope, self.type)

    def absent(self, build: Builder, path: tuple) -> Any:
        return None if self.default is None else build.constant(self.default, path)


class Collection(Param):
    kind = "collection"

    def __init__(self, name: str, doc: str, scope: Scope = NO_SEAT, **kw: Any) -> None:
        super().__init__(name, doc, **kw)
        self.scope = scope

    def value_schema(self) -> dict[str, Any]:
        return {"$ref": "#/$defs/collection"}

    def compile(self, build: Builder, path: tuple) -> Any:
        return build.collection(path, self.scope)


class Effect(Param):
    """A DSL effect; an `automatic` one runs by itself (no `choose`, no `require`)."""
    kind = "effect"

    def __init__(self, name: str, doc: str, scope: Scope = ACTING_SEAT, automatic: bool = False, **kw: Any) -> None:
        super().__init__(name, doc, **kw)
        self.scope = scope
        self.automatic = automatic

    def value_schema(self) -> dict[str, Any]:
        return {"$ref": "#/$defs/effect"}

    def compile(self, build: Builder, path: tuple) -> Any:
        return build.effect(path, self.scope, self.automatic)


class Deferred(Param):
    """A DSL string the mechanic compiles itself, because what its names mean depends on the
    mechanic's other parameters (`card`: a place for a deck of places, else a card's id): kept
    as its path in the document, for the mechanic to compile once it knows."""

    def compile(self, build: Builder, path: tuple) -> Any:
        return path

    def absent(self, build: Builder, path: tuple) -> Any:
        return path


class DeferredEffect(Deferred, Effect):
    """An effect the mechanic compiles (see Deferred)."""


class DeferredCondition(Deferred, Expr):
    """A condition the mechanic compiles (see Deferred)."""

    def __init__(self, name: str, doc: str, **kw: Any) -> None:
        super().__init__(name, doc, type=BOOL, **kw)


class Ref(Param):
    """The id of something the rules file declares: a resource, deck, token, good, card,
    card window or modifier."""

    def __init__(self, name: str, doc: str, what: str, **kw: Any) -> None:
        super().__init__(name, doc, **kw)
        self.what = what
        self.kind = what

    def value_schema(self) -> dict[str, Any]:
        return dict(NAME_REF)

    def compile(self, build: Builder, path: tuple) -> Any:
        return build.ref(path, self.what)


class Refs(Param):
    def __init__(self, name: str, doc: str, what: str, **kw: Any) -> None:
        super().__init__(name, doc, **kw)
        self.what = what
        self.kind = f"list of {what}s"

    def value_schema(self) -> dict[str, Any]:
        return {"type": "array", "items": dict(NAME_REF)}

    def compile(self, build: Builder, path: tuple) -> Any:
        return [build.ref(path + (i,), self.what) for i in range(len(build.get(path)))]

    def absent(self, build: Builder, path: tuple) -> Any:
        return list(self.default or [])


class Name(Param):
    """A name the parameter itself gives (a move's id, say), not one declared elsewhere."""
    kind = "name"

    def value_schema(self) -> dict[str, Any]:
        return dict(NAME_REF)


class Text(Param):
    kind = "text"

    def value_schema(self) -> dict[str, Any]:
        return {"type": "string"}


class Names(Param):
    """A list of names the parameter itself gives (the options of a choice, say), each once."""
    kind = "list of names"

    def value_schema(self) -> dict[str, Any]:
        return {"type": "array", "minItems": 1, "uniqueItems": True, "items": dict(NAME_REF)}

    def compile(self, build: Builder, path: tuple) -> Any:
        return tuple(build.get(path))


class Int(Param):
    kind = "integer"

    def __init__(self, name: str, doc: str, minimum: int | None = None, **kw: Any) -> None:
        super().__init__(name, doc, **kw)
        self.minimum = minimum

    def value_schema(self) -> dict[str, Any]:
        return {"type": "integer", **({} if self.minimum is None else {"minimum": self.minimum})}


class Ints(Param):
    """A list of whole numbers; `ascending` ones must rise strictly."""
    kind = "list of integers"

    def __init__(self, name: str, doc: str, minimum: int | None = None, ascending: bool = False,
                 least: int = 0, **kw: Any) -> None:
        super().__init__(name, doc, **kw)
        self.minimum, self.ascending, self.least = minimum, ascending, least

    def value_schema(self) -> dict[str, Any]:
        items = {"type": "integer", **({} if self.minimum is None else {"minimum": self.minimum})}
        return {"type": "array", "items": items, **({"minItems": self.least} if self.least else {})}

    def compile(self, build: Builder, path: tuple) -> Any:
        values = list(build.get(path))
        if self.ascending and any(b <= a for a, b in zip(values, values[1:])):
            build.problem(path, f"'{self.name}' must rise from the lowest to the highest, each once")
        return values

    def absent(self, build: Builder, path: tuple) -> Any:
        return list(self.default or [])


class Flag(Param):
    kind = "true or false"

    def value_schema(self) -> dict[str, Any]:
        return {"type": "boolean"}


class OneOf(Param):
    def __init__(self, name: str, doc: str, values: tuple[str, ...], **kw: Any) -> None:
        super().__init__(name, doc, **kw)
        self.values = values
        self.kind = " or ".join(f"`{v}`" for v in values)

    def value_schema(self) -> dict[str, Any]:
        return {"enum": list(self.values)}


class Group(Param):
    """A mapping of parameters."""
    kind = "mapping"

    def __init__(self, name: str, doc: str, *params: Param, **kw: Any) -> None:
        super().__init__(name, doc, **kw)
        self.params = params

    def value_schema(self) -> dict[str, Any]:
        return group_schema(self.params)

    def compile(self, build: Builder, path: tuple) -> Any:
        return compile_params(self.params, build, path)

    def absent(self, build: Builder, path: tuple) -> Any:
        return None if self.required else SimpleNamespace(**{p.name: p.default for p in self.params})


class Items(Param):
    """A list of mappings, each of the same parameters."""
    kind = "list of mappings"

    def __init__(self, name: str, doc: str, *params: Param, **kw: Any) -> None:
        super().__init__(name, doc, **kw)
        self.params = params

    def value_schema(self) -> dict[str, Any]:
        return {"type": "array", "items": group_schema(self.params)}

    def compile(self, build: Builder, path: tuple) -> Any:
        return [compile_params(self.params, build, path + (i,)) for i in range(len(build.get(path)))]

    def absent(self, build: Builder, path: tuple) -> Any:
        return []


def group_schema(params: tuple[Param, ...], extra: dict[str, Any] | None = None) -> dict[str, Any]:
    properties = dict(extra or {})
    properties.update({p.name: p.schema() for p in params})
    schema: dict[str, Any] = {"type": "object", "additionalProperties": False, "properties": properties}
    required = [p.name for p in params if p.required]
    if required:
        schema["required"] = required
    return schema


def compile_params(params: tuple[Param, ...], build: Builder, path: tuple) -> SimpleNamespace:
    values = {}
    for param in params:
        where = path + (param.name,)
        present = build.get(where) is not None
        values[param.name] = param.compile(build, where) if present else param.absent(build, where)
    return SimpleNamespace(**values)


def flatten(params: tuple[Param, ...], prefix: str = "") -> list[tuple[str, Param]]:
    """(dotted name, param) for every parameter, nested ones after their group."""
    rows = []
    for param in params:
        rows.append((prefix + param.name, param))
        if isinstance(param, (Group, Items)):
            inner = prefix + param.name + ("[]." if isinstance(param, Items) else ".")
            rows += flatten(param.params, inner)
    return rows
