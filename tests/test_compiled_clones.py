"""Positions of the compiled engine cloned and continued: the clone and the original are two
games, each the interpreter's.

At a random prefix of a seeded random game (played in both engines side by side), the compiled
game and the interpreter game are cloned; then the clone and the original are each played on
with different random choices, each compared with its own interpreter game at every decision
(seat to move, legal ids, tensors, the whole position) and at the end (result). The one
continued first must leave the other untouched, whichever it is; a clone of a clone taken
further on is a third game. A clone keeps the history that the hand-over replays.
"""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("numba")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import amunre
from amunre.interpreter.compiled.game import CompiledGame, new_compiled_game
from compiled_support import check_position
from conftest import REPO

SHIPPED = sorted((REPO / "rules").glob("*.yaml")) + sorted((REPO / "rules" / "house").glob("*.yaml"))
NAMES = [str(p.relative_to(REPO / "rules").with_suffix("")) for p in SHIPPED]


@functools.cache
def shipped(name: str) -> Any:
    return amunre.load_rules(REPO / "rules" / f"{name}.yaml")


def advance(game: amunre.Game, fast: CompiledGame, chooser: random.Random, actions: int, where: str) -> int:
    """Up to `actions` random actions in both games (to the end if -1), the positions
    compared before each and after the last; how many were played."""
    played = 0
    while True:
        check_position(game, fast, f"{where}, action {len(game.history)}")
        if game.over or played == actions:
            return played
        action = chooser.choice(game.legal_action_ids())
        game.apply_id(action)
        fast.apply_id(action)
        played += 1


def finish(game: amunre.Game, fast: CompiledGame, chooser: random.Random, where: str) -> list[int]:
    advance(game, fast, chooser, -1, where)
    assert fast.over and fast.result() == game.result(), where
    assert fast.history == game.history, where
    return list(fast.history)


def cloned_and_continued(rules: Any, players: int, seed: int, prefix: int, clone_first: bool) -> None:
    where = f"{rules.id} {players}p seed {seed}"
    game = amunre.new_game(rules, players=players, seed=seed, events=False)
    fast = new_compiled_game(rules, players=players, seed=seed)
    advance(game, fast, random.Random(seed), prefix, f"{where}, the prefix")
    if game.over:
        return
    twin, copy = game.clone(events=False), fast.clone()
    assert copy.S is not fast.S and copy.history == fast.history and copy.history is not fast.history
    mark = len(fast.history)
    first, second = ((twin, copy), (game, fast)) if clone_first else ((game, fast), (twin, copy))
    untouched, history = second[1].S.copy(), list(second[1].history)
    ends = [finish(*first, random.Random(seed + 1), f"{where}, {'the clone' if clone_first else 'the original'}")]
    assert (second[1].S == untouched).all() and second[1].history == history, f"{where}: one changed the other"
    # a clone of the second game, a few actions on: a third game, continued with other choices
    advance(*second, random.Random(seed + 2), 5, f"{where}, the second game")
    third = (second[0].clone(events=False), second[1].clone())
    ends.append(finish(*third, random.Random(seed + 3), f"{where}, the clone's clone"))
    ends.append(finish(*second, random.Random(seed + 2), f"{where}, the second game"))
    assert all(end[:mark] == game.history[:mark] for end in ends)
    assert len({tuple(end) for end in ends}) > 1, f"{where}: the continuations are one game: nothing was tested"


@pytest.mark.parametrize("name", NAMES)
def test_positions_cloned_and_continued_agree(name: str) -> None:
    rules = shipped(name)
    for seed in range(2):
        players = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
        prefix = random.Random(seed).randrange(10 * players, 40 * players)
        cloned_and_continued(rules, players, seed, prefix, clone_first=(seed + len(name)) % 2 == 0)


@settings(max_examples=12, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(NAMES), st.integers(0, 2 ** 32), st.integers(0, 250), st.booleans())
def test_random_prefixes_cloned_and_continued_agree(name: str, seed: int, prefix: int, clone_first: bool) -> None:
    rules = shipped(name)
    players = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
    cloned_and_continued(rules, players, seed, prefix, clone_first)


def test_a_clone_at_the_start_and_at_the_end() -> None:
    """Cloned before any action, the clone plays its own game; cloned when over, it is over
    with the same result and no legal action."""
    rules = shipped("knizia2016")
    cloned_and_continued(rules, 4, 5, 0, clone_first=True)
    fast = new_compiled_game(rules, players=3, seed=8)
    chooser = random.Random(8)
    while not fast.over:
        fast.apply_id(chooser.choice(fast.legal_action_ids()))
    copy = fast.clone()
    assert copy.over and copy.to_move is None and copy.legal_action_ids() == []
    assert copy.result() == fast.result() == fast.to_game(events=False).result()
