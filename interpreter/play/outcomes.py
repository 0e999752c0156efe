"""What each legal action would change if taken now, as data beside the legal actions: the price
it takes and the gain it brings, so that a page, a prompt or a learner shows "-15" of a resource
beside a purchase from the engine, with no word of any game in the client.

Each action is carried out on a copy (`Game.carry_out`), its own change only: the automatic
steps it would let run (a resolution, a reveal, the next phase's deal) are not, so nothing the
seat may not know yet is worked out. What that leaves unsaid, the mechanic or the rules say:

- a price paid later, should the choice stand (a bid's price when it wins, an offer's amount when
  the offers are shown), is the mechanic's `deferred` (interpreter/mechanics/base.py);
- a card played before the seat closes its turn (an income raised, a yield replaced) changes
  what closing would bring: the closing action's gain on the copy, less its gain without the
  card, is the card's `then`.

Chance is answered on the copy by a stand-in (always the first outcome), never by the game's
generator, and a change that drew cards or asked chance says so (`chance`), so the shown
amounts never tell what a draw will bring. Another seat's amount of a hidden resource may cap
what the action moves (taking up to 3 from a purse no one sees): such a resource is left out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..base.actions import CLOSE, DECIDE, PLAY
from ..model import Game

Amounts = dict[str, int]          # resource (or token) -> change


@dataclass(frozen=True)
class Outcome:
    """What one action changes for the seat taking it, if taken now."""
    now: Amounts = field(default_factory=dict)         # resources paid (negative) or gained at once
    later: Amounts = field(default_factory=dict)       # committed should the choice stand (a bid paid when it wins)
    then: Amounts = field(default_factory=dict)        # what it adds to closing the turn (a card raising an income)
    closing: str = ""                                  # the type of the action that closes the turn, for `then`
    tokens: dict[str, Amounts] = field(default_factory=dict)    # place -> token -> change
    owns: tuple[str, ...] = ()                         # places the seat comes to own
    cards: int = 0                                     # cards the seat's hand gains (negative: gives up)
    chance: bool = False                               # cards drawn or chance asked: the amounts may differ

    def __bool__(self) -> bool:
        return bool(self.now or self.later or self.then or self.tokens or self.owns or self.cards or self.chance)

    def to_json(self) -> dict[str, Any]:
        """The outcome as plain data, its empty parts left out."""
        found: dict[str, Any] = {name: value for name, value in (
            ("now", self.now), ("later", self.later), ("then", self.then), ("tokens", self.tokens),
            ("owns", list(self.owns)), ("cards", self.cards)) if value}
        if self.then:
            found["closing"] = self.closing
        if self.chance:
            found["chance"] = True
        return found


def _first(n: int) -> int:
    """The stand-in for chance on a copy: always the first outcome."""
    return 0


def trial_copy(game: Game) -> Game:
    """A copy to try moves on without telling what chance holds: no events, and its chance
    answered by a stand-in (its draws recorded, so that being asked is seen)."""
    return game.clone(events=False, chance=_first)


def outcomes_of(game: Game) -> dict[int, Outcome]:
    """Each legal action id of the seat to move with what it would change (nothing while no seat
    is to move)."""
    seat = game.to_move
    if seat is None or game.over:
        return {}
    ids = game.legal_action_ids()
    plan = game.rules.leaf_plans[game.state.at]
    closing = plan.closing_id if plan.closing_id in ids else -1
    before = _closing_gain(game, seat, closing) if closing >= 0 else {}
    return {action_id: _outcome(game, seat, action_id, closing, before) for action_id in ids}


def _outcome(game: Game, seat: int, action_id: int, closing: int, before: Amounts) -> Outcome:
    copy = trial_copy(game)
    copy.carry_out(seat, action_id)
    space = game.rules.actions
    block, indices = space.block_at[action_id], space.indices_at[action_id]
    then: Amounts = {}
    if block.rank == PLAY and closing >= 0:
        then = _difference(before, _closing_gain(copy, seat, closing))
    closes = space.block_at[closing].type if then else ""
    mech = game.rules.leaf_plans[game.state.at].mech
    later = mech.deferred(game, seat, block, indices) if block.rank in (DECIDE, CLOSE) else {}
    return Outcome(now=_gained(game, copy, seat), later={k: v for k, v in later.items() if v}, then=then,
                   closing=closes, tokens=_tokens(game, copy), owns=_owns(game, copy, seat),
                   cards=len(copy.state.hands[seat]) - len(game.state.hands[seat]),
                   chance=bool(copy.draws) or _drew(game, copy))


def _closing_gain(game: Game, seat: int, closing: int) -> Amounts:
    """What closing the seat's turn would bring it now, on a copy."""
    copy = trial_copy(game)
    copy.carry_out(seat, closing)
    return _gained(game, copy, seat)


def _gained(game: Game, copy: Game, seat: int) -> Amounts:
    """The seat's resources on the copy less the game's, but those that moved in another seat's
    hidden purse (what they moved may tell its amount)."""
    now, was = copy.state.resources, game.state.resources
    hidden = game.rules.hidden_resources
    unsaid = {name for other in range(game.state.players) if other != seat
              for name in hidden if now[other][name] != was[other][name]}
    return {name: now[seat][name] - amount for name, amount in was[seat].items()
            if now[seat][name] != amount and name not in unsaid}


def _difference(before: Amounts, after: Amounts) -> Amounts:
    return {name: after.get(name, 0) - before.get(name, 0) for name in sorted({*before, *after})
            if after.get(name, 0) != before.get(name, 0)}


def _tokens(game: Game, copy: Game) -> dict[str, Amounts]:
    place_ids, was = game.rules.place_ids, game.state.tokens
    changed = {}
    for p, now in enumerate(copy.state.tokens):
        if now != was[p]:
            changed[place_ids[p]] = {kind: now.get(kind, 0) - was[p].get(kind, 0) for kind in sorted({*now, *was[p]})
                                     if now.get(kind, 0) != was[p].get(kind, 0)}
    return changed


def _owns(game: Game, copy: Game, seat: int) -> tuple[str, ...]:
    was = game.state.owner
    return tuple(game.rules.place_ids[p] for p, owner in enumerate(copy.state.owner) if owner == seat != was[p])


def _drew(game: Game, copy: Game) -> bool:
    """Whether the copy drew from a deck (its order is the game's own: what comes is not told)."""
    return any(len(pile) < len(game.state.decks[name]) for name, pile in copy.state.decks.items())
