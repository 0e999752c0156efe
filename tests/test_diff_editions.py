"""Issue 7: `amunre diff knizia2003 knizia2016` against the two rulebooks, read side by side.

[O] is the English rules of the original edition (2003), [R] those of the 2016 edition, [T] a
second English text of the 2016 rules, [B] the board facts (docs/sources.md). The list below is
every rules difference found between the two editions' texts, each with the sections behind
it and the paths where the diff must report it. Everything else the diff reports must be text
that states no rule (`doc`, `title`, `id`, `year`, `publisher`, `source`); a renaming
(`same_as`, and names read through it) is no change at all.

Read and found to be the same rule under other names (so reported nowhere): the temple track
and the offering tiles (the same four ranges, gold per farmer, temple points and camels: [O]
phase 4 and phase 5, [R] Offering Phase, [B] Offering tiles); harvest increase and Big Harvest
([O] power cards, [R] Favor card reference); complete sets of pyramids and +3 per pyramid in
the province with the fewest ([O] phase 6, 2; [R] Intermediate Scoring); the -3 card and Theft
(offered alone but for an adjustment card, 3 gold stolen, the card kept, no reward: [O] phase
4; [R] Offering Phase, Theft); the gold ranking ([O] phase 6, 6; [R] Final Scoring); the phase
structure ([O]'s six phases are [R]'s four with its phase 1 inside the auction and phase 6 as
Intermediate Scoring); and every power/favor card (counts: [B] Components).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from amunre.interpreter.load.loader import load_document
from amunre.interpreter.load.shipped import shipped_path
from amunre.tools.diff import Change, diff_documents, renaming

NOT_RULES = ("doc", "title", "id", "year", "publisher", "source")


@dataclass(frozen=True)
class Difference:
    what: str
    sources: str
    reported: dict[str, str]          # path -> kind ("changed", "added", "removed")


AGE_SCORING = "phases.kingdom_scoring (now age_scoring).rules"
TILES = "phases.sacrifice (now offering).tiles"

DIFFERENCES = (
    Difference("45 farmers in 2003, 48 in 2016 (a limit under the default component_limits: hard)",
               "[O] Contents; [R] Components",
               {"tokens.farmer.supply": "changed"}),
    Difference("2016 lets gold be changed at any time; 2003 never says, so its file has the option "
               "gold_change (default: any time, as 2016), whose other reading holds gold as cards",
               "[R] Set-up (\"make change ... at any time\"); [O] Contents, Preparation, phase 4",
               {"options.gold_change": "removed", "resources.gold.denominations": "removed"}),
    Difference("2016 only: [T] gives the +5 for each side of the Nile to the player with the most "
               "pyramids on it; [R] and [O] to the single province with the most (option nile_side_bonus)",
               "[O] phase 6, 3; [R] Intermediate Scoring; [T] Counting Victory Points",
               {"options.nile_side_bonus": "added",
                f"{AGE_SCORING}.nile_west.when": "added", f"{AGE_SCORING}.nile_east.when": "added",
                f"{AGE_SCORING}.nile_west#2.when": "changed", f"{AGE_SCORING}.nile_east#2.when": "changed",
                f"{AGE_SCORING}.nile_west#3": "added", f"{AGE_SCORING}.nile_east#3": "added",
                f"{AGE_SCORING}.nile_west#4": "added", f"{AGE_SCORING}.nile_east#4": "added"}),
    Difference("2016 only: its province board says temples score at every harvest, its scoring "
               "section at each age's end as [O] does (option temple_scoring, default: age end)",
               "[R] Permanent Bonuses (Temple), Intermediate Scoring; [O] phase 6, 4",
               {"options.temple_scoring": "added", "structure.round": "changed",
                "phases.harvest_temples": "added", f"{AGE_SCORING}.temples.when": "added"}),
    Difference("2016 only: [T] lets an Offering Adjustment leave the total as it is; [R] and [O] "
               "make it raise or lower by 3 (option offering_adjustment)",
               "[O] sacrifice correction; [R] Offering Phase; [T] Offering Adjustment",
               {"options.offering_adjustment": "added",
                "cards.sacrifice_correction (now offering_adjustment).effect": "changed"}),
    Difference("the board: 2003's temple track has spaces numbered 1 to 4, 2016's offering tiles "
               "are printed with their ranges (>2, 3>12, 13>22, 23>); the same ranges and values",
               "[O] phase 4 (the temple on space 2 for 7 gold); [R] Components, Offering Phase",
               {f"{TILES}.space_{n} (now {tile}).label": "changed"
                for n, tile in enumerate(("low", "mid_low", "mid_high", "high"), 1)}),
)

# Same rules, other names: each 2003 name is matched with its 2016 name.
SAME_RULES = {"harvest_increase": "big_harvest", "minus_three": "theft", "complete_sets": "weakest_province",
              "gold_scoring": "final_scoring", "sacrifice": "offering", "space_2": "mid_low",
              "card_symbols": "favor_symbols", "power": "favor"}


@pytest.fixture(scope="module")
def reported() -> list[Change]:
    return diff_documents(load_document(shipped_path("knizia2003")), load_document(shipped_path("knizia2016")))


@pytest.mark.parametrize("difference", DIFFERENCES, ids=lambda d: d.what[:40])
def test_every_rules_difference_is_reported_where_it_belongs(difference: Difference, reported: list[Change]) -> None:
    found = {".".join(c.path): c.kind for c in reported}
    assert {path: found.get(path) for path in difference.reported} == difference.reported, difference.sources


def test_the_farmers_and_the_tiles_differ_by_the_printed_numbers(reported: list[Change]) -> None:
    found = {".".join(c.path): (c.old, c.new) for c in reported}
    assert found["tokens.farmer.supply"] == (45, 48)
    assert [found[f"{TILES}.space_{n} (now {t}).label"] for n, t in
            enumerate(("low", "mid_low", "mid_high", "high"), 1)] == [
        ("1", ">2"), ("2", "3>12"), ("3", "13>22"), ("4", "23>")]


def test_nothing_else_is_reported_but_text_that_states_no_rule(reported: list[Change]) -> None:
    listed = {path for difference in DIFFERENCES for path in difference.reported}
    false = [f"{'.'.join(c.path)} ({c.kind}): {c.old!r} -> {c.new!r}" for c in reported
             if ".".join(c.path) not in listed and _key(c.path[-1]) not in NOT_RULES]
    assert not false


def _key(label: str) -> str:
    """`farms (now fields)` -> `farms`."""
    return label.split(" ")[0]


def test_the_same_rules_under_other_names_are_matched() -> None:
    names = renaming(load_document(shipped_path("knizia2003")).data, load_document(shipped_path("knizia2016")).data)
    assert {old: names.get(old) for old in SAME_RULES} == SAME_RULES


def test_read_the_other_way_the_diff_reports_the_same_differences(reported: list[Change]) -> None:
    """From 2016 to 2003 only the 2003 file's `same_as` keys name the partners: the same
    changes come out, added and removed swapped, under the 2016 names."""
    back = diff_documents(load_document(shipped_path("knizia2016")), load_document(shipped_path("knizia2003")))
    swap = {"added": "removed", "removed": "added", "changed": "changed"}
    swapped = sorted(repr((swap[c.kind], c.old, c.new)) for c in back)
    assert swapped == sorted(repr((c.kind, c.new, c.old)) for c in reported)
