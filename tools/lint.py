"""The lint: rules that load, but would not play as their author meant.

A rules file can be valid (every name known, every type right) and still break a game: a
deck that runs out before the schedule is done, a card that no phase ever lets anyone play,
an option whose values all play the same, a scoring rule that can never give a point, a
board value nobody has confirmed that a rule depends on. `lint` finds such things from the
built `Rules` and the merged document's positions, and reports each as a `Finding` at the
value it is about (in the file that wrote it, parents included).

A `# lint: allow KIND` comment silences warnings of that kind (tools/lint_allow.py).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import fields
from typing import Any

from ..interpreter.base.errors import AmunreError
from ..interpreter.dsl import ast
from ..interpreter.dsl.checked import NOT_CONSTANT
from ..interpreter.dsl.context import Ctx
from ..interpreter.game import Game, new_game
from ..interpreter.load.document import Document, Path
from ..interpreter.model import Rules
from .lint_allow import KINDS, Allows, Finding
from .lint_decks import deck_findings, deck_flows

__all__ = ["KINDS", "Finding", "lint"]

MAX_OPTION_COMBINATIONS = 1024


def lint(doc: Document, rules: Rules) -> list[Finding]:
    """Every warning about the rules built from `doc`, but those allowed, in file order."""
    out = Lint(doc, rules)
    _flow(out)
    _phases(out)
    _cards(out)
    _options(out)
    _scoring(out)
    _definitions(out)
    _reconstructed(out)
    for path, deck, message, hint in deck_findings(rules, out.probe):
        out.warn("deck-runs-out", out.written(path, ("structure", "rounds"), ("structure", "ages"),
                                              ("structure",), ("setup", "decks", deck)), message, hint)
    return out.findings()


class Lint:
    """What the checks share: the rules, the names their DSL reads and writes, an evaluator of
    option-only expressions, and the findings so far (each kept with its document path)."""

    def __init__(self, doc: Document, rules: Rules) -> None:
        self.doc, self.rules = doc, rules
        self.reads: set[str] = set()
        self.writes: set[str] = set()
        self.drawn: set[str] = set()             # decks some effect draws from
        for string in rules.dsl:
            if string.path[0] != "derived" and string.tree is not None:
                _names(string.tree, self.reads, self.writes, self.drawn)
        self.refs = set(_strings(doc.data.get("phases", {}))) | set(_strings(doc.data.get("tokens", {})))
        self.scheduled = rules.flow.phases()
        self.reached = self.scheduled              # phases the flow can reach, once _flow has looked
        self.probe = _probe(rules)
        self._raw: list[tuple[str, Path, str, str | None, bool]] = []

    def warn(self, kind: str, path: Path, message: str, hint: str | None = None, key: bool = False) -> None:
        self._raw.append((kind, tuple(path), message, hint, key))

    def written(self, *paths: Path) -> Path:
        """The first of the paths that the checked file itself writes (not a parent), else the
        first: a house rule's warning points at the house rule's line where it can."""
        for path in paths:
            node = self.doc.node(path)
            if node is not None and node.src is self.doc.root.src:
                return path
        return paths[0]

    def runs(self, phase: str) -> bool:
        """Whether a phase is in the flow where play can reach it, and not skipped under every option."""
        mech = self.rules.phases.get(phase)
        return phase in self.reached and not (mech is not None and mech.skip_if is not None
                                                and self.always(mech.skip_if) is True)

    def always(self, expr: Any) -> Any:
        """The one value an option-only expression takes under every option, None if it takes
        several or reads more than options."""
        values = self.values(expr)
        return next(iter(values)) if values is not None and len(values) == 1 else None

    def values(self, expr: Any) -> set[Any] | None:
        """Every value an expression takes under each choice of options (None: it reads more)."""
        if expr.constant is not NOT_CONSTANT:
            return {expr.constant}
        if self.probe is None or expr.tree is None or not _options_only(expr.tree):
            return None
        options = self.rules.options
        combos = list(itertools.islice(itertools.product(*(o.values for o in options.values())),
                                       MAX_OPTION_COMBINATIONS + 1))
        if len(combos) > MAX_OPTION_COMBINATIONS:
            return None
        state, found = self.probe.state, set()
        saved = dict(state.options)
        try:
            for combo in combos:
                state.options = dict(zip(options, combo))
                found.add(expr.fn(Ctx(self.probe)))
        except AmunreError:
            return None
        finally:
            state.options = saved
        return found

    def findings(self) -> list[Finding]:
        allows = Allows(self.doc)
        out = []
        for kind, path, message, hint, key in self._raw:
            if not allows.silences(path, kind):
                out.append(Finding(kind, message, self.doc.span(path, key=key), hint))
        out += allows.unused()
        return sorted(dict.fromkeys(out), key=_order)


def _order(finding: Finding) -> tuple:
    span = finding.span
    return (span.file, span.line, span.col, finding.kind) if span else ("", 0, 0, finding.kind)


def _probe(rules: Rules) -> Game | None:
    """A game at its first decision, whose options the lint changes to evaluate conditions."""
    try:
        return new_game(rules, players=rules.min_players, seed=0, events=False)
    except AmunreError:
        return None                             # a game that fails at once: `validate --play` shows it


# ---- what DSL trees name -------------------------------------------------------------------------

def nodes(tree: Any) -> Iterator[ast.Node]:
    """Every node of a DSL tree."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, tuple):
            stack.extend(node)
        elif isinstance(node, ast.Node):
            yield node
            stack.extend(getattr(node, f.name) for f in fields(node) if f.name != "span")


