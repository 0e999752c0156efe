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
- `dsl-error-edit base=PATH file=NAME` / `dsl-error-output` (docs/dsl.md): a load-time
  error; `dsl-runtime-edit base=PATH file=NAME` / `dsl-runtime-output`: a rule that fails
  while the game runs. These and `house-rule-edit` are a diff of `-old`/`+new` line pairs
  applied to the base file.
- docs/house-rule-in-5-minutes.md: `house-rule-examples` (appended to the `house-rule` file) and
  `house-rule-examples-failure` (what `amunre check` prints once the start is 25 gold).
- docs/house-rule-in-5-minutes.md: `lint-output-copy`, the same text as docs/lint.md's
  `lint-output` (which tests/test_lint.py checks).

Beside the marked examples: docs/engine.md opens with the layers of tests/test_import_graph.py;
docs/lint.md's table of warnings has a row for each kind tools/lint.py gives;
every path of a module the docs name exists, and so does every `game.NAME` and `amunre.NAME`;
the numbers the docs quote that the code computes (the 2016 file's action ids, observation
size and flow) are computed here.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

import amunre
from amunre.interpreter.base.errors import GameError
from amunre.interpreter.dsl import Dsl, Scope
from amunre.interpreter.dsl.types import NUM, PLACE
from amunre.interpreter.mechanics import MECHANICS
from amunre.interpreter.model import Flow
from amunre.interpreter.play import cards
from amunre.tools.agents.forecast import forecast
from amunre.tools.lint import KINDS
from test_import_graph import LAYERS

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
             "dsl-error-output", "dsl-runtime-edit", "dsl-runtime-output"}
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


def test_dsl_runtime_error_is_reported_as_shown(tmp_path: Path) -> None:
    """The rule that fails while a game runs is reported at the line and column the doc shows."""
    edit, = [b for b in blocks("dsl.md") if b.kind == "dsl-runtime-edit"]
    shown, = [b for b in blocks("dsl.md") if b.kind == "dsl-runtime-output"]
    path = tmp_path / edit.arg("file")
    path.write_text(edited(edit), encoding="utf-8")
    rules = amunre.load_rules(path)
    game = amunre.new_game(rules, players=3, seed=0)
    with pytest.raises(GameError) as info:
        while not game.over:                     # the first market fails: nobody has points yet
            game.apply_id(game.legal_action_ids()[0])
    assert str(info.value).replace(str(path), path.name).rstrip() == shown.body.rstrip()


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
    before = forecast(harvest, game, 0)["gold"]        # the seat owns no other place
    cards.run(game, 0, rules.cards["big_harvest"].effect, {"target": place}, rules.cards["big_harvest"].cause)
    return forecast(harvest, game, 0)["gold"] - before


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
    assert result.exit_code == 0 and result.output.strip().startswith(f"OK {name}"), result.output


def test_the_tutorial_example_holds_then_fails_as_shown(tmp_path: Path, monkeypatch) -> None:
    from typer.testing import CliRunner

    from amunre.cli.app import app
    monkeypatch.chdir(tmp_path)
    block, = tutorial("house-rule")
    examples, = tutorial("house-rule-examples")
    shown, = tutorial("house-rule-examples-failure")
    name = write_beside_base(tmp_path, block)
    path = tmp_path / name
    path.write_text(block.body + "\n" + examples.body, encoding="utf-8")
    held = CliRunner().invoke(app, ["check", name])
    assert held.exit_code == 0 and held.output.startswith(f"{name}: 1 of 1 examples hold"), held.output
    path.write_text(path.read_text(encoding="utf-8").replace("{start: 30}", "{start: 25}"), encoding="utf-8")
    failed = CliRunner().invoke(app, ["check", name])
    assert failed.exit_code == 1
    assert failed.output.splitlines()[:len(shown.body.splitlines())] == shown.body.splitlines(), failed.output


