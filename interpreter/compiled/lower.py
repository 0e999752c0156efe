"""A loaded `Rules` lowered to what the compiled engine runs on: one flat table of integers
(`T`), the layout of a position as one flat state array (`S`), and the DSL as bytecode.

The lowering walks the rules once, the way the interpreter reads them while it plays: each
place, token, card, deck, modifier, phase, node of the flow and action block becomes a row of
numbers in `T`; each DSL string becomes a program (compiled/lower_dsl.py); each mechanic's
parameters become a row its machine code reads (compiled/lower_mechanics.py). Names become
indices and texts become word ids, so the machine never meets a string. The state's layout
(`Layout`, the offsets of every region of `S`) is fixed here too, and written into `T`'s
header for the machine code. Anything it cannot lower raises `NotCompiled`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..base.errors import AmunreError
from ..base.limits import MAX_AMOUNT
from ..dsl import ast
from ..dsl.checked import NOT_CONSTANT
from ..load.build_flow import RESERVED_LIFETIMES
from ..load.loader import load_document
from ..model import Rules
from ..play.standing import Selling
from . import ops
from .lower_dsl import ProgramWriter
from .lower_tensor import lower_tensor
from .not_compiled import NotCompiled
from .shapes import shape_of

KINDS = {"phase": ops.KIND_PHASE, "sequence": ops.KIND_SEQUENCE, "repeat": ops.KIND_REPEAT,
         "branch": ops.KIND_BRANCH}
ARENA = 1 << 16              # scratch numbers for the lists rules build while they run
CALLS = 1 << 14              # scratch numbers for programs' frames and stacks
SCRATCH = 1 << 16            # scratch numbers for the machine's own lists (orders, legal ids, choices)


@dataclass
class Program:
    code: list[list[int]]
    temps: int
    stack: int
    result_list: bool


@dataclass
class Layout:
    """Where each part of a position lies in the state array, by name: offset and size."""
    regions: dict[str, tuple[int, int]] = field(default_factory=dict)
    size: int = ops.S_HEADER

    def add(self, name: str, size: int) -> int:
        self.regions[name] = (self.size, size)
        self.size += size
        return self.size - size

    def table(self) -> list[tuple[str, int, int]]:
        """(region, offset, size) for every region, in order: the table docs/engine.md shows of a layout."""
        head = [("header", 0, ops.S_HEADER)]
        return head + [(name, at, size) for name, (at, size) in self.regions.items()]


class Lowering:
    """Everything lowered from one Rules: the tables `T` (a list of ints while it is built),
    the programs, the words, the sources, the layout of `S`."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.t: list[int] = [0] * ops.TH_HEADER
        self.programs: list[Program] = []
        self.words: dict[str, int] = {}
        self.keys: dict[str, int] = {}
        self.slots: dict[str, int] = {"it": 0}
        self.columns: dict[int, int] = {}          # id(column tuple) -> its column index
        self.column_data: list[list[int]] = []
        self.row_tables: dict[str, tuple[int, list[str]]] = {}    # table -> (index, its columns)
        self.row_data: list[list[list[int]]] = []
        self.cache: dict[int, int] = {}            # id(Expression) -> program
        self.kept_sizes: dict[str, int] = {}
        self.picks: dict[str, list[tuple[str, Any]]] = {}   # phase -> the (key, value) of each pick it may keep
        self.work_size = 0
        # The rows of the tables each part of the rules lowers to, laid out as they are built:
        self.held_rows: list[list[int]] = []       # resources held as cards
        self.deck_rows: list[list[int]] = []
        self.mod_rows: list[list[int]] = []
        self.life_rows: list[list[int]] = []       # card lifetimes
        self.phase_rows: list[list[int]] = []
        self.layout = Layout()
        self.place_count = len(rules.place_ids)
        self.resources = list(rules.resources)
        self.tokens = list(rules.token_supply)
        self.supplies = list(rules.supply)
        self.decks = list(rules.decks)
        self.cards = list(rules.cards)
        self.card_index = {c: i for i, c in enumerate(self.cards)}
        self.phases = list(rules.phases)
        self.mods = {mod.name: (i, mod) for i, mod in enumerate(rules.vocab.all_modifiers().values())}
        lifetimes = list(RESERVED_LIFETIMES) + [n.name for n in rules.flow.nodes if n.name]
        lifetimes += [m.lasts for _, m in self.mods.values() if m.lasts not in lifetimes]
        lifetimes += [d.one_per_kind for d in rules.decks.values()
                      if d.one_per_kind and d.one_per_kind not in lifetimes]
        self.lifetimes = list(dict.fromkeys(lifetimes))
        windows = {c.window for c in rules.cards.values() if c.window} | {
            getattr(m, "window", None) for m in rules.phases.values()} | set(rules.window_cards)
        self.windows = sorted(w for w in windows if w)

    # ---- small look-ups the bytecode writer asks for ---------------------------------------------
    def word(self, text: str) -> int:
        if text not in self.words:
            self.words[text] = len(self.words)
        return self.words[text]

    def value(self, value: Any, rule: Any = None) -> int:
        """A constant of the DSL or the rules file as the machine holds it."""
        if value is None:
            return -1
        if isinstance(value, bool):
            return int(value)
        if isinstance(value, int):
            if abs(value) >= ops.LIMIT:
                raise NotCompiled(f"the number {value}", rule)
            return value
        if isinstance(value, str):
            return self.word(value)
        raise NotCompiled(f"the constant {value!r}", rule)

    def written(self, path: tuple[str | int, ...]) -> Any:
        """Where the rules file writes the value at `path` (its file and line), for a piece that
        no DSL rule holds; the file alone where it cannot be read again."""
        try:
            return load_document(self.rules.path).span(path)
        except (AmunreError, OSError):
            return self.rules.path

    def key(self, cause: Any) -> int:
        """The source key of a cause (what `state.sources` files a change under)."""
        if cause is None:
            return -1
        name = cause.id
        if name not in self.keys:
            self.keys[name] = len(self.keys)
        return self.keys[name]

    def slot(self, name: str) -> int:
        if name not in self.slots:
            self.slots[name] = len(self.slots)
        return self.slots[name]

    def const_list(self, values: list[int]) -> int:
        return self.put([len(values), *values])

    def put(self, values: list[int]) -> int:
        at = len(self.t)
        self.t.extend(int(v) for v in values)
        return at

    def option(self, name: str) -> int:
        return list(self.rules.options).index(name)

    def modifier(self, name: str, rule: Any = None) -> int:
        if name not in self.mods:
            raise NotCompiled(f"the modifier '{name}'", rule)
        return self.mods[name][0]

    def token(self, name: str) -> int:
        return self.tokens.index(name)

    def resource(self, name: str) -> int:
        return self.resources.index(name)

    def deck(self, name: str) -> int:
        return self.decks.index(name)

    def column(self, attr: Any, rule: Any = None) -> int:
        key = id(attr.column)
        if key not in self.columns:
            self.columns[key] = len(self.column_data)
            self.column_data.append([self.value(v, rule) for v in attr.column])
        return self.columns[key]

    def row_column(self, table: str, column: str, rule: Any = None) -> tuple[int, int]:
        if table not in self.row_tables:
            raise NotCompiled(f"the row table '{table}'", rule)
        index, columns = self.row_tables[table]
        return index, columns.index(column) if column in columns else -1

    def row_table(self, name: str, rows: list[dict[str, Any]]) -> int:
        """A table of rows (a phase's tiles) the DSL reads as `NAME.COLUMN`: its index."""
        columns = list(dict.fromkeys(k for row in rows for k in row))
        self.row_tables[name] = (len(self.row_data), columns)
        self.row_data.append([[self.value(row.get(c, 0)) for c in columns] for row in rows])
        return len(self.row_data) - 1

    def member(self, name: str, rule: Any = None) -> tuple[int, int, int]:
        """A `PHASE.NAME` (or `DECK.left`) the DSL reads: (member kind, phase, argument)."""
        owner, _, member = name.partition(".")
        if owner in self.rules.decks and member == "left" and owner not in self.rules.phases:
            return ops.MEMBER_DECK_LEFT, 0, self.deck(owner)
        from .lower_mechanics import member_of
        phase = self.rules.phases.get(owner)
        found = None if phase is None else member_of(self, owner, phase, member)
        if found is None:
            raise NotCompiled(f"the name '{name}'", rule)
        return found

    # ---- programs --------------------------------------------------------------------------------
    def program(self, expression: Any) -> int:
        """The program of a compiled Expression (-1 for none)."""
        if expression is None:
            return -1
        known = self.cache.get(id(expression))
        if known is not None:
            return known
        writer = ProgramWriter(self, expression.checked, expression.rule)
        if expression.constant is not NOT_CONSTANT:
            writer.constant(expression.constant)
        elif expression.tree is None or expression.checked is None:
            raise NotCompiled("a rule that did not compile", expression.rule)
        else:
            writer.expr(expression.tree, 0)
        result_list = expression.type.kind == "list"
        index = self.add_program(writer, result_list)
        self.cache[id(expression)] = index
        return index

    def add_program(self, writer: ProgramWriter, result_list: bool) -> int:
        writer.emit(ops.OP_HALT)
        self.programs.append(Program(writer.code, writer.temps, writer.most + 1, result_list))
        return len(self.programs) - 1

    def effect(self, effect: Any) -> int:
        """An effect (choices, requirements, body) as a row of the effects table (-1 for none)."""
        if effect is None:
            return -1
        known = self.cache.get(id(effect))
        if known is not None:
            return known
        checked = getattr(effect, "checked", None)
        if effect.tree is None or checked is None:
            if effect.tree is None and not effect.choices and not effect.requires:
                body = ProgramWriter(self, None, effect.rule)
                row = [self.add_program(body, False), 0, self.put([]), 0, self.put([])]
                self.cache[id(effect)] = self.effects_add(row)
                return self.cache[id(effect)]
            raise NotCompiled("an effect that did not compile", effect.rule)
        body = ProgramWriter(self, checked, effect.rule)
        choices, requires = [], []
        for stmt in effect.tree.body:
            if isinstance(stmt, ast.Choose):
                writer = ProgramWriter(self, checked, effect.rule)
                writer.expr(stmt.options, 0)
                choice = checked.choices.get(id(stmt))
                kind = {"places": ops.CHOICE_PLACES, "seats": ops.CHOICE_SEATS}.get(
                    choice.kind if choice else "values", ops.CHOICE_VALUES_KIND)
                values = [self.value(v, effect.rule) for v in (choice.values if choice else ())]
                choices.append([self.slot(stmt.name.name), self.add_program(writer, True), kind, len(values),
                                self.put(values)])
            elif isinstance(stmt, ast.Require):
                writer = ProgramWriter(self, checked, effect.rule)
                writer.expr(stmt.cond, 0)
                requires.append([checked.require_levels.get(id(stmt), 0), self.add_program(writer, False)])
            else:
                body.stmt(stmt)
        row = [self.add_program(body, False), len(choices), self.put([x for c in choices for x in c]),
               len(requires), self.put([x for r in requires for x in r])]
        index = self.effects_add(row)
        self.cache[id(effect)] = index
        return index

    def effects_add(self, row: list[int]) -> int:
        self.effect_rows.append(row)
        return len(self.effect_rows) - 1

    effect_rows: list[list[int]]


