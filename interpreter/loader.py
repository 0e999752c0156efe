"""Load a rules file as plain data that still knows where every value came from.

The rest of the interpreter works on plain dicts and lists, but every error
must point at the file. So loading keeps, next to the plain tree, a parallel
tree of positions (`_Node`), built from ruamel.yaml's round-trip line/column
data. `Document.scalar_span` goes one step further and maps a character inside
a string value back to the YAML text, so a DSL syntax error inside a quoted or
block scalar gets its caret on the exact character.
"""

from __future__ import annotations

import datetime
import os
import re
from dataclasses import dataclass, field
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import TaggedScalar
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from ruamel.yaml.scalarbool import ScalarBoolean

from .errors import Problem, RulesError, Span

Path = tuple[str | int, ...]
_Pos = tuple[int, int]  # 0-based (line, col), as ruamel.yaml reports them


@dataclass(frozen=True)
class _Source:
    """One YAML file's name (as shown to the user) and its lines."""

    path: str
    lines: list[str]

    def span(self, pos: _Pos) -> Span:
        line, col = pos
        text = self.lines[line] if line < len(self.lines) else ""
        return Span(self.path, line + 1, col + 1, text)


@dataclass(frozen=True)
class _Node:
    """Where one value of the plain tree is written: its value, its key, its children."""

    src: _Source
    value: _Pos
    key: _Pos | None
    children: dict[str | int, _Node]


@dataclass
class Document:
    """A loaded rules file: plain `data` plus the positions needed to report problems.

    `extends` is the path of the parent file this one was merged onto, if any.
    """

    path: str
    text: str
    data: Any
    extends: str | None = None
    _root: _Node = field(default=None, repr=False)  # type: ignore[assignment]

    def _node(self, path: Path) -> tuple[_Node, bool]:
        """The node at `path`, or its deepest existing ancestor; and whether it was found."""
        node = self._root
        for part in path:
            if part not in node.children:
                return node, False
            node = node.children[part]
        return node, True

    def span(self, path: Path, key: bool = False) -> Span:
        """Position of the value at `path` (of its key if `key`; of the deepest existing ancestor if absent)."""
        node, _ = self._node(tuple(path))
        return node.src.span(node.key if key and node.key is not None else node.value)

    def scalar_span(self, path: Path, offset: int) -> Span:
        """Position of character `offset` (0-based) of the string at `path`, in the YAML text.

        An offset at or past the end points just after the last character (where
        a parser reports "unexpected end of input"). If the value is not a
        string, or its text cannot be traced, the span of the whole value is returned.
        """
        node, found = self._node(tuple(path))
        value = _get(self.data, tuple(path)) if found else None
        if not isinstance(value, str):
            return node.src.span(node.value)
        positions = _scalar_positions(node.src.lines, node.value, value)
        if positions is None:
            return node.src.span(node.value)
        return node.src.span(positions[min(max(offset, 0), len(value))])


def load_document(path: str | os.PathLike[str]) -> Document:
    """Load a rules file, following `extends`; raise RulesError pointing at what is wrong."""
    return _load_file(os.fspath(path), ())


def load_rules_text(text: str, name: str = "<string>") -> Document:
    """Load rules from a string (for tests); `extends` is relative to the current directory."""
    return _load(text, name, ())


def _load_file(path: str, chain: tuple[str, ...]) -> Document:
    try:
        with open(path, encoding="utf-8-sig") as handle:
            text = handle.read()
    except OSError as error:
        raise RulesError([Problem(f"cannot read rules file '{path}': {error.strerror or error}")]) from None
    except UnicodeDecodeError as error:
        raise RulesError([Problem(f"rules file '{path}' is not UTF-8 text: {error.reason}")]) from None
    return _load(text, path, chain)


def _load(text: str, name: str, chain: tuple[str, ...]) -> Document:
    """Parse `text` (named `name`); `chain` holds the paths of the files extending it."""
    src = _Source(name, [line.rstrip("\r") for line in text.split("\n")])
    yaml = YAML(typ="rt")
    try:
        problems = _duplicate_keys(yaml.compose(text), src, set())
        if problems:
            raise RulesError(problems)
        tree = yaml.load(text)
    except MarkedYAMLError as error:
        raise RulesError([_syntax_problem(error, src)]) from None
    except YAMLError as error:
        raise RulesError([Problem(f"{name}: YAML error: {error}")]) from None
    data, root = _convert(tree, src, _position(tree), None)
    doc = Document(name, text, data, None, root)
    if isinstance(data, dict) and "extends" in data:
        doc = _extend(doc, chain)
    return doc


