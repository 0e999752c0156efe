"""Setting up a new game: what `setup` may hold, checked, then the decks built and dealt.

`setup` lets a scenario or a test fix what chance would decide: the start player, cards on
top of named decks, cards dealt to seats, options, starting resources, places owned. It may come from a
save written by someone else, so every part is checked for type and sense, and anything else
is refused with an AmunreError saying what.
"""

from __future__ import annotations

from typing import Any

from ..base.causes import Cause
from ..base.errors import AmunreError, GameError, shown_repr, shown_value
from ..base.limits import MAX_AMOUNT
from ..dsl.context import Ctx
from ..model import Game, Rules
from . import decks
from .denominations import payout
from .material import drawn_event

KEYS = ("start_player", "decks", "hands", "options", "resources", "owners")


def check_start(rules: Rules, players: Any, seed: Any, setup: Any) -> dict[str, Any]:
    """A new game's players, seed and setup checked (AmunreError for what they cannot be); the
    setup as new_game uses it."""
    if type(players) is not int or not rules.min_players <= players <= rules.max_players:
        raise AmunreError(f"{rules.title or rules.id} is for {rules.min_players} to {rules.max_players} "
                          f"players, not {shown_value(players, 40)}")
    if type(seed) is not int:
        raise AmunreError(f"a seed is a whole number, not {shown_value(seed, 40)}")
    return check_setup(rules, players, setup)


def check_setup(rules: Rules, players: int, setup: Any) -> dict[str, Any]:
    """The setup as new_game uses it; AmunreError for anything it cannot be."""
    if setup is None:
        return {}
    if not isinstance(setup, dict) or not set(setup) <= set(KEYS):
        raise AmunreError(f"setup is a mapping of {', '.join(KEYS)}; got {_brief(setup)}")
    start = setup.get("start_player", 0)
    if type(start) is not int or not 0 <= start < players:
        raise AmunreError(f"setup's start_player is a seat from 0 to {players - 1}, not {_brief(start)}")
    decks = setup.get("decks", {})
    if not isinstance(decks, dict) or not all(isinstance(v, list) and all(isinstance(c, str) for c in v)
                                              for v in decks.values()):
        raise AmunreError("setup's decks map a deck's name to the card ids to put on top")
    hands = setup.get("hands", [])
    if not isinstance(hands, list) or len(hands) > players or not all(
            isinstance(h, list) and all(isinstance(c, str) for c in h) for h in hands):
        raise AmunreError(f"setup's hands are up to {players} lists of card ids, one per seat")
    options = setup.get("options", {})
    if not isinstance(options, dict):
        raise AmunreError("setup's options map an option's name to one of its values")
    for name, value in options.items():
        if name not in rules.options or value not in rules.options[name].values:
            raise AmunreError(f"unknown option value {_brief(name)}={_brief(value)}")
    resources = setup.get("resources", {})
    if not isinstance(resources, dict) or not all(
            name in rules.resources and isinstance(v, list) and len(v) <= players
            and all(type(x) is int and 0 <= x <= MAX_AMOUNT for x in v) for name, v in resources.items()):
        raise AmunreError(f"setup's resources map a resource's name to up to {players} whole numbers "
                          f"from 0 to {MAX_AMOUNT:,}, one per seat")
    owners = setup.get("owners", {})
    if not isinstance(owners, dict) or not all(place in rules.place_index and type(seat) is int and 0 <= seat < players
                                               for place, seat in owners.items()):
        raise AmunreError(f"setup's owners map a place's id to the seat (0 to {players - 1}) owning it")
    if owners and not rules.ownership:
        raise AmunreError("setup gives places owners, and in these rules places have none")
    return setup


def _brief(value: Any) -> str:
    """A value of the set-up as its error shows it: short, and never failing (a huge integer)."""
    return shown_repr(value, 60)


def deal(game: Game, hands: list[list[str]]) -> None:
    """Set-up's extra cards: each from the top-most copy in its deck, else from the box."""
    state = game.state
    for seat, cards_ in enumerate(hands):
        for card in cards_:
            if card not in game.rules.cards or seat >= state.players:
                raise AmunreError(f"setup deals unknown card '{card}' or to no such seat {seat}")
            deck = game.rules.cards[card].deck
            for pile in (state.decks[deck], state.boxed[deck]):
                if card in pile:
                    pile.remove(card)
                    break
            else:
                raise AmunreError(f"setup deals '{card}', and its deck '{deck}' has no such card left")
            state.hands[seat].append(card)


