"""The text side of `amunre fmt`: moving the keys of block mappings with their comments, lining
up tables of one-line rows, and tidying blank lines.

ruamel.yaml keeps every comment on a round trip, but ties a comment to the value before it,
so reordering its mappings would move each comment one key up. Keys are moved here instead, as
runs of lines: a key's run starts with the comments (and blank lines) above it, down to the
end of its value; comments indented deeper than the key stay with the value above them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode


@dataclass
class Layout:
    """A text composed by ruamel.yaml: its node tree (with positions), and which of its lines
    hold values and which are inside block scalars (left exactly as they are)."""
    lines: list[str]
    root: Node | None
    content: set[int]
    literal: set[int]

    @classmethod
    def of(cls, text: str, yaml: YAML | None = None) -> Layout:
        root = (yaml or YAML(typ="rt")).compose(text)
        layout = cls(text.split("\n"), root, set(), set())
        if root is not None:
            layout._mark(root)
        return layout

    def _mark(self, node: Node) -> None:
        start, end = node.start_mark.line, _last_line(node)
        if isinstance(node, ScalarNode) or getattr(node, "flow_style", False):
            self.content.update(range(start, end + 1))
            if isinstance(node, ScalarNode) and node.style in ("|", ">"):
                self.literal.update(range(start + 1, end + 1))
            return
        pairs = node.value if isinstance(node, MappingNode) else [(None, item) for item in node.value]
        for key, value in pairs:
            if key is not None:
                self.content.add(key.start_mark.line)
            self._mark(value)

    def comment(self, line: int) -> int | None:
        """The indentation of a comment-only line (None if the line is not one)."""
        text = self.lines[line]
        stripped = text.lstrip(" ")
        return len(text) - len(stripped) if stripped.startswith("#") and line not in self.content else None

    def blank(self, line: int) -> bool:
        return not self.lines[line].strip() and line not in self.content


def _last_line(node: Node) -> int:
    """The last line a node's own text is on (block scalars end before their end mark's line)."""
    end = node.end_mark
    if end.column == 0 and end.line > node.start_mark.line:
        return end.line - 1
    return end.line


def subtree_end(node: Node) -> int:
    """The last line holding a value of the node's subtree."""
    if isinstance(node, ScalarNode) or getattr(node, "flow_style", False):
        return _last_line(node)
    pairs = node.value if isinstance(node, MappingNode) else [(None, v) for v in node.value]
    return max([node.start_mark.line] + [subtree_end(v) for _, v in pairs])


# ---- moving keys ------------------------------------------------------------------------------

def move_keys(layout: Layout, plans: list[tuple[MappingNode, list[int]]], top: Node | None = None) -> str:
    """The text with each planned block mapping's keys in the planned order (`order[j]` is the
    index of the key that goes j-th). Plans of mappings inside others come first. The comments
    above the first key of the `top` mapping are the file's header: they stay first."""
    lines = list(layout.lines)
    for node, order in plans:
        _move(layout, lines, node, order, header=node is top)
    return "\n".join(lines)


def _move(layout: Layout, lines: list[str], node: MappingNode, order: list[int], header: bool) -> None:
    keys = [key for key, _ in node.value]
    col = keys[0].start_mark.column
    starts = [_run_start(layout, key.start_mark.line, col, first=i == 0, header=i == 0 and header)
              for i, key in enumerate(keys)]
    end = subtree_end(node) + 1
    while end < len(lines) and (layout.comment(end) or 0) > col:
        end += 1                                         # deeper comments after the last value
    runs = [lines[s:e] for s, e in zip(starts, starts[1:] + [end])]
    first_line = keys[0].start_mark.line
    dash = lines[first_line][:col] if lines[first_line][:col].strip() else None   # `- key:` in a list
    if dash is not None:
        runs[0][first_line - starts[0]] = " " * col + runs[0][first_line - starts[0]][col:]
    gaps, tails = [], []                                 # blank lines between keys stay where they are,
    for run in runs:                                     # also those a block scalar (`>`) counts as its own
        gaps.append(0)
        while run and not run[0].strip():
            run.pop(0)
            gaps[-1] += 1
        tails.append(0)
        while run and not run[-1].strip():
            run.pop()
            tails[-1] += 1
    new = [[""] * gap + runs[i] + [""] * tail for gap, tail, i in zip(gaps, tails, order)]
    if dash is not None:
        head = new[0]
        at = next(i for i, text in enumerate(head) if text.strip() and not text.lstrip().startswith("#"))
        head[at] = dash + head[at][col:]
        indent = " " * dash.index("-")
        head[:at] = [indent + text.strip() if text.strip() else text for text in head[:at]]   # above the dash
    lines[starts[0]:end] = [text for run in new for text in run]


