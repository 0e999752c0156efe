"""`amunre fmt`: a rules file rewritten in canonical form, with every comment kept.

The canonical form:
- keys in the schema's order (tools/fmt_key_order.py); names the file gives (cards,
  phases, a place's columns) in the order written;
- two spaces per level, a list's dashes two spaces in from its key, flow collections as
  `{key: value, key: value}`, a list of one-line rows lined up as a table
  (tools/fmt_layout.py); nothing is folded or wrapped;
- every DSL string as dsl/printer.py prints its tree, in the quoting it was written in (a
  block scalar `>-` or `|` keeps one statement per line);
- `~` for nothing, no trailing spaces, no runs of blank lines, one newline at the end.

Only a file that loads is formatted (its DSL strings are known only then). The result is
checked before it is returned: it must load to the same rules, value for value with the DSL
compared as canonical text, or `FormatError` says so and nothing is written.
"""

from __future__ import annotations

import copy
import difflib
import io
import os
from dataclasses import dataclass
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq, merge_attrib
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from ruamel.yaml.scalarstring import FoldedScalarString, LiteralScalarString

from ..interpreter.base.errors import AmunreError, RulesError
from ..interpreter.dsl.printer import to_text
from ..interpreter.load.build_rules import build_rules
from ..interpreter.load.document import Document
from ..interpreter.load.loader import load_rules_text
from ..interpreter.load.rules_cache import load_rules_and_document
from ..interpreter.load.schema import validate_document
from ..interpreter.model import Rules
from .fmt_key_order import KeyOrder
from .fmt_layout import Layout, finish, move_keys

MERGE = "tag:yaml.org,2002:merge"          # the tag of a merge key, `<<`


class FormatError(AmunreError):
    """Formatting would change what the file says: a bug of amunre's; nothing is written."""


@dataclass(frozen=True)
class Formatted:
    path: str
    before: str
    after: str

    @property
    def changed(self) -> bool:
        return self.before != self.after

    def diff(self) -> str:
        """What formatting changes, as a unified diff."""
        return "".join(difflib.unified_diff(self.before.splitlines(True), self.after.splitlines(True),
                                            self.path, f"{self.path} (formatted)"))


def format_file(path: str | os.PathLike[str]) -> Formatted:
    """The file and its canonical form; RulesError if it does not load, FormatError if the
    canonical form would not mean the same."""
    path = os.fspath(path)
    rules, doc = load_rules_and_document(path)
    before = doc.text.replace("\r\n", "\n")
    after = format_text(before, doc, rules)
    _check_meaning(doc, rules, after)
    return Formatted(path, doc.text, after)


def format_text(text: str, doc: Document, rules: Rules) -> str:
    """`text` (the file `doc` was loaded from) in canonical form."""
    mechanics = {pid: spec.get("mechanic") for pid, spec in doc.data.get("phases", {}).items()
                 if isinstance(spec, dict)}
    order, yaml = KeyOrder(), _yaml()
    layout = Layout.of(text, yaml)
    own = _own_dsl(layout.root, doc, rules)
    plans = [] if _has_anchors(layout.root, set()) else list(_plans(order, layout.root, order.schema, (), mechanics))
    if plans:
        layout = Layout.of(move_keys(layout, plans, layout.root), yaml)
    data = yaml.constructor.construct_document(layout.root)
    _keep_comments_at_anchors(layout.root, data, set())
    _rewrite(order, data, order.schema, (), mechanics, own)
    _lift_comments_after_anchors(data)
    out = io.StringIO()
    yaml.dump(data, out)
    return finish(layout, out.getvalue())


def _yaml() -> YAML:
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.width = 4096
    yaml.representer.add_representer(type(None), lambda rep, _: rep.represent_scalar("tag:yaml.org,2002:null", "~"))
    return yaml


# ---- keys -------------------------------------------------------------------------------------

def _mechanic(path: tuple, mechanics: dict[str, Any]) -> Any:
    return mechanics.get(path[1]) if len(path) == 2 and path[0] == "phases" else None


