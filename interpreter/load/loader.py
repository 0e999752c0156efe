"""Load a rules file from YAML into a Document (interpreter/load/document.py): plain data plus the
position of every value, built from ruamel.yaml's round-trip line/column data; follow
`extends` and merge onto the parent.
"""

from __future__ import annotations

import datetime
import os
from typing import Any, cast

from ruamel.yaml import YAML
from ruamel.yaml.comments import TaggedScalar, merge_attrib
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from ruamel.yaml.scalarbool import ScalarBoolean

from ..base.errors import Problem, RulesError, Span
from ..base.limits import MAX_EXTENDS, MAX_FILE_BYTES, MAX_PATH_BYTES
from ..base.reading import FileRefused, not_a_file, read_text
from .document import Document, Pos, PosNode, Source
from .document_cache import cached_document
from .shipped import shipped_names, shipped_path
from .yaml_guard import EventReplay, check_yaml

__all__ = ["Document", "load_document", "load_rules_text"]


def load_document(path: str | os.PathLike[str]) -> Document:
    """Load a rules file, following `extends`; raise RulesError pointing at what is wrong."""
    return _load_file(os.fspath(path), ())


def load_rules_text(text: str, name: str = "<string>") -> Document:
    """Load rules from a string (for tests); `extends` is relative to the current directory."""
    return _load(text, name, ())


def _load_file(path: str, chain: tuple[str, ...], where: Span | None = None) -> Document:
    """Read and load one rules file (`where`: the `extends` line that names it, if one does)."""
    try:
        text = read_text(path, MAX_FILE_BYTES, encoding="utf-8-sig")
    except FileRefused as error:
        raise RulesError([Problem(f"cannot read rules file '{path}': {error.problem}", where)]) from None
    return _load(text, path, chain)


def _load(text: str, name: str, chain: tuple[str, ...]) -> Document:
    """Parse `text` (named `name`); `chain` holds the paths of the files extending it."""
    src = Source(name, [line.rstrip("\r") for line in text.split("\n")])
    checked = check_yaml(text, src)
    if checked.problems:
        raise RulesError(checked.problems)
    yaml = YAML(typ="rt")
    try:
        node = _compose(yaml, text, checked.events)     # composed once: checked for duplicates, then built
        if node is None:                  # nothing but blanks and comments
            raise RulesError([Problem("empty rules file", src.span((0, 0)))])
        problems = _duplicate_keys(node, src, set())
        if problems:
            raise RulesError(problems)
        tree = yaml.constructor.construct_document(node)
    except MarkedYAMLError as error:
        raise RulesError([_syntax_problem(error, src)]) from None
    except (YAMLError, ValueError, TypeError, RecursionError) as error:   # checked before: a last guard
        raise RulesError([Problem(f"{name}: YAML error: {error}")]) from None
    data, root = _convert(tree, src, _position(tree), None)
    doc = Document(name, text, data, None, (), root)
    if isinstance(data, dict) and "extends" in data:
        doc = _extend(doc, chain)
    return doc


def _compose(yaml: YAML, text: str, events: list[Any] | None) -> Any:
    """The text's node tree: from the events the guard read, or where there are none, from the
    text parsed again."""
    if events is None:
        return yaml.compose(text)
    yaml._parser = EventReplay(events)    # type: ignore[attr-defined]  # what yaml.parser gives the composer
    return yaml.composer.get_single_node()


def _syntax_problem(error: MarkedYAMLError, src: Source) -> Problem:
    """A YAML parser error as a Problem at the parser's position, with its context as a hint."""
    mark = error.problem_mark or error.context_mark
    message = error.problem or error.context or "invalid YAML"
    hint = None
    if error.context and error.context_mark is not None and error.problem:
        hint = f"{error.context} started at line {error.context_mark.line + 1}"
    span = src.span((mark.line, mark.column)) if mark is not None else None
    return Problem(f"YAML syntax error: {message}", span, hint)


