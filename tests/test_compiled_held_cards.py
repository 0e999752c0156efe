"""interpreter/compiled/held_cards.py against its Python model, interpreter/play/denominations.py:
the same payouts, payments (ties included), settlements and reachable sums, on cards held as
counts per value. Payments are compared as multisets, settlements as sorted lists."""

from __future__ import annotations

import importlib
import itertools
import random
from collections import Counter
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amunre.interpreter.play.denominations import paying, payout, settle, sums

np = pytest.importorskip("numpy")
held_cards = importlib.import_module("amunre.interpreter.compiled.held_cards")

GOLD = (20, 10, 5, 2, 1)
VALUE_SETS = [GOLD, (4, 3, 1), (25, 10, 7, 1), (9, 5, 4, 3, 1), (6, 5, 4, 1), (13, 8, 5, 3, 2, 1), (100, 1), (1,)]
START = [10, 5, 2, 2, 1]                     # the 2003 set-up hand (rules/knizia2003.yaml)


def as_counts(values: tuple[int, ...], cards: list[int]) -> np.ndarray:
    have = Counter(cards)
    assert set(have) <= set(values)
    return np.array([have[v] for v in values], dtype=np.int64)


def as_cards(values: tuple[int, ...], counts: np.ndarray) -> list[int]:
    return [v for v, k in zip(values, counts.tolist()) for _ in range(k)]


def compiled_paying(values: tuple[int, ...], cards: list[int], amount: int) -> Counter[int]:
    out = np.full(len(values), 99, dtype=np.int64)          # written over, not added to
    held_cards.paying_counts(np.array(values, dtype=np.int64), as_counts(values, cards), amount, out)
    assert (out >= 0).all() and (out <= as_counts(values, cards)).all()
    return Counter(as_cards(values, out))


def python_settle(values: tuple[int, ...], cards: list[int], change: int) -> list[int]:
    held = sorted(cards, reverse=True)
    game = SimpleNamespace(rules=SimpleNamespace(denominations={"gold": SimpleNamespace(values=values)}),
                           state=SimpleNamespace(held={"gold": [held]}))
    settle(game, 0, "gold", change)  # type: ignore[arg-type]
    return held


def compiled_settle(values: tuple[int, ...], cards: list[int], change: int) -> list[int]:
    counts = as_counts(values, cards)
    held_cards.settle_counts(np.array(values, dtype=np.int64), counts, change)
    assert (counts >= 0).all()
    return sorted(as_cards(values, counts), reverse=True)