def lower(rules: Rules) -> tuple[Lowering, np.ndarray]:
    """Lower the rules: (the lowering, with its words, keys and layout; the table array T)."""
    lowering = Lowering(rules)
    lowering.effect_rows = []
    _lower_all(lowering)
    return lowering, _finish(lowering)


def _lower_all(lowering: Lowering) -> None:
    rules, t = lowering.rules, lowering.t
    if rules.denominations:
        from .lower_mechanics import lower_held
        lowering.held_rows = lower_held(lowering)
    else:
        lowering.held_rows = []
    t[ops.TH_PLACES] = lowering.place_count
    t[ops.TH_SEATS] = rules.max_players
    t[ops.TH_MIN_PLAYERS] = rules.min_players
    t[ops.TH_RES] = len(lowering.resources)
    t[ops.TH_TOKENS] = len(lowering.tokens)
    t[ops.TH_SUPPLIES] = len(lowering.supplies)
    t[ops.TH_CARDS] = len(lowering.cards)
    t[ops.TH_DECKS] = len(lowering.decks)
    t[ops.TH_MODS] = len(lowering.mods)
    t[ops.TH_PHASES] = len(lowering.phases)
    t[ops.TH_LEAVES] = len(rules.flow.leaves)
    t[ops.TH_COUNTERS] = rules.flow.counters
    t[ops.TH_OPTIONS] = len(rules.options)
    t[ops.TH_ACTIONS] = rules.actions.size
    t[ops.TH_LIFETIMES] = len(lowering.lifetimes)
    t[ops.TH_NODES] = len(rules.flow.nodes)
    t[ops.TH_BLOCKS] = len(rules.actions.blocks)
    t[ops.TH_WINDOWS] = len(lowering.windows)
    t[ops.TH_GOODS] = len(rules.goods)
    t[ops.TH_CONVERSIONS] = len(rules.conversions)
    t[ops.TH_RES_START] = lowering.put([rules.resources[r] for r in lowering.resources])
    t[ops.TH_RES_MAX] = lowering.put([rules.resource_max.get(r, -1) for r in lowering.resources])
    t[ops.TH_RES_TOP] = lowering.put([rules.resource_top[r] for r in lowering.resources])
    t[ops.TH_RES_HIDDEN] = lowering.put([int(r in rules.hidden_resources) for r in lowering.resources])
    t[ops.TH_START_OWNER] = lowering.put(list(rules.start_owner))
    t[ops.TH_WORDS_PLACE] = lowering.put([lowering.word(p) for p in rules.place_ids])
    _material(lowering)
    _decks(lowering)
    _cards(lowering)
    _modifiers(lowering)
    _blocks(lowering)
    _options(lowering)
    _phases(lowering)
    _flow(lowering)
    _winner(lowering)
    _setup(lowering)


