"""The worked examples of the 2003 rules ([O] in docs/sources.md), played through the public
API with their exact numbers, on rules/knizia2003.yaml."""

from __future__ import annotations

from typing import Any

import pytest

import amunre
from amunre.interpreter.dsl.context import Ctx
from amunre.interpreter.play import cards
from amunre.tools.agents.forecast import forecast
from conftest import REPO, play_random
from test_scenarios_2016 import act, events, gold, owner, phase, place

RED, BLACK, BLUE, WHITE = 0, 1, 2, 3


@pytest.fixture(scope="module")
def rules() -> Any:
    return amunre.load_rules(REPO / "rules" / "knizia2003.yaml")


def acquired(rules: Any, lots: list[str], hands: list[list[str]] | None = None, players: int = 4) -> amunre.Game:
    """A game whose first auction offers `lots`, seat i taking lots[i] for 0: the market is next."""
    game = amunre.new_game(rules, players=players, seed=3, setup={
        "start_player": 0, "decks": {"provinces": lots}, "hands": hands or []})
    for seat, lot in enumerate(lots):
        act(game, seat, type="bid", lot=lot, space=0)
    assert phase(game) == "player_actions"
    return game


def test_bidding_example(rules: Any) -> None:
    # Phase 2, Example: red, black, blue and white bid for Abydos, Sawu, Dakhla and Baharya.
    game = amunre.new_game(rules, players=4, seed=1, setup={
        "start_player": RED, "decks": {"provinces": ["abydos", "sawu", "dakhla", "baharya"]}})
    hands = [len(h) for h in game.state.hands]
    act(game, RED, type="bid", lot="abydos", space=3)        # 1st bidding round
    act(game, BLACK, type="bid", lot="sawu", space=1)
    act(game, BLUE, type="bid", lot="abydos", space=6)
    act(game, WHITE, type="bid", lot="abydos", space=10)
    act(game, RED, type="bid", lot="dakhla", space=0)        # 2nd: red was overbid and moves
    assert {"type": "bid", "lot": "abydos", "space": 15} not in game.legal_actions()   # not the same card
    act(game, BLUE, type="bid", lot="sawu", space=6)         # black was not overbid: he passed
    act(game, BLACK, type="bid", lot="baharya", space=0)     # 3rd: black moves
    assert phase(game) == "player_actions"
    assert [owner(game, rules, p) for p in ("abydos", "sawu", "dakhla", "baharya")] == [WHITE, BLUE, RED, BLACK]
    assert [gold(game, s) for s in (WHITE, BLUE, RED, BLACK)] == [20 - 10, 20 - 6, 20 + 12, 20]   # Dakhla: 12 free gold
    assert len(game.state.hands[RED]) == hands[RED] + 1                                        # and a free power card
    assert place(game, rules, "abydos").get("stone") == 1                                      # its free stone stays


def test_price_table_example(rules: Any) -> None:
    # Phase 3, Example: 2 power cards (3) + 4 farmers (10) + 3 building stones (6) = 19 gold.
    game = acquired(rules, ["thebes", "buto", "mendes", "sawu"])
    start = gold(game, RED)
    act(game, RED, type="buy", good="power", count=2)
    act(game, RED, type="buy", good="farmer", count=4)
    for _ in range(4):
        act(game, RED, type="place", token="farmer", at="thebes")
    act(game, RED, type="buy", good="stone", count=3)
    for _ in range(3):
        act(game, RED, type="place", token="stone", at="thebes")
    assert start - gold(game, RED) == 3 + 10 + 6 == 19
    assert place(game, rules, "thebes") == {"farmer": 4, "pyramid": 1, "stone": 0}


def test_farmer_example(rules: Any) -> None:
    # Action b, Example: red owns Baharya (2 farms) and Berenike (none); 2 farmers cost 3 gold
    # and can only go to Baharya; the free farmer card may put one on Berenike's flat land.
    game = acquired(rules, ["baharya", "buto", "mendes", "sawu"], hands=[["free_farmer"]])
    game.state.owner[rules.place_index["berenike"]] = RED
    start = gold(game, RED)
    while game.state.working["stage"] == 0:                     # no power cards bought
        act(game, RED, type="buy", good="power", count=0)
    act(game, RED, type="buy", good="farmer", count=2)
    assert start - gold(game, RED) == 3
    assert {a["at"] for a in game.legal_actions() if a["type"] == "place"} == {"baharya"}
    act(game, RED, type="place", token="farmer", at="baharya")
    act(game, RED, type="place", token="farmer", at="baharya")
    plays = [a for a in game.legal_actions() if a["type"] == "play"]
    assert {"type": "play", "card": "free_farmer", "target": "berenike"} in plays
    act(game, RED, type="play", card="free_farmer", target="berenike")
    assert place(game, rules, "berenike").get("free_farmer") == 1


