"""`amunre rulebook`: the rulebook of a rules file, for the people who play it: Markdown on
standard output, or one self-contained HTML file (`--html OUT`). For a file that extends
another (a house rule), what differs from the parent is marked, in a section of its own and
where each changed thing is described (`--no-changes` leaves the marks out; `--changes-only`
prints that section alone)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..tools.rulebook import rulebook_of
from ..tools.rulebook_render import html_page, markdown
from .conventions import fail, load_or_exit
from .outputs import write_text


def rulebook(
    path: Annotated[str, typer.Argument(
        metavar="RULES", help="A rules file (YAML), or the name of a rules file shipped with amunre.",
        show_default=False)],
    html: Annotated[Path | None, typer.Option(
        "--html", metavar="OUT", help="Write one self-contained HTML page to OUT instead of Markdown on "
        "standard output.")] = None,
    changes: Annotated[bool, typer.Option(
        "--changes/--no-changes", help="For a file that extends another: mark what differs from the parent "
        "(the default).")] = True,
    changes_only: Annotated[bool, typer.Option(
        "--changes-only", help="Only the changes against the parent (a file that extends another).")] = False,
) -> None:
    """Print the rulebook of a rules file: components, set-up, order of play, each phase in words,
    the end, options, worked examples and sources; a house rule's changes marked."""
    book = load_or_exit(path, lambda found: rulebook_of(found, changes, changes_only))
    if html is None:
        print(markdown(book), end="")
        return
    try:
        write_text(html, html_page(book))
    except OSError as error:
        raise fail(f"cannot write {html}: {error.strerror or error}") from None
