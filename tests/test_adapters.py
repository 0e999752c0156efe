"""What the adapters share and need no outside library for: the explicit-chance game (every
random draw a chance node, replayable from its moves), and that `import amunre` never needs
PettingZoo or OpenSpiel."""

from __future__ import annotations

import pickle
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import amunre
from amunre.adapters.common import checked_players, checked_reward, default_players, reward_bounds, rules_from
from amunre.adapters.explicit import ExplicitGame
from conftest import REPO, RULES_PATH


def play(game: ExplicitGame, pick: random.Random, stop: Any = None) -> ExplicitGame:
    while not game.over and not (stop and stop(game)):
        game.apply(pick.choice(game.legal_moves()))
    return game


def test_the_set_up_is_chance_nodes_then_the_first_decision(rules: Any) -> None:
    game = ExplicitGame(rules, 4)
    assert game.is_chance and game.game is None and game.to_move is None and not game.over
    sizes = []
    while game.is_chance:
        sizes.append(game.chance_size)
        game.apply(0)
    asked: list[int] = []
    amunre.new_game(rules, players=4, chance=lambda n: asked.append(n) or 0)
    assert sizes == asked and sizes[-1] == 4                  # the engine's draws: shuffles, start player
    assert sizes[:len(rules.place_ids) - 1] == list(range(len(rules.place_ids), 1, -1))
    assert game.to_move == game.game.to_move and game.legal_moves() == game.game.legal_action_ids()


def test_a_draw_inside_an_action_is_chance_nodes_before_the_next_decision(rules: Any) -> None:
    """A reshuffle (a draw from an empty deck) stops the action that caused it: its chance
    nodes come next, the seats see the position it started from, and once they are chosen
    the action is done as the engine would do it with those draws."""
    pick = random.Random(2)
    game = play(ExplicitGame(rules, 3), pick, stop=lambda g: g.is_chance and g.game is not None)
    assert not game.over, "no game of this seed reshuffled"
    before, action = game.game, game.pending_action()
    assert action == game.moves[-1] and game.to_move is None
    seen = before.state.to_json()
    while game.is_chance:
        game.apply(pick.randrange(game.chance_size))
        assert game.is_chance is False or game.game is before
    assert before.state.to_json() == seen                      # the position it started from is untouched
    assert game.game.history[-1] == action and game.game.draws[:len(before.draws)] == before.draws


def test_moves_replay_the_game_and_pickle_copies_it(rules: Any) -> None:
    game = play(ExplicitGame(rules, 5), random.Random(7), stop=lambda g: len(g.moves) > 300)
    again = ExplicitGame.from_json(game.to_json())
    assert again.game.state.to_json() == game.game.state.to_json() and again.moves == game.moves
    copied = pickle.loads(pickle.dumps(game))
    clone = game.clone()
    play(game, random.Random(1))
    assert copied.moves == again.moves == clone.moves != game.moves
    saved = game.game.to_json()                                # the engine's own save, with its draws
    assert amunre.Game.from_json(saved, rules).state.to_json() == game.game.state.to_json()


def test_bad_moves_and_bad_saves_are_refused(rules: Any) -> None:
    game = ExplicitGame(rules, 3)
    for bad in (game.chance_size, -1, 0.0, True):
        with pytest.raises(amunre.IllegalAction):
            game.apply(bad)
    data = play(ExplicitGame(rules, 3), random.Random(3), stop=lambda g: len(g.moves) > 80).to_json()
    with pytest.raises(amunre.AmunreError, match="not a game"):
        ExplicitGame.from_json(dict(data, moves=data["moves"][:-1] + [10 ** 6]))
    with pytest.raises(amunre.AmunreError, match="not a saved"):
        ExplicitGame.from_json({"moves": []})


def test_the_shared_helpers(rules: Any) -> None:
    assert rules_from(rules) is rules
    assert rules_from("knizia2016").digest == rules.digest == rules_from(RULES_PATH).digest
    assert default_players(rules) == 4 == checked_players(rules, None)
    with pytest.raises(amunre.AmunreError):
        checked_players(rules, 2)
    with pytest.raises(amunre.AmunreError):
        checked_reward("wins")
    with pytest.raises(amunre.AmunreError):
        rules_from(42)
    assert reward_bounds("win_loss", 4) == reward_bounds("win_loss_share", 4) == (-1.0, 1.0)


def test_import_amunre_needs_no_outside_library() -> None:
    code = ("import sys, amunre, amunre.adapters, amunre.adapters.explicit, amunre.adapters.common\n"
            "assert not {'pyspiel', 'pettingzoo', 'gymnasium', 'numpy'} & set(sys.modules), sys.modules.keys()\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO.parent)


@pytest.mark.parametrize("module,library", [("pettingzoo", "pettingzoo"), ("openspiel", "pyspiel")])
def test_a_missing_library_is_named_with_its_extra(module: str, library: str) -> None:
    code = (f"import sys; sys.modules[{library!r}] = None\n"
            f"try:\n    import amunre.adapters.{module}\nexcept ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=REPO.parent)
    assert f"pip install 'amunre[{module}]'" in out.stdout


# ---- the examples of docs/adapters.md run as written ---------------------------------------

def python_blocks(markdown: Path) -> list[str]:
    text = markdown.read_text(encoding="utf-8")
    return [block.split("```", 1)[0] for block in text.split("```python\n")[1:]]


def python_block(markdown: Path, holding: str) -> str:
    """The one python block of the page that holds `holding`."""
    found = [block for block in python_blocks(markdown) if holding in block]
    assert len(found) == 1, f"{len(found)} python blocks of {markdown.name} hold {holding!r}"
    return found[0]


def test_the_documented_pettingzoo_loop_runs() -> None:
    numpy = pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo")
    code = python_block(REPO / "docs" / "adapters.md", "pettingzoo import env")
    namespace = {"my_policy": lambda features, mask: int(numpy.flatnonzero(mask)[0])}
    exec(code, namespace)
    assert namespace["environment"].unwrapped.game.over


def test_the_documented_openspiel_loop_runs(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyspiel")
    code = python_block(REPO / "docs" / "adapters.md", "pyspiel.load_game")
    exec(code, {})
    assert capsys.readouterr().out.startswith("[")


def test_the_documented_gymnasium_loop_runs() -> None:
    pytest.importorskip("gymnasium")
    code = python_block(REPO / "docs" / "adapters.md", "gymnasium.make(")
    namespace: dict = {}
    exec(code, namespace)
    assert namespace["terminated"] and namespace["env"].unwrapped.game.over