def _syntax_problem(error: MarkedYAMLError, src: _Source) -> Problem:
    """A YAML parser error as a Problem at the parser's position, with its context as a hint."""
    mark = error.problem_mark or error.context_mark
    message = error.problem or error.context or "invalid YAML"
    hint = None
    if error.context and error.context_mark is not None and error.problem:
        hint = f"{error.context} started at line {error.context_mark.line + 1}"
    span = src.span((mark.line, mark.column)) if mark is not None else None
    return Problem(f"YAML syntax error: {message}", span, hint)


def _duplicate_keys(node: Node | None, src: _Source, seen_nodes: set[int]) -> list[Problem]:
    """Every repeated key in every mapping (ruamel.yaml itself would only report the first)."""
    if node is None or id(node) in seen_nodes:
        return []
    seen_nodes.add(id(node))
    problems: list[Problem] = []
    if isinstance(node, MappingNode):
        first: dict[tuple[str, str], int] = {}
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


def _position(obj: Any) -> _Pos:
    lc = getattr(obj, "lc", None)
    return (lc.line, lc.col) if lc is not None and lc.line is not None else (0, 0)


def _convert(obj: Any, src: _Source, value: _Pos, key: _Pos | None) -> tuple[Any, _Node]:
    """The plain-builtin copy of a ruamel tree, and the matching position tree."""
    children: dict[str | int, _Node] = {}
    if isinstance(obj, dict):
        data: Any = {}
        for k, v in obj.items():
            # Keys pulled in by a YAML merge (`<<:`) have no position of their own.
            kpos, vpos = (obj.lc.key(k), obj.lc.value(k)) if k in obj.lc.data else (value, value)
            name = _plain_scalar(k)
            data[name], children[name] = _convert(v, src, vpos, kpos)
    elif isinstance(obj, list):
        data = []
        for i, item in enumerate(obj):
            pos = obj.lc.item(i) if i in obj.lc.data else value
            plain, children[i] = _convert(item, src, pos, None)
            data.append(plain)
    else:
        data = _plain_scalar(obj)
    return data, _Node(src, value, key, children)


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
    root = _Node(root.src, root.value, root.key, {k: v for k, v in root.children.items() if k != "extends"})
    if not isinstance(target, str) or not target:
        raise RulesError([Problem("'extends' must be the file name of the rules to extend", where)])
    parent_path = os.path.join(os.path.dirname(doc.path), target)
    chain += (doc.path,)
    if any(os.path.realpath(p) == os.path.realpath(parent_path) for p in chain):
        raise RulesError([Problem(f"'extends' makes a cycle: {' -> '.join(chain + (parent_path,))}", where)])
    if not os.path.isfile(parent_path):
        raise RulesError([Problem(f"'extends' names a file that does not exist: {parent_path}", where)])
    parent = _load_file(parent_path, chain)
    merged, merged_root = _merge(parent.data, parent._root, data, root)
    return Document(doc.path, doc.text, merged, parent_path, merged_root)


def _merge(base: Any, base_node: _Node, over: Any, over_node: _Node) -> tuple[Any, _Node]:
    """Deep merge: mappings merge key by key; anything else in `over` replaces `base`."""
    if not (isinstance(base, dict) and isinstance(over, dict)):
        return over, over_node
    data, children = dict(base), dict(base_node.children)
    for key, value in over.items():
        if key in base:
            data[key], children[key] = _merge(base[key], base_node.children[key], value, over_node.children[key])
        else:
            data[key], children[key] = value, over_node.children[key]
    return data, _Node(over_node.src, over_node.value, over_node.key, children)


def _get(data: Any, path: Path) -> Any:
    for part in path:
        data = data[part]
    return data


# --- mapping characters of a string value back to the YAML text -------------------------------

