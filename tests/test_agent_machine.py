"""The bots look ahead on the compiled engine with the interpreter's numbers (issue 33): on
positions of every shipped rules file, what each action is worth on a guess is the same float on
both engines, for greedy's weights and for weights that count places, tokens and the start
player; and whole games of the bots are the same games on both.

The search bot plays its iterations there too (tools/agents/machine_search.py): a guess stepped
on the machine has the interpreter's legal ids and its seats' worths are value.py's floats; and
where the machine stops or cannot take a guess, the decision is searched again in the
interpreter from the same generator state, so it is still the same choice.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from amunre import load_rules, new_game
from amunre.interpreter.compiled import ops
from amunre.interpreter.compiled.core import MachineStop
from amunre.interpreter.game import Game
from amunre.tools.agents import make_agent
from amunre.tools.agents.heuristic import STYLES, HeuristicAgent, keeps_secret, spread
from amunre.tools.agents.ismcts import IsmctsAgent
from amunre.tools.agents.machine_generator import MachineGenerator
from amunre.tools.agents.machine_guesses import MachineGuesses, MachinePosition, Unplayable, position
from amunre.tools.agents.machine_lookahead import NO_GUESSES, Lookahead, lookahead
from amunre.tools.agents.machine_search import MachineSearch, machine_search
from amunre.tools.agents.value import values
from amunre.tools.determinize import Guesses

RULES = sorted(str(p) for p in Path(__file__).parent.parent.joinpath("rules").rglob("*.yaml"))
SPECS = ("greedy", "heuristic:style=build,noise=0,temperature=0,start=1.5,samples=2")


def positions(rules_path: str, seed: int, count: int) -> list[Game]:
    """Positions of a random game, every few actions."""
    rules = load_rules(rules_path)
    players = min(max(rules.min_players, 4), rules.max_players)
    game = new_game(rules, players=players, seed=seed, events=False)
    rng, found = random.Random(seed), []
    while not game.over and len(found) < count:
        if rng.random() < 0.15:
            found.append(game.clone(events=False))
        game.apply_id(rng.choice(game.legal_action_ids()))
    return found


def worths_both(agent: HeuristicAgent, game: Game, seed: int) -> tuple[list, list | None]:
    """The interpreter's worths of every action on a guess, and the machine's (None: it declined)."""
    seat, step = game.to_move, game.state.step
    assert seat is not None
    ids = spread(game, game.legal_action_ids())
    secret = keeps_secret(game)
    guessing = Guesses(game, seat)
    guess = guessing.draw(random.Random(seed))
    machine = lookahead(game.rules, compile=True)
    assert machine is not None
    found = machine.worths(guess, ids, seat, agent.weights, secret, seed, guessing)
    agent.engine = "interpreter"
    return agent._worths(guess, ids, seat, step, secret, seed), found


@pytest.mark.parametrize("rules_path", RULES, ids=lambda p: Path(p).stem)
@pytest.mark.parametrize("spec", SPECS)
def test_the_machine_values_as_the_interpreter(rules_path: str, spec: str) -> None:
    valued = 0
    for n, game in enumerate(positions(rules_path, 7, 12)):
        agent = make_agent(spec, n)
        theirs, machine = worths_both(agent, game, 1000 + n)
        if machine is None:                 # the machine stopped on this guess: the interpreter values it
            continue
        assert machine == theirs, f"position {n} ({game.step.phase}): {machine} != {theirs}"
        valued += 1
    assert valued >= 6                      # the machine valued most of them, not the interpreter alone


def play(rules_path: str, spec: str, seed: int, engine: str) -> list[int]:
    rules = load_rules(rules_path)
    players = min(max(rules.min_players, 3), rules.max_players)
    game = new_game(rules, players=players, seed=seed, events=False)
    bots = [make_agent(spec, seed * 10 + seat) for seat in range(players)]
    for bot in bots:
        bot.engine = engine
    while not game.over:
        seat = game.to_move
        assert seat is not None
        game.apply_id(bots[seat].choose_id(game, game.legal_action_ids()))
    return game.history


@pytest.mark.parametrize("name", ["knizia2016", "knizia2003", "modern-art"])
def test_whole_games_are_the_same_on_both_engines(name: str) -> None:
    path = str(Path(__file__).parent.parent / "rules" / f"{name}.yaml")
    spec = "heuristic:samples=2"                # noise and temperature: the bot's own draws interleave
    assert play(path, spec, 3, "compiled") == play(path, spec, 3, "interpreter")


def test_a_bot_left_to_itself_never_compiles(monkeypatch: pytest.MonkeyPatch) -> None:
    """`engine = "auto"` (a bot's default, as `amunre run` makes it) uses the machine code only
    where it is kept already: a cold compile (a minute) is longer than a game or two."""
    from weakref import WeakKeyDictionary

    from amunre.interpreter.compiled import hubs
    from amunre.tools.agents import machine_lookahead
    monkeypatch.setattr(machine_lookahead, "_LOOKAHEADS", WeakKeyDictionary())
    monkeypatch.setattr(hubs, "missing", lambda names: list(names))
    monkeypatch.setattr(machine_lookahead, "compiled", lambda *_: pytest.fail("compiled for a bot left to itself"))
    rules = load_rules(RULES[0])
    assert lookahead(rules) is None
    game = new_game(rules, players=3, seed=1, events=False)
    for spec in ("greedy", "ismcts:iterations=4"):
        bot = make_agent(spec, 1)
        assert bot.engine == "auto"
        bot.choose_id(game, game.legal_action_ids())    # looks ahead in the interpreter, compiles nothing



def test_a_search_left_to_itself_never_compiles_its_whole_decisions(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the lookahead kept but the search's part not, an `auto` search steps its guesses
    from Python: the part's compile (about 13 s) is left to a study."""
    from weakref import WeakKeyDictionary

    from amunre.interpreter.compiled import hubs
    from amunre.tools.agents import machine_search as searching
    look = lookahead(load_rules("knizia2016"), compile=True)
    assert look is not None
    monkeypatch.setattr(searching, "_SEARCHES", WeakKeyDictionary())
    monkeypatch.setattr(hubs, "missing", lambda names: [n for n in names if n == "search"])
    monkeypatch.setattr(hubs, "prepare", lambda *_: pytest.fail("compiled for a search left to itself"))
    assert machine_search(look) is None


def test_a_secret_lookahead_without_room_for_its_generator_stops() -> None:
    """The lookahead keeps the bot's seeded generator in MT's second row: given one row, it
    stops (the bot then values that guess in the interpreter) instead of writing past it; and
    drawing guesses reads the bot's own generator from a third row: given two, it stops too."""
    import numpy as np

    from amunre.interpreter.compiled.mt19937 import MT_WORDS
    from amunre.interpreter.compiled.pack import pack
    from amunre.tools.agents.value import WEIGHT_NAMES

    rules = load_rules("knizia2016")
    machine = lookahead(rules, compile=True)
    assert machine is not None
    game = new_game(rules, players=4, seed=1, events=False)
    S, _ = pack(game, machine.machine.lowering, machine.machine.T)
    ids = np.asarray(game.legal_action_ids()[:1], dtype=np.int64)
    W = np.ones(len(WEIGHT_NAMES), dtype=np.float64)
    with pytest.raises(MachineStop):
        machine.part(S, machine.machine.M, machine.machine.R, machine.rows, ids, np.empty(1), W, machine.F,
                     machine.B, 0, 1, 5, np.zeros((1, MT_WORDS), dtype=np.uint32), machine.Q, *NO_GUESSES)
    guess_rows = np.zeros((2, S.shape[0]), dtype=np.int64)         # guesses to draw, and no row for the bot's generator
    with pytest.raises(MachineStop):
        machine.part(S, machine.machine.M, machine.machine.R, machine.rows, ids, np.empty(1), W, machine.F,
                     machine.B, 0, 1, 5, np.zeros((2, MT_WORDS), dtype=np.uint32), machine.Q, np.zeros(2, np.int64),
                     np.zeros(8, np.int64), guess_rows)

@pytest.mark.parametrize("name,spec", [("knizia2016", "ismcts:iterations=12"),
                                       ("knizia2003", "ismcts:iterations=12,style=build"),
                                       ("modern-art", "ismcts:iterations=12"),
                                       ("knizia2016", "ismcts:iterations=6,horizon=0")])
def test_whole_games_of_the_search_are_the_same_on_both_engines(name: str, spec: str) -> None:
    """horizon=0 plays every iteration to the end: the winners are read from the machine."""
    path = str(Path(__file__).parent.parent / "rules" / f"{name}.yaml")
    assert play(path, spec, 5, "compiled") == play(path, spec, 5, "interpreter")


@pytest.mark.parametrize("rules_path", RULES, ids=lambda p: Path(p).stem)
def test_a_guess_on_the_machine_steps_and_values_as_the_interpreter(rules_path: str) -> None:
    rules = load_rules(rules_path)
    look = lookahead(rules, compile=True)
    if look is None:
        pytest.skip("the machine does not look ahead on these rules")
    compared = 0
    for n, game in enumerate(positions(rules_path, 11, 8)):
        seat = game.to_move
        assert seat is not None
        guesses = Guesses(game, seat)
        guess = guesses.draw(random.Random(n))
        try:
            machine = position(look, guess, guesses)
        except Unplayable:
            continue
        rng = random.Random(100 + n)
        for _ in range(10):             # the same ids as the guess, step by step, then the worths
            if guess.over:
                break
            ids = guess.legal_action_ids()
            assert machine.legal_action_ids() == ids and machine.to_move == guess.to_move
            action = rng.choice(ids)
            guess.apply_id(action)
            machine.apply_id(action)
        assert machine.over == guess.over
        for style in ("balanced", "build"):
            assert machine.worths(STYLES[style]) == values(guess, STYLES[style]), f"position {n}, {style}"
        compared += 1
    assert compared >= 4                # the machine took most guesses, not none


@pytest.mark.parametrize("rules_path", RULES, ids=lambda p: Path(p).stem)
def test_a_kept_row_stepped_on_is_the_position_packed(rules_path: str) -> None:
    """The lookahead keeps a game's row and steps it on by the actions taken since
    (Lookahead.position) instead of packing the position at every decision: the row is the
    pack, number for number (a study's pick counts, which the pack leaves out, set to 0)."""
    from amunre.interpreter.compiled.pack import pack

    rules = load_rules(rules_path)
    look = lookahead(rules, compile=True)
    if look is None:
        pytest.skip("the machine does not look ahead on these rules")
    players = min(max(rules.min_players, 4), rules.max_players)
    game = new_game(rules, players=players, seed=8, events=False)
    rng, stepped = random.Random(8), 0
    while not game.over and len(game.history) < 400:
        if rng.random() < 0.3:                  # a few actions between two looks, as between a bot's turns
            kept = look.kept.get(game)
            before = kept.done if kept is not None else None
            row, _ = look.position(game)
            packed, _ = pack(game, look.machine.lowering, look.machine.T)
            assert row.tolist() == packed.tolist(), f"after {len(game.history)} actions ({game.step.phase})"
            stepped += before is not None and before < len(game.history)
        game.apply_id(rng.choice(game.legal_action_ids()))
    assert stepped >= 5


def secret_positions(rules_path: str, seed: int, count: int) -> list[Game]:
    """Positions of a random game where a seat decides while others' secret choices are made
    (an offer, a sealed bid) or wait to be: the guesses draw those again."""
    found = []
    for game in positions(rules_path, seed, 400):
        seat = game.to_move
        if seat is not None and not Guesses(game, seat).cards_only():
            found.append(game)
    return found[:count]


@pytest.mark.parametrize("rules_path", RULES, ids=lambda p: Path(p).stem)
def test_guesses_drawn_on_the_machine_are_the_interpreters(rules_path: str) -> None:
    """Guesses the machine draws whole (compiled/guess.py: cards, a phase's secret choices
    made again, a generator) are the rows of the interpreter's guesses from the same
    generator state, and leave the generator where Guesses.draw leaves it, on positions where
    secret choices are made again and on others."""
    rules = load_rules(rules_path)
    look = lookahead(rules, compile=True)
    if look is None:
        pytest.skip("the machine does not look ahead on these rules")
    redone = drawn = 0
    for n, game in enumerate(secret_positions(rules_path, 19, 6) + positions(rules_path, 23, 4)):
        seat = game.to_move
        assert seat is not None
        guesses = Guesses(game, seat)
        drawing = MachineGuesses(look, guesses)
        mine, theirs = MachineGenerator(random.Random(n)), random.Random(n)
        if not drawing.whole() or look.decide(drawing.base, drawing.deal_table, seat, [], STYLES["balanced"], False,
                                              3, mine.machine()) is None:
            assert mine.python().getstate() == theirs.getstate()     # untouched: the bot draws in Python
            continue
        for k in range(3):
            packed, _ = look.packed(guesses.draw(theirs), guesses)
            assert look.guess_rows[3][k].tolist() == packed.tolist(), f"position {n} ({game.step.phase}), guess {k}"
        [theirs.getrandbits(32) for _ in range(3)]          # a seed per guess, as the bot draws them
        assert mine.python().getstate() == theirs.getstate()
        drawn += 1
        redone += drawing.redoes
    if "knizia2016" in rules_path or "modern-art" in rules_path:
        assert redone >= 2 and drawn >= 5          # offers (sealed bids) drawn again, and cards alone


@pytest.mark.parametrize("rules_path", RULES, ids=lambda p: Path(p).stem)
@pytest.mark.parametrize("spec", SPECS)
def test_a_decision_drawn_whole_on_the_machine_is_the_bots(rules_path: str, spec: str) -> None:
    """The one-step bots' guesses drawn and valued in one call are the worths the bot finds
    drawing its guesses in the interpreter, guess by guess, and its generator ends where
    that leaves it."""
    rules = load_rules(rules_path)
    look = lookahead(rules, compile=True)
    if look is None:
        pytest.skip("the machine does not look ahead on these rules")
    whole = 0
    for n, game in enumerate(secret_positions(rules_path, 29, 4) + positions(rules_path, 31, 6)):
        seat = game.to_move
        assert seat is not None
        agent = make_agent(spec, n)
        assert isinstance(agent, HeuristicAgent)
        ids, secret = spread(game, game.legal_action_ids()), keeps_secret(game)
        samples = agent.samples if secret else 1
        agent.rng = random.Random(n)
        found = agent._machine_worths(Guesses(game, seat), ids, secret, samples)
        mine = agent.rng.getstate()
        agent.engine, agent.rng = "interpreter", random.Random(n)
        guessing = Guesses(game, seat)
        guesses = [guessing.draw(agent.rng) for _ in range(samples)]
        seeds = [agent.rng.getrandbits(32) for _ in guesses]
        if found is None:
            assert mine == random.Random(n).getstate()
            continue
        theirs = [agent._worths(guess, ids, seat, game.state.step, secret, seed) for guess, seed in zip(guesses, seeds)]
        assert found == theirs, f"position {n} ({game.step.phase})"
        assert mine == agent.rng.getstate()
        whole += 1
    if "knizia2016" in rules_path:
        assert whole >= 8


def _choice(engine: str, game: Game, seed: int) -> tuple[int, tuple]:
    bot = make_agent("ismcts:iterations=20", seed)
    assert isinstance(bot, IsmctsAgent)
    bot.engine = engine
    chosen = bot.choose_id(game, game.legal_action_ids())
    return chosen, bot.rng.getstate()


def _decision() -> Game:
    game = new_game(load_rules("knizia2016"), players=4, seed=4, events=False)
    rng = random.Random(4)
    for _ in range(30):
        game.apply_id(rng.choice(game.legal_action_ids()))
    while len(game.legal_action_ids()) == 1:          # a choice to search
        game.apply_id(game.legal_action_ids()[0])
    return game


def test_a_machine_stop_searches_the_decision_again_in_the_interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("amunre.tools.agents.machine_search.machine_search", lambda *_, **__: None)    # guesses stepped
    game = _decision()
    expected = _choice("interpreter", game, 9)
    steps = 0
    step = MachinePosition.apply_id

    def stopping(self: MachinePosition, action_id: int) -> None:
        nonlocal steps
        steps += 1
        if steps == 40:                 # well into the search: the tree has grown, the generator moved on
            raise MachineStop("a rule the machine stops at")
        step(self, action_id)

    monkeypatch.setattr(MachinePosition, "apply_id", stopping)
    assert _choice("compiled", game, 9) == expected
    assert steps == 40


def test_a_guess_the_machine_cannot_take_is_searched_in_the_interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("amunre.tools.agents.machine_search.machine_search", lambda *_, **__: None)
    game = _decision()
    expected = _choice("interpreter", game, 3)
    taken = 0
    draw = MachineGuesses.draw

    def unplayable(self: MachineGuesses, rng: random.Random) -> MachinePosition:
        nonlocal taken
        taken += 1
        if taken == 5:
            raise Unplayable("a region the machine cannot pack")
        return draw(self, rng)

    monkeypatch.setattr(MachineGuesses, "draw", unplayable)
    assert _choice("compiled", game, 3) == expected
    assert taken == 5


@pytest.mark.parametrize("rules_path", RULES, ids=lambda p: Path(p).stem)
@pytest.mark.parametrize("way", ["as drawn", "settled by the interpreter"])
def test_a_guess_drawn_into_the_row_is_the_guess_packed(rules_path: str, way: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A guess written straight into the machine's row (or, where working its decision out ran
    on, settled by the interpreter from the same draws) is the row of the interpreter's guess
    from the same generator, and leaves the generator where Guesses.draw leaves it."""
    rules = load_rules(rules_path)
    look = lookahead(rules, compile=True)
    if look is None:
        pytest.skip("the machine does not look ahead on these rules")
    if way != "as drawn":
        monkeypatch.setattr(MachineGuesses, "_row", lambda *_: None)
    straight = 0
    for n, game in enumerate(positions(rules_path, 13, 10)):
        seat = game.to_move
        assert seat is not None
        guesses = Guesses(game, seat)
        drawing = MachineGuesses(look, guesses)
        straight += drawing.base is not None
        for k in range(3):
            mine, theirs = random.Random(k), random.Random(k)
            try:
                row = drawing.draw(mine).S
                packed, _ = look.packed(guesses.draw(theirs), guesses)
            except Unplayable:
                continue
            assert row.tolist() == packed.tolist(), f"position {n} ({game.step.phase}), guess {k}"
            assert mine.getstate() == theirs.getstate()
    if "knizia2016" in rules_path:
        assert straight >= 5                 # most of its decisions draw cards only


@pytest.mark.parametrize("rules_path", RULES, ids=lambda p: Path(p).stem)
@pytest.mark.parametrize("spec", ["ismcts:iterations=12", "ismcts:iterations=5,horizon=0,c=1.5,style=build"])
def test_a_whole_decision_on_the_machine_is_the_searchs(rules_path: str, spec: str) -> None:
    """The search's decision made whole in machine code (interpreter/compiled/search.py) is the
    search's in Python, and leaves the bot's generator where that search leaves it."""
    rules = load_rules(rules_path)
    look = lookahead(rules, compile=True)
    if look is None:
        pytest.skip("the machine does not look ahead on these rules")
    whole = machine_search(look, compile=True)
    assert whole is not None
    decided = 0
    for n, game in enumerate(positions(rules_path, 17, 12)):
        ids = game.legal_action_ids()
        seat = game.to_move
        if len(ids) < 2 or seat is None:
            continue
        bot = make_agent(spec, n)
        assert isinstance(bot, IsmctsAgent)
        mine = random.Random(n)
        found = whole.decide(MachineGuesses(look, Guesses(game, seat)), ids, mine, bot.iterations, bot.c,
                             bot.horizon, bot.spread, bot.weights)
        if found is None:
            assert mine.getstate() == random.Random(n).getstate()       # untouched: the bot searches in Python
            continue
        bot.engine, bot.rng = "interpreter", random.Random(n)
        assert found == (bot.choose_id(game, ids), bot.iterations), f"position {n} ({game.step.phase})"
        assert mine.getstate() == bot.rng.getstate()
        decided += 1
    if "knizia2016" in rules_path:
        assert decided >= 4


def _first_auction() -> tuple[MachineSearch, MachineGuesses, Game]:
    """The machine's whole search of 2016, the guesses of a game's first decision (they draw
    only cards) with their row, and the game."""
    rules = load_rules("knizia2016")
    look = lookahead(rules, compile=True)
    assert look is not None
    whole = machine_search(look, compile=True)
    assert whole is not None
    game = new_game(rules, players=4, seed=2, events=False)
    assert game.to_move is not None
    drawing = MachineGuesses(look, Guesses(game, game.to_move))
    assert drawing.base is not None
    return whole, drawing, game


def test_a_decision_the_machine_cannot_search_whole_leaves_the_generator() -> None:
    """A guess whose decision, worked out again, ran on (here: a position row that does not
    agree with itself on the seat to move) ends the machine's search; the bot then searches in
    Python from the generator as it was."""
    whole, drawing, game = _first_auction()
    seat = drawing.guesses.seat
    assert drawing.base is not None
    drawing.base[ops.S_TO_MOVE] = (seat + 1) % 4
    rng = random.Random(5)
    bot = make_agent("ismcts:iterations=8", 1)
    assert isinstance(bot, IsmctsAgent)
    assert whole.decide(drawing, game.legal_action_ids(), rng, 8, bot.c, bot.horizon, bot.spread, bot.weights) is None
    assert rng.getstate() == random.Random(5).getstate()


def test_a_search_on_a_time_budget_goes_on_with_its_tree_call_after_call() -> None:
    """On a time budget the machine searches in chunks, the tree kept between calls (and grown
    when full): chunks that add up to a number of iterations are that search, and a deadline
    stops it between chunks with a legal choice."""
    whole, drawing, game = _first_auction()
    ids = game.legal_action_ids()
    bot = make_agent("ismcts", 1)
    assert isinstance(bot, IsmctsAgent)
    settings = (bot.c, bot.horizon, bot.spread, bot.weights)
    once, chunked = random.Random(7), random.Random(7)
    far = time.perf_counter() + 3600
    assert whole.decide(drawing, ids, once, 150, *settings) == \
        whole.decide(drawing, ids, chunked, 150, *settings, deadline=far, chunk=16)
    assert once.getstate() == chunked.getstate()
    found = whole.decide(drawing, ids, random.Random(7), 0, *settings, deadline=time.perf_counter() + 0.05)
    assert found is not None and found[0] in ids and found[1] >= 16


def test_a_search_on_a_time_budget_reads_the_clock_between_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first chunk always runs; then a chunk more each time the clock is read before the
    deadline: here a clock that moves one second a reading, and a deadline 2.5 s ahead."""
    from amunre.tools.agents import machine_search as searching
    whole, drawing, game = _first_auction()
    readings = iter(range(1000))
    monkeypatch.setattr(searching.time, "perf_counter", lambda: float(next(readings)))
    bot = make_agent("ismcts", 1)
    assert isinstance(bot, IsmctsAgent)
    found = whole.decide(drawing, game.legal_action_ids(), random.Random(3), 0, bot.c, bot.horizon, bot.spread,
                         bot.weights, deadline=2.5, chunk=5)
    assert found is not None and found[1] == 20           # the first chunk, then one after each of 0, 1, 2; 3 is past


def worths(look: Lookahead, game: Game) -> list | None:
    """What greedy's actions are worth on the position itself (as one guess of it)."""
    seat = game.to_move
    assert seat is not None
    return look.worths(game, spread(game, game.legal_action_ids()), seat, STYLES["balanced"], keeps_secret(game), 5)


def test_kept_forecasts_are_the_forecasts() -> None:
    """The machine keeps scoring phases' forecasts by what they read (tools/agents/machine_memo.py):
    what each action is worth on positions of every shipped file is the same float with the
    memo and without it, first as the memo fills and then from it; and the kept points are what
    is read (made wrong, the worths change), so the test would see a memo keyed on too little."""
    import dataclasses

    from amunre.interpreter.compiled.lookahead import Q_CAPACITY, Q_KEY, Q_TABLE

    kept_in = []
    for path in RULES:
        rules = load_rules(path)
        machine = lookahead(rules, compile=True)
        if machine is None:
            continue
        heads = len(machine.F) // 3
        if not (machine.Q[:heads] >= 0).any():
            continue
        kept_in.append(Path(path).stem)
        off = dataclasses.replace(machine, Q=machine.Q.copy())
        off.Q[:heads] = -1
        fresh = dataclasses.replace(machine, Q=machine.Q.copy())
        tables = min(int(machine.Q[int(memo) + Q_TABLE]) for memo in machine.Q[:heads] if memo >= 0)
        fresh.Q[tables:] = 0                        # the descriptions kept, the tables emptied
        games = positions(path, 3, 40)
        for _ in range(2):                          # filling the memo, then read from it
            for game in games:
                assert worths(fresh, game) == worths(off, game), path
        wrong = dataclasses.replace(fresh, Q=fresh.Q.copy())
        for f in range(heads):
            memo = int(wrong.Q[f])
            if memo >= 0:
                width = 2 + int(wrong.Q[memo + Q_KEY])
                table = int(wrong.Q[memo + Q_TABLE])
                for row in range(table, table + int(wrong.Q[memo + Q_CAPACITY]) * width, width):
                    if wrong.Q[row] != 0:
                        wrong.Q[row + 1] += 1000
        assert any(worths(wrong, game) != worths(off, game) for game in games), path
    assert {"knizia2016", "knizia2003", "pharaohs-heir"} <= set(kept_in)
