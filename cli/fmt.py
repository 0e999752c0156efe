"""`amunre fmt`: rewrite rules files in canonical form (tools/fmt.py), or with `--check`
only say which would change and how."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from ..interpreter.base.errors import AmunreError, RulesError
from ..interpreter.base.reading import not_a_file
from .outputs import output_file

if TYPE_CHECKING:
    from ..tools.fmt import Formatted


def fmt(
    paths: Annotated[list[str], typer.Argument(
        metavar="FILE", help="Rules files to format (paths; a file is rewritten in place).", show_default=False)],
    check: Annotated[bool, typer.Option(
        "--check", help="Write nothing: print what formatting would change, and exit with status 1 "
        "if it would change a file.")] = False,
) -> None:
    """Rewrite rules files in canonical form: keys in the schema's order, two-space indentation,
    tables lined up, DSL printed canonically; comments kept. A file that does not load is left
    as it is. Exit status: 0 done (or, with --check, nothing to change), 1 --check found a file
    to change, 2 a file could not be formatted."""
    from ..tools.fmt import format_file  # here, not at every start: it loads the JSON Schema's checker
    failed = changed = 0
    for path in paths:
        try:
            if not os.path.isfile(path):
                kind = not_a_file(path)
                raise AmunreError(f"cannot read rules file '{path}': "
                                  + (f"it is {kind}, not a file" if kind else "no such file"))
            result = format_file(path)
        except RulesError as error:
            failed += 1
            print(f"{error.format()}\nerror: {path} does not load, so it was not formatted (fix the problems "
                  "above first: `amunre fmt` formats only files that load)", file=sys.stderr)
            continue
        except AmunreError as error:
            failed += 1
            print(f"error: {error}", file=sys.stderr)
            continue
        changed += result.changed
        if check:
            sys.stdout.write(result.diff())
            print(f"would format {path}" if result.changed else f"{path} is in canonical form")
        elif result.changed:
            _write(result)
            print(f"formatted {path}")
        else:
            print(f"{path} is in canonical form")
    if failed:
        raise typer.Exit(2)
    if check and changed:
        raise typer.Exit(1)


def _write(result: Formatted) -> None:
    """Replace the file whole (never half-written, cli/outputs.py), keeping its permissions."""
    try:
        with output_file(result.path, newline="\n") as handle:
            handle.write(result.after)
    except OSError as error:
        raise AmunreError(f"cannot write '{result.path}': {error.strerror or error}") from None
