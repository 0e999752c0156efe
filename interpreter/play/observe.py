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
from copy import deepcopy
from dataclasses import dataclass, replace
from operator import itemgetter
from typing import Any
from weakref import WeakKeyDictionary, ref

from ..base.limits import MAX_AMOUNT
from ..base.state import plain_copy
from ..model import Game, Rules


def observation(game: Game, seat: int | None, copies: bool = True) -> dict[str, Any]:
    """The seat's view of the position; for `seat` None the public view, what every seat sees
    (nobody's hand, secret choice or private fact). With `copies=False` the parts it sees
    whole are the position's own lists and dicts, not copies: a view only to compare and drop
    at once (a search compares every guess of the hidden facts with the real game's view,
    hundreds of times a decision), never to keep or change."""
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


def _resources(rules: Rules, resources: list[dict[str, int]], seat: int | None) -> list[dict[str, Any]]:
    """Every seat's counters; another seat's amount of a hidden resource as "hidden"."""
    hidden = rules.hidden_resources
    return [dict(r) if other == seat else {k: "hidden" if k in hidden else v for k, v in r.items()}
            for other, r in enumerate(resources)]


def _sources(rules: Rules, sources: list[dict[str, dict[str, int]]], seat: int | None) -> list[dict[str, Any]]:
    """What each source gave every seat; for another seat, not where a hidden resource came from."""
    hidden = rules.hidden_resources
    return [plain_copy(s) if other == seat else {k: plain_copy(v) for k, v in s.items() if k not in hidden}
            for other, s in enumerate(sources)]


def _private(game: Game, seat: int | None) -> dict[str, Any]:
    """What phases let this seat alone see (by phase id)."""
    found = {}
    for pid, mech in game.rules.phases.items():
        facts = mech.private(game, seat)
        if facts:
            found[pid] = facts
    return found


@dataclass(frozen=True)
class Piece:
    """One named part of the tensor: its shape and how to fill it for a seat.

    `fill(game, seat, out, offset)` writes the piece's numbers into `out` from `offset` on, and
    nowhere else; `out` comes filled with 0.0, so a fill need write only what is not zero. A
    piece whose fill writes nothing unless one phase is running (its mechanic's `running(game)`
    is None otherwise) names that phase in `phase`: the tensor then calls it only while the
    phase runs, which spares a call per piece of every other phase at every observation."""
    name: str
    shape: tuple[int, ...]
    meaning: str
    fill: Callable[[Game, int | None, list[float], int], None]     # (game, seat, out, offset)
    phase: str | None = None            # a phase id: the fill writes nothing unless it runs
    # The least and the most each number may be: one for the whole piece, or one per number (as
    # the piece is laid out). A learner scales its inputs by them (observation spaces' bounds);
    # tests/test_observation_bounds.py holds every tensor of random games within them.
    least: float | tuple[float, ...] = -float(MAX_AMOUNT)
    most: float | tuple[float, ...] = float(MAX_AMOUNT)

    @property
    def size(self) -> int:
        size = 1
        for dim in self.shape:
            size *= dim
        return size


Fill = Callable[[Game, int | None, list[float], int], None]


@dataclass(frozen=True)
class _Section:
    """Consecutive pieces of the engine's own and one fill that writes them all from the first
    one's offset: one call for the lot where a call per piece cost more than most pieces'
    work. Each piece still has a fill of its own (the section's, its part copied out)."""
    pieces: list[Piece]
    fill: Fill


@dataclass(frozen=True)
class _Plan:
    """A rules file's tensor, worked out once: its pieces, its size, and the fills to call with
    their offsets (those of every observation, and those of each phase while it runs)."""
    pieces: tuple[Piece, ...]
    size: int
    always: tuple[tuple[Fill, int], ...]
    while_running: dict[str, tuple[tuple[Fill, int], ...]]


_PLANS: WeakKeyDictionary[Any, _Plan] = WeakKeyDictionary()
_last: tuple[Any, _Plan] | None = None          # (a weak reference to the last rules asked for, their plan)


def hidden(rules: Rules, card: str) -> bool:
    """Whether no other seat may see the card in a hand (its deck is hidden)."""
    return rules.decks[rules.cards[card].deck].hidden


