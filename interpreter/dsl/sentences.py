"""The AST read out as English, for a rulebook generated from the rules file.

The canonical printer (printer.py) gives the text back to those who write rules; this gives
its meaning to those who play: `+1 RES per ATTR in my.PLURAL` becomes "gain 1 RES for each
ATTR in your PLURAL". Every word comes from the tree and the vocabulary, so one function
words every edition. The structure mirrors printer.py: one function per node kind, and a
node kind without one raises, so no construct reaches a rulebook unread.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import singledispatch

from . import ast
from .builtins import FUNCTIONS, VALUES
from .names import Attr, Vocabulary


def sentence(node: ast.Node, vocab: Vocabulary | None = None) -> str:
    """English of an effect, a statement, an expression or a collection; `vocab` (the rules
    file's names) tells a resource from a token or a deck and names the places."""
    return _say(node, _Scope(vocab or Vocabulary()))


# ---- what names stand for -------------------------------------------------------------------

@dataclass(frozen=True)
class _Bound:
    """A `choose` or `each` name: how the rest of the text refers to what it stands for."""
    text: str                 # "the chosen NOUN", "that NOUN"
    kind: str                 # place, seat or value


@dataclass(frozen=True)
class _Scope:
    vocab: Vocabulary
    bound: dict[str, _Bound] = field(default_factory=dict)
    element: str | None = None     # what `it` is inside `where` and functions: place, seat or value

    def binding(self, name: str, bound: _Bound) -> _Scope:
        return replace(self, bound={**self.bound, name: bound})

    def inside(self, kind: str) -> _Scope:
        return replace(self, element=kind)


@dataclass(frozen=True)
class _Ref:
    """What a dotted name reads as, with what a condition on it needs to be worded."""
    text: str                      # as a noun phrase: "your RES", "the chosen NOUN"
    kind: str = "value"            # place, places, seat, seats, value, row, phase, option
    owner: str | None = None       # whose attribute it is: "you", "it", "the chosen NOUN"
    attr: str = ""                 # the attribute's name
    how: str = ""                  # count, flag, owned, owner, or "" for a plain value
    one: str = ""                  # a count's noun for one ("TOKEN") and for many ("TOKENs")
    many: str = ""
    mine: bool = False             # an attribute of the element in scope (`it`)
    phase: str = ""                # a phase or deck: its name, for `PHASE.MEMBER`


def words(name: object) -> str:
    """A name of the rules file as words (`some_name` -> "some name"): how a sentence, a rulebook
    and the play-by-play say it."""
    return str(name).replace("_", " ")


def _possessive(text: str) -> str:
    special = {"you": "your", "it": "its"}
    if text in special:
        return special[text]
    return text + ("'" if text.endswith("s") else "'s")


def _plural(text: str) -> str:
    if text.endswith(("s", "x", "z", "ch", "sh")):
        return text + "es"
    if text.endswith("y") and text[-2:-1] not in "aeiou":
        return text[:-1] + "ies"
    return text + "s"


_FUNCTION_WORDS = frozenset({"for", "of", "in", "on", "at", "to", "by", "with", "from", "per"})


def _noun_like(name: str) -> bool:
    """Whether a token's name reads as a noun that takes a plural `s`: a name such as
    `in_play` or `used` is counted as "N ... tokens" instead."""
    parts = name.split("_")
    return (all(p.isalpha() for p in parts) and not _FUNCTION_WORDS & set(parts)
            and not parts[-1].endswith("ed") and not any(p.endswith("s") for p in parts[:-1]))


def _token_nouns(name: str) -> tuple[str, str]:
    said = words(name)
    if _noun_like(name):
        return said, _plural(said)
    return f"{said} token", f"{said} tokens"


def _looks_plural(name: str) -> bool:
    """A number attribute named in the plural (`..._symbols`, `fields`) is a count of things."""
    return name.endswith("s") and not name.endswith("ss")


def _count_nouns(name: str, attr: Attr) -> tuple[str, str] | None:
    """(one, many) when the attribute counts things, so that it reads "at least N THINGS"."""
    if attr.kind == "token":
        return _token_nouns(name)
    if attr.kind == "resource":
        return words(name), words(name)
    if attr.kind == "cards":
        return "card", "cards"
    if attr.type.kind == "number" and _looks_plural(name):
        return words(name)[:-1], words(name)
    return None


def _noun(ref: _Ref, n: int) -> str:
    return ref.one if n == 1 else ref.many


# The builtin values that read better than "the NAME".
_VALUE_WORDS = {"me": "you", "my": "you", "others": "the other players", "seats": "the players",
                "players": "the number of players", "next_player": "the player after the start player"}
_KINDS = {"seat": "seat", "list": "seats"}


def _builtin(name: str) -> _Ref:
    kind = _KINDS.get(VALUES[name].type.kind, "value")
    return _Ref(_VALUE_WORDS.get(name, f"the {words(name)}"), kind)


def _attr_ref(owner: str | None, name: str, attr: Attr, mine: bool) -> _Ref:
    """An attribute of a place or a seat (`owner` None: of the place a formula is about)."""
    nouns = _count_nouns(name, attr)
    how = ("count" if nouns else {"owned": "owned", "owner": "owner"}.get(attr.kind, "")
           or ("flag" if attr.type.kind == "boolean" else ""))
    said = nouns[1] if nouns else words(name)
    text = said if owner is None else f"{_possessive(owner)} {said}"
    kind = {"places": "places", "owner": "seat"}.get(attr.kind, "place" if attr.type.kind == "place" else "value")
    one, many = nouns or ("", "")
    return _Ref(text, kind, owner, name, how, one, many, mine)


def _first(name: str, dotted: bool, scope: _Scope) -> _Ref:
    """The first part of a name, looked up in the order the checker does (a phase or a deck
    only before a dot: a deck may share the places' plural)."""
    vocab = scope.vocab
    if name in scope.bound:
        bound = scope.bound[name]
        return _Ref(bound.text, bound.kind)
    if name == "it":
        return _Ref("it", scope.element or "place", mine=scope.element is not None)
    if name in VALUES:
        return _builtin(name)
    if name == "option":
        return _Ref("option", "option")
    if dotted and name in vocab.phases:
        return _Ref(words(name), "phase", phase=name)
    mod = vocab.modifiers.get(name)
    if mod is not None and mod.scope != "place":
        return _Ref(f"{'your' if mod.scope == 'seat' else 'the'} {words(name)}")
    return _bare(name, scope)


def _bare(name: str, scope: _Scope) -> _Ref:
    """An attribute of the element in scope, the places, a value word, a place or a name the
    rule's context binds (`n`, the card laid)."""
    vocab = scope.vocab
    owner = None if scope.element is None else "it"
    if scope.element == "seat" and name in vocab.seat_attrs:
        return _attr_ref(owner, name, vocab.seat_attrs[name], True)
    if scope.element in (None, "place") and name in vocab.place_attrs:
        return _attr_ref(owner, name, vocab.place_attrs[name], True)
    if name == vocab.plural:
        return _Ref(f"the {words(name)}", "places")
    if name in vocab.place_ids:
        return _Ref(words(name).title(), "place")
    return _Ref(words(name))


def _member(ref: _Ref, name: str, scope: _Scope) -> _Ref:
    """`PHASE.NAME` or `DECK.left`."""
    member = scope.vocab.member(ref.phase, name)
    if member is None:
        return _Ref(f"the {ref.text} {words(name)}")
    if name == "left" and ref.phase in scope.vocab.decks:
        return _Ref(f"the number of cards left in the {ref.text} deck")
    whose = "your" if member.modifier is not None and member.modifier.scope == "seat" else "the"
    kind = {"place": "place", "seat": "seat", "row": "row"}.get(member.type.kind, "value")
    how = "flag" if member.type.kind == "boolean" else ""
    return _Ref(f"{whose} {ref.text} {words(name)}", kind, how=how, phase=f"{ref.phase}.{name}")


def _attribute(ref: _Ref, name: str, scope: _Scope) -> _Ref:
    vocab = scope.vocab
    if ref.kind == "option":
        return _Ref(f"the {words(name)} option")
    if ref.kind == "phase":
        return _member(ref, name, scope)
    if ref.kind == "row":
        column = vocab.tables.get(ref.phase, {}).get(name)
        how = "flag" if column is not None and column.kind == "boolean" else ""
        return _Ref(f"{_possessive(ref.text)} {words(name)}", owner=ref.text, attr=name, how=how)
    mine = ref.text == "it" and ref.mine
    for attrs in ((vocab.seat_attrs, vocab.place_attrs) if ref.kind == "seat" else
                  (vocab.place_attrs, vocab.seat_attrs)):
        if name in attrs:
            return _attr_ref(ref.text, name, attrs[name], mine)
    return _Ref(f"{_possessive(ref.text)} {words(name)}", owner=ref.text, attr=name, mine=mine)


def _ref(node: ast.Name, scope: _Scope) -> _Ref:
    ref = _first(node.parts[0].name, len(node.parts) > 1, scope)
    for part in node.parts[1:]:
        ref = _attribute(ref, part.name, scope)
    return ref


def _ref_of(node: ast.Expr, scope: _Scope) -> _Ref | None:
    return _ref(node, scope) if isinstance(node, ast.Name) else None


# ---- collections ----------------------------------------------------------------------------

def _element(node: ast.Expr, scope: _Scope) -> tuple[str, str]:
    """(kind, noun) of a collection's elements: what `it` is and how a bound name reads."""
    if isinstance(node, ast.Where):
        return _element(node.base, scope)
    if isinstance(node, ast.ListOf):
        numbers = all(isinstance(i, ast.Number) or isinstance(i, ast.Unary) and i.op == "-" for i in node.items)
        return "value", "number" if numbers else "value"
    ref = _ref_of(node, scope)
    if ref is not None and ref.kind == "seats":
        return "seat", "player"
    return "place", scope.vocab.noun


def _is_collection(node: ast.Expr, scope: _Scope) -> bool:
    """Whether `min`/`max` take their collection form, as the checker decides it."""
    if isinstance(node, (ast.Where, ast.ListOf)):
        return True
    ref = _ref_of(node, scope)
    return ref is not None and ref.kind in ("places", "seats")


def _within(collection: ast.Expr, scope: _Scope) -> _Scope:
    return scope.inside(_element(collection, scope)[0])


def _collection(node: ast.Expr, scope: _Scope) -> str:
    if isinstance(node, ast.Where):
        return f"{_collection(node.base, scope)} {_filter(node.cond, _within(node.base, scope))}"
    return _say(node, scope)


def _listing(items: list[str], last: str = "and") -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {last} {items[-1]}"


# ---- conditions -----------------------------------------------------------------------------

@dataclass(frozen=True)
class _Pred:
    """A condition on the element in scope, worded after a plural subject ("have N THINGS"),
    a singular one ("has N THINGS") and a plural noun ("with N THINGS")."""
    are: str
    is_: str
    filt: str
    neg: _Pred | None = None


def _has(phrase: str) -> _Pred:
    return _Pred(f"have {phrase}", f"has {phrase}", f"with {phrase}")


_AMOUNT = {">=": "at least {n} {noun}", ">": "more than {n} {noun}", "<=": "at most {n} {noun}",
           "<": "fewer than {n} {noun}", "==": "exactly {n} {noun}", "!=": "other than {n} {noun}"}
_AS_MANY = {">=": "at least as many {many} as {r}", ">": "more {many} than {r}", "<=": "at most as many {many} as {r}",
            "<": "fewer {many} than {r}", "==": "as many {many} as {r}", "!=": "not as many {many} as {r}"}
_THAN = {">=": "at least", ">": "more than", "<=": "at most", "<": "less than", "==": "", "!=": "other than"}
_IS = {">=": "is at least", ">": "is more than", "<=": "is at most", "<": "is less than", "==": "is", "!=": "is not"}
_COMPARISONS = frozenset(_IS)


def _amount(op: str, right: ast.Expr, ref: _Ref, scope: _Scope) -> str:
    """How many of a count a comparison asks for: "at least 2 THINGS", "more THINGS than you"."""
    if isinstance(right, ast.Number):
        n = right.value
        if n == 0 and op in ("==", "<=") or n == 1 and op == "<":
            return f"no {ref.many}"
        if n == 0 and op in (">", "!="):
            return f"at least 1 {ref.one}"
        return _AMOUNT[op].format(n=n, noun=_noun(ref, n))
    other = _ref_of(right, scope)
    if other is not None and other.attr == ref.attr and other.owner is not None:
        return _AS_MANY[op].format(many=ref.many, r=other.owner)
    return _AS_MANY[op].format(many=ref.many, r=_say(right, scope))


def _same(op: str, ref: _Ref, right: ast.Expr, scope: _Scope) -> str | None:
    """`side == a.side`: "the same side as a"."""
    other = _ref_of(right, scope)
    if other is None or other.attr != ref.attr or other.owner is None or op not in ("==", "!="):
        return None
    if op == "==":
        return f"the same {words(ref.attr)} as {other.owner}"
    return f"another {words(ref.attr)} than {other.owner}"


def _attr_pred(op: str, ref: _Ref, right: ast.Expr, scope: _Scope) -> _Pred:
    if ref.how == "count":
        return _has(_amount(op, right, ref, scope))
    value = _say(right, scope)
    if ref.how == "owner":
        by = f"owned by {value}" if op == "==" else f"not owned by {value}"
        return _Pred(f"are {by}", f"is {by}", by)
    same = _same(op, ref, right, scope)
    if same is not None:
        return _has(same)
    if op == "==":
        return _has(f"{words(ref.attr)} {value}")
    return _has(f"{_article(ref.attr)} {words(ref.attr)} of {_THAN[op]} {value}")


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def _it_pred(op: str, right: ast.Expr, scope: _Scope) -> _Pred:
    value = _say(right, scope)
    filt = {"==": "equal to", "!=": "other than"}.get(op, _THAN[op])
    are = _IS[op].replace("is", "are", 1)
    return _Pred(f"{are} {value}", f"{_IS[op]} {value}", f"{filt} {value}")


def _joined(op: str, left: _Pred, right: _Pred) -> _Pred:
    filt = right.filt[len("with "):] if left.filt.startswith("with ") and right.filt.startswith("with ") else right.filt
    return _Pred(f"{left.are} {op} {right.are}", f"{left.is_} {op} {right.is_}", f"{left.filt} {op} {filt}")


def _grouped(node: ast.Expr, op: str) -> bool:
    """An `or` inside an `and`, or the reverse: English brackets it, so the grouping shows."""
    return isinstance(node, ast.Binary) and node.op in ("and", "or") and node.op != op


def _bracketed(pred: _Pred) -> _Pred:
    return _Pred(f"({pred.are})", f"({pred.is_})", f"({pred.filt})")


def _side(node: ast.Expr, op: str, scope: _Scope) -> _Pred | None:
    pred = _pred(node, scope)
    return _bracketed(pred) if pred is not None and _grouped(node, op) else pred


def _pred(node: ast.Expr, scope: _Scope) -> _Pred | None:
    """The condition as a predicate of the element in scope, when it is only about it."""
    if isinstance(node, ast.Name):
        return _flag_pred(_ref(node, scope))
    if isinstance(node, ast.Unary) and node.op == "not":
        inner = _pred(node.operand, scope)
        return None if inner is None else inner.neg
    if isinstance(node, ast.Binary) and node.op in ("and", "or"):
        left, right = _side(node.left, node.op, scope), _side(node.right, node.op, scope)
        return None if left is None or right is None else _joined(node.op, left, right)
    if isinstance(node, ast.Binary) and node.op in _COMPARISONS and isinstance(node.left, ast.Name):
        ref = _ref(node.left, scope)
        if ref.mine and ref.attr:
            return _attr_pred(node.op, ref, node.right, scope)
        if ref.text == "it" and scope.element is not None:
            return _it_pred(node.op, node.right, scope)
    return None


def _flag_pred(ref: _Ref) -> _Pred | None:
    if not ref.mine:
        return None
    if ref.how == "owned":
        return _Pred("have an owner", "has an owner", "with an owner",
                     _Pred("have no owner", "has no owner", "without an owner"))
    if ref.how == "flag":
        said = words(ref.attr)
        return _Pred(f"have {said}", f"has {said}", f"with {said}",
                     _Pred(f"do not have {said}", f"does not have {said}", f"without {said}"))
    return None


def _subject(scope: _Scope) -> str:
    """Who a predicate is about: the element in scope, else the place a formula is about."""
    return "it" if scope.element is not None else f"the {scope.vocab.noun}"


def _filter(cond: ast.Expr, scope: _Scope) -> str:
    pred = _pred(cond, scope)
    return pred.filt if pred is not None else f"such that {_clause(cond, scope)}"


def _clause(node: ast.Expr, scope: _Scope) -> str:
    """The condition as a clause with its subject: "you have at least 3 RES"."""
    pred = _pred(node, scope)
    if pred is not None:
        return f"{_subject(scope)} {pred.is_}"
    return _condition(node, scope)


@singledispatch
def _condition(node: ast.Expr, scope: _Scope) -> str:
    return _say(node, scope)


@_condition.register
def _(node: ast.Name, scope: _Scope) -> str:
    ref = _ref(node, scope)
    if ref.how == "flag" and ref.owner is not None:
        return f"{ref.owner} {'have' if ref.owner == 'you' else 'has'} {words(ref.attr)}"
    if ref.how == "owned" and ref.owner is not None:
        return f"{ref.owner} {'have' if ref.owner == 'you' else 'has'} an owner"
    return f"{ref.text} holds"


@_condition.register
def _(node: ast.Unary, scope: _Scope) -> str:
    if node.op != "not":
        return _say(node, scope)
    return f"it is not the case that {_clause(node.operand, scope)}"


@_condition.register
def _(node: ast.Binary, scope: _Scope) -> str:
    if node.op in ("and", "or"):
        return f"{_part(node.left, node.op, scope)} {node.op} {_part(node.right, node.op, scope)}"
    if node.op in _COMPARISONS:
        return _comparison(node, scope)
    return _say(node, scope)


def _part(node: ast.Expr, op: str, scope: _Scope) -> str:
    text = _clause(node, scope)
    return f"({text})" if _grouped(node, op) else text


def _comparison(node: ast.Binary, scope: _Scope) -> str:
    ref = _ref_of(node.left, scope)
    if ref is not None and ref.how == "count" and ref.owner is not None:
        return f"{ref.owner} {'have' if ref.owner == 'you' else 'has'} {_amount(node.op, node.right, ref, scope)}"
    if ref is not None and ref.how == "owner" and ref.owner is not None and node.op in ("==", "!="):
        return f"{ref.owner} {'is' if node.op == '==' else 'is not'} owned by {_say(node.right, scope)}"
    total = _total(node, scope)
    if total is not None:
        return total
    left = _say(node.left, scope)
    verb = _IS[node.op].replace("is", "are", 1) if left == "you" else _IS[node.op]
    return f"{left} {verb} {_say(node.right, scope)}"


def _total(node: ast.Binary, scope: _Scope) -> str | None:
    """`sum(PLACES, THINGS) >= 9`: "PLACES have at least 9 THINGS in all"."""
    call = node.left
    if not (isinstance(call, ast.Call) and call.func.name == "sum" and len(call.args) == 2):
        return None
    ref = _ref_of(call.args[1], _within(call.args[0], scope))
    if ref is None or ref.how != "count" or not ref.mine:
        return None
    amount = _amount(node.op, node.right, ref, scope)
    return f"{_collection(call.args[0], scope)} have {amount}" + ("" if amount.startswith("no ") else " in all")


# ---- expressions ----------------------------------------------------------------------------

@singledispatch
def _say(node: ast.Node, scope: _Scope) -> str:
    raise TypeError(f"no sentence for {type(node).__name__}")


@_say.register
def _(node: ast.Ident, scope: _Scope) -> str:
    return words(node.name)


@_say.register
def _(node: ast.Number, scope: _Scope) -> str:
    return str(node.value)


@_say.register
def _(node: ast.Text, scope: _Scope) -> str:
    return f"'{node.value}'"


@_say.register
def _(node: ast.ListOf, scope: _Scope) -> str:
    return _listing([_say(item, scope) for item in node.items]) if node.items else "nothing"


@_say.register
def _(node: ast.Name, scope: _Scope) -> str:
    return _ref(node, scope).text


@_say.register
def _(node: ast.Where, scope: _Scope) -> str:
    return _collection(node, scope)


@_say.register
def _(node: ast.Unary, scope: _Scope) -> str:
    if node.op == "not":
        return _clause(node, scope)
    if isinstance(node.operand, ast.Number):
        return f"-{node.operand.value}"
    return f"minus {_at(node.operand, _OPERAND, scope)}"


# Binding strength of the arithmetic, as in printer.py: English brackets what the text does.
_WHEN, _SUM, _PRODUCT, _OPERAND = range(1, 5)
_ARITHMETIC = {"+": ("plus", _SUM), "-": ("minus", _SUM), "*": ("times", _PRODUCT),
               "//": ("divided by", _PRODUCT), "/": ("divided by", _PRODUCT)}


def _strength(node: ast.Expr) -> int:
    if isinstance(node, ast.When):
        return _WHEN
    if isinstance(node, ast.Binary) and node.op in _ARITHMETIC:
        return _ARITHMETIC[node.op][1]
    return _OPERAND


def _at(node: ast.Expr, least: int, scope: _Scope) -> str:
    text = _say(node, scope)
    return f"({text})" if _strength(node) < least else text


@_say.register
def _(node: ast.Binary, scope: _Scope) -> str:
    if node.op not in _ARITHMETIC:
        return _clause(node, scope)
    word, strength = _ARITHMETIC[node.op]
    text = f"{_at(node.left, strength, scope)} {word} {_at(node.right, strength + 1, scope)}"
    # Both divisions of the DSL are whole-number divisions.
    return f"{text}, rounded down" if strength == _PRODUCT and word == "divided by" else text


@_say.register
def _(node: ast.When, scope: _Scope) -> str:
    otherwise = "0" if node.otherwise is None else _say(node.otherwise, scope)
    return f"{_at(node.value, _SUM, scope)} if {_clause(node.cond, scope)}, otherwise {otherwise}"


# ---- functions ------------------------------------------------------------------------------

def _count(args: tuple[ast.Expr, ...], scope: _Scope) -> str:
    return f"the number of {_collection(args[0], scope)}"


def _in(collection: ast.Expr, scope: _Scope) -> str:
    return "in" if _element(collection, scope)[0] == "place" else "of"


def _sum(args: tuple[ast.Expr, ...], scope: _Scope) -> str:
    places, value = args
    inner = _within(places, scope)
    ref = _ref_of(value, inner)
    if ref is not None and ref.mine:
        return f"the total {ref.many or words(ref.attr)} {_in(places, scope)} {_collection(places, scope)}"
    return f"the sum over {_collection(places, scope)} of {_say(value, inner)}"


def _extreme(args: tuple[ast.Expr, ...], scope: _Scope, least: bool) -> str:
    if not _is_collection(args[0], scope):
        items = [_say(a, scope) for a in args]
        which = ("lower" if least else "higher") if len(items) == 2 else ("lowest" if least else "highest")
        return f"the {which} of {_listing(items)}"
    places, value = args
    ref = _ref_of(value, _within(places, scope))
    among = _collection(places, scope)
    if ref is not None and ref.mine and ref.how == "count":
        return f"the {'fewest' if least else 'most'} {ref.many} {_in(places, scope)} any of {among}"
    if ref is not None and ref.mine:
        return f"the {'least' if least else 'greatest'} {words(ref.attr)} of any of {among}"
    inner = _say(value, _within(places, scope))
    return f"the {'least' if least else 'greatest'} value of {inner} over {_collection(places, scope)}"


def _all(args: tuple[ast.Expr, ...], scope: _Scope) -> str:
    places, cond = args
    inner = _within(places, scope)
    if isinstance(cond, ast.Unary) and cond.op == "not":
        positive = _pred(cond.operand, inner)
        if positive is not None:
            return f"none of {_collection(places, scope)} {positive.is_}"
    pred = _pred(cond, inner)
    if pred is not None:
        return f"all of {_collection(places, scope)} {pred.are}"
    return f"for all of {_collection(places, scope)}, {_clause(cond, inner)}"


def _any(args: tuple[ast.Expr, ...], scope: _Scope) -> str:
    places, cond = args
    inner = _within(places, scope)
    pred = _pred(cond, inner)
    if pred is not None:
        return f"at least one of {_collection(places, scope)} {pred.is_}"
    return f"for at least one of {_collection(places, scope)}, {_clause(cond, inner)}"


def _abs(args: tuple[ast.Expr, ...], scope: _Scope) -> str:
    (value,) = args
    if isinstance(value, ast.Binary) and value.op == "-":
        return f"the difference between {_say(value.left, scope)} and {_say(value.right, scope)}"
    return f"the absolute value of {_say(value, scope)}"


_CALLS: dict[str, Callable[[tuple[ast.Expr, ...], _Scope], str]] = {
    "count": _count, "sum": _sum, "all": _all, "any": _any, "abs": _abs,
    "min": lambda args, scope: _extreme(args, scope, True),
    "max": lambda args, scope: _extreme(args, scope, False),
}
assert set(_CALLS) == set(FUNCTIONS), "every builtin function needs a sentence form"


@_say.register
def _(node: ast.Call, scope: _Scope) -> str:
    if node.func.name not in _CALLS:
        raise TypeError(f"no sentence for the function {node.func.name}()")
    return _CALLS[node.func.name](node.args, scope)


# ---- statements -----------------------------------------------------------------------------

def _who(seat: ast.Expr | None, scope: _Scope) -> str | None:
    """The seat a statement is about, or None for the acting seat (an imperative: "gain")."""
    if seat is None:
        return None
    text = _say(seat, scope)
    return None if text == "you" else text


def _does(who: str | None, verb: str, rest: str) -> str:
    """"gain 3 RES" for the acting seat, "the start player gains 3 RES" for another."""
    if who is None:
        return f"{verb} {rest}"
    third = verb[:-1] + "ies" if verb.endswith("y") else verb + ("es" if verb.endswith(("s", "sh", "ch")) else "s")
    words = {"become": "becomes", "have": "has"}
    return f"{who} {words.get(verb, third)} {rest}"


def _quantity(amount: ast.Expr, one: str, many: str, scope: _Scope, mass: bool = False) -> str:
    """"2 THINGS", or for an amount worked out: "as many THINGS as ...", "RES equal to ..."."""
    if isinstance(amount, ast.Number):
        return f"{amount.value} {one if amount.value == 1 else many}"
    if mass:
        return f"{many} equal to {_say(amount, scope)}"
    return f"as many {many} as {_say(amount, scope)}"


def _everything(amount: ast.Expr, holder: ast.Expr | None, name: str) -> bool:
    """`remove t.THING THING from t`, `-my.RES RES`: all there is."""
    if not isinstance(amount, ast.Name) or amount.parts[-1].name != name or len(amount.parts) < 2:
        return False
    whose = ast.Name(parts=amount.parts[:-1])
    return whose == holder if holder is not None else whose.dotted in ("my", "me")


@_say.register
def _(node: ast.Gain, scope: _Scope) -> str:
    who = _who(node.seat, scope)
    res = words(node.resource.name)
    verb = "gain" if node.sign == "+" else "lose"
    if node.sign == "-" and _everything(node.amount, node.seat, node.resource.name):
        return _does(who, verb, f"all {'your' if who is None else _possessive(who)} {res}")
    text = _quantity(node.amount, res, res, scope, mass=True)
    if node.per is not None and node.per_in is not None:
        text += f" for each {_per(node.per.name, scope)} in {_say(node.per_in, scope)}"
    return _does(who, verb, text)


def _per(name: str, scope: _Scope) -> str:
    attr = scope.vocab.place_attrs.get(name)
    nouns = None if attr is None else _count_nouns(name, attr)
    return words(name) if nouns is None else nouns[0]


@_say.register
def _(node: ast.Take, scope: _Scope) -> str:
    res = words(node.resource.name)
    return f"take {_quantity(node.amount, res, res, scope, mass=True)} from {_say(node.seat, scope)}"


@_say.register
def _(node: ast.Give, scope: _Scope) -> str:
    res = words(node.resource.name)
    return f"give {_quantity(node.amount, res, res, scope, mass=True)} to {_say(node.seat, scope)}"


@_say.register
def _(node: ast.Draw, scope: _Scope) -> str:
    deck = words(node.deck.name)
    return _does(_who(node.seat, scope), "draw", _quantity(node.count, f"{deck} card", f"{deck} cards", scope))


def _tokens(count: ast.Expr, token: str, place: ast.Expr, scope: _Scope) -> str:
    one, many = _token_nouns(token)
    return f"all {many}" if _everything(count, place, token) else _quantity(count, one, many, scope)


@_say.register
def _(node: ast.PlaceTokens, scope: _Scope) -> str:
    return f"place {_tokens(node.count, node.token.name, node.place, scope)} in {_say(node.place, scope)}"


@_say.register
def _(node: ast.RemoveTokens, scope: _Scope) -> str:
    return f"remove {_tokens(node.count, node.token.name, node.place, scope)} from {_say(node.place, scope)}"


@_say.register
def _(node: ast.MoveTokens, scope: _Scope) -> str:
    return (f"move {_tokens(node.count, node.token.name, node.source, scope)} from {_say(node.source, scope)} "
            f"to {_say(node.target, scope)}")


@_say.register
def _(node: ast.Convert, scope: _Scope) -> str:
    one = _token_nouns(node.target.name)[0]
    return (f"turn {_tokens(node.count, node.source.name, node.place, scope)} in {_say(node.place, scope)} "
            f"into {_article(one)} {one}")


@_say.register
def _(node: ast.Claim, scope: _Scope) -> str:
    return _does(_who(node.seat, scope), "become", f"the owner of {_say(node.place, scope)}")


@_say.register
def _(node: ast.Release, scope: _Scope) -> str:
    return f"{_say(node.place, scope)} no longer has an owner"


@_say.register
def _(node: ast.Choose, scope: _Scope) -> str:
    return f"choose one of {_collection(node.options, scope)}"


@_say.register
def _(node: ast.Require, scope: _Scope) -> str:
    return f"only if {_clause(node.cond, scope)}"


@_say.register
def _(node: ast.Target, scope: _Scope) -> str:
    if node.of is None:
        return _say(node.name, scope)
    return f"{_possessive(_say(node.of, scope))} {words(node.name.dotted)}"


@_say.register
def _(node: ast.SetValue, scope: _Scope) -> str:
    name = node.target.name.dotted
    if node.target.of is None and name in VALUES and VALUES[name].type.kind == "seat":
        return _does(_who(node.value, scope), "become", _builtin(name).text)
    return f"set {_say(node.target, scope)} to {_say(node.value, scope)}"


@_say.register
def _(node: ast.AddValue, scope: _Scope) -> str:
    target = _say(node.target, scope)
    value = node.value
    if isinstance(value, ast.Unary) and value.op == "-":
        return f"subtract {_say(value.operand, scope)} from {target}"
    return f"add {_say(value, scope)} to {target}"


def _sequence(body: tuple[ast.Stmt, ...], scope: _Scope) -> str:
    """Statements in order; an `if` or `each` with more after it is bracketed, so what
    follows does not read as part of it."""
    texts = [_say(s, scope) for s in body]
    for i, stmt in enumerate(body[:-1]):
        if isinstance(stmt, (ast.If, ast.Each)):
            texts[i] = f"({texts[i]})"
    return ", then ".join(texts)


@_say.register
def _(node: ast.Block, scope: _Scope) -> str:
    text = _sequence(node.body, scope)
    return f"({text})" if len(node.body) > 1 else text


@_say.register
def _(node: ast.If, scope: _Scope) -> str:
    then = _say(node.then, scope)
    if node.otherwise is None:
        return f"if {_clause(node.cond, scope)}, {then}"
    if isinstance(node.then, (ast.If, ast.Each)):
        then = f"({then})"
    return f"if {_clause(node.cond, scope)}, {then}, otherwise {_say(node.otherwise, scope)}"


@_say.register
def _(node: ast.Each, scope: _Scope) -> str:
    kind, noun = _element(node.options, scope)
    inner = scope.binding(node.name.name, _Bound(f"that {noun}", kind))
    return f"for each of {_collection(node.options, scope)}, {_say(node.body, inner)}"


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


def _chosen(body: tuple[ast.Stmt, ...], scope: _Scope) -> _Scope:
    """Binds every `choose` name: "the chosen NOUN", or "the first chosen NOUN", "the second
    chosen NOUN" where one effect chooses several of a kind."""
    picks = [(s.name.name, *_element(s.options, scope)) for s in body if isinstance(s, ast.Choose)]
    nouns = [noun for _, _, noun in picks]
    seen: dict[str, int] = {}
    for name, kind, noun in picks:
        seen[noun] = seen.get(noun, 0) + 1
        nth = f"{_ORDINALS[seen[noun] - 1]} " if nouns.count(noun) > 1 else ""
        scope = scope.binding(name, _Bound(f"the {nth}chosen {noun}", kind))
    return scope


@_say.register
def _(node: ast.Effect, scope: _Scope) -> str:
    """The order an effect is carried out in: every choice, then every requirement, then the
    rest (docs/dsl.md, How an effect runs)."""
    scope = _chosen(node.body, scope)
    parts = [_say(s, scope) for s in node.body if isinstance(s, ast.Choose)]
    requires = [s.cond for s in node.body if isinstance(s, ast.Require)]
    conditions = [_part(cond, "and", scope) if len(requires) > 1 else _clause(cond, scope) for cond in requires]
    doing = _sequence(tuple(s for s in node.body if not isinstance(s, (ast.Choose, ast.Require))), scope)
    if conditions:
        condition = " and ".join(conditions)
        doing = f"if {condition}: {doing}" if doing else f"only if {condition}"
    return ", then ".join(parts + ([doing] if doing else []))
