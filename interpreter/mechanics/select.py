"""Select: the start player chooses one of a round's options (an action, a role), which the
phases that follow read to know which of them runs and who chose it.

Role selection in the manner of many games: the options are words, each chosen at most once
a round; the chooser is the start player, who then passes the start to the next seat, so
that each choice of a round falls to the next seat in turn. The phases that carry a choice
out are ordinary phases with `skip_if: "PHASE.chosen != OPTION"`, and a chooser's privilege
is an ordinary condition in them (`me == PHASE.chooser`).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from ..base.actions import ActionSpace, Block, Values
from ..dsl.names import Member
from ..dsl.types import SEAT, enum
from ..model import Game
from .base import Doc, Mechanic
from .params import Flag, Names, PhaseBuilder


class Select(Mechanic):
    name = "select"
    automatic = True
    doc = ("The start player chooses one of the options not yet chosen this round (the last one left is "
           "taken without asking); the phases after it read the choice as `PHASE.chosen` and the chooser as "
           "`PHASE.chooser`; then the start player passes to the next seat clockwise.")
    params = (
        Names("options", "The options, as words (`PHASE.chosen == OPTION` in the phases that carry one out); "
              "each is chosen at most once a round.", required=True),
        Flag("pass_start", "Whether the start player passes to the next seat clockwise after each choice.",
             default=True),
    )
    actions = (Doc("choose", '{"type": "choose", "option": "OPTION"}', "choose one of the options left"),)
    events = (Doc("chosen", '{"event": "chosen", "seat": 0, "option": "OPTION"}', "an option chosen"),)

    def __init__(self, phase_id: str, build: PhaseBuilder) -> None:
        super().__init__(phase_id, build)
        self.options = self.p.options
        self.cause = build.cause("choice")

    @classmethod
    def words(cls, phase_id: str, spec: dict[str, Any]) -> dict[str, tuple[str, ...]]:
        options = spec.get("options")
        return {f"{phase_id}.chosen": tuple(options)} if isinstance(options, list) and options else {}

    @classmethod
    def members(cls, phase_id: str, spec: dict[str, Any]) -> dict[str, Member]:
        def kept(key: str) -> Any:
            return lambda ctx: ctx.state.kept.get(phase_id, {}).get(key)
        reads = (("kept", phase_id),)
        return {"chosen": Member(enum(f"{phase_id}.chosen"), kept("chosen"),
                                 doc="the option chosen last (nothing before the first choice)", reads=reads),
                "chooser": Member(SEAT, kept("chooser"), doc="the seat that chose it (nobody before the first choice)",
                                  reads=reads)}

    def describe_kept(self, key: str, value: Any) -> str:
        if key == "chooser":
            return f"chosen by seat {value}"
        if key == "taken":
            return "chosen this round: " + ", ".join(value)
        if key == "when":
            return f"age {value[0]}, round {value[1]}"
        return f"{key} {value}"

    def declare(self, space: ActionSpace, material: SimpleNamespace) -> None:
        self.block = space.declare("choose", None, (("option", Values(self.options)),), doc=self.actions[0].meaning)

    def describe(self) -> str:
        return f"The start player chooses one of {', '.join(self.options)} not chosen yet this round."

    # ---- the contract -------------------------------------------------------------------------
    def begin(self, game: Game) -> None:
        kept = game.state.kept.setdefault(self.phase_id, {"chosen": None, "chooser": None, "taken": []})
        when = [game.step.age, game.step.round]
        if kept.get("when") != when:
            kept["when"], kept["taken"] = when, []
        game.state.working = {"done": False}

    def left(self, game: Game) -> list[str]:
        taken = game.state.kept[self.phase_id]["taken"]
        return [option for option in self.options if option not in taken]

    def auto(self, game: Game) -> bool:
        if game.state.working["done"]:
            return False
        left = self.left(game)
        if len(left) > 1:
            return False
        self._choose(game, game.state.start_player, left[0] if left else None)
        return True

    def to_move(self, game: Game) -> int | None:
        return None if game.state.working["done"] else game.state.start_player

    def legal(self, game: Game, seat: int) -> list[int]:
        base, index = self.block.base, self.options.index
        return [base + index(option) for option in self.left(game)]

    def apply(self, game: Game, seat: int, block: Block, indices: tuple[int, ...]) -> None:
        self._choose(game, seat, self.options[indices[0]])

    def _choose(self, game: Game, seat: int, option: str | None) -> None:
        kept = game.state.kept[self.phase_id]
        game.state.working["done"] = True
        if option is None:
            kept["chosen"] = kept["chooser"] = None
            return
        game.state.kept[self.phase_id] = {**kept, "chosen": option, "chooser": seat, "taken": kept["taken"] + [option]}
        game.event({"event": "chosen", "seat": seat, "option": option})
        if self.p.pass_start:
            game.set_start_player((seat + 1) % game.state.players, cause=self.cause)