# ---- the tensor ---------------------------------------------------------------------------------
#
# Learning loops read a tensor at every decision, often for every seat, so the fills are
# written for speed (the tensor used to cost several engine steps): every name, index, offset
# and default is looked up once per rules file (Rules are frozen) into plain tables the fills
# close over; the engine's pieces are filled in six sections, one call each; a one-hot is an
# index computed and one store; a row of numbers is one slice assignment; what changes seldom
# is kept as a block of numbers and copied in again while the state's values that made it are
# unchanged (_Blocks); and the pieces of a phase that is not running are not called at all.
# What is written is exactly what a fill per piece wrote before: tests/test_observation_tensor_same.py
# replays recorded digests. A slice is assigned only a row whose length is the slice's by
# construction: a list's slice given more or fewer items would change the tensor's length.

def observation_layout(rules: Rules) -> list[dict[str, Any]]:
    out, offset = [], 0
    for piece in pieces(rules):
        out.append({"name": piece.name, "offset": offset, "shape": list(piece.shape), "size": piece.size,
                    "meaning": piece.meaning, "least": _listed(piece.least), "most": _listed(piece.most)})
        offset += piece.size
    return out


def observation_bounds(rules: Rules) -> tuple[list[float], list[float]]:
    """The least and the most of every number of the tensor, in its order: what a learner's
    observation space says and its inputs are scaled by."""
    least: list[float] = []
    most: list[float] = []
    for piece in pieces(rules):
        for bound, into in ((piece.least, least), (piece.most, most)):
            into.extend(bound if isinstance(bound, tuple) else [bound] * piece.size)
    return least, most


def _listed(bound: float | tuple[float, ...]) -> float | list[float]:
    return list(bound) if isinstance(bound, tuple) else bound


def observation_tensor(game: Game, seat: int | None) -> list[float]:
    rules, last = game.rules, _last
    plan = last[1] if last is not None and last[0]() is rules else _plan(rules)
    out = [0.0] * plan.size
    for fill, offset in plan.always:
        fill(game, seat, out, offset)
    state = game.state
    if state.working is not None and plan.while_running:
        for fill, offset in plan.while_running.get(game.rules.flow.leaf_phase(state.at), ()):
            fill(game, seat, out, offset)
    return out


def pieces(rules: Rules) -> tuple[Piece, ...]:
    """The tensor's pieces for a rules file (worked out once per Rules)."""
    return _plan(rules).pieces


def _plan(rules: Rules) -> _Plan:
    """The rules' plan. The last one asked for is held apart, as a game asks for its own rules'
    plan at every observation: a weak reference is cheaper to check than a lookup in the
    WeakKeyDictionary, which makes a weak reference of its key at every lookup."""
    global _last
    last = _last
    if last is not None and last[0]() is rules:
        return last[1]
    plan = _PLANS.get(rules)
    if plan is None:
        plan = _PLANS[rules] = _make_plan(rules)
    _last = (ref(rules), plan)
    return plan


def _make_plan(rules: Rules) -> _Plan:
    sections = [_turn_section(rules), _seat_section(rules), _held_section(rules), _pile_section(rules),
                _place_section(rules), _record_section(rules)]
    found: list[Piece] = []
    always: list[tuple[Fill, int]] = []
    while_running: dict[str, list[tuple[Fill, int]]] = {}
    offset = 0
    for section in sections:
        if section.pieces:
            always.append((section.fill, offset))
        for piece in section.pieces:
            found.append(piece)
            offset += piece.size
    for mech in rules.phases.values():
        for piece in mech.tensor_pieces(rules):
            (always if piece.phase is None else while_running.setdefault(piece.phase, [])).append((piece.fill, offset))
            found.append(piece)
            offset += piece.size
    return _Plan(tuple(found), offset, tuple(always), {phase: tuple(fills) for phase, fills in while_running.items()})


# A piece's name, shape and meaning, and its bounds (least, most) when they are not the default.
Part = tuple[str, tuple[int, ...], str] | tuple[str, tuple[int, ...], str, Any, Any]
FLAG = (0.0, 1.0)                       # the bounds of a one-hot or a yes/no


def _section(fill: Fill, parts: list[Part]) -> _Section:
    """The pieces (name, shape, meaning[, least, most]) that `fill` writes one after another, each
    with a fill of its own: the whole section filled apart and the piece's part copied out."""
    shaped = [Piece(*part[:3], fill, None, *part[3:]) for part in parts]
    total = sum(piece.size for piece in shaped)
    found, start = [], 0
    for piece in shaped:
        found.append(replace(piece, fill=_part(fill, start, piece.size, total)))
        start += piece.size
    return _Section(found, fill)


