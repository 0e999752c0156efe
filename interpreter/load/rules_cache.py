"""Loading rules files, with a cache that spares the YAML parser and the schema check.

A rules file that loaded without a schema problem is stored, as its merged document with
every position, in the user's cache directory (interpreter/load/document_cache.py). The next
load of the same file reads that instead, and only builds (compiles) the rules.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..base.errors import AmunreError, Problem, RulesError
from ..model import Rules
from .build_rules import build_rules
from .document import Document
from .document_cache import cached_document, store_document
from .shipped import shipped_names, shipped_path

_LOADED: dict[str, Rules] = {}


def load_rules(path: str | Path) -> Rules:
    """Load, check and compile a rules file, given by its path or by the name of a rules file
    shipped with amunre (as `amunre run` and the adapters take it); RulesError lists every
    problem found."""
    return load_rules_and_document(rules_file(path))[0]


def rules_file(path: str | Path) -> str:
    """`path` if anything is there, else the shipped rules file of that name: RulesError naming
    the shipped ones if neither (a mistyped name is told what it could have been)."""
    path = os.fspath(path)
    if os.path.exists(path):           # (never raises: not for a name too long, nor a NUL)
        return path
    shipped = shipped_path(path)
    if shipped is None:
        raise RulesError([Problem(f"cannot read rules file '{path}': no such file, nor a rules file shipped "
                                  f"with amunre", hint=f"shipped: {', '.join(shipped_names())}")])
    return shipped


def load_rules_and_document(path: str | Path) -> tuple[Rules, Document]:
    """The rules and the merged document they were built from (with every value's position),
    for what reads both: the lint, `amunre fmt` and `amunre resolve`."""
    path = os.fspath(path)
    doc = cached_document(path)
    if doc is None:
        from .loader import load_document  # the YAML parser and the schema check are
        from .schema import validate_document  # needed only when the cache has no entry
        doc = load_document(path)
        problems = validate_document(doc)
        if problems:
            raise RulesError(problems)
        store_document(path, doc)
    rules = build_rules(doc)
    _LOADED[str(Path(path).resolve())] = rules
    return rules, doc


def rules_for_save(info: dict[str, Any], rules: Rules | None) -> Rules:
    """The rules a saved game names (loaded again unless given), checked against its digest."""
    if rules is None:
        path = str(Path(info["path"]).resolve())
        rules = _LOADED.get(path) or load_rules(info["path"])
    if rules.digest != info["digest"]:
        raise AmunreError(f"the rules file {info['path']} changed since this game was saved")
    return rules
