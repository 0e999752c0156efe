"""Check a rules document against grammar/rules.schema.json, with errors that point at the file.

jsonschema's own messages ("'four' is not of type 'integer'") say what is
wrong but not where or in the rule author's words; here every validation
error becomes a `Problem` located with `Document.span` and phrased for
people editing YAML. The same schema file serves editors (hover docs,
completion), so there is one description of the format, not two.
"""

from __future__ import annotations

import json
import re
from importlib.resources import files
from typing import Any, cast

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

from ..base.errors import Problem, did_you_mean
from .document import Document

_TYPE_NAMES = {
    "object": "a mapping",
    "array": "a list",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "null": "empty",
}


def schema() -> dict[str, Any]:
    """The rules-file JSON Schema, read from the installed `amunre.grammar` package."""
    text = files("amunre.grammar").joinpath("rules.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


def validate_document(doc: Document, rules_schema: dict[str, Any] | None = None) -> list[Problem]:
    """Every schema violation in `doc`, as Problems sorted by position (the rules' own file first).

    `rules_schema` replaces the packaged schema (tests use small ones).
    """
    validator = Draft202012Validator(schema() if rules_schema is None else rules_schema)
    problems: list[Problem] = []
    for error in validator.iter_errors(doc.data):
        problems += _problems(doc, _deepest(error))
    # jsonschema reports `required` once per missing key, and each report here names them all.
    unique = list(dict.fromkeys(problems))
    return sorted(unique, key=lambda p: _position(doc, p))


def _position(doc: Document, problem: Problem) -> tuple[bool, str, int, int]:
    span = problem.span
    if span is None:
        return (True, "", 0, 0)
    return (span.file != doc.path, span.file, span.line, span.col)


def _deepest(error: ValidationError) -> ValidationError:
    """For anyOf/oneOf failures, the alternative that came closest, which says more than "no match".

    Alternatives that only require different keys are kept whole: "needs one of
    the keys" is clearer than the complaint of whichever alternative is picked.
    """
    while error.validator in ("anyOf", "oneOf") and error.context and not _key_choice(error.validator_value):
        error = best_match(error.context)
    return error


def _key_choice(alternatives: Any) -> list[str]:
    """The keys of alternatives that are each only `{"required": [...]}`; empty if they are anything else."""
    if not all(isinstance(alt, dict) and set(alt) == {"required"} for alt in alternatives):
        return []
    return [key for alt in alternatives for key in alt["required"]]


def _problems(doc: Document, error: ValidationError) -> list[Problem]:
    """The Problems one validation error stands for (a `required` or `additionalProperties`
    error may name several keys)."""
    path = tuple(error.absolute_path)
    # The error's parts are JSON values of the schema and the document (their stubs allow more).
    schema: dict[str, Any] = error.schema if isinstance(error.schema, dict) else {}
    instance: Any = error.instance
    rule: Any = error.validator_value
    if "propertyNames" in error.absolute_schema_path:  # the instance is a key of the mapping at `path`
        span = doc.span(path + (instance,), key=True)
        return [Problem(f"invalid name '{instance}'", span, schema.get("description"))]
    keys = _key_choice(rule) if error.validator in ("anyOf", "oneOf") else []
    if keys:
        exactly = "exactly " if error.validator == "oneOf" else ""
        names = ", ".join(f"'{key}'" for key in keys)
        return [Problem(f"{_describe(path)} must have {exactly}one of the keys {names}", doc.span(path, key=True))]
    if error.validator not in ("required", "additionalProperties"):
        message, hint = _message(error, _describe(path))
        return [Problem(message, doc.span(path), hint)]
    if error.validator == "required":
        inside = f" in {_describe(path)}" if path else ""
        missing = [name for name in rule if name not in instance]
        return [Problem(f"missing required key '{name}'{inside}", doc.span(path, key=True)) for name in missing]
    allowed = list(schema.get("properties", {}))
    patterns = list(schema.get("patternProperties", {}))
    unknown = [k for k in instance if k not in allowed and not any(re.search(p, str(k)) for p in patterns)]
    return [
        Problem(f"unknown key '{k}'", doc.span(path + (k,), key=True), did_you_mean(str(k), allowed)) for k in unknown
    ]


_BOUNDS = {
    "minimum": "at least",
    "exclusiveMinimum": "more than",
    "maximum": "at most",
    "exclusiveMaximum": "less than",
}
_SIZES = {"minItems": "at least", "maxItems": "at most", "minProperties": "at least", "maxProperties": "at most"}


def _message(error: ValidationError, where: str) -> tuple[str, str | None]:
    """A rules author's wording of one error about the value called `where`, and a hint if any."""
    kind, rule, value = str(error.validator), cast(Any, error.validator_value), error.instance
    schema: dict[str, Any] = error.schema if isinstance(error.schema, dict) else {}
    if kind == "type":
        kinds = [rule] if isinstance(rule, str) else rule
        return f"{where} must be {' or '.join(_TYPE_NAMES.get(k, k) for k in kinds)}, got {_show(value)}", None
    if kind == "enum":
        hint = did_you_mean(value, [str(v) for v in rule]) if isinstance(value, str) else None
        return f"{where} must be one of {', '.join(_show(v) for v in rule)}, got {_show(value)}", hint
    if kind == "const":
        return f"{where} must be {_show(rule)}, got {_show(value)}", None
    if kind in _BOUNDS:
        return f"{where} must be {_BOUNDS[kind]} {rule}, got {_show(value)}", None
    if kind in _SIZES:
        nouns = ("item", "items") if "Items" in kind else ("entry", "entries")
        return f"{where} must have {_SIZES[kind]} {rule} {nouns[rule != 1]}", None
    if kind == "minLength" and rule == 1:
        return f"{where} must not be empty", None
    if kind == "pattern":
        return f"{where} must match the pattern {rule}, got {_show(value)}", schema.get("description")
    if kind == "uniqueItems":
        return f"{where} must not repeat an item", None
    return f"{where}: {error.message}", None


def _describe(path: tuple[str | int, ...]) -> str:
    """How a message names the value at `path`: its key, with list indexes (`'items[3]'`)."""
    if not path:
        return "the rules file"
    last_key = max((i for i, p in enumerate(path) if isinstance(p, str)), default=-1)
    name = path[last_key] if last_key >= 0 else ""
    return f"'{name}{''.join(f'[{i}]' for i in path[last_key + 1 :])}'"


def _show(value: Any) -> str:
    """A value as a rules author wrote it: scalars quoted or bare, containers by kind."""
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing"
    if isinstance(value, str):
        return repr(value)
    return str(value)