def _part(fill: Fill, start: int, size: int, total: int) -> Fill:
    def part(g: Game, s: int | None, o: list[float], at: int) -> None:
        whole = [0.0] * total
        fill(g, s, whole, 0)
        o[at:at + size] = whole[start:start + size]
    return part


def bounded(value: Any) -> float:
    """A number the rules compute (a modifier, a price) as the tensor holds it: within the
    engine's limit, which is the piece's bound; nothing clamps such a number in play."""
    return float(min(max(value, -MAX_AMOUNT), MAX_AMOUNT))


def one_hot(out: list[float], offset: int, index: int | None, size: int) -> None:
    if index is not None and 0 <= index < size:
        out[offset + index] = 1.0


def _row(names: list[str]) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    """A function giving a dict's values of the names, in order, as a tuple (itemgetter alone
    gives a bare value for one name)."""
    if len(names) >= 2:
        return itemgetter(*names)
    if names:
        only = names[0]
        return lambda d: (d[only],)
    return lambda d: ()


def _first_index(values: Any) -> dict[Any, int]:
    """Each value's index, the first where one repeats (as list.index finds it)."""
    index: dict[Any, int] = {}
    for i, value in enumerate(values):
        index.setdefault(value, i)
    return index


class _Blocks(dict[Any, list[float]]):
    """Runs of numbers already worked out, by the plain values of the state they come from.

    Much of a position does not change from one observation to the next: the same position is
    observed by every seat in turn, and an action changes a few things of many. A block (the
    numbers of a run of pieces) is worked out by `make` from its key alone, a tuple of the
    state's plain values it depends on, and kept under that key: `blocks[key]` gives it (a
    dict's lookup, in C), to be copied into the tensor by one slice assignment. A block is a
    function of its key only, so it is exactly what working it out again would give. At most
    LIMIT blocks are kept (then all are forgotten at once). The state holds plain data, whole
    numbers and texts: a value that cannot be a key could not have been counted either, and
    keys that compare equal give the same floats (1 and True are one key and both 1.0; 0 and
    -0.0 would not be, but the DSL and the set-up know no fractions).

    `of(values)` is cheaper still for what every seat reads in turn: it compares the state's
    values themselves (lists and dicts compare in C, far faster than a key is built) with a
    copy of the last ones it was given, and gives their block again if they are equal; else
    the block of their key (`key(values)`), or of the values themselves when there is no key
    (`make(values)`: for values too many to make a key of cheaply), and keeps a copy of them
    (`keep(values)`, a deep copy by default: the state's own lists and dicts change in place;
    a section gives a quicker copy for the shape it knows). The last values and
    their block are kept as one tuple, replaced whole, so a reader never pairs one with the
    other's block."""
    LIMIT = 4096
    __slots__ = ("make", "key", "keep", "last")

    def __init__(self, make: Callable[[Any], list[float]], key: Callable[[Any], Any] | None = None,
                 keep: Callable[[Any], Any] = deepcopy) -> None:
        super().__init__()
        self.make, self.key, self.keep = make, key, keep
        self.last: tuple[Any, list[float]] = (_NOTHING, [])

    def __missing__(self, key: Any) -> list[float]:
        block = self.make(key)
        if len(self) >= self.LIMIT:
            self.clear()
        self[key] = block
        return block

    def of(self, values: Any) -> list[float]:
        last = self.last
        if values == last[0]:
            return last[1]
        block = self[self.key(values)] if self.key is not None else self.make(values)
        self.last = (self.keep(values), block)
        return block


_NOTHING = object()                 # equal to no state's values


