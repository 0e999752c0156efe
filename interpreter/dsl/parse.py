"""Parsing DSL text with the lark grammar in grammar/effects.lark, once per string at load time."""

from __future__ import annotations

import re
from functools import lru_cache
from importlib.resources import files

from lark import Lark, Tree, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from ..base.cache_dir import cache_dir
from ..base.limits import MAX_DIGITS, MAX_DSL_DEPTH, MAX_DSL_LENGTH

START_SYMBOLS = ("effect", "expression", "collection_expression")


class DslSyntaxProblem(Exception):
    """A syntax error at a character offset inside the DSL string."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


@lru_cache(maxsize=1)
def parser() -> Lark:
    """The LALR parser of the grammar; its tables are cached beside the rules cache (lark checks
    that the cached tables are those of this grammar)."""
    grammar = files("amunre.grammar").joinpath("effects.lark").read_text(encoding="utf-8")
    options = dict(start=list(START_SYMBOLS), parser="lalr", propagate_positions=True, maybe_placeholders=True)
    folder = cache_dir()
    if folder is not None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            return Lark(grammar, cache=str(folder / "effects-grammar.lark-cache"), **options)
        except OSError:
            pass
    return Lark(grammar, **options)


def parse(text: str, start: str) -> Tree:
    """The parse tree of text; DslSyntaxProblem (with the offset) when it is not well formed,
    or too long, too deep or with too large a number to be a rule (interpreter/base/limits.py)."""
    if len(text) > MAX_DSL_LENGTH:
        raise DslSyntaxProblem(f"a DSL string may be at most {MAX_DSL_LENGTH:,} characters", MAX_DSL_LENGTH)
    long_number = _LONG_NUMBER.search(text)
    if long_number:
        raise DslSyntaxProblem(f"a number of more than {MAX_DIGITS} digits", long_number.start())
    try:
        tree = parser().parse(text, start=start)
    except UnexpectedInput as err:
        raise DslSyntaxProblem(_describe(err, text), _offset(err, text)) from None
    _check_depth(tree)
    return tree


_LONG_NUMBER = re.compile(f"[0-9]{{{MAX_DIGITS + 1},}}")


def _check_depth(tree: Tree) -> None:
    """Refuse a tree nested deeper than the limit, without recursion (later passes recurse)."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DSL_DEPTH:
            offset = getattr(node.meta, "start_pos", 0) or 0
            raise DslSyntaxProblem(f"expressions are nested more than {MAX_DSL_DEPTH} deep here: "
                                   "split the rule or write it flatter", offset)
        stack.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))


def _offset(err: UnexpectedInput, text: str) -> int:
    if isinstance(err, UnexpectedToken) and err.token.type == "$END":
        return max(len(text.rstrip()) - 1, 0)   # the last character: the text stops there
    pos = getattr(err, "pos_in_stream", None)
    if pos is None:
        token = getattr(err, "token", None)
        pos = getattr(token, "start_pos", None)
    return len(text) if pos is None else min(pos, len(text))


def _describe(err: UnexpectedInput, text: str) -> str:
    if isinstance(err, UnexpectedCharacters) and err.pos_in_stream is not None:
        return f"unexpected character {text[err.pos_in_stream]!r} in effect"
    if isinstance(err, UnexpectedToken):
        if err.token.type == "$END":
            return "the text ends too early"
        expected = sorted(_readable(t) for t in err.expected)[:6]
        found = f"unexpected {err.token.value!r}; expected {' or '.join(expected)}"
        amount = _AFTER_AMOUNT.search(text[:err.token.start_pos]) if "NAME" in err.expected else None
        if amount is not None:
            sign, operand, op = amount.group(1), amount.group(2), err.token.value
            found += (f"; an amount that is an expression goes in parentheses: {sign}({operand} {op} ...), "
                      f"not {sign}{operand} {op} ...")
        return found
    return "malformed text"


# A sign and its operand, just before the token the parser refused: `+2 *`, `-it.cost //`.
_AFTER_AMOUNT = re.compile(r"(?:^|[;:(\s])([+-])\s*(\d+|[A-Za-z_][\w.]*)\s*$")


_TERMINALS = {"NAME": "a name", "NUMBER": "a number", "STRING": "a 'string'", "SIGN": "+ or -",
              "SEMICOLON": "';'", "LPAR": "'('", "RPAR": "')'", "COMMA": "','", "LSQB": "'['",
              "RSQB": "']'", "EQUAL": "'='", "DOT": "'.'", "COMP_OP": "a comparison",
              "ADD_OP": "+ or -", "MUL_OP": "* or /", "MINUS": "'-'", "$END": "the end"}


def _readable(terminal: str) -> str:
    if terminal in _TERMINALS:
        return _TERMINALS[terminal]
    return repr(terminal.lower())
