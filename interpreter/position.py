"""Reading a position by the names of the rules file: a place by its id, a seat, a deck by its
name, the last event of a kind. For scenario authors and tests, who would otherwise index
`state.owner` through `rules.place_index` and search `game.log` by hand; each view is a copy,
so changing it never changes the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .base.errors import AmunreError, did_you_mean
from .model import Game


@dataclass(frozen=True)
class PlaceView:
    """One place as the position has it: its owner (None: nobody), its tokens, its printed
    properties and its place modifiers."""
    id: str
    index: int
    owner: int | None
    tokens: dict[str, int]
    properties: dict[str, Any]
    modifiers: dict[str, Any]

    def __getitem__(self, token: str) -> int:
        """How many of a token the place holds (0 if none): `game.place(id)[TOKEN]`."""
        return self.tokens.get(token, 0)


@dataclass(frozen=True)
class SeatView:
    """One seat: its resources, its hand (card ids), the places it owns (ids, in board order)."""
    seat: int
    resources: dict[str, int]
    hand: list[str]
    places: list[str]

    def __getitem__(self, resource: str) -> int:
        """A resource's amount: `game.seat(0)[RESOURCE]`."""
        return self.resources[resource]


@dataclass(frozen=True)
class DeckView:
    """One deck: its draw pile (top first; hidden from players, shown here for scenarios), its
    discard pile (newest last), the cards face up beside it, the cards out of the game."""
    name: str
    pile: list[str]
    discards: list[str]
    shown: list[str]
    boxed: list[str]

    @property
    def left(self) -> int:
        return len(self.pile)


def place_view(game: Game, place_id: str) -> PlaceView:
    rules, state = game.rules, game.state
    index = rules.place_index.get(place_id) if isinstance(place_id, str) else None
    if index is None:
        raise AmunreError(f"no place '{place_id}'" + _hint(str(place_id), rules.place_ids))
    owner = state.owner[index]
    defs = rules.vocab.all_modifiers()
    mods = {name: values[index] for name, values in state.mods.items()
            if name in defs and defs[name].scope == "place"}
    return PlaceView(place_id, index, owner if owner >= 0 else None, dict(state.tokens[index]),
                     dict(rules.place_props[index]), mods)


def seat_view(game: Game, seat: int) -> SeatView:
    state = game.state
    if type(seat) is not int or not 0 <= seat < state.players:
        raise AmunreError(f"a seat is a number from 0 to {state.players - 1}, not {seat!r}")
    places = [game.rules.place_ids[p] for p, owner in enumerate(state.owner) if owner == seat]
    return SeatView(seat, dict(state.resources[seat]), list(state.hands[seat]), places)


def deck_view(game: Game, name: str) -> DeckView:
    rules, state = game.rules, game.state
    if name not in rules.decks:
        raise AmunreError(f"no deck '{name}'" + _hint(str(name), list(rules.decks)))
    return DeckView(name, list(state.decks.get(name, [])), list(state.discards.get(name, [])),
                    list(state.shown.get(name, [])), list(state.boxed.get(name, [])))


def last_event(game: Game, kind: str) -> dict[str, Any] | None:
    """The newest event of a kind in the log (`sell`, `won`, `reward`...), or None."""
    if game.log is None:
        raise AmunreError("this game keeps no log (new_game(..., events=False))")
    return next((dict(e) for e in reversed(game.log) if e.get("event") == kind), None)


def _hint(name: str, known: Any) -> str:
    suggestion = did_you_mean(name, list(known))
    return f" ({suggestion})" if suggestion else ""