def build_decks(game: Game, stacked: dict[str, list[str]]) -> None:
    """Every deck as the game starts: the cards it uses, shuffled, ordered in its stacks, with
    the cards a scenario stacks on top, and its display laid out."""
    rules, state = game.rules, game.state
    for name, deck in rules.decks.items():
        pile = list(deck.places) if deck.of_places else [
            c.id for c in rules.cards.values() if c.deck == name for _ in range(c.count)]
        state.decks[name], state.discards[name], state.boxed[name] = pile, [], []
    for seat in range(state.players):
        for card in rules.setup_hand:
            state.decks[rules.cards[card].deck].remove(card)
            state.hands[seat].append(card)
    for name in list(state.decks):
        pile = state.decks[name] = decks.used(game, name, state.decks[name])
        game.shuffle(pile)
        expression = rules.deck_setups[name].count if name in rules.deck_setups else None
        if expression is not None:
            count = expression.fn(Ctx(game))
            if count < 0:
                raise GameError(f"{expression.rule.name}: a deck cannot hold {count} cards", expression.rule.span)
            state.boxed[name], state.decks[name] = state.boxed[name] + pile[count:], pile[:count]
        decks.prepare(game, name, state.decks[name])
    for name, top in stacked.items():
        _stack(game, name, top)
    for name in rules.decks:
        decks.lay_out(game, name)


def _stack(game: Game, name: str, top: list[str]) -> None:
    """A scenario's cards put on top of a deck, taken from the deck, else from the box."""
    state = game.state
    if name not in state.decks:
        raise AmunreError(f"setup stacks unknown deck '{name}'")
    pile, box = state.decks[name], state.boxed[name]
    for depth, card in enumerate(reversed(top)):      # each copy named comes from below those stacked
        rest = pile[depth:]
        if card in rest:
            del pile[depth + rest.index(card)]
        elif card in box:
            box.remove(card)
            if len(pile) > depth:
                box.append(pile.pop())     # keep the deck's size: the last card goes to the box
        else:
            raise AmunreError(f"setup stacks '{card}' on deck '{name}', which has no such card left")
        pile.insert(0, card)


def start_events(game: Game, setup: dict[str, Any]) -> None:
    """What the set-up gave, as change events (a log's amounts all start from nothing): each
    seat's starting resources, the cards it starts with, the places owned from the start, the
    start player."""
    rules, state = game.rules, game.state
    causes = rules.start_causes
    given = setup.get("resources", {})
    for seat in range(state.players):
        for name, amount in state.resources[seat].items():
            if amount:
                cause = causes[name] if name not in given or seat >= len(given[name]) else Cause("start", name)
                game.event({"event": "gain", "seat": seat, "resource": name, "amount": amount,
                            "cause": cause.to_json()})
        held: dict[str, list[str]] = {}
        for card in state.hands[seat]:
            held.setdefault(rules.cards[card].deck, []).append(card)
        hand = causes["hand"] if not setup.get("hands") else Cause("start", "hand")
        for deck, cards in held.items():
            game.event(drawn_event(game, seat, deck, cards, hand))
    owners = setup.get("owners", {})
    for place, owner in enumerate(state.owner):
        if owner >= 0:
            cause = Cause("start", "owner") if rules.place_ids[place] in owners else causes["owner"]
            game.event({"event": "owner", "place": rules.place_ids[place], "seat": owner, "cause": cause.to_json()})
    chosen = causes["start_player"] if "start_player" not in setup else Cause("start", "start_player")
    game.event({"event": "start_player", "seat": state.start_player, "cause": chosen.to_json()})


def deal_held_cards(game: Game, amounts: dict[str, list[int]]) -> None:
    """Give each seat its starting cards of every resource held as cards in this game; a seat
    whose start `amounts` names (new_game's `setup.resources`) gets that amount as the bank pays it."""
    state = game.state
    for name, held in game.rules.denominations.items():
        if held.when is not None and not held.when.fn(Ctx(game)):
            continue
        given = amounts.get(name, [])
        state.held[name] = [payout(held.values, given[seat]) if seat < len(given) else list(held.start)
                            for seat in range(state.players)]
