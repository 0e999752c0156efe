"""Every number of an observation tensor lies within its piece's bounds (observation_bounds,
observation_layout's low and high), which the learning environments' observation spaces say:
random games of every shipped rules file and house rule, every seat's tensor."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import amunre
from amunre.interpreter.base.limits import MAX_AMOUNT
from amunre.interpreter.play.observe import observation_bounds

REPO = Path(__file__).parents[1]
FILES = sorted(REPO.glob("rules/*.yaml")) + sorted(REPO.glob("rules/house/*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.stem)
def test_every_tensor_of_random_games_is_within_the_bounds(path: Path) -> None:
    rules = amunre.load_rules(str(path))
    least, most = observation_bounds(rules)
    for players in sorted({rules.min_players, rules.max_players}):
        game = amunre.new_game(rules, players, seed=players, events=False)
        pick = random.Random(players)
        while True:
            for seat in range(players):
                tensor = game.observation_tensor(seat)
                assert len(tensor) == len(least) == len(most)
                outside = [(i, x) for i, x in enumerate(tensor) if not least[i] <= x <= most[i]]
                assert not outside, f"{path.stem}, {players} players, seat {seat}: {_named(rules, outside[:3])}"
            if game.over:
                break
            game.apply_id(pick.choice(game.legal_action_ids()))


def _named(rules: amunre.interpreter.model.Rules, found: list[tuple[int, float]]) -> list[str]:
    layout = amunre.new_game(rules, rules.min_players).observation_layout()
    return [next(f"{piece['name']}[{i - piece['offset']}] = {x}" for piece in layout
                 if piece["offset"] <= i < piece["offset"] + piece["size"]) for i, x in found]


def test_the_layout_gives_each_pieces_bounds_and_they_are_tight_where_known() -> None:
    rules = amunre.load_rules("knizia2016")
    layout = {piece["name"]: piece for piece in amunre.new_game(rules).observation_layout()}
    least, _ = observation_bounds(rules)
    flat = [bound for piece in layout.values()
            for bound in (piece["least"] if isinstance(piece["least"], list) else [piece["least"]] * piece["size"])]
    assert flat == least
    for one_hot in ("seat", "players", "to_move", "start_player", "at", "owner", "offering.tile", "auction.lots"):
        assert (layout[one_hot]["least"], layout[one_hot]["most"]) == (0.0, 1.0), one_hot
    hand = layout["hand"]
    assert hand["least"] == 0.0 and max(hand["most"]) < 10            # a hand holds the copies of a kind
    assert layout["hand_sizes"]["most"] == sum(hand["most"])
    bids = layout["auction.bids"]["most"]
    assert max(bids) < 100 and bids.count(1.0) == 15 * 5                # the lots one-hot, then the bid's space
    assert layout["resources"]["most"] == float(MAX_AMOUNT)   # a set-up may start a seat past a resource's max


def test_a_number_the_rules_compute_past_the_limit_is_held_at_it() -> None:
    """A modifier is whatever its rule computes (nothing clamps it in play): the tensor holds
    it within the engine's limit, which is its bound."""
    rules = amunre.load_rules("knizia2016")
    game = amunre.new_game(rules, 4, seed=1, events=False)
    least, most = observation_bounds(rules)
    piece = next(p for p in game.observation_layout() if p["name"].startswith("mod.") and p["size"] == 15)
    game.state.mods[piece["name"][len("mod."):]] = [10 ** 30] * 7 + [-(10 ** 30)] * 8
    tensor = game.observation_tensor(0)
    values = tensor[piece["offset"]:piece["offset"] + piece["size"]]
    assert values == [float(MAX_AMOUNT)] * 7 + [-float(MAX_AMOUNT)] * 8
    assert all(least[i] <= x <= most[i] for i, x in enumerate(tensor))
