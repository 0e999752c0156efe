"""Between ages: tokens of some kinds go back to the supply, places lose their owners, and a
deck is rebuilt (from its discard pile, or the cards set aside, or both) and shuffled."""

from __future__ import annotations

from ..dsl.checked import Scope
from ..dsl.context import Ctx
from ..dsl.types import BOOL
from ..model import Game
from ..play import decks, material
from .base import Doc, Mechanic
from .params import Expr, Flag, PhaseBuilder, Ref, Refs


class Reset(Mechanic):
    automatic = True
    name = "reset"
    doc = "Tokens of some kinds go back to the supply, places lose their owners, a deck is rebuilt. No decisions."
    params = (
        Refs("remove_tokens", "Tokens taken off every place back to the supply.", "token"),
        Flag("release_places", "Whether every place becomes unowned.", default=False),
        Ref("rebuild_deck", "A deck gathered again and shuffled: its discard pile goes back into it (cards set "
            "aside at set-up stay aside), then it is ordered as at set-up and its display laid out anew.", "deck"),
        Expr("rebuild_from_discards", "Condition (no seat): whether the rebuilt deck takes its discard pile back "
             "(otherwise those cards stay out of the game).", scope=Scope(seat=False), type=BOOL, default=True),
        Expr("rebuild_from_set_aside", "Condition (no seat): whether the rebuilt deck also takes the cards set "
             "aside at set-up.", scope=Scope(seat=False), type=BOOL, default=False),
    )
    events = (Doc("reset", '{"event": "reset"}', "the reset begins (the changes it makes follow, caused by `reset`)"),)

    def __init__(self, phase_id: str, build: PhaseBuilder) -> None:
        super().__init__(phase_id, build)
        self.remove, self.release, self.deck = self.p.remove_tokens, self.p.release_places, self.p.rebuild_deck
        self.cause = build.cause("reset")
        if self.release and not build.vocab.ownership:
            build.problem("release_places", message="places have no owners in these rules (see places.ownership)")

    def describe(self) -> str:
        return (f"Remove {', '.join(self.remove) or 'nothing'}; "
                f"{'release every place; ' if self.release else ''}"
                f"{'reshuffle the ' + self.deck + ' deck' if self.deck else ''}.")

    def begin(self, game: Game) -> None:
        game.state.working = {"done": False}

    def auto(self, game: Game) -> bool:
        if game.state.working["done"]:
            return False
        state = game.state
        game.event({"event": "reset"})
        for place in range(len(state.tokens)):
            for token in self.remove:
                if state.tokens[place].get(token):        # most places hold none: nothing to remove
                    material.remove_tokens(game, place, token, state.tokens[place][token], self.cause)
            if self.release:
                material.set_owner(game, place, None, self.cause)
        if self.deck:
            ctx = Ctx(game)
            decks.rebuild(game, self.deck, self.p.rebuild_from_discards.fn(ctx), self.p.rebuild_from_set_aside.fn(ctx))
        state.working["done"] = True
        return True
