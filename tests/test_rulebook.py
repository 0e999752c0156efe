"""`amunre rulebook`: every shipped rules file as a rulebook in Markdown and in one HTML page
that holds together (every tag closed, every link inside it reaching a section, every section
in the contents), and a house rule's rulebook marking exactly what `amunre diff` reports."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

import amunre
from amunre.cli.app import app
from amunre.interpreter.load.rules_cache import load_rules_and_document
from amunre.tools.diff import diff_documents
from conftest import REPO

SHIPPED = sorted((REPO / "rules").glob("*.yaml")) + sorted((REPO / "rules" / "house").glob("*.yaml"))
HOUSE = sorted((REPO / "rules" / "house").glob("*.yaml"))
runner = CliRunner()
VOID = {"meta", "br", "hr", "img", "input", "link"}


class Page(HTMLParser):
    """The tags, ids and internal links of a page, and whether its tags nest."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.problems: list[str] = []
        self.ids: list[str] = []
        self.links: list[str] = []
        self.nav_links: list[str] = []
        self.in_nav = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.append(found["id"] or "")
        href = found.get("href") or ""
        if href.startswith("#"):
            self.links.append(href[1:])
            if self.in_nav:
                self.nav_links.append(href[1:])
        elif tag in ("a", "link", "script", "img") and (href or found.get("src")):
            self.problems.append(f"a reference outside the page: {href or found.get('src')}")
        if tag == "nav":
            self.in_nav += 1
        if tag not in VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag == "nav":
            self.in_nav -= 1
        if not self.open or self.open[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.open[-1] if self.open else 'nothing'}")
            return
        self.open.pop()


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_every_shipped_file_has_a_rulebook_in_both_formats(tmp_path: Path, path: Path) -> None:
    text = runner.invoke(app, ["rulebook", str(path)])
    assert text.exit_code == 0, text.output
    rules = amunre.load_rules(path)
    assert text.output.startswith(f"# {rules.title}") and "## Contents" in text.output
    phases = rules.flow.phases()
    assert all(f'<a id="phase-{p.replace("_", "-")}">' in text.output for p in phases)
    out = tmp_path / "book.html"
    page = runner.invoke(app, ["rulebook", str(path), "--html", str(out)])
    assert page.exit_code == 0, page.output
    parsed = Page()
    parsed.feed(out.read_text(encoding="utf-8"))
    assert not parsed.problems and parsed.open == [], (parsed.problems, parsed.open)
    assert len(parsed.ids) == len(set(parsed.ids)), "an id used twice"
    assert set(parsed.links) <= set(parsed.ids), sorted(set(parsed.links) - set(parsed.ids))
    sections = [i for i in parsed.ids if i != "contents"]
    assert set(sections) == set(parsed.nav_links), "every section is in the contents, and only sections"


@pytest.mark.parametrize("house", HOUSE, ids=[p.stem for p in HOUSE])
def test_a_house_rules_book_marks_what_diff_reports_and_nothing_else(house: Path) -> None:
    rules, doc = load_rules_and_document(house)
    _, parent = load_rules_and_document(rules.parents[0])
    changes = diff_documents(parent, doc)
    only = runner.invoke(app, ["rulebook", str(house), "--changes-only"])
    assert only.exit_code == 0, only.output
    listed = [line[2:] for line in only.output.split("## What this file changes", 1)[1].splitlines()
              if line.startswith("- ")]
    assert len(listed) == len(changes)
    assert all(line.startswith(".".join(c.path) + ": ") for line, c in zip(listed, changes))
    kinds = {"changed": ": now ", "added": ": added, ", "removed": ": removed (it was "}
    assert all(kinds[c.kind] in line for line, c in zip(listed, changes))
    whole = runner.invoke(app, ["rulebook", str(house)]).output
    marked = [line[4:] for line in whole.splitlines() if line.startswith("> - ")]
    assert set(marked) <= set(listed)                 # notes where a thing is described: only real changes
    plain = runner.invoke(app, ["rulebook", str(house), "--no-changes"]).output
    assert "What this file changes" not in plain and "> - " not in plain


def test_an_edition_has_no_changes_to_show() -> None:
    result = runner.invoke(app, ["rulebook", "knizia2016", "--changes-only"])
    assert result.exit_code == 1 and "extends no other rules file" in result.stderr
    assert "What this file changes" not in runner.invoke(app, ["rulebook", "knizia2016"]).output


def test_a_rulebook_of_a_broken_file_points_into_it(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text(f"extends: {REPO / 'rules' / 'knizia2016.yaml'}\nresources: {{gold: {{start: -1}}}}\n",
                      encoding="utf-8")
    result = runner.invoke(app, ["rulebook", str(broken)])
    assert result.exit_code == 1 and f"{broken}:2:" in result.stderr, result.stderr
