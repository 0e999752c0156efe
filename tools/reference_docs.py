"""The schema's phase definitions and the mechanics reference, generated from the mechanics'
declarations, so that neither can drift from the code.

    python -m amunre.tools.reference_docs          # rewrite the files
    python -m amunre.tools.reference_docs --check  # exit 1 if one is out of date

grammar/rules.schema.json is hand-written except `$defs.phase` and one `$defs.<mechanic>`
per mechanic; grammar/overlay.schema.json is generated from it whole (for files with
`extends`); docs/mechanics.md is hand-written except the blocks between
`<!-- generated: NAME -->` and `<!-- end generated -->`. A test runs the check.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from ..interpreter.mechanics import MECHANICS
from ..interpreter.mechanics.base import PHASE_PARAMS, Mechanic
from ..interpreter.mechanics.params import flatten, group_schema

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "grammar" / "rules.schema.json"
OVERLAY = ROOT / "grammar" / "overlay.schema.json"
MECHANICS_DOC = ROOT / "docs" / "mechanics.md"


def mechanic_schema(cls: type[Mechanic]) -> dict[str, Any]:
    extra = {"same_as": {"description": "The id this phase has in another edition (for amunre diff).",
                         "$ref": "#/$defs/name"},
             "mechanic": {"description": f"{cls.name}.", "const": cls.name},
             "doc": {"description": "Notes on this phase.", "type": "string"}}
    schema = group_schema(PHASE_PARAMS + cls.params, extra)
    return {"description": cls.doc, **schema}


def phase_schema() -> dict[str, Any]:
    return {
        "description": "One phase: `mechanic` names the building block, the other keys are its parameters.",
        "type": "object", "required": ["mechanic"],
        "properties": {"mechanic": {"description": "The building block this phase runs.", "enum": list(MECHANICS)}},
        "allOf": [{"if": {"properties": {"mechanic": {"const": name}}}, "then": {"$ref": f"#/$defs/{name}"}}
                  for name in MECHANICS]}


def schema_with_phases(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with its phase definitions generated anew (the rest kept as it is)."""
    defs = {k: v for k, v in schema["$defs"].items() if k != "phase" and k not in MECHANICS}
    defs["phase"] = phase_schema()
    for name, cls in MECHANICS.items():
        defs[name] = mechanic_schema(cls)
    return {**schema, "$defs": defs}


# ---- the overlay schema ----------------------------------------------------------------------------

_NOT_IN_AN_OVERLAY = ("required", "minItems", "minProperties")


