"""The DSL compiler (interpreter/dsl/) with the real vocabulary of the 2016 rules:
values and precedence, aggregates, problems reported with offsets and suggestions, closures
run against a real game, and no way out to Python.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import amunre
from amunre.interpreter.base.causes import Cause
from amunre.interpreter.dsl import Dsl, Effect, Scope
from amunre.interpreter.dsl.checked import ACTING_SEAT
from amunre.interpreter.dsl.context import Ctx
from amunre.interpreter.dsl.types import BOOL, NUM, PLACE, PLACES
from conftest import RULES_PATH
from conftest import effect_bindings as bindings


class Reported:
    """The `report` callback: collects (message, offset, hint)."""

    def __init__(self) -> None:
        self.problems: list[tuple[str, int, str | None]] = []

    def __call__(self, message: str, offset: int, hint: str | None) -> None:
        self.problems.append((message, offset, hint))


def compiler(rules: Any) -> tuple[Dsl, Reported]:
    report = Reported()
    return Dsl(rules.vocab, report), report


def expr(rules: Any, text: str, scope: Scope = ACTING_SEAT) -> tuple[Any, Any]:
    """Compile an expression that must be free of problems: (closure, type)."""
    comp, report = compiler(rules)
    compiled = comp.expression(text, scope)
    assert report.problems == [], f"{text!r}: {report.problems}"
    return compiled.fn, compiled.type


def problems(rules: Any, text: str, kind: str = "expression") -> list[tuple[str, int, str | None]]:
    comp, report = compiler(rules)
    getattr(comp, kind)(text)
    return report.problems


@pytest.fixture
def game(rules: Any) -> amunre.Game:
    return amunre.new_game(rules, players=4, seed=1)


def value(rules: Any, game: amunre.Game, text: str, seat: int = 0) -> Any:
    fn, _ = expr(rules, text)
    return fn(Ctx(game, seat))


# ---- arithmetic, comparison, logic, `when` -------------------------------------------------

@pytest.mark.parametrize("text,expected", [
    ("1 + 2 * 3", 7),
    ("(1 + 2) * 3", 9),
    ("2 * 3 + 4 * 5", 26),
    ("10 - 3 - 2", 5),              # left associative
    ("12 // 2 // 3", 2),
    ("100 - 10 * 2 // 4", 95),
    ("7 // 2", 3),
    ("7 / 2", 3),                   # integer division: game values are whole numbers
    ("-2 * 3", -6),
    ("2 - -3", 5),
    ("-(1 + 2)", -3),
    ("4 * (5 + 1) // 2", 12),       # the market's price curve n(n+1)/2 for n = 4... times 1
])
def test_arithmetic_and_precedence(rules: Any, game: amunre.Game, text: str, expected: int) -> None:
    fn, typ = expr(rules, text)
    assert typ == NUM
    assert fn(Ctx(game, 0)) == expected


@pytest.mark.parametrize("text,expected", [
    ("1 < 2", True), ("2 <= 2", True), ("3 > 4", False), ("3 >= 4", False),
    ("1 == 1", True), ("1 != 1", False),
    ("1 + 1 == 2", True),                      # arithmetic binds tighter than comparison
    ("2 * 3 > 5 + 0", True),
    ("not 1 == 2", True),
    ("1 < 2 and 2 < 1", False),
    ("1 < 2 or 2 < 1", True),
    ("1 > 2 or 2 > 1 and 3 > 4", False),       # and binds tighter than or
    ("(1 > 2 or 2 > 1) and 3 > 4", False),
    ("1 > 2 or (2 > 1 and 4 > 3)", True),
    ("not 1 > 2 and 2 > 1", True),
    ("west == west", True),
    ("west != east", True),
])
def test_comparisons_and_logic(rules: Any, game: amunre.Game, text: str, expected: bool) -> None:
    fn, typ = expr(rules, text)
    assert typ == BOOL
    assert fn(Ctx(game, 0)) is expected


@pytest.mark.parametrize("text,expected", [
    ("5 when 1 < 2", 5),
    ("5 when 2 < 1", 0),
    ("2 + 3 when 1 > 0", 5),
    ("2 + 3 when 0 > 1", 0),        # `when` guards the whole sum, not just 3
    ("(2 + (3 when 0 > 1))", 2),
    ("10 when 1 < 2 and 2 < 3", 10),
    ("10 when 1 < 2 and 3 < 2", 0),
])
def test_when(rules: Any, game: amunre.Game, text: str, expected: int) -> None:
    assert value(rules, game, text) == expected


@pytest.mark.parametrize("text,expected", [
    ("5 when 1 < 2 else 7", 5),
    ("5 when 2 < 1 else 7", 7),
    ("1 when 2 < 1 else 2 when 1 < 2 else 3", 2),      # a chain: the first condition that holds
    ("1 when 2 < 1 else 2 when 2 < 1 else 3", 3),
    ("(5 when 2 < 1 else 7) + 1", 8),
    ("2 + 3 when 0 > 1 else 10", 10),                    # `when` guards the whole sum, `else` replaces it
])
def test_when_else(rules: Any, game: amunre.Game, text: str, expected: int) -> None:
    assert value(rules, game, text) == expected


def test_when_else_keeps_the_values_type(rules: Any, game: amunre.Game) -> None:
    fn, typ = expr(rules, "start_player when 1 < 2 else me")
    assert typ.kind == "seat" and fn(Ctx(game, 2)) == game.state.start_player
    [(message, offset, _)] = problems(rules, "3 when my.gold > 5 else west")
    assert message == "the value after 'else' must be a number, not a side value" and offset == 24


def test_text_values_and_options(rules: Any, game: amunre.Game) -> None:
    fn, typ = expr(rules, "option.nile_side_bonus")
    assert typ.kind == "text" and fn(Ctx(game)) == rules.options["nile_side_bonus"].default
    assert value(rules, game, "option.nile_side_bonus == province") is True
    assert value(rules, game, "players") == 4


# ---- aggregates ------------------------------------------------------------------------------

def props(rules: Any) -> list[dict[str, Any]]:
    return rules.place_props


def test_count_and_where(rules: Any, game: amunre.Game) -> None:
    p = props(rules)
    assert value(rules, game, "count(provinces)") == len(rules.place_ids) == 15
    assert value(rules, game, "count(provinces where side == west)") == sum(r["side"] == "west" for r in p)
    assert value(rules, game, "count(provinces where nile and region == upper)") == \
        sum(r["nile"] and r["region"] == "upper" for r in p)
    assert value(rules, game, "count(provinces where not nile)") == sum(not r["nile"] for r in p)
    assert value(rules, game, "count(provinces where fields > 100)") == 0


def test_sum_min_max(rules: Any, game: amunre.Game) -> None:
    p = props(rules)
    assert value(rules, game, "sum(provinces, fields)") == sum(r["fields"] for r in p)
    assert value(rules, game, "sum(provinces where side == east, caravan + gold_mine)") == \
        sum(r["caravan"] + r["gold_mine"] for r in p if r["side"] == "east")
    assert value(rules, game, "max(provinces, caravan)") == max(r["caravan"] for r in p)
    assert value(rules, game, "min(provinces where nile, fields)") == min(r["fields"] for r in p if r["nile"])
    assert value(rules, game, "max(provinces where fields > 100, fields)") == 0    # empty: 0
    assert value(rules, game, "sum(provinces, 2 * temples) // 2") == sum(r["temples"] for r in p)


def test_all_any(rules: Any, game: amunre.Game) -> None:
    p = props(rules)
    assert value(rules, game, "all(provinces, fields >= 0)") is True
    assert value(rules, game, "all(provinces, fields > 0)") is all(r["fields"] > 0 for r in p) is False
    assert value(rules, game, "any(provinces, temples > 1)") is True
    assert value(rules, game, "any(provinces, temples > 5)") is False
    assert value(rules, game, "all(provinces where side == west, side == west)") is True
    assert value(rules, game, "any(provinces where side == west, side == east)") is False


def test_list_aggregates_bind_it(rules: Any, game: amunre.Game) -> None:
    assert value(rules, game, "sum([1, 2, 3], it)") == 6
    assert value(rules, game, "count([1, 2, 3] where it > 1)") == 2
    assert value(rules, game, "max([4, 9, 2], it * 2)") == 18
    assert value(rules, game, "min([4, 9, 2], it)") == 2
    fn, typ = expr(rules, "[3, -3]")
    assert typ.kind == "list" and fn(Ctx(game)) == [3, -3]


def test_aggregates_over_the_seats_own_places(rules: Any, game: amunre.Game) -> None:
    state = game.state
    thebes, abu, buto = (rules.place_index[p] for p in ("thebes", "abu", "buto"))
    state.owner[thebes] = state.owner[abu] = 0
    state.owner[buto] = 1
    state.tokens[thebes] = {"stone": 2, "pyramid": 1, "farmer": 3}
    state.tokens[abu] = {"double_pyramid": 1, "free_farmer": 1}
    assert value(rules, game, "count(my.provinces)", seat=0) == 2
    assert value(rules, game, "count(my.provinces)", seat=1) == 1
    assert value(rules, game, "count(my.provinces)", seat=2) == 0
    assert value(rules, game, "sum(my.provinces, pyramids)") == 1 + 2      # derived: double counts 2
    assert value(rules, game, "sum(my.provinces, farmers)") == 3 + 1
    assert value(rules, game, "min(my.provinces, pyramids)") == 1
    assert value(rules, game, "sum(my.provinces, stones)") == 2
    assert value(rules, game, "all(my.provinces, side == east)") is True
    assert value(rules, game, "count(provinces where owned)") == 3
    assert value(rules, game, "sum(my.provinces where stone >= 2, fields)") == props(rules)[thebes]["fields"]


# ---- closures against a real game -------------------------------------------------------------

def test_closures_read_the_live_state(rules: Any, game: amunre.Game) -> None:
    fn, _ = expr(rules, "my.gold * 2 + my.vp")
    assert fn(Ctx(game, 0)) == 40
    game.state.resources[0]["gold"] = 7
    game.state.resources[0]["vp"] = 5
    game.state.resources[1]["gold"] = 1
    assert fn(Ctx(game, 0)) == 19
    assert fn(Ctx(game, 1)) == 2


def test_scopes_element_and_bound(rules: Any, game: amunre.Game) -> None:
    fn, _ = expr(rules, "fields * 2 + temples", Scope().over(PLACE))
    for p, row in enumerate(props(rules)):
        assert fn(Ctx(game, 0, it=p)) == row["fields"] * 2 + row["temples"]
    fn, _ = expr(rules, "n * (n + 1) // 2", Scope(bound={"n": NUM}))
    assert [fn(Ctx(game, 0, {"n": n})) for n in range(5)] == [0, 1, 3, 6, 10]
    # without the element scope a place's values are not names
    assert problems(rules, "fields * 2")[0][0] == "unknown name 'fields'"


def test_collections(rules: Any, game: amunre.Game) -> None:
    comp, report = compiler(rules)
    compiled = comp.collection("provinces where side == west and fields > 2")
    fn, typ = compiled.fn, compiled.type
    assert report.problems == [] and typ == PLACES
    assert fn(Ctx(game)) == [p for p, r in enumerate(props(rules)) if r["side"] == "west" and r["fields"] > 2]
    fn = comp.collection("my.provinces").fn
    game.state.owner[3] = 2
    assert fn(Ctx(game, 2)) == [3] and fn(Ctx(game, 0)) == []


def run_effect(rules: Any, game: amunre.Game, text: str, seat: int = 0, **env: Any) -> Effect:
    """Compile (names in env bound as places) and run an effect for the seat."""
    comp, report = compiler(rules)
    effect = comp.effect(text, Scope(bound={name: PLACE for name in env}))
    assert report.problems == [], report.problems
    effect.run(Ctx(game, seat, dict(env), None, Cause("card", "test")))
    return effect


def test_effects_change_the_game(rules: Any, game: amunre.Game) -> None:
    state = game.state
    run_effect(rules, game, "+3 vp; -5 gold", seat=1)
    assert state.resources[1] == {"gold": 15, "vp": 3}
    assert state.sources[1]["vp"]["test"] == 3
    favor = len(state.decks["favor"])
    run_effect(rules, game, "draw 2 favor", seat=2)
    assert len(state.hands[2]) == 4 and len(state.decks["favor"]) == favor - 2
    thebes = rules.place_index["thebes"]
    state.owner[thebes] = 0
    stones = state.supply["stone"]
    run_effect(rules, game, "place 2 stone in target", target=thebes)
    assert state.tokens[thebes] == {"stone": 2} and state.supply["stone"] == stones - 2
    run_effect(rules, game, "convert 2 stone to pyramid in target", target=thebes)
    assert state.tokens[thebes] == {"stone": 0, "pyramid": 1}
    run_effect(rules, game, "+2 gold per pyramid in my.provinces")
    assert state.resources[0]["gold"] == 22
    run_effect(rules, game, "add 1 to harvest_bonus of target; add 2 to harvest_bonus of target", target=thebes)
    assert state.mods["harvest_bonus"][thebes] == 3
    assert [v for i, v in enumerate(state.mods["harvest_bonus"]) if i != thebes] == [None] * 14
    run_effect(rules, game, "set auction.extra_blocked_spaces = 1", seat=3)
    assert state.mods["auction.extra_blocked_spaces"] == [None, None, None, 1]


def test_effect_choices_and_requirements(rules: Any, game: amunre.Game) -> None:
    comp, report = compiler(rules)
    effect = comp.effect("choose target from my.provinces where stone >= 2; convert 2 stone to pyramid in target")
    assert report.problems == []
    assert [c.name for c in effect.choices] == ["target"]
    state = game.state
    a, b = rules.place_index["edfu"], rules.place_index["sawu"]
    state.owner[a] = state.owner[b] = 0
    state.tokens[a] = {"stone": 2}
    state.tokens[b] = {"stone": 1}
    assert bindings(game, 0, effect) == [{"target": a}]
    assert bindings(game, 1, effect) == []

    effect = comp.effect("require my.gold >= 25; +1 vp")
    assert report.problems == [] and len(effect.requires) == 1
    assert effect.allowed(Ctx(game, 0)) is False
    state.resources[0]["gold"] = 25
    assert effect.allowed(Ctx(game, 0)) is True

    effect = comp.effect("choose delta from [3, -3]; +delta gold")
    assert report.problems == []
    assert bindings(game, 0, effect) == [{"delta": 3}, {"delta": -3}]


# ---- problems: where and what -------------------------------------------------------------------

@pytest.mark.parametrize("text,name,hint", [
    ("my.gld", "gld", "gold"),
    ("sum(my.provinces, pyramidz)", "pyramidz", "pyramid"),
    ("count(provinces where sid == west)", "sid", "side"),
    ("offering.tile.camle", "camle", "camel"),
    ("option.nile_side_bonsu", "nile_side_bonsu", "nile_side_bonus"),
    ("summ(provinces, fields)", "summ", "sum"),
    ("count(provincs)", "provincs", "provinces"),
    ("1 + plyers", "plyers", "players"),
    ("count(provinces where side == wset)", "wset", "west"),
])
def test_unknown_names_are_located_with_a_suggestion(rules: Any, text: str, name: str, hint: str) -> None:
    found = problems(rules, text)
    assert len(found) == 1, found
    message, offset, suggestion = found[0]
    assert f"'{name}'" in message and "unknown" in message
    assert text[offset:offset + len(name)] == name, (text, offset)
    assert suggestion is not None and f"'{hint}'" in suggestion


@pytest.mark.parametrize("text,name,hint", [
    ("+3 gld", "gld", "gold"),
    ("draw 1 favr", "favr", "favor"),
    ("choose t from my.provinces; place 1 stonee in t", "stonee", "stone"),
    ("set auction.extra_blocked_spacez = 1", "auction", "auction.extra_blocked_spaces"),
])
def test_unknown_names_in_effects(rules: Any, text: str, name: str, hint: str) -> None:
    found = problems(rules, text, "effect")
    assert len(found) == 1, found
    message, offset, suggestion = found[0]
    assert text[offset:offset + len(name)] == name
    assert suggestion is not None and hint in suggestion


def test_every_problem_in_a_string_is_reported(rules: Any) -> None:
    found = problems(rules, "my.gld + my.vpp + count(provincs)")
    assert [(o, h) for _, o, h in found] == [(3, "did you mean 'gold'?"), (12, "did you mean 'vp'?"),
                                             (24, "did you mean 'provinces'?")]


def test_a_name_that_only_shares_letters_is_not_suggested(rules: Any) -> None:
    """'good' is not a slip of the keys for 'nobody' (issue 36): no suggestion, and where names
    are bound (a market's price binds `n`) the hint names them; a real slip is still suggested."""
    comp, report = compiler(rules)
    comp.expression("n * (n + 1) // 2 + good", Scope(bound={"n": NUM}))
    assert report.problems == [("unknown name 'good'", 19, "the names bound here: n")]
    assert problems(rules, "count(nobdoy)") == [("unknown name 'nobdoy'", 6, "did you mean 'nobody'?")]
    assert problems(rules, "my.good")[0][2] == "did you mean 'gold'?"       # one letter off: a slip


def test_an_amount_written_as_an_expression_is_told_to_take_parentheses(rules: Any) -> None:
    [(message, offset, _)] = problems(rules, "claim it; +2 * count(my.provinces) gold", "effect")
    assert message.endswith("an amount that is an expression goes in parentheses: +(2 * ...), not +2 * ...")
    assert offset == len("claim it; +2 ")
    [(message, _, _)] = problems(rules, "claim it; +it.bonus_gold gold gold", "effect")
    assert "parentheses" not in message


@pytest.mark.parametrize("text,offset", [
    ("1 + * 2", 4),
    ("1 2", 2),
    ("1 === 2", 4),
    ("sum(provinces fields)", 14),
    ("1 + 2)", 5),
    ("my.gold > 1 ;", 12),
    ("1 +", 2),                      # ends too early: the last character
    ("(1 + 2", 5),
    ("sum(provinces, fields", 20),
])
def test_syntax_errors_are_located(rules: Any, text: str, offset: int) -> None:
    found = problems(rules, text)
    assert len(found) == 1, found
    assert found[0][1] == offset, found
    assert found[0][0]


def test_syntax_error_messages_say_what_was_expected(rules: Any) -> None:
    (message, _, _), = problems(rules, "1 + * 2")
    assert "'*'" in message and "a number" in message
    (message, _, _), = problems(rules, "1 +")
    assert "ends too early" in message
    (message, offset, _), = problems(rules, "+1 vp;", "effect")
    assert "ends too early" in message and offset == 5


@pytest.mark.parametrize("text,kind", [
    ("'a' == 1", "expression"),
    ("my.provinces.fields", "expression"),
    ("count(provinces, 1)", "expression"),
    ("sum(provinces)", "expression"),
    ("add 1 to harvest_bonus", "effect"),
    ("set harvest_bonus of target = 1", "effect"),
])
def test_misuse_is_reported(rules: Any, text: str, kind: str) -> None:
    assert problems(rules, text, kind)


def test_a_bad_card_effect_stops_the_rules_from_loading(tmp_path: Path) -> None:
    text = RULES_PATH.read_text(encoding="utf-8")
    old = 'effect: "require sum(my.provinces, favor_symbols) >= 7; +3 vp"'
    assert old in text
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace(old, 'effect: "require sum(my.provinces, favor_simbols) >= 7; +3 vp"'),
                   encoding="utf-8")
    with pytest.raises(amunre.RulesError) as err:
        amunre.load_rules(bad)
    shown = str(err.value)
    assert "favor_simbols" in shown and "favor_symbols" in shown


