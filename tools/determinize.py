"""Determinization: a copy of a game in which every fact one seat cannot see is drawn anew,
consistently with what that seat sees.

Search over hidden information (an information-set agent, or an OpenSpiel-style
`resample_from_infostate`) plays out guesses about what it cannot see. A guess must agree with
everything the seat sees and be drawn from nothing else, so it is built from what the
observation (interpreter/play/observe.py) masks:

- cards: other seats' cards of hidden decks, the order and content of every draw pile, the
  cards set aside, and the cards a phase holds in secret (`HIDDEN_CARDS`, below: cards
  offered face down, secret picks). All of them are pooled and dealt out again at random,
  each to a place that may hold it (a pile only its own deck's cards; a hidden hand card only a
  card of a hidden deck);
- money held as cards: other seats' cards of a resource held as cards are any that add up to
  the total the seat sees;
- choices: what other seats chose in secret (an offer's amount) is chosen again among what
  they could have chosen (`RESAMPLE`), uniformly unless the caller gives a policy;
- chance: the random generator and the seed are drawn anew, so the future is not the real one;
- the record: the action ids applied (which show secret choices) become -1; their number, the
  readable events and the set-up's public options stay.

Pooling the cards that lie anywhere hidden is the same as taking every card minus the cards the
seat sees; the pool is sorted and other hands are sorted after the deal, so a guess depends on
the observation and the generator alone: two games the seat cannot tell apart give the same
guess for the same generator state (so an agent that only plays on guesses cannot peek). It
agrees with the observation as it is now, not with everything the seat could remember (that a
seat was dealt three cards of one deck, say). A guess is checked against the observation once
the decision is worked out again from it (in a guess another seat may hold no card it could play
now, and not be asked), and drawn again if it differs; where working it out ran nothing (the
seat to move asked again, the position standing still) it shows what the game shows, and is
not compared. A determinized game is a position for search: it cannot be saved or replayed.

What a phase keeps secret is declared here, by mechanic, not in the mechanics (only a guess
asks it; tools/mechanic_hooks.py): `HIDDEN_CARDS`, the cards in a running phase's data that a
seat may not see; `SEEN_CARDS`, face-down cards of a draw pile a seat has seen (which a guess
leaves where they are); `RESAMPLE`, how a running phase's secret choices other than cards are
made again. A mechanic that masks something in `observe` must declare it in `HIDDEN_CARDS` or
`RESAMPLE`, or search agents would see it (tests/test_determinize.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from weakref import WeakKeyDictionary

from ..interpreter.base.errors import AmunreError
from ..interpreter.game import Game
from ..interpreter.mechanics.base import Mechanic
from ..interpreter.mechanics.lot_auction import LotAuction
from ..interpreter.mechanics.reveal import Reveal
from ..interpreter.mechanics.secret_offer import SecretOffer
from ..interpreter.mechanics.secret_pick import SecretPick
from ..interpreter.model import Rules
from ..interpreter.play.observe import observation
from .mechanic_hooks import entry
from .sampling import sample

# Guesses drawn before giving up on one the seat cannot tell from the game. Where the seat to
# move must hold a card it can play now, few guesses agree: 18 in 400 in the position of
# tests/test_determinize.py `test_a_guess_is_found_where_few_deals_agree`, where 50 tries
# failed about one time in ten (a search bot then stopped with an error). 1,000 fail there one
# time in a billion; a position where 50 were enough draws the same guess as before (the same
# draws, in the same order).
TRIES = 1000

Choose = Callable[[Any, int, list[int]], int]
Slot = tuple[list[Any], int, frozenset[str]]     # (the list that holds a card, its index there, the cards it may be)


# ---- what each mechanic keeps secret --------------------------------------------------------------
def _picks_face_down(mech: SecretPick, data: dict[str, Any], seat: int) -> list[Slot]:
    """Other seats' picks, until they are revealed."""
    if data["revealed"]:
        return []
    allowed = frozenset(mech.index)
    return [(data["picks"], other, allowed) for other, pick in enumerate(data["picks"])
            if other != seat and pick is not None]


