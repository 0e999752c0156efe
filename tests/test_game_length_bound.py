"""The bound on a game's length (tools/game_length.py; OpenSpiel's max_game_length) holds and
stays near the games played: no game of random play, nor of play that buys and bids as much as
it can from a full purse, runs past it, for every bundled file, every player count and options
drawn at random; and the bound is no looser than recorded against the longest of 1,000 random
games (benchmarks/game_length.py measured them; docs/adapters.md has the table).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import amunre
from amunre.interpreter.base.actions import STANDING
from amunre.interpreter.base.errors import AmunreError
from amunre.tools.game_length import dealt, most_decisions, phase_decisions, phase_drawn, reach_of
from conftest import REPO

FILES = sorted((REPO / "rules").glob("*.yaml")) + sorted((REPO / "rules" / "house").glob("*.yaml"))
GAMES = 24                  # per file, the player counts in turn

# The longest of 1,000 random games (benchmarks/game_length.py), and the most the bound may be
# above it. The rules give no bound (None) where a repeat runs until a condition, or a moves
# phase has a move of no fixed `times`: the engine's limit stays for them.
LONGEST = {
    "knizia2003": 339, "knizia2003-online": 333, "knizia2016": 336, "knizia2016-expert": 360,
    "modern-art": 438, "pharaohs-heir": 455,
    "house/architect_one_stone": 344, "house/cheap_farmers": 347, "house/gold_in_hand": 336,
    "house/market_until_all_pass": 952,
    "house/no_offering_on_empty_deck": 320,
    "house/no_theft": 354, "house/offering_first": 341, "house/once_around_auction": 363,
    "house/race_to_score": 339, "house/start_30_gold": 341, "house/temples_every_harvest": 335,
}
RATIO = 9.0                  # the loosest bound of a file against its longest random game (8.9 measured)
UNBOUNDED = {"modern-art", "pharaohs-heir", "house/market_until_all_pass"}


def name_of(path: Path) -> str:
    return path.relative_to(REPO / "rules").with_suffix("").as_posix()


@pytest.fixture(scope="module", params=FILES, ids=name_of)
def rules(request: pytest.FixtureRequest) -> Any:
    return amunre.load_rules(str(request.param))


def new(rules: Any, players: int, seed: int, purse: dict[str, int] | None = None) -> amunre.Game:
    """A game with options drawn at random (again, where a player count refuses them)."""
    pick = random.Random(seed)
    setup: dict[str, Any] = {}
    if purse:
        setup["resources"] = {name: [amount] * players for name, amount in purse.items()}
    for _ in range(20):
        options = {name: pick.choice(option.values) for name, option in rules.options.items()}
        try:
            return amunre.new_game(rules, players, seed, {**setup, "options": options}, events=False)
        except AmunreError:
            continue
    return amunre.new_game(rules, players, seed, setup, events=False)


def play(game: amunre.Game, seed: int, greedy: bool) -> int:
    """Random play; `greedy`: mostly the last legal id (the largest buy, the highest bid space,
    a card played rather than none), which keeps markets and auctions going longest."""
    pick = random.Random(seed)
    while not game.over:
        legal = game.legal_action_ids()
        game.apply_id(legal[-1] if greedy and pick.random() < 0.7 else pick.choice(legal))
    return len(game.history)


def test_no_random_game_is_longer(rules: Any) -> None:
    counts = range(rules.min_players, rules.max_players + 1)
    bounds = {n: most_decisions(rules, n) for n in counts}
    if None in bounds.values():
        pytest.skip("the rules give no bound: the engine's limit stays")
    for seed in range(GAMES):
        players = counts[seed % len(counts)]
        length = play(new(rules, players, seed), seed, greedy=False)
        assert length <= bounds[players], f"seed {seed}, {players} players: {length} decisions"


def test_no_game_from_a_full_purse_is_longer(rules: Any) -> None:
    """Every seat starts with the most of every resource it may hold, and buys and bids high."""
    counts = range(rules.min_players, rules.max_players + 1)
    bounds = {n: most_decisions(rules, n) for n in counts}
    if None in bounds.values():
        pytest.skip("the rules give no bound: the engine's limit stays")
    purse = dict(rules.resource_max)
    for seed in range(GAMES // 2):
        players = counts[seed % len(counts)]
        length = play(new(rules, players, seed, purse), seed, greedy=True)
        assert length <= bounds[players], f"seed {seed}, {players} players: {length} decisions"


def test_no_phase_takes_more_than_its_mechanic_says(rules: Any) -> None:
    """Each run of each phase (sales aside) within its own bound (odd seeds from full purses, mostly
    the first or the last legal id: the least bid above the best, the largest buy), and the sales of a game within
    the cards the set-up deals and the phases run draw: so every term of the sum is tested, not
    only the sum, which random play never comes near."""
    for seed in range(GAMES // 2):
        players = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
        reach = reach_of(rules, players)
        game = new(rules, players, seed, dict(rules.resource_max) if seed % 2 else None)
        pick = random.Random(seed)
        runs: dict[int, list[Any]] = {}           # state.step -> [phase, decisions]
        sales = 0
        while not game.over:
            legal = game.legal_action_ids()
            roll = pick.random() if seed % 2 else 1.0
            action = legal[-1] if roll < 0.35 else legal[0] if roll < 0.7 else pick.choice(legal)
            if rules.actions.block_at[action].rank == STANDING:
                sales += 1
            else:
                runs.setdefault(game.state.step, [game.step.phase, 0])[1] += 1
            game.apply_id(action)
        for phase, decisions in runs.values():
            most = phase_decisions(rules.phases[phase], reach)
            if most is None:
                continue                          # no bound here: the test of the whole game skips
            assert decisions <= most, f"seed {seed}: {phase} took {decisions} decisions, bound {most}"
        drawn = [phase_drawn(rules.phases[phase], reach) for phase, _ in runs.values()]
        if None not in drawn:                     # a phase that draws (a run with no decision draws nothing)
            assert sales <= dealt(rules, players) + sum(n for n in drawn if n is not None), f"seed {seed}"


def test_the_bound_is_near_the_longest_random_game(rules: Any) -> None:
    name = name_of(Path(rules.path))
    found = [most_decisions(rules, n) for n in range(rules.min_players, rules.max_players + 1)]
    if name in UNBOUNDED:
        assert None in found, f"{name} has a bound now: record it in LONGEST and docs/adapters.md"
        return
    assert None not in found
    bound = max(n for n in found if n is not None)
    assert LONGEST[name] <= bound <= RATIO * LONGEST[name]


def test_every_file_is_recorded() -> None:
    assert {name_of(path) for path in FILES} == set(LONGEST)


def test_openspiel_uses_the_bound() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from amunre.adapters.openspiel import short_name
    rules = amunre.load_rules("knizia2016")
    for players in (3, 5):
        game = pyspiel.load_game(short_name("knizia2016"), {"players": players})
        assert game.max_game_length() == most_decisions(rules, players)
