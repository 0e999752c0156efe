"""What one seat may see, as a dict and as a flat tensor of numbers.

The observation is built piece by piece from the position, never by copying it whole: other
seats' hidden cards become "?", deck order and the random generator are left out, each
mechanic masks its own hidden fields (interpreter/mechanics/*: `observe`), and the past is
given only as counts. The tensor holds the same facts as numbers, in a layout derived from
the rules file alone (so every position of one rules file gives a tensor of one size), in
the manner of OpenSpiel's observers: named pieces over one flat array.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from weakref import WeakKeyDictionary

from ..base.state import plain_copy
from ..model import Game, Rules


def observation(game: Game, seat: int, copies: bool = True) -> dict[str, Any]:
    """The seat's view of the position. With `copies=False` the parts it sees whole are the
    position's own lists and dicts, not copies: a view only to compare and drop at once (a
    search compares every guess of the hidden facts with the real game's view, hundreds of
    times a decision), never to keep or change."""
    state, rules = game.state, game.rules
    keep = plain_copy if copies else _itself
    step = game.step
    hands = []
    for other, hand in enumerate(state.hands):
        if other == seat:
            hands.append(keep(hand))
        else:
            shown = sorted(c for c in hand if not hidden(rules, c))
            hands.append(shown + ["?"] * (len(hand) - len(shown)))
    mech = rules.phases[step.phase]
    hidden_resources = rules.hidden_resources
    seen = {
        "seat": seat, "players": state.players, "step": state.step, "phase_id": step.phase,
        "age": step.age, "round": step.round, "at": state.at, "passes": keep(state.passes),
        "to_move": state.to_move, "over": state.over,
        "start_player": state.start_player, "options": keep(state.options),
        "resources": _resources(rules, state.resources, seat) if hidden_resources else keep(state.resources),
        "sources": _sources(rules, state.sources, seat) if hidden_resources else keep(state.sources),
        "hands": hands,
        "decks": {name: len(pile) for name, pile in state.decks.items()},
        "discards": keep(state.discards),
        "boxed": {name: len(pile) for name, pile in state.boxed.items()},
        "shown": keep(state.shown),
        "owner": keep(state.owner), "tokens": keep(state.tokens), "supply": keep(state.supply),
        "phase": None if state.working is None else mech.observe(state.working, seat),
        "private": _private(game, seat),
        "kept": keep(state.kept), "mods": keep(state.mods), "played": keep(state.played),
        "history": len(game.history), "log": len(game.log) if game.log is not None else 0,
    }
    if state.held:          # resources held as cards: a seat's cards are in its hand, the total is not
        seen["held"] = {name: [list(cards) if other == seat else "hidden" for other, cards in enumerate(per_seat)]
                        for name, per_seat in state.held.items()}
    return seen


def _itself(value: Any) -> Any:
    return value


def _resources(rules: Rules, resources: list[dict[str, int]], seat: int) -> list[dict[str, Any]]:
    """Every seat's counters; another seat's amount of a hidden resource as "hidden"."""
    hidden = rules.hidden_resources
    return [dict(r) if other == seat else {k: "hidden" if k in hidden else v for k, v in r.items()}
            for other, r in enumerate(resources)]


def _sources(rules: Rules, sources: list[dict[str, dict[str, int]]], seat: int) -> list[dict[str, Any]]:
    """What each source gave every seat; for another seat, not where a hidden resource came from."""
    hidden = rules.hidden_resources
    return [plain_copy(s) if other == seat else {k: plain_copy(v) for k, v in s.items() if k not in hidden}
            for other, s in enumerate(sources)]


def _private(game: Game, seat: int) -> dict[str, Any]:
    """What phases let this seat alone see (by phase id)."""
    found = {}
    for pid, mech in game.rules.phases.items():
        facts = mech.private(game, seat)
        if facts:
            found[pid] = facts
    return found


@dataclass(frozen=True)
class Piece:
    """One named part of the tensor: its shape and how to fill it for a seat."""
    name: str
    shape: tuple[int, ...]
    meaning: str
    fill: Callable[[Game, int, list[float], int], None]     # (game, seat, out, offset)

    @property
    def size(self) -> int:
        size = 1
        for dim in self.shape:
            size *= dim
        return size


_PIECES: WeakKeyDictionary[Any, tuple[Piece, ...]] = WeakKeyDictionary()


def hidden(rules: Rules, card: str) -> bool:
    """Whether no other seat may see the card in a hand (its deck is hidden)."""
    return rules.decks[rules.cards[card].deck].hidden


# ---- the tensor ---------------------------------------------------------------------------------

def observation_layout(rules: Rules) -> list[dict[str, Any]]:
    out, offset = [], 0
    for piece in pieces(rules):
        out.append({"name": piece.name, "offset": offset, "shape": list(piece.shape), "size": piece.size,
                    "meaning": piece.meaning})
        offset += piece.size
    return out


def observation_tensor(game: Game, seat: int) -> list[float]:
    layout = pieces(game.rules)
    out = [0.0] * sum(p.size for p in layout)
    offset = 0
    for piece in layout:
        piece.fill(game, seat, out, offset)
        offset += piece.size
    return out


def pieces(rules: Rules) -> tuple[Piece, ...]:
    """The tensor's pieces for a rules file (worked out once per Rules)."""
    found = _PIECES.get(rules)
    if found is None:
        found = _PIECES[rules] = tuple(_turn_pieces(rules) + _seat_pieces(rules) + _held_pieces(rules)
                                       + _pile_pieces(rules) + _place_pieces(rules) + _record_pieces(rules)
                                       + [p for mech in rules.phases.values() for p in mech.tensor_pieces(rules)])
    return found