def _dicts(values: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A copy of a list of flat dicts (each seat's resources, each place's tokens)."""
    return list(map(dict.copy, values))


def _lists(values: list[list[Any]]) -> list[list[Any]]:
    """A copy of a list of flat lists (each seat's hand)."""
    return list(map(list, values))


def _piles(values: dict[str, list[Any]]) -> dict[str, list[Any]]:
    """A copy of a dict of flat lists (decks, discard piles)."""
    return {name: list(pile) for name, pile in values.items()}


def _turn_section(rules: Rules) -> _Section:
    """Who observes, who plays, who moves, where the flow stands, which options."""
    seats, leaves, counters = rules.max_players, len(rules.flow.leaves), rules.flow.counters
    parts: list[Part] = [
        ("seat", (seats,), "the observing seat (one-hot)", *FLAG),
        ("players", (seats,), "how many play (one-hot at players - 1)", *FLAG),
        ("to_move", (seats,), "the seat to move (one-hot; zero when the game is over)", *FLAG),
        ("start_player", (seats,), "the start player (one-hot)", *FLAG),
        ("at", (leaves,), "the phase of the flow now running, by its leaf (one-hot; zero once over)", *FLAG),
        ("passes", (counters,), "the pass each repeat of the flow is in", 0.0, float(MAX_AMOUNT)),
    ]
    moving_at, start_at, leaf_at, passes_at = 2 * seats, 3 * seats, 4 * seats, 4 * seats + leaves
    options_at = passes_at + counters
    names, one_hots, width = [], [], 0      # each option's name, (each value's index, offset in the block)
    for name, opt in rules.options.items():
        values = list(opt.values)
        names.append(name)
        one_hots.append((_first_index(values), width))
        parts.append((f"option.{name}", (len(values),), f"option {name} (one-hot over {values})", *FLAG))
        width += len(values)
    chosen_of = _row(names)

    def options(chosen: tuple[Any, ...]) -> list[float]:
        block = [0.0] * width
        for value, (index, offset) in zip(chosen, one_hots, strict=True):
            block[offset + index[value]] = 1.0
        return block
    blocks = _Blocks(options, chosen_of, dict)

    def turn(g: Game, s: int | None, o: list[float], at: int) -> None:
        state = g.state
        if s is not None and 0 <= s < seats:            # None: the public view, nobody's
            o[at + s] = 1.0
        index = state.players - 1
        if 0 <= index < seats:
            o[at + seats + index] = 1.0
        moving = state.to_move
        if moving is not None and 0 <= moving < seats:
            o[at + moving_at + moving] = 1.0
        index = state.start_player
        if 0 <= index < seats:
            o[at + start_at + index] = 1.0
        leaf = state.at
        if not state.over and leaf is not None and 0 <= leaf < leaves:
            o[at + leaf_at + leaf] = 1.0
        here = at + passes_at
        for number in state.passes:
            o[here] = float(number)
            here += 1
        here = at + options_at
        o[here:here + width] = blocks.of(state.options)
    return _section(turn, parts)


def _seat_section(rules: Rules) -> _Section:
    """Each seat's resources and cards: the observer's by kind, others' only where public."""
    seats, resources = rules.max_players, list(rules.resources)
    width, row = len(resources), _row(resources)
    shown = [i for i, name in enumerate(resources) if name not in rules.hidden_resources]
    secret = len(shown) < width             # some resource is hidden from other seats
    card_ids = sorted(rules.cards)
    kinds = len(card_ids)
    card_index = {c: i for i, c in enumerate(card_ids)}
    public_index = {c: i for c, i in card_index.items() if not hidden(rules, c)}   # a public card: its index
    hand_at = seats * width
    sizes_at = hand_at + kinds
    purses_size, hands_size = seats * width, seats + seats * kinds

    def purses(s: int | None, purses_of: list[dict[str, Any]]) -> list[float]:
        if not secret:                      # every seat's numbers in a row, then zeros for seats not playing
            block = [float(value) for purse in purses_of for value in row(purse)]
            return block + [0.0] * (purses_size - len(block))
        block = [0.0] * purses_size
        for seat, purse in enumerate(purses_of):
            values = row(purse)
            for i in range(width) if seat == s else shown:
                block[seat * width + i] = float(values[i])
        return block

    def hands(held: list[list[str]]) -> list[float]:
        block = [0.0] * hands_size        # hand sizes, then the public cards of each hand
        for seat, cards in enumerate(held):
            block[seat] = float(len(cards))
            for card in cards:
                index = public_index.get(card)
                if index is not None:
                    block[seats + seat * kinds + index] += 1.0
        return block
    purses_blocks = _Blocks(lambda purses_of: purses(-1, purses_of), None, _dicts)
    hands_blocks = _Blocks(hands, None, _lists)

    def seat_fill(g: Game, s: int | None, o: list[float], at: int) -> None:
        state = g.state
        if secret:                          # what the observer sees of the purses depends on the observer
            o[at:at + purses_size] = purses(s, state.resources)
        else:
            o[at:at + purses_size] = purses_blocks.of(state.resources)
        here = at + hand_at
        for card in _own(state.hands, s):
            o[here + card_index[card]] += 1.0
        here = at + sizes_at
        o[here:here + hands_size] = hands_blocks.of(state.hands)
    copies = _copies(rules, card_ids)         # a hand holds at most every copy of a kind
    return _section(seat_fill, [
        ("resources", (seats, width), f"each seat's {', '.join(resources)} (zero for another seat's hidden ones)",
         0.0, float(MAX_AMOUNT)),
        ("hand", (kinds,), f"the observing seat's cards, counted by kind {card_ids}", 0.0, copies),
        ("hand_sizes", (seats,), "how many cards each seat holds", 0.0, float(sum(copies))),
        ("public_hands", (seats, kinds), "each seat's cards of public decks, by kind", 0.0, copies * seats)])


def _own(per_seat: list[Any], seat: int | None) -> Any:
    """The observing seat's own cards (none in the public view, whose seat is None)."""
    return per_seat[seat] if seat is not None else ()


def _copies(rules: Rules, card_ids: list[str]) -> tuple[float, ...]:
    """How many cards of each kind the rules have, in the order of `card_ids`."""
    return tuple(float(rules.cards[card].count) for card in card_ids)


def _held_section(rules: Rules) -> _Section:
    """The observing seat's cards of each resource held as cards."""
    parts: list[Part] = []
    denominations, offset = [], 0           # (name, each value's index, offset in the section)
    for name, held in rules.denominations.items():
        denominations.append((name, _first_index(held.values), offset))
        parts.append((f"held.{name}", (len(held.values),), f"the observing seat's {name} cards, counted by "
                      f"value {list(held.values)} (zero unless held as cards in this game)", 0.0, float(MAX_AMOUNT)))
        offset += len(held.values)

    def cards(g: Game, s: int | None, o: list[float], at: int) -> None:
        held = g.state.held
        for name, index, offset in denominations:
            per_seat = held.get(name)
            if per_seat:
                here = at + offset
                for value in _own(per_seat, s):
                    o[here + index[value]] += 1.0
    return _section(cards, parts)


def _pile_section(rules: Rules) -> _Section:
    """Decks, what was set aside, discards and the cards lying face up."""
    decks = list(rules.decks)
    count, deck_row = len(decks), _row(decks)
    discard_ids = sorted(rules.cards)               # a deck of places holds cards named by the places
    discard_index = {c: i for i, c in enumerate(discard_ids)}
    kinds = len(discard_ids)
    displayed = any(deck.display is not None for deck in rules.decks.values())
    discards_at = 2 * count
    size = kinds * (2 if displayed else 1)

    def counted(piles_of: tuple[dict[str, list[str]], dict[str, list[str]]]) -> list[float]:
        discarded, face_up = piles_of
        block = [0.0] * size                # the discards by kind, then the cards face up by kind
        for pile in discarded.values():
            for card in pile:
                block[discard_index[card]] += 1.0
        for pile in face_up.values():
            for card in pile:
                block[kinds + discard_index[card]] += 1.0
        return block
    blocks = _Blocks(counted, None, lambda piles_of: (_piles(piles_of[0]), _piles(piles_of[1])))
    no_display: dict[str, list[str]] = {}

    def piles(g: Game, s: int | None, o: list[float], at: int) -> None:
        state = g.state
        o[at:at + count] = map(float, map(len, deck_row(state.decks)))
        o[at + count:at + discards_at] = map(float, map(len, deck_row(state.boxed)))
        here = at + discards_at
        o[here:here + size] = blocks.of((state.discards, state.shown if displayed else no_display))
    copies = _copies(rules, discard_ids)
    in_deck = tuple(float(sum(card.count for card in rules.cards.values() if card.deck == deck)) for deck in decks)
    parts: list[Part] = [("decks", (2, count), f"cards left in each deck {decks}, then set aside", 0.0, in_deck * 2),
                         ("discards", (kinds,), "discarded cards by kind (cards, then places)", 0.0, copies)]
    if displayed:
        parts.append(("shown", (kinds,), "cards face up beside their decks, by kind", 0.0, copies))
    return _section(piles, parts)


def _place_section(rules: Rules) -> _Section:
    """Owners, tokens on the places, and what is left in each supply."""
    seats, places = rules.max_players, len(rules.place_ids)
    tokens, kinds = list(rules.token_supply), list(rules.supply)
    token_index = {token: i for i, token in enumerate(tokens)}
    width, supplies = len(tokens), _row(kinds)
    owned = bool(rules.ownership)
    tokens_at = places * (seats + 1) if owned else 0
    tokens_size = places * width
    supply_at = tokens_at + tokens_size

    def owned_by(owners: tuple[int, ...]) -> list[float]:
        block = [0.0] * tokens_at           # one-hot over the seats and nobody (the last)
        for p, w in enumerate(owners):
            one_hot(block, p * (seats + 1), seats if w < 0 else w, seats + 1)
        return block
    owners_blocks = _Blocks(owned_by)

    # The tokens, most of these numbers, would make a costly key (a tuple per place): the last
    # tokens seen are compared instead.
    tokens_blocks = _Blocks(_tokens_counter(token_index, width, tokens_size), None, _dicts)

    def place_fill(g: Game, s: int | None, o: list[float], at: int) -> None:
        state = g.state
        if owned:
            o[at:at + tokens_at] = owners_blocks[tuple(state.owner)]
        here = at + tokens_at
        o[here:here + tokens_size] = tokens_blocks.of(state.tokens)
        here = at + supply_at
        o[here:here + len(kinds)] = map(float, supplies(state.supply))
    parts: list[Part] = [("owner", (places, seats + 1), "each place's owner (one-hot; last: nobody)", *FLAG)
                         ] if owned else []
    return _section(place_fill, parts + [("tokens", (places, width), f"tokens on each place {tokens}",
                                          0.0, float(MAX_AMOUNT)),
                                         ("supply", (len(kinds),), f"pieces left in each supply {kinds}",
                                          0.0, float(MAX_AMOUNT))])


def _tokens_counter(token_index: dict[str, int], width: int, size: int) -> Callable[[Any], list[float]]:
    """The numbers of the tokens on each place, from each place's dict of tokens."""
    def counted(held_by_place: list[dict[str, Any]]) -> list[float]:
        # A count of 0 is not written: a place's dict keeps a token once taken away, and 0 (a
        # whole number: the DSL and the set-up know no other) is the 0.0 already there.
        block = [0.0] * size
        here = 0
        for held in held_by_place:
            if held:
                try:
                    for token, number in held.items():
                        if number:
                            block[here + token_index[token]] = float(number)
                except KeyError:            # a token these rules do not count on places: left out
                    for token, number in held.items():
                        index = token_index.get(token)
                        if number and index is not None:
                            block[here + index] = float(number)
            here += width
        return block
    return counted


def _record_section(rules: Rules) -> _Section:
    """Modifier values, and the kinds of card each seat played within a limit's lifetime."""
    seats, places = rules.max_players, len(rules.place_ids)
    card_index = {c: i for i, c in enumerate(sorted(rules.cards))}
    kinds = len(card_index)
    parts: list[Part] = []
    mods, offset = [], 0
    for name, mod in rules.vocab.all_modifiers().items():
        size = seats if mod.scope == "seat" else places if mod.scope == "place" else 1
        enum = rules.vocab.enums.get(mod.enum, ()) if mod.enum is not None else ()
        words = {w: i for i, w in enumerate(enum)}      # a word: its index
        mods.append((mod.name, size, offset, _Blocks(_mod_values(mod.default, size, words))))
        parts.append((f"mod.{name}", (size,), f"modifier {name} ({mod.scope})"))
        offset += size
    mods_size = offset
    try:                            # every modifier at its default, as before any is set
        unset: list[float] | None = [x for *_, blocks in mods for x in blocks[()]]
    except (KeyError, TypeError, ValueError):
        unset = None                # a default that is no number: it fails where it is read, as it did
    lifetimes = []
    for lifetime in sorted({d.one_per_kind for d in rules.decks.values() if d.one_per_kind}):
        lifetimes.append((lifetime, offset))
        parts.append((f"played.{lifetime}", (seats, kinds), f"kinds each seat played this {lifetime}", *FLAG))
        offset += seats * kinds

    def records(g: Game, s: int | None, o: list[float], at: int) -> None:
        state = g.state
        set_values = state.mods
        if not set_values and unset is not None:
            o[at:at + mods_size] = unset
        else:
            for name, size, offset, blocks in mods:
                held = set_values.get(name)
                here = at + offset
                o[here:here + size] = blocks[() if held is None else tuple(held)]     # never set: ()
        played = state.played
        for lifetime, offset in lifetimes:
            here = at + offset
            for kinds_played in played.get(lifetime, []):
                for card in kinds_played:
                    o[here + card_index[card]] = 1.0
                here += kinds
    return _section(records, parts)


def _mod_values(default: Any, size: int, words: dict[str, int]) -> Callable[[tuple[Any, ...]], list[float]]:
    """A modifier's values by seat or place from what is set (none set, or None: the default),
    a word as its index."""
    def values(held: tuple[Any, ...]) -> list[float]:
        block = [0.0] * size
        for i in range(size):
            value = default if i >= len(held) or held[i] is None else held[i]
            block[i] = bounded(words[value] if words else value)
        return block
    return values