def _attached_face_down(mech: SecretOffer, data: dict[str, Any], seat: int) -> list[Slot]:
    """The cards other seats attached to their offers, until every offer is in."""
    if data.get("stage") != "offer" or mech.attach is None:
        return []
    allowed = mech.attachable
    return [(held, i, allowed) for other, held in enumerate(data["attached"]) if other != seat
            for i in range(len(held))]


def _peeked(mech: Reveal, game: Game, seat: int) -> list[tuple[str, int]]:
    """The deck's next card, which the seat sees while it may peek."""
    return [(mech.deck, 0)] if mech.peeking(game, seat) else []


def _sealed_bids(mech: LotAuction, game: Game, seat: int, choose: Choose) -> None:
    """Other seats' sealed bids, until every bid is in: a bid (or none) they could have made."""
    data = mech.running(game)
    if data is None or data["style"] != "sealed" or None not in data["sealed"]:
        return
    space = game.rules.actions
    for other, bid in enumerate(data["sealed"]):
        if other != seat and bid is not None:
            chosen = choose(game, other, mech.legal(game, other))
            data["sealed"][other] = space.indices_at[chosen][0] if space.block_at[chosen] is mech.bid else 0
    # The declines as the game counts them (a sealed bid is 1 or more, a decline 0), so that
    # the guess is a position the game could be in, not only one the seat cannot tell from it.
    data["passed"] = data["sealed"].count(0)


def _offers(mech: SecretOffer, game: Game, seat: int, choose: Choose) -> None:
    """Other seats' offers, until every offer is in: one they could have made (their attached
    cards are dealt again with the other hidden cards)."""
    data = game.state.working
    if data["stage"] != "offer":
        return
    space = game.rules.actions
    for other, offer in enumerate(data["offers"]):
        if other == seat or offer is None:
            continue
        ids = [i for i in mech.legal(game, other) if space.block_at[i] is not mech.attach]
        chosen = choose(game, other, ids)
        data["offers"][other] = mech.offer_of(space.block_at[chosen], space.indices_at[chosen])


# The cards in a running phase's data that a seat may not see (a mechanic not here: none).
HIDDEN_CARDS: dict[type[Mechanic], Callable[[Any, dict[str, Any], int], list[Slot]]] = {
    SecretPick: _picks_face_down, SecretOffer: _attached_face_down}
# Face-down cards of a draw pile a seat has seen, as (deck, index in the pile), whether the
# phase runs or not (a mechanic not here: none).
SEEN_CARDS: dict[type[Mechanic], Callable[[Any, Game, int], list[tuple[str, int]]]] = {Reveal: _peeked}
# How a running phase's secret choices other than cards are made again, each by
# `choose(game, other, ids)` among the ids that seat could have chosen (a mechanic not here:
# none). Its cards are dealt out again before this is called.
RESAMPLE: dict[type[Mechanic], Callable[[Any, Game, int, Choose], None]] = {
    LotAuction: _sealed_bids, SecretOffer: _offers}


def hidden_cards(mech: Mechanic, data: dict[str, Any], seat: int) -> list[Slot]:
    """The cards in the phase's working data `data` that `seat` may not see, as slots."""
    found = entry(HIDDEN_CARDS, mech)
    return found(mech, data, seat) if found is not None else []


def seen_cards(game: Game, seat: int) -> set[tuple[str, int]]:
    """Face-down cards of draw piles that `seat` has seen, as (deck, index in the pile), by
    the leave of every phase that may show one (SEEN_CARDS)."""
    return {(name, i) for mech, seen_by in card_sets(game.rules).seeing for name, i in seen_by(mech, game, seat)}