def one_hot(out: list[float], offset: int, index: int | None, size: int) -> None:
    if index is not None and 0 <= index < size:
        out[offset + index] = 1.0


def _turn_pieces(rules: Rules) -> list[Piece]:
    """Who observes, who plays, who moves, where the flow stands, which options."""
    seats, leaves, counters = rules.max_players, len(rules.flow.leaves), rules.flow.counters
    found = [
        Piece("seat", (seats,), "the observing seat (one-hot)", lambda g, s, o, at: one_hot(o, at, s, seats)),
        Piece("players", (seats,), "how many play (one-hot at players - 1)",
              lambda g, s, o, at: one_hot(o, at, g.state.players - 1, seats)),
        Piece("to_move", (seats,), "the seat to move (one-hot; zero when the game is over)",
              lambda g, s, o, at: one_hot(o, at, g.state.to_move, seats)),
        Piece("start_player", (seats,), "the start player (one-hot)",
              lambda g, s, o, at: one_hot(o, at, g.state.start_player, seats)),
        Piece("at", (leaves,), "the phase of the flow now running, by its leaf (one-hot; zero once over)",
              lambda g, s, o, at: one_hot(o, at, None if g.state.over else g.state.at, leaves)),
        Piece("passes", (counters,), "the pass each repeat of the flow is in", _passes),
    ]
    for name, opt in rules.options.items():
        values = list(opt.values)
        found.append(Piece(f"option.{name}", (len(values),), f"option {name} (one-hot over {values})",
                           _option_fill(name, values)))
    return found


def _passes(g: Game, s: int, o: list[float], at: int) -> None:
    for i, number in enumerate(g.state.passes):
        o[at + i] = float(number)


def _option_fill(name: str, values: list[str]) -> Callable[[Game, int, list[float], int], None]:
    return lambda g, s, o, at: one_hot(o, at, values.index(g.state.options[name]), len(values))


def _seat_pieces(rules: Rules) -> list[Piece]:
    """Each seat's resources and cards: the observer's by kind, others' only where public."""
    seats = rules.max_players
    card_ids = sorted(rules.cards)
    card_index = {c: i for i, c in enumerate(card_ids)}


    def hand(g: Game, s: int, o: list[float], at: int) -> None:
        for card in g.state.hands[s]:
            o[at + card_index[card]] += 1.0

    def sizes(g: Game, s: int, o: list[float], at: int) -> None:
        for seat, held in enumerate(g.state.hands):
            o[at + seat] = float(len(held))

    def public(g: Game, s: int, o: list[float], at: int) -> None:
        for seat, held in enumerate(g.state.hands):
            for card in held:
                if not hidden(rules, card):
                    o[at + seat * len(card_ids) + card_index[card]] += 1.0
    found = [_purses_piece(rules),
             Piece("hand", (len(card_ids),), f"the observing seat's cards, counted by kind {card_ids}", hand),
             Piece("hand_sizes", (seats,), "how many cards each seat holds", sizes),
             Piece("public_hands", (seats, len(card_ids)), "each seat's cards of public decks, by kind", public)]
    return found


def _purses_piece(rules: Rules) -> Piece:
    seats, resources = rules.max_players, list(rules.resources)
    hidden = [name in rules.hidden_resources for name in resources]

    def purses(g: Game, s: int, o: list[float], at: int) -> None:
        for seat, res in enumerate(g.state.resources):
            for i, name in enumerate(resources):
                if seat == s or not hidden[i]:
                    o[at + seat * len(resources) + i] = float(res[name])
    return Piece("resources", (seats, len(resources)),
                 f"each seat's {', '.join(resources)} (zero for another seat's hidden ones)", purses)


