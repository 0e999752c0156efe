"""What every mechanic primitive declares and answers, and the parameters every phase has.

A mechanic is one named building block (auction, market, ...) with declared parameters,
action kinds, events, hidden fields and DSL names. The engine (interpreter/play/flow.py) drives
it through a small contract, the rules of the phase:

- `begin(game)`: set up the phase's working data in `state.working` (plain data);
- `auto(game) -> bool`: do the next piece of automatic work that is due (reveal, resolve,
  pay, score), if any; the engine calls it until it says False;
- `to_move(game)`: who decides next (None: nobody, the phase is over); a pure question;
- `legal(game, seat)`: the ids of that seat's own actions, in id order; a pure question. An
  empty list means the seat has nothing to decide here: the engine calls `pass_turn`;
- `apply(game, seat, block, indices)`: carry out one legal action;
- `pass_turn(game, seat)`: the seat had nothing of this phase to decide;
- `end(game)`: the phase ends (maybe early): put back what only it holds;
- `closing`: the block of the action that closes a seat's turn. When it is all a seat could
  do (no card to play either), the engine takes it for the seat, unless `asks_standing` and
  the seat has standing actions (cards it may sell);
- `deferred(game, seat, block, indices)`: what a legal action commits the seat to later, by
  resource, should it stand (a bid's price, paid when it wins): beside what carrying it out on
  a copy shows at once, it is what an action would cost (interpreter/play/outcomes.py);

and what a seat may observe of it (interpreter/play/observe.py): `observe(data, seat)` masks
its working data, `private(game, seat)` gives the facts only that seat sees, and
`tensor_pieces(rules)` its part of the observation tensor.

Nothing else is asked of a mechanic here. What a tool needs of a phase beside the rules and
the observation is the tool's own business, kept in a registry of the tool's, by mechanic
class, of small functions that read the mechanic's public attributes (tools/mechanic_hooks.py):
the cards a phase moves whatever the players decide (the lint's `DECK_FLOWS`,
tools/lint_decks.py), what it would give a seat now (the agents' `FORECASTS`,
tools/agents/forecast.py), what it keeps secret and how a guess draws it anew
(the determinization's `HIDDEN_CARDS`, `SEEN_CARDS`, `RESAMPLE`, tools/determinize.py), and
what it keeps that counts as a pick (simulate's `PICKED_KEYS`, `POSSIBLE_PICKS`,
tools/simulate/picks.py). The engine never imports the tools, so a hook only a tool calls
would be code the engine carries for nobody it knows; tests/test_mechanic_contract.py keeps
them out of this class.

Card plays and standing actions are not a mechanic's business: the engine adds the plays of
the card window the phase opens (`window`, interpreter/play/cards.py) and the standing
actions the rules opt into (interpreter/play/standing.py: selling cards; a seat that selling
would let do more is asked to sell, or to `pass`, rather than skipped), in one layer for
every phase.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any, ClassVar

from ..base.actions import ActionSpace, Block
from ..base.limits import MAX_PLAYERS
from ..base.state import plain_copy
from ..dsl import Expression
from ..dsl.checked import Scope
from ..dsl.context import Ctx
from ..dsl.names import Member, ModifierDef
from ..dsl.types import BOOL, NUM, SEAT
from ..model import Game, Rules
from .params import Builder, Expr, Param, PhaseBuilder

SEATS = list(range(MAX_PLAYERS))     # every seat number: a run of seats is a slice of it


@dataclass(frozen=True)
class Doc:
    """A line of a mechanic's reference: an action, an event or a hidden field, and what it is."""
    name: str
    example: str
    meaning: str


class Order(Param):
    """Turn order: `clockwise` (from the start player), `counterclockwise`, `{from: SEAT}`
    (clockwise from that seat), or `{by: EXPR, highest_first: true}` (seats ranked by EXPR,
    ties clockwise)."""
    kind = "turn order"

    def value_schema(self) -> dict[str, Any]:
        ranked = {"type": "object", "additionalProperties": False, "required": ["by"], "properties": {
            "by": {"description": "Expression per seat (`my` = that seat): seats in order of it.",
                   "$ref": "#/$defs/expression"},
            "highest_first": {"description": "Highest value first (default true).", "type": "boolean"}}}
        start = {"type": "object", "additionalProperties": False, "required": ["from"], "properties": {
            "from": {"description": "Expression (no seat) giving the seat that goes first; the others follow "
                     "clockwise.", "$ref": "#/$defs/expression"}}}
        return {"oneOf": [{"enum": ["clockwise", "counterclockwise"]}, ranked, start]}

    def compile(self, build: Builder, path: tuple) -> Any:
        value = build.get(path)
        if isinstance(value, str):
            return value
        if "from" in value:
            return build.expression(path + ("from",), Scope(seat=False), SEAT)
        by = build.expression(path + ("by",), Scope(), NUM)
        return (by, value.get("highest_first", True))


PHASE_PARAMS: tuple[Param, ...] = (
    Order("order", "Turn order in this phase: `clockwise` from the start player (the default), "
          "`counterclockwise`, `{from: SEAT}` (clockwise from that seat) or `{by: EXPR, highest_first: true}`.",
          default="clockwise"),
    Expr("skip_if", "Condition (no seat): when it holds as the phase would start, the phase is skipped.",
         scope=Scope(seat=False), type=BOOL),
    Expr("end_if", "Condition (no seat): when it holds, the phase ends at once, whatever is left undone.",
         scope=Scope(seat=False), type=BOOL),
)


