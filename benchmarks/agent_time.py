"""Where a bot's time goes: its decisions timed whole, and the parts every bot here is made of
timed inside them (the engine's steps, copies of the game, valuations, guesses of the hidden
facts), over seeded games with the bot in every seat.

    python benchmarks/agent_time.py                                   # greedy, 3 four-player games of knizia2016
    python benchmarks/agent_time.py --agent 'ismcts:iterations=50' --games 1
    python benchmarks/agent_time.py --rules knizia2003 --players 5

Each part is timed by wrapping its function for the run (`Game.apply_id`, `Game.clone`, the
agents' `value` and `values`, `Guesses.draw`), so the parts' own figures include about half
a microsecond a call of wrapping, and the decisions as a whole are that much slower than in a
plain run (bench_agents.py gives the plain speed). The parts do not call one another, so
their shares add up; what is left is the bot's own bookkeeping. Printed per part: seconds a
game, share of the decisions' time, calls a game, microseconds a call. It tells how far a
speed-up of one part can take a bot (issue 23): a bot whose steps take a third of its time
cannot become more than three times as fast by making everything else free.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import amunre
from amunre.interpreter.game import Game
from amunre.tools import determinize
from amunre.tools.agents import choose_id, heuristic, ismcts, make_agent
from amunre.tools.simulate.seeds import agent_seed


def timed(owner: Any, name: str, label: str, spent: Counter[str], calls: Counter[str]) -> None:
    """Replace `owner.name` by a wrapper adding each call's time to `spent[label]`."""
    inner: Callable[..., Any] = getattr(owner, name)
    clock = time.perf_counter

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = clock()
        try:
            return inner(*args, **kwargs)
        finally:
            spent[label] += clock() - started
            calls[label] += 1
    setattr(owner, name, wrapper)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agent", default="greedy", help="an agent spec, in every seat (default greedy)")
    parser.add_argument("--rules", default="knizia2016", help="a shipped rules file's name or a path")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    path = args.rules if args.rules.endswith((".yaml", ".yml")) else f"rules/{args.rules}.yaml"
    rules = amunre.load_rules(path)
    spent: Counter[str] = Counter()
    calls: Counter[str] = Counter()
    step = Game.apply_id                # the game's own steps, one a decision, are not the bot's
    timed(Game, "apply_id", "engine steps (apply_id)", spent, calls)
    timed(Game, "clone", "copies (Game.clone)", spent, calls)
    timed(heuristic, "value", "valuations (value)", spent, calls)
    timed(ismcts, "values", "valuations (values)", spent, calls)
    timed(determinize.Guesses, "draw", "guesses (Guesses.draw)", spent, calls)
    deciding = 0.0
    for seed in range(args.games):
        bots = [make_agent(args.agent, agent_seed(seed, seat)) for seat in range(args.players)]
        game = amunre.new_game(rules, args.players, seed, events=False)
        while not game.over:
            seat = game.to_move
            assert seat is not None
            started = time.perf_counter()
            action = choose_id(bots[seat], game)
            deciding += time.perf_counter() - started
            step(game, action)
    games = args.games
    print(f"{args.agent}, {args.rules}, {args.players} players, {games} games: "
          f"{deciding / games:.3f} s a game deciding")
    rest = deciding
    for label, seconds in spent.most_common():
        share = seconds / deciding
        rest -= seconds
        print(f"  {label:26} {seconds / games:7.3f} s a game  {100 * share:5.1f}%  "
              f"{calls[label] / games:9.0f} calls a game  {1e6 * seconds / calls[label]:6.1f} us a call")
    print(f"  {'the bot itself':26} {rest / games:7.3f} s a game  {100 * rest / deciding:5.1f}%")


if __name__ == "__main__":
    main()