def _held_pieces(rules: Rules) -> list[Piece]:
    """The observing seat's cards of each resource held as cards."""
    found = []
    for name, held in rules.denominations.items():
        def cards(g: Game, s: int, o: list[float], at: int, name: str = name, values: tuple = held.values) -> None:
            per_seat = g.state.held.get(name)
            for value in per_seat[s] if per_seat else ():
                o[at + values.index(value)] += 1.0
        found.append(Piece(f"held.{name}", (len(held.values),), f"the observing seat's {name} cards, counted by "
                           f"value {list(held.values)} (zero unless held as cards in this game)", cards))
    return found


def _pile_pieces(rules: Rules) -> list[Piece]:
    """Decks, what was set aside, discards and the cards lying face up."""
    decks = list(rules.decks)
    discard_ids = sorted(rules.cards)               # a deck of places holds cards named by the places
    discard_index = {c: i for i, c in enumerate(discard_ids)}

    def piles(g: Game, s: int, o: list[float], at: int) -> None:
        for i, name in enumerate(decks):
            o[at + i] = float(len(g.state.decks[name]))
            o[at + len(decks) + i] = float(len(g.state.boxed[name]))

    def discards(g: Game, s: int, o: list[float], at: int) -> None:
        for pile in g.state.discards.values():
            for card in pile:
                o[at + discard_index[card]] += 1.0

    found = [Piece("decks", (2, len(decks)), f"cards left in each deck {decks}, then set aside", piles),
             Piece("discards", (len(discard_ids),), "discarded cards by kind (cards, then places)", discards)]
    if any(deck.display is not None for deck in rules.decks.values()):
        def shown(g: Game, s: int, o: list[float], at: int) -> None:
            for pile in g.state.shown.values():
                for card in pile:
                    o[at + discard_index[card]] += 1.0
        found.append(Piece("shown", (len(discard_ids),), "cards face up beside their decks, by kind", shown))
    return found


def _place_pieces(rules: Rules) -> list[Piece]:
    """Owners, tokens on the places, and what is left in each supply."""
    seats, places = rules.max_players, len(rules.place_ids)
    tokens, kinds = list(rules.token_supply), list(rules.supply)

    def owners(g: Game, s: int, o: list[float], at: int) -> None:
        for p, w in enumerate(g.state.owner):
            one_hot(o, at + p * (seats + 1), seats if w < 0 else w, seats + 1)

    def counts(g: Game, s: int, o: list[float], at: int) -> None:
        for p, held in enumerate(g.state.tokens):
            for i, token in enumerate(tokens):
                o[at + p * len(tokens) + i] = float(held.get(token, 0))

    def supply(g: Game, s: int, o: list[float], at: int) -> None:
        for i, kind in enumerate(kinds):
            o[at + i] = float(g.state.supply[kind])
    found = []
    if rules.ownership:
        found.append(Piece("owner", (places, seats + 1), "each place's owner (one-hot; last: nobody)", owners))
    return found + [Piece("tokens", (places, len(tokens)), f"tokens on each place {tokens}", counts),
                    Piece("supply", (len(kinds),), f"pieces left in each supply {kinds}", supply)]


def _record_pieces(rules: Rules) -> list[Piece]:
    """Modifier values, and the kinds of card each seat played within a limit's lifetime."""
    seats, places = rules.max_players, len(rules.place_ids)
    card_index = {c: i for i, c in enumerate(sorted(rules.cards))}
    found = []
    for name, mod in rules.vocab.all_modifiers().items():
        size = seats if mod.scope == "seat" else places if mod.scope == "place" else 1
        enum = rules.vocab.enums.get(mod.enum, ()) if mod.enum is not None else ()
        words = {w: i for i, w in enumerate(enum)}      # a word: its index

        def values(g: Game, s: int, o: list[float], at: int, mod: Any = mod, size: int = size,
                   words: dict[str, int] = words) -> None:
            held = g.state.mods.get(mod.name)
            for i in range(size):
                value = mod.default if held is None or i >= len(held) or held[i] is None else held[i]
                o[at + i] = float(words[value] if words else value)
        found.append(Piece(f"mod.{name}", (size,), f"modifier {name} ({mod.scope})", values))
    for lifetime in sorted({d.one_per_kind for d in rules.decks.values() if d.one_per_kind}):
        def played(g: Game, s: int, o: list[float], at: int, lifetime: str = lifetime) -> None:
            for seat, kinds in enumerate(g.state.played.get(lifetime, [])):
                for card in kinds:
                    o[at + seat * len(card_index) + card_index[card]] = 1.0
        found.append(Piece(f"played.{lifetime}", (seats, len(card_index)),
                           f"kinds each seat played this {lifetime}", played))
    return found
