"""The compiled engine against the interpreter and the hand-written reference engine: actions per
second of random four-player games of the 2016 rules, side by side in one run, on one core.

    python benchmarks/bench_compiled.py                        # 5 rounds
    python benchmarks/bench_compiled.py --games 300 --playouts 40000 --rounds 7
    python benchmarks/bench_compiled.py --no-openspiel         # without the backgammon line

  (a) interpreter   the interpreter through integer ids, no event log (its fastest way)
  (b) stepwise      the compiled engine called step by step from Python (new_game(engine="compiled"))
  (c) playouts      the compiled playout loop: whole games in machine code (play_random)
  (d) reference     the hand-written reference engine (benchmarks/reference/)
  (e) backgammon    OpenSpiel's C++ backgammon, random rollouts in C++ (for scale only: another game)

(a), (b) and (d) play the very same games (game `i` uses seed `--seed + i`, seat `s` chooses with
`random.Random(seed * 101 + s + 1)`, as bench_reference.py does): the table shows their actions
per game as a check. (c) plays the games `amunre simulate` plays with random agents (other seeds,
the same rules and agents), with nothing of Python between two actions. Rounds run the engines
one after the other (a b c d e, a b c d e, ...), so that a change in the machine's load hits
every engine; each ratio to (d) is the median of the rounds' ratios. The compile (or the load
of the kept machine code) is timed apart, before the first round. Measurements only: nothing
here asserts a speed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import amunre
from amunre.interpreter.compiled import play_random
from amunre.tools.simulate.seeds import game_seed

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reference  # benchmarks/reference/, beside this file (the path set just above)

RULES = Path(__file__).resolve().parent.parent / "rules" / "knizia2016.yaml"
PLAYERS = 4


def stepwise(make: Callable[[int], Any], seeds: range) -> int:
    """Play these games one action at a time from Python; the number of actions taken."""
    actions = 0
    for seed in seeds:
        pickers = [random.Random(seed * 101 + s + 1) for s in range(PLAYERS)]
        game = make(seed)
        while not game.over:
            game.apply_id(pickers[game.to_move].choice(game.legal_action_ids()))
            actions += 1
    return actions


def reference_games(seeds: range) -> int:
    actions = 0
    for seed in seeds:
        pickers = [random.Random(seed * 101 + s + 1) for s in range(PLAYERS)]
        ref = reference.Game(PLAYERS, seed)
        while not ref.over:
            ref.apply(pickers[ref.to_move].choice(ref.legal))
            actions += 1
    return actions


class Backgammon:
    """OpenSpiel's backgammon: random rollouts in its C++ (one MCTS simulation whose evaluator
    rolls out `rollouts` games from the first decision), and the mean length of a game."""

    def __init__(self, rollouts: int) -> None:
        import pyspiel
        self.game = pyspiel.load_game("backgammon")
        self.rollouts = rollouts
        self.start = self.game.new_initial_state()
        while self.start.is_chance_node():
            self.start.apply_action(self.start.chance_outcomes()[0][0])
        self.bot = pyspiel.MCTSBot(self.game, pyspiel.RandomRolloutEvaluator(rollouts, 1), 2.0, 1, 100, False, 1,
                                   False)
        self.length = self._mean_length(50)

    def _mean_length(self, games: int) -> float:
        chooser = random.Random(0)
        actions = 0
        for _ in range(games):
            state = self.game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, weights = zip(*state.chance_outcomes())
                    state.apply_action(chooser.choices(outcomes, weights)[0])
                else:
                    state.apply_action(chooser.choice(state.legal_actions()))
                actions += 1
        return actions / games

    def play(self) -> float:
        """The actions its rollouts took, about (rollouts x the mean game length)."""
        self.bot.step(self.start)
        return self.rollouts * self.length


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", "-n", type=int, default=300, help="games per round of (a), (b), (d) (default 300)")
    parser.add_argument("--playouts", type=int, default=20000, help="games per round of (c) (default 20000)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument("--no-openspiel", action="store_true", help="leave out OpenSpiel's backgammon")
    args = parser.parse_args(argv)

    rules = amunre.load_rules(RULES)
    started = time.perf_counter()
    amunre.new_game(rules, PLAYERS, 0, events=False, engine="compiled")
    play_random(rules, PLAYERS, [0])
    ready = time.perf_counter() - started
    print(f"rules: {RULES.name}, {PLAYERS} players, random agents, one core; compiled engine ready in {ready:.1f} s "
          f"(a compile, or a load of the kept machine code)")

    seeds = range(args.seed, args.seed + args.games)
    study_seeds = [game_seed(args.seed, i) for i in range(args.playouts)]
    engines: dict[str, Callable[[], float]] = {
        "(a) interpreter": lambda: stepwise(lambda s: amunre.new_game(rules, PLAYERS, s, events=False), seeds),
        "(b) stepwise": lambda: stepwise(lambda s: amunre.new_game(rules, PLAYERS, s, events=False,
                                                                    engine="compiled"), seeds),
        "(c) playouts": lambda: float(play_random(rules, PLAYERS, study_seeds).games[:, 2].sum()),
        "(d) reference": lambda: reference_games(seeds),
    }
    games = {"(c) playouts": args.playouts}
    if not args.no_openspiel:
        try:
            backgammon = Backgammon(max(args.games * 5, 100))
            engines["(e) backgammon"] = backgammon.play
            games["(e) backgammon"] = backgammon.rollouts
        except ImportError:
            print("(e) left out: open_spiel is not installed (pip install open_spiel)")

    rates: dict[str, list[float]] = {name: [] for name in engines}
    actions: dict[str, float] = {}
    for _ in range(args.rounds):
        for name, play in engines.items():
            start = time.perf_counter()
            actions[name] = play()
            rates[name].append(actions[name] / (time.perf_counter() - start))

    reference_rates = rates["(d) reference"]
    print(f"{args.rounds} rounds; (a), (b), (d): {args.games} games a round; (c): {args.playouts} games a round")
    print(f"{'engine':<16} {'actions/s':>11}  {'x (d)':>6}  {'(spread)':>13}  {'actions per game':>16}")
    for name, measured in rates.items():
        ratios = [r / d for r, d in zip(measured, reference_rates)]
        per_game = actions[name] / games.get(name, args.games)
        print(f"{name:<16} {statistics.median(measured):>11,.0f}  {statistics.median(ratios):>6.2f}  "
              f"({min(ratios):5.2f}-{max(ratios):5.2f})  {per_game:>16.1f}")
    same = actions["(a) interpreter"] == actions["(b) stepwise"] == actions["(d) reference"]
    print("(a), (b) and (d) played the same games" if same else "(a), (b) and (d) played DIFFERENT GAMES")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