def _material(lowering: Lowering) -> None:
    rules, t = lowering.rules, lowering.t
    t[ops.TH_TOKEN_SUPPLY] = lowering.put([lowering.supplies.index(rules.token_supply[k]) for k in lowering.tokens])
    caps = []
    for token in lowering.tokens:
        caps += _capacity(lowering, token, rules.token_capacity.get(token))
    t[ops.TH_TOKEN_CAPACITY] = lowering.put(caps)
    t[ops.TH_SUPPLY_START] = lowering.put([rules.supply[s] for s in lowering.supplies])
    t[ops.TH_UNLIMITED_IF] = lowering.put([lowering.program(rules.unlimited_if.get(s)) for s in lowering.supplies])
    t[ops.TH_CONVERTED] = lowering.put([int(k in rules.converted) for k in lowering.tokens])
    t[ops.TH_CONVERSION] = lowering.put([x for source, count, target, cause in rules.conversions
                                    for x in (lowering.token(source), count, lowering.token(target),
                                              lowering.key(cause))])
    t[ops.TH_GOOD] = lowering.put([x for good in rules.goods.values()
                              for x in (lowering.deck(good.draw) if good.draw else -1,
                                        lowering.token(good.token) if good.token else -1)])


def _capacity(lowering: Lowering, token: str, capacity: Any) -> list[int]:
    """How a token's capacity is read: (CAP_*, the column). The rules keep a printed property's
    column itself; a capacity computed by a function (another attribute) is not compiled."""
    if capacity is None:
        return [ops.CAP_NONE, 0]
    if isinstance(capacity, tuple):
        for attr in lowering.rules.vocab.place_attrs.values():
            if attr.column is capacity:
                return [ops.CAP_COLUMN, lowering.column(attr)]
    raise NotCompiled("a token capacity read from an attribute other than a printed property",
                      lowering.written(("tokens", token, "capacity")))


