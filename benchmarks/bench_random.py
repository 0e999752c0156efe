"""How fast the interpreter plays: N games between random agents on one core.

    python benchmarks/bench_random.py                 # 200 four-player games, both APIs
    python benchmarks/bench_random.py --games 50 --api ids --profile
    python benchmarks/bench_random.py --games 200 --api ids --no-events   # as simulations play

The random agents choose uniformly among the legal actions, from seeded generators, so both
APIs play the very same games: through integer ids (`legal_action_ids()`, `apply_id()`, what
bots and simulations use) and through dicts (`legal_actions()`, `apply()`). Prints games per
second and actions per second for each (loading the rules is timed apart, once); `--profile`
runs the games under cProfile and prints the 25 functions with the most cumulative time.
Measurements only: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib.resources
import pstats
import random
import sys
import time
from typing import Any

import amunre


def default_rules() -> str:
    """The first rules file shipped with the package."""
    shipped = sorted(p.name for p in importlib.resources.files("amunre.rules").iterdir() if p.name.endswith(".yaml"))
    return str(importlib.resources.files("amunre.rules").joinpath(shipped[0]))


def play_games(rules: Any, games: int, players: int, seed: int, api: str, events: bool = True) -> int:
    """Play the games through one API; the number of actions taken in all of them."""
    actions = 0
    for g in range(games):
        game = amunre.new_game(rules, players=players, seed=seed + g, events=events)
        pickers = [random.Random((seed + g) * 101 + s + 1) for s in range(players)]
        if api == "ids":
            while not game.over:
                game.apply_id(pickers[game.to_move].choice(game.legal_action_ids()))
                actions += 1
        else:
            while not game.over:
                game.apply(pickers[game.to_move].choice(game.legal_actions()))
                actions += 1
    return actions


def measure(rules: Any, args: argparse.Namespace, api: str) -> None:
    profiler = cProfile.Profile() if args.profile else None
    start = time.perf_counter()
    if profiler is not None:
        profiler.enable()
    actions = play_games(rules, args.games, args.players, args.seed, api, not args.no_events)
    if profiler is not None:
        profiler.disable()
    elapsed = time.perf_counter() - start
    note = " (under the profiler: slower than a plain run)" if profiler else ""
    print(f"{api}: {args.games} games of {args.players} random players, {actions} actions in {elapsed:.2f} s{note}")
    print(f"  {args.games / elapsed:8.1f} games/s")
    print(f"  {actions / elapsed:8.0f} actions/s")
    print(f"  {actions / args.games:8.1f} actions per game, {elapsed / args.games * 1000:.2f} ms per game")
    if profiler is not None:
        print()
        pstats.Stats(profiler, stream=sys.stdout).strip_dirs().sort_stats("cumulative").print_stats(25)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", "-n", type=int, default=200, help="games to play (default 200)")
    parser.add_argument("--players", "-p", type=int, default=4, help="players per game (default 4)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument("--rules", default=None, help="rules file (default: the shipped one)")
    parser.add_argument("--api", choices=("both", "ids", "dicts"), default="both",
                        help="play through integer ids, dicts, or both in turn (default both)")
    parser.add_argument("--no-events", action="store_true",
                        help="keep no event log (new_game(..., events=False)), as simulations do")
    parser.add_argument("--profile", action="store_true", help="profile and print the top 25 by cumulative time")
    args = parser.parse_args(argv)

    path = args.rules or default_rules()
    start = time.perf_counter()
    rules = amunre.load_rules(path)
    print(f"rules: {path} (loaded and compiled in {(time.perf_counter() - start) * 1000:.0f} ms)")
    for api in (("ids", "dicts") if args.api == "both" else (args.api,)):
        measure(rules, args, api)
    return 0


if __name__ == "__main__":
    sys.exit(main())
