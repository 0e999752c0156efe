"""`amunre resolve`: print a rules file merged with every file it extends, each value with the
file and line it comes from (tools/resolve.py)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from ..interpreter.load.rules_cache import load_rules_and_document
from ..tools.resolve import resolve_text
from .conventions import load_or_exit


def resolve(
    rules_path: Annotated[str, typer.Argument(
        metavar="RULES", help="A rules file (YAML), or the name of a rules file shipped with amunre.",
        show_default=False)],
) -> None:
    """Print the fully merged rules (after `extends` and its overlays) as YAML, each value
    followed by a comment naming the file and line it comes from. The output loads as it is,
    to the same rules."""
    _, doc = load_or_exit(rules_path, load_rules_and_document)
    sys.stdout.write(resolve_text(doc))
