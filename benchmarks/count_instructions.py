"""Instructions per game, counted inside the games only: a measure that a busy machine does not
move (wall-clock timings on a shared machine drift by several per cent between runs).

    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=starmap_next \
        --callgrind-out-file=/tmp/games.cg python benchmarks/count_instructions.py --games 30
    callgrind_annotate /tmp/games.cg | head      # the total, divided by the games played

or, the same in one step (this script runs itself under valgrind and prints the figure):

    python benchmarks/count_instructions.py --games 30 --valgrind [--engine reference]

The games are those of bench_reference.py (2016 rules, seeded random agents through integer
ids, no event log), played through `itertools.starmap`, so that callgrind counts only while
the games run: loading and compiling the rules, the interpreter's start and the caches are
left out. Run with PYTHONHASHSEED=0 (the one-step form sets it) so that two counts of the same
code agree to the instruction.
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_reference  # the games bench_reference plays (found by the path set just above)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--engine", choices=("interpreter", "reference"), default="interpreter")
    parser.add_argument("--valgrind", action="store_true", help="run under callgrind and print instructions per game")
    args = parser.parse_args()
    if args.valgrind:
        return _under_valgrind(args)
    play = bench_reference.play
    if args.engine == "interpreter":
        bench_reference._interpreter_rules()       # loaded and built before counting starts
    play(args.engine, args.players, range(1000, 1001))     # one game first: every module imported, caches warm
    actions = sum(itertools.starmap(play, [(args.engine, args.players, range(seed, seed + 1))
                                           for seed in range(args.games)]))
    print(f"{args.games} games, {actions / args.games:.1f} actions per game")
    return 0


def _under_valgrind(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "games.cg")
        command = ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=starmap_next",
                   f"--callgrind-out-file={out}", sys.executable, __file__, "--games", str(args.games),
                   "--players", str(args.players), "--engine", args.engine]
        run = subprocess.run(command, env={**os.environ, "PYTHONHASHSEED": "0"}, capture_output=True, text=True)
        if run.returncode != 0:
            print(run.stderr, file=sys.stderr)
            return run.returncode
        summary = subprocess.run(["callgrind_annotate", out], capture_output=True, text=True, check=True).stdout
    total = int(re.search(r"^([\d,]+) \(100\.0%\)\s+PROGRAM TOTALS", summary, re.M).group(1).replace(",", ""))
    print(run.stdout.strip())
    print(f"{args.engine}: {total / args.games / 1e6:.2f}M instructions per game ({total:,} in {args.games} games)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