def test_house_rule_error_is_reported_as_shown(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    block, = tutorial("house-rule-error")
    shown, = tutorial("house-rule-error-output")
    with pytest.raises(amunre.RulesError) as info:
        amunre.load_rules(write_beside_base(tmp_path, block))
    assert info.value.format().rstrip() == shown.body.rstrip()


def test_house_rule_error_position_in_the_prose() -> None:
    shown, = tutorial("house-rule-error-output")
    position = re.match(r"[^:]+:(\d+):(\d+):", shown.body)
    assert position is not None
    line, col = position.groups()
    prose = (DOCS / TUTORIAL).read_text(encoding="utf-8")
    assert f"The position is line {line}, column {col} of the YAML file" in prose


def test_lint_output_in_the_tutorial_is_lint_md_s() -> None:
    copy, = tutorial("lint-output-copy")
    original, = [b for b in blocks("lint.md") if b.kind == "lint-output"]
    assert copy.body == original.body


def test_house_rule_by_editing_a_copy(tmp_path: Path) -> None:
    block, = tutorial("house-rule-edit")
    path = tmp_path / "rich-harvest-full.yaml"
    path.write_text(edited(block), encoding="utf-8")
    rules = amunre.load_rules(path)
    assert start_gold(rules) == [30, 30, 30]
    assert big_harvest_gain(rules) == 2 * 3


# ---- docs/lint.md: a row for every kind of warning ---------------------------------------------

def lint_md_kinds(text: str) -> list[str]:
    """The kinds of the rows of docs/lint.md's table of warnings, in order."""
    section = text.split("## The warnings", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^\| `([a-z-]+)` \|", section, re.M)


def test_lint_md_has_a_row_for_every_kind_of_warning() -> None:
    kinds = lint_md_kinds((DOCS / "lint.md").read_text(encoding="utf-8"))
    assert len(kinds) == len(set(kinds)) and set(kinds) == set(KINDS), set(KINDS) ^ set(kinds)


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


# ---- docs/engine.md opens with the layers of the import graph -------------------------------

ENGINE = DOCS / "engine.md"


def layout_table(text: str) -> tuple[bool, list[list[str]]]:
    """Whether the first table of a page comes before its first section (the page opens with
    it), and its rows, each cell stripped."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    opens = not any(line.startswith("## ") for line in lines[:start])
    rows = []
    for line in lines[start + 2:]:                       # past the header and its rule
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return opens, rows


def module_of(path: str) -> str:
    """A package or module as the table writes it (`interpreter/base/`, `interpreter/game.py`,
    `__init__.py`) as the dotted name LAYERS gives it."""
    parts = [part for part in path.removesuffix(".py").split("/") if part]
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join(["amunre", *parts])


def may_import(cell: str, names: list[str]) -> list[str]:
    """The layers a cell names: `nothing else of amunre`, `a, b`, or a run `a to b`."""
    if cell == "nothing else of amunre":
        return []
    found: list[str] = []
    for item in cell.split(", "):
        first, _, last = item.partition(" to ")
        assert first in names and (not last or last in names), f"not a layer: {item!r}"
        found += names[names.index(first):names.index(last or first) + 1]
    return found


def layout_mismatches(text: str) -> list[str]:
    """How the page's opening table differs from LAYERS: the layers and their order, the
    packages of each, and what each may import (the layers below it)."""
    names = [name for name, _ in LAYERS]
    opens, rows = layout_table(text)
    found = [] if opens else ["the page does not open with the table"]
    if [row[0] for row in rows] != names:
        found.append(f"layers {[row[0] for row in rows]}, not {names}")
    for row, (name, modules) in zip(rows, LAYERS):
        packages = {module_of(p) for p in re.findall(r"`([^`]+)`", row[1])}
        if packages != set(modules):
            found.append(f"{name}: packages {sorted(packages)}, not {sorted(modules)}")
        for path in re.findall(r"`([^`]+)`", row[1]):
            if not (REPO / path).exists():
                found.append(f"{name}: no {path}")
        below = names[:names.index(name)] if name in names else []
        if may_import(row[3], names) != below:
            found.append(f"{name}: may import {row[3]!r}, not {below}")
    return found


def test_engine_md_opens_with_the_layers_of_the_import_graph() -> None:
    assert layout_mismatches(ENGINE.read_text(encoding="utf-8")) == []


def test_a_layout_table_that_drifts_is_caught() -> None:
    text = ENGINE.read_text(encoding="utf-8")
    rows = text.splitlines()
    play = next(i for i, line in enumerate(rows) if line.startswith("| play |"))
    mechanics = play + 1
    swapped = rows[:play] + [rows[mechanics], rows[play]] + rows[mechanics + 1:]
    assert layout_mismatches("\n".join(swapped))                                  # two layers out of order
    assert layout_mismatches(text.replace("| base to load |", "| base to play |"))  # a wrong arrow
    assert layout_mismatches(text.replace("`interpreter/game.py`, ", ""))          # a package left out
    assert layout_mismatches(text.replace("| adapters |", "| plugins |"))
    assert layout_mismatches("## First\n\n" + text)                               # not at the top


# ---- what the docs name exists ------------------------------------------------------------------

def doc_pages() -> list[Path]:
    return [REPO / "README.md", *sorted(DOCS.rglob("*.md"))]


_PY_PATH = re.compile(r"(?<![\w/.-])((?:[\w-]+/)*[\w-]+\.py)\b")
_TOP = ("interpreter", "tools", "cli", "adapters", "benchmarks", "tests", "docs", "grammar", "rules")


def _source_files() -> list[str]:
    return [path.relative_to(REPO).as_posix() for folder in (*_TOP[:6], "examples")
            if (REPO / folder).is_dir() for path in (REPO / folder).rglob("*.py")] + ["__init__.py"]


def test_every_module_path_in_the_docs_exists() -> None:
    """A path from the top (`interpreter/play/flow.py`, `tools/lint.py`, `cli/app.py`) is a
    file of the repository (or beside the page); a shorter one (`flow.py`, `dsl/parse.py`)
    is the end of one."""
    files = _source_files()
    missing = []
    for page in doc_pages():
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            for path in _PY_PATH.findall(line):
                if path.split("/")[0] in _TOP:
                    there = (REPO / path).is_file() or (page.parent / path).is_file()
                else:
                    there = (page.parent / path).is_file() or any(f == path or f.endswith("/" + path) for f in files)
                if not there:
                    missing.append(f"{page.relative_to(REPO)}:{number}: {path}")
    assert missing == []


def test_every_dotted_name_in_the_docs_exists() -> None:
    """`amunre.x.y` is a module of the package, or a name a module defines (`amunre.x.f`)."""
    missing = []
    for page in doc_pages():
        for name in set(re.findall(r"\bamunre(?:\.\w+)+", page.read_text(encoding="utf-8"))):
            parts = name.split(".")[1:]
            for cut in range(len(parts), -1, -1):
                base = REPO.joinpath(*parts[:cut])
                source = base.with_suffix(".py") if cut else REPO / "__init__.py"
                if not source.is_file():
                    source = base / "__init__.py"
                if source.is_file():
                    break
            rest = parts[cut:]                  # what the module defines (`Game` of `amunre.Game.from_json`)
            defines = rf"^(?:def|class) {rest[0]}\b|^{rest[0]}\b.*=|import .*\b{rest[0]}\b" if rest else ""
            if not re.search(defines, source.read_text(encoding="utf-8"), re.M):
                missing.append(f"{page.relative_to(REPO)}: {name}")
    assert missing == []


# `game.` before these is not a Game: a file name (`game.jsonl`, `game.py`), or pyspiel's game.
NOT_GAME_ATTRIBUTES = {"jsonl", "py", "new_initial_state"}


def test_every_game_attribute_in_the_docs_exists(base_rules) -> None:
    """`game.NAME` in a page is an attribute of a Game (`game._apply` was not)."""
    game = amunre.new_game(base_rules, players=3, seed=0)
    missing = [f"{page.relative_to(REPO)}: game.{name}" for page in doc_pages()
               for name in sorted(set(re.findall(r"\bgame\.(\w+)", page.read_text(encoding="utf-8"))))
               if name not in NOT_GAME_ATTRIBUTES and not hasattr(game, name)]
    assert missing == []


def test_mechanics_md_lists_every_mechanic() -> None:
    text = (DOCS / "mechanics.md").read_text(encoding="utf-8")
    sentence = re.search(r"The mechanics are (.*?) \(`interpreter/mechanics/`", text, re.S)
    assert sentence is not None
    named = re.findall(r"`(\w+)`", sentence[1])
    assert sorted(named) == sorted(MECHANICS)


# ---- numbers the docs quote that the code computes --------------------------------------------

# (page, pattern, what): every "N for 2016" in the docs is one of these (matched with each run
# of white space in the page as one space, so rewrapping a paragraph changes nothing).
QUOTED_2016 = (
    ("README.md", r"num_distinct_actions\(\)\) # (\d+) for the 2016 edition", "actions"),
    ("docs/adapters.md", r"A = `num_distinct_actions\(\)`, (\d+) for 2016", "actions"),
    ("docs/engine.md", r"`num_distinct_actions\(\)` is fixed by the rules file \((\d+) for 2016\)", "actions"),
    ("docs/adapters.md", r"N is fixed by the rules file \((\d+) for the 2016 edition\)", "observation"),
)


def one_line(path: Path) -> str:
    return " ".join(path.read_text(encoding="utf-8").split())


def test_numbers_quoted_for_the_2016_edition(base_rules) -> None:
    game = amunre.new_game(base_rules, players=4, seed=0)
    truth = {"actions": game.num_distinct_actions(), "observation": len(game.observation_tensor(0))}
    for page, pattern, what in QUOTED_2016:
        found = re.search(pattern, one_line(REPO / page))
        assert found, f"{page}: no {pattern!r}"
        assert int(found[1]) == truth[what], f"{page}: {found[0]!r}, but {what} = {truth[what]}"
    quoted = re.compile(r"\b\d+ for (?:the )?2016\b")
    counted = sum(len(quoted.findall(one_line(page))) for page in doc_pages())
    assert counted == len(QUOTED_2016), "a number quoted for 2016 that no pattern here checks"


def leaves_under(flow: Flow, index: int) -> int:
    node = flow.nodes[index]
    return 1 if node.kind == "phase" else sum(leaves_under(flow, child) for child in node.children)


def test_the_flow_of_the_2016_file_as_mechanics_md_tells_it(base_rules) -> None:
    text = one_line(DOCS / "mechanics.md")
    found = re.search(r"For rules/knizia2016\.yaml that tree has (\d+) nodes, (\d+) of them phases .*?"
                      r"a game runs (\d+) phases: (\d+) × (\d+) \+ (\d+) in each of the two ages", text)
    assert found, "the paragraph of the 2016 flow's numbers is gone from docs/mechanics.md"
    nodes, leaves, runs, per_round, rounds, age_end = map(int, found.groups())
    flow = base_rules.flow
    assert (nodes, leaves) == (len(flow.nodes), len(flow.leaves))
    assert runs == flow.most_phases(1)
    by_name = {node.name: i for i, node in enumerate(flow.nodes) if node.name}
    age, rnd = flow.nodes[by_name["age"]], flow.nodes[by_name["round"]]
    assert (age.times.constant, rnd.times.constant) == (2, rounds)
    assert per_round == leaves_under(flow, rnd.children[0])                 # the phases of a round
    assert age_end == leaves_under(flow, age.children[0]) - per_round       # an age's phases outside its rounds
    game = amunre.new_game(base_rules, players=3, seed=0)
    while not game.over:
        game.apply_id(game.legal_action_ids()[0])
    assert game.state.step == runs
    assert sum(e["event"] in ("phase", "skip") for e in game.log) == runs


# ---- docs/rules-files.md: the order of play and the primitives of games of lots ------------------

RULES_FILES = "rules-files.md"
RULES_FILES_KINDS = {"rules-overlay", "rules-file", "rules-excerpt", "old-save-refused"}
OVERLAYS = [b for b in blocks(RULES_FILES) if b.kind == "rules-overlay"]


def test_rules_files_md_marks_its_examples() -> None:
    """Every example of the flow's nodes and of the primitives is marked, so it is tested."""
    found = {b.kind for b in blocks(RULES_FILES)}
    assert found == RULES_FILES_KINDS
    bodies = "\n".join(b.body for b in blocks(RULES_FILES))
    for written in ("sequence:", "times:", "until:", "check: before", "between:", "branch:", "else:",
                    "name:", "one_per_kind:", "end_if:", "structure:", "mechanic: lay_card",
                    "style: play_painting.card.auction", "mechanic: transition", "next_player",
                    "hidden: true", "sell:"):
        assert written in bodies, f"no marked example writes {written!r}"


@pytest.mark.parametrize("block", OVERLAYS, ids=[" ".join(b.body.split())[:60] for b in OVERLAYS])
def test_a_rules_files_example_is_a_house_rule_of_2016_that_plays(tmp_path: Path, block: Block) -> None:
    """Each `rules-overlay` block, put under `extends: knizia2016.yaml`, loads and plays to the
    end; `same-as-base` ones play the same game as the 2016 file itself."""
    from conftest import house, play_random
    rules = house(tmp_path, block.body)
    game = play_random(rules, 4, 3)
    assert game.over
    if "same-as-base" in block.args:
        base = play_random(amunre.load_rules(BASE), 4, 3)
        ran = [[(e["event"], e.get("phase"), e.get("age"), e.get("round")) for e in g.log
                if e["event"] in ("phase", "skip")] for g in (game, base)]
        assert ran[0] == ran[1] and game.history == base.history


def test_the_game_of_lots_in_rules_files_md_plays(tmp_path: Path) -> None:
    """The small game of lots loads and plays: one lot sold in each of its three turns."""
    from conftest import play_random
    block, = [b for b in blocks(RULES_FILES) if b.kind == "rules-file"]
    path = tmp_path / "lots.yaml"
    path.write_text(block.body, encoding="utf-8")
    rules = amunre.load_rules(path)
    for players in (3, 4):
        game = play_random(rules, players, players)
        assert game.over
        assert sum(e["event"] == "sold" for e in game.log) == 3


def _yaml_lines(text: str) -> list[tuple[int, str]]:
    """The lines of YAML that say something (no blank or comment line, no end-of-line comment),
    each as its indentation and its text with runs of white space as one space."""
    found = []
    for line in text.splitlines():
        line = re.sub(r"\s+#\s.*$", "", line)
        if line.strip() and not line.strip().startswith("#"):
            found.append((len(line) - len(line.lstrip()), " ".join(line.split())))
    return found


def test_rules_files_md_quotes_modern_art_as_written() -> None:
    """A `rules-excerpt` block is a run of lines of its file (a `# ...` line: lines left out),
    in order; white space within a line and comments aside."""
    excerpts = [b for b in blocks(RULES_FILES) if b.kind == "rules-excerpt"]
    assert excerpts
    for block in excerpts:
        path = REPO / block.arg("file")
        if not path.is_file():
            pytest.skip(f"{block.arg('file')} is not here")
        lines = _yaml_lines(path.read_text(encoding="utf-8"))
        at = 0
        for part in re.split(r"^\s*# \.\.\.\s*$", block.body, flags=re.M):
            quoted = _yaml_lines(part)
            starts = [i for i in range(at, len(lines) - len(quoted) + 1) if lines[i:i + len(quoted)] == quoted]
            assert starts, f"not in {block.arg('file')} (after line {at} of its YAML): {part.strip()[:200]}"
            at = starts[0] + len(quoted)


def test_the_flow_of_the_2016_file_as_rules_files_md_tells_it(base_rules) -> None:
    text = one_line(DOCS / RULES_FILES)
    found = re.search(r"a 2016 game runs (\d+) phases \((\d+) × (\d+) \+ (\d+) in each of the two ages", text)
    assert found, "the sentence of the 2016 flow's numbers is gone from docs/rules-files.md"
    runs, per_round, rounds, age_end = map(int, found.groups())
    flow = base_rules.flow
    by_name = {node.name: i for i, node in enumerate(flow.nodes) if node.name}
    age, rnd = flow.nodes[by_name["age"]], flow.nodes[by_name["round"]]
    assert runs == flow.most_phases(1) == 2 * (per_round * rounds + age_end) + 1 + 2
    assert (age.times.constant, rnd.times.constant) == (2, rounds)
    assert per_round == leaves_under(flow, rnd.children[0])
    assert age_end == leaves_under(flow, age.children[0]) - per_round
    game = amunre.new_game(base_rules, players=3, seed=0)
    while not game.over:
        game.apply_id(game.legal_action_ids()[0])
    assert game.state.step == runs


def test_the_limits_of_a_flow_as_rules_files_md_tells_them(tmp_path: Path) -> None:
    from amunre.interpreter.base.limits import MAX_FLOW_NODES, MAX_PASSES, MAX_PHASES_RUN, STEP_LIMIT
    from conftest import house
    text = one_line(DOCS / RULES_FILES)
    found = re.search(r"A flow has at most ([\d,]+) nodes; a repeat with a fixed `times` runs 0 to ([\d,]+) "
                      r"passes; and the flow can run at most ([\d,]+) phases", text)
    assert found, "the sentence of the flow's limits is gone from docs/rules-files.md"
    assert [int(n.replace(",", "")) for n in found.groups()] == [MAX_FLOW_NODES, MAX_PASSES, MAX_PHASES_RUN]
    assert f"a whole number (0 to {MAX_PASSES:,})" in text
    endless = house(tmp_path, 'flow:\n  - {until: "1 == 2", repeat: {branch: option.temple_scoring, '
                              'cases: {every_harvest: auction}}}\n')
    with pytest.raises(GameError) as info:
        amunre.new_game(endless, players=3, seed=1)
    assert f"{STEP_LIMIT:,} nodes" in str(info.value) and f'"{info.value}"' in text


def test_an_old_save_is_refused_as_rules_files_md_says(base_rules) -> None:
    shown, = [b for b in blocks(RULES_FILES) if b.kind == "old-save-refused"]
    save = amunre.new_game(base_rules, players=3, seed=0).to_json()
    save["format"] = 1
    with pytest.raises(amunre.AmunreError) as info:
        amunre.Game.from_json(save)
    assert str(info.value) == shown.body.strip()


def test_rules_files_md_names_every_mechanic() -> None:
    text = one_line(DOCS / RULES_FILES)
    sentence = re.search(r"`mechanic` names one of the mechanics: (.*?) \(`interpreter/mechanics/`", text)
    assert sentence is not None
    assert sorted(re.findall(r"`(\w+)`", sentence[1])) == sorted(MECHANICS)


def _dsl_params(params: tuple, prefix: str = "") -> list[str]:
    """The DSL strings a mechanic's parameters take, as dsl.md's table writes them (a list of
    mappings as `name[].key`, a mapping as `name.key`)."""
    from amunre.interpreter.mechanics.auction import Style
    from amunre.interpreter.mechanics.params import Collection, Effect, Expr, Group, Items
    found = []
    for param in params:
        if isinstance(param, Items):
            found += _dsl_params(param.params, f"{prefix}{param.name}[].")
        elif isinstance(param, Group):
            found += _dsl_params(param.params, f"{prefix}{param.name}.")
        elif isinstance(param, (Expr, Effect, Collection, Style)):
            found.append(prefix + param.name)
    return found


def test_every_dsl_parameter_of_a_mechanic_is_in_dsl_md_s_table() -> None:
    """"Where each string is used" has a row for each DSL string a mechanic reads (a row may
    name several: moves `start`, `finish`), so the table grows with the mechanics."""
    from amunre.interpreter.mechanics import MECHANICS
    text = (DOCS / "dsl.md").read_text(encoding="utf-8")
    table = text[text.index("## Where each string is used"):text.index("The keys of phases come from")]
    rows = [line for line in table.splitlines() if line.startswith("| ")]
    missing = [f"{name} `{path}`" for name, cls in MECHANICS.items() for path in _dsl_params(cls.params)
               if not any(row.startswith(f"| {name} ") and f"`{path}`" in row.split("|")[1] for row in rows)]
    assert missing == []
