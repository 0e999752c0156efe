"""A guess of the hidden facts packed the short way (compiled/pack.py `pack_guess`: the
position it was drawn from packed once by guess_base, the regions a guess draws again packed
anew) is the
array `pack` makes of it, on every shipped rules file, for every seat: a bot values its
guesses on that array, so a region a guess changes and pack_guess copies would change its
choices."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from amunre import load_rules, new_game
from amunre.interpreter.compiled.game import compiled
from amunre.interpreter.compiled.not_compiled import NotCompiled
from amunre.interpreter.compiled.pack import differences, guess_base, pack, pack_guess
from amunre.tools.determinize import Guesses

RULES = sorted(str(p) for p in Path(__file__).parent.parent.joinpath("rules").rglob("*.yaml"))


@pytest.mark.parametrize("rules_path", RULES, ids=lambda p: Path(p).stem)
def test_a_guess_packed_from_its_position_is_packed_whole(rules_path: str) -> None:
    rules = load_rules(rules_path)
    try:
        machine = compiled(rules)
    except NotCompiled:
        pytest.skip("not compiled")
    lowering, T = machine.lowering, machine.T
    rng, compared, hidden = random.Random(3), 0, 0
    for seed in range(3):
        game = new_game(rules, players=min(max(rules.min_players, 4), rules.max_players), seed=seed, events=False)
        while not game.over:
            if rng.random() < 0.2:
                base = guess_base(game, lowering, T)
                for seat in range(game.state.players):
                    guessing = Guesses(game, seat)
                    for _ in range(2):
                        guess = guessing.draw(rng)
                        whole, short = pack(guess, lowering, T), pack_guess(guess, base, lowering, T)
                        assert short[1] == whole[1]
                        assert np.array_equal(short[0], whole[0]), differences(short[0], whole[0], lowering, set())
                        hidden += not np.array_equal(whole[0], pack(game, lowering, T)[0])
                        compared += 1
            game.apply_id(rng.choice(game.legal_action_ids()))
    assert compared >= 20
    assert hidden > 0                  # guesses drew something other than the position itself