def check_hand(values: tuple[int, ...], cards: list[int], amounts: list[int]) -> None:
    """Everything the compiled functions say of this hand is what the Python ones say."""
    vals = np.array(values, dtype=np.int64)
    counts = as_counts(values, cards)
    total = sum(cards)
    for amount in amounts:
        assert compiled_paying(values, cards, amount) == Counter(paying(cards, amount)), (values, cards, amount)
        for change in (amount, -amount):
            assert compiled_settle(values, cards, change) == python_settle(values, cards, change), \
                (values, cards, change)
    bits = sums(cards)
    out = np.ones(total + 3, dtype=np.bool_)                 # past the total: False
    held_cards.sums_bits(vals, counts, out)
    assert out.tolist() == [bool(bits >> n & 1) for n in range(total + 3)]
    for n in {-1, 0, 1, total // 2, total - 1, total, total + 1, *amounts}:
        assert held_cards.can_make(vals, counts, n) == (n >= 0 and bool(bits >> n & 1)), (cards, n)


# ---- the ties: which of equal ways `paying` takes ------------------------------------------------

# (values, hand, amount, what Python pays, a rival with the same sum and as few cards). A rule of
# "smallest sum, then fewest cards, then the largest cards" (or a `<=` where Python has `<` on
# (sum, cards)) pays the rival in the first four. The next two need the insertion order of
# Python's dicts, where a sum whose way is bettered keeps its place (a dict that moved it to the
# end would pay the rival, as would "smallest cards first"). The last needs the strict `<` of
# `grown`: 5+5 and 8+2 make 10 with two cards each, the first found stays, and a payment of 11
# grows from it (with `<=` it would pay 8, 2, 1).
TIES = [
    ((4, 3, 1), [4, 4, 3, 3, 3, 1], 9, [3, 3, 3], [4, 4, 1]),
    ((9, 5, 4, 3, 1), [5, 3, 3, 1], 6, [3, 3], [5, 1]),
    ((6, 5, 4, 1), [6, 5, 5, 4], 10, [5, 5], [6, 4]),
    ((25, 10, 7, 1), [10, 10, 7, 7, 7, 1], 21, [7, 7, 7], [10, 10, 1]),
    ((9, 5, 4, 3, 1), [9, 5, 5, 4, 1, 1], 11, [9, 1, 1], [5, 5, 1]),
    ((25, 10, 7, 1), [25, 10, 10, 7, 7, 7, 7, 7, 1, 1], 47, [25, 10, 10, 1, 1], [25, 7, 7, 7, 1]),
    ((13, 8, 5, 3, 2, 1), [8, 5, 5, 2, 1], 11, [5, 5, 1], [8, 2, 1]),
]


def optimal_ways(cards: list[int], amount: int) -> set[tuple[int, ...]]:
    """Every multiset of the cards (sorted, largest first) with the smallest sum at or above the
    amount and, of those, the fewest cards: found by trying them all."""
    ways = {tuple(sorted(pick, reverse=True)) for r in range(len(cards) + 1)
            for pick in itertools.combinations(cards, r) if sum(pick) >= amount}
    best = min((sum(w), len(w)) for w in ways)
    return {w for w in ways if (sum(w), len(w)) == best}


@pytest.mark.parametrize(("values", "cards", "amount", "paid", "rival"), TIES)
def test_a_tie_is_paid_as_python_pays_it(values: tuple[int, ...], cards: list[int], amount: int,
                                         paid: list[int], rival: list[int]) -> None:
    ways = optimal_ways(cards, amount)
    assert {tuple(paid), tuple(rival)} <= ways                # a real tie: both are best ...
    assert Counter(paying(cards, amount)) == Counter(paid)   # ... and the model takes this one
    assert compiled_paying(values, cards, amount) == Counter(paid) != Counter(rival)
    assert compiled_settle(values, cards, -amount) == python_settle(values, cards, -amount)


def test_the_ties_seen_are_not_a_largest_cards_rule() -> None:
    """Sweeping small hands finds ties, and the model often breaks them otherwise than the
    largest cards first: the compiled search follows it through every one of them."""
    rng = random.Random(7)
    ties = against_largest = 0
    for values in [(4, 3, 1), (9, 5, 4, 3, 1), (25, 10, 7, 1)]:
        for _ in range(100):
            cards = sorted((rng.choice(values) for _ in range(rng.randint(1, 9))), reverse=True)
            for amount in range(1, sum(cards) + 1):
                ways = optimal_ways(cards, amount)
                expected = Counter(paying(cards, amount))
                assert compiled_paying(values, cards, amount) == expected
                if len(ways) > 1:
                    ties += 1
                    against_largest += Counter(max(ways)) != expected
    assert ties > 200 and against_largest > 200                 # 278 and 266 with this seed


# ---- every function, hand by hand ----------------------------------------------------------------

def test_the_set_up_hand() -> None:
    check_hand(GOLD, START, list(range(-2, 26)))
    assert compiled_paying(GOLD, START, 8) == Counter([5, 2, 1])
    assert compiled_paying(GOLD, START, 18) == Counter([10, 5, 2, 1])
    assert compiled_paying(GOLD, START, 21) == Counter(START)              # more than it has: all
    assert compiled_settle(GOLD, START, -8) == [10, 2]
    assert compiled_settle(GOLD, START, -18) == [2]
    assert compiled_settle(GOLD, START, 7) == [10, 5, 5, 2, 2, 2, 1]
    assert compiled_paying(GOLD, [10, 5], 3) == Counter([5])               # 3 cannot be made: 5
    assert compiled_settle(GOLD, [10, 5], -3) == [10, 2]                   # and 2 back


@pytest.mark.parametrize("values", VALUE_SETS)
def test_random_hands_at_every_amount(values: tuple[int, ...]) -> None:
    rng = random.Random(hash(values) & 0xFFFF)
    for _ in range(150):
        cards = sorted((rng.choice(values) for _ in range(rng.randint(0, 10))), reverse=True)
        check_hand(values, cards, list(range(-1, sum(cards) + 3)))


@pytest.mark.parametrize(("values", "counts", "few"), [
    (GOLD, [400, 100, 50, 40, 30], False),     # 9,360: near MAX_HELD_AMOUNT
    (GOLD, [300, 200, 200, 500, 1000], True),  # 11,000, every kind plentiful: slow in Python, so few amounts
    (GOLD, [0, 0, 0, 0, 10_000], False),
    (GOLD, [499, 0, 0, 0, 1], False),
    ((25, 10, 7, 1), [300, 150, 100, 13], False),
    ((4, 3, 1), [1000, 1500, 3], True),
])
def test_large_hands(values: tuple[int, ...], counts: list[int], few: bool) -> None:
    cards = as_cards(values, np.array(counts))
    total = sum(cards)
    if few:
        check_hand(values, cards, [37, 2_003, total // 2 + 3])
    else:
        check_hand(values, cards, [1, 7, 37, 1001, total // 2 + 3, total - 7, total - 1, total, total + 1])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_hypothesis_hands(data: st.DataObject) -> None:
    values = data.draw(st.sampled_from(VALUE_SETS + [(10, 4), (7, 3, 2)]))    # and two without a 1
    counts = data.draw(st.lists(st.integers(0, 12), min_size=len(values), max_size=len(values)))
    cards = as_cards(values, np.array(counts, dtype=np.int64))
    total = sum(cards)
    amounts = data.draw(st.lists(st.integers(-3, total + 30), min_size=1, max_size=6))
    check_hand(values, cards, amounts)


@pytest.mark.parametrize("values", VALUE_SETS + [(10, 4)])
def test_payout(values: tuple[int, ...]) -> None:
    vals = np.array(values, dtype=np.int64)
    for amount in [*range(-45, 120), 9_999, 10_000, 123_457]:
        out = np.arange(len(values), dtype=np.int64)           # added to, not written over
        held_cards.payout_counts(vals, amount, out)
        paid = Counter(payout(values, amount)) + Counter(as_cards(values, np.arange(len(values))))
        assert Counter(as_cards(values, out)) == paid, (values, amount)


def test_paying_more_than_the_hand_settles_as_python_does() -> None:
    """Python pays all the cards and the bank's change is `payout` of a negative amount, which
    its floor `divmod` turns into cards: the compiled settle keeps that, quirk and all."""
    assert python_settle(GOLD, [5], -8) == [10, 5, 2]
    assert compiled_settle(GOLD, [5], -8) == [10, 5, 2]


# ---- preconditions and sizes ---------------------------------------------------------------------

def test_sums_bits_fills_any_length() -> None:
    vals, counts = np.array(GOLD, dtype=np.int64), as_counts(GOLD, START)
    bits = sums(START)
    for length in (0, 1, 5, 20, 21, 40):
        out = np.full(length, 7, dtype=np.int64)
        held_cards.sums_bits(vals, counts, out)
        assert out.tolist() == [bits >> n & 1 for n in range(length)]


@pytest.mark.parametrize(("values", "counts"), [
    ([10, 20, 5], [1, 1, 1]),                 # not largest first
    ([10, 10, 1], [1, 1, 1]),                 # a value twice
    ([10, 0], [1, 1]),                        # a value 0
    ([10, -1], [1, 1]),
    ([10, 1], [1, -1]),                       # a negative count
    ([10, 1], [1, 1, 1]),                     # counts longer than values
    ([10, 1], [1]),
    ([2], [1 << 62]),                         # a total too large
])
def test_bad_hands_are_refused(values: list[int], counts: list[int]) -> None:
    vals = np.array(values, dtype=np.int64)
    have = np.array(counts, dtype=np.int64)
    calls = [lambda: held_cards.paying_counts(vals, have, 5, np.zeros(len(values), dtype=np.int64)),
             lambda: held_cards.settle_counts(vals, have, -3),
             lambda: held_cards.settle_counts(vals, have, 3),
             lambda: held_cards.sums_bits(vals, have, np.zeros(10, dtype=np.bool_)),
             lambda: held_cards.can_make(vals, have, 3)]
    for call in calls:
        with pytest.raises(ValueError):
            call()


def test_bad_values_and_short_outs_are_refused() -> None:
    gold, hand = np.array(GOLD, dtype=np.int64), as_counts(GOLD, START)
    with pytest.raises(ValueError):
        held_cards.payout_counts(np.array([1, 2], dtype=np.int64), 7, np.zeros(2, dtype=np.int64))
    with pytest.raises(ValueError):
        held_cards.payout_counts(gold, 7, np.zeros(4, dtype=np.int64))
    with pytest.raises(ValueError):
        held_cards.paying_counts(gold, hand, 7, np.zeros(4, dtype=np.int64))