def test_building_stone_example(rules: Any) -> None:
    # Action c, Example: 2 stones in Memphis, 1 pyramid and 1 stone in Mendes; 3 stones for 6
    # gold: one makes a pyramid in Memphis, two a pyramid in Mendes, which becomes a double.
    game = acquired(rules, ["memphis", "buto", "abydos", "sawu"])   # Memphis comes with its 2 free stones
    mendes = rules.place_index["mendes"]
    game.state.owner[mendes], game.state.tokens[mendes] = RED, {"pyramid": 1, "stone": 1}
    game.state.supply["pyramid"] -= 1
    game.state.supply["stone"] -= 1
    assert place(game, rules, "memphis") == {"stone": 2}
    start = gold(game, RED)
    while game.state.working["stage"] < 2:
        act(game, RED, **next(a for a in game.legal_actions() if a.get("count") == 0))
    act(game, RED, type="buy", good="stone", count=3)
    for at in ("memphis", "mendes", "mendes"):
        act(game, RED, type="place", token="stone", at=at)
    assert start - gold(game, RED) == 6
    assert place(game, rules, "memphis") == {"stone": 0, "pyramid": 1}
    assert place(game, rules, "mendes") == {"stone": 0, "pyramid": 0, "double_pyramid": 1}


def test_sacrifice_example(rules: Any) -> None:
    # Phase 4, Example: red 9, blue 4, black and white the -3 card: 7, temple on space 2.
    red, blue, black, white = 0, 1, 2, 3
    game = acquired(rules, ["buto", "mendes", "sawu", "kharga"])
    while phase(game) == "player_actions":
        act(game, game.to_move, **next(a for a in game.legal_actions() if a.get("count") == 0 or a["type"] == "done"))
    before = [gold(game, s) for s in range(4)]
    act(game, red, type="offer", amount=9)
    act(game, blue, type="offer", amount=4)
    act(game, black, type="offer", card="minus_three")
    act(game, white, type="offer", card="minus_three")
    settled = events(game, "settled")[-1]
    assert settled["total"] == 9 + 4 - 3 - 3 == 7 and settled["tile"] == "space_2"
    assert settled["ranking"] == [red, blue] and game.state.start_player == red
    assert [gold(game, s) - before[s] for s in range(4)] == [-9, -4, 3, 3]
    assert all("minus_three" in game.state.hands[s] for s in (black, white))     # kept
    takers = []
    while phase(game) == "sacrifice":
        takers.append(game.to_move)
        act(game, game.to_move, type="take", good="power")
    assert takers == [red] * 3 + [blue] * 2                 # the thieves select nothing


def test_income_example(rules: Any) -> None:
    # Phase 5, Example: temple on space 2; red owns Memphis (1 farmer), Abu (2 farmers) and
    # Sawu: 2 + (4 + 4) + 7 = 17 gold.
    game = amunre.new_game(rules, players=3, seed=2)
    for pid, farmers in (("memphis", 1), ("abu", 2), ("sawu", 0)):
        p = rules.place_index[pid]
        game.state.owner[p], game.state.tokens[p] = RED, {"farmer": farmers}
    game.state.kept["sacrifice"] = {"tile": "space_2"}
    assert forecast(rules.phases["harvest"], game, RED) == {"gold": 17}


def test_scoring_example(rules: Any) -> None:
    # Game end, Example: blue scores 27: 7 pyramids, 1 complete set, both sides of the Nile,
    # 1 temple in Edfu on space 1, 2 bonus cards met, least gold.
    blue = 2
    game = amunre.new_game(rules, players=4, seed=5)
    holdings = {"edfu": {"pyramid": 1, "double_pyramid": 1}, "thebes": {"pyramid": 1, "double_pyramid": 1},
                "abu": {"pyramid": 1}}                      # 3 + 3 + 1 = 7 pyramids, 1 in each
    for pid, tokens in holdings.items():
        p = rules.place_index[pid]
        game.state.owner[p], game.state.tokens[p] = blue, dict(tokens)
    game.state.kept["sacrifice"] = {"tile": "space_1"}
    for seat, amount in enumerate([30, 25, 3, 12]):
        game.state.resources[seat]["gold"] = amount
    scored = {}
    for phase_id in ("kingdom_scoring", "gold_scoring"):
        mech = rules.phases[phase_id]
        for award in mech.awards:
            if award.when is None or award.when.fn(Ctx(game)):
                scored[award.id] = mech.points(game, award).get(blue, 0)
    assert scored == {"pyramids": 7, "complete_sets": 3, "nile_west": 5, "nile_east": 5, "temples": 1, "gold": 0}
    for card in ("upper_lower_egypt_bonus", "nile_banks_bonus"):   # all in Upper Egypt, all on the Nile
        cards.run(game, blue, rules.cards[card].effect, {}, rules.cards[card].cause)
    assert sum(scored.values()) + game.state.resources[blue]["vp"] == 27


