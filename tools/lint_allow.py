"""The lint's findings and its allow comments.

A `# lint: allow KIND` comment (several kinds separated by commas, a reason after them)
silences the warnings of that kind that point at its own line, at the line just below it
(when the comment has its line to itself), or inside the block its key opens
(`properties:  # lint: allow reconstructed-value`). Allow comments of the file being checked
(not of its parents) that name no kind, or silence nothing, are warnings themselves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..interpreter.base.errors import Span
from ..interpreter.load.document import Document, Path

KINDS = {
    "deck-runs-out": "a deck cannot supply the cards a phase asks for at some player count",
    "card-never-played": "a card with an effect that no phase of the flow lets anyone play",
    "option-never-read": "an option no rule reads, or values of it that no rule tells apart",
    "score-never-awards": "a scoring rule that can never give a point",
    "reconstructed-value": "a board value marked `reconstructed` (not confirmed) that a rule reads",
    "phase-never-runs": "a phase that is not in the flow, that play never gets to, or that is always skipped",
    "loop-never-ends": "a repeat of the flow whose `until` never holds",
    "modifier-never-set": "a modifier no effect sets: it always has its default",
    "unused-definition": "a derived value, modifier, deck or good that nothing uses",
    "lint-allow": "an allow comment that names an unknown kind, or silences nothing",
}
_ALLOW = re.compile(r"#\s*lint:\s*allow\s+([a-z-]+(?:\s*,\s*[a-z-]+)*)")


@dataclass(frozen=True)
class Finding:
    """One warning: its kind (a key of KINDS), what is wrong, and where."""
    kind: str
    message: str
    span: Span | None
    hint: str | None = None

    def format(self, label: str = "warning") -> str:
        """`FILE:LINE:COL: warning: message (hint) [kind]`, then the line and a caret."""
        text = self.message if self.hint is None else f"{self.message} ({self.hint})"
        if self.span is None:
            return f"{label}: {text} [{self.kind}]"
        return f"{self.span.file}:{self.span.line}:{self.span.col}: {label}: {text} [{self.kind}]\n{self.span.caret()}"


# ---- allow comments ----------------------------------------------------------------------------

class Allows:
    """The `# lint: allow KIND` comments: which warnings they silence, and which are unused."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.used: set[tuple[str, int, str]] = set()

    def silences(self, path: Path, kind: str) -> bool:
        node, chain = self.doc.root, []
        for part in path:
            if part not in node.children:
                break
            node = node.children[part]
            chain.append(node)
        lines = []                               # (source, line) where an allow comment counts
        if chain:
            last = chain[-1]
            own = sorted({pos[0] for pos in (last.key, last.value) if pos is not None})
            lines += [(last.src, line) for line in own]
            if own[0] > 0 and last.src.lines[own[0] - 1].lstrip().startswith("#"):
                lines.append((last.src, own[0] - 1))
            lines += [(n.src, (n.key or n.value)[0]) for n in chain[:-1]]
        for src, line in lines:
            if kind in _allowed_kinds(src.lines[line] if line < len(src.lines) else ""):
                self.used.add((src.path, line, kind))
                return True
        return False

    def unused(self) -> list[Finding]:
        """Allow comments of the checked file that name an unknown kind or silence nothing."""
        found = []
        src = self.doc.root.src
        for line, text in enumerate(src.lines if src else ()):
            for kind in _allowed_kinds(text):
                span = Span(src.path, line + 1, text.index("#") + 1, text)
                if kind not in KINDS:
                    found.append(Finding("lint-allow", f"unknown lint kind '{kind}'", span,
                                         "the kinds are: " + ", ".join(KINDS)))
                elif (src.path, line, kind) not in self.used:
                    found.append(Finding("lint-allow", f"this comment allows '{kind}', and there is no such "
                                         "warning here", span, "take it out"))
        return found


def _allowed_kinds(text: str) -> list[str]:
    match = _ALLOW.search(text)
    return [k.strip() for k in match.group(1).split(",")] if match else []

