"""The static cost of DSL strings (interpreter/dsl/cost.py), with the 2016 vocabulary: 15
provinces, at most 5 players. Loops nested in loops multiply, so do choices, and a string
whose estimate passes MAX_DSL_COST is refused at the part that passes it, before any game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from amunre.interpreter.base.limits import MAX_DSL_COST
from amunre.interpreter.dsl import Dsl
from amunre.interpreter.dsl.check import Checker
from amunre.interpreter.dsl.checked import ACTING_SEAT, NO_SEAT
from amunre.interpreter.dsl.cost import Counts, Estimate
from amunre.interpreter.dsl.tree_to_ast import parse_effect
from amunre.interpreter.dsl.types import PLACE
from conftest import house
from test_dsl import Reported, problems

PER_PLACE = NO_SEAT.over(PLACE)          # where a derived value is read: a place's values are bare names


def cost(rules: Any, text: str) -> int:
    report = Reported()
    found = Dsl(rules.vocab, report).expression(text, PER_PLACE)
    assert report.problems == [], report.problems
    return found.cost


def effect_cost(rules: Any, text: str) -> int:
    """An effect's estimate: what listing its actions and running one takes."""
    report = Reported()
    checker = Checker(rules.vocab, report)
    tree = parse_effect(text)
    checker.effect(tree, ACTING_SEAT)
    assert not checker.failed, report.problems
    return Estimate(checker.out, Counts(len(rules.place_ids), rules.max_players), report).effect(tree)


def test_a_loop_costs_its_body_once_per_element(rules: Any) -> None:
    places, seats = len(rules.place_ids), rules.max_players
    assert (places, seats) == (15, 5)
    one = cost(rules, "sum(provinces, stone)")
    two = cost(rules, "sum(provinces, sum(provinces, stone))")
    assert places * one <= two <= places * (one + 1) + 2
    assert cost(rules, "sum(seats, sum(seats, gold))") < cost(rules, "sum(provinces, sum(provinces, stone))")
    assert cost(rules, "count(provinces where stone > 0)") > places                  # the condition per element
    assert cost(rules, "stone + 1") < 10 and cost(rules, "sum([1, 2, 3], it * 2)") < 20


def test_a_derived_value_costs_what_it_reads_each_time_it_is_read(tmp_path: Path) -> None:
    rules = house(tmp_path, 'derived:\n  deep: "sum(provinces, stone)"\n  deeper: "deep + deep"\n')
    deep, deeper = (rules.vocab.place_attrs[n].key.cost for n in ("deep", "deeper"))
    assert 2 * deep < deeper <= 2 * deep + 3
    assert cost(rules, "sum(provinces, deeper)") > 15 * deeper


def test_choices_multiply_and_a_requirement_runs_per_combination(rules: Any) -> None:
    one = effect_cost(rules, "choose a from provinces; +1 vp")
    two = effect_cost(rules, "choose a from provinces; choose b from provinces; +1 vp")
    assert 15 * one - 50 <= two <= 15 * one + 50 and two > 225
    after_b = effect_cost(rules, "choose a from provinces; choose b from provinces; "
                          "require sum(provinces, stone) > b.stone; +1 vp")
    after_a = effect_cost(rules, "choose a from provinces; choose b from provinces; "
                          "require sum(provinces, stone) > a.stone; +1 vp")
    assert after_a < after_b / 5                    # checked once per a, not once per pair (a, b)
    assert effect_cost(rules, "each p in provinces: each q in provinces: place 1 stone in q") > 225


def test_nested_loops_past_the_limit_are_refused_where_they_pass_it(rules: Any) -> None:
    text = "sum(provinces, " * 20 + "stone" + ")" * 20
    [(message, offset, hint)] = problems(rules, text)               # said once, not by every sum around it
    assert message.startswith("too costly: one evaluation would take about ") and f"{MAX_DSL_COST:,}" in message
    assert offset == len("sum(provinces, ") * 15               # the sum whose cost passes the limit, 5th from inside
    assert hint is not None and "nested" in hint
    three = "choose a from provinces; choose b from provinces; choose c from provinces; "
    [(message, offset, _)] = problems(rules, three + "require sum(provinces, sum(provinces, stone)) > c.stone; +1 vp",
                                      "effect")
    assert message.startswith("too costly") and offset == len(three)      # the requirement, checked 15^3 times
