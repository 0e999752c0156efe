"""The worked examples of the Pharaoh's Heir rules ([P] in docs/sources.md) that the
`examples:` section of rules/pharaohs-heir.yaml cannot state, with their exact numbers, played
through the public API. The other worked examples (action order, land development, sacrifice,
the three population examples, improvement) are in that section: `amunre check
rules/pharaohs-heir.yaml` plays them. These need positions that no few moves reach (several land
tiles, farms and a market on the mats, exact totals at a cycle's end), so they are set up by
hand. Bob, Ted and Carol sit clockwise (seats 0, 1 and 2). Where the text leaves a number out
or contradicts itself, the test says so."""

from __future__ import annotations

from typing import Any

import pytest

import amunre
from conftest import move_to
from pharaoh_positions import BOB, CAROL, RULES_PATH, TED, act, at_action, begin, grain, set_mat, space, tokens


@pytest.fixture(scope="module")
def rules() -> Any:
    return amunre.load_rules(RULES_PATH)


def test_harvest_example(rules: Any) -> None:
    # [P] Harvest, Example: Ted (Overseer, 3 crop tiles: a bonus of 3) exchanges 4 farmers and
    # his 3-value farm yields 3: 10 grain; he feeds 4 tiles. Carol exchanges 2 farmers (no farm):
    # with 1 grain from before she has 3, feeds 3 of her 4 tiles and loses an acolyte. Bob
    # exchanges 6 farmers, his 1-value farm yields 1: 7 grain; his 2-value market cuts the
    # 5 tiles' need to 3. Neither Ted's nor Bob's grain from before is given: none here.
    game = at_action(rules, "harvest", TED)
    set_mat(game, TED, {"village": {"population": 1}, "temple": {"population": 1}, "crop": {"population": 4}},
            [("crop_5a", "crop", {"farm": 3, "population": 1}), ("crop_2a", "crop", {"population": 1})], grain=0)
    set_mat(game, CAROL, {"village": {"population": 1}, "temple": {"population": 1}, "crop": {"population": 2}},
            [("crop_4a", "crop", {"population": 1}), ("village_6a", "village", {"population": 1})], grain=1)
    set_mat(game, BOB, {"village": {"population": 1, "market": 2}, "temple": {"population": 1},
                        "crop": {"population": 6}},
            [("crop_1b", "crop", {"farm": 1, "population": 1}), ("temple_3b", "temple", {"population": 1}),
             ("village_2b", "village", {"population": 1})], grain=0)
    begin(game)
    act(game, TED, type="reap", t="mat2_crop", k=4)
    act(game, TED, type="done")
    assert grain(game, TED) == 3 + 4 + 3
    act(game, CAROL, type="reap", t="mat3_crop", k=2)
    act(game, CAROL, type="done")
    assert grain(game, CAROL) == 1 + 2
    act(game, BOB, type="reap", t="mat1_crop", k=6)
    act(game, BOB, type="done")
    assert grain(game, BOB) == 6 + 1
    # Feeding: Ted's turn needs no decision; Carol chooses where a token starves.
    assert game.step.phase == "feed" and game.to_move == CAROL
    assert grain(game, TED) == 10 - 4
    act(game, CAROL, type="starve", t="mat3_temple")
    assert grain(game, CAROL) == 0 and tokens(game, CAROL, "temple") == {}
    assert grain(game, BOB) == 7 - 3
    assert game.step.phase != "feed"


def test_a_canal_must_reach_the_river(rules: Any) -> None:
    # [P] Canals: next to the river (a mat's own tile) or to a canal; not diagonally.
    game = at_action(rules, "improvement", BOB)
    set_mat(game, BOB, {"village": {"canal": 1}},
            [("village_2a", "village", {"population": 1}), ("temple_3a", "temple", {"population": 1}),
             ("crop_5a", "crop", {"population": 1}), ("crop_4a", "crop", {"population": 1})], grain=3)
    begin(game)
    canals = {a["t"] for a in game.legal_actions() if a["type"] == "canal"}
    # The mat's own tiles lie on the river (the Overseer's token may come from anywhere), and
    # village_2a below the village's canal; not temple_3a, diagonal from it, nor the crops below.
    assert canals == {"mat1_temple", "mat1_crop", "village_2a"}
    act(game, BOB, type="canal", t="village_2a", src="village_2a")
    assert {"type": "pay", "t": "temple_3a", "k": 1} not in game.legal_actions()    # nothing owed
    assert tokens(game, BOB, "village_2a") == {"canal": 1}
    assert space(game, BOB, "village") == rules.place_index["mat1_village"]


