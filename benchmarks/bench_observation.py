"""What an observation tensor costs beside an engine step, over seeded random games.

    python benchmarks/bench_observation.py                       # 20 four-player games of knizia2016
    python benchmarks/bench_observation.py --games 50 --players 4 --rules pharaohs-heir
    python benchmarks/bench_observation.py --seats mover         # only the seat to move is observed
    python benchmarks/bench_observation.py --profile             # + the top 25 functions of the tensors

The random agents choose uniformly among `legal_action_ids()` (one seeded `random.Random` per
game), with no event log, as learning loops and simulations play. At every decision the loop
computes `observation_tensor(seat)` for every seat (what a multi-agent learning loop reads;
`--seats mover`: only the seat to move's, as a single-agent loop reads), then applies the
action; the two are timed apart with `time.perf_counter` around each, so one run gives both
rates on the same positions. Printed: tensors per second, engine steps per second, and their
ratio (how many tensors cost one step). `--rounds` plays the games that many times and prints
the median round. Measurements only: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import sys
import time
from typing import Any

import amunre
from amunre.adapters.common import rules_from


def play(rules: Any, games: int, players: int, seed: int, mover_only: bool = False,
         profiler: cProfile.Profile | None = None) -> tuple[int, float, int, float]:
    """(tensors, seconds in them, steps, seconds in them) over the games."""
    clock = time.perf_counter
    tensors = steps = 0
    in_tensors = in_steps = 0.0
    every_seat = range(players)
    for g in range(games):
        game = amunre.new_game(rules, players, seed + g, events=False)
        pick = random.Random(seed + g)
        while not game.over:
            if profiler is not None:
                profiler.enable()
            seats = (game.to_move,) if mover_only else every_seat
            start = clock()
            for seat in seats:
                game.observation_tensor(seat)
            middle = clock()
            if profiler is not None:
                profiler.disable()
            game.apply_id(pick.choice(game.legal_action_ids()))
            end = clock()
            in_tensors += middle - start
            in_steps += end - middle
            tensors += len(seats)
            steps += 1
    return tensors, in_tensors, steps, in_steps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="knizia2016", help="rules file or shipped name (default knizia2016)")
    parser.add_argument("--games", "-n", type=int, default=20, help="games per round (default 20)")
    parser.add_argument("--players", "-p", type=int, default=4, help="players per game (default 4)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the same games; the median is shown")
    parser.add_argument("--seats", choices=("all", "mover"), default="all",
                        help="observe every seat at each decision (default), or only the seat to move")
    parser.add_argument("--profile", action="store_true", help="profile the tensors only; print the top 25")
    args = parser.parse_args(argv)

    rules = rules_from(args.rules)
    size = sum(piece["size"] for piece in amunre.new_game(rules, args.players, args.seed).observation_layout())
    print(f"rules: {args.rules}, {args.players} players, {args.games} games per round, tensor of {size} numbers, "
          f"{'the seat to move' if args.seats == 'mover' else 'every seat'} observed at each decision")
    profiler = cProfile.Profile() if args.profile else None
    rates = []
    for r in range(args.rounds):
        tensors, in_tensors, steps, in_steps = play(rules, args.games, args.players, args.seed,
                                                    args.seats == "mover", profiler)
        rate, step_rate = tensors / in_tensors, steps / in_steps
        rates.append((rate, step_rate))
        print(f"  round {r + 1}: {tensors} tensors in {in_tensors:.2f} s, {steps} steps in {in_steps:.2f} s")
    rate = statistics.median(r for r, _ in rates)
    step_rate = statistics.median(s for _, s in rates)
    note = " (under the profiler: slower than a plain run)" if profiler else ""
    print(f"{rate:10.0f} tensors/s ({1e6 / rate:.1f} us each){note}")
    print(f"{step_rate:10.0f} steps/s   ({1e6 / step_rate:.1f} us each)")
    print(f"{rate / step_rate:10.2f} tensors per step's time (one tensor costs {step_rate / rate:.2f} steps)")
    if profiler is not None:
        print()
        pstats.Stats(profiler, stream=sys.stdout).strip_dirs().sort_stats("tottime").print_stats(25)
    return 0


if __name__ == "__main__":
    sys.exit(main())
