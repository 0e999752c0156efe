"""A rulebook from a rules file: what a player reads, built from the same data that plays.

The book is a tree of sections (`Section`) holding paragraphs, tables and lists, built from the
compiled `Rules` and the merged document: the components (resources, the board's places,
tokens, goods, decks and their cards), the set-up, the order of play drawn from the flow, each
phase (its mechanic's description, its parameters in words, its formulas and effects as
sentences: interpreter/dsl/sentences.py), the end and the winner, the options, the worked
examples and the sources. tools/rulebook_render.py writes it as Markdown or as one HTML file.

For a file that extends another, the book can mark what differs from the parent: every change
`amunre diff` reports (tools/diff.py), listed in a section of its own and noted again where the
changed thing is described, and nothing else.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any

from ..interpreter.base.errors import AmunreError
from ..interpreter.dsl.printer import to_text
from ..interpreter.dsl.sentences import sentence, words
from ..interpreter.load.document import Document
from ..interpreter.load.rules_cache import load_rules_and_document
from ..interpreter.mechanics import MECHANICS
from ..interpreter.model import FlowNode, Rules
from .diff import Change, diff_documents
from .flow_style import flow_style


@dataclass
class Table:
    header: list[str]
    rows: list[list[str]]


@dataclass
class Bullets:
    items: list[tuple[int, str]]           # (depth, text)


@dataclass
class Changed:
    """What a house rule changes here, against its parent (as `amunre diff` says it)."""
    lines: list[str]


Block = str | Table | Bullets | Changed


@dataclass
class Section:
    title: str
    anchor: str
    blocks: list[Block] = field(default_factory=list)
    children: list[Section] = field(default_factory=list)

    def add(self, title: str, anchor: str | None = None) -> Section:
        child = Section(title, anchor or slug(title))
        self.children.append(child)
        return child


@dataclass
class Book:
    title: str
    subtitle: str
    sections: list[Section]
    parent: str | None = None              # the file it extends, when its changes are marked


def slug(text: str) -> str:
    """An anchor from a title: lowercase words joined by hyphens."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


def change_line(change: Change, old: str | None = None, new: str | None = None) -> str:
    """One change in words, as `amunre diff` lists it: where, then what (`old` and `new` in
    words where the caller has them: a formula's sentence)."""
    where = ".".join(change.path)
    old, new = old or flow_style(change.old), new or flow_style(change.new)
    if change.kind == "changed":
        return f"{where}: now {new} (was {old})"
    if change.kind == "added":
        return f"{where}: added, {new}"
    return f"{where}: removed (it was {old})"


