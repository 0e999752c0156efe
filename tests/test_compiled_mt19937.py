"""The compiled Mersenne Twister against the running Python's `random.Random`: the whole state
after seeding, then long runs of draws of every kind, compared one by one and by the state they
leave. A compiled seeded agent is only worth having if it picks what the Python agent picks, so
each comparison here is exact, and every run crosses several twists (624 words each).
"""

from __future__ import annotations

import inspect
import random

import numba
import numpy as np
import pytest

from amunre.interpreter.compiled import mt19937 as mt

_LARGE = random.Random(7)
SEEDS = list(dict.fromkeys(
    [0, 1, 2, 1009, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**32 + 1, 2**40 + 5,
     2**63 - 1, 2**63 + 7, 2**64 - 2**32, 2**64 - 1]
    + [_LARGE.getrandbits(64) for _ in range(6)]                        # large ones, some above 2**63
    + [seed * 1009 + seat + 1 for seed in (0, 1, 2, 123456) for seat in range(5)]))   # the agents' seeds
SIZES = [1, 2, 3, 7, 8, 100, 781, 1024, 2**20 + 3, 2**31 - 1]


def seeded(seed: int) -> np.ndarray:
    state = np.zeros(mt.MT_WORDS, np.uint32)
    mt.mt_seed(state, seed)
    return state


def as_python_state(state: np.ndarray) -> tuple[int, ...]:
    """The generator as `random.Random.getstate()[1]` spells it: 624 words, then the index."""
    return tuple(int(word) for word in state)


@numba.njit
def draw_below(state, sizes):
    out = np.empty(len(sizes), np.int64)
    for i in range(len(sizes)):
        out[i] = mt.mt_randbelow(state, sizes[i])
    return out


@numba.njit
def draw_bits(state, ks):
    out = np.empty(len(ks), np.int64)
    for i in range(len(ks)):
        out[i] = mt.mt_getrandbits(state, ks[i])
    return out


@numba.njit
def play_seats(states, sizes):
    """Seats take turns choosing among sizes[i] ids, each from its own row: a game's agents."""
    out = np.empty(len(sizes), np.int64)
    for i in range(len(sizes)):
        out[i] = mt.mt_choice_index(states[i % states.shape[0]], sizes[i])
    return out


def mixed_sizes(count: int, salt: int) -> list[int]:
    pick = random.Random(salt)
    return [pick.choice(SIZES) for _ in range(count)]


def test_the_size_rule_is_the_running_pythons() -> None:
    """The import watched `_randbelow`; its source says the same (3.11: n.bit_length())."""
    source = inspect.getsource(random.Random._randbelow_with_getrandbits)
    assert ("(n-1).bit_length()" in source.replace(" ", "")) == mt.RANDBELOW_N_MINUS_1
    assert "n.bit_length()" in source or mt.RANDBELOW_N_MINUS_1
    assert "self._randbelow(len(seq))" in inspect.getsource(random.Random.choice)


@pytest.mark.parametrize("seed", SEEDS)
def test_seeding_builds_pythons_state(seed: int) -> None:
    assert as_python_state(seeded(seed)) == random.Random(seed).getstate()[1]


def test_seeds_alike_in_their_low_word() -> None:
    """Seeds that share their low word differ by their key's length and high word. Not always:
    CPython's init_by_array adds each key word's index to it, so the high word 2**32 - 1 (index 1)
    wraps to 0 and 2**64 - 2**32 seeds what 0 seeds; the copy must collide there too."""
    states = [as_python_state(seeded(seed)) for seed in (0, 2**32, 2**33, 2**64 - 2**32)]
    assert states[0] != states[1] and states[1] != states[2] and states[0] != states[2]
    assert states[3] == states[0] == random.Random(2**64 - 2**32).getstate()[1]


@pytest.mark.parametrize("seed", SEEDS[::3])
def test_words_match_getrandbits_32(seed: int) -> None:
    state, real = seeded(seed), random.Random(seed)
    words = [mt.mt_genrand32(state) for _ in range(3000)]
    assert words == [real.getrandbits(32) for _ in range(3000)]
    assert as_python_state(state) == real.getstate()[1]


@pytest.mark.parametrize("seed", SEEDS[::2])
def test_getrandbits_for_every_k(seed: int) -> None:
    pick = random.Random(seed ^ 5)
    ks = [pick.randrange(64) for _ in range(4000)] + list(range(64))
    state, real = seeded(seed), random.Random(seed)
    got = draw_bits(state, np.array(ks, np.int64))
    assert got.tolist() == [real.getrandbits(k) for k in ks]
    assert as_python_state(state) == real.getstate()[1]
    assert max(got) >= 2**62                  # the two-word sizes really were drawn wide


