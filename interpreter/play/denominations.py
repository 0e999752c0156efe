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

from ..model import Game


def settle(game: Game, seat: int, resource: str, change: int) -> None:
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
        grown: dict[int, tuple[int, ...]] = {}
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
