"""Structural house rules of the 2016 edition (rules/house/): the order of play changed in data
alone, each an overlay of at most 30 commented lines.

- once_around_auction: each province auctioned by itself, once around the table (a `reveal`,
  a lot `auction` and a `transition` repeated `players` times a round);
- race_to_score: the game ends after the round in which a seat reaches the score an option
  sets (the game's `end_if`, after the node `round`, then `game_end`);
- no_offering_on_empty_deck: a `branch` runs the offering only while the province deck holds
  cards (`provinces.left`, the cards a deck has left to draw);
- offering_first: the offering opens the round, before the auction (`structure:` reordered);
- market_until_all_pass: the market runs again until a run in which nobody bought (a `repeat`
  `until` the market's `market.bought`, the items its latest run sold, is 0).

Each is checked for the change itself (the flow's tree, and played games' logs showing it),
for being short, clean and plain to `amunre diff`, and for playing to the end with the random
and heuristic agents.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import amunre
from amunre.cli.app import app
from amunre.interpreter.dsl import Dsl
from amunre.interpreter.dsl.checked import NO_SEAT, NOT_CONSTANT
from amunre.interpreter.dsl.context import Ctx
from amunre.interpreter.dsl.printer import to_text
from amunre.interpreter.dsl.types import NUM
from amunre.tools.agents import make_agent
from conftest import REPO, ok_line, play_random, random_agents

HOUSE = REPO / "rules" / "house"
STRUCTURAL = ["once_around_auction", "race_to_score", "no_offering_on_empty_deck", "offering_first",
              "market_until_all_pass"]
runner = CliRunner()


def path_of(name: str) -> Path:
    return HOUSE / f"{name}.yaml"


def load(name: str) -> Any:
    return amunre.load_rules(path_of(name))


def text(expression: Any) -> Any:
    """An expression of the flow as written: its constant value, else its canonical text."""
    return expression.constant if expression.constant is not NOT_CONSTANT else to_text(expression.tree)


def shape(flow: Any, index: int = 0) -> Any:
    """The flow's tree as plain data: a phase is its id, a sequence the list of its children
    (under its name, if it has one), a repeat and a branch a dict of what they say."""
    node = flow.nodes[index]
    if node.kind == "phase":
        return node.phase
    children = [shape(flow, child) for child in node.children]
    if node.kind == "sequence":
        return children if node.name is None else {"name": node.name, "sequence": children}
    if node.kind == "repeat":
        found = {"name": node.name, "repeat": children[0]}
        if node.times is not None:
            found["times"] = text(node.times)
        if node.until is not None:
            found["until"] = text(node.until)
        if len(children) > 1:
            found["between"] = children[1]
        return found
    found = {"branch": text(node.on), "cases": {value: shape(flow, case) for value, case in node.cases}}
    if node.otherwise >= 0:
        found["else"] = shape(flow, node.otherwise)
    return found


def ages_of_rounds(round_body: Any) -> list[Any]:
    """The 2016 flow (what its `structure:` stands for) with another round."""
    return [{"name": "age", "times": 2, "between": "new_age", "repeat": [
                {"name": "round", "times": 3, "repeat": round_body},
                ["scoring_cards", "age_scoring"]]},
            {"name": "game_end", "sequence": ["last_sales", "final_scoring"]}]


def play(rules: Any, players: int, seed: int, options: dict[str, str] | None = None,
         after: Any = None) -> amunre.Game:
    """A game of seeded random agents (as conftest's play_random), with options."""
    game = amunre.new_game(rules, players=players, seed=seed, setup={"options": options} if options else None)
    agents = random_agents(seed, players)
    while not game.over:
        game.apply(agents[game.to_move].choose(game, game.legal_actions()))
        if after is not None:
            after(game)
        assert len(game.log) < 100_000
    return game


def reader(rules: Any, text: str) -> Any:
    """A DSL expression of no seat, compiled against the rules' names: it must be a number."""
    found: list[Any] = []
    compiled = Dsl(rules.vocab, lambda *problem: found.append(problem)).expression(text, NO_SEAT)
    assert found == [] and compiled.type == NUM, (text, found)
    return lambda game: compiled.fn(Ctx(game, None))


def phases_run(game: amunre.Game) -> list[tuple[str, int, int]]:
    return [(e["phase"], e["age"], e["round"]) for e in game.log if e["event"] == "phase"]


def by_round(game: amunre.Game) -> dict[tuple[int, int], list[dict[str, Any]]]:
    """The log's events from each (age, round)'s first phase on, by (age, round)."""
    found: dict[tuple[int, int], list[dict[str, Any]]] = defaultdict(list)
    now = (0, 0)
    for event in game.log:
        if event["event"] in ("phase", "skip"):
            now = (event["age"], event["round"])
        found[now].append(event)
    return found


# ---- every one of them ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", STRUCTURAL)
def test_a_short_commented_overlay_with_a_slug_id(name: str) -> None:
    text = path_of(name).read_text(encoding="utf-8")
    lines = text.split("\nexamples:")[0].splitlines()        # the rule itself; its worked examples follow
    while lines and (not lines[-1].strip() or lines[-1].startswith("#")):
        lines.pop()                                           # the comment that opens the examples
    assert len(lines) <= 30
    assert lines[0].startswith("# House rule: ") and sum(line.startswith("#") for line in lines) >= 5
    assert "extends: knizia2016" in lines
    rules = load(name)
    assert re.fullmatch(r"house(-[a-z0-9]+)+", rules.id)


@pytest.mark.parametrize("name", STRUCTURAL)
def test_it_lints_clean_and_its_diff_is_short(name: str) -> None:
    result = runner.invoke(app, ["validate", "--strict", str(path_of(name))])
    assert result.exit_code == 0 and result.output.splitlines() == [ok_line(path_of(name))], result.output
    result = runner.invoke(app, ["diff", "knizia2016", str(path_of(name))])
    assert result.exit_code == 1, result.output                 # the rules differ
    changed = [line for line in result.output.splitlines() if line.startswith("  ")]
    assert 3 <= len(changed) <= 15, result.output       # a phase moved: a line out, a line in
    assert all(len(line) <= 200 for line in changed), result.output
    assert any(key in result.output for key in ("order of play", "+ end_if:", "~ round:")), result.output


@pytest.mark.parametrize("name", STRUCTURAL)
@pytest.mark.parametrize("agent, seeds", [("random", (0, 1, 2)), ("heuristic", (3, 4))])
def test_it_plays_to_the_end(name: str, agent: str, seeds: tuple[int, ...]) -> None:
    rules = load(name)
    for seed in seeds:
        players = 3 + seed % 3
        agents = [make_agent(agent, seed * 10 + seat) for seat in range(players)]
        game = amunre.new_game(rules, players=players, seed=seed, events=False)
        actions = 0
        while not game.over:
            game.apply_id(agents[game.to_move].choose_id(game, game.legal_action_ids()))
            actions += 1
            assert actions < 3000, f"{name}, seed {seed}: no end"
        result = game.result()
        assert result["over"] and len(result["scores"]) == players and result["winners"]


# ---- (a) provinces auctioned one at a time, once around ----------------------------------------------

def test_each_province_is_auctioned_by_itself_once_around() -> None:
    rules = load("once_around_auction")
    lots = {"name": None, "times": "players", "repeat": ["turn_lot", "auction", "pass_on"]}
    assert shape(rules.flow) == ages_of_rounds([lots, "market", "offering", "harvest", "harvest_temples"])
    auction = rules.phases["auction"]
    assert auction.style == "once_around" and not auction.to_seller        # paid to the bank


def test_the_auction_events_of_a_once_around_lot_auction() -> None:
    """Each lot is the province just turned; every seat bids once or declines, from the start
    player's left, the start player last, each bid above the best; the best bid wins and is
    paid to the bank (nobody bidding: the start player takes it for nothing); the start
    passes on after each lot, and is back where it was after a round's lots."""
    rules = load("once_around_auction")
    for seed, players in ((1, 3), (2, 4), (3, 5)):
        game = play_random(rules, players, seed)
        log = game.log
        assert not any(e["event"] in ("lots", "bid", "won") for e in log)     # no bid track
        sold = 0
        for at, event in enumerate(log):
            if event["event"] != "auctioned":
                continue
            turned = next(e for e in reversed(log[:at]) if e["event"] == "turned")
            seller = event["seller"]
            assert event["style"] == "once_around" and event["lot"] == [turned["card"]]
            end = next(i for i in range(at, len(log)) if log[i]["event"] == "sold")
            says = [e for e in log[at:end] if e["event"] in ("offered", "declined")]
            assert [e["seat"] for e in says] == [(seller + i) % players for i in range(1, players + 1)]
            bids = [e["amount"] for e in says if e["event"] == "offered"]
            assert bids == sorted(set(bids))                                   # each above the best
            best = max((e for e in says if e["event"] == "offered"), key=lambda e: e["amount"], default=None)
            assert log[end] == {"event": "sold", "seat": seller if best is None else best["seat"],
                                "lot": event["lot"], "price": 0 if best is None else best["amount"], "to": None}
            sold += 1
        assert sold == 2 * 3 * players                                          # every province card, each age
        for key, events in by_round(game).items():
            sellers = [e["seller"] for e in events if e["event"] == "auctioned"]
            passed = [e["seat"] for e in events if e["event"] == "start_player" and e["cause"]["id"] == "pass_on"]
            if key != (0, 0):
                assert sellers == [(sellers[0] + i) % players for i in range(players)]
                assert passed == sellers[1:] + sellers[:1]


# ---- (b) the game ends when a seat reaches a score ------------------------------------------------

def test_the_game_ends_after_a_round_by_an_option() -> None:
    rules, base = load("race_to_score"), amunre.load_rules(REPO / "rules" / "knizia2016.yaml")
    assert shape(rules.flow) == shape(base.flow) and base.flow.end_if is None
    flow = rules.flow
    assert flow.nodes[flow.end_after].name == "round" and flow.nodes[flow.end_then].name == "game_end"
    assert "option.race_to" in text(flow.end_if)
    assert rules.options["race_to"].default == "vp15"


def vp_after_first_age(game: amunre.Game) -> int:
    """The best score when the first age is over (points come only at an age's end)."""
    points = [0] * game.state.players
    for event in game.log:
        if event["event"] == "phase" and event["age"] == 2:
            break
        if event["event"] == "gain" and event["resource"] == "vp":
            points[event["seat"]] += event["amount"]
    return max(points)


@pytest.mark.parametrize("race_to, threshold", [("vp10", 10), ("vp15", 15)])
def test_a_game_ends_early_when_a_seat_reaches_the_score(race_to: str, threshold: int) -> None:
    """With the score reached after the first age, the first round of the second age is the
    last: the game goes on at its end (last sales, final scoring) as a `game_ends` event says,
    having played just what the 2016 game plays until then; otherwise it is the 2016 game."""
    rules, base = load("race_to_score"), amunre.load_rules(REPO / "rules" / "knizia2016.yaml")
    early = full = 0
    for seed in range(12):
        players = 3 + seed % 3
        game, whole = play(rules, players, seed, {"race_to": race_to}), play(base, players, seed)
        ran, ends = phases_run(game), [e for e in game.log if e["event"] == "game_ends"]
        if vp_after_first_age(whole) >= threshold:
            early += 1
            assert ends == [{"event": "game_ends", "after": "round"}]
            cut = ran.index(("harvest", 2, 1)) + 1
            assert ran[:cut] == phases_run(whole)[:cut]
            assert [phase for phase, _, _ in ran[cut:]] == ["last_sales", "final_scoring"]
            assert max(game.result()["scores"]) >= threshold
        else:
            full += 1
            assert ends == [] and ran == phases_run(whole)
            assert game.result() == whole.result()
    assert early >= 2 and full >= 2                  # the seeds show both


def test_a_score_out_of_reach_plays_the_whole_game() -> None:
    rules = load("race_to_score")
    game = play(rules, 4, 1, {"race_to": "vp20"})
    assert not any(e["event"] == "game_ends" for e in game.log)
    assert sum(e["event"] in ("phase", "skip") for e in game.log) == 37       # the whole 2016 game


# ---- (d) no offering once the province deck is empty ----------------------------------------------

def test_a_branch_runs_the_offering() -> None:
    rules = load("no_offering_on_empty_deck")
    branch = {"branch": "provinces.left > 0", "cases": {True: "offering"}}
    assert shape(rules.flow) == ages_of_rounds(["auction", "market", branch, "harvest", "harvest_temples"])


def deck_at_decisions(rules: Any, players: int, seed: int) -> tuple[amunre.Game, dict[tuple[int, int], set[int]]]:
    """A random game, and the sizes of its province deck at the decisions after each auction."""
    seen: dict[tuple[int, int], set[int]] = defaultdict(set)

    def look(game: amunre.Game) -> None:
        if not game.over and game.step.phase in ("market", "offering", "harvest"):
            seen[(game.step.age, game.step.round)].add(len(game.state.decks["provinces"]))
    return play(rules, players, seed, after=look), seen


def test_no_offering_events_while_the_province_deck_is_empty() -> None:
    """The deck is followed through the log (each auction's lots leave it, each new age fills it
    again) and checked against the game's own deck at every decision after an auction: no round
    whose auction emptied it has an offering, every other round has one."""
    rules = load("no_offering_on_empty_deck")
    for seed, players in ((1, 3), (2, 4), (3, 5)):
        game, seen = deck_at_decisions(rules, players, seed)
        left = {}                                      # (age, round): the cards left after its auction
        deck = 3 * players
        for key, events in sorted(by_round(game).items()):
            for event in events:
                if event["event"] == "reset":
                    deck = 3 * players
                if event["event"] == "lots":
                    deck -= len(event["lots"])
                    left[key] = deck
        assert len(seen) >= 5
        for key, sizes in seen.items():
            assert sizes == {left[key]}, key
        offered = {key for key, events in by_round(game).items()
                   if any(e["event"] in ("reveal", "settled", "reward") or e.get("phase") == "offering"
                          for e in events)}
        assert offered == {key for key, size in left.items() if size > 0}
        assert {key for key, size in left.items() if size == 0} == {(1, 3), (2, 3)}


def test_a_deck_left_reads_the_cards_left_to_draw() -> None:
    """`DECK.left`, for every deck, is the size of its draw pile at every decision of a game
    (each auction draws from the province deck, each age fills it again; favor cards are drawn
    and reshuffled), read through the DSL as a number."""
    rules = amunre.load_rules(REPO / "rules" / "knizia2016.yaml")
    decks = {deck: reader(rules, f"{deck}.left") for deck in ("provinces", "favor", "theft")}
    sizes: dict[str, set[int]] = defaultdict(set)

    def look(game: amunre.Game) -> None:
        for deck, left in decks.items():
            assert left(game) == len(game.state.decks[deck]), deck
            sizes[deck].add(left(game))
    play(rules, 4, 2, after=look)
    assert sizes["provinces"] >= {0, 4, 8} and len(sizes["favor"]) > 3


def test_a_deck_left_is_checked_like_every_name(tmp_path: Path) -> None:
    rules = amunre.load_rules(REPO / "rules" / "knizia2016.yaml")
    found: list[Any] = []
    Dsl(rules.vocab, lambda *problem: found.append(problem)).expression("provinces.size > 0", NO_SEAT)
    assert [(message, hint) for message, _, hint in found] == [
        ("unknown name 'provinces.size'", "did you mean 'provinces.left'?")]
    path = tmp_path / "clash.yaml"                  # a deck named as a phase: `market.left` or `market.bought`?
    path.write_text(f"extends: {REPO / 'rules' / 'knizia2016.yaml'}\ndecks:\n  market: {{hidden: false}}\n",
                    encoding="utf-8")
    with pytest.raises(amunre.RulesError, match="'market' names a phase too"):
        amunre.load_rules(path)


# ---- (e) the offering before the auction ------------------------------------------------------------

def replaced(tree: Any, old: Any, new: Any) -> Any:
    """The tree with each part equal to `old` replaced by `new`."""
    if tree == old:
        return new
    if isinstance(tree, list):
        return [replaced(part, old, new) for part in tree]
    if isinstance(tree, dict):
        return {key: replaced(part, old, new) for key, part in tree.items()}
    return tree


def test_the_offering_opens_the_round() -> None:
    """`structure:` with its round reordered: the 2016 tree, but for the round's phases."""
    rules, base = load("offering_first"), amunre.load_rules(REPO / "rules" / "knizia2016.yaml")
    before = ["auction", "market", "offering", "harvest", "harvest_temples"]
    after = ["offering", "auction", "market", "harvest", "harvest_temples"]
    assert shape(rules.flow) == replaced(shape(base.flow), before, after) != shape(base.flow)


def test_the_seat_that_offered_most_opens_the_auction_of_the_same_round() -> None:
    """Each round's offering comes first and sets the start player, who bids first in that
    round's auction; the first offering, with no province owned, rewards favor cards only."""
    rules = load("offering_first")
    for seed, players in ((1, 3), (2, 4), (3, 5)):
        game = play_random(rules, players, seed)
        rounds = by_round(game)
        assert len(rounds) == 7                          # the set-up, then 2 ages of 3 rounds
        for (age, round_), events in rounds.items():
            if not age:
                continue
            order = [e["phase"] for e in events if e["event"] == "phase"][:4]
            assert order == ["offering", "auction", "market", "harvest"], (age, round_)
            settled = next(e for e in events if e["event"] == "settled")
            first_bid = next(e for e in events if e["event"] == "bid")
            assert first_bid["seat"] == settled["start_player"]
        rewards = [e for e in rounds[(1, 1)] if e["event"] == "reward"]
        assert rewards and all(e["good"] == "favor" for e in rewards)


# ---- (c) the market goes round until every seat passes ---------------------------------------------

def test_the_market_repeats_until_nobody_buys() -> None:
    rules = load("market_until_all_pass")
    market = {"name": None, "repeat": "market", "until": "market.bought == 0"}
    assert shape(rules.flow) == ages_of_rounds(["auction", market, "offering", "harvest", "harvest_temples"])
    repeat = next(node for node in rules.flow.nodes if node.kind == "repeat" and node.until is not None)
    assert not repeat.check_before                  # checked after each run: the market runs at least once


def market_runs(game: amunre.Game) -> dict[tuple[int, int], list[int]]:
    """Each round's runs of the market, each as the items its `buy` events sold."""
    runs: dict[tuple[int, int], list[int]] = defaultdict(list)
    selling = None
    for event in game.log:
        if event["event"] in ("phase", "skip"):
            selling = None
            if event["event"] == "phase" and event["phase"] == "market":
                selling = runs[(event["age"], event["round"])]
                selling.append(0)
        elif event["event"] == "buy" and selling is not None:
            selling[-1] += event["count"]
    return runs


def bought_matches_the_log(rules: Any) -> Any:
    """A check for `play(after=...)`: at every decision `market.bought` is what the market's
    latest run has sold so far by the log (0 before the first market)."""
    bought = reader(rules, "market.bought")

    def look(game: amunre.Game) -> None:
        runs = market_runs(game)
        latest = runs[max(runs)][-1] if runs else 0
        assert bought(game) == latest, (game.step.phase, game.step.age, game.step.round)
    return look


@pytest.mark.parametrize("agent", ["random", "heuristic"])
def test_a_market_that_sold_runs_again_and_one_that_sold_nothing_ends(agent: str) -> None:
    """Every round's market runs until a run that sold nothing: each run but the last sold
    something, the last sold nothing, and then the offering comes; some rounds run it more
    than once. `market.bought` follows the sales of the latest run throughout."""
    rules = load("market_until_all_pass")
    again = 0
    for seed, players in ((1, 3), (2, 4), (3, 5)):
        game = amunre.new_game(rules, players=players, seed=seed)
        agents = [make_agent(agent, seed * 10 + seat) for seat in range(players)]
        look = bought_matches_the_log(rules)
        while not game.over:
            game.apply_id(agents[game.to_move].choose_id(game, game.legal_action_ids()))
            look(game)
        runs = market_runs(game)
        assert sorted(runs) == [(age, round_) for age in (1, 2) for round_ in (1, 2, 3)]
        for key, sold in runs.items():
            assert sold[-1] == 0 and all(sold[:-1]), (seed, key, sold)
            again += len(sold) > 1
        ran = [phase for phase, _, _ in phases_run(game)]
        assert all(ran[at + 1] in ("market", "offering") for at, phase in enumerate(ran) if phase == "market")
    assert again >= 6


def test_the_2016_market_keeps_what_it_sold_and_runs_once() -> None:
    """In the 2016 game the market keeps `market.bought` as well, and runs once a round."""
    rules = amunre.load_rules(REPO / "rules" / "knizia2016.yaml")
    game = play(rules, 4, 5, after=bought_matches_the_log(rules))
    runs = market_runs(game)
    assert len(runs) == 6 and all(len(sold) == 1 for sold in runs.values())
    assert any(sold != [0] for sold in runs.values())


# ---- docs/house-rule-in-5-minutes.md ------------------------------------------------------------

TUTORIAL = REPO / "docs" / "house-rule-in-5-minutes.md"


def test_the_tutorials_flow_example_loads_and_names_the_shipped_rules(tmp_path: Path) -> None:
    doc = TUTORIAL.read_text(encoding="utf-8")
    found = re.search(r"<!-- test: house-rule-flow file=(\S+) -->\n```yaml\n(.*?)^```", doc, re.S | re.M)
    assert found is not None
    path = tmp_path / found[1]
    path.parent.mkdir(parents=True)
    path.write_text(found[2], encoding="utf-8")
    rules = amunre.load_rules(path)
    flow = rules.flow
    assert rules.id == "race-to-25" and text(flow.end_if) == "any(seats, vp >= 25)"
    assert flow.nodes[flow.end_after].name == "round" and flow.nodes[flow.end_then].name == "game_end"
    assert play_random(rules, 3, 1).over
    named = set(re.findall(r"^\| `(\w+)\.yaml` \|", doc, re.M))
    assert named == set(STRUCTURAL)
