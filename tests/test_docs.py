"""The docs' examples are real: snippets marked `<!-- test: KIND ARGS -->` before a fenced block
are compiled or loaded here, so a change to the rules, the DSL or the CLI that breaks a
documented example fails a test.

Markers:
- docs/dsl.md: `dsl-expression [place|n]`, `dsl-collection`, `dsl-effect [it]` (each line of
  the block is one string that must compile without problems against the 2016 vocabulary),
  `dsl-rejected expression|effect` (each line `TEXT  # message`: compiling TEXT must report
  a problem containing the message).
- docs/house-rule-in-5-minutes.md: `house-rule file=PATH`, `house-rule-error file=PATH`,
  `house-rule-error-output`, `house-rule-edit base=PATH`.
- `dsl-error-edit base=PATH file=NAME` / `dsl-error-output` (docs/dsl.md) and
  `house-rule-edit`: a diff of `-old`/`+new` line pairs applied to the base file.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

import amunre
from amunre.interpreter.dsl import Dsl, Scope
from amunre.interpreter.dsl.types import NUM, PLACE
from amunre.interpreter.play import cards

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
BASE = REPO / "rules" / "knizia2016.yaml"

_BLOCK = re.compile(r"<!--\s*test:\s*(?P<kind>[\w-]+)(?P<args>[^>]*?)\s*-->\s*\n"
                    r"```[\w-]*\n(?P<body>.*?)^```", re.S | re.M)


@dataclass(frozen=True)
class Block:
    kind: str
    args: tuple[str, ...]
    body: str

    def arg(self, key: str) -> str:
        return next(a.split("=", 1)[1] for a in self.args if a.startswith(key + "="))


def blocks(doc: str) -> list[Block]:
    text = (DOCS / doc).read_text(encoding="utf-8")
    return [Block(m["kind"], tuple(m["args"].split()), m["body"]) for m in _BLOCK.finditer(text)]


def snippets(doc: str, kinds: set[str]) -> list[tuple[str, tuple[str, ...], str]]:
    """(kind, args, line) for every non-blank line of the marked blocks of those kinds."""
    return [(b.kind, b.args, line) for b in blocks(doc) if b.kind in kinds
            for line in b.body.splitlines() if line.strip()]


def edited(block: Block) -> str:
    """The block's base file with each `-old` line of its diff replaced by the `+new` after it."""
    text = (REPO / block.arg("base")).read_text(encoding="utf-8")
    lines = block.body.splitlines()
    for old, new in zip(lines[0::2], lines[1::2]):
        assert old.startswith("-") and new.startswith("+")
        assert text.count(old[1:] + "\n") == 1, f"not exactly once in the base file: {old[1:]!r}"
        text = text.replace(old[1:] + "\n", new[1:] + "\n")
    return text


# ---- docs/dsl.md ---------------------------------------------------------------------------

SCOPES = {(): Scope(), ("place",): Scope().over(PLACE), ("n",): Scope(bound={"n": NUM}),
          ("it",): Scope(bound={"it": PLACE})}
GOOD = snippets("dsl.md", {"dsl-expression", "dsl-collection", "dsl-effect"})
BAD = snippets("dsl.md", {"dsl-rejected"})


@pytest.fixture(scope="module")
def base_rules():
    return amunre.load_rules(BASE)


def compile_dsl(rules, kind: str, text: str, scope: Scope) -> list[str]:
    """The problems compiling `text` as an expression, collection or effect, as 'message (hint)'."""
    problems: list[str] = []

    def report(message: str, offset: int, hint: str | None) -> None:
        problems.append(message if hint is None else f"{message} ({hint})")
    getattr(Dsl(rules.vocab, report), kind)(text.strip(), scope)
    return problems


def test_the_docs_have_examples() -> None:
    assert len(GOOD) >= 40 and len(BAD) >= 10
    known = {"dsl-expression", "dsl-collection", "dsl-effect", "dsl-rejected", "dsl-error-edit",
             "dsl-error-output"}
    assert {b.kind for b in blocks("dsl.md")} <= known


