"""What the compiled engine cannot play yet, said where the rules file asks for it.

A rules file is lowered to tables and bytecode piece by piece; a piece the compiled engine
has no code for stops the lowering with `NotCompiled`, whose message names the piece and
the place in the file (`not compiled: the statement Foo (rules/x.yaml:12)`). Callers then
play the file with the interpreter: never a different game.
"""

from __future__ import annotations

from typing import Any

from ..base.errors import AmunreError


class NotCompiled(AmunreError):
    """The rules use something the compiled engine does not play; the interpreter does."""

    def __init__(self, what: str, rule: Any = None) -> None:
        self.what = what
        where = _where(rule)
        super().__init__(f"not compiled: {what}" + (f" ({where})" if where else ""))


def _where(rule: Any) -> str:
    """FILE:LINE of a rule (a dsl.Rule, a Span, or a plain text), or nothing."""
    span = getattr(rule, "span", rule)
    if span is None:
        return ""
    if isinstance(span, str):
        return span
    file, line = getattr(span, "file", None), getattr(span, "line", None)
    return f"{file}:{line}" if file and line else ""