def resample(mech: Mechanic, game: Game, seat: int, choose: Choose) -> None:
    """Make again the choices this running phase hides from `seat`."""
    found = entry(RESAMPLE, mech)
    if found is not None:
        found(mech, game, seat, choose)


@dataclass(frozen=True)
class CardSets:
    """The cards that may lie in each deck's piles, and in a hand where others see only "?";
    and the phases that may let a seat see face-down cards (SEEN_CARDS), found once per
    rules: a search draws a guess at every iteration."""
    deck: dict[str, frozenset[str]]
    hidden: frozenset[str]
    seeing: tuple[tuple[Mechanic, Callable[[Any, Game, int], list[tuple[str, int]]]], ...]


_SETS: WeakKeyDictionary[Any, CardSets] = WeakKeyDictionary()


def card_sets(rules: Rules) -> CardSets:
    found = _SETS.get(rules)
    if found is None:
        decks = {name: frozenset(c for c, card in rules.cards.items() if card.deck == name) for name in rules.decks}
        hidden = frozenset(c for name, cards in decks.items() if rules.decks[name].hidden for c in cards)
        seeing = tuple((mech, seen) for mech in rules.phases.values()
                       if (seen := entry(SEEN_CARDS, mech)) is not None)
        found = _SETS[rules] = CardSets(decks, hidden, seeing)
    return found


def uniform(rng: random.Random) -> Choose:
    """Secret choices made again uniformly among what the seat could have chosen."""
    return lambda game, seat, ids: rng.choice(ids)


def determinize(game: Game, seat: int, rng: random.Random, choose: Choose | None = None,
                events: bool = False) -> Game:
    """A game that `seat` cannot tell from `game` (its observation and observation tensor are
    the same), with every hidden fact drawn anew from `rng`. `choose(game, other, ids)` makes
    other seats' secret choices again (default: uniformly). `events` keeps a copy of the
    readable log (so that the observation's count of events is the same too)."""
    return Guesses(game, seat, events).draw(rng, choose)


class Guesses:
    """Guesses of one position for one seat, drawn one by one (`draw`): what the seat sees and
    how the hidden cards are dealt are worked out once (the view only if a guess must be
    compared with it), however many guesses are drawn. A search draws one at every iteration
    from the same position. The position must not change while guesses are drawn from it."""

    def __init__(self, game: Game, seat: int, events: bool = False) -> None:
        self.game, self.seat, self.events = game, seat, events
        if type(seat) is not int or not 0 <= seat < game.state.players:     # -1 would be the last seat
            raise AmunreError(f"a guess is made for a seat of the game, 0 to {game.state.players - 1}, "
                              f"not {seat!r}")
        self.seen: dict[str, Any] | None = None
        self.dealing: Deal | None = None

    def _view(self) -> dict[str, Any]:
        if self.seen is None:
            self.seen = _seen(self.game, self.seat, self.events)
        return self.seen

    def deal(self) -> Deal:
        """How this position's hidden cards are dealt (worked out at the first guess)."""
        if self.dealing is None:
            self.dealing = Deal.of(self.game, self.seat)
        return self.dealing

    def draw(self, rng: random.Random, choose: Choose | None = None) -> Game:
        """One guess (as `determinize` says), its hidden facts drawn from `rng`."""
        choose = choose or uniform(rng)
        for _ in range(TRIES):
            found = self.settle(self.dealt(rng), rng, choose)
            if found is not None:
                return found
        raise self.none_agrees()

    def none_agrees(self) -> AmunreError:
        return AmunreError(f"no guess of the hidden facts in {TRIES} tries agrees with what seat {self.seat} sees "
                           f"(phase '{self.game.step.phase}')")

    def dealt(self, rng: random.Random) -> Dealt:
        """A guess's cards, drawn from `rng` before anything else of it: a caller that writes
        them somewhere else (a state row of the compiled engine) draws them the same way."""
        return Dealt(self.deal().cards(rng), _held_again(self.game, self.seat, rng))

    def settle(self, dealt: Dealt, rng: random.Random, choose: Choose,
               generator: tuple[int, int] | None = None) -> Game | None:
        """The guess these cards make: a copy of the position with them put in, the running
        phase's secret choices made again, a new generator (`generator`, if it was drawn
        already), its decision worked out again; None if the seat could tell it from the game."""
        game, seat, events = self.game, self.seat, self.events
        state = game.state.clone()
        copy = Game(game.rules, state, [-1] * len(game.history), events, {"options": dict(state.options)},
                    game.unlimited)
        if events and game.log is not None:
            copy.log = list(game.log)
        self.deal().put(copy, seat, dealt.cards)
        for name, drawn in dealt.held.items():
            for other, cards in drawn.items():
                state.held[name][other] = list(cards)
        if state.working is not None:
            resample(game.rules.mechanic_at(state.at), copy, seat, choose)
        state.rng, state.seed = generator if generator is not None else (rng.getrandbits(64), rng.getrandbits(62))
        try:
            still = copy.decide_again()        # the decision worked out again from the guess
        except AmunreError:
            return None
        # A guess changes only what the seat cannot see (tests/test_determinize.py holds every
        # mechanic to it), so a guess that stood still while its decision was worked out shows
        # the seat what the game shows; one that ran on may have left the seat to move
        # nothing to decide, and is compared whole.
        return copy if still or _seen(copy, seat, events) == self._view() else None

    def cards_only(self) -> bool:
        """Whether a guess of this position draws its cards and its generator and nothing else
        (no running phase's secret choice to make again, no card in the phase's data): then
        `settle` draws nothing more than the generator."""
        state = self.game.state
        if state.working is None:
            return True
        mech = self.game.rules.mechanic_at(state.at)
        return entry(RESAMPLE, mech) is None and not working_slots(self.game, self.seat)


