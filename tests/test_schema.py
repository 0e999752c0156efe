"""Schema violations become Problems that point at the file, and the packaged schema accepts the real rules."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from amunre.interpreter.base.errors import Problem, RulesError, Span, did_you_mean
from amunre.interpreter.load.loader import load_document, load_rules_text
from amunre.interpreter.load.schema import schema, validate_document

SMALL: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["title", "phases"],
    "additionalProperties": False,
    "properties": {
        "title": {"type": "string"},
        "players": {
            "type": "object",
            "required": ["min", "max"],
            "additionalProperties": False,
            "properties": {"min": {"type": "integer", "minimum": 2}, "max": {"type": "integer"}},
        },
        "places": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "id": {"type": "string"},
                    "fields": {"type": "integer"},
                    "side": {"enum": ["west", "east"]},
                },
            },
        },
        "phases": {"type": "object"},
        "goods": {
            "type": "object",
            "propertyNames": {"pattern": "^[a-z_]+$", "description": "names are lower-case"},
            "additionalProperties": {"oneOf": [{"required": ["draw"]}, {"required": ["token"]}]},
        },
    },
}


def check(text: str) -> list[Problem]:
    return validate_document(load_rules_text(text, "r.yaml"), SMALL)


def test_valid_document_has_no_problems() -> None:
    assert check("title: T\nphases: {}\nplayers: {min: 3, max: 5}\n") == []


def test_wrong_type_points_at_the_value() -> None:
    text = "title: T\nphases: {}\nplaces:\n  - id: thebes\n    fields: four\n"
    assert check(text) == [Problem("'fields' must be an integer, got 'four'",
                                   Span("r.yaml", 5, 13, "    fields: four"))]


def test_wrong_type_of_a_list_item_names_its_index() -> None:
    text = "title: T\nphases: {}\nplaces: [{id: a}, 7]\n"
    assert check(text) == [Problem("'places[1]' must be a mapping, got 7",
                                   Span("r.yaml", 3, 19, "places: [{id: a}, 7]"))]


def test_missing_keys_point_at_the_mapping_that_lacks_them() -> None:
    text = "title: T\nplayers:\n  min: 3\n"
    assert check(text) == [
        Problem("missing required key 'phases'", Span("r.yaml", 1, 1, "title: T")),
        Problem("missing required key 'max' in 'players'", Span("r.yaml", 2, 1, "players:")),
    ]


def test_unknown_key_points_at_the_key_with_a_suggestion() -> None:
    text = "title: T\nphases: {}\nplaces:\n  - {id: a, feilds: 2}\n"
    assert check(text) == [
        Problem("unknown key 'feilds'", Span("r.yaml", 4, 13, "  - {id: a, feilds: 2}"), "did you mean 'fields'?")
    ]


def test_enum_lists_the_choices_and_suggests_one() -> None:
    text = "title: T\nphases: {}\nplaces: [{side: wset}]\n"
    [problem] = check(text)
    assert problem.message == "'side' must be one of 'west', 'east', got 'wset'"
    assert problem.hint == "did you mean 'west'?"


def test_alternative_keys_are_named_together() -> None:
    text = "title: T\nphases: {}\ngoods:\n  favor: {draw: favor, token: x}\n  stone: {}\n"
    assert check(text) == [
        Problem("'favor' must have exactly one of the keys 'draw', 'token'",
                Span("r.yaml", 4, 3, "  favor: {draw: favor, token: x}")),
        Problem("'stone' must have exactly one of the keys 'draw', 'token'", Span("r.yaml", 5, 3, "  stone: {}")),
    ]


def test_invalid_key_name_points_at_the_key() -> None:
    text = "title: T\nphases: {}\ngoods:\n  Big-Stone: {token: s}\n"
    assert check(text) == [
        Problem("invalid name 'Big-Stone'", Span("r.yaml", 4, 3, "  Big-Stone: {token: s}"), "names are lower-case")
    ]


def test_problems_from_a_parent_file_come_after_the_files_own(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text("phases: {}\nplayers: {min: 0, max: 5}\n", encoding="utf-8")
    (tmp_path / "child.yaml").write_text("extends: base.yaml\ntitle: 7\n", encoding="utf-8")
    problems = validate_document(load_document(tmp_path / "child.yaml"), SMALL)
    assert [(p.message, p.span.file if p.span else None) for p in problems] == [
        ("'title' must be a string, got 7", str(tmp_path / "child.yaml")),
        ("'min' must be at least 2, got 0", str(tmp_path / "base.yaml")),
    ]


def test_several_problems_at_once_are_sorted_by_position() -> None:
    text = "zz: 1\nplayers: {min: 1, max: x}\ntitle: 3\n"
    problems = check(text)
    assert [(p.span.line, p.span.col) for p in problems if p.span] == [(1, 1), (1, 1), (2, 16), (2, 24), (3, 8)]
    assert [p.message for p in problems] == [
        "missing required key 'phases'",
        "unknown key 'zz'",
        "'min' must be at least 2, got 1",
        "'max' must be an integer, got 'x'",
        "'title' must be a string, got 3",
    ]


def test_formatted_output_has_position_source_line_and_caret() -> None:
    text = "title: T\nphases: {}\nplaces:\n  - id: thebes\n    feilds: 4\n    fields: four\n"
    error = RulesError(check(text))
    assert str(error) == (
        "r.yaml:5:5: unknown key 'feilds' (did you mean 'fields'?)\n"
        "        feilds: 4\n"
        "        ^\n"
        "\n"
        "r.yaml:6:13: 'fields' must be an integer, got 'four'\n"
        "        fields: four\n"
        "                ^\n"
        "\n"
        "2 problems found."
    )


def test_caret_keeps_tabs_so_it_lines_up() -> None:
    problem = Problem("bad", Span("f", 1, 3, "\tx y"))
    assert problem.format() == "f:1:3: bad\n    \tx y\n    \t ^"


def test_problem_without_span_is_just_the_message() -> None:
    assert Problem("no file", hint="try again").format() == "no file (try again)"
    assert RulesError([Problem("one")]).format() == "one\n\n1 problem found."


def test_did_you_mean() -> None:
    assert did_you_mean("thbes", ["abu", "thebes", "edfu"]) == "did you mean 'thebes'?"
    assert did_you_mean("zzz", ["abu", "thebes"]) is None
    assert did_you_mean("good", ["nobody", "stone"]) is None            # shares letters, another word
    assert did_you_mean("auctoin", ["auction"]) == "did you mean 'auction'?"   # two letters swapped
    assert did_you_mean("provinces.size", ["provinces.left"]) == "did you mean 'provinces.left'?"   # a member of it


def test_packaged_schema_is_a_valid_2020_12_schema() -> None:
    rules_schema = schema()
    assert rules_schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(rules_schema)


def test_packaged_schema_describes_every_property() -> None:
    missing: list[str] = []

    def walk(node: Any, where: str) -> None:
        if isinstance(node, list):
            for i, sub in enumerate(node):
                walk(sub, f"{where}/{i}")
        if not isinstance(node, dict):
            return
        for key, sub in node.items():
            if key in ("properties", "$defs"):
                for name, child in sub.items():
                    if key == "properties" and "description" not in child:
                        missing.append(f"{where}/{name}")
                    walk(child, f"{where}/{name}")
            elif key not in ("if", "enum", "const"):  # an `if` matches properties; it does not document them
                walk(sub, f"{where}/{key}")

    walk(schema(), "")
    assert missing == []


RULES = files("amunre.rules").joinpath("knizia2016.yaml")


@pytest.mark.skipif(not RULES.is_file(), reason="rules/knizia2016.yaml is not written yet")
def test_packaged_schema_accepts_the_2016_rules() -> None:
    doc = load_document(str(RULES))
    problems = validate_document(doc)
    assert problems == [], RulesError(problems).format()


def test_packaged_schema_rejects_a_typo_in_the_rules() -> None:
    text = "id: x\ntitle: X\nplayerz: {min: 3, max: 5}\n"
    problems = validate_document(load_rules_text(text, "r.yaml"))
    typo = Span("r.yaml", 3, 1, "playerz: {min: 3, max: 5}")
    assert Problem("unknown key 'playerz'", typo, "did you mean 'players'?") in problems


def test_a_file_that_extends_another_need_not_repeat_the_required_keys() -> None:
    # Editors validate each file alone: a variant holding only its changes must not be flagged.
    validator = Draft202012Validator(schema())
    assert list(validator.iter_errors({"extends": "knizia2016.yaml", "title": "Variant"})) == []
    assert list(validator.iter_errors({"title": "Variant"})) != []