def land_worth(game: amunre.Game, total: int) -> list[tuple[str, str, dict[str, int]]]:
    """Unowned land tiles worth `total` together, each in its own column."""
    rules, tiles = game.rules, []
    free = sorted((p for p, props in enumerate(rules.place_props)
                   if props["kind"] == "tile" and props["pack"] > 0 and game.state.owner[p] < 0),
                  key=lambda p: -rules.place_props[p]["value"])
    for p in free:
        value = rules.place_props[p]["value"]
        if value <= total:
            tiles.append((rules.place_ids[p], rules.place_props[p]["type"], {}))
            total -= value
    assert total == 0
    return tiles


def cycle_ends(game: amunre.Game, age: int, **areas: list[int]) -> None:
    """The end of a cycle with each seat's grain, sacrifice total, land, people and buildings as
    given (people on the mat's village, the buildings as floodwalls): its scoring runs."""
    for seat in (BOB, TED, CAROL):
        set_mat(game, seat, {"village": {"population": areas["people"][seat]},
                             "river": {"floodwall": areas["buildings"][seat]}},
                land_worth(game, areas["land"][seat]), grain=areas["grain"][seat])
        game.state.resources[seat]["gods"] = areas["gods"][seat]
    move_to(game, "cycle_scoring", age=age, round=6)
    begin(game)


def test_scoring_example(rules: Any) -> None:
    # [P] Example of scoring, both cycles. Ties share the points of their places, rounded down.
    # The text omits Ted's 2nd-cycle sacrifice total ("Ted's total sacrifice is and Carol's is
    # 21") while scoring him 2 VP, the last place: 15 here. Its table sums Ted's cycles (13 and
    # 14) to 26; they make 27, as here.
    game = amunre.new_game(rules, players=3, seed=2, setup={"start_player": BOB})
    cycle_ends(game, 1, grain=[18, 16, 12], gods=[22, 22, 24], land=[30, 30, 30], people=[6, 8, 9],
               buildings=[15, 14, 14])
    first = [{k: v for k, v in game.state.sources[s]["vp"].items()} for s in (BOB, TED, CAROL)]
    areas = ("harvest", "gods", "land", "people", "buildings")
    assert [[row[a] for a in areas] for row in first] == [[5, 2, 3, 2, 5], [3, 2, 3, 3, 2], [2, 5, 3, 5, 2]]
    assert [game.state.resources[s]["vp"] for s in (BOB, TED, CAROL)] == [17, 13, 17]
    assert game.step.age == 2 and not game.over
    assert [owned_land(game, s) for s in (BOB, TED, CAROL)] == [0, 0, 0]        # the land tiles left the mats
    cycle_ends(game, 2, grain=[20, 20, 25], gods=[37, 15, 21], land=[30, 25, 23], people=[12, 12, 12],
               buildings=[12, 14, 14])
    assert game.over
    result = game.result()
    second = [[game.state.sources[s]["vp"][a] - first[s][a] for a in areas] for s in (BOB, TED, CAROL)]
    assert second == [[2, 5, 5, 3, 2], [2, 2, 3, 3, 4], [5, 3, 2, 3, 4]]
    assert result["scores"] == [34, 27, 34]
    # Bob and Carol tie at 34 and on Harvest over both cycles (7 each); Carol's Gods (5 + 3)
    # beat Bob's (2 + 5).
    assert [game.state.resources[s]["harvest_vp"] for s in (BOB, CAROL)] == [7, 7]
    assert [game.state.resources[s]["gods_vp"] for s in (BOB, CAROL)] == [7, 8]
    assert result["winners"] == [CAROL]


def owned_land(game: amunre.Game, seat: int) -> int:
    props = game.rules.place_props
    return sum(1 for p, owner in enumerate(game.state.owner)
               if owner == seat and props[p]["kind"] == "tile" and props[p]["pack"] > 0)
