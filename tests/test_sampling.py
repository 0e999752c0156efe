"""tools/sampling.py draws what the standard generator draws: the same values and the same bits
consumed, for the sizes a deal and a playout use and for large ones (both branches of sample)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amunre.tools.sampling import below, sample


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2 ** 32), st.integers(0, 200), st.data())
def test_sample_is_the_libraries(seed: int, n: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, n))
    population = list(range(100, 100 + n))
    mine, theirs = random.Random(seed), random.Random(seed)
    assert sample(mine, population, k) == theirs.sample(population, k)
    assert mine.getstate() == theirs.getstate()


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2 ** 32), st.integers(1, 2 ** 70))
def test_below_is_randrange(seed: int, n: int) -> None:
    mine, theirs = random.Random(seed), random.Random(seed)
    assert [below(mine, n) for _ in range(5)] == [theirs.randrange(n) for _ in range(5)]
    assert mine.getstate() == theirs.getstate()


def test_below_one_draws_as_the_library_does() -> None:
    """randrange(1) draws bits until one is 0 (random.py does not skip the draw)."""
    mine, theirs = random.Random(3), random.Random(3)
    assert [below(mine, 1) for _ in range(50)] == [theirs.randrange(1) for _ in range(50)] == [0] * 50
    assert mine.getstate() == theirs.getstate()


def test_a_sample_larger_than_its_population_is_refused() -> None:
    with pytest.raises(ValueError):
        sample(random.Random(1), [1, 2], 3)