def _plans(order: KeyOrder, node: Node | None, sch: Any, path: tuple, mechanics: dict[str, Any]):
    """(block mapping, new order of its keys) for every mapping out of order, inner ones first."""
    if isinstance(node, MappingNode):
        sch = order.resolve(sch, _mechanic(path, mechanics))
        keys = [key.value for key, _ in node.value]
        for key, value in node.value:
            yield from _plans(order, value, order.child(sch, key.value), path + (key.value,), mechanics)
        if not node.flow_style and len(keys) > 1 and _movable(node):
            new = order.canonical(keys, sch)
            if new != keys:
                yield node, [keys.index(k) for k in new]
    elif isinstance(node, SequenceNode):
        for i, item in enumerate(node.value):
            yield from _plans(order, item, order.item(sch), path + (i,), mechanics)


def _movable(node: MappingNode) -> bool:
    """A block mapping whose keys are plain names, each at the start of its own line."""
    keys = [key for key, _ in node.value]
    lines = [key.start_mark.line for key in keys]
    return (all(isinstance(k, ScalarNode) and k.style is None and k.tag is not None and k.tag.endswith(":str")
                for k in keys)
            and len({k.start_mark.column for k in keys}) == 1 and lines == sorted(set(lines)))


def _keep_comments_at_anchors(node: Node | None, data: Any, seen: set[int]) -> None:
    """ruamel.yaml gives each alias of a value the comments that follow the anchored value (the
    next key's comment, say), which would print them twice: they stay at the anchor only."""
    if isinstance(node, MappingNode) and isinstance(data, CommentedMap):
        entries = [(key.value, value) for key, value in node.value]
    elif isinstance(node, SequenceNode) and isinstance(data, CommentedSeq):
        entries = list(enumerate(node.value))
    else:
        return
    for key, value in entries:
        if id(value) in seen:
            comments = data.ca.items.get(key)
            if comments is not None and len(comments) > 2:
                comments[2] = None
            continue
        seen.add(id(value))
        _keep_comments_at_anchors(value, data[key], seen)


def _lift_comments_after_anchors(data: Any) -> Any:
    """ruamel.yaml holds the comment lines after a block scalar at that scalar's key, and drops
    them when the scalar is anchored and named again by an alias. They are the lines before the
    next key (at this level or one above): they move there. Gives back what is left to place
    above (a comment after the last key of `data`), or None."""
    if not isinstance(data, CommentedMap):
        if isinstance(data, CommentedSeq):
            for item in data:
                _lift_comments_after_anchors(item)
        return None
    pending = None
    for key in list(data):
        if pending is not None:
            slots = data.ca.items.setdefault(key, [None, None, None, None])
            slots[1] = [pending, *(slots[1] or [])]
            pending = None
        value = data[key]
        comments = data.ca.items.get(key)
        anchor = getattr(value, "anchor", None)
        if (isinstance(value, (FoldedScalarString, LiteralScalarString)) and anchor is not None
                and anchor.value is not None and comments is not None and len(comments) > 2 and comments[2]):
            pending, comments[2] = comments[2], None
        else:
            pending = _lift_comments_after_anchors(value)
    return pending


def _has_anchors(node: Node | None, seen: set[int]) -> bool:
    """Whether the file uses anchors or aliases (then no key moves: an alias must follow its anchor)."""
    if node is None:
        return False
    if id(node) in seen or getattr(node, "anchor", None):
        return True
    seen.add(id(node))
    if isinstance(node, MappingNode):
        return any(_has_anchors(k, seen) or _has_anchors(v, seen) for k, v in node.value)
    if isinstance(node, SequenceNode):
        return any(_has_anchors(item, seen) for item in node.value)
    return False


# ---- flow mappings and DSL ---------------------------------------------------------------------

def _own_dsl(root: Node | None, doc: Document, rules: Rules) -> dict[tuple, Any]:
    """The DSL strings written in this file (not in a file it extends), by every path they
    stand at in it (a string said once under an anchor stands where each alias names it)."""
    where = _positions(root, (), {})
    own = {}
    for string in rules.dsl:
        node = doc.node(string.path)
        if node is not None and node.src is doc.root.src and node.value in where and string.tree is not None:
            for path in where[node.value]:
                own[path] = string
    return own


def _positions(node: Node | None, path: tuple, out: dict[tuple[int, int], list[tuple]]
               ) -> dict[tuple[int, int], list[tuple]]:
    """Every value's paths in the file, by the (line, column) it is written at (as the loader
    records them); a block merged in (`<<: *name`) is reached through its anchor only."""
    if isinstance(node, MappingNode):
        for key, value in node.value:
            if key.tag == MERGE:
                continue
            out.setdefault((value.start_mark.line, value.start_mark.column), []).append(path + (key.value,))
            _positions(value, path + (key.value,), out)
    elif isinstance(node, SequenceNode):
        for i, value in enumerate(node.value):
            out.setdefault((value.start_mark.line, value.start_mark.column), []).append(path + (i,))
            _positions(value, path + (i,), out)
    return out


