"""The lint's deck check: whether every deck can supply what the flow asks of it.

Each mechanic that moves cards whatever the players decide has an entry in `DECK_FLOWS`
(below: an auction draws its lots and discards them, a deal fills the hands, a reset shuffles
the discards back); only the lint asks this of a phase, so the registry is the lint's, not the
mechanic's (tools/mechanic_hooks.py). Following the flow phase by phase (tools/flow_walk.py),
at every player count the rules allow, counts the cards in each deck, its discard pile and the
hands, from the set-up on (interpreter/play/setup.py: the cards, less the set-up hands and what
the set-up sets aside, less the display). A phase that asks for more than there is, say a
fourth round whose auction finds the province deck empty, is reported at the parameter that
asks. Cards drawn by choice (a market's purchases) are not followed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..interpreter.base.errors import AmunreError
from ..interpreter.dsl.context import Ctx
from ..interpreter.game import Game, new_game
from ..interpreter.mechanics.base import Mechanic
from ..interpreter.mechanics.deal import Deal
from ..interpreter.mechanics.draft import Draft
from ..interpreter.mechanics.placement import PlacementAuction
from ..interpreter.mechanics.reset import Reset
from ..interpreter.mechanics.reveal import Reveal
from ..interpreter.mechanics.secret_pick import SecretPick
from ..interpreter.model import Rules
from .flow_walk import walk
from .mechanic_hooks import entry

Finding = tuple[tuple, str, str, str]          # (path, deck, message, hint)


@dataclass(frozen=True)
class DeckFlow:
    """One way a phase moves the cards of a deck, whatever the players decide:
    - `draw`: `count` cards (per seat if `per_seat`) from the deck, reshuffling its discards
      if it may, into the hands (`into="hand"`) or into the phase, discarded as it ends
      (`into="discard"`); `param` is the parameter that asks for them;
    - `return`: each seat holding a card of the deck puts one back on top of it;
    - `take`: each seat takes a card of the deck's display (into the hand, or the discard pile
      for a deck of places), then the display is laid out again;
    - `refill`: the deck is gathered again, with its display, its discard pile if `discards`
      and the cards set aside at set-up if `set_aside` (compiled conditions, no seat)."""
    kind: str
    deck: str
    count: Any = None                  # a number, or a compiled expression (no seat)
    per_seat: bool = False
    into: str = "hand"
    param: tuple[str, ...] = ()
    discards: Any = None
    set_aside: Any = None


def _placement(mech: PlacementAuction) -> tuple[DeckFlow, ...]:
    return (DeckFlow("draw", mech.deck, mech.count, into="discard", param=("lots", "count")),)


def _deal(mech: Deal) -> tuple[DeckFlow, ...]:
    return (DeckFlow("draw", mech.deck, mech.count, per_seat=True, param=("count",)),)


def _draft(mech: Draft) -> tuple[DeckFlow, ...]:
    return (DeckFlow("take", mech.deck, into="discard" if mech.of_places else "hand", param=("deck",)),)


def _reset(mech: Reset) -> tuple[DeckFlow, ...]:
    return (DeckFlow("refill", mech.deck, discards=mech.p.rebuild_from_discards,
                     set_aside=mech.p.rebuild_from_set_aside),) if mech.deck else ()


def _reveal(mech: Reveal) -> tuple[DeckFlow, ...]:
    return (DeckFlow("draw", mech.deck, 1, into="discard", param=("deck",)),)


def _secret_pick(mech: SecretPick) -> tuple[DeckFlow, ...]:
    return (DeckFlow("return", mech.deck),)


# How each mechanic moves cards whatever the players decide; a mechanic not here moves none.
DECK_FLOWS: dict[type[Mechanic], Callable[[Any], tuple[DeckFlow, ...]]] = {
    PlacementAuction: _placement, Deal: _deal, Draft: _draft, Reset: _reset, Reveal: _reveal,
    SecretPick: _secret_pick}


def deck_flows(mech: Mechanic) -> tuple[DeckFlow, ...]:
    """How this phase moves cards whatever the players decide (none, for a mechanic not in DECK_FLOWS)."""
    flows = entry(DECK_FLOWS, mech)
    return flows(mech) if flows is not None else ()


def deck_findings(rules: Rules, probe: Game | None) -> list[Finding]:
    """One finding per phase parameter that asks a deck for more cards than it has."""
    if probe is None:
        return []
    short: dict[tuple, list[tuple[int, str, int]]] = {}
    for players in range(rules.min_players, rules.max_players + 1):
        try:
            game = new_game(rules, players=players, seed=0, events=False)
            for where, message, start in _shortfalls(rules, game):
                short.setdefault(where, []).append((players, message, start))
        except AmunreError:
            continue                       # a game that fails at once: `validate --play` shows it
    found = []
    for (phase, param, deck), cases in short.items():
        players, message, start = cases[0]
        counts = _and([str(n) for n, _, _ in cases])
        found.append((("phases", phase) + param, deck,
                      f"the deck '{deck}' runs out: at {counts} players, {message}",
                      f"after the set-up it holds {start} cards at {players} players"))
    return found


@dataclass
class _Deck:
    """Counts of one deck's cards as the flow is followed."""
    pile: int
    aside: int = 0
    shown: int = 0
    discard: int = 0
    hands: int = 0

    def lay_out(self, display: int) -> None:
        self.shown = min(display, self.pile)
        self.pile -= self.shown

    def refill(self, discards: bool, set_aside: bool, display: int) -> None:
        """The deck gathered again: its display, maybe its discards and the set-aside cards."""
        self.pile, self.shown = self.pile + self.shown, 0
        if discards:
            self.pile, self.discard = self.pile + self.discard, 0
        if set_aside:
            self.pile, self.aside = self.pile + self.aside, 0
        self.lay_out(display)

    def take(self, players: int, into: str, display: int) -> int:
        """A draft: one face-up card a seat while they last, then the display laid out again;
        how many were taken."""
        got = min(players, self.shown)
        self.shown -= got
        self._keep(got, into)
        self.lay_out(display)
        return got

    def give_back(self, players: int) -> None:
        """Each seat holding a card of the deck puts one back on it."""
        back = min(players, self.hands)
        self.pile, self.hands = self.pile + back, self.hands - back

    def draw(self, want: int, reshuffles: bool, into: str) -> int:
        """Up to `want` cards from the pile, then from the discards if they are shuffled back;
        how many there were."""
        got = min(want, self.pile + (self.discard if reshuffles else 0))
        from_pile = min(got, self.pile)
        self.pile, self.discard = self.pile - from_pile, self.discard - (got - from_pile)
        self._keep(got, into)
        return got

    def _keep(self, got: int, into: str) -> None:
        """Cards taken into the hands stay there; cards taken into the phase are discarded as it ends."""
        if into == "hand":
            self.hands += got
        else:
            self.discard += got


