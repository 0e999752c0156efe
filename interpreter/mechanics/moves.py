"""Moves: in turn order each seat takes a turn made of the phase's own moves, each a DSL effect
with its choices and requirements, until a condition says the turn is over.

This is the primitive for a phase whose actions are written in the rules file itself rather
than built into a mechanic: turn some tokens into a resource, pay a debt a token at a time,
build one of several things. Around the moves, an automatic `start` effect opens each seat's
turn (growth that needs no decision, a debt to pay) and a `finish` effect closes it. A move's
choices are part of its action, as a card's are (interpreter/play/choices.py), so a game replays
exactly; a move's `times` bounds how often a seat makes it in one turn.
"""

from __future__ import annotations

from types import SimpleNamespace

from ..base.actions import CLOSE, ActionSpace, Block
from ..dsl.context import Ctx
from ..dsl.types import BOOL
from ..model import Game
from ..play import cards, choices
from .base import Doc, Mechanic
from .params import Effect, Expr, Int, Items, Name, PhaseBuilder, Text

RESERVED_TYPES = ("done", "pass", "play", "sell")      # the engine's own actions at every decision


class Moves(Mechanic):
    name = "moves"
    automatic = True
    closing: Block                      # declared with the action space (declare)
    doc = ("In turn order each seat takes a turn: the `start` effect runs for it, then it makes any of the "
           "phase's moves (effects with their own choices and requirements, each at most `times` a turn) "
           "until `until` holds, no move is left, or it says `done` (allowed while `may_stop` holds); then "
           "the `finish` effect runs for it.")
    params = (
        Items("moves", "The moves a seat may make in its turn, in the order they are listed.",
              Name("id", "The move's name: the type of its action (not done, pass, play or sell).", required=True),
              Effect("effect", "What the move does (`my` the seat); its `choose`s are part of the action, "
                     "its `require`s say when it may be made.", required=True),
              Int("times", "The most times a seat makes this move in one turn (no limit if omitted).", minimum=1),
              Text("doc", "What the move is, for players.")),
        Effect("start", "Effect run by itself for each seat as its turn begins (`my` the seat).", automatic=True),
        Effect("finish", "Effect run by itself for each seat as its turn ends.", automatic=True),
        Expr("until", "Condition (`my` the seat): the seat's turn ends as soon as it holds (checked after "
             "`start` and after every move).", type=BOOL),
        Expr("may_stop", "Condition (`my` the seat): while it holds, the seat may end its turn with `done`; "
             "otherwise it goes on while it has a move.", type=BOOL, default=True),
    )
    actions = (Doc("MOVE", '{"type": "MOVE", "CHOICE": "PLACE"}', "one of the phase's moves, by its id, with its "
                   "choices"),
               Doc("done", '{"type": "done"}', "end the seat's turn (while `may_stop` holds)"))
    events = (Doc("move", '{"event": "move", "seat": 0, "move": "MOVE", "CHOICE": "PLACE"}', "a move made"),)

    def __init__(self, phase_id: str, build: PhaseBuilder) -> None:
        super().__init__(phase_id, build)
        self.moves = self.p.moves
        self.start, self.finish, self.until, self.may_stop = self.p.start, self.p.finish, self.p.until, self.p.may_stop
        self.start_cause, self.finish_cause = build.cause("turn", "start"), build.cause("turn", "finish")
        self.causes = {move.id: build.cause("move", "moves", i, "effect", id_=move.id)
                       for i, move in enumerate(self.moves)}
        ids = [move.id for move in self.moves]
        for i, move in enumerate(self.moves):
            if move.id in RESERVED_TYPES:
                build.problem("moves", i, "id", message=f"'{move.id}' is an action of the engine's own: "
                              "name the move otherwise")
            elif ids.index(move.id) != i:
                build.problem("moves", i, "id", message=f"two moves are called '{move.id}'")

    def declare(self, space: ActionSpace, material: SimpleNamespace) -> None:
        self.blocks = [space.declare(move.id, None, choices.choice_fields(move.effect, material), doc=move.doc or "")
                       for move in self.moves]
        self.closing = space.declare("done", None, (), CLOSE, doc=self.actions[1].meaning)
        self.move_of = {id(block): move for block, move in zip(self.blocks, self.moves)}

    def describe(self) -> str:
        names = ", ".join(move.id for move in self.moves)
        return f"In turn order, each seat takes its turn{': ' + names if names else ''}."

    # ---- the contract -------------------------------------------------------------------------
    def begin(self, game: Game) -> None:
        game.state.working = {"order": self.order(game), "idx": 0, "begun": False, "made": {}}

    def auto(self, game: Game) -> bool:
        data = game.state.working
        if data["idx"] >= len(data["order"]):
            return False
        seat = data["order"][data["idx"]]
        if not data["begun"]:
            data["begun"] = True
            if self.start is not None:
                self.start.run(Ctx(game, seat, {}, None, self.start_cause))
            return True
        if self.until is not None and self.until.fn(Ctx(game, seat)):
            self.pass_turn(game, seat)
            return True
        return False

    def to_move(self, game: Game) -> int | None:
        data = game.state.working
        return data["order"][data["idx"]] if data["idx"] < len(data["order"]) else None

    def legal(self, game: Game, seat: int) -> list[int]:
        made = game.state.working["made"]
        ids: list[int] = []
        for move, block in zip(self.moves, self.blocks):
            if move.times is None or made.get(move.id, 0) < move.times:
                ids += choices.allowed_ids(game, seat, move.effect, block, self.causes[move.id])
        ids.sort()
        if self.may_stop.fn(Ctx(game, seat)):
            ids.append(self.closing.base)
        return ids

    def apply(self, game: Game, seat: int, block: Block, indices: tuple[int, ...]) -> None:
        if block is self.closing:
            self.pass_turn(game, seat)
            return
        move = self.move_of[id(block)]
        made = game.state.working["made"]
        made[move.id] = made.get(move.id, 0) + 1
        game.event({"event": "move", "seat": seat, "move": move.id, **cards.shown_choices(game, block, indices)})
        move.effect.run(Ctx(game, seat, choices.env_of(block, indices), None, self.causes[move.id]))

    def pass_turn(self, game: Game, seat: int) -> None:
        """The seat's turn ends: its `finish` effect, then the next seat."""
        if self.finish is not None:
            self.finish.run(Ctx(game, seat, {}, None, self.finish_cause))
        data = game.state.working
        data["idx"] += 1
        data["begun"], data["made"] = False, {}

