"""The loader keeps plain data and the position of everything in it, across scalar styles and `extends`."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML
from ruamel.yaml.scalarstring import (
    DoubleQuotedScalarString,
    FoldedScalarString,
    LiteralScalarString,
    SingleQuotedScalarString,
)

import amunre
from amunre.interpreter.base.errors import Problem, RulesError, Span
from amunre.interpreter.load.loader import Document, load_document, load_rules_text
from conftest import REPO

NESTED = """\
title: Amun-Re
players: {min: 3, max: 5}
places:
  items:
    - id: thebes
      fields: 4
    - id: abu
"""


def char_at(span: Span) -> str:
    """The source character a span points at ("" past the end of its line)."""
    return span.line_text[span.col - 1 : span.col]


def test_data_is_plain_builtins_in_file_order() -> None:
    doc = load_rules_text("b: 'x'\na: [1, 2.5, true, null]\nc: |\n  text\n", "r.yaml")
    assert doc.data == {"b": "x", "a": [1, 2.5, True, None], "c": "text\n"}
    assert list(doc.data) == ["b", "a", "c"]
    assert type(doc.data) is dict and type(doc.data["a"]) is list
    assert [type(v) for v in doc.data["a"]] == [int, float, bool, type(None)]
    assert type(doc.data["b"]) is str and type(doc.data["c"]) is str


def test_anchored_boolean_stays_a_boolean() -> None:
    doc = load_rules_text("a: &flag true\nb: *flag\n")
    assert doc.data == {"a": True, "b": True}
    assert type(doc.data["a"]) is bool


def test_spans_of_keys_values_and_items() -> None:
    doc = load_rules_text(NESTED, "r.yaml")
    assert doc.span(("title",)) == Span("r.yaml", 1, 8, "title: Amun-Re")
    assert doc.span(("title",), key=True) == Span("r.yaml", 1, 1, "title: Amun-Re")
    assert doc.span(("players", "max")) == Span("r.yaml", 2, 24, "players: {min: 3, max: 5}")
    assert doc.span(("players", "max"), key=True) == Span("r.yaml", 2, 19, "players: {min: 3, max: 5}")
    assert doc.span(("places", "items", 1)) == Span("r.yaml", 7, 7, "    - id: abu")
    assert doc.span(("places", "items", 0, "fields")) == Span("r.yaml", 6, 15, "      fields: 4")
    assert doc.span(()) == Span("r.yaml", 1, 1, "title: Amun-Re")


def test_missing_path_falls_back_to_deepest_existing_ancestor() -> None:
    doc = load_rules_text(NESTED, "r.yaml")
    assert doc.span(("places", "items", 1, "fields")) == doc.span(("places", "items", 1))
    assert doc.span(("places", "items", 1, "fields"), key=True) == Span("r.yaml", 7, 7, "    - id: abu")
    assert doc.span(("nope", "deeper")) == doc.span(())


# Each case: YAML text, the string value at key k, and the (line, col) expected for some offsets.
SCALAR_STYLES = {
    "plain": ("k: if gold > 3\n", "if gold > 3", {0: (1, 4), 8: (1, 12)}),
    "folded plain": ("k: one two\n  three\n\n  four\n", "one two three\nfour", {8: (2, 3), 15: (4, 4)}),
    "single quoted": ("k: 'it''s a ''x'''\n", "it's a 'x'", {2: (1, 7), 4: (1, 10), 8: (1, 15), 9: (1, 16)}),
    "double quoted": (
        'k: "a\\tb \\u00e9 \\"q\\" z"\n',
        'a\tb é "q" z',
        {1: (1, 6), 2: (1, 8), 4: (1, 10), 6: (1, 17), 7: (1, 19), 11: (1, 24)},
    ),
    "double quoted folded": ('k: "one\n  two \\\n  three"\n', "one two three", {3: (1, 8), 4: (2, 3), 8: (3, 3)}),
    "literal block": ("k: |\n  set x\n    add y\n", "set x\n  add y\n", {4: (2, 7), 8: (3, 5)}),
    "folded block": ("k: >-\n  choose a\n  from b\n\n  end\n", "choose a from b\nend", {9: (3, 3), 16: (5, 3)}),
    "explicit indent": ("k: |2\n    deep\n  base\n", "  deep\nbase\n", {2: (2, 5), 7: (3, 3)}),
    "anchor and tag": ("k: &a !!str value\n", "value", {0: (1, 13), 4: (1, 17)}),
    "nested in a list": ("x:\n  - first\n  - k: 'second'\n", "second", {0: (3, 9)}),
}


@pytest.mark.parametrize("name", SCALAR_STYLES)
def test_scalar_span_for_every_style(name: str) -> None:
    text, value, expected = SCALAR_STYLES[name]
    doc = load_rules_text(text, "s.yaml")
    nested = "x" in doc.data
    path: tuple[str | int, ...] = ("x", 1, "k") if nested else ("k",)
    assert (doc.data["x"][1] if nested else doc.data)["k"] == value
    for offset, (line, col) in expected.items():
        span = doc.scalar_span(path, offset)
        assert (span.line, span.col) == (line, col), f"offset {offset} of {value!r}"
    # Every character that is written literally lands on itself; folded breaks land on a line end.
    for offset, char in enumerate(value):
        span = doc.scalar_span(path, offset)
        if char_at(span) == "\\":
            continue  # an escape: the caret goes on its backslash
        assert char_at(span) == char or (char in " \n" and span.col == len(span.line_text) + 1), offset


DUMP_STYLES = [str, DoubleQuotedScalarString, SingleQuotedScalarString, LiteralScalarString, FoldedScalarString]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab (+'\"\\\n\té", min_size=1, max_size=80), st.sampled_from(DUMP_STYLES))
def test_scalar_span_of_whatever_ruamel_writes(value: str, style: type) -> None:
    """ruamel.yaml, told to write a value in a style (folding long lines at width 20), is the oracle."""
    yaml, out = YAML(), io.StringIO()
    yaml.width = 20
    yaml.dump({"a": [{"k": style(value), "n": 1}]}, out)
    doc = load_rules_text(out.getvalue(), "p.yaml")
    if doc.data["a"][0]["k"] != value:
        return  # some strings cannot be written in some styles (e.g. trailing spaces in a block)
    path: tuple[str | int, ...] = ("a", 0, "k")
    if not value.strip() and style in (LiteralScalarString, FoldedScalarString):
        # Blank block content has no line to measure its indentation on: the whole value is the answer.
        assert doc.scalar_span(path, 0) == doc.span(path)
        return
    for offset, char in enumerate(value):
        span = doc.scalar_span(path, offset)
        on = char_at(span)
        assert on == char or on == "\\" or (char in " \n" and on == ""), (out.getvalue(), value, offset)


def test_scalar_span_past_the_end_points_after_the_last_character() -> None:
    doc = load_rules_text('k: \'a + \'\nq: "say \\""\nb: |\n  x +\ne: ""\n', "s.yaml")
    assert doc.scalar_span(("k",), 4) == Span("s.yaml", 1, 9, "k: 'a + '")
    assert doc.scalar_span(("k",), 99) == Span("s.yaml", 1, 9, "k: 'a + '")
    assert doc.scalar_span(("q",), 4) == Span("s.yaml", 2, 9, 'q: "say \\""')
    assert doc.scalar_span(("q",), 5) == Span("s.yaml", 2, 11, 'q: "say \\""')
    assert doc.scalar_span(("b",), 4) == Span("s.yaml", 4, 6, "  x +")
    assert doc.scalar_span(("e",), 0) == Span("s.yaml", 5, 5, 'e: ""')


def test_scalar_span_of_an_alias_points_at_the_anchored_text() -> None:
    doc = load_rules_text("a: &x hello\nb: *x\n", "s.yaml")
    assert doc.scalar_span(("b",), 2) == Span("s.yaml", 1, 9, "a: &x hello")


def test_scalar_span_of_a_non_string_is_the_value_span() -> None:
    doc = load_rules_text("n: 12345\n", "s.yaml")
    assert doc.scalar_span(("n",), 3) == Span("s.yaml", 1, 4, "n: 12345")


def test_yaml_syntax_error_points_at_the_parser_position() -> None:
    with pytest.raises(RulesError) as caught:
        load_rules_text("a: 1\nb: [1, 2\nc: 3\n", "bad.yaml")
    [problem] = caught.value.problems
    assert problem.span == Span("bad.yaml", 3, 2, "c: 3")
    assert problem.message == "YAML syntax error: expected ',' or ']', but got ':'"
    assert problem.hint == "while parsing a flow sequence started at line 2"


def test_bad_indentation_is_a_syntax_error() -> None:
    with pytest.raises(RulesError) as caught:
        load_rules_text("a:\n  b: 1\n c: 2\n", "bad.yaml")
    [problem] = caught.value.problems
    assert problem.span is not None and (problem.span.line, problem.span.col) == (3, 2)


def test_every_duplicate_key_is_reported() -> None:
    text = "a: 1\nb:\n  x: 1\n  x: 2\na: 3\n"
    with pytest.raises(RulesError) as caught:
        load_rules_text(text, "dup.yaml")
    assert caught.value.problems == [
        Problem("duplicate key 'x' (first defined on line 3)", Span("dup.yaml", 4, 3, "  x: 2")),
        Problem("duplicate key 'a' (first defined on line 1)", Span("dup.yaml", 5, 1, "a: 3")),
    ]


def test_missing_file_is_a_rules_error(tmp_path: Path) -> None:
    missing = tmp_path / "nope.yaml"
    with pytest.raises(RulesError) as caught:
        load_document(missing)
    [problem] = caught.value.problems
    assert problem.span is None
    assert problem.message == f"cannot read rules file '{missing}': No such file or directory"


def test_load_rules_takes_a_shipped_name_or_a_path(tmp_path: Path) -> None:
    """A shipped rules file's name loads it, as `amunre run` and `env()` take it; a path still
    loads its file, before a shipped one of the same name; a name that is neither is an
    AmunreError naming the shipped ones."""
    by_name = amunre.load_rules("knizia2016")
    assert by_name.digest == amunre.load_rules(REPO / "rules" / "knizia2016.yaml").digest
    assert amunre.load_rules("house/no_theft").id == amunre.load_rules(REPO / "rules/house/no_theft.yaml").id
    parent = REPO / "rules" / "knizia2016.yaml"
    (tmp_path / "knizia2016").write_text(f"extends: {parent}\nresources: {{gold: {{start: 25}}}}\n", encoding="utf-8")
    assert amunre.load_rules(tmp_path / "knizia2016").resources["gold"] == 25
    with pytest.raises(amunre.AmunreError) as caught:
        amunre.load_rules("knizia2061")
    text = str(caught.value)
    assert "'knizia2061': no such file, nor a rules file shipped with amunre" in text
    assert all(name in text for name in ("knizia2003", "knizia2016-expert", "modern-art", "pharaohs-heir"))


def test_load_document_keeps_the_path_as_given(tmp_path: Path) -> None:
    (tmp_path / "r.yaml").write_text("a: 1\n", encoding="utf-8")
    doc = load_document(tmp_path / "r.yaml")
    assert isinstance(doc, Document)
    assert (doc.path, doc.text, doc.data, doc.extends) == (str(tmp_path / "r.yaml"), "a: 1\n", {"a": 1}, None)


BASE = """\
title: Base
players: {min: 3, max: 5}
phases:
  auction: {pay: gold, spaces: [0, 1, 3]}
  market: {price: "n"}
