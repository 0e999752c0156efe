"""The one-step bots look ahead on the compiled engine with the interpreter's numbers (issue 33):
on positions of every shipped rules file, what each action is worth on a guess is the same
float on both engines, for greedy's weights and for weights that count places, tokens and the
start player; and whole games of the bots are the same games on both.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from amunre import load_rules, new_game
from amunre.interpreter.game import Game
from amunre.tools.agents import make_agent
from amunre.tools.agents.heuristic import HeuristicAgent, keeps_secret, spread
from amunre.tools.agents.machine_lookahead import lookahead
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
    bot = make_agent("greedy", 1)
    assert bot.engine == "auto"
    bot.choose_id(game, game.legal_action_ids())        # values in the interpreter, compiles nothing


def test_a_secret_lookahead_without_room_for_its_generator_stops() -> None:
    """The lookahead keeps the bot's seeded generator in MT's second row: given one row, it
    stops (the bot then values that guess in the interpreter) instead of writing past it."""
    import numpy as np

    from amunre.interpreter.compiled.core import MachineStop
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
                     machine.B, 0, 1, 5, np.zeros((1, MT_WORDS), dtype=np.uint32))