def _duplicate_keys(node: Node | None, src: Source, seen_nodes: set[int]) -> list[Problem]:
    """Every repeated key in every mapping (ruamel.yaml itself would only report the first)."""
    if node is None or id(node) in seen_nodes:
        return []
    seen_nodes.add(id(node))
    problems: list[Problem] = []
    if isinstance(node, MappingNode):
        first: dict[tuple[str | None, Any], int] = {}
        for key, value in node.value:
            if isinstance(key, ScalarNode) and key.tag != "tag:yaml.org,2002:merge":
                ident = (key.tag, key.value)
                if ident in first:
                    where = src.span((key.start_mark.line, key.start_mark.column))
                    message = f"duplicate key '{key.value}' (first defined on line {first[ident] + 1})"
                    problems.append(Problem(message, where))
                else:
                    first[ident] = key.start_mark.line
            problems += _duplicate_keys(value, src, seen_nodes)
    elif isinstance(node, SequenceNode):
        for item in node.value:
            problems += _duplicate_keys(item, src, seen_nodes)
    return problems


def _key_and_value(obj: Any, key: Any, fallback: Pos) -> tuple[Pos, Pos]:
    """Where a mapping's key and value are written: in the mapping, or, for a key a YAML merge
    (`<<: *name`) pulled in, in the block it was merged from (an error in it points there)."""
    where = obj.lc
    if key in (where.data or ()):
        return where.key(key), where.value(key)
    for source in getattr(obj, merge_attrib, ()):
        if key in source:
            return _key_and_value(source, key, fallback)
    return fallback, fallback


def _position(obj: Any) -> Pos:
    lc = getattr(obj, "lc", None)
    return (lc.line, lc.col) if lc is not None and lc.line is not None else (0, 0)


def _convert(obj: Any, src: Source, value: Pos, key: Pos | None) -> tuple[Any, PosNode]:
    """The plain-builtin copy of a ruamel tree, and the matching position tree."""
    children: dict[str | int, PosNode] = {}
    if isinstance(obj, dict):
        data: Any = {}
        where = cast(Any, obj).lc               # ruamel's line and column of each key and value
        for k, v in obj.items():
            kpos, vpos = _key_and_value(obj, k, value)
            name = _plain_scalar(k)
            data[name], children[name] = _convert(v, src, vpos, kpos)
    elif isinstance(obj, list):
        data = []
        where = cast(Any, obj).lc
        for i, item in enumerate(obj):
            pos = where.item(i) if i in where.data else value
            plain, children[i] = _convert(item, src, pos, None)
            data.append(plain)
    else:
        data = _plain_scalar(obj)
    return data, PosNode(src, value, key, children)


def _plain_scalar(obj: Any) -> Any:
    """ruamel's scalar subclasses (ScalarInt, LiteralScalarString, ...) as plain builtins."""
    if isinstance(obj, TaggedScalar):
        return str(obj.value)
    if obj is None or type(obj) in (str, int, float, bool):
        return obj
    if isinstance(obj, ScalarBoolean):  # an int subclass: test it before int
        return bool(obj)
    for kind in (str, int, float):
        if isinstance(obj, kind):
            return kind(obj)
    if isinstance(obj, (datetime.date, datetime.datetime)):
        return obj.isoformat()
    return str(obj)


def _extend(doc: Document, chain: tuple[str, ...]) -> Document:
    """Merge `doc` onto the file named by its `extends` key (which is dropped from the data).

    `chain` holds the paths of the files that extend `doc`, to catch cycles.
    """
    data, root = dict(doc.data), doc._root
    target = data.pop("extends")
    where = doc.span(("extends",))
    root = PosNode(root.src, root.value, root.key, {k: v for k, v in root.children.items() if k != "extends"})
    if not isinstance(target, str) or not target:
        raise RulesError([Problem("'extends' must be the file name of the rules to extend", where)])
    if "\0" in target or len(target.encode("utf-8", "surrogatepass")) > MAX_PATH_BYTES:
        raise RulesError([Problem("'extends' must be the file name of the rules to extend", where,
                                  f"a name holds no NUL character and at most {MAX_PATH_BYTES:,} bytes")])
    parent_path = os.path.join(os.path.dirname(doc.path), target)
    chain += (doc.path,)
    if len(chain) >= MAX_EXTENDS:
        raise RulesError([Problem(f"'extends' chains more than {MAX_EXTENDS} files", where)])
    if any(os.path.realpath(p) == os.path.realpath(parent_path) for p in chain):
        raise RulesError([Problem(f"'extends' makes a cycle: {' -> '.join(chain + (parent_path,))}", where)])
    parent_path = _parent_file(parent_path, target, where)
    parent = _kept_parent(parent_path, chain) or _load_file(parent_path, chain, where)
    # a parent's worked examples are its own: checked on the parent, never inherited
    inherited = {k: v for k, v in parent.data.items() if k != "examples"}
    inherited_root = PosNode(parent._root.src, parent._root.value, parent._root.key,
                             {k: v for k, v in parent._root.children.items() if k != "examples"})
    merged, merged_root = _merge(inherited, inherited_root, data, root)
    return Document(doc.path, doc.text, merged, parent_path, (parent_path,) + parent.parents, merged_root)


