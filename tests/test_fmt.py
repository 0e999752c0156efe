"""`amunre fmt` (tools/fmt.py): canonical form, idempotent, every comment kept, DSL
printed from its tree, the meaning unchanged; `--check`; files that do not load refused."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from ruamel.yaml import YAML
from typer.testing import CliRunner

import amunre
from amunre.cli.app import app
from amunre.interpreter.load.loader import load_document
from amunre.tools import fmt
from amunre.tools.diff import diff_documents
from amunre.tools.fmt import format_file
from conftest import REPO

MESSY = """\
# A house rule written in a hurry.
title: "Messy"     # the title
extends: knizia2016
id: messy


cards:
    # Big Harvest gives 2
    big_harvest:
        effect: >-
          choose target from my.provinces;
          add (2) to harvest_bonus of target
        doc: "two more"   
        # a note about Big Harvest, inside its block

    treasury: {effect: 'choose target from my.provinces;set harvest_instead of target=(9)', doc: "nine"}   # nine gold
resources:
    gold: {doc: "thirty", start: 30}
phases:
  offering:
    steal: null
    tiles:
      - {id: low, farmer_gold: 2}
      - {farmer_gold: 5, id: high}
  age_scoring:
    rules:
      - points: sum(my.provinces,pyramids)
        id: pyramids   # the id goes first
      - when: "option.temple_scoring==age_end"
        # the temples
        id: temples
        points: "offering.tile.temple_vp * sum(my.provinces, temples)"
  harvest:
    instead: harvest_instead
    amount: |
      gold_mine + (caravan when offering.tile.camel) + farmers * ((offering.tile.farmer_gold) + harvest_bonus)
"""

CANONICAL = """\
# A house rule written in a hurry.
extends: knizia2016
id: messy
title: "Messy"     # the title

resources:
  gold: {start: 30, doc: "thirty"}
cards:
  # Big Harvest gives 2
  big_harvest:
    doc: "two more"
    effect: >-
      choose target from my.provinces;
      add 2 to harvest_bonus of target
    # a note about Big Harvest, inside its block

  treasury: {doc: "nine", effect: 'choose target from my.provinces; set harvest_instead of target = 9'}  # nine gold
phases:
  offering:
    steal: ~
    tiles:
      - {id: low,  farmer_gold: 2}
      - {id: high, farmer_gold: 5}
  age_scoring:
    rules:
      - id: pyramids   # the id goes first
        points: sum(my.provinces, pyramids)
      # the temples
      - id: temples
        when: "option.temple_scoring == age_end"
        points: "offering.tile.temple_vp * sum(my.provinces, temples)"
  harvest:
    amount: |
      gold_mine + (caravan when offering.tile.camel) + farmers * (offering.tile.farmer_gold + harvest_bonus)
    instead: harvest_instead