_ESCAPES = {
    "0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f",
    "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0",
    "L": "\u2028", "P": "\u2029",
}  # fmt: skip
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}
_PROPERTIES = re.compile(r"(?:[&!][^\s]*\s+)*")  # anchors and tags written before a scalar


def _scalar_positions(lines: list[str], start: _Pos, value: str) -> list[_Pos] | None:
    """The source position of each character of `value` and of its end, written at `start`; None if untraceable.

    The scalar is re-read in its own style (plain, quoted or block) while it
    is compared with the loaded value, so any disagreement gives None rather
    than a wrong position.
    """
    line, col = start
    col = _PROPERTIES.match(lines[line], col).end()
    style = lines[line][col : col + 1]
    if style not in ("|", ">"):
        quote = style if style in ("'", '"') else ""
        return _trace(lines, (line, col + len(quote)), value, quote, None)
    first = next((i for i in range(line + 1, len(lines)) if lines[i].strip()), None)
    if first is None or not value.strip():  # blank content: no line of it shows the indentation
        return None
    # Content indentation: the first non-blank line's, less the spaces that line has in the value.
    body = next((text for text in value.split("\n") if text.strip()), "")
    indent = _leading(lines[first]) - _leading(body)
    return _trace(lines, (line + 1, _line_start(lines[line + 1], indent)), value, "", indent)


def _leading(text: str) -> int:
    return len(text) - len(text.lstrip(" \t"))


def _line_start(text: str, indent: int | None) -> int:
    """Where content starts on a line: after all indentation (flow scalars) or after `indent` (block scalars)."""
    return _leading(text) if indent is None else min(indent, len(text))


def _trace(lines: list[str], start: _Pos, value: str, quote: str, indent: int | None) -> list[_Pos] | None:
    """Walk the source from `start`, matching it against `value` character by character.

    Within a line, each source character (or escape) yields value characters.
    At a line break, the value holds either one space (a folded break) or a
    run of newlines (kept breaks and empty lines), all mapped to line ends.
    `indent` is None for flow scalars, whose lines are stripped, and the
    content indentation for block scalars, whose lines are kept whole.
    """
    positions: list[_Pos] = []
    line, col = start
    while len(positions) < len(value):
        if line >= len(lines):
            return None
        text, done = lines[line], len(positions)
        if quote == '"' and text[col:] == "\\":  # escaped line break: joins lines, yields nothing
            line += 1
            col = _line_start(lines[line], indent) if line < len(lines) else 0
            continue
        if col < (len(text.rstrip(" \t")) if indent is None else len(text)):
            produced, width = _unit(text, col, quote)
            if not value.startswith(produced, done):
                return None
            positions += [(line, col)] * len(produced)
            col += width
            continue
        empties = 0
        while line + 1 + empties < len(lines) and _is_empty(lines[line + 1 + empties], indent):
            empties += 1
        newlines = min(len(value) - done - len(value[done:].lstrip("\n")), empties + 1)
        if newlines:
            positions += [(line + i, len(lines[line + i])) for i in range(newlines)]
        elif value[done] == " " and not empties:
            positions.append((line, col))
        else:
            return None
        line += empties + 1
        col = _line_start(lines[line], indent) if line < len(lines) else 0
    # One more position, for "the end of the value": after its last character, or on its final line break.
    return positions + [positions[-1] if value.endswith("\n") else (line, col)]


def _is_empty(text: str, indent: int | None) -> bool:
    """Whether a line is empty in a scalar (in a block scalar, spaces past the indentation are content)."""
    return not text.strip() and (indent is None or len(text) <= indent)


def _unit(text: str, col: int, quote: str) -> tuple[str, int]:
    """The characters the source yields at `col` in a scalar of style `quote`, and how many it consumes."""
    if quote == "'" and text.startswith("''", col):
        return "'", 2
    if quote == '"' and text[col] == "\\" and col + 1 < len(text):
        code = text[col + 1]
        if code in _ESCAPES:
            return _ESCAPES[code], 2
        if code in _HEX_ESCAPES:
            digits = text[col + 2 : col + 2 + _HEX_ESCAPES[code]]
            try:
                return chr(int(digits, 16)), 2 + len(digits)
            except ValueError:
                return text[col], 1
    return text[col], 1