def _names(tree: Any, reads: set[str], writes: set[str], drawn: set[str]) -> None:
    """The names a tree reads (every part of every name but those `set` or `add` change) and
    the names it changes (their dotted form); the decks it draws from."""
    changed: set[int] = set()
    for node in nodes(tree):
        if isinstance(node, ast.Target):
            writes.add(node.name.dotted)
            changed.update(id(part) for part in node.name.parts)
        elif isinstance(node, ast.Draw):
            drawn.add(node.deck.name)
    reads.update(node.name for node in nodes(tree) if isinstance(node, ast.Ident) and id(node) not in changed)


def _option(node: Any) -> str | None:
    if isinstance(node, ast.Name) and len(node.parts) == 2 and node.parts[0].name == "option":
        return node.parts[1].name
    return None


def _compared(tree: Any) -> tuple[dict[str, set[str]], set[str]]:
    """Per option, the values it is compared with (`option.x == v`); and the options read any
    other way (so that every value of theirs may matter)."""
    compared: dict[str, set[str]] = {}
    words: set[int] = set()
    for node in nodes(tree):
        if isinstance(node, ast.Binary) and node.op in ("==", "!="):
            for side, other in ((node.left, node.right), (node.right, node.left)):
                name = _option(side)
                if name is not None and isinstance(other, ast.Name) and len(other.parts) == 1:
                    compared.setdefault(name, set()).add(other.parts[0].name)
                    words.update((id(side), id(other)))
    others = {name for node in nodes(tree) if id(node) not in words and (name := _option(node)) is not None}
    return compared, others


def _options_only(tree: Any) -> bool:
    """A tree that reads nothing but options (compared with their values) and constants."""
    compared_ids: set[int] = set()
    for node in nodes(tree):
        if isinstance(node, ast.Binary) and node.op in ("==", "!=") and (_option(node.left) or _option(node.right)):
            compared_ids.update((id(node.left), id(node.right)))
    return all(isinstance(node, (ast.Number, ast.Text, ast.Binary, ast.Unary, ast.When, ast.Ident))
               or (isinstance(node, ast.Name) and (id(node) in compared_ids or _option(node)))
               for node in nodes(tree))


