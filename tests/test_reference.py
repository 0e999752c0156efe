"""The schema's phase definitions and docs/mechanics.md's tables are generated from the
mechanics' declarations; this test fails when either is out of date (regenerate them with
`python -m amunre.tools.reference_docs`)."""

from __future__ import annotations

import json
import re

from amunre.interpreter.load.schema import schema
from amunre.interpreter.mechanics import MECHANICS
from amunre.tools import reference_docs as reference


def test_generated_files_are_current() -> None:
    stale = [path.name for path, text in reference.expected_files().items() if path.read_text(encoding="utf-8") != text]
    assert not stale, f"out of date: {stale}; run python -m amunre.tools.reference_docs"


def test_every_mechanic_is_in_the_schema_and_the_docs() -> None:
    packaged = schema()
    assert set(packaged["$defs"]["phase"]["properties"]["mechanic"]["enum"]) == set(MECHANICS)
    text = reference.MECHANICS_DOC.read_text(encoding="utf-8")
    blocks = set(re.findall(r"<!-- generated: ([\w-]+) -->", text))
    assert blocks == set(MECHANICS) | {"phase-params"}


def test_a_declared_parameter_reaches_schema_and_docs() -> None:
    auction = reference.mechanic_schema(MECHANICS["auction"])
    assert auction["required"] == ["pay"]                       # lots and bid_spaces: placement's only
    assert auction["properties"]["lots"]["required"] == ["deck", "count"]
    assert auction["properties"]["bid_spaces"]["items"] == {"type": "integer", "minimum": 0}
    assert "order" in auction["properties"] and "skip_if" in auction["properties"]
    table = reference.params_table(MECHANICS["auction"].params)
    assert "| `lots.deck` | deck |" in table and "(required)" in table


def test_the_schema_file_is_stable_json() -> None:
    text = reference.SCHEMA.read_text(encoding="utf-8")
    assert reference.dump_json(json.loads(text)) + "\n" == text