def _rewrite(order: KeyOrder, data: Any, sch: Any, path: tuple, mechanics: dict[str, Any],
             own: dict[tuple, Any], done: dict[int, tuple[Any, Any]] | None = None) -> None:
    """Flow mappings' keys put in order; each DSL string of the file printed canonically, once
    for all its aliases (`done`: the canonical string of each string object met), so that a
    string said once stays said once. Keys a merge (`<<: *name`) pulls in are left to their
    anchor."""
    done = {} if done is None else done
    if isinstance(data, CommentedMap):
        sch = order.resolve(sch, _mechanic(path, mechanics))
        if data.fa.flow_style():
            for key in order.canonical(list(data), sch):
                data.move_to_end(key)
        for key in list(data):
            if getattr(data, merge_attrib, None) and key not in (data.lc.data or {}):
                continue                                # merged in: rewritten at its anchor
            if path + (key,) in own:
                data[key] = _said_once(data[key], own[path + (key,)], done)
            else:
                _rewrite(order, data[key], order.child(sch, key), path + (key,), mechanics, own, done)
    elif isinstance(data, CommentedSeq):
        for i, item in enumerate(data):
            if path + (i,) in own:
                data[i] = _said_once(item, own[path + (i,)], done)
            else:
                _rewrite(order, item, order.item(sch), path + (i,), mechanics, own, done)


def _said_once(value: Any, string: Any, done: dict[int, tuple[Any, Any]]) -> Any:
    """The canonical form of a DSL string, the same object for every alias of it, keeping its
    anchor and the comment a block scalar holds. `done` holds each original beside its
    canonical form: kept alive, its id is never another string's."""
    if id(value) not in done:
        found = _canonical(value, string)
        if getattr(value, "comment", None) is not None and found is not value:
            found.comment = value.comment               # the comment after a block scalar is held by it
        anchor = getattr(value, "anchor", None)
        if anchor is not None and anchor.value is not None and hasattr(found, "yaml_set_anchor"):
            found.yaml_set_anchor(anchor.value, always_dump=True)
        done[id(value)] = (value, found)
    return done[id(value)][1]


def _canonical(value: Any, string: Any) -> Any:
    """A DSL string as the printer writes it, in the style it was written in."""
    if not isinstance(value, str):
        return value
    if isinstance(value, (FoldedScalarString, LiteralScalarString)):
        statements = [to_text(s) for s in string.tree.body] if string.kind == "effect" else [to_text(string.tree)]
        end = "\n" if value.endswith("\n") else ""
        if isinstance(value, LiteralScalarString):
            return LiteralScalarString(";\n".join(statements) + end)
        folded = FoldedScalarString("; ".join(statements) + end)
        folded.fold_pos = [i + 1 for i, c in enumerate(folded) if c == ";" and folded[i + 1:i + 2] == " "]
        return folded
    text = to_text(string.tree)
    return type(value)(text) if type(value) is not str else text


# ---- the check ------------------------------------------------------------------------------------

def _check_meaning(doc: Document, rules: Rules, after: str) -> None:
    """The formatted text must load to the same rules as the file."""
    try:
        new_doc = load_rules_text(after, doc.path)
        problems = validate_document(new_doc)
        if problems:
            raise RulesError(problems)
        new_rules = build_rules(new_doc)
    except RulesError as error:
        raise FormatError(f"{doc.path}: amunre fmt would break this file ({error.problems[0].message}); "
                          "nothing was written (a bug of amunre's: please report it)") from None
    if _meaning(doc, rules) != _meaning(new_doc, new_rules):
        raise FormatError(f"{doc.path}: amunre fmt would change what this file says; nothing was "
                          "written (a bug of amunre's: please report it)")


def _meaning(doc: Document, rules: Rules) -> Any:
    """The merged data with every DSL string in canonical text."""
    data = copy.deepcopy(doc.data)
    for string in rules.dsl:
        if string.tree is not None:
            *parent, last = string.path
            holder = data
            for part in parent:
                holder = holder[part]
            holder[last] = to_text(string.tree)
    return data