def _strings(data: Any) -> Iterator[str]:
    """Every string in a piece of the document: parameters that name things (refs)."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for value in data.values():
            yield from _strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from _strings(value)


# ---- the checks ------------------------------------------------------------------------------------

def _flow(out: Lint) -> None:
    """Follow the flow under every choice of options: the nodes play can never reach (a repeat of
    no pass, a branch case its value never takes, what runs between the passes of a repeat of
    one), and the repeats whose `until` never holds."""
    flow = out.rules.flow
    reached: set[str] = set()
    stack = [0]
    while stack:
        node = flow.nodes[stack.pop()]
        if node.kind == "phase":
            reached.add(node.phase)
        elif node.kind == "sequence":
            stack.extend(node.children)
        elif node.kind == "branch":
            values = out.values(node.on) if node.on is not None else None
            for value, child in node.cases:
                if values is None or value in values:
                    stack.append(child)
            if node.otherwise >= 0 and (values is None or values - {v for v, _ in node.cases}):
                stack.append(node.otherwise)
        else:
            stack.extend(_passes_reached(out, node))
    out.reached = frozenset(reached)


def _passes_reached(out: Lint, node: Any) -> list[int]:
    """The children of a repeat that some pass runs; a warning if its `until` never holds."""
    times = out.always(node.times) if node.times is not None else None
    until = out.always(node.until) if node.until is not None else None
    if until is False:
        out.warn("loop-never-ends", node.path + ("until",), "this `until` never holds: the repeat never ends",
                 "give it a condition that the phases it repeats can make true")
    if times == 0 or (until is True and node.check_before):
        return []
    if times == 1 or until is True:
        return list(node.children[:1])                 # one pass: nothing runs between passes
    return list(node.children)


def _phases(out: Lint) -> None:
    for pid, mech in out.rules.phases.items():
        if pid not in out.scheduled:
            out.warn("phase-never-runs", ("phases", pid), f"the phase '{pid}' is not in the flow: it "
                     "never runs", "put it in the flow (or the structure), or take it out", key=True)
        elif pid not in out.reached:
            out.warn("phase-never-runs", ("phases", pid), f"the phase '{pid}' is in the flow where play never "
                     "gets to it, whatever the options", key=True)
        elif mech.skip_if is not None and out.always(mech.skip_if) is True:
            out.warn("phase-never-runs", ("phases", pid, "skip_if"), f"the phase '{pid}' is skipped "
                     "whatever the options: it never runs")


def _cards(out: Lint) -> None:
    rules = out.rules
    windows: set[str] = set()
    for pid, mech in rules.phases.items():
        if out.runs(pid):
            windows |= {w for w in (mech.window, getattr(mech, "attach_window", None)) if w}
    reach = {rules.cards[c].deck for c in rules.setup_hand}
    reach |= {good.draw for name, good in rules.goods.items() if good.draw and name in out.refs}
    reach |= out.drawn | {flow.deck for pid, mech in rules.phases.items() if out.runs(pid)
                          for flow in deck_flows(mech) if flow.kind == "draw" and flow.into == "hand"}
    for cid, card in rules.cards.items():
        if card.effect is None or rules.decks[card.deck].of_places:
            continue
        if card.window is None:
            out.warn("card-never-played", ("cards", cid, "effect"), f"the card '{cid}' has an effect "
                     "but no window: nobody can ever play it", "give it a `window`", key=True)
        elif card.window not in windows:
            out.warn("card-never-played", ("cards", cid, "window"), f"no phase that runs opens the window "
                     f"'{card.window}': nobody can ever play '{cid}'")
        elif card.deck not in reach:
            out.warn("card-never-played", ("cards", cid, "deck"), f"no card of the deck '{card.deck}' ever "
                     f"reaches a hand, so nobody can play '{cid}'",
                     "no good draws from it, no phase deals it, no effect draws it, no set-up hand holds it")


def _options(out: Lint) -> None:
    compared: dict[str, set[str]] = {}
    others: set[str] = set()
    for string in out.rules.dsl:
        if string.tree is not None:
            found, read = _compared(string.tree)
            for name, values in found.items():
                compared.setdefault(name, set()).update(values)
            others |= read
    for name, option in out.rules.options.items():
        if name not in compared and name not in others:
            out.warn("option-never-read", ("options", name), f"no rule reads the option '{name}': its "
                     "values all play the same", "read it as option." + name, key=True)
        elif name not in others:
            unread = [v for v in option.values if v not in compared[name]]
            if len(unread) >= 2:
                out.warn("option-never-read", ("options", name, "values"), f"no rule tells the values "
                         f"{', '.join(unread)} of the option '{name}' apart: they play the same")


def _scoring(out: Lint) -> None:
    for pid, mech in out.rules.phases.items():
        for i, award in enumerate(getattr(mech, "awards", ())):
            where = ("phases", pid, "rules", i)
            never = f"the scoring rule '{award.id}' never gives a point"
            if award.when is not None and out.always(award.when) is False:
                out.warn("score-never-awards", where + ("when",), f"{never}: its `when` holds under no options")
            elif award.kind == "points" and out.always(award.value) == 0:
                out.warn("score-never-awards", where + ("points",), f"{never}: its points are always 0")
            elif award.kind == "rank" and not any(award.points):
                out.warn("score-never-awards", where + ("rank", "points"), f"{never}: every rank scores 0")
            elif award.kind == "award" and award.points[0] == 0:
                out.warn("score-never-awards", where + ("award", "points"), f"{never}: the best scores 0")
            elif award.kind == "award" and award.keys and (first := out.always(award.keys[0])) is not None \
                    and first <= 0:
                out.warn("score-never-awards", where + ("award", "by", 0), f"{never}: the best must be "
                         f"above 0 in its first key, which is always {first}")


def _used(out: Lint) -> set[str]:
    """Names read by a rule or a parameter, with what the derived values they read read."""
    derived = {s.path[1]: s.tree for s in out.rules.dsl if s.path[0] == "derived" and s.tree is not None}
    used = out.reads | out.refs
    grown = True
    while grown:
        before = len(used)
        for name, tree in derived.items():
            if name in used:
                _names(tree, used, set(), set())
        grown = len(used) > before
    return used


def _definitions(out: Lint) -> None:
    data, used = out.doc.data, _used(out)
    for name in data.get("derived", {}):
        if name not in used:
            out.warn("unused-definition", ("derived", name), f"no rule reads the derived value '{name}'", key=True)
    for name in data.get("modifiers", {}):
        if name not in out.writes:
            out.warn("modifier-never-set", ("modifiers", name), f"no effect sets the modifier '{name}': it "
                     "always has its default", f"change it with `set {name} = ...` or `add ... to {name}`", key=True)
        elif name not in used:
            out.warn("unused-definition", ("modifiers", name), f"effects set the modifier '{name}', but no "
                     "rule reads it", key=True)
    decks_with_cards = {card.deck for card in out.rules.cards.values()}
    for name, deck in out.rules.decks.items():
        if not deck.of_places and name not in decks_with_cards:
            out.warn("unused-definition", ("decks", name), f"the deck '{name}' holds no cards", key=True)
    for name in data.get("goods", {}):
        if name not in out.refs:
            out.warn("unused-definition", ("goods", name), f"no phase buys or gives the good '{name}'", key=True)


def _reconstructed(out: Lint) -> None:
    rules, used = out.rules, _used(out)
    marked: dict[str, list[str]] = {}
    for place, names in rules.reconstructed.items():
        for name in names:
            marked.setdefault(name, []).append(place)
    for name, places in marked.items():
        if name in used:
            shown = ", ".join(places[:3]) + (", ..." if len(places) > 3 else "")
            out.warn("reconstructed-value", ("places", "properties", name), f"rules read '{name}', which is "
                     f"reconstructed, not confirmed, for {len(places)} of {len(rules.place_ids)} places ({shown})",
                     "`amunre validate --provenance` lists the values to check on a real board", key=True)
