"""The compiled `Rules` of one rules file: plain definitions, compiled DSL and the phases'
mechanics, fixed once built (interpreter/load/build_rules.py makes them); and `Game`, the
game as every layer below interpreter/game.py reaches it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from .base.actions import ActionSpace, Block
from .base.causes import Cause
from .base.errors import Span
from .base.state import GameState
from .dsl import Effect, Expression
from .dsl.names import Vocabulary


@dataclass(frozen=True)
class DeckDef:
    name: str
    of_places: bool = False       # one card per place (the cards are the places' ids)
    sell: int = 0                 # what a card is turned in for; 0: it cannot be sold
    sell_resource: str | None = None
    sell_to_afford: bool = True   # a seat short of sell_resource is asked, to sell or pass, if selling would pay
    reshuffle: bool = False       # an empty deck takes its shuffled discard pile
    hidden: bool = False          # cards in hand are private
    one_per_kind: str | None = None   # a seat plays one card of a kind per phase, round, age or game
    places: tuple[str, ...] = ()  # of places: the places it holds (those its `where` admits)
    display: Expression | None = None   # how many of its cards lie face up beside it, for all to see


@dataclass(frozen=True)
class DeckSetup:
    """How a deck is made ready as a game starts (and again when a reset rebuilds it)."""
    count: Expression | None = None    # use only this many cards; the rest are set aside
    where: Expression | None = None    # use only the places where this holds; the rest are set aside
    stacks: Expression | None = None   # the deck is this many stacks, one after the other
    top: Expression | None = None      # each stack's top card is one where this holds


@dataclass(frozen=True)
class Denominations:
    """A resource held as cards of fixed values (interpreter/play/denominations.py)."""
    resource: str
    values: tuple[int, ...]          # the card values, largest first
    start: tuple[int, ...]           # the cards each seat starts with, largest first
    when: Any                        # an Expression: held as cards only if it holds as a game starts (None: always)


@dataclass(frozen=True)
class CardDef:
    id: str
    deck: str
    count: int
    window: str | None
    effect: Effect | None
    doc: str = ""
    cause: Cause | None = None    # its effect's, in the log and the seat's sources
    sale: Cause | None = None     # selling it, if its deck sells


@dataclass(frozen=True)
class GoodDef:
    """Something a purchase or reward gives: a card drawn from a deck, or a token placed at once."""
    id: str
    draw: str | None = None
    token: str | None = None


@dataclass(frozen=True)
class OptionDef:
    values: tuple[str, ...]
    default: str
    doc: str = ""
    allowed_if: Expression | None = None     # what a game must meet to start (players, options)


@dataclass(frozen=True)
class DslString:
    """One DSL string of the merged rules: where it is (its path in the document), what kind of
    text it is (`expression`, `collection` or `effect`) and its parsed tree (None if it did not
    parse). `amunre fmt` re-prints them, the lint reads what they name."""
    path: tuple[str | int, ...]
    kind: str
    tree: Any


@dataclass(frozen=True)
class Step:
    """Where play stands: the phase running, and the passes of the repeats named `age` and
    `round` (1 where the flow has none), as events, the command line and the DSL tell them."""
    phase: str
    age: int
    round: int


@dataclass(frozen=True)
class FlowNode:
    """One node of the order of play, a tree the rules file writes under `flow:` (or its
    `structure:` builds): load/build_flow.py makes it, play/flow.py walks it."""
    kind: str                             # "phase", "sequence", "repeat" or "branch"
    parent: int                           # the parent node's index; -1 for the root
    name: str | None = None               # a lifetime: it ends each time the node is done (a repeat: a pass)
    children: tuple[int, ...] = ()        # sequence: in order; repeat: (body,) or (body, between)
    phase: str = ""                       # phase: its id
    leaf: int = -1                        # phase: its number among the leaves (state.at)
    times: Expression | None = None       # repeat: how many passes (no seat), or
    until: Expression | None = None       # repeat: it is done when this holds,
    check_before: bool = False            # checked before each pass (else after each)
    counter: int = -1                     # repeat: its place in state.passes
    on: Expression | None = None          # branch: the value that picks a case
    cases: tuple[tuple[Any, int], ...] = ()   # branch: (value, node), in the file's order
    otherwise: int = -1                   # branch: the node when no case matches (-1: none)
    path: tuple[str | int, ...] = ()      # where the rules file writes it (for messages)


@dataclass(frozen=True)
class Flow:
    """The order of play as a tree of nodes (node 0 is the root), with its leaves numbered:
    the state holds a cursor into it (the leaf running, and each repeat's pass), never an
    index into an unrolled list."""
    nodes: tuple[FlowNode, ...]
    leaves: tuple[int, ...]               # leaf number -> its node
    counters: int                         # repeats (the length of state.passes)
    age: int = -1                         # the counter of the repeat named `age` (-1: none)
    round: int = -1                       # the counter of the repeat named `round`
    end_if: Expression | None = None      # the game's own end...
    end_after: int = -1                   # ...checked each time this node is done (-1: after every phase),
    end_then: int = -1                    # ...and then play goes on at this top-level node (-1: the game ends)

    def leaf_phase(self, at: int) -> str:
        return self.nodes[self.leaves[at]].phase

    def phases(self) -> frozenset[str]:
        """Every phase the flow names."""
        return frozenset(self.nodes[leaf].phase for leaf in self.leaves)

    def most_phases(self, unknown_passes: int) -> int:
        """How many phases a game can run at the most: a repeat whose number of passes is not
        fixed counts `unknown_passes`, a branch its longest case."""
        def most(index: int) -> int:
            node = self.nodes[index]
            if node.kind == "phase":
                return 1
            inner = [most(child) for child in node.children]
            if node.kind == "sequence":
                return sum(inner)
            if node.kind == "branch":
                return max(inner, default=0)
            times = node.times.constant if node.times is not None and node.until is None else None
            passes = times if isinstance(times, int) and not isinstance(times, bool) else unknown_passes
            return passes * inner[0] + max(passes - 1, 0) * sum(inner[1:])     # `between` runs one time fewer
        return most(0)


@dataclass
class Plan:
    """A phase's mechanic as the automatic step (interpreter/play/flow.py) drives it, at every
    decision: its contract's methods, bound, and what the step reads of it, in one object of
    one class. Python 3.11 makes an attribute read fast only where it always meets one class;
    read on the mechanics themselves, which are of many classes, each would take the slow path.
    (On hot paths its methods are called through a local, `auto = plan.auto; auto(game)`: as a
    method call, `plan.auto(game)`, the name would be looked up the slow way.) The engine calls
    the methods the plan holds: to wrap one of a mechanic's (as a test may), wrap the plan's."""
    mech: Any
    end_if: Expression | None
    automatic: bool
    auto: Callable[[Any], bool]
    to_move: Callable[[Any], int | None]
    legal: Callable[[Any, int], list[int]]
    apply: Callable[[Any, int, Block, tuple[int, ...]], None]
    pass_turn: Callable[[Any, int], None]
    window: str | None
    window_cards: frozenset[str]              # the cards that may be played in its window
    closing: Block | None
    closing_id: int                           # -1: no closing action
    asks_standing: bool
    closing_ignores_purse: bool

    @classmethod
    def of(cls, mech: Any, window_cards: dict[str, frozenset[str]]) -> Plan:
        return cls(mech, mech.end_if, mech.automatic, mech.auto, mech.to_move, mech.legal, mech.apply,
                   mech.pass_turn, mech.window, window_cards.get(mech.window, frozenset()), mech.closing,
                   -1 if mech.closing is None else mech.closing.base, mech.asks_standing,
                   mech.closing_ignores_purse)


@dataclass(frozen=True)
class WinnerDef:
    score: str                            # the resource that is each seat's score
    by: Expression | None                 # what ranks the seats (default: the score)
    tiebreaks: tuple[Expression, ...]
    report: tuple[str, ...]               # resources listed beside the scores in a result


@dataclass(frozen=True)
class Split:
    """One way a board drawing divides the places: by a place property's values, or by owner."""
    by: str                                # a place property with values, or "owner"
    order: tuple[str, ...]                 # its values in drawing order (every one; none for owner)


@dataclass(frozen=True)
class ExampleCheck:
    """One expectation of a worked example, compiled as the rules load: a DSL condition (with
    each side of a comparison, to say which number differs), or a check of where play stands
    (`phase`, `round`, `age`, `to_move`, `over`, `winners`, `legal`, `illegal`, `events`,
    `no_events`), or of what a seat sees (`hidden`, `shown`)."""
    kind: str
    expected: Any                    # the condition's Expression, or the value expected (seats as numbers)
    text: str                        # as written, for the report
    span: Span
    # each comparison among its `and`-ed parts, as parsed; compiled in `scope` only when the
    # condition fails, to say which part and what each side is (most checks never fail)
    comparisons: tuple[Any, ...] = ()
    scope: Any = None


@dataclass(frozen=True)
class ExampleStep:
    """One step of a worked example: a move (`seat`: who must be to move, or None), bots playing
    `until` a point, or expectations."""
    kind: str                        # move, play or expect
    span: Span
    seat: int | None = None
    action: Any = None               # move: words, a mapping or an id; play: the agent spec
    times: int = 1                   # move: made this many times over
    until: Any = None                # play: {"phase"|"round"|"age": ...} or "end"
    checks: tuple[ExampleCheck, ...] = ()


@dataclass(frozen=True)
class Example:
    """A worked example (`examples:`): a position, its moves, what must hold. `amunre check`
    plays it (tools/examples.py); play never reads it."""
    id: str
    section: str
    about: str
    players: int
    seed: int
    seats: tuple[str, ...]           # the seats' names, in seat order
    setup: dict[str, Any]            # as new_game takes it
    steps: tuple[ExampleStep, ...]
    span: Span


@dataclass(frozen=True)
class Symbol:
    """A place property (or place modifier) a board shows as a small symbol."""
    name: str
    symbol: str
    doc: str = ""


@dataclass(frozen=True)
class Layout:
    """How a program draws the board (`layout:`). Presentation only: play never reads it."""
    title: str = ""
    columns: Split | None = None
    rows: Split | None = None
    between: str = ""                      # a label between the first column and the rest
    show: str = "all"                      # all places, or only those "occupied"
    # The place properties and modifiers a place shows, each with its symbol and what it is
    # (the property's or modifier's doc), in order; the others are folded (none: all in words).
    symbols: tuple[Symbol, ...] = ()


@dataclass(frozen=True, eq=False)
class Rules:
    path: str
    id: str
    title: str
    min_players: int
    max_players: int
    options: dict[str, OptionDef]
    resources: dict[str, int]                 # starting amounts
    resource_max: dict[str, int]              # the most a seat may hold, where declared
    resource_top: dict[str, int]              # the same, at most MAX_AMOUNT (and that where not declared)
    hidden_resources: frozenset[str]          # amounts other seats do not see
    place_ids: tuple[str, ...]
    place_index: dict[str, int]
    place_props: list[dict[str, Any]]
    reconstructed: dict[str, list[str]]
    ownership: bool
    start_owner: tuple[int, ...]              # per place: the seat owning it from the start, -1 for none
    token_supply: dict[str, str]              # token -> the supply it is drawn from
    supply: dict[str, int]
    unlimited_if: dict[str, Expression]       # token -> when its supply never runs out (read at the start)
    denominations: dict[str, Denominations]   # resource -> its card values, when held as cards
    token_capacity: dict[str, tuple[int, ...] | Callable[[Any, int], int]]   # a column, or computed
    conversions: tuple[tuple[str, int, str, Cause], ...]   # count of one token -> one of another
    converted: frozenset[str]                 # tokens some conversion takes: only they trigger one
    goods: dict[str, GoodDef]
    decks: dict[str, DeckDef]
    cards: dict[str, CardDef]
    vocab: Vocabulary
    setup_hand: tuple[str, ...]
    deck_setups: dict[str, DeckSetup]
    flow: Flow                                # the order of play
    phases: dict[str, Any]                    # phase id -> its Mechanic
    leaf_plans: tuple[Plan, ...]              # per leaf of the flow: its phase's mechanic, as the step drives it
    winner: WinnerDef
    actions: ActionSpace
    play_blocks: dict[str, Block]             # card id -> its play actions
    window_cards: dict[str, frozenset[str]]   # card window (of a card or a phase) -> the cards played in it
    standing: Standing | None                 # actions at any decision (selling cards: play/standing.py)
    expiring: dict[str, tuple[str, ...]]      # lifetime -> modifiers that end with it
    digest: str                               # hash of the merged rules data
    start_causes: dict[str, Cause]            # resource names, "hand", "owner", "start_player": the set-up's causes
    year: int | None = None                   # the edition's, as the file gives them (amunre editions)
    publisher: str = ""
    source: str = ""
    dsl: tuple[DslString, ...] = ()           # every DSL string, in the order it was compiled
    parents: tuple[str, ...] = ()             # every file the rules file extends: parent, grandparent...
    layout: Layout = Layout()                 # how the board is drawn (never read in play)
    examples: tuple[Example, ...] = ()        # the file's own worked examples (never read in play)

    def mechanic_at(self, at: int) -> Any:
        """The mechanic of the phase at a leaf of the flow (state.at)."""
        return self.leaf_plans[at].mech


class Game(Protocol):
    """A game as the play layer and the mechanics use it: the rules, the position, the log and
    what the engine keeps beside them. The class that plays is interpreter/game.py's `Game`
    (`amunre.Game`); the layers below it name this protocol instead, so that nothing imports
    upward, and a type checker holds the class to it wherever the engine is handed a game."""

    rules: Rules
    state: GameState
    log: list[dict[str, Any]] | None       # readable events, when the game keeps them
    history: list[int]                     # every action id applied
    setup: dict[str, Any]                  # as new_game was given it
    draws: list[int] | None                # chance answers given from outside, in order
    unlimited: frozenset[str]              # token supplies that never run out in this game
    to_move: int | None                    # the state's, mirrored (see interpreter/game.py)
    over: bool
    # A per-position memo, never saved: the places each seat owns (play/material.py).
    owned: tuple[list[int], list[list[int]]] | None
    # Written by the automatic step (play/flow.py): the ids the seat to move may choose among
    # (None: to be worked out again), and the decisions taken in the step now running.
    decision: list[int] | None
    decisions_in_step: int

    @property
    def step(self) -> Step: ...

    def event(self, event: dict[str, Any]) -> None: ...

    def random_below(self, n: int) -> int: ...

    def shuffle(self, items: list[Any]) -> None: ...

    def set_start_player(self, seat: int, announce: bool = True, cause: Cause | None = None) -> None: ...

    def result(self) -> dict[str, Any]: ...

    def legal_action_ids(self) -> list[int]: ...

    def carry_out(self, seat: int, action_id: int) -> None: ...

    def apply_id(self, action_id: int) -> None: ...

    def clone(self, events: bool | None = None, chance: Callable[[int], int] | None = None) -> Game: ...


class Standing(Protocol):
    """Actions a seat may take at any of its decisions, in every phase, which a rules file opts
    into (play/standing.py: selling cards): the automatic step asks it three things."""

    decline: int                           # the id of declining when asked only for these (-1: none)

    def ids(self, game: Game, seat: int) -> list[int]: ...

    def enables(self, game: Game, legal: Callable[[Game, int], list[int]], seat: int, can: int) -> bool: ...

    def apply(self, game: Game, seat: int, block: Block, indices: tuple[int, ...]) -> None: ...