def _kept_parent(path: str, chain: tuple[str, ...]) -> Document | None:
    """The parent as the rules cache holds it (document_cache.py: a file loaded before, as it
    is now), where loading it here could meet neither a cycle nor too long a chain of
    `extends`; else None, and it is parsed as ever, which finds any such error."""
    doc = cached_document(path)
    if doc is None or len(chain) + len(doc.parents) + 1 >= MAX_EXTENDS:
        return None
    extending = {os.path.realpath(p) for p in chain}
    return None if any(os.path.realpath(p) in extending for p in (path, *doc.parents)) else doc


def _parent_file(path: str, target: str, where: Span) -> str:
    """The file `extends: target` names: `path` (beside the file that extends it), else the
    shipped rules file of that name. A name that is there but is no file (a directory, a FIFO,
    a device) is refused as what it is, not as missing."""
    if not _is_file(path):
        path = shipped_path(target) or path         # a bare name: a rules file shipped with amunre
    if _is_file(path):
        return path
    kind = not_a_file(path)
    if kind is not None:
        raise RulesError([Problem(f"'extends' names {kind}, not a rules file: {path}", where)])
    hint = f"a path relative to this file, or a shipped rules file: {', '.join(shipped_names())}"
    raise RulesError([Problem(f"'extends' names a file that does not exist: {path}", where, hint)])


def _is_file(path: str) -> bool:
    try:
        return os.path.isfile(path)
    except (OSError, ValueError):
        return False


def _merge(base: Any, base_node: PosNode, over: Any, over_node: PosNode) -> tuple[Any, PosNode]:
    """Deep merge: mappings merge key by key; lists of items with ids (places, tiles, scoring
    rules) are patched by id; anything else in `over` replaces `base`. A key set to nothing
    (`key: null`, `key: ~`) in `over` removes the parent's key (a rules file holds no nulls of
    its own, so the two cannot be confused)."""
    if by_id(base) and by_id(over):
        return _merge_by_id(base, base_node, over, over_node)
    if not (isinstance(base, dict) and isinstance(over, dict)):
        return over, over_node
    data, children = dict(base), dict(base_node.children)
    for key, value in over.items():
        if value is None and key in base:
            del data[key], children[key]
        elif key in base:
            data[key], children[key] = _merge(base[key], base_node.children[key], value, over_node.children[key])
        else:
            data[key], children[key] = value, over_node.children[key]
    return data, PosNode(over_node.src, over_node.value, over_node.key, children)


def by_id(items: Any) -> bool:
    """A list whose items are mappings with distinct ids (so an item can be named by its id)."""
    if not isinstance(items, list) or not items or not all(isinstance(i, dict) and "id" in i for i in items):
        return False
    ids = [item["id"] for item in items]
    return all(isinstance(i, str) for i in ids) and len(set(ids)) == len(ids)


def _merge_by_id(base: list[Any], base_node: PosNode, over: list[Any],
                 over_node: PosNode) -> tuple[Any, PosNode]:
    """The parent's items, each patched by the item of `over` with its id (`remove: true`
    takes it out); items with new ids come after them, in `over`'s order."""
    items = [(item, base_node.children[i]) for i, item in enumerate(base)]
    where = {item["id"]: i for i, item in enumerate(base)}
    gone = set()
    for j, item in enumerate(over):
        node = over_node.children[j]
        at = where.get(item["id"])
        if item.get("remove") is True and set(item) == {"id", "remove"}:
            if at is None:
                raise RulesError([Problem(f"there is no item '{item['id']}' to remove here", node.src.span(node.value),
                                          f"the items are: {', '.join(where)}")])
            gone.add(at)
        elif at is None:
            items.append((item, node))
        else:
            patch = {k: v for k, v in item.items() if k != "id"}
            patch_node = PosNode(node.src, node.value, node.key, {k: c for k, c in node.children.items() if k != "id"})
            items[at] = _merge(items[at][0], items[at][1], patch, patch_node)
    kept = [pair for i, pair in enumerate(items) if i not in gone]
    return ([item for item, _ in kept],
            PosNode(over_node.src, over_node.value, over_node.key, {i: node for i, (_, node) in enumerate(kept)}))


