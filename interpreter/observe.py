"""What one seat may see, as a dict and as a flat tensor of numbers.

The observation is built piece by piece from the position, never by copying it whole: other
seats' hidden cards become "?", deck order and the random generator are left out, each
mechanic masks its own hidden fields (interpreter/mechanics/*: `observe`), and the past is
given only as counts. The tensor holds the same facts as numbers, in a layout derived from
the rules file alone (so every position of one rules file gives a tensor of one size), in
the manner of OpenSpiel's observers: named pieces over one flat array.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable
from weakref import WeakKeyDictionary

from .state import plain_copy


def observation(game: Any, seat: int) -> dict[str, Any]:
    state, rules = game.state, game.rules
    step = game.step
    hidden = hidden_cards(rules)
    hands = []
    for other, hand in enumerate(state.hands):
        if other == seat:
            hands.append(list(hand))
        else:
            shown = sorted(c for c in hand if c not in hidden)
            hands.append(shown + ["?"] * (len(hand) - len(shown)))
    mech = rules.phases[step.phase]
    return {
        "seat": seat, "players": state.players, "step": state.step, "phase_id": step.phase,
        "age": step.age, "round": step.round, "to_move": state.to_move, "over": state.over,
        "start_player": state.start_player, "options": dict(state.options),
        "resources": [dict(r) for r in state.resources],
        "sources": plain_copy(state.sources),
        "hands": hands,
        "decks": {name: len(pile) for name, pile in state.decks.items()},
        "discards": {name: list(pile) for name, pile in state.discards.items()},
        "boxed": {name: len(pile) for name, pile in state.boxed.items()},
        "owner": list(state.owner), "tokens": [dict(t) for t in state.tokens], "supply": dict(state.supply),
        "phase": None if state.phase is None else mech.observe(state.phase, seat),
        "kept": plain_copy(state.kept), "mods": plain_copy(state.mods), "played": plain_copy(state.played),
        "history": len(game.history), "log": len(game.log) if game.log is not None else 0,
    }


@dataclass(frozen=True)
class Piece:
    """One named part of the tensor: its shape and how to fill it for a seat."""
    name: str
    shape: tuple[int, ...]
    meaning: str
    fill: Callable[[Any, int, list[float], int], None]     # (game, seat, out, offset)

    @property
    def size(self) -> int:
        size = 1
        for dim in self.shape:
            size *= dim
        return size


_HIDDEN: WeakKeyDictionary[Any, frozenset[str]] = WeakKeyDictionary()
_PIECES: WeakKeyDictionary[Any, tuple[Piece, ...]] = WeakKeyDictionary()


def hidden_cards(rules: Any) -> frozenset[str]:
    """The cards no other seat may see in a hand (those of hidden decks)."""
    found = _HIDDEN.get(rules)
    if found is None:
        found = _HIDDEN[rules] = frozenset(c.id for c in rules.cards.values() if rules.decks[c.deck].hidden)
    return found


# ---- the tensor ---------------------------------------------------------------------------------

def observation_layout(rules: Any) -> list[dict[str, Any]]:
    out, offset = [], 0
    for piece in pieces(rules):
        out.append({"name": piece.name, "offset": offset, "shape": list(piece.shape), "size": piece.size,
                    "meaning": piece.meaning})
        offset += piece.size
    return out


def observation_tensor(game: Any, seat: int) -> list[float]:
    layout = pieces(game.rules)
    out = [0.0] * tensor_size(game.rules)
    offset = 0
    for piece in layout:
        piece.fill(game, seat, out, offset)
        offset += piece.size
    return out


def tensor_size(rules: Any) -> int:
    return sum(p.size for p in pieces(rules))


def pieces(rules: Any) -> tuple[Piece, ...]:
    """The tensor's pieces for a rules file (worked out once per Rules)."""
    found = _PIECES.get(rules)
    if found is None:
        found = _PIECES[rules] = tuple(_layout(rules))
    return found


def one_hot(out: list[float], offset: int, index: int | None, size: int) -> None:
    if index is not None and 0 <= index < size:
        out[offset + index] = 1.0