def _decks(lowering: Lowering) -> None:
    rules = lowering.rules
    rows = []
    for name in lowering.decks:
        deck = rules.decks[name]
        if deck.of_places:
            places = [rules.place_index[p] for p in deck.places]
            cards = [x for p in deck.places for x in (lowering.card_index[p], 1)]
        else:
            places = []
            cards = [x for c in rules.cards.values() if c.deck == name for x in (lowering.card_index[c.id], c.count)]
        cap = sum(cards[1::2])
        lifetime = lowering.lifetimes.index(deck.one_per_kind) if deck.one_per_kind else -1
        rows.append([int(deck.of_places), deck.sell,
                     lowering.resource(deck.sell_resource) if deck.sell_resource else -1,
                     int(deck.sell_to_afford), int(deck.reshuffle), int(deck.hidden), lifetime,
                     lowering.program(deck.display), cap, 0, 0, 0, 0, lowering.put(places), len(places),
                     lowering.put(cards), len(cards) // 2])
    lowering.deck_rows = rows
    lowering.t[ops.TH_DECK] = lowering.put([x for row in rows for x in row])
    setups = []
    for name in lowering.decks:
        spec = rules.deck_setups.get(name)
        setups += [-1] * 4 if spec is None else [lowering.program(spec.count), lowering.program(spec.where),
                                                  lowering.program(spec.stacks), lowering.program(spec.top)]
    lowering.t[ops.TH_DECK_SETUP] = lowering.put(setups)


def _cards(lowering: Lowering) -> None:
    rules = lowering.rules
    ranks = {c: i for i, c in enumerate(sorted(rules.cards))}
    rows = []
    for cid in lowering.cards:
        card = rules.cards[cid]
        play = rules.play_blocks.get(cid)
        rows.append([lowering.deck(card.deck), card.count, lowering.windows.index(card.window) if card.window else -1,
                     lowering.effect(card.effect) if play is not None else -1, lowering.key(card.cause),
                     lowering.key(card.sale),
                     rules.place_index.get(cid, -1), lowering.word(cid), -1 if play is None else _block_index(rules,
                                                                                                              play),
                     ranks[cid]])
    lowering.t[ops.TH_CARD] = lowering.put([x for row in rows for x in row])
    lowering.t[ops.TH_PLACE_CARD] = lowering.put([lowering.card_index.get(p, -1) if _in_deck_of_places(rules, p) else -1
                                        for p in rules.place_ids])
    windows = []
    for window in lowering.windows:
        cards = sorted(rules.window_cards.get(window, ()))
        windows.append(lowering.put([len(cards), *[lowering.card_index[c] for c in cards]]))
    lowering.t[ops.TH_WINDOW] = lowering.put(windows)


def _in_deck_of_places(rules: Rules, place: str) -> bool:
    card = rules.cards.get(place)
    return card is not None and rules.decks[card.deck].of_places


def _block_index(rules: Rules, block: Any) -> int:
    return next(i for i, b in enumerate(rules.actions.blocks) if b is block)


def _modifiers(lowering: Lowering) -> None:
    rules = lowering.rules
    rows = []
    for _, mod in lowering.mods.values():
        scope = {"seat": ops.SCOPE_SEAT, "place": ops.SCOPE_PLACE, "game": ops.SCOPE_GAME}[mod.scope]
        size = rules.max_players if scope == ops.SCOPE_SEAT else lowering.place_count if scope == ops.SCOPE_PLACE else 1
        rows.append([0, scope, lowering.value(mod.default), size, lowering.lifetimes.index(mod.lasts)])
    lowering.mod_rows = rows
    lifetimes = []
    for name in lowering.lifetimes:
        expiring = [lowering.mods[m][0] for m in rules.expiring.get(name, ())]
        lifetimes.append([lowering.put(expiring), len(expiring), -1])
    lowering.life_rows = lifetimes


def _blocks(lowering: Lowering) -> None:
    space = lowering.rules.actions
    rows = []
    for block in space.blocks:
        rows.append([block.base, block.size, block.rank, len(block.fields), lowering.put(list(block.strides)), 0, 0, 0])
    lowering.t[ops.TH_BLOCK] = lowering.put([x for row in rows for x in row])
    index = {id(b): i for i, b in enumerate(space.blocks)}
    lowering.t[ops.TH_BLOCK_OF] = lowering.put([index[id(b)] for b in space.block_at])
    standing = lowering.rules.standing
    if standing is not None and not isinstance(standing, Selling):
        raise NotCompiled(f"standing actions of {type(standing).__name__}")
    head = [-1, -1] if standing is None else [standing.block.base, standing.decline]
    per_card = []
    for cid in lowering.cards:
        card = lowering.rules.cards[cid]
        deck = lowering.rules.decks[card.deck]
        sale = -1 if standing is None else standing.id_of.get(cid, -1)
        per_card += [sale, lowering.resource(deck.sell_resource) if deck.sell_resource else -1, deck.sell,
                     int(standing is not None and cid in standing.to_afford)]
    lowering.t[ops.TH_STANDING] = lowering.put(head + per_card)
    sellable = sorted((sale, card) for card, sale in enumerate(per_card[0::4]) if sale >= 0)
    lowering.t[ops.TH_SELLABLE] = lowering.put([len(sellable), *[card for _, card in sellable]])


def _options(lowering: Lowering) -> None:
    rows = []
    for option in lowering.rules.options.values():
        values = [lowering.value(v) for v in option.values]
        rows.append(lowering.put([lowering.value(option.default), lowering.program(option.allowed_if), len(values),
                                  *values]))
    lowering.t[ops.TH_OPTION] = lowering.put(rows)


def _phases(lowering: Lowering) -> None:
    from .lower_mechanics import lower_phase
    rules = lowering.rules
    rows = []
    for pid in lowering.phases:
        mech = rules.phases[pid]
        plan = next((p for p in rules.leaf_plans if p.mech is mech), None)
        kind, params, work, kept = lower_phase(lowering, pid, mech)
        lowering.work_size = max(lowering.work_size, work)
        lowering.kept_sizes[pid] = kept
        order, order_expr, highest = _order(lowering, mech.turns)
        window = getattr(mech, "window", None)
        rows.append([kind, params, lowering.program(mech.skip_if), lowering.program(mech.end_if), order, order_expr,
                     highest,
                     lowering.windows.index(window) if window else -1,
                     plan.closing_id if plan is not None else (-1 if mech.closing is None else mech.closing.base),
                     int(mech.asks_standing), int(mech.closing_ignores_purse), int(mech.automatic), 0,
                     lowering.word(pid), -1, -1])
    lowering.phase_rows = rows
    lowering.t[ops.TH_LEAF_PHASE] = lowering.put([lowering.phases.index(rules.flow.leaf_phase(at))
                                        for at in range(len(rules.flow.leaves))])


def _order(lowering: Lowering, spec: Any) -> tuple[int, int, int]:
    if spec == "clockwise":
        return ops.ORDER_CLOCKWISE, -1, 0
    if spec == "counterclockwise":
        return ops.ORDER_COUNTER, -1, 0
    if isinstance(spec, tuple):
        return ops.ORDER_BY, lowering.program(spec[0]), int(bool(spec[1]))
    return ops.ORDER_FROM, lowering.program(spec), 0


def _flow(lowering: Lowering) -> None:
    flow = lowering.rules.flow
    rows = []
    for node in flow.nodes:
        cases = [x for value, child in node.cases for x in (lowering.value(value), child)]
        inner = _inner_repeats(flow, node)
        rows.append([KINDS[node.kind], node.parent, lowering.lifetimes.index(node.name) if node.name else -1,
                     lowering.put(list(node.children)), len(node.children), node.leaf, lowering.program(node.times),
                     lowering.program(node.until), int(node.check_before), node.counter, lowering.program(node.on),
                     lowering.put(cases), len(node.cases), node.otherwise, lowering.put(inner), len(inner)])
    lowering.t[ops.TH_NODE] = lowering.put([x for row in rows for x in row])
    lowering.t[ops.TH_LEAF_NODE] = lowering.put(list(flow.leaves))
    lowering.t[ops.TH_FLOW] = lowering.put([flow.age, flow.round, lowering.program(flow.end_if), flow.end_after,
                                            flow.end_then])


def _inner_repeats(flow: Any, node: Any) -> list[int]:
    """The counters of the repeats below a node, in the order cursor._new_pass resets them."""
    found, stack = [], list(node.children)
    while stack:
        inner = flow.nodes[stack.pop()]
        if inner.kind == "repeat":
            found.append(inner.counter)
        stack.extend(inner.children)
    return found


def _winner(lowering: Lowering) -> None:
    winner = lowering.rules.winner
    tiebreaks = [lowering.program(e) for e in winner.tiebreaks]
    report = [lowering.resource(r) for r in winner.report]
    lowering.t[ops.TH_WINNER] = lowering.put([lowering.resource(winner.score), lowering.program(winner.by),
                                              len(tiebreaks),
                                    lowering.put(tiebreaks), len(report), lowering.put(report)])


def _setup(lowering: Lowering) -> None:
    hand = [lowering.card_index[c] for c in lowering.rules.setup_hand]
    lowering.t[ops.TH_SETUP_HAND] = lowering.put([len(hand), *hand])


# ---- the layout of S, and the last sections of T -------------------------------------------------

def _finish(lowering: Lowering) -> np.ndarray:
    rules, t, lay = lowering.rules, lowering.t, lowering.layout
    seats, places = rules.max_players, lowering.place_count
    nres, ncards, nkeys = len(lowering.resources), len(lowering.cards), max(len(lowering.keys), 1)
    t[ops.TH_KEYS] = nkeys
    t[ops.TH_SLOTS] = len(lowering.slots)
    t[ops.TH_S_PASSES] = lay.add("passes", rules.flow.counters)
    t[ops.TH_S_OPTIONS] = lay.add("options", len(rules.options))
    t[ops.TH_S_UNLIMITED] = lay.add("unlimited", len(lowering.supplies))
    t[ops.TH_S_RES] = lay.add("resources", seats * nres)
    t[ops.TH_S_SOURCES] = lay.add("sources", seats * nres * nkeys)
    t[ops.TH_S_HANDS] = lay.add("hands", seats * ncards)
    t[ops.TH_S_HAND_SIZE] = lay.add("hand_sizes", seats)
    t[ops.TH_S_OWNER] = lay.add("owner", places)
    t[ops.TH_S_TOKENS] = lay.add("tokens", places * len(lowering.tokens))
    t[ops.TH_S_SUPPLY] = lay.add("supply", len(lowering.supplies))
    for name, row in zip(lowering.decks, lowering.deck_rows):
        cap = row[ops.DECK_CAP]
        for pile, slot in (("draw", ops.DECK_S_DRAW), ("discard", ops.DECK_S_DISCARD), ("boxed", ops.DECK_S_BOXED),
                           ("shown", ops.DECK_S_SHOWN)):
            row[slot] = lay.add(f"deck {name} {pile}", 1 + cap)
    for name, row in zip(lowering.mods, lowering.mod_rows):
        row[ops.MOD_S] = lay.add(f"modifier {name}", 1 + row[ops.MOD_SIZE])
    played = {rules.decks[d].one_per_kind for d in lowering.decks if rules.decks[d].one_per_kind}
    for name, row in zip(lowering.lifetimes, lowering.life_rows):
        if name in played:
            row[ops.LIFE_PLAYED] = lay.add(f"played {name}", seats * ncards)
    for pid, row in zip(lowering.phases, lowering.phase_rows):
        size = lowering.kept_sizes[pid]
        row[ops.PHASE_KEPT] = lay.add(f"kept {pid}", 1 + size) if size else -1
    t[ops.TH_HELD] = len(lowering.held_rows)
    for row in lowering.held_rows:
        row[ops.HELD_S] = lay.add(f"held {lowering.resources[row[ops.HELD_RES]]}", seats * row[ops.HELD_N_VALUES])
    t[ops.TH_S_PICKS] = lay.size
    for pid, row in zip(lowering.phases, lowering.phase_rows):
        picks = lowering.picks.get(pid, [])
        row[ops.PHASE_PICKS] = lay.add(f"picks {pid}", len(picks)) if picks else -1
    t[ops.TH_PICKS_SIZE] = lay.size - t[ops.TH_S_PICKS]
    t[ops.TH_S_WORK] = lay.add("working", lowering.work_size)
    t[ops.TH_S_WORK_SIZE] = lowering.work_size
    cap = rules.actions.size + 16
    t[ops.TH_LEGAL_CAP] = cap
    t[ops.TH_S_LEGAL] = lay.add("legal", cap)          # last: a position's copy may stop after its legal ids
    t[ops.TH_S_SIZE] = lay.size
    t[ops.TH_TENSOR], firsts = lower_tensor(lowering)
    for pid, row in zip(lowering.phases, lowering.phase_rows):
        row[ops.PHASE_TENSOR] = firsts[pid]
    t[ops.TH_DECK] = lowering.put([x for row in lowering.deck_rows for x in row])
    t[ops.TH_MOD] = lowering.put([x for row in lowering.mod_rows for x in row])
    t[ops.TH_LIFETIME] = lowering.put([x for row in lowering.life_rows for x in row])
    t[ops.TH_PHASE] = lowering.put([x for row in lowering.phase_rows for x in row])
    t[ops.TH_KEPT] = lowering.put([row[ops.PHASE_KEPT] for row in lowering.phase_rows])
    t[ops.TH_HELD_DEF] = lowering.put([x for row in lowering.held_rows for x in row])
    t[ops.TH_EFFECT] = lowering.put([x for row in lowering.effect_rows for x in row])
    t[ops.TH_COLUMNS] = lowering.put([x for column in lowering.column_data for x in column])
    t[ops.TH_ROWS] = lowering.put(_rows(lowering))
    code: list[int] = []
    table: list[int] = []
    for program in lowering.programs:
        shape = shape_of(program.code, program.result_list)
        table += [len(code) // 4, program.temps, program.stack, int(program.result_list),
                  -1 if shape is None else lowering.put(shape)]
        code += [x for instruction in program.code for x in instruction]
    t[ops.TH_PROGRAM] = lowering.put(table)
    t[ops.TH_CODE] = lowering.put(code)
    base = len(t)                       # the scratch room follows the tables in M, then the parts' addresses
    t[ops.TH_X_ENV] = base
    t[ops.TH_X_CALLS] = base + len(lowering.slots)
    t[ops.TH_X_ARENA] = t[ops.TH_X_CALLS] + CALLS
    t[ops.TH_X_SCRATCH] = t[ops.TH_X_ARENA] + ARENA
    t[ops.TH_X_SIZE] = t[ops.TH_X_SCRATCH] + 8 * rules.actions.size + SCRATCH
    t[ops.TH_H] = t[ops.TH_X_SIZE]
    if max(abs(v) for v in t) >= 1 << 63:
        raise NotCompiled("a number beyond the machine's 64 bits")
    return np.array(t, dtype=np.int64)


def _rows(lowering: Lowering) -> list[int]:
    """The row tables: per table its offset, then each table as rows, columns and values."""
    head: list[int] = []
    body: list[int] = []
    at = len(lowering.t) + len(lowering.row_data)
    for rows in lowering.row_data:
        head.append(at + len(body))
        width = len(rows[0]) if rows else 0
        body += [len(rows), width] + [x for row in rows for x in row]
    return head + body


MAX_AMOUNT_CHECK = MAX_AMOUNT
