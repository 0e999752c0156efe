"""The import graph of the package: no circles, and no arrow running up the layers.

Every import statement of every module is read from its source (those inside functions and
under `if TYPE_CHECKING:` too: a type named is a dependency like any other), and the graph of
the modules of `amunre` must have no cycle. Each module belongs to one layer of LAYERS (the
layout docs/engine.md opens with), and imports only modules of its own layer or of layers
below. A new folder or top-level module must be given a layer here before its test passes.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import REPO

PACKAGE_FOLDERS = ("interpreter", "tools", "cli", "adapters")

# From the bottom up: (layer, the modules it holds: a dotted name holds itself and everything below it).
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("base", ("amunre.interpreter.base",)),
    ("dsl", ("amunre.interpreter.dsl",)),
    ("model", ("amunre.interpreter.model",)),
    ("play", ("amunre.interpreter.play",)),
    ("mechanics", ("amunre.interpreter.mechanics",)),
    ("load", ("amunre.interpreter.load",)),
    ("game", ("amunre.interpreter.game", "amunre.interpreter.saves", "amunre.interpreter.position")),
    ("compiled", ("amunre.interpreter.compiled",)),
    ("engine API", ("amunre.interpreter", "amunre")),
    ("tools", ("amunre.tools",)),
    ("cli", ("amunre.cli",)),
    ("adapters", ("amunre.adapters",)),
)
EXACT = {"amunre.interpreter", "amunre"}      # the packages' faces, not what lies below them


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["amunre", *parts])


def package_modules() -> dict[str, Path]:
    found = {"amunre": REPO / "__init__.py"}
    for folder in PACKAGE_FOLDERS:
        for path in sorted((REPO / folder).rglob("*.py")):
            if "__pycache__" not in path.parts:
                found[module_name(path)] = path
    return found


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of the package that `name` imports, wherever the import stands."""
    is_package = path.name == "__init__.py"
    package = name.split(".") if is_package else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in modules:        # `import amunre.x.y` names the deepest module known
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = package_modules()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan), each as a cycle through it."""
    search = _Tarjan(graph)
    for node in sorted(graph):
        if node not in search.index:
            search.visit(node)
    return [cycle_through(graph, set(group)) for group in search.groups]


class _Tarjan:
    """Tarjan's search for strongly connected groups, iterative: no recursion limit on deep graphs."""

    def __init__(self, graph: dict[str, set[str]]) -> None:
        self.graph = graph
        self.index: dict[str, int] = {}
        self.low: dict[str, int] = {}
        self.stack: list[str] = []
        self.on_stack: set[str] = set()
        self.groups: list[list[str]] = []

    def visit(self, start: str) -> None:
        work: list[tuple[str, Iterator[str]]] = []
        self._enter(start, work)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    self.low[work[-1][0]] = min(self.low[work[-1][0]], self.low[node])
                self._close(node)
            elif child not in self.index:
                self._enter(child, work)
            elif child in self.on_stack:
                self.low[node] = min(self.low[node], self.index[child])

    def _enter(self, node: str, work: list[tuple[str, Iterator[str]]]) -> None:
        """Number a node as it is first reached; its imports are visited next (depth first)."""
        self.index[node] = self.low[node] = len(self.index)
        self.stack.append(node)
        self.on_stack.add(node)
        work.append((node, iter(sorted(self.graph.get(node, ())))))

    def _close(self, node: str) -> None:
        """A node done with, that reaches nothing numbered before it, roots a group: itself and
        the nodes above it on the stack."""
        if self.low[node] != self.index[node]:
            return
        group = []
        while True:
            member = self.stack.pop()
            self.on_stack.discard(member)
            group.append(member)
            if member == node:
                break
        if len(group) > 1:
            self.groups.append(sorted(group))


def cycle_through(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """One cycle inside a strongly connected group, as the path a -> b -> ... -> a."""
    start = min(group)
    path, seen = [start], {start}
    while True:
        step = min(t for t in graph[path[-1]] if t in group)
        if step in seen:
            return path[path.index(step):] + [step]
        path.append(step)
        seen.add(step)


def layer_of(name: str) -> int | None:
    for rank, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if name == prefix or (prefix not in EXACT and name.startswith(prefix + ".")):
                return rank
    return None


def upward_arrows(graph: dict[str, set[str]]) -> list[str]:
    found = []
    for name, targets in sorted(graph.items()):
        for target in sorted(targets):
            here, there = layer_of(name), layer_of(target)
            if here is not None and there is not None and there > here:
                found.append(f"{name} ({LAYERS[here][0]}) imports {target} ({LAYERS[there][0]})")
    return found


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph()


def test_the_graph_is_read(graph: dict[str, set[str]]) -> None:
    assert len(graph) > 100
    assert "amunre.interpreter.base.errors" in graph["amunre.interpreter.game"]
    assert "amunre.interpreter.play.flow" in graph["amunre.interpreter.game"]
    assert "amunre.interpreter.load.build_context" in graph["amunre.interpreter.load.build_vocabulary"]  # TYPE_CHECKING


def test_every_module_has_a_layer(graph: dict[str, set[str]]) -> None:
    assert [name for name in graph if layer_of(name) is None] == []


def test_no_import_circles(graph: dict[str, set[str]]) -> None:
    found = cycles(graph)
    assert not found, "import circles:\n" + "\n".join(" -> ".join(cycle) for cycle in found)


def test_no_arrow_runs_up_the_layers(graph: dict[str, set[str]]) -> None:
    found = upward_arrows(graph)
    assert not found, "imports against the layers (docs/engine.md):\n" + "\n".join(found)


def test_a_circle_and_an_upward_arrow_are_caught() -> None:
    graph = {"amunre.interpreter.play.a": {"amunre.interpreter.play.b"},
             "amunre.interpreter.play.b": {"amunre.interpreter.play.c"},
             "amunre.interpreter.play.c": {"amunre.interpreter.play.a", "amunre.interpreter.base.errors"},
             "amunre.interpreter.base.errors": {"amunre.tools.lint"}, "amunre.tools.lint": set()}
    assert cycles(graph) == [["amunre.interpreter.play.a", "amunre.interpreter.play.b",
                              "amunre.interpreter.play.c", "amunre.interpreter.play.a"]]
    assert upward_arrows(graph) == ["amunre.interpreter.base.errors (base) imports amunre.tools.lint (tools)"]


def test_imports_inside_functions_and_type_checking_count(tmp_path: Path) -> None:
    source = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\n"
              "def f():\n    from ..base import errors\n")
    path = tmp_path / "a.py"
    path.write_text(source, encoding="utf-8")
    modules = {"amunre.interpreter.play.a": path, "amunre.interpreter.play.b": path,
               "amunre.interpreter.base.errors": path}
    assert imports_of("amunre.interpreter.play.a", path, modules) == {
        "amunre.interpreter.play.b", "amunre.interpreter.base.errors"}