class _Builder:
    def __init__(self, rules: Rules, doc: Document, changes: list[Change] | None, parent: Rules | None) -> None:
        self.rules, self.data = rules, doc.data
        self.changes = changes
        self.trees = _trees(rules)
        self.parent_trees = _trees(parent) if parent is not None else {}
        self.parent_vocab = parent.vocab if parent is not None else None

    def change(self, change: Change) -> str:
        """A change in words; a formula changed, added or removed as its sentence."""
        old, new = self.parent_trees.get(tuple(change.path)), self.trees.get(tuple(change.path))
        return change_line(change, sentence(old, self.parent_vocab) if old is not None else None,
                           sentence(new, self.rules.vocab) if new is not None else None)

    # ---- words for what the file writes -----------------------------------------------------------
    def said(self, path: tuple, value: Any) -> str:
        """A value of the file in words: a DSL string as its sentence, anything else as written."""
        tree = self.trees.get(path)
        if tree is not None:
            return sentence(tree, self.rules.vocab)
        if isinstance(value, dict):
            return "; ".join(f"{words(k)}: {self.said(path + (k,), v)}" for k, v in value.items())
        if isinstance(value, list):
            return ", ".join(self.said(path + (i,), v) for i, v in enumerate(value))
        if isinstance(value, bool):
            return "yes" if value else "no"
        return words(value) if isinstance(value, str) else str(value)

    def items(self, path: tuple, value: Any, depth: int = 0) -> list[tuple[int, str]]:
        """A mapping of the file as list items: a value or a formula on one line, a mapping or a
        list of mappings (scoring rules, tiles) as items nested under their key."""
        out: list[tuple[int, str]] = []
        for key, inner in value.items():
            here = path + (key,)
            if isinstance(inner, dict) and here not in self.trees:
                out.append((depth, f"{words(key)}:"))
                out += self.items(here, inner, depth + 1)
            elif isinstance(inner, list) and inner and all(isinstance(i, dict) for i in inner):
                out.append((depth, f"{words(key)}:"))
                for i, item in enumerate(inner):
                    rest = {k: v for k, v in item.items() if k != "id"}
                    out.append((depth + 1, f"**{words(item['id'])}**" if "id" in item else f"{i + 1}."))
                    out += self.items(here + (i,), rest, depth + 2)
            else:
                out.append((depth, f"{words(key)}: {self.said(here, inner)}"))
        return out

    def tabular(self, path: tuple, value: Any) -> bool:
        """A list of plain rows (a phase's table of tiles, say): shown as a table, a row each."""
        return (isinstance(value, list) and len(value) > 1 and all(isinstance(row, dict) for row in value)
                and all(not isinstance(v, (dict, list)) and path + (i, k) not in self.trees
                        for i, row in enumerate(value) for k, v in row.items()))

    def marks(self, section: Section, *prefix: str | int) -> None:
        """Note under a section what the house rule changes there."""
        if self.changes is None:
            return
        found = [self.change(c) for c in self.changes if tuple(c.path[:len(prefix)]) == tuple(str(p) for p in prefix)]
        if found:
            section.blocks.append(Changed(found))

    # ---- the book -------------------------------------------------------------------------------------
    def book(self, changes_only: bool) -> Book:
        rules = self.rules
        players = (f"{rules.min_players} players" if rules.min_players == rules.max_players
                   else f"{rules.min_players} to {rules.max_players} players")
        subtitle = ", ".join(part for part in (players, rules.publisher, str(rules.year or "")) if part)
        parent = os.path.basename(rules.parents[0]) if rules.parents and self.changes is not None else None
        sections = []
        if self.changes is not None:
            sections.append(self.what_changes(parent))
        if not changes_only:
            sections += [self.components(), self.setup(), self.order_of_play(), self.phases(), self.end(),
                         self.options(), self.examples(), self.sources()]
        return Book(rules.title or rules.id, subtitle, [s for s in sections if s.blocks or s.children], parent)

    def what_changes(self, parent: str | None) -> Section:
        section = Section("What this file changes", "changes")
        changes = self.changes or []
        if not changes:
            section.blocks.append(f"Nothing differs from {parent}.")
            return section
        section.blocks.append(f"Against the rules it extends ({parent}), as `amunre diff` reports them; each is "
                              "noted again where the book describes it.")
        section.blocks.append(Bullets([(0, self.change(c)) for c in changes]))
        return section

    def components(self) -> Section:
        rules, data = self.rules, self.data
        section = Section("Components", "components")
        if data.get("resources"):
            part = section.add("Resources", "resources")
            part.blocks.append("What each player keeps count of.")
            part.blocks.append(Table(["resource", "each player starts with", "at most", "notes"], [
                [words(name), str(spec.get("start", 0)), str(spec.get("max", "")),
                 _join(spec.get("doc", ""), "others do not see it" if spec.get("hidden") else "")]
                for name, spec in data["resources"].items()]))
            self.marks(part, "resources")
        part = section.add(f"The board: {words(rules.vocab.plural)}", "places")
        props = list(data["places"].get("properties", {}))
        part.blocks.append(f"{len(rules.place_ids)} {words(rules.vocab.plural)}, each with these values "
                           + "(" + "; ".join(f"{words(p)}: {words(s.get('doc', ''))}" if s.get("doc") else words(p)
                                             for p, s in data["places"].get("properties", {}).items()) + ").")
        part.blocks.append(Table([words(rules.vocab.noun)] + [words(p) for p in props], [
            [words(pid)] + [self.said(("places", "items", i, p), rules.place_props[i].get(p, "")) for p in props]
            for i, pid in enumerate(rules.place_ids)]))
        self.marks(part, "places")
        if data.get("tokens"):
            part = section.add("Pieces", "tokens")
            part.blocks.append(Table(["piece", "in the supply", "notes"], [
                [words(name), str(spec.get("supply", "as " + words(spec.get("supply_of", ""))) if "supply" in spec
                                  or "supply_of" in spec else "no limit"), words(spec.get("doc", ""))]
                for name, spec in data["tokens"].items()]))
            conversions = data.get("conversions", [])
            if conversions:
                part.blocks.append(Bullets([(0, "whenever a " + words(rules.vocab.noun) + " holds "
                                             + " and ".join(_count(n, t) for t, n in c["from"].items())
                                             + f", they become a {words(c['to'])}") for c in conversions]))
            self.marks(part, "tokens")
            self.marks(part, "conversions")
        if data.get("goods"):
            part = section.add("Goods", "goods")
            part.blocks.append(Table(["good", "is", "notes"], [
                [words(name), f"a card of the {words(spec['draw'])} deck" if "draw" in spec
                 else f"a {words(spec.get('token', name))} placed at once", words(spec.get("doc", ""))]
                for name, spec in data["goods"].items()]))
            self.marks(part, "goods")
        for deck in rules.decks.values():
            if deck.of_places:
                continue
            part = section.add(f"The {words(deck.name)} cards", f"deck-{slug(deck.name)}")
            notes = [f"a card may be sold for {deck.sell} {words(deck.sell_resource or '')}" if deck.sell else "",
                     "held in secret" if deck.hidden else "shown to all",
                     "its discards are shuffled into a new deck when it runs out" if deck.reshuffle else ""]
            part.blocks.append(_join(*notes).capitalize() + ".")
            cards = [c for c in rules.cards.values() if c.deck == deck.name]
            part.blocks.append(Table(["card", "copies", "played in", "what it does"], [
                [words(c.id), str(c.count), words(c.window or "not played"),
                 c.doc or (sentence(c.effect.tree, rules.vocab) if c.effect and c.effect.tree else "")]
                for c in cards]))
            self.marks(part, "cards")
            self.marks(part, "decks", deck.name)
        return section

    def setup(self) -> Section:
        data, rules = self.data, self.rules
        section = Section("Set-up", "setup")
        setup = data.get("setup", {})
        items = []
        for name, spec in data.get("resources", {}).items():
            if spec.get("start"):
                items.append((0, f"each player takes {spec['start']} {words(name)}"))
        if setup.get("hand"):
            items.append((0, "each player takes " + ", ".join(words(c) for c in setup["hand"])))
        for name, spec in setup.get("decks", {}).items():
            items.append((0, f"the {words(name)} deck:"))
            items += self.items(("setup", "decks", name), spec, 1)
        owned = [(pid, o) for pid, o in zip(rules.place_ids, rules.start_owner) if o >= 0]
        if owned:
            owners = ", ".join(f"{words(p)} (player {o + 1})" for p, o in owned)
            items.append((0, f"places owned from the start: {owners}"))
        start = setup.get("start_player", "random")
        items.append((0, "the start player is chosen at random" if start == "random" else f"the start player: {start}"))
        section.blocks.append(Bullets(items))
        self.marks(section, "setup")
        return section

    def order_of_play(self) -> Section:
        section = Section("The order of play", "order-of-play")
        flow = self.rules.flow
        items: list[tuple[int, str]] = []
        self._node(flow.nodes[0], 0, items, top=True)
        section.blocks.append(Bullets(items))
        if flow.end_if is not None and flow.end_if.tree is not None:
            section.blocks.append("The game also ends as soon as " + sentence(flow.end_if.tree, self.rules.vocab) + ".")
        self.marks(section, "order of play")
        self.marks(section, "structure")
        self.marks(section, "flow")
        self.marks(section, "end_if")
        return section

    def _node(self, node: FlowNode, depth: int, items: list[tuple[int, str]], top: bool = False) -> None:
        nodes, vocab = self.rules.flow.nodes, self.rules.vocab
        if node.kind == "phase":
            items.append((depth, f"[{words(node.phase)}](#phase-{slug(node.phase)})"))
            return
        if node.kind == "sequence":
            inner = depth
            if node.name and not top:
                items.append((depth, f"{words(node.name)}:"))
                inner = depth + 1
            for child in node.children:
                self._node(nodes[child], inner, items)
            return
        if node.kind == "repeat":
            if node.times is not None:
                tree = node.times.tree
                times = node.times.constant if tree is None else sentence(tree, vocab)
                head = f"{times} times" if tree is None or str(times).isdigit() else f"as many times as {times}"
            elif node.until is not None and node.until.tree is not None:
                head = ("while not " if node.check_before else "until ") + sentence(node.until.tree, vocab)
            else:
                head = "repeatedly"
            label = f"{words(node.name)}, " if node.name else ""
            items.append((depth, f"{label}{head}:"))
            self._node(nodes[node.children[0]], depth + 1, items)
            if len(node.children) > 1:
                items.append((depth + 1, "between two of them:"))
                self._node(nodes[node.children[1]], depth + 2, items)
            return
        on = sentence(node.on.tree, vocab) if node.on is not None and node.on.tree is not None else "a value"
        items.append((depth, f"depending on {on}:"))
        for value, child in node.cases:
            items.append((depth + 1, f"{words(value)}:"))
            self._node(nodes[child], depth + 2, items)
        if node.otherwise >= 0:
            items.append((depth + 1, "otherwise:"))
            self._node(nodes[node.otherwise], depth + 2, items)

    def phases(self) -> Section:
        section = Section("The phases", "phases")
        specs = self.data.get("phases", {})
        for pid in _in_play_order(self.rules, specs):
            spec = specs[pid]
            part = section.add(words(pid), f"phase-{slug(pid)}")
            mechanic = MECHANICS.get(spec.get("mechanic"))
            if mechanic is not None and mechanic.doc:
                part.blocks.append(f"*{words(spec['mechanic'])}*: {mechanic.doc}")
            if spec.get("doc"):
                part.blocks.append(spec["doc"])
            rest = {k: v for k, v in spec.items() if k not in ("mechanic", "doc")}
            tables = {k: v for k, v in rest.items() if self.tabular(("phases", pid, k), v)}
            items = self.items(("phases", pid), {k: v for k, v in rest.items() if k not in tables})
            if items:
                part.blocks.append(Bullets(items))
            for key, rows in tables.items():
                part.blocks.append(f"{words(key).capitalize()}:")
                part.blocks.append(_table(rows))
            self.marks(part, "phases", pid)
        return section

    def end(self) -> Section:
        winner, vocab = self.rules.winner, self.rules.vocab
        section = Section("The end and the winner", "winner")
        ranked = "" if winner.by is None or winner.by.tree is None or to_text(winner.by.tree) == f"my.{winner.score}" \
            else f" (ranked by {sentence(winner.by.tree, vocab)})"
        section.blocks.append(f"When the order of play is done, the player with the most {words(winner.score)} "
                              f"wins{ranked}.")
        if winner.tiebreaks:
            breaks = "; then ".join(sentence(t.tree, vocab) for t in winner.tiebreaks if t.tree is not None)
            section.blocks.append(f"Ties are broken by, in turn: {breaks}; players still tied share the win.")
        self.marks(section, "winner")
        return section

    def options(self) -> Section:
        section = Section("Options", "options")
        if self.rules.options:
            section.blocks.append("Chosen before a game (`-o NAME=VALUE`); the first value named is the default.")
            section.blocks.append(Table(["option", "values", "what it decides"], [
                [words(name), ", ".join([words(opt.default)] + [words(v) for v in opt.values if v != opt.default]),
                 opt.doc] for name, opt in self.rules.options.items()]))
        self.marks(section, "options")
        return section

    def examples(self) -> Section:
        section = Section("Worked examples", "examples")
        if self.rules.examples:
            section.blocks.append("Each is played by `amunre check`, which confirms every number it states.")
            section.blocks.append(Bullets([(0, f"**{e.id}** ({e.section})" + (f": {e.about}" if e.about else ""))
                                           for e in self.rules.examples]))
        return section

    def sources(self) -> Section:
        section = Section("Sources", "sources")
        if self.rules.source:
            section.blocks.append(self.rules.source)
        if self.rules.parents:
            section.blocks.append("This file extends " + ", which extends ".join(
                os.path.basename(p) for p in self.rules.parents) + ".")
        return section


