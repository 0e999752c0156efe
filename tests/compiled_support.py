"""Playing the interpreter and the compiled engine side by side, for the tests of "the same
games": at every decision both must agree on the seat to move, the legal ids and the whole
position (compiled/pack.py compares it region by region), and at the end on the result.

    python tests/compiled_support.py house/no_theft 50      # 50 seeded random games, every player count
"""

from __future__ import annotations

import functools
import random
import sys
from typing import Any

import amunre
from amunre.interpreter.base.errors import AmunreError
from amunre.interpreter.compiled.game import CompiledGame, compiled, new_compiled_game
from amunre.interpreter.compiled.not_compiled import NotCompiled
from amunre.interpreter.compiled.pack import differences, pack


class Apart(AssertionError):
    """The two engines went apart: where, and how."""


def check_position(game: amunre.Game, fast: CompiledGame, where: str) -> None:
    if fast.engine != "compiled":
        raise Apart(f"{where}: the compiled engine handed the game to the interpreter")
    if game.over != fast.over or game.to_move != fast.to_move:
        raise Apart(f"{where}: to move {game.to_move} (over {game.over}) against {fast.to_move} (over {fast.over})")
    if not game.over and game.legal_action_ids() != fast.legal_action_ids():
        raise Apart(f"{where}: legal ids {game.legal_action_ids()[:20]} against {fast.legal_action_ids()[:20]}")
    for seat in (*range(game.state.players), None):
        expected = game.observation_tensor(seat) if seat is not None else game.public_observation_tensor()
        got = fast.observation_tensor(seat) if seat is not None else fast.public_observation_tensor()
        if expected != got:
            at = next(i for i, (a, b) in enumerate(zip(expected, got)) if a != b) if len(expected) == len(got) else -1
            piece = next((p["name"] for p in game.observation_layout() if p["offset"] <= at < p["offset"] + p["size"]),
                         "?")
            raise Apart(f"{where}: tensors of seat {seat} differ at {at} ({piece}): "
                        f"{expected[at:at + 4]} against {got[at:at + 4]}")
    machine = fast.machine
    packed, unknown = pack(game, machine.lowering, machine.T)
    found = differences(fast.S, packed, machine.lowering, unknown)
    if found:
        raise Apart(f"{where}: the positions differ: {'; '.join(found[:4])}")


def play_both(rules: Any, players: int, seed: int, setup: dict[str, Any] | None = None,
              check_state: bool = True, limit: int = 20_000) -> int:
    """A seeded random game in both engines, compared at every decision; its length."""
    game = amunre.new_game(rules, players=players, seed=seed, setup=setup, events=False)
    fast = new_compiled_game(rules, players=players, seed=seed, setup=setup)
    chooser = random.Random(seed * 7919 + players)
    steps = 0
    while True:
        where = f"{rules.id} {players}p seed {seed} action {steps} (phase {game.step.phase})"
        if check_state:
            check_position(game, fast, where)
        elif game.legal_action_ids() != fast.legal_action_ids() or game.to_move != fast.to_move:
            raise Apart(f"{where}: legal ids or seat to move differ")
        if game.over:
            break
        action = chooser.choice(game.legal_action_ids())
        game.apply_id(action)
        fast.apply_id(action)
        steps += 1
        if steps > limit:
            raise Apart(f"{where}: longer than {limit} actions")
    if game.result() != fast.result():
        raise Apart(f"{rules.id} {players}p seed {seed}: results {game.result()} against {fast.result()}")
    return steps


def play_alike(rules: Any, players: int, seed: int, setup: dict[str, Any] | None = None,
               limit: int = 20_000) -> tuple[str, int, int | None]:
    """A seeded random game in both engines where the compiled one may hand the game over to the
    interpreter (a rule failing, a number past the machine's range) and the rules may fail: the
    whole position is compared while the machine plays, the interpreter's state after it hands
    over; a set-up or an action the interpreter refuses must be refused alike (same error, same
    message, same action). How it ended ("over", "refused", "game error", "long game"), the
    actions played, and the action after which the machine handed over (None: it never did).
    NotCompiled (rules or a set-up the machine does not play) passes to the caller."""
    try:
        game = amunre.new_game(rules, players=players, seed=seed, setup=setup, events=False)
    except AmunreError as error:
        _same_error(error, lambda: new_compiled_game(rules, players=players, seed=seed, setup=setup),
                    f"{rules.id} {players}p seed {seed}: the set-up")
        return "refused", 0, None
    fast = new_compiled_game(rules, players=players, seed=seed, setup=setup)
    chooser = random.Random(seed * 7919 + players)
    steps, handed = 0, (0 if fast.engine != "compiled" else None)
    while True:
        where = f"{rules.id} {players}p seed {seed} action {steps} (phase {game.step.phase})"
        if fast.engine == "compiled":
            check_position(game, fast, where)
        else:
            handed = steps if handed is None else handed
            if fast.fallback is None or fast.fallback.state != game.state or fast.history != game.history:
                raise Apart(f"{where}: the interpreter that took over is at another position")
        if game.over:
            break
        if steps >= limit:
            return "long game", steps, handed
        action = chooser.choice(game.legal_action_ids())
        try:
            game.apply_id(action)
        except AmunreError as error:
            _same_error(error, functools.partial(fast.apply_id, action), where)
            return "game error", steps, handed
        try:
            fast.apply_id(action)
        except AmunreError as error:
            raise Apart(f"{where}: the compiled engine raised {error!r}, the interpreter did not") from error
        steps += 1
    if game.result() != fast.result():
        raise Apart(f"{rules.id} {players}p seed {seed}: results {game.result()} against {fast.result()}")
    return "over", steps, handed


def _same_error(error: AmunreError, call: Any, where: str) -> None:
    """`call` must raise what the interpreter raised: the same class, the same message."""
    try:
        call()
    except NotCompiled:
        raise
    except AmunreError as other:
        if type(other) is not type(error) or str(other) != str(error):
            raise Apart(f"{where}: the interpreter raised {error!r}, the compiled engine {other!r}") from other
        return
    raise Apart(f"{where}: the interpreter raised {error!r}, the compiled engine did not")


def main(argv: list[str]) -> int:
    rules = amunre.load_rules(argv[0])
    games = int(argv[1]) if len(argv) > 1 else 20
    compiled(rules)
    failed = 0
    for seed in range(games):
        players = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
        try:
            play_both(rules, players, seed)
        except Apart as error:
            failed += 1
            print(error)
    print(f"{rules.id}: {games - failed} of {games} games the same")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
