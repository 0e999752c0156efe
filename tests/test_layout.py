"""The `layout:` section: how a board program draws the places. It is checked when the rules
load (errors point into the file), and it never changes the rules' digest.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from amunre.interpreter.base.errors import RulesError
from conftest import house, position


@pytest.mark.parametrize("body, inner, words", [
    ("layout:\n  columns: {by: sides}\n", "sides", "did you mean 'side'?"),
    ("layout:\n  columns: {by: fields}\n", "fields", "not a place property with values"),
    ("layout:\n  rows: {by: region, order: [upper, middle]}\n", "middle", "not a value of 'region'"),
    ("layout:\n  columns: {by: side}\n  rows: {by: side}\n", "side}\n", "both split by 'side'"),
    ("layout:\n  columns: {by: owner, order: [west]}\n", "[west]", "an order is for a property's values"),
    ("layout:\n  symbols: {feilds: F}\n", "feilds", "did you mean 'fields'?"),
    ("layout:\n  symbols: {owner: O}\n", "owner", "not a place property or place modifier"),
])
def test_a_wrong_layout_is_an_error_pointing_into_the_file(tmp_path: Path, body: str, inner: str, words: str) -> None:
    with pytest.raises(RulesError) as caught:
        house(tmp_path, body)
    text = (tmp_path / "house.yaml").read_text()
    line, col = position(text, body.splitlines()[-1] if inner == "side}\n" else body, inner.strip())
    problem = caught.value.problems[0]
    assert words in problem.message + (problem.hint or "")
    assert f"house.yaml:{line}:{col}" in caught.value.format()


def test_the_schema_refuses_unknown_layout_keys(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match="shape"):
        house(tmp_path, "layout:\n  shape: hexagons\n")


def test_a_layout_never_changes_the_digest(tmp_path: Path) -> None:
    plain = house(tmp_path, "id: mine\n")
    drawn = house(tmp_path, "id: mine\nlayout:\n  title: Other\n  columns: {order: [east, west]}\n  rows:\n"
                            "  show: occupied\n")            # merged into the parent's layout, rows taken away
    assert drawn.layout.columns is not None and drawn.layout.columns.order == ("east", "west")
    assert drawn.layout.rows is None and drawn.layout.show == "occupied"
    assert plain.digest == drawn.digest
    changed = house(tmp_path, "id: mine\nplayers: {min: 3, max: 4}\n")
    assert changed.digest != plain.digest                   # a change that plays differently does


def test_order_names_first_then_the_rest_as_declared(tmp_path: Path) -> None:
    made = house(tmp_path, "layout:\n  columns: {by: side, order: [east]}\n")
    assert made.layout.columns is not None and made.layout.columns.order == ("east", "west")


def test_symbols_keep_their_order_and_what_they_mean(tmp_path: Path) -> None:
    """A house rule's symbols replace a property's symbol in place and add new ones after; each
    symbol carries its property's (or place modifier's) doc for the page's tooltip."""
    made = house(tmp_path, "layout:\n  symbols: {fields: F, harvest_bonus: B, region: R}\n")
    symbols = {symbol.name: symbol for symbol in made.layout.symbols}
    assert symbols["fields"].symbol == "F" and symbols["fields"].doc.startswith("field spaces")
    assert symbols["harvest_bonus"].doc.startswith("extra gold per farmer")
    names = [symbol.name for symbol in made.layout.symbols]
    assert names.index("nile") < names.index("fields") < names.index("temples") < names.index("region")
