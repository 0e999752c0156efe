"""`amunre check`: play the worked examples of rules files (their `examples:`), and of every file
they extend, each on the file it is written in; a line per example, and for one that fails the
check that failed, where it is written, and the move after which it was checked.

Exit status: 0 when every example holds; 1 when one does not, or a file does not load (as
every command exits for a rules file with problems).
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.text import Text

from ..interpreter.base.errors import AmunreError, RulesError
from ..interpreter.load.rules_cache import load_rules
from ..interpreter.model import Rules
from ..tools.examples import Outcome, check_examples
from . import play as runner
from .render import action_text


def move_words(rules: Rules, action: dict[str, Any]) -> str:
    """A move in the words `amunre run` prints it with (without its card's text)."""
    return Text.from_markup(action_text(rules, action, docs=False)).plain


def check(
    paths: Annotated[list[str], typer.Argument(
        metavar="RULES", help="Rules files (paths, or names of shipped rules files).", show_default=False)],
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print one JSON document: every file, every example.")] = False,
) -> None:
    """Play the worked examples of rules files and of the files they extend; say which hold.
    Exit status 0: all hold; 1: one does not, or a file does not load."""
    files: list[dict[str, Any]] = []
    failed = broken = 0
    for path in _with_parents(paths):
        try:
            rules = load_rules(runner.resolve_rules(path))
        except (RulesError, AmunreError) as error:
            broken += 1
            files.append({"file": path, "error": str(error)})
            if not as_json:
                print(error.format() if isinstance(error, RulesError) else f"{path}: {error}")
            continue
        outcomes = check_examples(rules, move_words)
        failed += sum(not o.passed for o in outcomes)
        files.append({"file": rules.path, "examples": [o.to_json() for o in outcomes]})
        if not as_json:
            _print_file(rules, outcomes)
    if as_json:
        print(json.dumps({"files": files, "failed": failed, "broken": broken}, indent=2))
    elif len(files) > 1 or failed:
        total = sum(len(f.get("examples", [])) for f in files)
        unloaded = f"; {broken} file(s) do not load" if broken else ""
        print(f"{total - failed} of {total} examples hold{unloaded}.")
    if broken or failed:
        raise typer.Exit(1)


def _with_parents(paths: list[str]) -> list[str]:
    """Each file, then the files it extends (each once, parents after their children)."""
    out: list[str] = []
    for path in paths:
        out.append(path)
        try:
            out.extend(load_rules(runner.resolve_rules(path)).parents)
        except (RulesError, AmunreError):
            pass                          # reported when the file itself is checked
    return list(dict.fromkeys(out))


def _print_file(rules: Rules, outcomes: list[Outcome]) -> None:
    if not outcomes:
        print(f"{rules.path}: no examples")
        return
    print(f"{rules.path}: {sum(o.passed for o in outcomes)} of {len(outcomes)} examples hold")
    for outcome in outcomes:
        mark = "pass" if outcome.passed else "FAIL"
        print(f"  {mark}  {outcome.example.id}  ({outcome.example.section})")
        if outcome.problem is not None:
            after = f" (after {outcome.after})" if outcome.after else " (before the first move)"
            message, _, caret = outcome.problem.format().partition("\n")
            for line in [message + after] + caret.splitlines():
                print("        " + line)
