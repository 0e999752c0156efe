"""Loading rules files, with a cache that spares the YAML parser and the schema check.

A rules file that loaded without a schema problem is stored, as its merged document with
every position (interpreter/load/document.py), in the user's cache directory. The next load of
the same file reads that JSON instead, and only builds (compiles) the rules. An entry is
found by the file's path and text, and used only if every file it extends (parents,
grandparents...) still has the text it had, and the schema is the same: a changed parent
is a miss. A broken or unreadable entry is a miss too; caching never stops a load. A file that
extends a cached one takes its parent's document from here too (loader.py, `extends`).

The directory is `$AMUNRE_CACHE_DIR`, else `$XDG_CACHE_HOME/amunre`, else `~/.cache/amunre`;
`AMUNRE_NO_CACHE=1` turns the cache off.
"""

from __future__ import annotations

import hashlib
import json
import os
from importlib.resources import files
from pathlib import Path
from typing import Any

from ..base.cache_dir import cache_dir
from ..base.errors import AmunreError, Problem, RulesError
from ..base.limits import MAX_FILE_BYTES
from ..base.reading import FileRefused, read_text
from ..model import Rules
from .build_rules import build_rules
from .document import Document
from .shipped import shipped_names, shipped_path

CACHE_FORMAT = 3          # raise it whenever what loading checks or stores changes
CACHE_ENTRIES = 200       # entries kept; the oldest go first
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
        _store(path, doc)
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


def _digest(*parts: str) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()


def _schema_digest() -> str:
    return _digest(files("amunre.grammar").joinpath("rules.schema.json").read_text(encoding="utf-8"))


def _entry(path: str) -> tuple[Path, str] | None:
    """The cache file for a rules file, and the file's text (None: no cache, or unreadable)."""
    folder = cache_dir()
    if folder is None:
        return None
    text = _text(path)
    if text is None:
        return None                                 # the loader reports it
    key = _digest(str(CACHE_FORMAT), _schema_digest(), str(Path(path).resolve()), text)
    return folder / f"rules-{key[:32]}.json", text


def _text(path: str) -> str | None:
    """A rules file's text as the loader reads it (bounded, a regular file only); None if it
    cannot be read (the loader says why)."""
    try:
        return read_text(path, MAX_FILE_BYTES, encoding="utf-8-sig")
    except FileRefused:
        return None


def cached_document(path: str) -> Document | None:
    """The merged document the cache holds for this file as it is now (None: a miss), for a load
    and for the loader's `extends` (the file a house rule extends, parsed again, was a third of
    what loading the house rule cost)."""
    entry = _entry(path)
    if entry is None:
        return None
    try:
        data = json.loads(entry[0].read_text(encoding="utf-8"))
        for parent, digest in data["chain"]:
            parent_text = _text(parent)
            if parent_text is None or _digest(parent_text) != digest:
                return None                         # a file it extends has changed
        document = data["document"]
        for source in document["sources"]:          # the file as this load names it (the entry
            if source["path"] == document["path"]:  # may have been stored from another directory)
                source["path"] = path
        document["path"] = path
        doc = Document.from_json(document)
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None
    return doc if doc.text == entry[1] else None


def _store(path: str, doc: Document) -> None:
    entry = _entry(path)
    if entry is None:
        return
    texts = [_text(p) for p in doc.parents]
    if any(text is None for text in texts):
        return                                      # a file it extends changed under the load
    try:
        chain = [[str(Path(p).resolve()), _digest(text or "")] for p, text in zip(doc.parents, texts)]
        entry[0].parent.mkdir(parents=True, exist_ok=True)
        temporary = entry[0].with_suffix(f".{os.getpid()}.tmp")
        temporary.write_text(json.dumps({"chain": chain, "document": doc.to_json()}), encoding="utf-8")
        temporary.replace(entry[0])                 # whole or not at all, even with two writers
        _prune(entry[0].parent)
    except (OSError, ValueError):
        return


def _prune(folder: Path) -> None:
    entries = sorted(folder.glob("rules-*.json"), key=lambda p: p.stat().st_mtime)
    for old in entries[:-CACHE_ENTRIES]:
        old.unlink(missing_ok=True)