# ---- no way out to Python ------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "__class__",
    "my.__dict__",
    "my.__class__.__bases__",
    "my.gold.__class__",
    "eval(1)",
    "exec('1')",
    "open('x')",
    "getattr(my, 'gold')",
    "__import__('os')",
    "__builtins__",
    "(1).__class__",
    "[].__class__",
    "'a'.upper",
    "lambda: 1",
    "1 if 1 else 2",
    "x[0]",
    "game.state",
    "ctx.game",
])
def test_python_is_out_of_reach_in_expressions(rules: Any, game: amunre.Game, text: str) -> None:
    comp, report = compiler(rules)
    fn = comp.expression(text).fn
    assert report.problems, f"{text!r} compiled without a problem"
    # What was compiled is an inert placeholder, never a Python object.
    assert fn(Ctx(game, 0)) == 0


@pytest.mark.parametrize("text", [
    "set __class__ = 1",
    "+1 __dict__",
    "draw 1 __builtins__",
    "place 1 __class__ in my",
    "__import__('os')",
    "+eval(1) vp",
    "require my.__class__",
])
def test_python_is_out_of_reach_in_effects(rules: Any, game: amunre.Game, text: str) -> None:
    comp, report = compiler(rules)
    comp.effect(text)
    assert report.problems, f"{text!r} compiled without a problem"


def test_parts_evaluated_only_sometimes_stay_so(rules: Any, game: amunre.Game) -> None:
    """The compiler builds the collections an expression always needs by loops before its value;
    a `when`'s value and the right side of `and`/`or` still run only when the rule says so (here
    they would divide by 0)."""
    game.state.owner[rules.place_index["thebes"]] = 0
    game.state.resources[0]["vp"] = 0
    assert value(rules, game, "sum(my.provinces, fields // my.vp) when my.vp > 0") == 0
    assert value(rules, game, "my.vp > 0 and sum(my.provinces, fields // my.vp) > 0") is False
    assert value(rules, game, "my.vp == 0 or count(my.provinces where fields // my.vp > 0) > 0") is True
    assert value(rules, game, "count(my.provinces where my.vp > 0 and fields // my.vp > 0)") == 0
    game.state.resources[0]["vp"] = 2
    fields = props(rules)[rules.place_index["thebes"]]["fields"]
    assert value(rules, game, "sum(my.provinces, fields // my.vp) when my.vp > 0") == fields // 2
    assert value(rules, game, "sum(my.provinces, fields) + max(my.provinces where fields > 0, fields)") == 2 * fields