"""

runner = CliRunner()
SHIPPED = sorted(str(p) for p in (REPO / "rules").rglob("*.yaml"))


@pytest.fixture
def messy(tmp_path: Path) -> Path:
    path = tmp_path / "messy.yaml"
    path.write_text(MESSY, encoding="utf-8")
    return path


def comments(text: str) -> list[str]:
    return sorted(match.group(0).strip() for match in re.finditer(r"(?<!\S)#.*", text))


def test_a_file_is_rewritten_in_canonical_form(messy: Path) -> None:
    result = format_file(messy)
    assert result.changed and result.after == CANONICAL


def test_formatting_is_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "canonical.yaml"
    path.write_text(CANONICAL, encoding="utf-8")
    assert not format_file(path).changed


def test_a_moved_block_scalar_leaves_the_blank_line_after_it_in_place(tmp_path: Path) -> None:
    """A block scalar (`>`) counts the blank lines after it as its own: moved up, it must not
    carry them along (they separated two options, not two keys of one)."""
    path = tmp_path / "house.yaml"
    path.write_text("extends: knizia2016\ntitle: Test\noptions:\n  first:\n    values: [a, b]\n    default: a\n"
                    "    doc: >\n      A folded text\n      on two lines.\n\n  second:\n    values: [x, y]\n"
                    "    doc: Second.\n", encoding="utf-8")
    assert format_file(path).after == (
        "extends: knizia2016\ntitle: Test\noptions:\n  first:\n    doc: >\n      A folded text\n"
        "      on two lines.\n    values: [a, b]\n    default: a\n\n  second:\n    doc: Second.\n"
        "    values: [x, y]\n")


def test_an_alias_does_not_copy_the_comment_after_its_anchor(tmp_path: Path) -> None:
    """ruamel.yaml gives an alias the comment that follows its anchored block scalar (the next
    key's): each comment must come out once, where it was."""
    path = tmp_path / "alias.yaml"
    path.write_text("extends: knizia2016\nphases:\n  harvest:\n    skip_if: &never >-\n      1 == 2\n\n"
                    "  # the offering\n  offering:\n    skip_if: *never\n\n  # the market\n  market:\n"
                    "    skip_if: \"1 == 3\"\n", encoding="utf-8")
    after = format_file(path).after
    assert comments(after) == ["# the market", "# the offering"]
    assert after.index("# the offering") < after.index("offering:") < after.index("# the market")


def test_every_comment_is_kept(messy: Path) -> None:
    assert comments(format_file(messy).after) == comments(MESSY)


def test_the_formatted_file_means_the_same(messy: Path, tmp_path: Path) -> None:
    formatted = tmp_path / "formatted.yaml"
    formatted.write_text(format_file(messy).after, encoding="utf-8")
    assert diff_documents(load_document(messy), load_document(formatted)) == []
    assert amunre.load_rules(formatted).cards["treasury"].doc == "nine"


@pytest.mark.parametrize("name", ["knizia2016", "knizia2003"])
def test_a_shipped_file_indented_otherwise_comes_back_with_the_same_digest(name: str, tmp_path: Path) -> None:
    """Four spaces per level, lists indented 6: fmt gives the shipped file back (but for the
    spaces before end-of-line comments, which keep their distance from the margin)."""
    original = (REPO / "rules" / f"{name}.yaml").read_text(encoding="utf-8")
    yaml = YAML(typ="rt")
    yaml.preserve_quotes, yaml.width = True, 4096
    yaml.indent(mapping=4, sequence=6, offset=4)
    wide = io.StringIO()
    yaml.dump(yaml.load(original), wide)
    path = tmp_path / f"{name}.yaml"
    path.write_text(wide.getvalue(), encoding="utf-8")
    after = format_file(path).after
    spaced = lambda text: re.sub(r"(\S) +#", r"\1 #", text)     # noqa: E731
    assert spaced(after) == spaced(original) and after != wide.getvalue()
    path.write_text(after, encoding="utf-8")
    assert amunre.load_rules(path).digest == amunre.load_rules(REPO / "rules" / f"{name}.yaml").digest


def test_the_shipped_rules_files_are_in_canonical_form() -> None:
    result = runner.invoke(app, ["fmt", "--check", *SHIPPED])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [f"{path} is in canonical form" for path in SHIPPED]


def test_check_says_what_would_change_and_writes_nothing(messy: Path) -> None:
    result = runner.invoke(app, ["fmt", "--check", str(messy)])
    assert result.exit_code == 1
    assert "-title: \"Messy\"     # the title" in result.stdout and "+    steal: ~" in result.stdout
    assert result.stdout.rstrip().endswith(f"would format {messy}")
    assert messy.read_text(encoding="utf-8") == MESSY


def test_fmt_rewrites_the_file(messy: Path) -> None:
    result = runner.invoke(app, ["fmt", str(messy)])
    assert result.exit_code == 0 and result.stdout.strip() == f"formatted {messy}"
    assert messy.read_text(encoding="utf-8") == CANONICAL
    again = runner.invoke(app, ["fmt", "--check", str(messy)])
    assert again.exit_code == 0 and again.stdout.strip() == f"{messy} is in canonical form"


def test_a_file_that_does_not_load_is_refused(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    text = MESSY.replace("harvest_bonus of target", "harvest_bonuss of target")
    broken.write_text(text, encoding="utf-8")
    for check in ([], ["--check"]):
        result = runner.invoke(app, ["fmt", *check, str(broken)])
        assert result.exit_code == 2
        assert "unknown modifier 'harvest_bonuss'" in result.stderr
        assert f"error: {broken} does not load, so it was not formatted" in result.stderr
        assert broken.read_text(encoding="utf-8") == text


def test_a_format_that_would_change_the_meaning_is_never_written(messy: Path, monkeypatch) -> None:
    monkeypatch.setattr(fmt, "format_text", lambda text, doc, rules: CANONICAL.replace("start: 30", "start: 31"))
    result = runner.invoke(app, ["fmt", str(messy)])
    assert result.exit_code == 2 and "would change what this file says; nothing was written" in result.stderr
    assert messy.read_text(encoding="utf-8") == MESSY


def test_an_alias_and_a_merge_stay_said_once(tmp_path: Path) -> None:
    """A block said once (`&name`), named again (`*name`) or merged in (`<<: *name`), stays so
    (issue 36, item 10): fmt prints each DSL string canonically once, at its anchor."""
    path = tmp_path / "once.yaml"
    path.write_text("extends: knizia2016\nphases:\n  harvest:\n    skip_if: &never >-\n      (1 == 2)\n"
                    "  # the offering\n  offering:\n    skip_if: *never\n", encoding="utf-8")
    after = format_file(path).after
    assert "skip_if: &never >-\n      1 == 2\n" in after and "skip_if: *never" in after
    assert comments(after) == ["# the offering"]
    shipped = REPO / "rules" / "modern-art.yaml"
    text = shipped.read_text(encoding="utf-8")
    assert "<<: *sale" in text and "then: *lay_a_painting" in text
    assert format_file(shipped).after == text


def test_a_merge_in_a_flow_mapping_stays_as_written(tmp_path: Path) -> None:
    path = tmp_path / "flow.yaml"
    text = ("extends: knizia2016\nphases:\n  harvest: &h {skip_if: \"1 == 2\"}\n"
            "  offering: {<<: *h, end_if: \"1 == 3\"}\n")
    path.write_text(text, encoding="utf-8")
    assert format_file(path).after == text