def _run_start(layout: Layout, line: int, col: int, first: bool, header: bool = False) -> int:
    """Where a key's run of lines starts: the comments above it (not deeper than the key), and
    for any but the first key the blank lines above those too. The first key of the file
    keeps no comment: those above it are the file's header."""
    start = line
    if header or layout.lines[line][:col].strip():        # the file's header; a list item's first key
        return start
    while start > 0:
        above = start - 1
        indent = layout.comment(above)
        if (indent is not None and indent <= col) or (not first and layout.blank(above)):
            start = above
        else:
            break
    return start


# ---- comments -----------------------------------------------------------------------------------

def finish(before: Layout, after: str) -> str:
    """ruamel.yaml's output `after` for `before`, with the comments put back in place, the
    tables lined up and the blank lines tidied."""
    layout = Layout.of(after)
    lines = reindent_comments(before, layout)
    for rows in _tables(layout.root):
        _align(lines, rows)
    return tidy(lines, layout.literal)


def reindent_comments(old: Layout, new: Layout) -> list[str]:
    """`after` (ruamel.yaml's output for `before`) with its comments placed as they were in
    `before`: ruamel.yaml re-indents values but keeps each comment's column. A comment line
    right above a key (or a list's dash) no deeper than itself takes that key's new column;
    else the column of the last key above it that it was in line with; else it keeps its depth
    below the key it was under. A comment after a value keeps its distance from the margin."""
    keys: list[tuple[int, int, int, int]] = []            # (line in before, column there, column now, reach)
    _columns_of(old, old.root, new, new.root, keys)
    keys.sort()
    old_comments, new_comments = _comments(old), _comments(new)
    if [c[1:] for c in old_comments] != [c[1:] for c in new_comments]:
        return list(new.lines)                           # not one comment for one: leave them be
    lines = list(new.lines)
    for (o, text, full), (n, _, _) in zip(old_comments, new_comments):
        if full:
            lines[n] = " " * _indent(old, keys, o, old.comment(o) or 0) + text
        else:
            content = lines[n][:_comment_at(lines[n])].rstrip()
            column = _comment_at(old.lines[o]) + _lead(lines[n]) - _lead(old.lines[o])
            lines[n] = content + " " * max(column - len(content), 1) + text
    return lines


def _comments(layout: Layout) -> list[tuple[int, str, bool]]:
    """Each comment of a text, in order: its line, its text, and whether it has the line alone."""
    found = []
    for number, line in enumerate(layout.lines):
        if number in layout.literal:
            continue
        if layout.comment(number) is not None:
            found.append((number, line.strip(), True))
        elif number in layout.content and (at := _comment_at(line)) < len(line):
            found.append((number, line[at:].rstrip(), False))
    return found


def _comment_at(line: str) -> int:
    """Where a comment starts on a line that holds a value (its length if none does)."""
    i, quote = 0, None
    while i < len(line):
        char = line[i]
        if quote == '"' and char == "\\":
            i += 2
            continue
        if quote == "'" and line.startswith("''", i):
            i += 2
            continue
        if quote is not None:
            quote = None if char == quote else quote
        elif char in "'\"" and (i == 0 or line[i - 1] in " \t[{:,"):
            quote = char
        elif char == "#" and (i == 0 or line[i - 1] in " \t"):
            return i
        i += 1
    return len(line)


