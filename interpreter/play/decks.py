"""Making a deck ready: the cards a game uses, the stacks a deck is made of, the cards laid out
face up beside it, and rebuilding it between ages.

A rules file says how (`setup.decks.NAME`: `where`, `count`, `stacks`, `top`; `decks.NAME.display`);
this module does it, with the game's one random generator, so that set-up, a reset and a
replay all make the very same deck.
"""

from __future__ import annotations

from typing import Any

from ..base.errors import GameError
from ..dsl.context import Ctx
from ..model import Game


def prepare(game: Game, name: str, pile: list[str]) -> None:
    """Order a shuffled pile as the deck's `stacks` say: that many stacks, one after the other,
    each topped by a card where `top` holds (drawn at random among them before the rest are
    shuffled anew and dealt evenly under the tops)."""
    spec = game.rules.deck_setups.get(name)
    if spec is None or spec.stacks is None:
        return
    stacks = _number(game, spec.stacks)
    if stacks <= 0:
        raise GameError(f"{spec.stacks.rule.name}: a deck is at least one stack, not {stacks}", spec.stacks.rule.span)
    tops: list[str] = []
    if spec.top is not None:
        index = game.rules.place_index
        ctx = Ctx(game)
        for card in list(pile):
            if len(tops) < stacks and spec.top.fn(ctx, index[card]):
                tops.append(card)
                pile.remove(card)
        game.shuffle(pile)
    ordered, dealt = [], 0
    for i in range(stacks):
        size = len(pile) // stacks + (1 if i < len(pile) % stacks else 0)
        ordered += tops[i:i + 1] + pile[dealt:dealt + size]
        dealt += size
    pile[:] = ordered


def used(game: Game, name: str, pile: list[str]) -> list[str]:
    """Set aside (into the box, for the whole game) the places of a deck its set-up `where`
    does not admit; returns the pile of those used."""
    spec = game.rules.deck_setups.get(name)
    if spec is None or spec.where is None:
        return pile
    index, ctx = game.rules.place_index, Ctx(game)
    kept = [card for card in pile if spec.where.fn(ctx, index[card])]
    game.state.boxed[name] = [card for card in pile if card not in kept]
    return kept


def lay_out(game: Game, name: str) -> list[str]:
    """Turn cards from the top of the deck face up beside it until its display is full (or the
    deck is empty); returns the cards turned."""
    display = game.rules.decks[name].display
    if display is None:
        return []
    size = _number(game, display)
    shown = game.state.shown.setdefault(name, [])
    pile = game.state.decks[name]
    turned = pile[:max(size - len(shown), 0)]
    del pile[:len(turned)]
    shown.extend(turned)
    if turned:
        game.event({"event": "laid_out", "deck": name, "cards": list(turned)})
    return turned


def rebuild(game: Game, name: str, discards: bool, set_aside: bool) -> None:
    """Gather a deck again (its display, and its discard pile and the cards set aside, as
    asked), shuffle it, order it as at set-up, and lay its display out anew."""
    state = game.state
    pile = state.decks[name]
    pile.extend(state.shown.pop(name, []))
    if discards:
        pile.extend(state.discards[name])
        state.discards[name].clear()
    if set_aside:
        pile.extend(state.boxed[name])
        state.boxed[name].clear()
    game.shuffle(pile)
    prepare(game, name, pile)
    lay_out(game, name)


def _number(game: Game, expression: Any) -> int:
    value = expression.fn(Ctx(game))
    if value < 0:
        raise GameError(f"{expression.rule.name}: this is a number of cards, not {value}", expression.rule.span)
    return value
