"""How large the generated code of a checked tree is, counted once at load time.

A derived value is inlined where it is read while its code is small (compile.inlines), and
called otherwise: its function is compiled once, where it is defined. Inlining everything
made the code exponential in the file: `d2: "d1 + d1"`, `d3: "d2 + d2"`... each held the one
before twice, and 18 such lines took 1.7 GB to compile. Counted here, with the count of each
derived value kept on its Expression, the code of a file stays linear in its text.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import ast
from .checked import NOT_CONSTANT, Checked
from .compile import inlines
from .names import Attr


class Estimate:
    """The code size of the parts of one checked tree."""

    def __init__(self, checked: Checked) -> None:
        self.info = checked

    def nodes(self, node: ast.Node) -> int:
        """The nodes of the code generated for the tree: its own, and those of each derived
        value the compiler inlines where it is read."""
        if isinstance(node, ast.Expr) and self.info.const(node) is not NOT_CONSTANT:
            return 1
        count = 1 + sum(self.nodes(part) for part in _parts(node))
        for step in self.info.names.get(id(node), ()) if isinstance(node, ast.Name) else ():
            target = step.target
            if isinstance(target, Attr) and target.kind == "derived" and inlines(target.key):
                count += target.key.nodes
        return count


def _parts(node: ast.Node) -> Iterator[ast.Node]:
    """The nodes a node holds, in order (a block's statements, a call's arguments...)."""
    for name in node.__dataclass_fields__:
        if name == "span":
            continue
        value = getattr(node, name)
        if isinstance(value, ast.Node):
            yield value
        elif isinstance(value, tuple):
            yield from (item for item in value if isinstance(item, ast.Node))
