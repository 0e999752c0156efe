"""A resource held as cards of fixed values, where a rules file's reading asks for it.

A resource is a number: any amount a seat has can be paid. Some rules hand it out as cards
(of 1, 2, 5, 10 and 20, say) and never say that a player may change them at will; then what
a seat can offer face down is only what some of its own cards add up to. A rules file
declares the values under `resources.NAME.denominations`, with a condition on the options
(`when`) read as a game starts; while it holds, each seat's cards are kept in
`state.held[NAME][seat]` (card values, largest first) beside its counter, which stays the
total, so nothing that reads or ranks the resource changes. The fixed ways money moves:

- a payment (any loss) hands over the cards whose sum is the smallest the seat can make at or
  above the amount, the fewest such cards, and the bank gives the difference back;
- the bank pays (any gain, change included) with the largest cards first;
- a `secret_offer` of the resource is an amount some of the seat's cards add up to
  (`sums`), so paying it takes exactly those cards and no change.

The bank's cards never run out. A game whose rules declare no denominations, or whose
condition does not hold, has an empty `state.held`, and every check is one empty dict.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .context import Ctx
from .limits import MAX_HELD_AMOUNT


@dataclass(frozen=True)
class Denominations:
    resource: str
    values: tuple[int, ...]          # the card values, largest first
    start: tuple[int, ...]           # the cards each seat starts with, largest first
    when: Any                        # an Expression: held as cards only if it holds as a game starts (None: always)


def build(build: Any, data: dict[str, Any]) -> dict[str, Denominations]:
    """The `denominations` of every resource that declares them, checked."""
    from .dsl.checked import Scope        # here, not above: material.py imports this module, and dsl/ it
    from .dsl.types import BOOL
    found = {}
    for name, spec in data.get("resources", {}).items():
        held = spec.get("denominations")
        if held is None:
            continue
        path = ("resources", name, "denominations")
        values = tuple(sorted(set(held["values"]), reverse=True))
        if 1 not in values:
            build.problem(path + ("values",), "cards of a resource need a value 1, so that the bank can pay "
                          "and give change of every amount")
        most = spec.get("max")
        if most is None or most > MAX_HELD_AMOUNT:
            build.problem(path, f"a resource held as cards needs a `max` of at most {MAX_HELD_AMOUNT:,}", key=True)
        start = spec.get("start", 0)
        cards = tuple(sorted(held["start"], reverse=True)) if "start" in held else payout(values, start)
        for i, value in enumerate(held.get("start", [])):
            if value not in values:
                build.problem(path + ("start", i), f"{value} is not one of the values {list(values)}")
        if sum(cards) != start:
            build.problem(path + ("start",), f"these cards add up to {sum(cards)}, and {name} starts at {start}")
        when = build.expression(path + ("when",), Scope(seat=False), BOOL) if "when" in held else None
        found[name] = Denominations(name, values, cards, when)
    return found


def deal(game: Any, amounts: dict[str, list[int]]) -> None:
    """Give each seat its starting cards of every resource held as cards in this game; a seat
    whose start `amounts` names (new_game's `setup.resources`) gets that amount as the bank pays it."""
    state = game.state
    for name, held in game.rules.denominations.items():
        if held.when is not None and not held.when.fn(Ctx(game)):
            continue
        given = amounts.get(name, [])
        state.held[name] = [payout(held.values, given[seat]) if seat < len(given) else list(held.start)
                            for seat in range(state.players)]


def settle(game: Any, seat: int, resource: str, change: int) -> None:
    """The seat's counter of a resource held as cards moved by `change`: move its cards alike."""
    values = game.rules.denominations[resource].values
    cards = game.state.held[resource][seat]
    if change > 0:
        cards += payout(values, change)
    else:
        paid = paying(cards, -change)
        for value in paid:
            cards.remove(value)
        cards += payout(values, sum(paid) + change)
    cards.sort(reverse=True)


def payout(values: tuple[int, ...], amount: int) -> list[int]:
    """What the bank pays `amount` with: the largest cards first (for 1, 2, 5, 10 and 20 this
    is also the fewest cards)."""
    cards = []
    for value in values:
        count, amount = divmod(amount, value)
        cards += [value] * count
    return cards


def paying(cards: list[int], amount: int) -> list[int]:
    """The cards a payment of `amount` takes: of all the sums the cards can make, the smallest
    at or above the amount; of the ways to make it, one with the fewest cards (larger cards
    tried first, so the choice is fixed)."""
    if amount <= 0:
        return []
    counts: dict[int, int] = {}
    for value in cards:
        counts[value] = counts.get(value, 0) + 1
    kinds = sorted(counts, reverse=True)
    under: dict[int, tuple[int, ...]] = {0: ()}        # sums below the amount -> how many of each kind
    best: tuple[int, int, tuple[int, ...]] | None = None       # (sum, cards, how many of each kind)
    for value in kinds:
        grown = {}
        for total, used in under.items():
            size = sum(used)
            for k in range(counts[value] + 1):
                reached = total + k * value
                if reached >= amount:          # adding more only makes it larger: a candidate
                    found = (reached, size + k, used + (k,))
                    if best is None or found[:2] < best[:2]:
                        best = found
                    break
                known = grown.get(reached)
                if known is None or size + k < sum(known):
                    grown[reached] = used + (k,)
        under = grown
    if best is None:
        return list(cards)
    return [value for value, k in zip(kinds, best[2]) for _ in range(k)]


def sums(cards: list[int]) -> int:
    """Every sum some of the cards add up to, as the bits of a number (bit n: n can be made)."""
    reach = 1
    for value in cards:
        reach |= reach << value
    return reach
