"""How `amunre simulate` scales with --jobs: the same games with --jobs 1 and with --jobs J,
run as whole commands, alternating (1, J, 1, J, ...) so that a noisy machine hurts both alike.

    python benchmarks/bench_simulate.py                       # 2000 random 4-player games, 5 rounds, 1 vs 2
    python benchmarks/bench_simulate.py --agents greedy --games 100 --rounds 3
    python benchmarks/bench_simulate.py --jobs 4

Prints, per setting, the median of the whole command's wall time and of the games per second
the run itself measured (without starting Python and loading the rules), and the ratio of
throughputs. Both runs play the same games (the same --seed), so their reports are equal.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run_once(args: argparse.Namespace, jobs: int, report: Path) -> tuple[float, float]:
    command = [sys.executable, "-m", "amunre.cli.app", "simulate", args.rules, "--games", str(args.games),
               "--players", str(args.players), "--agents", ",".join([args.agents] * args.players),
               "--seed", str(args.seed), "--jobs", str(jobs), "--quiet", "--json", str(report)]
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - started
    return wall, json.loads(report.read_text())["run"]["games_per_second"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="knizia2016")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--agents", default="random")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="compared with --jobs 1")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    walls: dict[int, list[float]] = {1: [], args.jobs: []}
    paces: dict[int, list[float]] = {1: [], args.jobs: []}
    with tempfile.TemporaryDirectory() as folder:
        for round_ in range(args.rounds):
            for jobs in (1, args.jobs):
                wall, pace = run_once(args, jobs, Path(folder) / f"report-{jobs}.json")
                walls[jobs].append(wall)
                paces[jobs].append(pace)
                print(f"round {round_ + 1}: --jobs {jobs}: {wall:.2f} s, {pace:.1f} games/s in the run", flush=True)
    print(f"\n{args.games} games of {args.rules}, {args.players} players, {args.agents} agents, "
          f"medians of {args.rounds} alternating runs:")
    for jobs in walls:
        print(f"  --jobs {jobs}: {statistics.median(walls[jobs]):.2f} s whole command "
              f"({args.games / statistics.median(walls[jobs]):.1f} games/s), "
              f"{statistics.median(paces[jobs]):.1f} games/s in the run")
    print(f"  throughput --jobs {args.jobs} / --jobs 1: whole command "
          f"{statistics.median(walls[1]) / statistics.median(walls[args.jobs]):.2f}x, in the run "
          f"{statistics.median(paces[args.jobs]) / statistics.median(paces[1]):.2f}x")


if __name__ == "__main__":
    main()