@dataclass(frozen=True)
class Dealt:
    """One guess's cards: each hidden place's card, in the deal's order, and other seats' cards
    of each resource held as cards (by resource, then seat)."""
    cards: list[tuple[Place, str]]
    held: dict[str, dict[int, tuple[int, ...]]]


def _seen(game: Game, seat: int, events: bool) -> dict[str, Any]:
    """The seat's view, to compare only (the position's own lists, not copies)."""
    seen = observation(game, seat, copies=False)
    if not events:
        seen["log"] = 0
    return seen


HANDS, DECKS, BOXED, WORKING = range(4)     # where a place of the deal is: its list is found anew in each copy
Place = tuple[int, Any, int]                    # (where, its key there, the index in its list)


@dataclass(frozen=True)
class Deal:
    """The deal of one position's hidden cards for one seat, worked out once for all its
    guesses (every copy holds the same cards in the same places until it is dealt): the pool
    of cards the seat cannot see, in an order the seat could know, and the places they go,
    grouped by the cards a place may take, narrowest first. The sets are nested or apart (a
    deck, the hidden decks, a mechanic's cards of one window), so filling them narrowest first
    never runs short."""
    pool: tuple[str, ...]
    groups: tuple[tuple[frozenset[str], tuple[Place, ...]], ...]
    fits: tuple[tuple[int, ...], ...]       # per group, the pool's cards it may take, by their place in the pool

    @classmethod
    def of(cls, game: Game, seat: int) -> Deal:
        runs = _hidden_runs(game, seat)
        groups: dict[frozenset[str], list[Place]] = {}
        for (kind, key), _, indices, allowed in runs:
            groups.setdefault(allowed, []).extend([(kind, key, i) for i in indices])
        narrowest_first = sorted(groups.items(), key=lambda item: len(item[0]))
        pool = tuple(sorted([held[i] for _, held, indices, _ in runs for i in indices]))
        fits = [tuple([k for k, card in enumerate(pool) if card in allowed]) for allowed, _ in narrowest_first]
        return cls(pool, tuple([(allowed, tuple(places)) for allowed, places in narrowest_first]), tuple(fits))

    def cards(self, rng: random.Random) -> list[tuple[Place, str]]:
        """The pool dealt out again at random: each place with its card. Each group draws among
        the cards it may take that earlier groups left, in the pool's order (as if those were
        taken out of the pool), with rng.sample's draws (tools/sampling.py)."""
        pool, dealt = self.pool, []
        taken: set[int] = set()
        for (allowed, places), fitting in zip(self.groups, self.fits):
            fits = [k for k in fitting if k not in taken] if taken else list(fitting)
            if len(fits) < len(places):
                raise AmunreError(f"cannot deal the hidden cards again: {len(places)} places take only "
                                  f"{sorted(allowed)[:5]}..., and {len(fits)} such cards are unseen")
            chosen = sample(rng, fits, len(places))
            dealt += [(place, pool[k]) for place, k in zip(places, chosen)]
            taken.update(chosen)
        return dealt

    def put(self, game: Game, seat: int, dealt: list[tuple[Place, str]]) -> None:
        """The dealt cards put in their places of `game`, a copy of the position this deal was
        worked out from."""
        state = game.state
        lists = (state.hands, state.decks, state.boxed)
        working = working_slots(game, seat)
        for (kind, key, i), card in dealt:
            if kind == WORKING:
                held, i, _ = working[key]           # its list and index in this copy's working data
            else:
                held = lists[kind][key]
            held[i] = card
        for other, hand in enumerate(state.hands):
            if other != seat:
                hand.sort()                                   # where a hidden card lay is not seen either