def scored(rules: Any, game: amunre.Game, phase_id: str) -> dict[str, dict[int, int]]:
    """{award id: {seat: points}} of every award of a scoring phase that applies now."""
    mech, out = rules.phases[phase_id], {}
    for award in mech.awards:
        if award.when is None or award.when.fn(Ctx(game)):
            out[award.id] = {s: v for s, v in mech.points(game, award).items() if v}
    return out


def test_temple_example(rules: Any) -> None:
    # Phase 6, 4, Example: the temple on space 3; black earns 3 points for each of Damanhur's
    # 2 temples: 6 points.
    game = amunre.new_game(rules, players=4, seed=5)
    game.state.owner[rules.place_index["damanhur"]] = BLACK
    game.state.kept["sacrifice"] = {"tile": "space_3"}
    assert scored(rules, game, "kingdom_scoring")["temples"] == {BLACK: 6}


def test_gold_tie_example(rules: Any) -> None:
    # Phase 6, 6, Example: two players tie with the most gold and both earn 6 points; the
    # player with the second most gold earns just 2.
    game = amunre.new_game(rules, players=4, seed=5)
    for seat, amount in enumerate([30, 30, 20, 10]):
        game.state.resources[seat]["gold"] = amount
    assert scored(rules, game, "gold_scoring")["gold"] == {0: 6, 1: 6, 2: 2}


@pytest.mark.parametrize("reading,east", [("nobody", {}), ("stone_tiebreak", {RED: 5})])
def test_a_side_without_pyramids(rules: Any, reading: str, east: dict[int, int]) -> None:
    # Option nile_side_without_pyramids: "the winning province" has the most pyramids; with
    # none on a side, nobody wins it, or (its tie-break read as reaching a 0-0 tie) the most
    # building stones do.
    game = amunre.new_game(rules, players=4, seed=5, setup={"options": {"nile_side_without_pyramids": reading}})
    for pid, seat, tokens in (("thebes", RED, {"stone": 2}), ("mendes", BLACK, {"stone": 1}), ("buto", BLUE, {})):
        game.state.owner[rules.place_index[pid]], game.state.tokens[rules.place_index[pid]] = seat, tokens
    points = scored(rules, game, "kingdom_scoring")
    assert points["nile_east"] == east and points["nile_west"] == {}      # no stones in the west either
    game.state.tokens[rules.place_index["mendes"]] = {"pyramid": 1}       # a pyramid: pyramids decide
    assert scored(rules, game, "kingdom_scoring")["nile_east"] == {BLACK: 5}


# ---- the online variant ([S] Phase 4) ---------------------------------------------------------

@pytest.fixture(scope="module")
def online() -> Any:
    return amunre.load_rules(REPO / "rules" / "knizia2003-online.yaml")


def at_the_sacrifice(rules: Any, hands: list[list[str]] | None = None) -> amunre.Game:
    game = acquired(rules, ["buto", "mendes", "sawu", "kharga"], hands=hands)
    while phase(game) == "player_actions":
        act(game, game.to_move, **next(a for a in game.legal_actions() if a.get("count") == 0 or a["type"] == "done"))
    assert phase(game) == "sacrifice"
    return game


def test_online_sacrifice_example_steals_by_choice(online: Any) -> None:
    # [S]'s example: red 9, blue 4, black and white steal 3: 7, temple on space 2.
    red, blue, black, white = 0, 1, 2, 3
    game = at_the_sacrifice(online)
    assert not any("minus_three" in hand for hand in game.state.hands)
    assert {"type": "steal"} in game.legal_actions()
    before = [gold(game, s) for s in range(4)]
    act(game, red, type="offer", amount=9)
    act(game, blue, type="offer", amount=4)
    act(game, black, type="steal")
    act(game, white, type="steal")
    settled = events(game, "settled")[-1]
    assert settled["total"] == 9 + 4 - 3 - 3 == 7 and settled["tile"] == "space_2"
    assert [gold(game, s) - before[s] for s in range(4)] == [-9, -4, 3, 3]


