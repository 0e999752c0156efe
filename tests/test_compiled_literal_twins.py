"""No compiled function is compiled twice for a bare whole number (interpreter/compiled/jit.py).

numba types a bare `0` handed to a compiled function as the literal 0, and compiles the
callee once for it and once more for the calls that hand it any other whole number: seconds
of every cold compile (9 of the bots' lookahead's 34 s). Read from the source, not from
numba: a call of a compiled function that hands a bare number where another call of it
hands anything else at that place fails here, with where it is. (A counter that starts at
0 before a loop and is then handed on makes the same twin; jit.py says so, this does not
find it.)
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

from conftest import REPO

COMPILED = REPO / "interpreter" / "compiled"
DECORATORS = {"jit", "allocating"}      # jit_inline's body is the caller's own: no twin of its own


def _jitted(trees: dict[str, ast.Module]) -> set[str]:
    return {node.name for tree in trees.values() for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef)
            and any(isinstance(d, ast.Name) and d.id in DECORATORS for d in node.decorator_list)}


def _bare(arg: ast.expr) -> bool:
    if isinstance(arg, ast.UnaryOp) and isinstance(arg.op, ast.USub):
        arg = arg.operand
    return isinstance(arg, ast.Constant) and type(arg.value) is int


def twins(folder: Path) -> list[str]:
    """Each place of a compiled function's arguments handed a bare number by one call and
    something else by another: the calls, as `file:line: call`."""
    trees = {path.name: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(folder.glob("*.py"))}
    jitted = _jitted(trees)
    seen: dict[tuple[str, int], dict[bool, list[str]]] = defaultdict(lambda: {True: [], False: []})
    for name, tree in trees.items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            callee = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if callee not in jitted:
                continue
            for place, arg in enumerate(node.args):
                seen[callee, place][_bare(arg)].append(f"{name}:{node.lineno}: {ast.unparse(node)}")
    return [call for kinds in seen.values() if kinds[True] and kinds[False] for call in kinds[True]]


def test_no_compiled_function_is_handed_a_bare_number_where_other_calls_hand_a_variable() -> None:
    found = twins(COMPILED)
    assert not found, "write np.int64(...) for the bare number (jit.py says why):\n" + "\n".join(found)


def test_a_bare_number_beside_a_variable_is_found(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("@jit\ndef f(S, n):\n    return n\n\n\n@jit\ndef g(S, k):\n"
                                   "    return f(S, k) + f(S, -1)\n", encoding="utf-8")
    (tmp_path / "b.py").write_text("@jit_inline\ndef h(S, n):\n    return n\n\n\n@jit\ndef i(S):\n"
                                   "    return h(S, 0) + h(S, S[0]) + a.f(S, np.int64(0))\n", encoding="utf-8")
    assert twins(tmp_path) == ["a.py:8: f(S, -1)"]