def overlay_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema of a file that `extends` another: nothing is required (the parent has it),
    any value may be `~` (it removes the parent's), an item with an id may be `{id, remove:
    true}`; every key is still known, so an editor completes and checks them."""
    overlay = _relaxed(schema)
    overlay["title"] = "Amun-Re rules overlay (a rules file with extends)"
    overlay["description"] = ("A rules file that changes another (`extends`): mappings merge, items with an id "
                              "are patched by id, `~` removes a value. Generated from rules.schema.json.")
    return overlay


def _relaxed(node: Any) -> Any:
    if isinstance(node, list):
        return [_relaxed(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key in _NOT_IN_AN_OVERLAY:
            continue
        if key == "if":          # a condition on a key's value holds only where the key is written
            out[key] = {**value, "required": sorted(value.get("properties", {}))}
        elif key == "properties":
            out[key] = {name: _nullable(_relaxed(sub)) for name, sub in value.items()}
        elif key == "additionalProperties" and isinstance(value, dict):
            out[key] = _nullable(_relaxed(value))
        else:
            out[key] = _relaxed(value)
    if "oneOf" in out and all(branch == {} for branch in out["oneOf"]):
        del out["oneOf"]         # branches that only said what was required
    if "id" in out.get("properties", {}):
        out["properties"]["remove"] = {"description": "Take the item of this id out of the parent's list.",
                                       "const": True}
    return out


def _nullable(schema: Any) -> Any:
    return {"anyOf": [schema, {"type": "null", "description": "Removes the parent's value."}]}


# ---- docs/mechanics.md ------------------------------------------------------------------------

def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def params_table(params: tuple) -> str:
    rows = ["| parameter | kind | meaning |", "|---|---|---|"]
    for name, param in flatten(params):
        default = param.describe_default()
        meaning = param.doc + (f" ({default})" if default else "")
        rows.append(f"| `{name}` | {_cell(param.kind)} | {_cell(meaning)} |")
    return "\n".join(rows)


def mechanic_reference(cls: type[Mechanic]) -> str:
    parts = [cls.doc, "", params_table(cls.params)]
    if cls.actions:
        parts += ["", "Actions:", "", "| action | meaning |", "|---|---|"]
        parts += [f"| `{d.example}` | {_cell(d.meaning)} |" for d in cls.actions]
    if cls.events:
        parts += ["", "Events:", "", "| event | meaning |", "|---|---|"]
        parts += [f"| `{d.example}` | {_cell(d.meaning)} |" for d in cls.events]
    if cls.hidden:
        parts += ["", "Hidden from the other seats:", "", "| field | shown as | until |", "|---|---|---|"]
        parts += [f"| `{d.name}` | `{d.example}` | {_cell(d.meaning)} |" for d in cls.hidden]
    names = [(f"PHASE.{name}", f"query ({m.type})", m.doc) for name, m in cls.queries.items()]
    names += [(f"PHASE.{name}", f"modifier, {m.scope}, default {m.default}, lasts a {m.lasts}", m.doc)
              for name, m in cls.modifiers.items()]
    if names:
        parts += ["", "Added to the DSL (PHASE is the phase's id):", "", "| name | kind | meaning |", "|---|---|---|"]
        parts += [f"| `{n}` | {_cell(k)} | {_cell(d)} |" for n, k, d in names]
    return "\n".join(parts)


def generated_blocks() -> dict[str, str]:
    blocks = {"phase-params": params_table(PHASE_PARAMS)}
    for name, cls in MECHANICS.items():
        blocks[name] = mechanic_reference(cls)
    return blocks


_BLOCK = re.compile(r"(<!-- generated: (?P<name>[\w-]+) -->\n)(?P<body>.*?)(<!-- end generated -->)", re.S)


def docs_with_blocks(text: str) -> str:
    blocks = generated_blocks()

    def fill(match: re.Match[str]) -> str:
        name = match["name"]
        if name not in blocks:
            raise KeyError(f"docs/mechanics.md names an unknown generated block '{name}'")
        return f"{match.group(1)}{blocks[name]}\n{match.group(4)}"
    return _BLOCK.sub(fill, text)


# ---- JSON as the schema file writes it ------------------------------------------------------------

def dump_json(value: Any, indent: int = 0, width: int = 110) -> str:
    """JSON with two-space indentation, short containers kept on one line."""
    flat = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, (dict, list)) or len(flat) + indent <= width:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k, ensure_ascii=False)}: {dump_json(v, indent + 2, width)}"
                 for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + dump_json(v, indent + 2, width) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def expected_files() -> dict[Path, str]:
    schema = schema_with_phases(json.loads(SCHEMA.read_text(encoding="utf-8")))
    return {
        SCHEMA: dump_json(schema) + "\n",
        OVERLAY: dump_json(overlay_schema(schema)) + "\n",
        MECHANICS_DOC: docs_with_blocks(MECHANICS_DOC.read_text(encoding="utf-8")),
    }


def main(argv: list[str] | None = None) -> int:
    check = "--check" in (argv if argv is not None else sys.argv[1:])
    stale = []
    for path, text in expected_files().items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append(path)
            if not check:
                path.write_text(text, encoding="utf-8")
    for path in stale:
        print(f"{'out of date' if check else 'rewrote'}: {path.relative_to(ROOT)}")
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
