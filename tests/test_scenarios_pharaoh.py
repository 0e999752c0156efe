"""Every worked example of the Pharaoh's Heir rules ([P] in docs/sources.md) with its exact
numbers, played through the public API on rules/pharaohs-heir.yaml. Bob, Ted and Carol sit
clockwise (seats 0, 1 and 2). Where the text leaves a number out or contradicts itself, the
test says so."""

from __future__ import annotations

from typing import Any

import pytest

import amunre
from conftest import move_to
from pharaoh_positions import BOB, CAROL, RULES_PATH, TED, act, at_action, begin, gods, grain, set_mat, space, tokens


@pytest.fixture(scope="module")
def rules() -> Any:
    return amunre.load_rules(RULES_PATH)


def test_action_order_example(rules: Any) -> None:
    # [P] Action segment, Example: Bob chooses land development, Ted harvest, Carol sacrifice,
    # Bob improvement; Ted is left with population; Carol is the next turn's first Overseer.
    game = amunre.new_game(rules, players=3, seed=5, setup={"start_player": BOB})
    chosen = []

    def choose(seat: int, option: str) -> None:
        act(game, seat, type="choose", option=option)
        chosen.append((seat, option))
        while game.step.phase != "overseer" and game.step.round == 1:      # everyone carries it out
            game.apply(game.legal_actions()[0])
    for seat, option in ((BOB, "land"), (TED, "harvest"), (CAROL, "sacrifice"), (BOB, "improvement")):
        choose(seat, option)
    assert game.step.round == 2                          # Ted's population was taken without asking him
    picks = [(e["seat"], e["option"]) for e in game.log if e["event"] == "chosen"]
    assert picks == chosen + [(TED, "population")]
    assert game.state.start_player == CAROL and game.step.phase == "overseer" and game.to_move == CAROL


def test_land_development_example(rules: Any) -> None:
    # [P] Land development, Examples: Bob, the Overseer, takes a null temple (value 6) and places
    # it as a crop; Ted's 4 village must go in the village column.
    game = begin(at_action(rules, "land", BOB, setup={"decks": {"land_tiles": ["temple_6a", "village_4a", "crop_2a"]}}))
    assert game.state.shown["land_tiles"] == ["temple_6a", "village_4a", "crop_2a"]
    takes = [a for a in game.legal_actions() if a["card"] == "temple_6a"]
    assert sorted(a["col"] for a in takes) == ["crop", "temple", "village"]       # any column for the Overseer
    act(game, BOB, type="take", card="temple_6a", col="crop")
    assert [a["col"] for a in game.legal_actions() if a["card"] == "village_4a"] == ["village"]
    act(game, TED, type="take", card="village_4a", col="village")
    serves = game.state.mods["serves_as"]
    temple, village = rules.place_index["temple_6a"], rules.place_index["village_4a"]
    assert (serves[temple], game.state.owner[temple]) == ("crop", BOB)
    assert (serves[village], game.state.owner[village]) == ("village", TED)
    assert game.state.mods["tier"][temple] == 1                       # below Bob's own crop tile
    act(game, CAROL, type="take", card="crop_2a", col="crop")
    shown = game.state.shown["land_tiles"]                            # then the new tops are turned
    assert len(shown) == 3 and not {"temple_6a", "village_4a", "crop_2a"} & set(shown)


