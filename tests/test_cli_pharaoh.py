"""Pharaoh's Heir at the keyboard: `amunre run pharaohs-heir --agents human,greedy,greedy` plays
a whole game; a human sees its own play mat first, the face-up land tiles and the public facts,
and the next Nile tile only when its Overseer's look showed it."""

from __future__ import annotations

import io
import json
import re

from rich.console import Console
from typer.testing import CliRunner

import amunre
from amunre.cli.app import app
from amunre.cli.human import HumanAgent
from amunre.cli.seat_view import observation_view
from pharaoh_positions import BOB, CAROL, RULES_PATH, TED, act, at_action, begin, set_mat


def seen_by(game: amunre.Game) -> str:
    """What the seat to move is shown before it chooses (markup removed)."""
    out = io.StringIO()
    HumanAgent(Console(file=out, width=120), input=io.StringIO("1\n"), preview=False).choose(game, game.legal_actions())
    return re.sub(r"\[/?[a-z ]*\]", "", out.getvalue())


def test_a_human_plays_pharaohs_heir_against_greedy_bots() -> None:
    result = CliRunner().invoke(app, ["run", "pharaohs-heir", "--agents", "human,greedy,greedy", "--seed", "1"],
                                input="1\n" * 3000)
    assert result.exit_code == 0, result.output
    assert "Your places:" in result.stdout and "Face up beside land_tiles:" in result.stdout
    assert "Seat 1's places:" in result.stdout
    assert "Final scores" in result.stdout and "Winner" in result.stdout


def test_only_the_overseer_who_looked_sees_the_next_nile_tile() -> None:
    # [P] Sacrifice: Carol, the Overseer, looks at the next Nile tile; Bob and Ted do not see it.
    rules = amunre.load_rules(RULES_PATH)
    game = at_action(rules, "sacrifice", CAROL, nile="nile_5a")
    set_mat(game, CAROL, {"temple": {"population": 5}}, grain=0)
    set_mat(game, BOB, {"temple": {"population": 5}}, grain=0)
    set_mat(game, TED, {"temple": {"population": 5}}, grain=0)
    begin(game)
    act(game, CAROL, type="offer_acolytes", t="mat3_temple", k=5)
    act(game, CAROL, type="look_ahead")
    upcoming = game.state.decks["nile_tiles"][0]
    shown_to_bob = seen_by(game)                               # Bob is to move now
    assert game.to_move == BOB and "Your places:" in shown_to_bob and "mat1_temple" in shown_to_bob
    assert "Only you see" not in shown_to_bob and upcoming not in shown_to_bob
    mine = io.StringIO()
    observation_view(Console(file=mine, width=120), game, CAROL)
    text = re.sub(r"\[/?[a-z ]*\]", "", mine.getvalue())
    assert f"Only you see (nile): next {upcoming}" in text
    assert text.index("Your places:") < text.index("Seat 0's places:")     # her own mat first


def test_amunre_diff_reads_pharaohs_heir_like_any_rules_file(tmp_path) -> None:
    variant = tmp_path / "more-grain.yaml"
    variant.write_text("extends: pharaohs-heir\nresources:\n  grain: {start: 6}\nphases:\n  land: {order: clockwise}\n",
                       encoding="utf-8")
    result = CliRunner().invoke(app, ["diff", "pharaohs-heir", str(variant), "--json"])
    assert result.exit_code == 1, result.output
    changed = {c["path"]: c for c in json.loads(result.output)}
    assert (changed["resources.grain.start"]["old"], changed["resources.grain.start"]["new"]) == (4, 6)
    assert "phases.land.order" in changed
    same = CliRunner().invoke(app, ["diff", "pharaohs-heir", "pharaohs-heir"])
    assert same.exit_code == 0 and "the same rules" in same.output