def _in_play_order(rules: Rules, specs: dict[str, Any]) -> list[str]:
    """The phases in the order play first reaches them, then any the flow never names."""
    order = list(dict.fromkeys(rules.flow.nodes[leaf].phase for leaf in rules.flow.leaves))
    return [p for p in order if p in specs] + [p for p in specs if p not in order]


def _table(rows: list[dict[str, Any]]) -> Table:
    """Rows of plain values as a table: a column per key, in the order of the fullest row."""
    keys = list(dict.fromkeys(k for row in sorted(rows, key=lambda row: -len(row)) for k in row))
    def cell(value: Any) -> str:
        return "" if value is None else "yes" if value is True else "no" if value is False else words(value)
    return Table([words(k) for k in keys], [[cell(row.get(k)) for k in keys] for row in rows])


def _count(n: int, name: str) -> str:
    """`3 tokens`, `1 token`: a count of a thing the file names."""
    return f"{n} {words(name)}" + ("" if n == 1 else "s")


def _join(*parts: str) -> str:
    return "; ".join(p for p in parts if p)


def _trees(rules: Rules) -> dict[tuple, Any]:
    """Each DSL string's tree by where the file writes it."""
    return {tuple(s.path): s.tree for s in rules.dsl if s.tree is not None}


def rulebook(rules: Rules, doc: Document, changes: list[Change] | None = None, changes_only: bool = False,
             parent: Rules | None = None) -> Book:
    """The rulebook of a rules file; with `changes` (against its `parent`), marked with them."""
    return _Builder(rules, doc, changes, parent).book(changes_only)


def rulebook_of(path: str, marked: bool = True, changes_only: bool = False) -> Book:
    """The rulebook of the rules file at `path` (RulesError if it does not load); for a file that
    extends another, marked with what differs from its parent unless `marked` is off. A file
    that extends nothing has no changes to show alone: AmunreError."""
    rules, doc = load_rules_and_document(path)
    if not rules.parents:
        if changes_only:
            raise AmunreError(f"{path} extends no other rules file: it has no changes to show")
        return rulebook(rules, doc)
    if not (marked or changes_only):
        return rulebook(rules, doc)
    parent_rules, parent = load_rules_and_document(rules.parents[0])
    return rulebook(rules, doc, diff_documents(parent, doc), changes_only, parent_rules)