def test_sacrifice_example(rules: Any) -> None:
    # [P] Sacrifice, Example: Nile 5. Carol (Overseer, 2 temple tiles) sacrifices 5 acolytes;
    # Bob has 2 acolytes and 1 grain and pays them; Ted (a 2-value altar) pays 3 grain and 2
    # acolytes. The track reads 5, 3 and 5 + 2 = 7; Carol looks at the next Nile tile.
    game = at_action(rules, "sacrifice", CAROL, nile="nile_5a")
    set_mat(game, CAROL, {"temple": {"population": 3}}, [("temple_2a", "temple", {"population": 2})], grain=4)
    set_mat(game, BOB, {"temple": {"population": 2}}, grain=1)
    set_mat(game, TED, {"temple": {"population": 3, "altar": 2}}, grain=5)
    begin(game)
    act(game, CAROL, type="offer_acolytes", t="mat3_temple", k=3)
    act(game, CAROL, type="offer_acolytes", t="temple_2a", k=2)
    assert {"type": "count_temples"} in game.legal_actions()             # she could add 2 instead
    act(game, CAROL, type="look_ahead")
    act(game, BOB, type="offer_acolytes", t="mat1_temple", k=2)
    act(game, BOB, type="offer_grain", k=1)
    act(game, TED, type="offer_grain", k=3)
    act(game, TED, type="offer_acolytes", t="mat2_temple", k=2)
    assert [gods(game, s) for s in (CAROL, BOB, TED)] == [5, 3, 7]
    assert [grain(game, s) for s in (CAROL, BOB, TED)] == [4, 0, 2]
    upcoming = game.state.decks["nile_tiles"][0]
    assert game.observation(CAROL)["private"] == {"nile": {"next": upcoming}}
    assert game.observation(BOB)["private"] == {} == game.observation(TED)["private"]


def test_sacrifice_in_a_flood_is_the_last_number(rules: Any) -> None:
    # [P] Sacrifice: in a flood or a drought the sacrifice is the last numbered Nile tile's.
    game = at_action(rules, "sacrifice", BOB, nile="nile_flood_a", level=4)
    for seat in (BOB, TED, CAROL):
        set_mat(game, seat, grain=9)
    begin(game)
    assert {"type": "offer_grain", "k": 4} in game.legal_actions()
    assert {"type": "offer_grain", "k": 5} not in game.legal_actions()


def test_population_example_in_a_flood(rules: Any) -> None:
    # [P] Population, Example 1: Bob is the Overseer, the Nile in flood. His village of 2 gains
    # 2; Ted's village of 1 gains 1; Carol has no villagers. No canal step; then one token on
    # each tile.
    game = at_action(rules, "population", BOB, nile="nile_flood_a", level=3)
    set_mat(game, BOB, {"village": {"population": 2}}, [("village_3a", "village", {})])
    set_mat(game, TED, {"village": {"population": 1}, "crop": {"canal": 1}})
    set_mat(game, CAROL, {"temple": {"population": 1}})
    begin(game)
    assert game.step.phase != "population"               # nothing to place: nobody is asked
    assert tokens(game, BOB, "village") == {"population": 2 + 2 + 1}
    assert tokens(game, BOB, "village_3a") == {"population": 1}            # unpopulated: only the flood's
    assert tokens(game, TED, "village") == {"population": 1 + 1 + 1}
    assert tokens(game, TED, "crop") == {"canal": 1, "population": 1}       # the flood's, not the canal's
    assert tokens(game, CAROL, "village") == {"population": 1}
    assert tokens(game, CAROL, "temple") == {"population": 2}


def test_population_example_in_a_drought(rules: Any) -> None:
    # [P] Population, Example 2: a drought; Carol (Overseer) has a village of 3 and places 2
    # there; Bob's two villages of 1 gain 1 each; Ted has no villagers. No canal or Nile step.
    game = at_action(rules, "population", CAROL, nile="nile_drought_a", level=5)
    set_mat(game, CAROL, {"village": {"population": 3}})
    set_mat(game, BOB, {"village": {"population": 1}, "crop": {"canal": 1}},
            [("village_5a", "village", {"population": 1})])
    set_mat(game, TED, {"temple": {"population": 2}})
    begin(game)
    assert game.step.phase != "population"
    assert tokens(game, CAROL, "village") == {"population": 5}
    assert tokens(game, BOB, "village") == {"population": 2} and tokens(game, BOB, "village_5a") == {"population": 2}
    assert tokens(game, BOB, "crop") == {"canal": 1}
    assert tokens(game, TED, "village") == {} and tokens(game, TED, "temple") == {"population": 2}