def _held_again(game: Game, seat: int, rng: random.Random) -> dict[str, dict[int, tuple[int, ...]]]:
    """Other seats' cards of a resource held as cards (interpreter/play/denominations.py): the seat
    sees only their total, so any cards adding up to it, drawn one value at a time."""
    state = game.state
    drawn: dict[str, dict[int, tuple[int, ...]]] = {}
    for name, per_seat in state.held.items():
        values = game.rules.denominations[name].values
        drawn[name] = mine = {}
        for other in range(len(per_seat)):
            if other != seat:
                left, cards = state.resources[other][name], []
                while left > 0:
                    value = rng.choice([v for v in values if v <= left])
                    cards.append(value)
                    left -= value
                mine[other] = tuple(sorted(cards, reverse=True))
    return drawn


Run = tuple[tuple[int, Any], list[Any], list[int], frozenset[str]]   # (where, its list, indices, the cards there)


def _hidden_runs(game: Game, seat: int) -> list[Run]:
    """Every place a card lies that the seat cannot see, with the cards that may lie there, a
    list at a time: where the list is (its list is found again in a copy), the list, the
    indices of such places in it, and the cards they may hold."""
    state, rules = game.state, game.rules
    sets = card_sets(rules)
    hidden = sets.hidden
    runs: list[Run] = []
    if hidden:
        runs += [((HANDS, other), hand, [i for i, card in enumerate(hand) if card in hidden], hidden)
                 for other, hand in enumerate(state.hands) if other != seat]
    seen = seen_cards(game, seat)
    runs += [((DECKS, name), pile, [i for i in range(len(pile)) if (name, i) not in seen] if seen
              else list(range(len(pile))), sets.deck[name]) for name, pile in state.decks.items()]
    runs += [((BOXED, name), pile, list(range(len(pile))), sets.deck[name]) for name, pile in state.boxed.items()]
    runs += [((WORKING, n), held, [i], allowed) for n, (held, i, allowed) in enumerate(working_slots(game, seat))]
    return runs


def working_slots(game: Game, seat: int) -> list[Slot]:
    """The cards the running phase's working data holds that the seat cannot see."""
    state = game.state
    return hidden_cards(game.rules.mechanic_at(state.at), state.working, seat) if state.working is not None else []
