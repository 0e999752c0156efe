"""The board as `amunre serve` sends it (cli/serve/views.py): every shipped file's layout draws
each place it shows once, in its layout's order; a file without a layout gets one plain column.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import amunre
from amunre.cli.serve.views import board
from conftest import REPO, every_edition, fit, play_random

rules = pytest.fixture(scope="session", name="rules")(every_edition)   # each bundled rules file


def test_a_file_without_a_layout_gets_one_column_of_every_place(tmp_path: Path) -> None:
    text = (REPO / "rules" / "knizia2016.yaml").read_text()
    bare = tmp_path / "bare.yaml"
    bare.write_text(text[:text.index("\n# How `amunre serve` draws")] + "\n")
    loaded = amunre.load_rules(bare)
    assert loaded.layout == amunre.interpreter.model.Layout()
    game = amunre.new_game(loaded, players=3, seed=1)
    drawn = board(loaded, game.observation(0))
    assert [c["label"] for c in drawn["columns"]] == [""]
    assert [p["id"] for b in drawn["columns"][0]["bands"] for p in b["places"]] == list(loaded.place_ids)


def test_every_shipped_board_draws_each_place_it_shows_once(rules: amunre.interpreter.model.Rules) -> None:
    players = fit(rules, 4)
    pick = random.Random(5)
    game = play_random(rules, players, 5, stop=lambda g: len(g.history) >= pick.randrange(40, 120))
    for seat in range(players):
        observed = game.observation(seat)
        drawn = board(rules, observed)
        shown = [p["id"] for c in drawn["columns"] for b in c["bands"] for p in b["places"]]
        assert len(shown) == len(set(shown))
        in_use = {rules.place_ids[p] for p in range(len(rules.place_ids))
                  if observed["owner"][p] >= 0 or any(observed["tokens"][p].values())}
        assert in_use <= set(shown)
        if rules.layout.show == "all":
            assert sorted(shown) == sorted(rules.place_ids)
        for column in drawn["columns"]:
            for band in column["bands"]:
                for place in band["places"]:
                    index = rules.place_index[place["id"]]
                    split = rules.layout.columns
                    if split is not None and split.by != "owner":
                        assert rules.place_props[index][split.by] == column["label"]
                    if split is not None and split.by == "owner":
                        assert place["owner"] == (-1 if column["label"] == "Nobody's"
                                                  else int(column["label"].split()[1]))


def test_the_lot_up_for_auction_is_drawn_as_a_lot_not_as_numbers() -> None:
    from amunre.cli.serve.views import phase_view
    rules = amunre.load_rules(REPO / "rules" / "modern-art.yaml")
    game = amunre.new_game(rules, players=3, seed=2)
    pick = random.Random(1)
    while game.step.phase != "auction_painting":
        game.apply_id(pick.choice(game.legal_action_ids()))
    lot = game.state.working["lot"]
    view = phase_view(game, game.observation(0))
    assert [entry["id"] for entry in view["lots"]] == [rules.place_ids[p] for p in lot] != []
    assert "lot" not in view["facts"]
