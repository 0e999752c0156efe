"""A resource held as cards (interpreter/play/denominations.py) as machine code, on counts.

A seat's cards are COUNTS per value: an int64 array indexed like the rules' `values` (the
card values, largest first), so `counts[i]` cards of `values[i]`. Each function here gives
the same result as its Python model, on that representation:

- `payout_counts(values, amount, out_counts)`: adds `payout(values, amount)` to out_counts;
- `paying_counts(values, counts, amount, out_paid)`: writes `paying(cards, amount)` as counts;
- `settle_counts(values, counts, change)`: moves the counts as `settle` moves the card list;
- `sums_bits(values, counts, out)` and `can_make(values, counts, n)`: the amounts some of the
  cards add up to, bit n of `sums(cards)`.

`paying` is reproduced down to its choice between ties. Of the multisets with the smallest
sum at or above the amount and the fewest cards, Python keeps the FIRST it meets (strict `<`
on (sum, cards)), and it meets a candidate at the kind that takes it over the amount (its
smallest card): kinds largest first, then the prefixes over the larger kinds in the insertion
order of its `under` dict, each prefix being the first-inserted way with the fewest cards of
making its sum (a better way replaces the dict's value in place: the sum keeps its position).
So a tie goes first to the multiset whose smallest card is largest, not to "largest cards
first": of [4, 4, 3, 3, 3, 1] a payment of 9 takes [3, 3, 3], not [4, 4, 1]; then the dicts'
order decides (of [8, 5, 5, 2, 1], 11 takes [5, 5, 1]: 5+5 made 10 before 8+2 did, and a way
with as many cards does not replace it; a `<=` there would pay [8, 2, 1]). Here the dict is an
array of sums in insertion order beside a table by sum (cards of the best way, -1 if absent),
and each way is kept as a back pointer: how many of the kind it took (`taken[row, sum]`).

Preconditions, checked (ValueError): `values` 1-D, strictly decreasing, every value > 0;
`counts` as long as `values`, every count >= 0, the total of the cards at most 2**62; an out
array at least as long as `values` (its entries past them are left alone). The working
arrays are sized by the amount (capped by the total of the cards) or by the out array, so no
index leaves them; they are meant for totals of the order of MAX_HELD_AMOUNT
(interpreter/base/limits.py), and take memory and time in proportion to it. A `change` of
exactly -2**63 has no int64 opposite and is not supported.
"""

from __future__ import annotations

import numpy as np

from .jit import allocating, jit

_TOTAL_LIMIT = 1 << 62          # the largest total of cards accepted: sums never overflow int64


@jit
def _check_values(values):
    """ValueError unless `values` is strictly decreasing and positive."""
    for i in range(values.shape[0]):
        if values[i] <= 0:
            raise ValueError("held_cards: every card value must be positive")
        if i > 0 and values[i] >= values[i - 1]:
            raise ValueError("held_cards: card values must be distinct and sorted largest first")


@jit
def _total(values, counts):
    """The sum of the cards `counts` stands for, after checking `values` and `counts`."""
    _check_values(values)
    if counts.shape[0] != values.shape[0]:
        raise ValueError("held_cards: counts must be as long as values")
    total = 0
    for i in range(values.shape[0]):
        if counts[i] < 0:
            raise ValueError("held_cards: a count of cards must not be negative")
        if counts[i] > (_TOTAL_LIMIT - total) // values[i]:
            raise ValueError("held_cards: the total of the cards is too large")
        total += counts[i] * values[i]
    return total


@jit
def payout_counts(values, amount, out_counts):
    """Add to `out_counts` the cards `payout(values, amount)` pays, largest first. Python's
    floor `divmod` is kept, so a negative amount pays what Python pays for it (a negative
    quotient pays no card of that value and leaves a positive remainder)."""
    _check_values(values)
    if out_counts.shape[0] < values.shape[0]:
        raise ValueError("held_cards: out_counts must be at least as long as values")
    for i in range(values.shape[0]):
        value = values[i]
        count = amount // value                  # floor division, as Python's divmod
        amount -= count * value
        if count > 0:
            out_counts[i] += count


