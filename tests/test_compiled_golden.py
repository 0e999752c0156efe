"""The golden games, played again on the compiled engine.

Two sets of recorded games (never recorded again to make a test pass):
- tests/golden/playthroughs/: seeded random games of every shipped rules file, the actions
  chosen by `random.Random(seed * 7919 + players)` among the legal ids, with the number of
  legal actions at each decision and the result (tests/test_playthroughs.py);
- tests/golden/knizia2016-random.json: 20 games of seeded random agents under the 2016 rules
  as they were before the audit (tests/test_golden.py).

Here the compiled engine makes the choices itself, from its own legal ids, with the same
chooser (or the same seeded agents): it must choose each recorded action, with as many legal
actions as were recorded, and end with the recorded result. An interpreter game fed the
recorded actions goes alongside (it reads the recorded actions, which name lots by place, as
ids), and the compiled position must equal its position, packed region by region, at every
decision (tensors included).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

pytest.importorskip("numpy")
pytest.importorskip("numba")

import amunre
from amunre.interpreter.compiled.game import CompiledGame, new_compiled_game
from amunre.tools.agents import make_agent
from compiled_support import check_position
from conftest import TESTS, agent_seeds
from test_playthroughs import RECORDED, rules_path

RANDOM_GAMES = json.loads((TESTS / "golden" / "knizia2016-random.json").read_text(encoding="utf-8"))
_RULES: dict[str, Any] = {}


def rules_of(path: Any) -> Any:
    key = str(path)
    if key not in _RULES:
        _RULES[key] = amunre.load_rules(path)
    return _RULES[key]


def follow(recorded: list[dict[str, Any]], rules: Any, players: int, seed: int, setup: dict[str, Any] | None,
           choose: Any, legal_counts: list[int] | None = None) -> CompiledGame:
    """The compiled game choosing with `choose(game, ids)`: each choice must be the recorded action,
    each position the interpreter's after the recorded actions."""
    fast = new_compiled_game(rules, players=players, seed=seed, setup=setup)
    twin = amunre.new_game(rules, players=players, seed=seed, setup=setup, events=False)
    for index, action in enumerate(recorded):
        where = f"{rules.id} {players}p seed {seed} action {index}"
        check_position(twin, fast, where)
        ids = fast.legal_action_ids()
        if legal_counts is not None:
            assert len(ids) == legal_counts[index], f"{where}: {len(ids)} legal actions, {legal_counts[index]} recorded"
        chosen = choose(fast, ids)
        wanted = twin.action_to_id(action)
        assert chosen == wanted, f"{where}: chose {twin.action_from_id(chosen)}, recorded {action}"
        fast.apply_id(chosen)
        twin.apply_id(chosen)
    check_position(twin, fast, f"{rules.id} {players}p seed {seed} at the end")
    assert fast.over
    return fast


@pytest.mark.parametrize("name, game", RECORDED,
                         ids=[f"{n}-{g[0]['players']}p-seed{g[0]['seed']}{'-options' if g[0]['options'] else ''}"
                              for n, g in RECORDED])
def test_golden_playthrough_plays_itself_on_the_compiled_engine(name: str, game: list[dict[str, Any]]) -> None:
    header, steps, end = game[0], game[1:-1], game[-1]
    players, seed = header["players"], header["seed"]
    chooser = random.Random(seed * 7919 + players)
    fast = follow([step["action"] for step in steps], rules_of(rules_path(name)), players, seed,
                  {"options": header["options"]} if header["options"] else None, lambda _, ids: chooser.choice(ids),
                  [step["legal"] for step in steps])
    assert fast.result() == end["result"]


def test_every_shipped_file_has_golden_games_here() -> None:
    assert len({name for name, _ in RECORDED}) >= 15 and len(RECORDED) >= 75
    assert any(game[0]["options"] for _, game in RECORDED)


@pytest.mark.parametrize("recorded", RANDOM_GAMES, ids=[f"{g['players']}p-seed{g['seed']}" for g in RANDOM_GAMES])
def test_golden_random_agents_game_plays_itself_on_the_compiled_engine(recorded: dict[str, Any]) -> None:
    players, seed = recorded["players"], recorded["seed"]
    agents = [make_agent("random", s) for s in agent_seeds(seed, players)]
    fast = follow(recorded["actions"], rules_of(TESTS / "golden" / "knizia2016-before-audit.yaml"), players, seed,
                  None, lambda game, ids: agents[game.to_move].choose_id(game, ids))
    assert fast.result() == recorded["result"]
