"""DSL type errors are load-time errors at the exact line and column of the YAML file: a
comparison that can never hold, arithmetic on words, a requirement that is not a condition, a
name that takes a reserved word, a division by a constant zero, a choice with no fixed set of
options; and a rule that fails while a game runs is a GameError naming the rule and its place.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import amunre
from amunre.interpreter.base.errors import GameError
from amunre.interpreter.dsl.compile import INLINE_NODES
from amunre.interpreter.dsl.context import Ctx
from conftest import house, position

GOOD = (Path(__file__).resolve().parent.parent / "rules" / "knizia2016.yaml").read_text(encoding="utf-8")
SCRIBES = 'effect: "require sum(my.provinces, favor_symbols) >= 7; +3 vp"'
HARVEST = ('amount: "gold_mine + (caravan when offering.tile.camel) + farmers * '
           '(offering.tile.farmer_gold + harvest_bonus)"')


def broken(tmp_path: Path, old: str, new: str) -> tuple[Path, str]:
    assert GOOD.count(old) == 1, f"ambiguous edit {old!r}"
    text = GOOD.replace(old, new)
    path = tmp_path / "typed.yaml"
    path.write_text(text, encoding="utf-8")
    return path, text


def effect(dsl: str) -> str:
    return f'effect: "{dsl}"'


CASES = [
    # (id, old, new, anchor, the text the caret is under, message)
    ("property against another property's value", SCRIBES,
     effect("require all(my.provinces, side == upper); +3 vp"), "side == upper", "side",
     "a region value is not a side value"),
    ("two words of different properties", SCRIBES, effect("require west == upper; +3 vp"),
     "west == upper", "west", "never equal"),
    ("an option against a property's value", SCRIBES,
     effect("require option.nile_side_bonus == upper; +3 vp"), "option.nile", "option",
     "a region value is not a nile_side_bonus value"),
    ("arithmetic on a word", SCRIBES, effect("require players + west > 3; +3 vp"), "west >", "west",
     "each side of arithmetic must be a number, not a side value"),
    ("arithmetic on a condition", HARVEST, 'amount: "gold_mine + nile"', "nile\"", "nile",
     "each side of arithmetic must be a number, not true or false"),
    ("a requirement that is a number", SCRIBES, effect("require sum(my.provinces, favor_symbols); +3 vp"),
     "sum(my.provinces, favor", "sum", "a requirement must be true or false, not a number"),
    ("a 'when' that is a number", HARVEST, 'amount: "gold_mine when caravan"', "caravan\"", "caravan",
     "the condition after 'when' must be true or false, not a number"),
    ("'and' on numbers", SCRIBES, effect("require my.gold and my.vp; +3 vp"), "my.gold and", "my",
     "each side of 'and' must be true or false, not a number"),
    ("a seat compared with a number", SCRIBES, effect("require count(provinces where owner == 1) > 0; +3 vp"),
     "owner == 1", "owner", "cannot compare a seat with a number"),
    ("a chosen name that is a reserved word", SCRIBES, effect("choose players from my.provinces; +3 vp"),
     "players from", "players", "'players' is a reserved word of the DSL"),
    ("a chosen name shadowing 'it'", SCRIBES, effect("choose it from my.provinces; +3 vp"),
     "it from", "it", "'it' is a reserved word of the DSL"),
    ("a rules-file name that is a reserved word", "  stone: {supply: 15, ", "  each: {supply: 15, ",
     "each: {supply", "each", "'each' is a reserved word of the DSL"),
    ("division by a constant zero", HARVEST, 'amount: "gold_mine // (4 * (2 - 2))"',
     "4 * (2 - 2)", "4", "division by zero"),
    ("minus a text (found by fuzzing)", SCRIBES, effect("require - 'x' > 0; +3 vp"), "'x' >", "'",
     "what '-' applies to must be a number, not a text"),
    ("a choice from a lone number (found by fuzzing)", SCRIBES, effect("choose x from 99; +x vp"), "99;", "9",
     "expected a collection (provinces, seats or a [list]), got a number"),
    ("a choice among values computed in play", SCRIBES, effect("choose x from [my.gold, 1]; +x vp"),
     "[my.gold", "[", "a choice is made among places, seats or a list of fixed values"),
    ("a list of mixed kinds", SCRIBES, effect("choose x from [1, west]; +x vp"), "west]", "west",
     "a list holds values of one kind"),
    ("an attribute of a number", SCRIBES, effect("require my.gold.side; +3 vp"), "side;", "side",
     "a number has no attribute 'side'"),
    ("a scalar min of one number", SCRIBES, effect("require min(my.gold) > 1; +3 vp"), "min(my", "min",
     "min() takes (collection, value) or (number, number, ...)"),
    ("a builtin given too many numbers", SCRIBES, effect("require abs(1, 2) > 0; +3 vp"), "abs(1", "abs",
     "abs() takes (number)"),
    ("an award among seats", 'among: "provinces where owned and side == west", by: [pyramids, stones]',
     'among: "seats", by: [pyramids, stones]', '"seats"', '"',
     "'among' names places to compare, not a list of seats"),
    ("a seat where no seat acts", 'farmers: "farmer + free_farmer"', 'farmers: "farmer + me.vp"', "me.vp", "me",
     "'me' means nothing here: no seat is acting"),
    ("a modifier of another seat given a place", SCRIBES,
     effect("choose t from my.provinces; set auction.extra_blocked_spaces of t = 1"), "of t = 1", "t",
     "'of' for modifier 'auction.extra_blocked_spaces' must be a seat, not a place"),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_type_errors_are_located(tmp_path: Path, case) -> None:
    _, old, new, anchor, inner, message = case
    path, text = broken(tmp_path, old, new)
    with pytest.raises(amunre.RulesError) as info:
        amunre.load_rules(path)
    report = info.value.format()
    line, col = position(text, anchor, inner)
    located = [p for p in info.value.problems if p.span and (p.span.line, p.span.col) == (line, col)]
    assert located, f"nothing reported at {line}:{col}:\n{report}"
    if message is not None:
        assert any(message in p.format() for p in located), report
    source_line = text.splitlines()[line - 1]
    assert f"{path}:{line}:{col}: " in report and f"    {source_line}\n" in report


def test_a_seat_is_a_value_a_place_is_another(tmp_path: Path) -> None:
    """Seats and places are kinds of their own: `owner == my` is fine, a place is not a seat."""
    path, _ = broken(tmp_path, SCRIBES, effect("require count(my.provinces where owner == my) > 0; +3 vp"))
    assert amunre.load_rules(path).cards["master_of_scribes"].effect is not None
    path, _ = broken(tmp_path, SCRIBES, effect("choose t from my.provinces; +1 vp for t"))
    with pytest.raises(amunre.RulesError, match="'for' must be a seat, not a place"):
        amunre.load_rules(path)


# ---- failures while a game runs -----------------------------------------------------------

def test_a_rule_failing_in_play_is_a_game_error_naming_it(tmp_path: Path) -> None:
    """A division by a value that is 0 in play: a GameError naming the rule and its place."""
    path, text = broken(tmp_path, 'price: "n * (n + 1) // 2"', 'price: "n * (n + 1) // my.vp"')
    rules = amunre.load_rules(path)
    game = amunre.new_game(rules, players=3, seed=1, setup={
        "start_player": 0, "decks": {"provinces": ["buto", "mendes", "thebes"]}})
    game.apply({"type": "bid", "lot": "buto", "space": 0})
    game.apply({"type": "bid", "lot": "mendes", "space": 0})
    with pytest.raises(GameError) as info:     # the market opens: its prices are worked out
        game.apply({"type": "bid", "lot": "thebes", "space": 0})
    error = info.value
    line, col = position(text, 'price: "n * (n + 1) // my.vp"', '"n *')
    assert error.span is not None and (error.span.line, error.span.col) == (line, col)
    assert "phases.market.price" in str(error) and "division by zero" in str(error)


def test_the_seat_of_nobody_is_a_game_error(tmp_path: Path) -> None:
    """`owner` of an unowned place is nobody; reading its gold is a located GameError."""
    path, _ = broken(tmp_path, SCRIBES,
                     effect("choose t from provinces where not owned; require t.owner.gold > 0; +3 vp"))
    rules = amunre.load_rules(path)
    game = amunre.new_game(rules, players=3, seed=1, setup={"start_player": 0, "hands": [["master_of_scribes"]]})
    from amunre.interpreter.play import cards
    with pytest.raises(GameError, match="cards.master_of_scribes.effect: 'gold' of nobody"):
        cards.playable(game, 0, "scoring")


def test_a_rules_file_without_a_winner_says_so(tmp_path: Path) -> None:
    start = GOOD.index("# [R] Final Scoring: most VP wins")
    path = tmp_path / "no-winner.yaml"
    path.write_text(GOOD[:start], encoding="utf-8")
    with pytest.raises(amunre.RulesError) as info:
        amunre.load_rules(path)
    assert [p.message for p in info.value.problems] == ["missing required key 'winner'"]


def test_derived_values_are_compiled_into_their_readers_unless_they_can_fail(tmp_path: Path) -> None:
    """A derived value read in a sum over places runs as part of the rule reading it; one that can
    fail in play (a division) is still called, so that its failure names the derived value."""
    rules = amunre.load_rules(Path(__file__).resolve().parent.parent / "rules" / "knizia2016.yaml")
    game = amunre.new_game(rules, players=3, seed=1)
    thebes = rules.place_index["thebes"]
    game.state.owner[thebes] = 0
    game.state.tokens[thebes] = {"pyramid": 1, "double_pyramid": 2, "farmer": 3}
    points = next(a for a in rules.phases["age_scoring"].awards if a.id == "pyramids")
    assert "double_pyramid" in _constants(points.value.fn.__code__)               # inlined: no call
    assert points.value.fn(Ctx(game, 0)) == 5

    path, text = broken(tmp_path, 'pyramids: "pyramid + 2 * double_pyramid"',
                        'pyramids: "pyramid + 2 * double_pyramid + stone // farmer"')
    rules = amunre.load_rules(path)
    game = amunre.new_game(rules, players=3, seed=1)
    game.state.owner[thebes] = 0
    points = next(a for a in rules.phases["age_scoring"].awards if a.id == "pyramids")
    assert "stone" not in _constants(points.value.fn.__code__)                    # called, not inlined
    with pytest.raises(GameError) as info:
        points.value.fn(Ctx(game, 0))
    line, col = position(text, 'pyramids: "pyramid + 2 * double_pyramid + stone // farmer"', '"pyramid')
    assert "derived.pyramids" in str(info.value) and "division by zero" in str(info.value)
    assert info.value.span is not None and (info.value.span.line, info.value.span.col) == (line, col)


def test_a_large_derived_value_is_called_so_the_code_stays_linear(tmp_path: Path) -> None:
    """Each derived value reading the one before twice: inlined everywhere, the code of the last
    would hold the first 2^17 times (18 lines took 1.7 GB). A derived value whose code is not
    small is called, so every function stays small, and the values are the same."""
    chain = "".join(f'  d{k}: "d{k - 1} + d{k - 1}"\n' for k in range(2, 19))
    rules = house(tmp_path, 'derived:\n  d1: "stone + 1"\n' + chain)
    derived = [rules.vocab.place_attrs[f"d{k}"].key for k in range(1, 19)]
    sizes = [len(d.fn.__code__.co_code) + sum(len(c.co_code) for c in _codes(d.fn.__code__)) for d in derived]
    assert max(sizes) <= 2 * max(sizes[:6]), sizes                 # bounded, not doubling line after line
    assert max(d.nodes for d in derived) <= 2 * INLINE_NODES
    game = amunre.new_game(rules, players=3, seed=1)
    assert derived[-1].at(Ctx(game), rules.place_index["thebes"]) == 2 ** 17      # no stone: d1 is 1


def _codes(code: Any) -> list[Any]:
    """The code objects inside generated code (its comprehensions)."""
    inner = [c for c in code.co_consts if hasattr(c, "co_code")]
    return inner + [c for i in inner for c in _codes(i)]


def _constants(code: Any) -> set[Any]:
    """The constants of generated code and of the comprehensions inside it."""
    found = set()
    for const in code.co_consts:
        found |= _constants(const) if hasattr(const, "co_consts") else {const}
    return found