def test_online_power_cards_count_one_gold_each_in_an_offer(online: Any) -> None:
    game = at_the_sacrifice(online, hands=[["free_farmer", "farmer_bonus"], [], [], []])
    act(game, 0, type="attach", card="free_farmer")
    act(game, 0, type="attach", card="farmer_bonus")
    act(game, 0, type="offer", amount=2)                   # 2 gold + 2 cards = 4
    act(game, 1, type="offer", amount=3)
    act(game, 2, type="steal")
    act(game, 3, type="steal")
    settled = events(game, "settled")[-1]
    assert settled["total"] == 4 + 3 - 3 - 3 and settled["ranking"] == [0, 1]
    assert "free_farmer" in game.state.discards["power"] and "farmer_bonus" not in game.state.hands[0]


def test_online_start_player_stays_when_everyone_steals(online: Any) -> None:
    game = at_the_sacrifice(online)
    start = game.state.start_player
    for seat in range(4):
        act(game, seat, type="steal")
    assert events(game, "settled")[-1]["ranking"] == [] and game.state.start_player == start


# ---- the power card examples ------------------------------------------------------------------

def seat_at(rules: Any, phase_id: str, seed: int) -> tuple[amunre.Game, int]:
    """A random game stopped at the first decision of a phase, and the seat deciding."""
    game = play_random(rules, 3, seed, stop=lambda g: g.step.phase == phase_id)
    assert game.step.phase == phase_id
    return game, game.to_move


def give(game: amunre.Game, seat: int, places: dict[str, dict[str, int]], hand: list[str]) -> None:
    """Set the seat's provinces and hand directly, then let the engine work out its decision again."""
    rules = game.rules
    game.state.owner = [-1 if owner == seat else owner for owner in game.state.owner]
    for pid, tokens in places.items():
        game.state.owner[rules.place_index[pid]] = seat
        game.state.tokens[rules.place_index[pid]] = dict(tokens)
    game.state.hands[seat] = list(hand)
    game.decision = None


def test_builder_example(rules: Any) -> None:
    # Power cards, Example: blue builds a pyramid in Abu from 2 stones with a builder; his
    # second builder may not be played in the same phase.
    game, blue = seat_at(rules, "player_actions", 4)
    give(game, blue, {"abu": {"stone": 2}, "kharga": {"stone": 2}}, ["builder", "builder"])
    assert {"type": "play", "card": "builder", "target": "abu"} in game.legal_actions()
    act(game, blue, type="play", card="builder", target="abu")
    assert place(game, rules, "abu") == {"stone": 0, "pyramid": 1}
    assert game.state.hands[blue] == ["builder"]
    assert not any(a["type"] == "play" for a in game.legal_actions())     # not at Kharga either


@pytest.mark.parametrize("provinces,most", [(("memphis", "amarna", "avaris"), 3), (("buto", "mendes"), 0)])
def test_card_limit_examples(rules: Any, provinces: tuple[str, ...], most: int) -> None:
    # Action a, Examples: red owns Memphis, Amarna and Avaris and may buy up to 3 power cards
    # (Memphis' limit); blue owns Buto and Mendes, both limit 0, and may buy none.
    game, seat = seat_at(rules, "player_actions", 4)
    give(game, seat, {pid: {} for pid in provinces}, [])
    game.state.resources[seat]["gold"] = 100
    game.decision = None
    counts = [a["count"] for a in game.legal_actions() if a.get("good") == "power"]
    assert max(counts, default=0) == most          # (with a limit of 0 the step is skipped)


def test_farmer_bonus_example(rules: Any) -> None:
    # Power cards, Example: red scores with a farmer bonus; his second farmer bonus may not be
    # played in the same scoring, but another bonus card may.
    game, red = seat_at(rules, "bonus_cards", 4)
    give(game, red, {"thebes": {"farmer": 4}, "abu": {"farmer": 3}, "edfu": {"farmer": 2}},
         ["farmer_bonus", "farmer_bonus", "upper_lower_egypt_bonus"])
    before = game.state.resources[red]["vp"]
    act(game, red, type="play", card="farmer_bonus")                      # 9 farmers
    assert game.state.resources[red]["vp"] == before + 3
    plays = [a["card"] for a in game.legal_actions() if a["type"] == "play"]
    assert plays == ["upper_lower_egypt_bonus"]                           # all three in Upper Egypt
    act(game, red, type="play", card="upper_lower_egypt_bonus")           # (then the scoring may run on)
    assert game.state.sources[red]["vp"]["upper_lower_egypt_bonus"] == 3
