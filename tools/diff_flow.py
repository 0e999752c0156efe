"""The order of play of two rules files compared as outlines, for `amunre diff`.

A flow is a tree: compared as data, a changed loop or a new branch shows up as one long value
that nobody can read. Here each phase of each file becomes one line naming where it runs,
from the top of the tree down (`age 2 times / round 3 times / repeat until market.bought == 0 /
market`), the older `structure:` written as the tree it stands for; the lines of the two files
are then matched in order, and what is only in one is a change. A file with no flow and no
structure has no lines.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

FLOW_KEYS = ("flow", "structure")
ORDER_OF_PLAY = "order of play"        # the heading its lines are listed under


def changed_lines(old: list[str], new: list[str]) -> list[tuple[str, str]]:
    """("removed" or "added", line): the lines of one outline that the other lacks, in order."""
    found = []
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in ("delete", "replace"):
            found += [("removed", line) for line in old[i1:i2]]
        if tag in ("insert", "replace"):
            found += [("added", line) for line in new[j1:j2]]
    return found


def outline(data: dict[str, Any], text: Callable[[str], str] = str) -> list[str]:
    """One line per phase of the file's order of play: the nodes above it, then its id; `text`
    writes a count or a condition (tools/diff.py gives its canonical DSL text, so that spacing
    is no change)."""
    if "flow" in data:
        spec = data["flow"]
    elif "structure" in data:
        spec = _structure(data["structure"])
    else:
        return []
    tree = _Outline(text)
    tree.node(spec, [])
    return tree.lines


@dataclass
class _Outline:
    text: Callable[[str], str]
    lines: list[str] = field(default_factory=list)

    def node(self, spec: Any, above: list[str]) -> None:
        if isinstance(spec, str):
            self.lines.append(" / ".join([*above, spec]))
        elif isinstance(spec, list):
            for item in spec:
                self.node(item, above)
        elif isinstance(spec, dict):
            self.control(spec, above)

    def control(self, spec: dict[str, Any], above: list[str]) -> None:
        """A sequence, repeat or branch: its label (with its name) over what it runs."""
        name, text = spec.get("name"), self.text
        if "sequence" in spec:
            self.node(spec["sequence"], [*above, name] if name else above)
        elif "repeat" in spec:
            how = f"{text(str(spec['times']))} times" if "times" in spec else f"until {text(str(spec.get('until')))}"
            if spec.get("check") == "before":
                how += " (checked before)"
            label = [*above, f"{name or 'repeat'} {how}"]
            self.node(spec["repeat"], label)
            if "between" in spec:
                self.node(spec["between"], [*label, "between passes"])
        elif "branch" in spec:
            label = [*above, f"branch on {text(str(spec['branch']))}" + (f" ({name})" if name else "")]
            for word, case in (spec.get("cases") or {}).items():
                self.node(case, [*label, f"case {word}"])
            if "else" in spec:
                self.node(spec["else"], [*label, "else"])


def _structure(structure: dict[str, Any]) -> dict[str, Any]:
    """`structure:` as the flow it is sugar for (interpreter/load/build_flow.py builds the same):
    a repeat named `age` around the age's start, a repeat named `round` and the age's end, with
    `between_ages` between two ages; then a sequence named `game_end`."""
    def phases(key: str) -> list[Any]:
        return [{"repeat": entry.get("phases", []), "times": entry.get("repeat", 1)} if isinstance(entry, dict)
                else entry for entry in structure.get(key, [])]
    body = [*phases("age_start"), {"name": "round", "times": structure.get("rounds", 1), "repeat": phases("round")},
            *phases("age_end")]
    age: dict[str, Any] = {"name": "age", "times": structure.get("ages", 1), "repeat": body}
    if structure.get("between_ages"):
        age["between"] = phases("between_ages")
    return {"sequence": [age, {"name": "game_end", "sequence": phases("game_end")}]}
