"""Writes docs/editions/*.md: `amunre diff` between the shipped editions, as Markdown pages.

    python docs/editions/make.py

tests/test_diff.py checks that the pages are current.
"""

from __future__ import annotations

from pathlib import Path

from amunre.cli.diffs import diff_lines
from amunre.interpreter.load.loader import load_document
from amunre.interpreter.load.shipped import shipped_path
from amunre.tools.diff import diff_documents

HERE = Path(__file__).resolve().parent
PAGES = (("knizia2003", "knizia2016"), ("knizia2016", "knizia2016-expert"), ("knizia2003", "knizia2003-online"))


def edition_page(first: str, second: str) -> str:
    """`amunre diff FIRST SECOND` as a Markdown page."""
    changes = diff_documents(load_document(shipped_path(first)), load_document(shipped_path(second)))
    body = "\n".join(diff_lines(changes, color=False))
    return (f"# {first} vs {second}\n\nWhat `amunre diff {first} {second}` prints: every value that differs, "
            f"by key and id (entities renamed between the files are matched by `same_as`, and a value that differs "
            f"only by such a renaming is no change), `~` changed, `-` only "
            f"in {first}, `+` only in {second}, with the line of each value. Written by "
            f"`python docs/editions/make.py`; a test keeps it current.\n\n```text\n{body}\n```\n")


def page_path(first: str, second: str) -> Path:
    return HERE / f"{first.removeprefix('knizia')}-vs-{second.removeprefix('knizia')}.md"


if __name__ == "__main__":
    for pair in PAGES:
        page_path(*pair).write_text(edition_page(*pair), encoding="utf-8")
        print(f"wrote {page_path(*pair).name}")
