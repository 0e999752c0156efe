"""`amunre diff A B`: a semantic diff of two rules files (by key, id and `same_as`; DSL as
canonical text), exit status like diff's; and docs/editions/, kept current."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from amunre.cli.app import app
from conftest import REPO

sys.path.insert(0, str(REPO / "docs" / "editions"))
import make as editions_pages  # docs/editions/make.py, on the path set just above

runner = CliRunner()
HOUSE = REPO / "rules" / "house"


def changes(a: str, b: str) -> list[dict]:
    result = runner.invoke(app, ["diff", a, b, "--json"])
    assert result.exit_code == (1 if json.loads(result.output) else 0), result.output
    return json.loads(result.output)


def test_a_file_against_itself_is_the_same() -> None:
    result = runner.invoke(app, ["diff", "knizia2016", "knizia2016"])
    assert result.exit_code == 0 and "the same rules" in result.output


def test_a_changed_value_with_both_positions() -> None:
    found = {c["path"]: c for c in changes("knizia2016", str(HOUSE / "start_30_gold.yaml"))}
    gold = found["resources.gold.start"]
    assert (gold["kind"], gold["old"], gold["new"]) == ("changed", 20, 30)
    assert gold["old_at"].endswith(f"knizia2016.yaml:{line_of(REPO / 'rules' / 'knizia2016.yaml', 'gold: {start: 20')}")
    assert gold["new_at"].endswith(f"start_30_gold.yaml:{line_of(HOUSE / 'start_30_gold.yaml', 'gold: {start: 30')}")


def line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


def test_a_removed_entity_and_a_changed_effect() -> None:
    removed = {c["path"]: c["kind"] for c in changes("knizia2016", str(HOUSE / "no_theft.yaml"))}
    assert removed["cards.theft"] == "removed" and removed["phases.offering.steal"] == "removed"
    effect = {c["path"]: c for c in changes("knizia2016", str(HOUSE / "architect_one_stone.yaml"))}
    assert "stone >= 1" in effect["cards.architect.effect"]["new"]


def test_a_province_patched_by_id_and_an_added_entity() -> None:
    found = {c["path"]: c for c in changes("knizia2016", str(HOUSE / "temples_every_harvest.yaml"))}
    assert (found["places.items.dakhla.bonus_gold"]["old"], found["places.items.dakhla.bonus_gold"]["new"]) == (12, 10)
    assert [c for c in found if c.startswith("places.")] == ["places.items.dakhla.bonus_gold"]
    assert changes("knizia2016", "knizia2016-expert")[-1]["kind"] == "added"


def test_the_same_dsl_written_differently_is_no_change(tmp_path: Path) -> None:
    house = tmp_path / "spaced.yaml"
    house.write_text('extends: knizia2016\ncards:\n  architect:\n    effect: "choose target from my.provinces '
                     'where (stone >= 2) ;  convert 2 stone to pyramid in target"\n', encoding="utf-8")
    assert changes("knizia2016", str(house)) == []


def test_an_effect_under_any_key_is_compared_as_dsl(tmp_path: Path) -> None:
    """A mechanic names its effects as it likes (a drought's `start`): parentheses around one
    statement change nothing there either."""
    house = tmp_path / "grouped.yaml"
    house.write_text('extends: pharaohs-heir\nphases:\n  drought:\n    start: "(each t in my.spaces where '
                     'population > 0: (remove 1 population from t))"\n', encoding="utf-8")
    assert changes("pharaohs-heir", str(house)) == []
    house.write_text('extends: pharaohs-heir\nphases:\n  drought:\n    start: "each t in my.spaces where '
                     'population > 1: remove 1 population from t"\n', encoding="utf-8")
    assert [c["path"] for c in changes("pharaohs-heir", str(house))] == ["phases.drought.start"]


def test_entities_renamed_between_editions_are_matched_by_same_as() -> None:
    paths = [c["path"] for c in changes("knizia2003", "knizia2016")]
    assert "cards.builder (now architect).doc" in paths
    assert "cards.builder (now architect).window" not in paths          # its phase is renamed too
    assert not any(p in ("cards.builder", "cards.architect") for p in paths)
    assert "places.items.dakhla.free_gold (now bonus_gold)" not in paths        # same value, renamed column


def test_a_file_that_does_not_load_is_exit_status_2(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("extends: knizia2016\nresources: {gold: {start: lots}}\n", encoding="utf-8")
    result = runner.invoke(app, ["diff", "knizia2016", str(broken)])
    assert result.exit_code == 2 and "broken.yaml:2" in result.output


@pytest.mark.parametrize("pair", editions_pages.PAGES, ids=lambda p: "-".join(p))
def test_the_editions_pages_are_current(pair: tuple[str, str]) -> None:
    page = editions_pages.page_path(*pair)
    assert page.read_text(encoding="utf-8") == editions_pages.edition_page(*pair), "run python docs/editions/make.py"


def test_a_formula_that_differs_only_by_renamed_names_is_no_change(tmp_path: Path) -> None:
    """A derived value renamed (the same formula) is matched, and a card reading it under its new
    name says the same; a real change beside the renaming is still reported, alone."""
    house = tmp_path / "renamed.yaml"
    house.write_text('extends: knizia2016\nderived:\n  favor_symbols: null\n  symbols: "favor_limit + bonus_favor"\n'
                     'cards:\n  master_of_scribes:\n    effect: "require sum(my.provinces, symbols) >= 7; +3 vp"\n',
                     encoding="utf-8")
    assert changes("knizia2016", str(house)) == []
    house.write_text(house.read_text(encoding="utf-8").replace(">= 7", ">= 8"), encoding="utf-8")
    assert [c["path"] for c in changes("knizia2016", str(house))] == ["cards.master_of_scribes.effect"]


def test_a_renamed_tile_is_matched_and_its_values_compared(tmp_path: Path) -> None:
    house = tmp_path / "tiles.yaml"
    house.write_text("extends: knizia2016\nphases:\n  offering:\n    tiles:\n      - {id: high, remove: true}\n"
                     "      - {id: top, same_as: high, label: '23>', min: 23, farmer_gold: 5, temple_vp: 4, "
                     "camel: false}\n",
                     encoding="utf-8")
    found = {c["path"]: (c["old"], c["new"]) for c in changes("knizia2016", str(house))}
    assert found == {"phases.offering.tiles.high (now top).farmer_gold": (4, 5)}


def test_a_renaming_is_used_only_where_it_is_one_to_one() -> None:
    """A name renamed to two names, or to a name the first file gives something else, is not
    read as renamed: else two different things could compare the same."""
    from amunre.tools.diff import renaming
    assert renaming({"cards": {"x": {"same_as": "y"}}}, {}) == {"x": "y"}
    assert renaming({"cards": {"x": {"same_as": "y"}}, "decks": {"x": {"same_as": "z"}}}, {}) == {}
    assert renaming({"cards": {"x": {"same_as": "y"}}, "decks": {"y": {}}}, {}) == {}
    assert renaming({"cards": {"x": {"same_as": "z"}, "w": {"same_as": "z"}}}, {}) == {}
    assert renaming({}, {"cards": {"y": {"same_as": "x"}}}) == {"x": "y"}        # the second file's same_as


# ---- the order of play, as outlines ---------------------------------------------------------------

def test_a_changed_loop_is_one_phase_line_out_and_one_in() -> None:
    """The market repeated until nobody buys: the 2016 market's line goes, the repeat's comes,
    and nothing else of the order of play is listed."""
    found = [c for c in changes("knizia2016", str(HOUSE / "market_until_all_pass.yaml"))
             if c["path"] == "order of play.phase"]
    assert [(c["kind"], c["old"] or c["new"]) for c in found] == [
        ("removed", "age 2 times / round 3 times / market"),
        ("added", "age 2 times / round 3 times / repeat until market.bought == 0 / market")]
    lines = (REPO / "rules" / "knizia2016.yaml").read_text(encoding="utf-8").splitlines()
    assert found[0]["old_at"].endswith(f"knizia2016.yaml:{lines.index('structure:') + 2}")        # its value
    assert found[1]["new_at"].endswith(
        f"market_until_all_pass.yaml:{line_of(HOUSE / 'market_until_all_pass.yaml', 'flow:') + 1}")


def test_a_flow_written_out_as_its_structure_is_no_change(tmp_path: Path) -> None:
    """`structure:` is compared as the tree it stands for: the same tree written as `flow:`
    differs in nothing (and a branch added to it in one line per phase under it)."""
    flow = ("flow:\n  - name: age\n    times: 2\n    repeat:\n      - name: round\n        times: 3\n"
            "        repeat: [auction, market, offering, harvest, harvest_temples]\n"
            "      - scoring_cards\n      - age_scoring\n    between: new_age\n"
            "  - {name: game_end, sequence: [last_sales, final_scoring]}\n")
    same = tmp_path / "same.yaml"
    same.write_text(f"extends: {REPO / 'rules' / 'knizia2016.yaml'}\n" + flow, encoding="utf-8")
    assert changes("knizia2016", str(same)) == []
    branched = tmp_path / "branched.yaml"
    branched.write_text(f"extends: {REPO / 'rules' / 'knizia2016.yaml'}\n" + flow.replace(
        "      - scoring_cards\n", "      - {branch: \"age == 1\", cases: {\"true\": scoring_cards}}\n"),
        encoding="utf-8")
    assert [(c["kind"], c["old"] or c["new"]) for c in changes("knizia2016", str(branched))] == [
        ("removed", "age 2 times / scoring_cards"),
        ("added", "age 2 times / branch on age == 1 / case true / scoring_cards")]


def test_the_outline_lines_are_printed_whole() -> None:
    result = runner.invoke(app, ["diff", "knizia2016", "modern-art"])
    line = next(line for line in result.output.splitlines() if "case 2 / auction_pair" in line)
    assert line.rstrip().endswith("/ case 2 / auction_pair  (modern-art.yaml:144)") and "..." not in line


def test_values_are_printed_whole() -> None:
    """A long value (a doc, a card's effect) is printed to its end, never cut with '...'."""
    lines = runner.invoke(app, ["diff", "knizia2003", "knizia2016"]).output.splitlines()
    assert any(len(line) > 200 for line in lines) and not any("...  (" in line for line in lines)
