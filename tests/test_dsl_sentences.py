"""The DSL reads as English for a generated rulebook: every string of every shipped rules file
has a sentence that names what it is about and shows no DSL syntax, a few sentences are fixed
word for word, and every construct of the AST has a sentence form."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import amunre
from amunre.interpreter.dsl import ast
from amunre.interpreter.dsl.builtins import FUNCTIONS
from amunre.interpreter.dsl.sentences import _say, sentence
from amunre.interpreter.dsl.tree_to_ast import parse_collection, parse_effect, parse_expression
from conftest import REPO, RULES_PATH

RULES_FILES = sorted((REPO / "rules").glob("*.yaml")) + sorted((REPO / "rules" / "house").glob("*.yaml"))
SYNTAX = ("==", "!=", "<=", ">=", "//", "my.", ";", " < ", " > ", "+", "*", "_", "[", "]")


@cache
def loaded(path: Path) -> Any:
    return amunre.load_rules(path)


def names_in(node: Any) -> Iterator[str]:
    """Every name the tree mentions: identifiers and each part of a dotted name."""
    if isinstance(node, ast.Ident):
        yield node.name
    elif isinstance(node, tuple):
        for item in node:
            yield from names_in(item)
    elif dataclasses.is_dataclass(node):
        for f in dataclasses.fields(node):
            yield from names_in(getattr(node, f.name))


@pytest.mark.parametrize("path", RULES_FILES, ids=lambda p: p.relative_to(REPO / "rules").as_posix())
def test_every_string_of_every_rules_file_reads_as_english(path: Path) -> None:
    rules = loaded(path)
    vocab = rules.vocab
    material = set(vocab.resources) | set(vocab.tokens) | set(vocab.decks)
    strings = [d for d in rules.dsl if d.tree is not None]
    assert strings
    for dsl in strings:
        text = sentence(dsl.tree, vocab)
        where = f"{'/'.join(map(str, dsl.path))}: {text!r}"
        assert text.strip(), where
        assert not [s for s in SYNTAX if s in text], where
        for name in set(names_in(dsl.tree)) & material:
            assert name.replace("_", " ") in text, f"{where} does not name {name!r}"


@pytest.fixture(scope="module")
def vocab() -> Any:
    return loaded(RULES_PATH).vocab


EFFECTS = [
    ("+1 gold per farmers in my.provinces", "gain 1 gold for each farmer in your provinces"),
    ("choose target from my.provinces where stone >= 2; convert 2 stone to pyramid in target",
     "choose one of your provinces with at least 2 stones, then turn 2 stones in the chosen province into a pyramid"),
    ("require sum(my.provinces, farmers) >= 9; +3 vp", "if your provinces have at least 9 farmers in all: gain 3 vp"),
    ("draw 2 favor", "draw 2 favor cards"),
    ("choose victim from others where gold >= 2; take 2 gold from victim",
     "choose one of the other players with at least 2 gold, then take 2 gold from the chosen player"),
    ("choose a from my.provinces; choose b from my.provinces where it != a; move 1 stone from a to b",
     "choose one of your provinces, then choose one of your provinces other than the first chosen province, "
     "then move 1 stone from the first chosen province to the second chosen province"),
    ("if my.gold > 20 then +1 vp else (-1 gold; +2 vp)",
     "if you have more than 20 gold, gain 1 vp, otherwise (lose 1 gold, then gain 2 vp)"),
    ("each s in others where cards > 3: (-1 vp for s; draw 1 favor for s)",
     "for each of the other players with more than 3 cards, "
     "(that player loses 1 vp, then that player draws 1 favor card)"),
    ("choose t from provinces where not owned; claim t",
     "choose one of the provinces without an owner, then become the owner of the chosen province"),
    ("choose target from my.provinces; add 1 to harvest_bonus of target",
     "choose one of your provinces, then add 1 to the chosen province's harvest bonus"),
    ("choose s from others; set start_player = s",
     "choose one of the other players, then the chosen player becomes the start player"),
    ("require all(my.provinces, nile) or all(my.provinces, not nile); +3 vp",
     "if all of your provinces have nile or none of your provinces has nile: gain 3 vp"),
]
EXPRESSIONS = [
    ("3 * min(my.provinces, pyramids)", "3 times the fewest pyramids in any of your provinces"),
    ("n * (n + 1) // 2", "n times (n plus 1) divided by 2, rounded down"),
    ("min(3, my.gold)", "the lower of 3 and your gold"),
    ("count(others where vp > my.vp)", "the number of the other players with more vp than you"),
    ("5 when offering.tile.camel else 2", "5 if the offering tile has camel, otherwise 2"),
    ("abs(3 - my.gold)", "the difference between 3 and your gold"),
    ("farmer + free_farmer", "farmers plus free farmers"),
]


@pytest.mark.parametrize(("text", "english"), EFFECTS)
def test_effects_read_as_written_here(vocab: Any, text: str, english: str) -> None:
    assert sentence(parse_effect(text), vocab) == english


@pytest.mark.parametrize(("text", "english"), EXPRESSIONS)
def test_expressions_read_as_written_here(vocab: Any, text: str, english: str) -> None:
    assert sentence(parse_expression(text), vocab) == english


def test_a_collection_with_where_reads_as_a_noun_phrase(vocab: Any) -> None:
    assert (sentence(parse_collection("provinces where owned and side == west"), vocab)
            == "the provinces with an owner and side west")


def test_without_a_vocabulary_names_are_their_words() -> None:
    assert sentence(parse_effect("+2 some_thing for me")) == "gain 2 some thing"


def subclasses(cls: type) -> set[type]:
    found = set()
    for sub in cls.__subclasses__():
        found |= {sub} | subclasses(sub)
    return found


def test_every_node_kind_of_the_ast_has_a_sentence_form() -> None:
    kinds = subclasses(ast.Stmt) | subclasses(ast.Expr) | {ast.Effect, ast.Target, ast.Ident}
    assert {ast.Gain, ast.Each, ast.Where, ast.When} <= kinds
    missing = sorted(k.__name__ for k in kinds if _say.dispatch(k) is _say.dispatch(ast.Node))
    assert not missing, f"no sentence form for {missing}"


def test_an_unknown_node_kind_raises() -> None:
    @dataclasses.dataclass(frozen=True, kw_only=True)
    class Novel(ast.Expr):
        pass

    with pytest.raises(TypeError, match="Novel"):
        sentence(Novel())


@pytest.mark.parametrize("func", sorted(FUNCTIONS))
def test_every_builtin_function_has_a_sentence_form(vocab: Any, func: str) -> None:
    args = {"count": "my.provinces", "abs": "my.gold", "all": "my.provinces, nile", "any": "my.provinces, nile"}
    text = sentence(parse_expression(f"{func}({args.get(func, 'my.provinces, fields')})"), vocab)
    assert text and func + "(" not in text


OPERATORS = {"+": "plus", "-": "minus", "*": "times", "//": "divided by", "/": "divided by", "==": "is",
             "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than", ">=": "is at least",
             "and": "and", "or": "or"}


@pytest.mark.parametrize("op", sorted(OPERATORS))
def test_every_operator_reads_as_words(vocab: Any, op: str) -> None:
    operands = ("my.gold > 1", "my.vp > 2") if op in ("and", "or") else ("round", "players")
    text = sentence(parse_expression(f"{operands[0]} {op} {operands[1]}"), vocab)
    assert f" {OPERATORS[op]} " in text and not [s for s in SYNTAX if s in text], text


def test_unary_operators_read_as_words(vocab: Any) -> None:
    assert sentence(parse_expression("-my.gold"), vocab) == "minus your gold"
    assert sentence(parse_expression("not my.gold > 1"), vocab) == "it is not the case that you have more than 1 gold"


def test_an_unknown_function_raises() -> None:
    with pytest.raises(TypeError, match="nosuch"):
        sentence(ast.Call(func=ast.Ident(name="nosuch"), args=(ast.Number(value=1),)))
