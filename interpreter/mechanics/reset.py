"""Between ages: tokens of some kinds go back to the supply, places lose their owners, and a
deck is rebuilt from its discard pile and shuffled."""

from __future__ import annotations

from typing import Any

from .. import board, rng
from .base import Mechanic


class Reset(Mechanic):
    name = "reset"

    def __init__(self, phase_id: str, build: Any) -> None:
        super().__init__(phase_id, build)
        self.remove = [build.ref("remove_tokens", i, known=build.tokens, what="token")
                       for i in range(len(build.get("remove_tokens", default=[])))]
        self.release = bool(build.get("release_places", default=False))
        self.deck = build.ref("rebuild_deck", known=build.decks, what="deck") if build.has("rebuild_deck") else None

    def describe(self) -> str:
        return (f"Remove {', '.join(self.remove) or 'nothing'}; "
                f"{'release every place; ' if self.release else ''}"
                f"{'reshuffle the ' + self.deck + ' deck' if self.deck else ''}.")

    def next_seat(self, game: Any) -> int | None:
        state = game.state
        for place in range(len(state.tokens)):
            for token in self.remove:
                board.remove_tokens(game, place, token, state.tokens[place].get(token, 0))
            if self.release:
                state.owner[place] = -1
        if self.deck:
            pile = state.decks[self.deck]
            pile.extend(state.discards[self.deck])
            state.discards[self.deck].clear()
            state.rng = rng.shuffle(state.rng, pile)
        game.event({"event": "reset"})
        return None
