"""A loaded rules file: plain data that still knows where every value came from.

The rest of the interpreter works on plain dicts and lists, but every error must point at
the file. So a `Document` keeps, next to the plain tree, a parallel tree of positions
(`PosNode`); `Document.scalar_span` goes one step further and maps a character inside a
string value back to the YAML text, so a DSL error inside a quoted or block scalar gets its
caret on the exact character. A Document is plain data, so the rules cache can store it as
JSON (`to_json` / `from_json`) and spare the YAML parser on the next load.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..base.errors import Span

Path = tuple[str | int, ...]
Pos = tuple[int, int]  # 0-based (line, col), as ruamel.yaml reports them

@dataclass(frozen=True)
class Source:
    """One YAML file's name (as shown to the user) and its lines."""

    path: str
    lines: list[str]

    def span(self, pos: Pos) -> Span:
        line, col = pos
        text = self.lines[line] if line < len(self.lines) else ""
        return Span(self.path, line + 1, col + 1, text)


@dataclass(frozen=True)
class PosNode:
    """Where one value of the plain tree is written: its value, its key, its children."""

    src: Source
    value: Pos
    key: Pos | None
    children: dict[str | int, PosNode]


@dataclass
class Document:
    """A loaded rules file: plain `data` plus the positions needed to report problems.

    `extends` is the path of the parent file this one was merged onto, if any.
    """

    path: str
    text: str
    data: Any
    extends: str | None = None
    parents: tuple[str, ...] = ()          # every file it extends: parent, grandparent, ...
    _root: PosNode = field(default=None, repr=False)  # type: ignore[assignment]

    @property
    def root(self) -> PosNode:
        """Where every value of the merged data is written: its file, line and column."""
        return self._root

    def node(self, path: Path) -> PosNode | None:
        """Where the value at `path` is written (None if there is no such value)."""
        node, found = self._node(tuple(path))
        return node if found else None

    def _node(self, path: Path) -> tuple[PosNode, bool]:
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

    def to_json(self) -> dict[str, Any]:
        """The document as plain JSON data, positions included (for the rules cache)."""
        sources: list[dict[str, Any]] = []
        index: dict[int, int] = {}

        def node(n: PosNode) -> list[Any]:
            if id(n.src) not in index:
                index[id(n.src)] = len(sources)
                sources.append({"path": n.src.path, "lines": n.src.lines})
            return [index[id(n.src)], list(n.value), None if n.key is None else list(n.key),
                    [[k, node(c)] for k, c in n.children.items()]]
        root = node(self._root)
        return {"path": self.path, "text": self.text, "data": self.data, "extends": self.extends,
                "parents": list(self.parents), "sources": sources, "root": root}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Document:
        sources = [Source(s["path"], list(s["lines"])) for s in data["sources"]]

        def node(n: list[Any]) -> PosNode:
            src, value, key, children = n
            return PosNode(sources[src], (value[0], value[1]), None if key is None else (key[0], key[1]),
                           {k: node(c) for k, c in children})
        return cls(data["path"], data["text"], data["data"], data["extends"], tuple(data["parents"]),
                   node(data["root"]))

    def scalar_span(self, path: Path, offset: int) -> Span:
        """Position of character `offset` (0-based) of the string at `path`, in the YAML text.

        An offset at or past the end points just after the last character (where
        a parser reports "unexpected end of input"). If the value is not a
        string, or its text cannot be traced, the span of the whole value is returned.
        """
        node, found = self._node(tuple(path))
        value = get(self.data, tuple(path)) if found else None
        if not isinstance(value, str):
            return node.src.span(node.value)
        positions = _scalar_positions(node.src.lines, node.value, value)
        if positions is None:
            return node.src.span(node.value)
        return node.src.span(positions[min(max(offset, 0), len(value))])


def get(data: Any, path: Path) -> Any:
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


def _scalar_positions(lines: list[str], start: Pos, value: str) -> list[Pos] | None:
    """The source position of each character of `value` and of its end, written at `start`; None if untraceable.

    The scalar is re-read in its own style (plain, quoted or block) while it
    is compared with the loaded value, so any disagreement gives None rather
    than a wrong position.
    """
    line, col = start
    props = _PROPERTIES.match(lines[line], col)       # it matches the empty text too, so always
    col = props.end() if props else col
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


def _trace(lines: list[str], start: Pos, value: str, quote: str, indent: int | None) -> list[Pos] | None:
    """Walk the source from `start`, matching it against `value` character by character.

    Within a line, each source character (or escape) yields value characters.
    At a line break, the value holds either one space (a folded break) or a
    run of newlines (kept breaks and empty lines), all mapped to line ends.
    `indent` is None for flow scalars, whose lines are stripped, and the
    content indentation for block scalars, whose lines are kept whole.
    """
    positions: list[Pos] = []
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