@pytest.mark.parametrize("seed", SEEDS)
def test_randbelow_over_mixed_sizes(seed: int) -> None:
    sizes = mixed_sizes(5000, seed) + SIZES + [2**40 + 1, 2**62 + 3]
    state, real = seeded(seed), random.Random(seed)
    got = draw_below(state, np.array(sizes, np.int64))
    assert got.tolist() == [real._randbelow(n) for n in sizes]
    assert as_python_state(state) == real.getstate()[1]
    assert len(set(got[np.array(sizes) == 781].tolist())) > 100     # not a constant that happens to agree


@pytest.mark.parametrize("n", SIZES)
def test_randbelow_called_from_python(n: int) -> None:
    state, real = seeded(2**40 + 5), random.Random(2**40 + 5)
    assert [mt.mt_randbelow(state, n) for _ in range(1500)] == [real._randbelow(n) for _ in range(1500)]


@pytest.mark.parametrize("count", [1, 2, 3, 4, 5, 6, 9])
@pytest.mark.parametrize("first", [0, 1009 * 7 + 1, 2**32 - 3, 2**64 - 9])
def test_rows_seeded_side_by_side(first: int, count: int) -> None:
    """mt_seed_rows seeds rows in groups of four lanes, a short group repeating its last row:
    every row as random.Random(first + row), the rows past `count` untouched, also where the
    seeds cross from one 32-bit word to two."""
    states = np.full((count + 1, mt.MT_WORDS), 7, np.uint32)
    mt.mt_seed_rows(states, first, count)
    for row in range(count):
        assert as_python_state(states[row]) == random.Random(first + row).getstate()[1]
    assert (states[count] == 7).all()


@pytest.mark.parametrize("count", [1, 3, 4, 7])
def test_rows_seeded_each_with_its_own_seed(count: int) -> None:
    """mt_seed_each seeds rows from `at` on, four lanes at a time, each as random.Random(its
    seed), seeds of one and of two 32-bit words mixed; the rows around them untouched."""
    seeds = np.array([2**32 - 1, 5, 2**40 + 3, 0, 2**62 + 11, 1009, 77][:count], dtype=np.int64)
    states = np.full((count + 3, mt.MT_WORDS), 7, np.uint32)
    mt.mt_seed_each(states, 2, seeds)
    for k, seed in enumerate(seeds.tolist()):
        assert as_python_state(states[2 + k]) == random.Random(seed).getstate()[1]
    assert (states[:2] == 7).all() and (states[2 + count] == 7).all()


@pytest.mark.parametrize("game", [0, 1, 2, 99])
def test_seats_choose_what_python_agents_choose(game: int) -> None:
    """One generator per seat in a 2-D array, seeded game * 1009 + seat + 1, choosing in turn
    among ids as `random.Random(...).choice(ids)` does."""
    seats = 4
    states = np.zeros((seats, mt.MT_WORDS), np.uint32)
    for seat in range(seats):
        mt.mt_seed(states[seat], game * 1009 + seat + 1)
    agents = [random.Random(game * 1009 + seat + 1) for seat in range(seats)]
    sizes = mixed_sizes(6000, game)
    picks = play_seats(states, np.array(sizes, np.int64))
    ids = [[f"id{j}" for j in range(n)] if n < 10_000 else range(n) for n in sizes]
    chosen = [agents[i % seats].choice(ids[i]) for i in range(len(sizes))]
    assert [ids[i][p] for i, p in enumerate(picks.tolist())] == chosen
    for seat in range(seats):
        assert as_python_state(states[seat]) == agents[seat].getstate()[1]


def test_the_other_size_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    """The (n - 1) rule this Python does not use, run as Python (numba froze the compiled
    one): it matches a reference of that rule, and differs from this Python, so the tests
    above would notice a wrong rule."""
    monkeypatch.setattr(mt, "RANDBELOW_N_MINUS_1", not mt.RANDBELOW_N_MINUS_1)
    sizes = mixed_sizes(3000, 3) + [1, 8, 1024]
    state, real, other = seeded(3), random.Random(3), random.Random(3)

    def reference(rng: random.Random, n: int) -> int:
        k = ((n - 1) if mt.RANDBELOW_N_MINUS_1 else n).bit_length()
        r = rng.getrandbits(k)
        while r >= n:
            r = rng.getrandbits(k)
        return r

    got = [int(mt.mt_randbelow.py_func(state, n)) for n in sizes]
    assert got == [reference(other, n) for n in sizes]
    assert got != [real._randbelow(n) for n in sizes]


def test_bad_arguments_are_refused() -> None:
    state = seeded(1)
    with pytest.raises(ValueError):
        mt.mt_randbelow(state, 0)
    with pytest.raises(ValueError):
        mt.mt_getrandbits(state, 64)
    with pytest.raises(OverflowError):
        mt.mt_seed(state, -1)
