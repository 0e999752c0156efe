"""Broken rules files: each problem is reported as FILE:LINE:COL with the source line and a
caret, at the exact character in the YAML file (inside a DSL string, too), all in one run."""

from __future__ import annotations

from pathlib import Path

import pytest

import amunre
from conftest import position

GOOD = (Path(__file__).resolve().parent.parent / "rules" / "knizia2016.yaml").read_text()


def broken(tmp_path: Path, old: str, new: str, name: str = "broken.yaml") -> tuple[Path, str]:
    assert GOOD.count(old) == 1, f"ambiguous edit {old!r}"
    text = GOOD.replace(old, new)
    path = tmp_path / name
    path.write_text(text)
    return path, text


CASES = [
    # (id, old text, new text, anchor in new text, the character the caret must be under, message)
    ("bad type", "fields: 6, favor_limit: 0, bonus_favor: 1", "fields: six, favor_limit: 0, bonus_favor: 1",
     "fields: six", "six", "'fields' of province 'buto' must be an integer, got 'six'"),
    ("missing key", "players: {min: 3, max: 5}\n", "",
     None, None, "missing required key 'players'"),
    ("unknown key", "  hand: [theft, architect]", "  hands: [theft, architect]",
     "hands:", "hands", "unknown key 'hands' (did you mean 'hand'?)"),
    ("DSL syntax error", 'effect: "require sum(my.provinces, farmers) >= 9; +3 vp"',
     'effect: "require sum(my.provinces, farmers) >= 9; +3 vp +"',
     'vp +"', "+", "unexpected '+'"),
    ("DSL unexpected character", '"choose target from my.provinces; place 1 free_farmer in target"',
     '"choose target from my.provinces; place 1 free_farmer @ target"',
     "free_farmer @", "@", "unexpected character '@'"),
    ("unknown name in DSL", "sum(my.provinces, farmers) >= 9", "sum(my.provinces, farmrs) >= 9",
     "farmrs", "farmrs", "unknown name 'farmrs' (did you mean 'farmers'?)"),
    ("DSL ends too early", "require sum(my.provinces, farmers) >= 9; +3 vp",
     "require sum(my.provinces, farmers) >= ; +3 vp", ">= ;", ";", "unexpected ';'"),
    ("unknown name in a folded DSL string", "option.offering_adjustment == may_pass;",
     "option.offering_adjustment == may_pas;", "may_pas;", "may_pas",
     "unknown name 'may_pas' (did you mean 'may_pass'?)"),
    ("unknown token in DSL", "place 1 free_farmer in target", "place 1 free_farmers in target",
     "free_farmers", "free_farmers", "unknown token 'free_farmers' (did you mean 'free_farmer'?)"),
    ("unknown modifier in DSL", "set harvest_instead of target = 8", "set harvest_insted of target = 8",
     "harvest_insted", "harvest_insted", "unknown modifier 'harvest_insted' (did you mean 'harvest_instead'?)"),
    ("unknown card id", "  hand: [theft, architect]", "  hand: [theft, architekt]",
     "architekt", "architekt", "unknown card 'architekt' (did you mean 'architect'?)"),
    ("unknown deck id", "    deck: theft\n", "    deck: thef\n",
     "deck: thef", "thef", "unknown deck 'thef' (did you mean 'theft'?)"),
    ("unknown phase id", "round: [auction, market, offering, harvest,",
     "round: [auction, markt, offering, harvest,", "markt", "markt", "unknown phase 'markt' (did you mean 'market'?)"),
    ("unknown good id", "goods: [favor, farmer, stone]}", "goods: [favor, farmer, stones]}",
     "stones]", "stones", "unknown good 'stones' (did you mean 'stone'?)"),
    ("option default not among its values", "    default: province\n", "    default: provinse\n",
     "provinse", "provinse", "default 'provinse' is not one of ['province', 'player'] (did you mean 'province'?)"),
    ("reconstructed names an undeclared property",
     "temples: 0, reconstructed: [side, region, nile, fields]}\n    - {id: damanhur",
     "temples: 0, reconstructed: [side, regoin, nile, fields]}\n    - {id: damanhur", "regoin", "regoin",
     "undeclared property 'regoin' (did you mean 'region'?)"),
    ("'my' where no seat acts",
     'when: "option.nile_side_bonus == province"\n'
     '        award: {points: 5, among: "provinces where owned and side == west"',
     'when: "my.vp > 0"\n        award: {points: 5, among: "provinces where owned and side == west"',
     "my.vp", "my", "'my' means nothing here"),
    ("on_win cannot choose", 'on_win: "claim it;', 'on_win: "choose x from [1]; claim it;',
     '"choose x', "choose", "this effect runs by itself: it cannot 'choose'"),
    ("lots deck must hold places", "lots: {deck: provinces, count: players}", "lots: {deck: favor, count: players}",
     "favor, count", "favor", "must be a deck of places"),
    ("unknown tile value", "offering.tile.farmer_gold + harvest_bonus", "offering.tile.farmer_golds + harvest_bonus",
     "farmer_golds", "farmer_golds", "unknown tile value 'farmer_golds' (did you mean 'farmer_gold'?)"),
    # Found by the long fuzz run (tests/fuzz/run.py): a bid-track auction without its lots or its
    # spaces loaded, then failed as the game began.
    ("placement auction without lots", "    lots: {deck: provinces, count: players}        # one province card per "
     "player\n", "", "mechanic: auction\n    bid_spaces", "mechanic", "this one has no `lots`"),
    ("placement auction without bid spaces", "    bid_spaces: [0, 1, 3, 6, 10, 15, 21, 28, 36]   # [B] printed on "
     "every province card\n", "", "mechanic: auction\n    lots", "mechanic", "this one has no `bid_spaces`"),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_broken_rules_point_at_the_problem(tmp_path: Path, case) -> None:
    _, old, new, anchor, inner, message = case
    path, text = broken(tmp_path, old, new)
    with pytest.raises(amunre.RulesError) as info:
        amunre.load_rules(path)
    report = info.value.format()
    assert message in report
    first = next(p for p in info.value.problems if message in p.format())
    assert first.span is not None and first.span.file == str(path)
    if anchor is not None:
        line, col = position(text, anchor, inner)
        assert (first.span.line, first.span.col) == (line, col), report
        assert f"{path}:{line}:{col}: " in report
        source_line = text.splitlines()[line - 1]
        assert f"    {source_line}\n    {' ' * (col - 1)}^" in report


def test_every_problem_is_reported_in_one_run(tmp_path: Path) -> None:
    text = GOOD.replace("sum(my.provinces, farmers) >= 9", "sum(my.provinces, farmerz) >= 9")
    text = text.replace("  hand: [theft, architect]", "  hand: [theft, architekt]")
    text = text.replace("place 1 free_farmer in target", "place 1 free_farmers in target")
    path = tmp_path / "three.yaml"
    path.write_text(text)
    with pytest.raises(amunre.RulesError) as info:
        amunre.load_rules(path)
    assert len(info.value.problems) == 3
    lines = [p.span.line for p in info.value.problems]
    assert lines == sorted(lines)
    assert "3 problems" in info.value.format()


def test_shipped_rules_are_valid() -> None:
    rules = amunre.load_rules(Path(__file__).resolve().parent.parent / "rules" / "knizia2016.yaml")
    assert len(rules.place_ids) == 15
    assert sum(c.count for c in rules.cards.values() if c.deck == "favor") == 39


def test_seat_modifiers_are_readable_by_name(tmp_path: Path) -> None:
    path, _ = broken(tmp_path, '  harvest_bonus: {scope: place',
                     '  discount: {scope: seat, default: 2, doc: "test"}\n  harvest_bonus: {scope: place')
    text = path.read_text().replace('price: "n * (n + 1) // 2"', 'price: "n * (n + 1) // 2 - discount"')
    path.write_text(text)
    rules = amunre.load_rules(path)
    game = amunre.new_game(rules, players=3, seed=1)
    assert rules.phases["market"].cost(game, 0, 3) == 6 - 2