def test_population_example_with_canals(rules: Any) -> None:
    # [P] Population, Example 3: Nile 3, Ted the Overseer. Each has a village of 2: Ted places 2
    # there, the others 1. Ted's canal on a crop tile gives a farmer, Carol's on a temple an
    # acolyte; Bob has none. Then each places 3 tokens at will.
    game = at_action(rules, "population", TED, nile="nile_3a")
    set_mat(game, TED, {"village": {"population": 2}, "crop": {"canal": 1}})
    set_mat(game, CAROL, {"village": {"population": 2}, "temple": {"canal": 1}})
    set_mat(game, BOB, {"village": {"population": 2}})
    begin(game)
    # Each seat's village and canal steps are done as its own turn begins: the mats do not
    # touch, so it comes to the same as everyone's first.
    assert tokens(game, TED, "village") == {"population": 4}
    assert tokens(game, TED, "crop") == {"canal": 1, "population": 1}
    act(game, TED, type="settle", t="mat2_crop", k=3)
    assert tokens(game, CAROL, "village") == {"population": 3}
    assert tokens(game, CAROL, "temple") == {"canal": 1, "population": 1}
    act(game, CAROL, type="settle", t="mat3_temple", k=2)
    assert {"type": "settle", "t": "mat3_crop", "k": 2} not in game.legal_actions()    # only 1 left
    act(game, CAROL, type="settle", t="mat3_crop", k=1)
    assert tokens(game, BOB, "village") == {"population": 3}
    for _ in range(3):
        act(game, BOB, type="settle", t="mat1_temple", k=1)
    assert tokens(game, TED, "crop") == {"canal": 1, "population": 4}
    assert tokens(game, CAROL, "temple") == {"canal": 1, "population": 3}
    assert tokens(game, BOB, "temple") == {"population": 3}
    assert game.step.phase != "population"


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


def test_improvement_example(rules: Any) -> None:
    # [P] Improvement, Example: Carol (Overseer) digs a canal on her 0 crop tile with a villager,
    # then builds a 2-value altar paying a villager and an acolyte. Bob digs a canal on his
    # 0 village with one of its villagers and builds a 4-value farm with 4 farmers of its tile.
    # Ted digs no canal; his 3-value floodwall costs a villager, an acolyte of his altar's tile
    # and a farmer.
    game = at_action(rules, "improvement", CAROL)
    set_mat(game, CAROL, {"village": {"population": 3}, "temple": {"population": 2}}, grain=2)
    set_mat(game, BOB, {"village": {"population": 2}, "crop": {"population": 5}}, grain=2)
    set_mat(game, TED, {"village": {"population": 1}, "temple": {"population": 1, "altar": 2},
                        "crop": {"population": 1}}, grain=2)
    begin(game)
    act(game, CAROL, type="canal", t="mat3_crop", src="mat3_village")
    act(game, CAROL, type="build", c="mat3_coins_2", t="mat3_temple")
    act(game, CAROL, type="pay", t="mat3_village", k=1)
    assert {"type": "done"} not in game.legal_actions()                 # one more token to pay
    act(game, CAROL, type="pay", t="mat3_temple", k=1)
    assert game.to_move == BOB                                          # nothing more she may do
    assert tokens(game, CAROL, "crop") == {"canal": 1}
    assert tokens(game, CAROL, "temple") == {"population": 1, "altar": 2}
    assert tokens(game, CAROL, "village") == {"population": 1} and grain(game, CAROL) == 1
    assert tokens(game, CAROL, "coins_2") == {"coin": 1}
    act(game, BOB, type="canal", t="mat1_village", src="mat1_village")
    assert not any(a["type"] == "canal" for a in game.legal_actions())  # one canal a turn
    assert {"type": "build", "c": "mat1_coins_4", "t": "mat1_village"} not in game.legal_actions()   # 1 villager
    act(game, BOB, type="build", c="mat1_coins_4", t="mat1_crop")
    assert tokens(game, BOB, "crop") == {"population": 1, "farm": 4}
    assert tokens(game, BOB, "village") == {"population": 1, "canal": 1} and grain(game, BOB) == 1
    act(game, TED, type="build", c="mat2_coins_3", t="mat2_river")
    for name in ("village", "temple", "crop"):
        act(game, TED, type="pay", t=f"mat2_{name}", k=1)
    assert tokens(game, TED, "river") == {"floodwall": 3}
    assert tokens(game, TED, "temple") == {"altar": 2} and grain(game, TED) == 2
    assert game.step.phase != "improvement"


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