def _shortfalls(rules: Rules, game: Game) -> list[tuple[tuple, str, int]]:
    """(phase, parameter, deck), what falls short and the deck's size after the set-up, for
    each phase of the flow that asks for more cards than there are (first time only)."""
    players, ctx = game.state.players, Ctx(game)
    state = {name: _dealt(rules, name, players, ctx) for name in rules.decks}
    start = {name: deck.pile for name, deck in state.items()}
    found: list[tuple[tuple, str, int]] = []
    seen: set[tuple] = set()
    for step in walk(rules.flow, ctx):
        mech = rules.phases[step.phase]
        if _holds(mech.skip_if, ctx, False):
            continue
        for flow in deck_flows(mech):
            short = _follow(flow, state[flow.deck], rules, ctx, players)
            where = (step.phase, flow.param, flow.deck)
            if short is not None and where not in seen:
                seen.add(where)
                found.append((where, f"'{step.phase}' in age {step.age}, round {step.round} {short}",
                              start[flow.deck]))
    return found


def _follow(flow: DeckFlow, deck: _Deck, rules: Rules, ctx: Ctx, players: int) -> str | None:
    """Move the deck's counts as one flow moves its cards; in words, what the flow found short
    of what it needed, if it did."""
    if flow.kind == "refill":
        deck.refill(_holds(flow.discards, ctx, True), _holds(flow.set_aside, ctx, False),
                    _count(rules.decks[flow.deck].display, ctx))
    elif flow.kind == "take":
        got = deck.take(players, flow.into, _count(rules.decks[flow.deck].display, ctx))
        if got < players:
            return f"has {got} face-up cards for {players} seats"
    elif flow.kind == "return":
        deck.give_back(players)
    elif flow.kind == "draw":
        want = _count(flow.count, ctx) * (players if flow.per_seat else 1)
        got = deck.draw(want, flow.into == "hand" and rules.decks[flow.deck].reshuffle, flow.into)
        if got < want:
            return f"asks for {want} cards and gets {got}"
    return None


def _dealt(rules: Rules, name: str, players: int, ctx: Ctx) -> _Deck:
    """The deck after the set-up (interpreter/play/setup.py): its cards, less those every seat
    starts with, less the places its set-up `where` leaves out, cut to its set-up `count`
    (the rest set aside), less its display."""
    deck = rules.decks[name]
    size = len(deck.places) if deck.of_places else sum(c.count for c in rules.cards.values() if c.deck == name)
    hands = players * sum(1 for c in rules.setup_hand if rules.cards[c].deck == name)
    state = _Deck(max(size - hands, 0), hands=hands)
    setup = rules.deck_setups.get(name)
    if setup is not None and setup.where is not None:
        kept = sum(1 for place in deck.places if _holds(setup.where, ctx, True, rules.place_index[place]))
        state.aside, state.pile = state.pile - min(kept, state.pile), min(kept, state.pile)
    if setup is not None and setup.count is not None:
        count = _count(setup.count, ctx)
        state.aside, state.pile = state.aside + max(state.pile - count, 0), min(state.pile, count)
    state.lay_out(_count(deck.display, ctx))
    return state


def _holds(condition: Any, ctx: Ctx, default: bool, *it: Any) -> bool:
    """A condition's value as the game starts (default options); `default` if there is none,
    or if it cannot be told without playing."""
    if condition is None:
        return default
    try:
        return bool(condition.fn(ctx, *it))
    except AmunreError:
        return default


def _count(expression: Any, ctx: Ctx) -> int:
    if expression is None:
        return 0
    if isinstance(expression, int):
        return max(expression, 0)
    try:
        return max(int(expression.fn(ctx)), 0)
    except AmunreError:
        return 0


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