def _layout(rules: Any) -> list[Piece]:
    seats, places = rules.max_players, len(rules.place_ids)
    resources = list(rules.resources)
    card_ids = sorted(rules.cards)
    card_index = {c: i for i, c in enumerate(card_ids)}
    hidden = hidden_cards(rules)
    tokens = list(rules.token_supply)
    kinds = list(rules.supply)
    layout = [
        Piece("seat", (seats,), "the observing seat (one-hot)", lambda g, s, o, at: one_hot(o, at, s, seats)),
        Piece("players", (seats,), "how many play (one-hot at players - 1)",
              lambda g, s, o, at: one_hot(o, at, g.state.players - 1, seats)),
        Piece("to_move", (seats,), "the seat to move (one-hot; zero when the game is over)",
              lambda g, s, o, at: one_hot(o, at, g.state.to_move, seats)),
        Piece("start_player", (seats,), "the start player (one-hot)",
              lambda g, s, o, at: one_hot(o, at, g.state.start_player, seats)),
        Piece("step", (len(rules.schedule),), "the schedule step now running (one-hot)",
              lambda g, s, o, at: one_hot(o, at, None if g.state.over else g.state.step, len(rules.schedule))),
    ]
    for name, opt in rules.options.items():
        values = list(opt.values)
        layout.append(Piece(f"option.{name}", (len(values),), f"option {name} (one-hot over {values})",
                            lambda g, s, o, at, name=name, values=values:
                            one_hot(o, at, values.index(g.state.options[name]), len(values))))

    def resources_fill(g: Any, s: int, o: list[float], at: int) -> None:
        for seat, res in enumerate(g.state.resources):
            for i, name in enumerate(resources):
                o[at + seat * len(resources) + i] = float(res[name])
    layout.append(Piece("resources", (seats, len(resources)), f"each seat's {', '.join(resources)}", resources_fill))

    def hand_fill(g: Any, s: int, o: list[float], at: int) -> None:
        for card in g.state.hands[s]:
            o[at + card_index[card]] += 1.0
    layout.append(Piece("hand", (len(card_ids),), f"the observing seat's cards, counted by kind {card_ids}", hand_fill))

    def sizes_fill(g: Any, s: int, o: list[float], at: int) -> None:
        for seat, hand in enumerate(g.state.hands):
            o[at + seat] = float(len(hand))
    layout.append(Piece("hand_sizes", (seats,), "how many cards each seat holds", sizes_fill))

    def public_fill(g: Any, s: int, o: list[float], at: int) -> None:
        for seat, hand in enumerate(g.state.hands):
            for card in hand:
                if card not in hidden:
                    o[at + seat * len(card_ids) + card_index[card]] += 1.0
    layout.append(Piece("public_hands", (seats, len(card_ids)), "each seat's cards of public decks, by kind",
                        public_fill))
    decks = list(rules.decks)

    def decks_fill(g: Any, s: int, o: list[float], at: int) -> None:
        for i, name in enumerate(decks):
            o[at + i] = float(len(g.state.decks[name]))
            o[at + len(decks) + i] = float(len(g.state.boxed[name]))
    layout.append(Piece("decks", (2, len(decks)), f"cards left in each deck {decks}, then set aside", decks_fill))
    discard_ids = card_ids + list(rules.place_ids)

    def discards_fill(g: Any, s: int, o: list[float], at: int) -> None:
        index = {c: i for i, c in enumerate(discard_ids)}
        for pile in g.state.discards.values():
            for card in pile:
                o[at + index[card]] += 1.0
    layout.append(Piece("discards", (len(discard_ids),), "discarded cards by kind (cards, then places)", discards_fill))
    if rules.ownership:
        def owner_fill(g: Any, s: int, o: list[float], at: int) -> None:
            for p, w in enumerate(g.state.owner):
                one_hot(o, at + p * (seats + 1), seats if w < 0 else w, seats + 1)
        layout.append(Piece("owner", (places, seats + 1), "each place's owner (one-hot; last: nobody)", owner_fill))

    def tokens_fill(g: Any, s: int, o: list[float], at: int) -> None:
        for p, counts in enumerate(g.state.tokens):
            for i, token in enumerate(tokens):
                o[at + p * len(tokens) + i] = float(counts.get(token, 0))
    layout.append(Piece("tokens", (places, len(tokens)), f"tokens on each place {tokens}", tokens_fill))
    def supply_fill(g: Any, s: int, o: list[float], at: int) -> None:
        for i, kind in enumerate(kinds):
            o[at + i] = float(g.state.supply[kind])
    layout.append(Piece("supply", (len(kinds),), f"pieces left in each supply {kinds}", supply_fill))
    for name, mod in rules.vocab.all_modifiers().items():
        size = seats if mod.scope == "seat" else places if mod.scope == "place" else 1

        def mod_fill(g: Any, s: int, o: list[float], at: int, mod: Any = mod, size: int = size) -> None:
            values = g.state.mods.get(mod.name)
            for i in range(size):
                value = mod.default if values is None or i >= len(values) or values[i] is None else values[i]
                o[at + i] = float(value)
        layout.append(Piece(f"mod.{name}", (size,), f"modifier {name} ({mod.scope})", mod_fill))
    lifetimes = sorted({d.one_per_kind for d in rules.decks.values() if d.one_per_kind})
    for lifetime in lifetimes:
        def played_fill(g: Any, s: int, o: list[float], at: int, lifetime: str = lifetime) -> None:
            for seat, played in enumerate(g.state.played.get(lifetime, [])):
                for card in played:
                    o[at + seat * len(card_ids) + card_index[card]] = 1.0
        layout.append(Piece(f"played.{lifetime}", (seats, len(card_ids)), f"kinds each seat played this {lifetime}",
                            played_fill))
    for pid, mech in rules.phases.items():
        layout += mech.tensor_pieces(rules)
    return layout
