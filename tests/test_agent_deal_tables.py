"""A deal table kept from an earlier decision is the one the position works out anew
(tools/agents/machine_guesses.py `unseen_key`): at every decision of seeded random games of
every shipped rules file, the guesses' base row and deal table are the same whether the kept
tables are used or forgotten first; and tables are used again where no card has moved.
"""

from __future__ import annotations

import random
from pathlib import Path
from weakref import WeakKeyDictionary

import pytest

from amunre import load_rules, new_game
from amunre.tools.agents import machine_guesses
from amunre.tools.agents.machine_guesses import MachineGuesses
from amunre.tools.agents.machine_lookahead import lookahead
from amunre.tools.determinize import Guesses

RULES = sorted(str(p) for p in Path(__file__).parent.parent.joinpath("rules").rglob("*.yaml"))


@pytest.mark.parametrize("rules_path", RULES, ids=lambda p: Path(p).stem)
def test_a_kept_deal_table_is_the_one_worked_out_anew(rules_path: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = load_rules(rules_path)
    look = lookahead(rules, compile=True)
    if look is None:
        pytest.skip("the machine does not look ahead on these rules")
    players = min(max(rules.min_players, 4), rules.max_players)
    kept: WeakKeyDictionary = WeakKeyDictionary()
    compared = reused = 0
    for seed in (3, 4):
        game, rng = new_game(rules, players=players, seed=seed, events=False), random.Random(seed)
        while not game.over:
            seat = game.to_move
            assert seat is not None
            monkeypatch.setattr(machine_guesses, "_TABLES", kept)
            known = len(kept.get(look.machine, {}))
            drawing = MachineGuesses(look, Guesses(game, seat))
            reused += drawing.base is not None and len(kept[look.machine]) == known > 0
            monkeypatch.setattr(machine_guesses, "_TABLES", WeakKeyDictionary())     # none kept
            fresh = MachineGuesses(look, Guesses(game, seat))
            where = f"seed {seed}, action {len(game.history)}"
            assert (drawing.base is None) == (fresh.base is None), where
            if fresh.base is not None:
                assert drawing.base.tolist() == fresh.base.tolist(), where
                assert drawing.deal_table.tolist() == fresh.deal_table.tolist(), where
                compared += 1
            game.apply_id(rng.choice(game.legal_action_ids()))
    assert compared
    if "knizia2016" in rules_path:
        assert reused >= 20, reused
