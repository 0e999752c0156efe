"""The interpreter against the hand-written reference engine (benchmarks/reference/): games per
second side by side in one run, for 3, 4 and 5 players, and how both scale with worker processes.

    python benchmarks/bench_reference.py                      # 3, 4, 5 players; 5 rounds of 100 games each
    python benchmarks/bench_reference.py --players 4 --games 200 --rounds 7
    python benchmarks/bench_reference.py --jobs 1,2           # + the scaling with 1 and 2 worker processes

Both engines play the 2016 rules with their default options between seeded random agents
(game `i` uses seed `--seed + i`, seat `s` chooses with `random.Random(seed * 101 + s + 1)`,
as bench_random.py does): the interpreter through integer ids without its event log (the
fastest way it plays), the reference through its own action numbers. The reference lists its
legal actions in the interpreter's order, so the two play the very same games; the table
shows the actions per game of each as a check. Rounds alternate the engines (A B A B ...), so
that a change in the machine's load hits both; the ratio is the median of the rounds' ratios.
Measurements only: nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import amunre

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reference  # benchmarks/reference/, beside this file (the path set just above)

RULES = Path(__file__).resolve().parent.parent / "rules" / "knizia2016.yaml"
ENGINES = ("interpreter", "reference")
_rules: Any = None                       # the interpreter's rules, loaded once per process


def _interpreter_rules() -> Any:
    global _rules
    if _rules is None:
        _rules = amunre.load_rules(RULES)
    return _rules


def play(engine: str, players: int, seeds: range) -> int:
    """Play the games of these seeds in one engine; the number of actions taken."""
    actions = 0
    for seed in seeds:
        pickers = [random.Random(seed * 101 + s + 1) for s in range(players)]
        if engine == "interpreter":
            game = amunre.new_game(_interpreter_rules(), players=players, seed=seed, events=False)
            while not game.over:
                game.apply_id(pickers[game.to_move].choice(game.legal_action_ids()))
                actions += 1
        else:
            ref = reference.Game(players, seed)
            while not ref.over:
                ref.apply(pickers[ref.to_move].choice(ref.legal))
                actions += 1
    return actions


def side_by_side(players: int, games: int, rounds: int, seed: int) -> dict[str, Any]:
    """Games per second of each engine, round after round, alternating."""
    rates: dict[str, list[float]] = {engine: [] for engine in ENGINES}
    actions: dict[str, int] = {}
    seeds = range(seed, seed + games)
    for _ in range(rounds):
        for engine in ENGINES:
            start = time.perf_counter()
            actions[engine] = play(engine, players, seeds)
            rates[engine].append(games / (time.perf_counter() - start))
    ratios = [a / b for a, b in zip(rates["interpreter"], rates["reference"])]
    return {"players": players, "rates": {e: statistics.median(r) for e, r in rates.items()},
            "ratio": statistics.median(ratios), "spread": (min(ratios), max(ratios)),
            "actions": {e: a / games for e, a in actions.items()}}


def _play_chunk(task: tuple[str, int, int, int]) -> int:
    engine, players, first, count = task
    return play(engine, players, range(first, first + count))


def scaling(jobs: list[int], players: int, games: int, seed: int) -> list[tuple[str, int, float]]:
    """Games per second of each engine with each number of worker processes (warm workers: the
    pool starts and loads the rules before the clock starts)."""
    out = []
    chunk = 10
    for workers in jobs:
        with multiprocessing.Pool(workers, initializer=_interpreter_rules) as pool:
            pool.map(_play_chunk, [("interpreter", players, seed, 1)] * workers)      # warm up
            for engine in ENGINES:
                tasks = [(engine, players, first, min(chunk, seed + games - first))
                         for first in range(seed, seed + games, chunk)]
                start = time.perf_counter()
                sum(pool.imap_unordered(_play_chunk, tasks))
                out.append((engine, workers, games / (time.perf_counter() - start)))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="3,4,5", help="player counts, comma-separated (default 3,4,5)")
    parser.add_argument("--games", "-n", type=int, default=100, help="games per engine per round (default 100)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds, alternating the engines (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument("--jobs", default="", help="also measure with these numbers of worker processes, "
                        "comma-separated (e.g. 1,2); 4 players, --games x --rounds games per engine")
    args = parser.parse_args(argv)
    counts = [int(p) for p in args.players.split(",")]

    start = time.perf_counter()
    _interpreter_rules()
    print(f"rules: {RULES.name} (loaded in {(time.perf_counter() - start) * 1000:.0f} ms); "
          f"{args.rounds} rounds of {args.games} games per engine and player count, one core")
    print(f"{'players':>7}  {'interpreter games/s':>19}  {'reference games/s':>17}  {'ratio':>5}  "
          f"{'(spread)':>11}  {'actions per game':>16}")
    for players in counts:
        row = side_by_side(players, args.games, args.rounds, args.seed)
        acts = row["actions"]
        same = "same games" if acts["interpreter"] == acts["reference"] else "DIFFERENT GAMES"
        print(f"{players:>7}  {row['rates']['interpreter']:>19.0f}  {row['rates']['reference']:>17.0f}  "
              f"{row['ratio']:>5.2f}  ({row['spread'][0]:.2f}-{row['spread'][1]:.2f})  "
              f"{acts['interpreter']:>7.1f} ({same})")
    if args.jobs:
        jobs = [int(j) for j in args.jobs.split(",")]
        games = args.games * args.rounds
        print(f"\nworker processes: {games} four-player games per engine and number of workers")
        results = scaling(jobs, 4, games, args.seed)
        base = {engine: rate for engine, workers, rate in results if workers == jobs[0]}
        print(f"{'engine':>11}  {'workers':>7}  {'games/s':>8}  {'speed-up':>8}")
        for engine, workers, rate in sorted(results):
            print(f"{engine:>11}  {workers:>7}  {rate:>8.0f}  {rate / base[engine]:>8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