@allocating
def paying_counts(values, counts, amount, out_paid):  # noqa: C901 - one search, kept whole beside its Python model
    """Write into `out_paid` (as counts per value) the cards `paying(cards, amount)` takes, where
    `cards` are the cards `counts` stands for: nothing if amount <= 0, every card if they add
    up to less than the amount, else the way Python's search finds, ties included."""
    total = _total(values, counts)
    kinds = values.shape[0]
    if out_paid.shape[0] < kinds:
        raise ValueError("held_cards: out_paid must be at least as long as values")
    for i in range(kinds):
        out_paid[i] = 0
    if amount <= 0:
        return
    if total < amount:                           # no subset reaches it: Python's best stays None
        for i in range(kinds):
            out_paid[i] = counts[i]
        return
    size = amount                                # the sums kept are below the amount (<= total)
    rows = 0
    for i in range(kinds):
        if counts[i] > 0:
            rows += 1
    row_kind = np.empty(rows, np.int64)          # the index in `values` of each kind searched
    taken = np.zeros((rows, size), np.int64)     # taken[row, s]: cards of that kind in the way kept for s
    under_order = np.empty(size, np.int64)       # `under`: its sums in insertion order ...
    under_cards = np.full(size, -1, np.int64)    # ... and by sum, the cards of its way (-1: absent)
    grown_order = np.empty(size, np.int64)
    grown_cards = np.full(size, -1, np.int64)
    under_order[0] = 0
    under_cards[0] = 0
    under_len = 1
    best_sum = -1                                # Python's `best`: None while -1
    best_cards = 0
    best_row = -1
    best_from = 0                                # the prefix sum it grew from
    best_k = 0
    row = 0
    for i in range(kinds):
        if counts[i] == 0:                       # Python's kinds are the values it holds
            continue
        value = values[i]
        row_kind[row] = i
        grown_len = 0
        for t in range(under_len):
            base = under_order[t]
            size_here = under_cards[base]
            for k in range(counts[i] + 1):
                reached = base + k * value
                if reached >= amount:            # a candidate: the first of equal (sum, cards) stays
                    if best_sum < 0 or reached < best_sum or (reached == best_sum and size_here + k < best_cards):
                        best_sum = reached
                        best_cards = size_here + k
                        best_row = row
                        best_from = base
                        best_k = k
                    break
                known = grown_cards[reached]
                if known < 0 or size_here + k < known:
                    if known < 0:                # a new key goes last; a replaced one keeps its place
                        grown_order[grown_len] = reached
                        grown_len += 1
                    grown_cards[reached] = size_here + k
                    taken[row, reached] = k
        for t in range(under_len):               # under = grown; the old under's table is cleared for reuse
            under_cards[under_order[t]] = -1
        under_order, grown_order = grown_order, under_order
        under_cards, grown_cards = grown_cards, under_cards
        under_len = grown_len
        row += 1
    # best_sum >= 0 here: all the cards reach the amount, so the search finds a way.
    out_paid[row_kind[best_row]] = best_k
    reached = best_from
    for r in range(best_row - 1, -1, -1):
        i = row_kind[r]
        k = taken[r, reached]
        out_paid[i] = k
        reached -= k * values[i]


@allocating
def settle_counts(values, counts, change):
    """Move the seat's cards (`counts`, in place) as `settle` moves its card list when its
    counter moves by `change`: a gain is paid largest first; a loss takes `paying`'s cards and
    the bank gives the difference back largest first."""
    _total(values, counts)
    if change > 0:
        payout_counts(values, change, counts)
        return
    paid = np.zeros(values.shape[0], np.int64)
    paying_counts(values, counts, -change, paid)
    handed = 0
    for i in range(values.shape[0]):
        counts[i] -= paid[i]
        handed += paid[i] * values[i]
    payout_counts(values, handed + change, counts)


@allocating
def _reach(values, counts, out):
    """out[s] = whether some of the cards add up to s, for s < len(out) (a bounded subset sum)."""
    size = out.shape[0]
    if size == 0:
        return
    reach = np.zeros(size, np.bool_)
    used = np.zeros(size, np.int64)              # cards of the current kind in the way s was reached
    reach[0] = True
    for i in range(values.shape[0]):
        count = counts[i]
        if count == 0:
            continue
        value = values[i]
        for s in range(size):
            if reach[s]:
                used[s] = 0
            elif s >= value and reach[s - value] and used[s - value] < count:
                reach[s] = True
                used[s] = used[s - value] + 1
    for s in range(size):
        out[s] = reach[s]


@jit
def sums_bits(values, counts, out):
    """out[n] = bit n of `sums(cards)`, for every n < len(out): whether some of the cards add
    up to n (n = 0 always; none above the total). Size `out` total + 1 for every sum."""
    total = _total(values, counts)
    size = min(out.shape[0], total + 1)
    _reach(values, counts, out[:size])
    for n in range(size, out.shape[0]):
        out[n] = False


@allocating
def can_make(values, counts, n):
    """Whether some of the cards add up to `n` (bit n of `sums(cards)`; False for n < 0)."""
    total = _total(values, counts)
    if n < 0 or n > total:
        return False
    reach = np.zeros(n + 1, np.bool_)
    _reach(values, counts, reach)
    return bool(reach[n])