class Mechanic:
    name: ClassVar[str]
    doc: ClassVar[str] = ""
    params: ClassVar[tuple[Param, ...]] = ()
    actions: ClassVar[tuple[Doc, ...]] = ()
    events: ClassVar[tuple[Doc, ...]] = ()
    hidden: ClassVar[tuple[Doc, ...]] = ()
    queries: ClassVar[dict[str, Member]] = {}           # readable in the DSL as <phase id>.<name>
    modifiers: ClassVar[dict[str, ModifierDef]] = {}     # settable in the DSL as <phase id>.<name>

    window: str | None = None          # the card window open while a seat decides
    closing: Block | None = None       # the action that closes a seat's turn
    asks_standing: bool = False        # a seat with standing actions (cards it may sell) is asked before closing
    # When closing is all a seat may do, more of any resource would not let it do more: the
    # engine then need not work out whether a standing action would let it do more (standing.enables).
    closing_ignores_purse: ClassVar[bool] = False
    automatic: ClassVar[bool] = False  # it has automatic work: the engine calls `auto`

    def __init__(self, phase_id: str, build: PhaseBuilder) -> None:
        """`build` is the phase's view of interpreter/load/build_rules.py's Build; `build.params` holds the compiled
        parameters (the phase's own and every phase's)."""
        self.phase_id = phase_id
        self.p = build.params
        self.turns = self.p.order
        self.skip_if = self.p.skip_if
        self.end_if = self.p.end_if

    @classmethod
    def members(cls, phase_id: str, spec: dict[str, Any]) -> dict[str, Member]:
        """The names this phase adds to the DSL (before any string is compiled)."""
        found = dict(cls.queries)
        found.update({name: Member(NUM, modifier=mod.renamed(f"{phase_id}.{name}"), doc=mod.doc)
                      for name, mod in cls.modifiers.items()})
        return found

    @classmethod
    def tables(cls, phase_id: str, spec: dict[str, Any]) -> dict[str, dict[str, Any]]:
        """Row tables this phase's names read (table name -> column types)."""
        return {}

    @classmethod
    def words(cls, phase_id: str, spec: dict[str, Any]) -> dict[str, tuple[str, ...]]:
        """Enums this phase's names take, by name, with the words (bare DSL names) of each."""
        return {}

    def modifier(self, name: str) -> ModifierDef:
        """This phase's own modifier, named `<phase id>.<name>` in the DSL and the state."""
        return self.modifiers[name].renamed(f"{self.phase_id}.{name}")

    def declare(self, space: ActionSpace, material: SimpleNamespace) -> None:
        """Declare this mechanic's action blocks (called once, before ids are numbered)."""

    def describe(self) -> str:
        """One plain-English sentence about what this phase does with its parameters."""
        return self.doc.split(". ")[0].rstrip(".") + "."

    # ---- the contract -------------------------------------------------------------------------
    def begin(self, game: Game) -> None:
        game.state.working = {}

    def auto(self, game: Game) -> bool:
        return False

    def to_move(self, game: Game) -> int | None:
        return None

    def legal(self, game: Game, seat: int) -> list[int]:
        return []

    def apply(self, game: Game, seat: int, block: Block, indices: tuple[int, ...]) -> None:
        raise NotImplementedError(f"{self.name} has no actions")

    def pass_turn(self, game: Game, seat: int) -> None:
        raise NotImplementedError(f"{self.name} asked a seat with nothing to decide")

    def end(self, game: Game) -> None:
        """The phase ends (maybe early, by `end_if`): put back anything only it was holding."""

    def deferred(self, game: Game, seat: int, block: Block, indices: tuple[int, ...]) -> dict[str, int]:
        """What this legal action commits the seat to later, by resource (negative: to pay),
        should the choice stand: nothing, for a mechanic whose actions change what they change
        at once."""
        return {}

    # ---- information ---------------------------------------------------------------------------
    def observe(self, data: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """The phase's working data as `seat` may see it (masked where the mechanic hides)."""
        return plain_copy(data)

    def tensor_pieces(self, rules: Rules) -> list[Any]:
        """This phase's pieces of the observation tensor (filled while it runs or from what it keeps)."""
        return []

    def private(self, game: Game, seat: int | None) -> dict[str, Any]:
        """Facts of this phase that only `seat` may see, whether the phase runs or not (a card it
        was allowed to look at, say): the observation's `private.<phase id>`."""
        return {}

    # ---- helpers --------------------------------------------------------------------------------
    def running(self, game: Game) -> dict[str, Any] | None:
        """This phase's working data, if it is the phase now running."""
        state = game.state
        if state.working is None or game.rules.flow.leaf_phase(state.at) != self.phase_id:
            return None
        return game.state.working

    def order(self, game: Game) -> list[int]:
        """The seats in this phase's turn order."""
        return turn_order(game, self.turns)


def turn_order(game: Game, spec: Any) -> list[int]:
    """Seats in a turn order: clockwise or counterclockwise from the start player, clockwise
    from a seat an expression gives (nobody: the start player), or ranked by an expression
    (ties keep their clockwise order)."""
    state = game.state
    n, start = state.players, state.start_player
    if spec == "counterclockwise":
        return [(start - i) % n for i in range(n)]
    if isinstance(spec, Expression):
        first = spec.fn(Ctx(game))
        start = start if first is None else first
        return [(start + i) % n for i in range(n)]
    clockwise = SEATS[start:n] + SEATS[:start]     # asked at every phase: no comprehension, no range
    if spec == "clockwise":
        return clockwise
    by, highest_first = spec
    values = {seat: by.fn(Ctx(game, seat)) for seat in clockwise}
    return sorted(clockwise, key=lambda seat: -values[seat] if highest_first else values[seat])
