"""Loading rules files: YAML with positions, schema check, build; and finding the rules a saved
game was played with."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .build import build_rules
from .errors import AmunreError, RulesError
from .loader import load_document
from .model import Rules
from .schema import validate_document

_LOADED: dict[str, Rules] = {}


def load_rules(path: str | Path) -> Rules:
    """Load, check and compile a rules file; RulesError lists every problem found."""
    doc = load_document(path)
    problems = validate_document(doc)
    if problems:
        raise RulesError(problems)
    rules = build_rules(doc)
    _LOADED[str(Path(path).resolve())] = rules
    return rules


def rules_for_save(info: dict[str, Any], rules: Rules | None) -> Rules:
    """The rules a saved game names (loaded again unless given), checked against its digest."""
    if rules is None:
        path = str(Path(info["path"]).resolve())
        rules = _LOADED.get(path) or load_rules(info["path"])
    if rules.digest != info["digest"]:
        raise AmunreError(f"the rules file {info['path']} changed since this game was saved")
    return rules