def _lead(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _indent(old: Layout, keys: list[tuple[int, int, int, int]], line: int, column: int) -> int:
    """A comment line's new indentation (`keys`: see `_columns_of`)."""
    below = next((k for k in keys if k[0] > line), None)
    if below is not None and below[3] >= column and all(old.comment(n) is not None for n in range(line + 1, below[0])):
        return below[2]
    for _, was, now, _ in reversed([k for k in keys if k[0] < line]):
        if was == column:
            return now
        if was < column:
            return now + column - was
    return column


def _columns_of(old: Layout, a: Node | None, new: Layout, b: Node | None,
                out: list[tuple[int, int, int, int]]) -> None:
    """Each key and list dash of `a`: its line and column in `a`'s text, the column the same
    one has in `b`'s, and how deep a comment right above it may be to be its own (a key's
    column; a dash's item's)."""
    if isinstance(a, MappingNode) and isinstance(b, MappingNode) and not a.flow_style:
        for (ka, va), (kb, vb) in zip(a.value, b.value):
            out.append((ka.start_mark.line, ka.start_mark.column, kb.start_mark.column, ka.start_mark.column))
            _columns_of(old, va, new, vb, out)
    elif isinstance(a, SequenceNode) and isinstance(b, SequenceNode) and not a.flow_style:
        for ia, ib in zip(a.value, b.value):
            out.append((ia.start_mark.line, _dash(old, ia), _dash(new, ib), ia.start_mark.column))
            _columns_of(old, ia, new, ib, out)


def _dash(layout: Layout, item: Node) -> int:
    """The column of a list item's dash."""
    return layout.lines[item.start_mark.line].rfind("-", 0, item.start_mark.column + 1)


# ---- tables -------------------------------------------------------------------------------------

def _tables(node: Node | None) -> list[list[MappingNode]]:
    """Every list of one-line flow mappings whose keys are mostly the same (each in more than
    half of the rows): a table, whose columns are lined up."""
    if node is None or isinstance(node, ScalarNode):
        return []
    if isinstance(node, SequenceNode) and not node.flow_style and len(node.value) >= 2 and all(
            isinstance(item, MappingNode) and item.flow_style and item.start_mark.line == item.end_mark.line
            for item in node.value):
        keys = [[k.value for k, _ in item.value] for item in node.value]
        names = {name for row in keys for name in row}
        if all(2 * sum(name in row for row in keys) > len(keys) for name in names) and _columns(keys):
            return [list(node.value)]
        return []
    pairs = node.value if isinstance(node, MappingNode) else [(None, v) for v in node.value]
    return [table for _, value in pairs for table in _tables(value)]


def _columns(rows: list[list[Any]]) -> list[Any] | None:
    """The keys of all rows in one order that keeps every row's order (None if there is none)."""
    columns: list[Any] = []
    for row in rows:
        at = 0
        for name in row:
            if name in columns:
                if columns.index(name) < at:
                    return None
                at = columns.index(name) + 1
            else:
                columns.insert(at, name)
                at += 1
    return columns


def _align(lines: list[str], rows: list[MappingNode]) -> None:
    keys = [[k.value for k, _ in row.value] for row in rows]
    columns = _columns(keys) or []
    cells = []
    for row in rows:
        text = lines[row.start_mark.line]
        cells.append({k.value: text[k.start_mark.column:v.end_mark.column] for k, v in row.value})
    width = {name: max(len(c[name]) + 1 for c in cells if name in c) for name in columns}
    for row, cell in zip(rows, cells):
        line = row.start_mark.line
        text = lines[line]
        present = [name for name in columns if name in cell]
        parts = []
        for name in columns[:columns.index(present[-1]) + 1]:
            part = cell[name] + ("," if name != present[-1] else "") if name in cell else ""
            parts.append(part if name == present[-1] else part.ljust(width[name]))
        body = text[:row.start_mark.column] + "{" + " ".join(parts) + "}"
        rest = text[row.end_mark.column:]
        comment = rest.lstrip()
        if comment:
            column = len(text) - len(comment)
            body += " " * max(column - len(body), 1) + comment
        lines[line] = body


# ---- blank lines and spaces ---------------------------------------------------------------------

def tidy(lines: list[str], literal: set[int]) -> str:
    """No trailing spaces, no run of blank lines, none at the start or end; one final newline.
    Lines inside block scalars are left as they are."""
    out: list[str] = []
    for number, line in enumerate(lines):
        if number in literal:
            out.append(line)
            continue
        line = line.rstrip()
        if not line and (not out or not out[-1]):
            continue
        out.append(line)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) + "\n"
