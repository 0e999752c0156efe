"""The compile helpers of one rules file while it is built into `Rules`: values read by their
path in the document, DSL strings compiled against the vocabulary, references checked, causes
placed, and every problem kept with its place in the file (load/build_rules.py raises them
together). Mechanics see it through `PhaseBuild`, with paths relative to their phase.
"""

from __future__ import annotations

from typing import Any

from ..base.causes import Cause, position
from ..base.errors import Problem, did_you_mean
from ..base.limits import MAX_PLAYERS
from ..dsl import Dsl, Expression, Rule
from ..dsl.checked import ACTING_SEAT, Scope
from ..dsl.names import Vocabulary
from ..dsl.types import BOOL, NUM, Type, is_a
from ..mechanics.base import PHASE_PARAMS
from ..mechanics.params import compile_params
from ..model import DslString
from ..play.verbs import VERBS
from .document import Document


class Build:
    """Compile helpers for one document; every problem is kept with its place in the file."""

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        # the most players sizes `seats` in the DSL's cost estimates (dsl/cost.py)
        self.vocab = Vocabulary(verbs=VERBS, max_players=doc.data.get("players", {}).get("max", MAX_PLAYERS))
        self.problems: list[Problem] = []
        self.known: dict[str, Any] = {}      # what a `ref` may name, by kind: resource, deck, ...
        self.strings: list[DslString] = []   # every DSL string compiled, for fmt and the lint

    def get(self, path: tuple, default: Any = None) -> Any:
        node = self.doc.data
        for part in path:
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, list) and isinstance(part, int) and part < len(node):
                node = node[part]
            else:
                return default
        return node

    def problem(self, path: tuple, message: str, hint: str | None = None, key: bool = False) -> None:
        self.problems.append(Problem(message, self.doc.span(path, key=key), hint))

    def rule(self, path: tuple) -> Rule:
        return Rule(".".join(str(p) for p in path), self.doc.span(path))

    def cause(self, kind: str, id_: str, path: tuple) -> Cause:
        """The cause of the changes a rule makes, at the position of `path` in the file."""
        return Cause(kind, id_, position(self.doc.span(path)))

    def _dsl(self, path: tuple) -> Dsl:
        text = self.get(path)

        def report(message: str, offset: int, hint: str | None) -> None:
            span = self.doc.scalar_span(path, offset) if isinstance(text, str) else self.doc.span(path)
            self.problems.append(Problem(message, span, hint))
        return Dsl(self.vocab, report)

    def constant(self, value: Any, path: tuple) -> Expression:
        typ = BOOL if isinstance(value, bool) else NUM
        return Expression(lambda ctx, *it: value, typ, None, self.rule(path), value, True)

    def expression(self, path: tuple, scope: Scope = ACTING_SEAT, wanted: Type = NUM) -> Expression:
        text = self.get(path)
        if isinstance(text, (bool, int)):
            found = self.constant(text, path)
        else:
            found = self._dsl(path).expression(str(text), scope, self.rule(path))
            self.strings.append(DslString(path, "expression", found.tree))
        if not is_a(found.type, wanted):
            self.problem(path, f"this must be {wanted}, not {found.type}")
        return found

    def collection(self, path: tuple, scope: Scope = ACTING_SEAT) -> Expression:
        found = self._dsl(path).collection(str(self.get(path)), scope, self.rule(path))
        self.strings.append(DslString(path, "collection", found.tree))
        return found

    def effect(self, path: tuple, scope: Scope = ACTING_SEAT, automatic: bool = False) -> Any:
        found = self._dsl(path).effect(str(self.get(path)), scope, self.rule(path), automatic)
        self.strings.append(DslString(path, "effect", found.tree))
        return found

    def ref(self, path: tuple, what: str) -> str:
        """An id that must name a declared `what`; a problem with a suggestion when it does not."""
        name = self.get(path)
        known = self.known.get(what)
        if known is not None and name not in known:
            self.problem(path, f"unknown {what} '{name}'", did_you_mean(str(name), list(known)))
        return name


class PhaseBuild:
    """The Build as one phase's mechanic sees it: paths relative to the phase's mapping."""

    def __init__(self, build: Build, phase_id: str, params: tuple) -> None:
        self.build = build
        self.base = ("phases", phase_id)
        self.vocab = build.vocab
        self.material = build.known
        self.params = compile_params(PHASE_PARAMS + params, build, self.base)

    def get(self, *path: Any, default: Any = None) -> Any:
        return self.build.get(self.base + path, default)

    def problem(self, *path: Any, message: str) -> None:
        self.build.problem(self.base + path, message)

    def top(self, *path: Any) -> Any:
        """A value of the rules file outside this phase (by its path from the top)."""
        return self.build.get(path)

    def cause(self, kind: str, *path: Any, id_: str | None = None) -> Cause:
        """The cause of the changes a part of this phase makes (`path` within the phase; the
        id is the phase's unless given)."""
        return self.build.cause(kind, self.base[1] if id_ is None else id_, self.base + path)
