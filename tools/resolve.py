"""`amunre resolve`: the fully merged rules of a file (after `extends` and its overlays) as one
YAML file, each value followed by a comment naming the file and line it comes from.

The loader keeps, for every value of the merged document, where it was written (an overlay's
values point at the overlay). Here that tree of positions becomes end-of-line comments: a
value written on one line of one file (a table row, `{start: 30}`) stays one flow-style line
with one comment; anything merged from several places is written out in block style, each
value with its own. The output extends nothing, so it loads as it is, to the same rules (the
same `Rules.digest`).
"""

from __future__ import annotations

import io
import os
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq

from ..interpreter.load.document import Document, PosNode, Source


def resolve_text(doc: Document) -> str:
    """The merged rules of `doc` as YAML text with provenance comments."""
    sources = _sources(doc.root, {})
    names = _short_names(list(sources))
    tree, _ = _tree(doc.data, doc.root, names, top=True)
    yaml = YAML(typ="rt")
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.width = 4096                         # never fold a value: one value, one line, one comment
    out = io.StringIO()
    yaml.dump(tree, out)
    header = [f"# The rules of {doc.path}, merged with every file it extends, as `amunre resolve` prints them.",
              "# Each value is followed by the file and line it comes from:"]
    header += [f"#   {names[path]}: {_shown(path)}" for path in sources]
    header += ["# This file extends nothing: it loads as it is, to the same rules.", ""]
    return "\n".join(header) + out.getvalue()


def _sources(node: PosNode, found: dict[str, Source]) -> dict[str, Source]:
    """Every file a value comes from, the checked file first, then in the order met."""
    found.setdefault(node.src.path, node.src)
    for child in node.children.values():
        _sources(child, found)
    return found


def _short_names(paths: list[str]) -> dict[str, str]:
    """Each file's name in the comments: its base name, unless two files share one."""
    bases = [os.path.basename(p) for p in paths]
    return {p: b if bases.count(b) == 1 else _shown(p) for p, b in zip(paths, bases)}


def _shown(path: str) -> str:
    """A path as the user may type it: relative to the current directory when inside it."""
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def _tree(data: Any, node: PosNode, names: dict[str, str], top: bool = False) -> tuple[Any, str | None]:
    """The ruamel tree of `data`, and the comment that goes after it (None: its parts have theirs)."""
    here = f"{names[node.src.path]}:{node.value[0] + 1}"
    if not isinstance(data, (dict, list)):
        return data, here
    one_line = not top and _one_line(node, node.src, node.value[0])
    out: Any = CommentedMap() if isinstance(data, dict) else CommentedSeq()
    items = data.items() if isinstance(data, dict) else enumerate(data)
    for key, value in items:
        child, comment = _tree(value, node.children[key], names)
        if isinstance(data, dict):
            out[key] = child
        else:
            out.append(child)
        if comment is not None and not one_line:
            out.yaml_add_eol_comment(comment, key, column=0)
    if one_line:
        out.fa.set_flow_style()
        return out, here
    out.fa.set_block_style()
    return out, None


def _one_line(node: PosNode, src: Source, line: int) -> bool:
    """Whether a value and all its parts are written on one line of one file."""
    return node.src is src and node.value[0] == line and (node.key is None or node.key[0] == line) \
        and all(_one_line(child, src, line) for child in node.children.values())