def test_dsl_errors_are_reported_as_shown(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    edit, = [b for b in blocks("dsl.md") if b.kind == "dsl-error-edit"]
    shown, = [b for b in blocks("dsl.md") if b.kind == "dsl-error-output"]
    name = edit.arg("file")
    Path(name).write_text(edited(edit), encoding="utf-8")
    with pytest.raises(amunre.RulesError) as info:
        amunre.load_rules(name)
    assert info.value.format().rstrip() == shown.body.rstrip()




@pytest.mark.parametrize("kind, args, text", GOOD, ids=[s[2] for s in GOOD])
def test_dsl_snippet_compiles(base_rules, kind: str, args: tuple[str, ...], text: str) -> None:
    assert args in SCOPES, f"unknown scope {args} for {text!r}"
    what = kind.removeprefix("dsl-")
    assert compile_dsl(base_rules, what, text, SCOPES[args]) == []


@pytest.mark.parametrize("kind, args, text", BAD, ids=[s[2].split("  # ")[0].strip() for s in BAD])
def test_dsl_snippet_is_rejected_as_documented(base_rules, kind: str, args: tuple[str, ...], text: str) -> None:
    snippet, message = (part.strip() for part in text.split("  # ", 1))
    problems = compile_dsl(base_rules, args[0], snippet, Scope())
    assert any(message in p for p in problems), problems


# ---- docs/house-rule-in-5-minutes.md -------------------------------------------------------

TUTORIAL = "house-rule-in-5-minutes.md"


def tutorial(kind: str) -> list[Block]:
    found = [b for b in blocks(TUTORIAL) if b.kind == kind]
    assert found, f"no '{kind}' block in {TUTORIAL}"
    return found


def write_beside_base(tmp_path: Path, block: Block) -> str:
    """Write the block at its file= path under tmp_path (with the base file beside it if it
    extends it) and return that relative path, as the tutorial's commands name it."""
    name = block.arg("file")
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(block.body, encoding="utf-8")
    if "extends: knizia2016.yaml" in block.body:
        shutil.copy(BASE, path.parent / "knizia2016.yaml")
    return name


def big_harvest_gain(rules, farmers: int = 3) -> int:
    """Extra gold Big Harvest gives one province holding `farmers` farmers, on the `low` tile."""
    game = amunre.new_game(rules, players=3, seed=1, setup={"start_player": 0})
    place = rules.place_index["thebes"]
    game.state.owner[place] = 0
    game.state.tokens[place]["farmer"] = farmers
    game.state.kept["offering"] = {"tile": "low"}
    harvest = rules.phases["harvest"]
    before = harvest.forecast(game, 0)["gold"]        # the seat owns no other place
    cards.run(game, 0, rules.cards["big_harvest"].effect, {"target": place}, rules.cards["big_harvest"].cause)
    return harvest.forecast(game, 0)["gold"] - before


def start_gold(rules) -> list[int]:
    game = amunre.new_game(rules, players=3, seed=7)
    return [r["gold"] for r in game.observation(0)["resources"]]


def test_the_base_rules_as_the_tutorial_says(base_rules) -> None:
    assert start_gold(base_rules) == [20, 20, 20]
    assert big_harvest_gain(base_rules) == 3


def test_house_rule_changes_gold_and_big_harvest(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    block, = tutorial("house-rule")
    rules = amunre.load_rules(write_beside_base(tmp_path, block))
    assert rules.title == "Amun-Re, rich harvest"
    assert start_gold(rules) == [30, 30, 30]
    assert big_harvest_gain(rules) == 2 * 3
    card = rules.cards["big_harvest"]
    assert (card.deck, card.count, card.window) == ("favor", 5, "harvest")   # merged, not replaced


def test_house_rule_validates_on_the_command_line(tmp_path: Path, monkeypatch) -> None:
    from typer.testing import CliRunner

    from amunre.cli.app import app
    monkeypatch.chdir(tmp_path)
    block, = tutorial("house-rule")
    name = write_beside_base(tmp_path, block)
    result = CliRunner().invoke(app, ["validate", name])
    assert result.exit_code == 0 and result.output.strip() == f"OK {name}"


def test_house_rule_error_is_reported_as_shown(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    block, = tutorial("house-rule-error")
    shown, = tutorial("house-rule-error-output")
    with pytest.raises(amunre.RulesError) as info:
        amunre.load_rules(write_beside_base(tmp_path, block))
    assert info.value.format().rstrip() == shown.body.rstrip()


def test_house_rule_by_editing_a_copy(tmp_path: Path) -> None:
    block, = tutorial("house-rule-edit")
    path = tmp_path / "rich-harvest-full.yaml"
    path.write_text(edited(block), encoding="utf-8")
    rules = amunre.load_rules(path)
    assert start_gold(rules) == [30, 30, 30]
    assert big_harvest_gain(rules) == 2 * 3


# ---- docs/sources.md: the one list of the texts the rules files follow ------------------------

SOURCES = DOCS / "sources.md"
_TAG = re.compile(r"\[([A-Z])\]")


def _shipped_rules_files() -> list[Path]:
    return sorted((REPO / "rules").rglob("*.yaml"))


def test_each_source_tag_is_listed_in_sources_md_and_named_in_the_header_that_uses_it() -> None:
    """A tag such as [R] in a rules file is a row of docs/sources.md's table and is named in the
    file's header comment; the table has no row that no file uses."""
    listed = set(re.findall(r"^\| \[([A-Z])\] \|", SOURCES.read_text(encoding="utf-8"), re.M))
    used_anywhere: set[str] = set()
    for path in _shipped_rules_files():
        lines = path.read_text(encoding="utf-8").splitlines()
        header = "\n".join(line for line in lines[:next(i for i, line in enumerate(lines) if not line.startswith("#"))])
        used = set(_TAG.findall("\n".join(lines)))
        used_anywhere |= used
        named = set(_TAG.findall(header))
        assert used <= named, f"{path.name}: not named in its header: {used - named}"
        assert used <= listed, f"{path.name}: not in docs/sources.md: {used - listed}"
    assert used_anywhere == listed


def test_sources_are_cited_by_name_not_by_the_working_notes_numbers() -> None:
    """Only docs/sources.md names the extracts of the working notes by their numbers ("seed"
    and a number); it is linked from both tables of contents."""
    pattern = re.compile(r"\bseed 00\d\b", re.I)
    paths = [*_shipped_rules_files(), *DOCS.rglob("*.md"), REPO / "README.md", *(REPO / "tests").glob("*.py")]
    found = [f"{path.relative_to(REPO)}:{number}" for path in paths if path != SOURCES
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if pattern.search(line)]
    assert found == []
    assert pattern.search(SOURCES.read_text(encoding="utf-8"))         # the one place that maps them
    assert "(docs/sources.md)" in (REPO / "README.md").read_text(encoding="utf-8")
    assert "(sources.md)" in (DOCS / "README.md").read_text(encoding="utf-8")
