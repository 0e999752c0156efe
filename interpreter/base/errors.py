"""Errors that point at the rules file.

Every problem found in a rules file — YAML syntax, schema violations, DSL
errors, unknown names — is a `Problem` with a `Span`, so that the user sees
`FILE:LINE:COL: message`, the offending line and a caret, the way compilers
report errors. All problems of one run are collected into one `RulesError`,
so a rules author fixes them in one pass instead of one per run.
"""

from __future__ import annotations

import difflib
import json
import reprlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

SHOWN = 300          # characters of a source line shown under an error, around its column (a rules file
                     # line is at most about 200; a longer one is cut around the column)


@dataclass(frozen=True)
class Span:
    """A position in a source file: 1-based `line` and `col`.

    `line_text` is the whole source line (without its newline); it is kept
    here so that a problem can be printed without re-reading the file.
    """

    file: str
    line: int
    col: int
    line_text: str = ""

    def caret(self) -> str:
        """The source line and a caret under `col`, each indented 4 spaces.

        Tabs before the column are copied, so the caret lines up whatever the
        terminal's tab width is. A line longer than SHOWN is cut to the SHOWN characters
        around the column, with `...` where it was cut: a 600 kB line is no help on a screen.
        """
        text, col = self.line_text, self.col
        if len(text) > SHOWN:
            start = max(0, min(col - 1 - SHOWN // 2, len(text) - SHOWN))
            head = "..." if start else ""
            col -= start - len(head)
            text = head + text[start:start + SHOWN] + ("..." if start + SHOWN < len(text) else "")
        lead = "".join("\t" if ch == "\t" else " " for ch in text[: col - 1])
        lead += " " * max(0, col - 1 - len(text))
        return f"    {text}\n    {lead}^"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a rules file; `hint` is extra help such as a did-you-mean."""

    message: str
    span: Span | None = None
    hint: str | None = None

    def format(self) -> str:
        """`file:line:col: message (hint)`, then the source line and a caret."""
        text = self.message if self.hint is None else f"{self.message} ({self.hint})"
        if self.span is None:
            return text
        return f"{self.span.file}:{self.span.line}:{self.span.col}: {text}\n{self.span.caret()}"


class AmunreError(Exception):
    """Base of every error this package raises on purpose (the CLI prints these without a traceback)."""


class RulesError(AmunreError):
    """A rules file is broken; carries every problem found, not only the first."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        # Once each: a block said once and used twice (a YAML alias) is checked in each place.
        self.problems: list[Problem] = list(dict.fromkeys(problems))
        super().__init__(self.format())

    def format(self) -> str:
        """All problems, separated by blank lines, then a count line."""
        count = len(self.problems)
        summary = f"{count} problem{'' if count == 1 else 's'} found."
        return "\n\n".join([p.format() for p in self.problems] + [summary])

    def __str__(self) -> str:
        return self.format()


class IllegalAction(AmunreError):
    """A player (or bot) tried an action the rules do not allow in the current state."""

    def __init__(self, reason: str, action: Any = None) -> None:
        self.reason = reason
        self.action = action
        shown = "" if action is None else f": {shown_value(action)}"
        super().__init__(f"illegal action{shown}: {reason}")


class GameError(AmunreError):
    """Something went wrong while running a game, e.g. a rule evaluated to nonsense.

    `span`, when known, is the place in the rules file whose rule failed.
    """

    def __init__(self, message: str, span: Span | None = None) -> None:
        self.message = message
        self.span = span
        super().__init__(Problem(message, span).format())


def shown_value(value: Any, limit: int = 300) -> str:
    """A value as a message may show it: JSON where it can be, else a short repr; never fails,
    whatever the value (cycles, odd keys, huge texts, integers too long for Python to print)."""
    try:
        text = json.dumps(value, sort_keys=True, default=str)
    except (TypeError, ValueError, RecursionError):
        text = _SHORT.repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def shown_repr(value: Any, limit: int = 60) -> str:
    """A value as Python writes it, shortened (reprlib), as a message may show it; never fails,
    even for an integer too long for Python to print."""
    text = _SHORT.repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


class _ShortRepr(reprlib.Repr):
    """reprlib's short repr, which also shows an integer too long to print (Python refuses to
    turn one of more than 4,300 digits into text, and reprlib tries) by its size alone."""

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > _PRINTABLE_BITS:
            digits = int(x.bit_length() * 0.30103) + 1          # log10(2): digits from bits, without printing
            return f"<{'a negative' if x < 0 else 'an'} integer of about {digits:,} digits>"
        return super().repr_int(x, level)


_PRINTABLE_BITS = 4_000              # about 1,200 digits: well inside what Python prints
_SHORT = _ShortRepr()


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """The hint "did you mean 'x'?" for the closest candidate a slip of the keys away (a letter or
    two wrong, missing, extra or swapped: more for a long name), or another member of the same
    thing (`deck.size`: `deck.left`, what may be read of it); else None: a name that merely
    shares letters ('good' and 'nobody') is another word, and suggesting it misleads."""
    most = 1 if len(name) <= 4 else 2 if len(name) <= 9 else 3
    owner = name.rpartition(".")[0]
    for match in difflib.get_close_matches(name, list(candidates), n=5, cutoff=0.6):
        if typing_distance(name.lower(), match.lower()) <= most or (owner and match.rpartition(".")[0] == owner):
            return f"did you mean '{match}'?"
    return None


def typing_distance(a: str, b: str) -> int:
    """How many letters typed wrong, left out, added or swapped with the next one turn a into b
    (the optimal string alignment distance)."""
    before: list[int] = []
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], before[j - 2] + 1)
        before, row = row, current
    return row[len(b)]
