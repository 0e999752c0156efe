"""The agents' score forecasts kept by what each award reads (tools/agents/score_memo.py): what
the DSL says an award reads, that a key changes with exactly those parts, and that the kept
forecasts equal the ones worked out afresh on every position of random games of every bundled
rules file and option variant (a key missing a part the awards read fails here).
"""

from __future__ import annotations

from typing import Any

import pytest

import amunre
from amunre.interpreter.mechanics.score import Score
from amunre.tools.agents.forecast import _score
from amunre.tools.agents.score_memo import ScoreMemo, award_reads
from conftest import REPO, every_edition, fit, play_random, with_option

RULES = sorted(str(p.relative_to(REPO / "rules")) for p in (REPO / "rules").rglob("*.yaml"))
# Options of the 2016 edition whose awards read other things (the best seat, a 0-0 tie).
VARIANTS_2016 = ["nile_side_bonus=player", "nile_side_without_pyramids=stone_tiebreak", "temple_scoring=every_harvest"]

rules = pytest.fixture(scope="session", name="rules")(every_edition)   # each bundled edition and option variant


def _awards(rules: Any, phase: str) -> dict[str, Any]:
    return {award.id: award for award in rules.phases[phase].awards}


def test_what_the_2016_awards_read() -> None:
    rules = amunre.load_rules(REPO / "rules" / "knizia2016.yaml")
    age = _awards(rules, "age_scoring")
    assert award_reads(age["pyramids"]) == {("players",), ("owner",), ("tokens",)}    # via a derived value
    assert award_reads(age["nile_west"]) >= {("owner",), ("tokens",), ("options", "nile_side_bonus")}
    # the row the offering picked: a phase's member, which declares that it reads the phase's kept data
    assert award_reads(age["temples"]) == {("players",), ("owner",), ("kept", "offering"),
                                           ("options", "temple_scoring")}
    assert award_reads(_awards(rules, "final_scoring")["gold"]) == {("players",), ("resources", "gold")}


def test_a_key_follows_exactly_the_parts_read() -> None:
    rules = amunre.load_rules(REPO / "rules" / "knizia2016.yaml")
    memo = ScoreMemo(rules.phases["age_scoring"])
    game = play_random(rules, 4, 3, stop=lambda g: any(t for t in g.state.tokens if t.get("pyramid")))
    key = memo.key(game.state)
    other = game.clone()
    other.state.hands[0].append("x")                  # not read by the kept awards
    other.state.resources[0]["gold"] += 5
    assert memo.key(other.state) == key
    other.state.tokens[0]["pyramid"] = other.state.tokens[0].get("pyramid", 0) + 1
    assert memo.key(other.state) != key
    other = game.clone()
    other.state.owner[0] = (other.state.owner[0] + 2) % 4
    assert memo.key(other.state) != key
    other = game.clone()
    other.state.options["nile_side_bonus"] = "player"
    assert memo.key(other.state) != key
    other = game.clone()
    other.state.kept["offering"] = {"tile": "a row no game picks"}
    assert memo.key(other.state) != key


def _check_positions(rules: Any, seeds: range) -> int:
    """Play random games; at every position compare each scoring phase's kept forecasts (one
    memo per phase for the whole run, so later positions hit what earlier ones kept) with the
    plain ones. Returns how many forecasts were compared."""
    memos = [(mech, ScoreMemo(mech)) for mech in rules.phases.values() if isinstance(mech, Score)]
    compared = 0

    def check(game: Any, action: Any, index: int) -> None:
        nonlocal compared
        for mech, memo in memos:
            for seat in range(game.state.players):
                assert memo.one(mech, game, seat) == _score(mech, game, seat), (mech.phase_id, seat, index)
            compared += 1
    for seed in seeds:
        play_random(rules, fit(rules, 4), seed, after=check)
    return compared


def test_kept_forecasts_equal_fresh_ones_in_every_edition(rules: Any) -> None:
    scoring = any(isinstance(m, Score) for m in rules.phases.values())
    assert (_check_positions(rules, range(2)) > 0) == scoring


@pytest.mark.parametrize("name", [r for r in RULES if r.startswith("house/")])
def test_kept_forecasts_equal_fresh_ones_under_house_rules(name: str) -> None:
    _check_positions(amunre.load_rules(REPO / "rules" / name), range(1))


@pytest.mark.parametrize("variant", VARIANTS_2016)
def test_kept_forecasts_equal_fresh_ones_under_2016_options(variant: str, tmp_path: Any) -> None:
    assert _check_positions(with_option("knizia2016", *variant.split("="), tmp_path), range(2)) > 0
