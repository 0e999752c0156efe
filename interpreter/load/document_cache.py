"""The rules cache on disk: a rules file's merged document, with every position
(interpreter/load/document.py), kept as JSON in the user's cache directory once it loaded
without a schema problem (interpreter/load/rules_cache.py stores it), so that the next load of
the same file, or of a file that extends it (loader.py, `extends`), skips the YAML parser and
the schema check. An entry is found by the file's path and text, and used only if every file
it extends (parents, grandparents...) still has the text it had, and the schema is the same: a
changed parent is a miss. A broken or unreadable entry is a miss too; caching never stops a load.

The directory is `$AMUNRE_CACHE_DIR`, else `$XDG_CACHE_HOME/amunre`, else `~/.cache/amunre`;
`AMUNRE_NO_CACHE=1` turns the cache off.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from importlib.resources import files
from pathlib import Path

from ..base.cache_dir import cache_dir
from ..base.limits import MAX_FILE_BYTES
from ..base.reading import FileRefused, read_text
from .document import Document

CACHE_FORMAT = 3          # raise it whenever what loading checks or stores changes
CACHE_ENTRIES = 200       # entries kept; the oldest go first


def _digest(*parts: str) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode("utf-8", "surrogatepass"))
        h.update(b"\0")
    return h.hexdigest()


@functools.cache
def _schema_digest() -> str:
    """The packaged schema's digest, read once a process: every lookup keys on it, and a load
    of a house rule looks up its parent too (94 KB read and hashed: 0.1 ms a lookup)."""
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
    """The merged document kept for this file as it is now (None: a miss), for a load and for
    the loader's `extends` (the file a house rule extends, parsed again, was a third of what
    loading the house rule cost)."""
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
        if [str(Path(p).resolve()) for p in document["parents"]] != [parent for parent, _ in data["chain"]]:
            return None                             # its parents named from another directory
        for source in document["sources"]:          # the file as this load names it (the entry
            if source["path"] == document["path"]:  # may have been stored from another directory)
                source["path"] = path
        document["path"] = path
        doc = Document.from_json(document)
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None
    return doc if doc.text == entry[1] else None


def store_document(path: str, doc: Document) -> None:
    """Keep the merged document of a rules file that loaded without a problem."""
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