"""

VARIANT = """\
extends: base.yaml
title: Variant
phases:
  auction: {spaces: [0, 2]}
  extra: {x: 1}
"""


def write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")


def test_extends_deep_merges_onto_the_parent(tmp_path: Path) -> None:
    write(tmp_path, {"base.yaml": BASE, "variant.yaml": VARIANT})
    doc = load_document(tmp_path / "variant.yaml")
    assert doc.data == {
        "title": "Variant",
        "players": {"min": 3, "max": 5},
        "phases": {
            "auction": {"pay": "gold", "spaces": [0, 2]},
            "market": {"price": "n"},
            "extra": {"x": 1},
        },
    }
    assert doc.extends == str(tmp_path / "base.yaml")
    assert doc.path == str(tmp_path / "variant.yaml") and doc.text == VARIANT


def test_extends_removes_a_key_set_to_nothing(tmp_path: Path) -> None:
    write(tmp_path, {"base.yaml": BASE,
                     "variant.yaml": "extends: base.yaml\nphases:\n  market: ~\n  auction: {spaces: null}\n"})
    doc = load_document(tmp_path / "variant.yaml")
    assert doc.data["phases"] == {"auction": {"pay": "gold"}}
    assert doc.span(("phases", "auction", "pay")).file == str(tmp_path / "base.yaml")


def test_extends_spans_point_into_the_file_the_value_came_from(tmp_path: Path) -> None:
    write(tmp_path, {"base.yaml": BASE, "variant.yaml": VARIANT})
    doc = load_document(tmp_path / "variant.yaml")
    base, variant = str(tmp_path / "base.yaml"), str(tmp_path / "variant.yaml")
    assert doc.span(("players", "max")) == Span(base, 2, 24, "players: {min: 3, max: 5}")
    assert doc.span(("phases", "auction", "pay")) == Span(base, 4, 18, "  auction: {pay: gold, spaces: [0, 1, 3]}")
    assert doc.span(("phases", "auction", "spaces", 1)) == Span(variant, 4, 25, "  auction: {spaces: [0, 2]}")
    assert doc.span(("title",)) == Span(variant, 2, 8, "title: Variant")
    assert doc.scalar_span(("phases", "market", "price"), 0) == Span(base, 5, 20, '  market: {price: "n"}')
    assert doc.span(("extends",)) == doc.span(())  # the key is gone: falls back to the root


def test_extends_chain_over_three_files(tmp_path: Path) -> None:
    write(tmp_path, {"base.yaml": BASE, "variant.yaml": VARIANT,
                     "third.yaml": "extends: variant.yaml\nplayers: {max: 4}\n"})
    doc = load_document(tmp_path / "third.yaml")
    assert doc.data["players"] == {"min": 3, "max": 4}
    assert doc.data["title"] == "Variant"
    assert doc.span(("players", "min")).file == str(tmp_path / "base.yaml")


def test_extends_cycle_is_an_error(tmp_path: Path) -> None:
    write(tmp_path, {"a.yaml": "extends: b.yaml\nx: 1\n", "b.yaml": "extends: a.yaml\ny: 2\n"})
    with pytest.raises(RulesError) as caught:
        load_document(tmp_path / "a.yaml")
    [problem] = caught.value.problems
    a, b = str(tmp_path / "a.yaml"), str(tmp_path / "b.yaml")
    assert problem.message == f"'extends' makes a cycle: {a} -> {b} -> {a}"
    assert problem.span == Span(b, 1, 10, "extends: a.yaml")


def test_extends_of_a_missing_file_points_at_the_extends_line(tmp_path: Path) -> None:
    write(tmp_path, {"a.yaml": "x: 1\nextends: gone.yaml\n"})
    with pytest.raises(RulesError) as caught:
        load_document(tmp_path / "a.yaml")
    [problem] = caught.value.problems
    assert problem.message == f"'extends' names a file that does not exist: {tmp_path / 'gone.yaml'}"
    assert problem.span == Span(str(tmp_path / "a.yaml"), 2, 10, "extends: gone.yaml")


def test_problems_in_the_parent_point_into_the_parent(tmp_path: Path) -> None:
    write(tmp_path, {"base.yaml": "a: [1\n", "child.yaml": "extends: base.yaml\n"})
    with pytest.raises(RulesError) as caught:
        load_document(tmp_path / "child.yaml")
    [problem] = caught.value.problems
    assert problem.span is not None and problem.span.file == str(tmp_path / "base.yaml")


def test_a_block_merged_in_is_checked_where_it_is_written(tmp_path: Path) -> None:
    """`<<: *name` pulls a block said once into another mapping (issue 36, item 10): an error in
    it points at the block, once, not at each mapping that merges it."""
    path = tmp_path / "merged.yaml"
    path.write_text("extends: modern-art\nphases:\n  auction_painting: &sale\n"
                    "    on_win: \"claim it; remove 1 for_sal from it\"\n  auction_pair:\n    <<: *sale\n",
                    encoding="utf-8")
    with pytest.raises(RulesError) as caught:
        amunre.load_rules(path)
    assert [(p.span.line, p.span.col) for p in caught.value.problems if p.span] == [(4, 33)]
    assert "for_sale" in str(caught.value)
    good = tmp_path / "good.yaml"
    good.write_text(path.read_text(encoding="utf-8").replace("for_sal ", "for_sale "), encoding="utf-8")
    assert amunre.load_rules(good).phases["auction_pair"].on_win is not None
